//! The steps of a program's sends through switch nodes (docs/export.md,
//! "Switch nodes"). A switch in a schedule may hold a copy for several steps
//! before it forwards it; a program cannot: its GPU-to-GPU send crosses the
//! switch without stopping, the link in at one step and the link out at the
//! next (as `check PROGRAM.xml --network FABRIC` plays it, docs/msccl.md "On
//! a fabric"). Written at the step the copy entered the switch, such a send
//! may share the link out with another; written at the step of the forward,
//! the link in. So each send is placed anew, step by step, where every link
//! of its route has room and no switch limit is exceeded, counted as the
//! check counts them.
//!
//! The check plays a program as soon as its dependencies allow: a send
//! leaves the step after the last thing it waits for (the previous step's
//! sends of its GPU, the receipt of what it sends). A send may therefore be
//! placed at step t only if that is when it would leave: t is one after the
//! GPU's previous sending step or after the receipt of its item, or the GPU
//! receives something at t − 1 and the send waits for that receipt too (its
//! *anchor*). A send whose item reaches its GPU is offered the links at each
//! step from then on until it is placed: the sends of a step earliest
//! forward (in the schedule) first, those of GPUs that receive nothing in the
//! step (and so could not wait for a later one) before the rest; if that
//! leaves a send that can never go, the plain earliest-forward order is
//! tried. The program may so take more steps than the schedule. When a send
//! can never go in either order (no receipt is left to wait for and no link
//! has room when it may), the export is refused with the send, its switch
//! and its steps.
//!
//! Nothing here is trusted: the program is checked as the collective, and
//! played on the fabric, before anything is written ([`super::collective`]).

use super::MscclError;
use crate::msccl::routes::Routes;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use txverify_core::network::Graph;
use txverify_core::schedule::{Packet, TimedSend};

/// At most this many (step, send) tries are made while placing sends,
/// counted as they are made (each one looks at a send's route): above, the
/// export is refused.
pub const MAX_PLACEMENT_TRIES: u64 = 1 << 26;

/// A GPU-to-GPU send of a schedule through switch nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// The send, at the step its copy left the sending GPU.
    pub send: TimedSend,
    /// The step its copy reached the receiving GPU in the schedule.
    pub reached: u32,
    /// The last switch it crossed (none for a send between two linked GPUs).
    pub switch: Option<u32>,
}

/// The sends placed at their steps, in (step, from, to) order, and the
/// receipt each send waits for besides its own item's (its anchor): the
/// send, as placed, that brought it.
#[derive(Clone, Debug, Default)]
pub struct Placed {
    /// The sends, each at its new step.
    pub sends: Vec<TimedSend>,
    /// Send → the send whose receipt at its GPU it waits for.
    pub anchors: HashMap<TimedSend, TimedSend>,
}

/// One send while it is placed.
struct Job {
    crossing: Crossing,
    route: Vec<(u32, u32)>,
    /// The job that brings its item to its GPU (none: the GPU starts with it).
    fed_by: Option<usize>,
    step: Option<u32>,
}

/// What one GPU has sent: its last sending step and the one before.
#[derive(Clone, Copy, Default)]
struct Sending {
    last: u32,
    before: u32,
}

/// Which sends of a step are offered the links first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum First {
    /// Those of GPUs that receive nothing in the step (if they do not send
    /// now, they may not send until they receive something), then the rest;
    /// each group earliest forward first.
    Pressed,
    /// Earliest forward first.
    Earliest,
}

/// Places the `crossings` (in schedule order) of a program on `graph`
/// (`gpus` GPUs, numbered first, the switches after them): first offering
/// the links to the GPUs that must send, then, if that leaves a send with
/// no step, to the earliest forwards; refused if both do.
pub fn place(graph: &Graph, gpus: u32, crossings: &[Crossing]) -> Result<Placed, MscclError> {
    place_within(graph, gpus, crossings, MAX_PLACEMENT_TRIES)
}

/// [`place`], refused after `max_tries` tries.
fn place_within(
    graph: &Graph,
    gpus: u32,
    crossings: &[Crossing],
    max_tries: u64,
) -> Result<Placed, MscclError> {
    let routes = Routes::new(graph).map_err(MscclError::Switches)?;
    let mut tries = Tries {
        made: 0,
        most: max_tries,
    };
    let first = attempt(graph, &routes, gpus, crossings, First::Pressed, &mut tries);
    match first {
        Err(MscclError::NoStep { .. }) => {
            attempt(graph, &routes, gpus, crossings, First::Earliest, &mut tries).or(first)
        }
        done => done,
    }
}

/// The tries made, over every attempt, and the most allowed.
struct Tries {
    made: u64,
    most: u64,
}

/// One placing of the crossings, offering the links in the order `first`
/// says.
fn attempt(
    graph: &Graph,
    routes: &Routes,
    gpus: u32,
    crossings: &[Crossing],
    first: First,
    tries: &mut Tries,
) -> Result<Placed, MscclError> {
    let mut deliverer: HashMap<(u32, Packet), usize> = HashMap::new();
    for (j, c) in crossings.iter().enumerate() {
        deliverer.entry((c.send.to, c.send.packet())).or_insert(j);
    }
    let mut jobs: Vec<Job> = crossings
        .iter()
        .map(|c| Job {
            crossing: *c,
            route: routes.route(c.send.from, c.send.to),
            // The item's block node starts with it; any other GPU is sent it.
            fed_by: (c.send.from != c.send.source)
                .then(|| deliverer.get(&(c.send.from, c.send.packet())).copied())
                .flatten(),
            step: None,
        })
        .collect();
    // Earliest forward first, then as the schedule sent them.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| {
        let c = &jobs[j].crossing;
        (c.reached, c.send.step, c.send.from, c.send.to)
    });
    let mut rank = vec![0; jobs.len()];
    for (k, &j) in order.iter().enumerate() {
        rank[j] = k;
    }
    // Jobs waiting for their item, by the job that brings it.
    let mut waiting: HashMap<usize, Vec<usize>> = HashMap::new();
    // Jobs whose item is at their GPU from a step on: (step, rank, job).
    let mut ready_from: BTreeSet<(u32, usize, usize)> = BTreeSet::new();
    for (j, job) in jobs.iter().enumerate() {
        match job.fed_by {
            Some(f) => waiting.entry(f).or_default().push(j),
            None => {
                ready_from.insert((1, rank[j], j));
            }
        }
    }
    let mut fabric = Room::new(graph);
    let mut sending = vec![Sending::default(); gpus as usize];
    // Per GPU, a job whose receipt there is at each step.
    let mut receipts: Vec<BTreeMap<u32, usize>> = vec![BTreeMap::new(); gpus as usize];
    // (rank, job, the step its item reached its GPU).
    let mut ready: BTreeSet<(usize, usize, u32)> = BTreeSet::new();
    let mut placed = Placed::default();
    let mut left = jobs.len();
    let mut last_receipt = 0u32;
    let mut t = 0u32;
    while left > 0 {
        t = t.checked_add(1).ok_or(MscclError::TooLarge {
            sends: crossings.len(),
        })?;
        while let Some(&(from, k, j)) = ready_from.first() {
            if from > t {
                break;
            }
            ready_from.pop_first();
            ready.insert((k, j, from - 1));
        }
        let mut offered: Vec<(usize, usize, u32)> = ready.iter().copied().collect();
        if first == First::Pressed {
            let from = |j: usize| jobs[j].crossing.send.from as usize;
            offered.sort_by_key(|&(k, j, _)| (receipts[from(j)].contains_key(&t), k));
        }
        let mut now: Vec<(usize, usize, u32)> = Vec::new();
        for (k, j, held) in offered {
            tries.made += 1;
            if tries.made > tries.most {
                return Err(MscclError::TooManyTries { tries: tries.made });
            }
            let job = &jobs[j];
            let s = job.crossing.send;
            let gpu = sending[s.from as usize];
            let after = if gpu.last == t { gpu.before } else { gpu.last };
            let natural = after.max(held) + 1;
            let anchor = if natural == t {
                None
            } else {
                match receipts[s.from as usize].get(&(t - 1)) {
                    Some(&a) => Some(a),
                    None => continue,
                }
            };
            if !fabric.fits(t, &job.route) {
                continue;
            }
            fabric.take(t, &job.route);
            let g = &mut sending[s.from as usize];
            if g.last != t {
                g.before = g.last;
                g.last = t;
            }
            let arrives = t + job.route.len().max(1) as u32 - 1;
            receipts[s.to as usize].entry(arrives).or_insert(j);
            last_receipt = last_receipt.max(arrives);
            now.push((k, j, held));
            let sent = TimedSend { step: t, ..s };
            jobs[j].step = Some(t);
            if let Some(a) = anchor {
                let by = jobs[a].crossing.send;
                let at = jobs[a].step.expect("a receipt's send is placed");
                placed.anchors.insert(sent, TimedSend { step: at, ..by });
            }
            placed.sends.push(sent);
            for &w in waiting.get(&j).into_iter().flatten() {
                ready_from.insert((arrives + 1, rank[w], w));
            }
        }
        left -= now.len();
        for x in now {
            ready.remove(&x);
        }
        if left > 0 && ready_from.is_empty() && last_receipt < t {
            // Nothing arrives from now on: what is left can never go.
            let j = ready
                .first()
                .map(|&(_, j, _)| j)
                .or_else(|| jobs.iter().position(|job| job.step.is_none()))
                .expect("a send is left");
            let c = jobs[j].crossing;
            return Err(MscclError::NoStep {
                send: c.send,
                reached: c.reached,
                switch: c.switch,
                tried_to: t,
            });
        }
    }
    placed.sends.sort_by_key(|s| (s.step, s.from, s.to));
    Ok(placed)
}

/// The chunks each link and each switch limit carries in each step so far,
/// against their capacities, counted as `check --network` counts them.
struct Room<'g> {
    graph: &'g Graph,
    /// Limits by source node: (limit, its destinations).
    limits_from: HashMap<u32, Vec<usize>>,
    links: HashMap<(u32, (u32, u32)), u32>,
    on_limits: HashMap<(u32, usize), u32>,
}

impl<'g> Room<'g> {
    fn new(graph: &'g Graph) -> Room<'g> {
        let mut limits_from: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, limit) in graph.fabric().limits().iter().enumerate() {
            for &x in &limit.sources {
                limits_from.entry(x).or_default().push(i);
            }
        }
        Room {
            graph,
            limits_from,
            links: HashMap::new(),
            on_limits: HashMap::new(),
        }
    }

    /// The limits that count a chunk on `link`.
    fn limits_on(&self, link: (u32, u32)) -> impl Iterator<Item = usize> + '_ {
        let limits = self.graph.fabric().limits();
        self.limits_from
            .get(&link.0)
            .into_iter()
            .flatten()
            .copied()
            .filter(move |&i| limits[i].destinations.binary_search(&link.1).is_ok())
    }

    /// Whether one more chunk leaving at step `t` on `route` (link i at
    /// step t + i) keeps every capacity and limit.
    fn fits(&self, t: u32, route: &[(u32, u32)]) -> bool {
        let limits = self.graph.fabric().limits();
        route.iter().enumerate().all(|(i, &link)| {
            let step = t + i as u32;
            let capacity = self
                .graph
                .link(link.0, link.1)
                .map_or(1, |l| self.graph.capacity(l));
            self.links.get(&(step, link)).copied().unwrap_or(0) < capacity
                && self
                    .limits_on(link)
                    .all(|l| self.on_limits.get(&(step, l)).copied().unwrap_or(0) < limits[l].sends)
        })
    }

    /// Counts a chunk leaving at step `t` on `route`.
    fn take(&mut self, t: u32, route: &[(u32, u32)]) {
        for (i, &link) in route.iter().enumerate() {
            let step = t + i as u32;
            *self.links.entry((step, link)).or_default() += 1;
            let on: Vec<usize> = self.limits_on(link).collect();
            for l in on {
                *self.on_limits.entry((step, l)).or_default() += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn nvswitch(n: u32) -> Graph {
        let name: NetworkName = format!("nvswitch {n}").parse().unwrap();
        name.build().unwrap()
    }

    /// GPU `from` sends block `source`'s chunk 0 to GPU `to` through switch
    /// `switch`: into it at step `step`, out of it at step `reached`.
    fn through(step: u32, from: u32, to: u32, source: u32, reached: u32, switch: u32) -> Crossing {
        let p = Packet::item(source, 0);
        Crossing {
            send: TimedSend {
                step,
                from,
                to,
                source: p.source,
                destination: p.destination,
            },
            reached,
            switch: Some(switch),
        }
    }

    #[test]
    fn a_copy_the_switch_held_is_sent_when_the_link_out_is_free() {
        // nvswitch 3 (switch 3): GPU 0 sends its chunk in at step 1, the
        // switch forwards it to GPU 1 at step 2 and a second copy (in at 2)
        // to GPU 2 at step 3; GPU 2's chunk goes in at step 1 too and the
        // switch holds it until step 4, when it forwards it to GPU 1.
        // Crossing the switch at once, 2 → 1 would share 3 → 1 with 0 → 1 at
        // step 2; GPU 2 receives nothing before step 3, so 2 → 1 waits for
        // that receipt and leaves at step 4.
        let g = nvswitch(3);
        let crossings = [
            through(1, 0, 1, 0, 2, 3),
            through(2, 0, 2, 0, 3, 3),
            through(1, 2, 1, 2, 4, 3),
        ];
        let placed = place(&g, 3, &crossings).unwrap();
        let at: Vec<(u32, u32, u32)> = placed
            .sends
            .iter()
            .map(|s| (s.step, s.from, s.to))
            .collect();
        assert_eq!(at, [(1, 0, 1), (2, 0, 2), (4, 2, 1)]);
        // Its dependencies would let 2 → 1 leave at step 1: it also waits
        // for the receipt of 0 → 2 (at GPU 2 in step 3).
        let anchored = placed.sends[2];
        assert_eq!(placed.anchors.get(&anchored), Some(&placed.sends[1]));
        assert_eq!(placed.anchors.len(), 1);
    }

    #[test]
    fn a_send_no_step_can_take_is_refused_with_its_switch_item_and_steps() {
        // GPUs 0 and 2 send their chunks to GPU 1 through switch 3 at step 1;
        // the switch forwards them at steps 2 and 3. Neither GPU receives
        // anything, so in the program both leave at step 1 and share 3 → 1.
        let g = nvswitch(3);
        let crossings = [through(1, 0, 1, 0, 2, 3), through(1, 2, 1, 2, 3, 3)];
        let err = place(&g, 3, &crossings).unwrap_err();
        let MscclError::NoStep {
            send,
            reached,
            switch,
            ..
        } = err
        else {
            panic!("{err}");
        };
        assert_eq!((send, reached, switch), (crossings[1].send, 3, Some(3)));
        let line = err.to_string();
        assert!(line.contains("through switch 3"), "{line}");
        assert!(line.contains("finds no step"), "{line}");
        assert!(line.contains("2 -> 1"), "{line}");
    }

    #[test]
    fn placing_stops_at_its_limit_of_tries() {
        // Three sends, each tried at least once: a limit of 2 stops the work.
        let g = nvswitch(3);
        let crossings = [
            through(1, 0, 1, 0, 2, 3),
            through(2, 0, 2, 0, 3, 3),
            through(1, 2, 1, 2, 4, 3),
        ];
        assert_eq!(
            place_within(&g, 3, &crossings, 2).unwrap_err(),
            MscclError::TooManyTries { tries: 3 }
        );
        assert!(place_within(&g, 3, &crossings, 64).is_ok());
    }
}
