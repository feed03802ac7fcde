//! The timed replay of a schedule: its sends in time instead of in steps.
//!
//! Each send carries one packet (one chunk) over one link. It is released
//! when its packet is at the sender as the schedule has it there: when every
//! send of the same packet (item) *to* the sender at an earlier step has
//! arrived (a personalised packet or a copy: the one that brought it; a
//! combined item: every partial the sender combined before it sends). Then it
//! queues on its link, first come first served, ties in schedule order (step,
//! then file order), under the schedule's ports; a link of capacity c (a
//! fabric's doubled NVLink: 2) carries c messages at once, each at its own
//! α + β. The steps thus only order the sends; a send waits for no clock.
//!
//! Only valid schedules are timed (the caller asks the core's verdict first):
//! on them every send is on a link and its packet does arrive.

use super::engine::{Driver, Engine, HopId};
use super::{LinkTimes, MAX_TIMED_SENDS, TimedReport};
use std::collections::HashMap;
use txverify_core::bounds::timed::steps_in_time;
use txverify_core::network::Graph;
use txverify_core::schedule::{Ports, TimedSend};

/// The sends of one packet (item) into and out of one node.
#[derive(Default)]
struct Group {
    /// Sends to the node, in schedule order.
    receipts: Vec<u32>,
    arrived: Vec<bool>,
    /// Receipts `0 .. frontier` have all arrived.
    frontier: usize,
    /// Sends from the node, in schedule order, with how many receipts come
    /// before each (at an earlier step).
    senders: Vec<(u32, usize)>,
    released: usize,
}

struct ScheduleDriver {
    /// Rank in `order` of each send (its tie-break key).
    rank: Vec<u32>,
    link: Vec<u32>,
    groups: Vec<Group>,
    /// (group, place among its receipts) of each send.
    receipt_of: Vec<(u32, u32)>,
}

impl ScheduleDriver {
    /// Injects the senders of group `g` whose receipts have all arrived.
    fn release(&mut self, engine: &mut Engine<'_>, g: usize, after: Option<HopId>) {
        let group = &mut self.groups[g];
        while let Some(&(send, before)) = group.senders.get(group.released) {
            if before > group.frontier {
                break;
            }
            group.released += 1;
            let s = send as usize;
            engine.inject(vec![self.link[s]], 1, u64::from(self.rank[s]), send, after);
        }
    }
}

impl Driver for ScheduleDriver {
    fn arrived(&mut self, engine: &mut Engine<'_>, tag: u32, hop: HopId) {
        let (g, place) = self.receipt_of[tag as usize];
        let group = &mut self.groups[g as usize];
        group.arrived[place as usize] = true;
        while group.arrived.get(group.frontier) == Some(&true) {
            group.frontier += 1;
        }
        self.release(engine, g as usize, Some(hop));
    }
}

/// The timed replay of the `sends` of a valid schedule on `graph` under
/// `ports`, beside the core's step bound `steps` (of the schedule's
/// collective on `graph` under `ports`) made into time.
pub fn replay(
    sends: &[TimedSend],
    graph: &Graph,
    ports: Ports,
    times: &LinkTimes,
    steps: Option<u64>,
) -> TimedReport {
    if sends.len() > MAX_TIMED_SENDS {
        return TimedReport::not_timed(
            times,
            format!(
                "not timed: {} sends, more than the {MAX_TIMED_SENDS} a timed replay plays",
                sends.len()
            ),
        );
    }
    let mut order: Vec<u32> = (0..sends.len() as u32).collect();
    order.sort_by_key(|&i| sends[i as usize].step);
    let mut rank = vec![0u32; sends.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    let mut link = vec![0u32; sends.len()];
    let mut ids: HashMap<(u32, u32, u32), u32> = HashMap::new();
    let mut groups: Vec<Group> = Vec::new();
    let mut receipt_of = vec![(0u32, 0u32); sends.len()];
    let mut group_of = |key: (u32, u32, u32), groups: &mut Vec<Group>| {
        *ids.entry(key).or_insert_with(|| {
            groups.push(Group::default());
            groups.len() as u32 - 1
        }) as usize
    };
    for &i in &order {
        let s = &sends[i as usize];
        let n = graph.nodes() as u32;
        let on_link = (s.from < n && s.to < n).then(|| graph.link(s.from, s.to));
        let Some(l) = on_link.flatten() else {
            return TimedReport::not_timed(
                times,
                format!("not timed: {} → {} is not a link", s.from, s.to),
            );
        };
        link[i as usize] = l;
        let g = group_of((s.source, s.destination, s.to), &mut groups);
        receipt_of[i as usize] = (g as u32, groups[g].receipts.len() as u32);
        groups[g].receipts.push(i);
        groups[g].arrived.push(false);
    }
    for &i in &order {
        let s = &sends[i as usize];
        let g = group_of((s.source, s.destination, s.from), &mut groups);
        let group = &mut groups[g];
        let before = group
            .receipts
            .partition_point(|&r| sends[r as usize].step < s.step);
        group.senders.push((i, before));
    }
    let mut driver = ScheduleDriver {
        rank,
        link,
        groups,
        receipt_of,
    };
    let k = match ports {
        Ports::All => None,
        Ports::Limit(k) => Some(k),
    };
    // A link of capacity c carries c messages at once (c parallel channels).
    let capacities = (0..graph.directed_links() as u32)
        .map(|l| graph.capacity(l))
        .collect();
    let mut engine =
        Engine::new(&times.times, &times.ends, graph.nodes(), k).with_capacities(capacities);
    for g in 0..driver.groups.len() {
        driver.release(&mut engine, g, None);
    }
    engine.run(&mut driver);
    let unsent = driver
        .groups
        .iter()
        .map(|g| g.senders.len() - g.released)
        .sum::<usize>();
    let completion = engine.last_arrival.map_or(0.0, |(t, _)| t);
    let bound = steps.map(|s| steps_in_time(s, &times.times));
    let mut report = TimedReport::of_run(times, &engine, completion, bound);
    if unsent > 0 {
        // Never on a valid schedule: each packet sent is at its sender.
        report.note = Some(format!(
            "{unsent} sends never had their packet at their sender and were not timed"
        ));
    }
    report
}
