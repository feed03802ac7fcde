//! The event engine of the timed replay: transfers crossing directed links
//! store-and-forward, each link serving one message at a time, first come
//! first served.
//!
//! A *transfer* is a message of `size` chunks on a route of directed links.
//! Each crossing (a *hop*) becomes ready when the message is wholly at the
//! link's tail (injected there, or arrived from the previous link); a link
//! serves its ready hops in the order they became ready, ties by the key the
//! driver gave (schedule order), and a hop takes `α + size·β` of its link.
//! With K ports a node has at most K hops leaving it and K arriving at once; a
//! hop at the head of its link's queue that cannot have its ports waits there
//! (the link serves in order). The driver (a schedule, an MSCCL program) is
//! told of every arrival and may inject transfers then.
//!
//! Every hop remembers the hop whose end let it start (the previous hop of its
//! message, the driver's dependency, or the hop that freed its link or port):
//! following these back from the last arrival gives the critical path.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// A time, ordered totally (times are finite and non-negative).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct At(pub f64);

impl Eq for At {}

impl PartialOrd for At {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for At {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// A hop's number.
pub(crate) type HopId = u32;

/// One crossing of one link by one transfer.
#[derive(Clone, Debug)]
pub(crate) struct Hop {
    /// The directed link.
    pub link: u32,
    /// When the message was wholly at the link's tail.
    pub ready: f64,
    /// When the link began to carry it.
    pub start: f64,
    /// When it was wholly at the head.
    pub end: f64,
    /// The hop whose end let this one start (`None`: nothing before it).
    pub after: Option<HopId>,
    /// Whether it waited for its link or a port (not for its data).
    pub waited: bool,
    /// The transfer.
    transfer: u32,
    /// Its place on the transfer's route.
    index: u32,
}

/// One message on its route.
struct Transfer {
    route: Vec<u32>,
    size: u64,
    key: u64,
    tag: u32,
}

/// What the driver of a replay does when a transfer arrives.
pub(crate) trait Driver {
    /// Transfer `tag` is wholly at the end of its route at `engine.now()`, by
    /// hop `hop`. The driver may inject transfers.
    fn arrived(&mut self, engine: &mut Engine<'_>, tag: u32, hop: HopId);
}

/// Per directed link: its `(α, β)`, endpoints, and what it carried.
pub(crate) struct Engine<'a> {
    times: &'a [(f64, f64)],
    ends: &'a [(u32, u32)],
    ports: Option<u32>,
    now: f64,
    hops: Vec<Hop>,
    transfers: Vec<Transfer>,
    queues: Vec<BinaryHeap<Reverse<(At, u64, HopId)>>>,
    /// Messages crossing each link now.
    busy: Vec<u32>,
    /// Messages each link carries at once: a fabric's capacity (1 without).
    capacity: Vec<u32>,
    /// The last hop to end on each link, leaving and entering each node.
    last_on_link: Vec<Option<HopId>>,
    last_out: Vec<Option<HopId>>,
    last_in: Vec<Option<HopId>>,
    sending: Vec<u32>,
    receiving: Vec<u32>,
    events: BinaryHeap<Reverse<(At, HopId)>>,
    candidates: Vec<u32>,
    candidate: Vec<bool>,
    /// The links leaving and entering each node (with K ports only).
    out_links: Vec<Vec<u32>>,
    in_links: Vec<Vec<u32>>,
    /// Busy time of each link.
    pub busy_time: Vec<f64>,
    /// Messages each link carried.
    pub messages: Vec<u64>,
    /// Chunks each link carried.
    pub chunks: Vec<u64>,
    /// The latest arrival of a transfer, and its last hop.
    pub last_arrival: Option<(f64, HopId)>,
}

impl<'a> Engine<'a> {
    /// An engine on links with `times[l] = (α, β)` and `ends[l] = (from, to)`,
    /// `nodes` nodes, `ports` K (`None`: all ports).
    pub fn new(
        times: &'a [(f64, f64)],
        ends: &'a [(u32, u32)],
        nodes: usize,
        ports: Option<u32>,
    ) -> Engine<'a> {
        let l = times.len();
        let (mut out_links, mut in_links) = (vec![Vec::new(); nodes], vec![Vec::new(); nodes]);
        if ports.is_some() {
            for (link, &(a, b)) in ends.iter().enumerate() {
                out_links[a as usize].push(link as u32);
                in_links[b as usize].push(link as u32);
            }
        }
        Engine {
            times,
            ends,
            ports,
            now: 0.0,
            hops: Vec::new(),
            transfers: Vec::new(),
            queues: (0..l).map(|_| BinaryHeap::new()).collect(),
            busy: vec![0; l],
            capacity: vec![1; l],
            last_on_link: vec![None; l],
            last_out: vec![None; nodes],
            last_in: vec![None; nodes],
            sending: vec![0; nodes],
            receiving: vec![0; nodes],
            events: BinaryHeap::new(),
            candidates: Vec::new(),
            candidate: vec![false; l],
            out_links,
            in_links,
            busy_time: vec![0.0; l],
            messages: vec![0; l],
            chunks: vec![0; l],
            last_arrival: None,
        }
    }

    /// Lets directed link `l` carry `capacity[l]` messages at once (a
    /// fabric's doubled link carries two, each at its own α + size·β); a
    /// capacity of 0 is taken as 1.
    pub fn with_capacities(mut self, capacity: Vec<u32>) -> Self {
        if capacity.len() == self.capacity.len() {
            self.capacity = capacity.into_iter().map(|c| c.max(1)).collect();
        }
        self
    }

    /// The current time.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Every hop so far.
    pub fn hops(&self) -> &[Hop] {
        &self.hops
    }

    /// Injects a message of `size` chunks on `route` (non-empty) now, ordered
    /// among messages ready at the same time by `key`; `after` is the hop
    /// whose end made it ready, if any.
    pub fn inject(&mut self, route: Vec<u32>, size: u64, key: u64, tag: u32, after: Option<HopId>) {
        let t = self.transfers.len() as u32;
        let first = route[0];
        self.transfers.push(Transfer {
            route,
            size,
            key,
            tag,
        });
        self.enqueue(t, 0, first, after);
    }

    fn enqueue(&mut self, transfer: u32, index: u32, link: u32, after: Option<HopId>) {
        let id = self.hops.len() as HopId;
        self.hops.push(Hop {
            link,
            ready: self.now,
            start: self.now,
            end: self.now,
            after,
            waited: false,
            transfer,
            index,
        });
        let key = self.transfers[transfer as usize].key;
        self.queues[link as usize].push(Reverse((At(self.now), key, id)));
        self.mark(link);
    }

    fn mark(&mut self, link: u32) {
        if !self.candidate[link as usize] {
            self.candidate[link as usize] = true;
            self.candidates.push(link);
        }
    }

    /// Runs until nothing moves.
    pub fn run(&mut self, driver: &mut impl Driver) {
        self.start_ready();
        while let Some(Reverse((At(t), hop))) = self.events.pop() {
            self.now = t;
            self.end_hop(hop, driver);
            while let Some(&Reverse((At(u), next))) = self.events.peek() {
                if u != t {
                    break;
                }
                self.events.pop();
                self.end_hop(next, driver);
            }
            self.start_ready();
        }
    }

    fn end_hop(&mut self, id: HopId, driver: &mut impl Driver) {
        let hop = &self.hops[id as usize];
        let (link, transfer, index) = (hop.link, hop.transfer, hop.index);
        let (from, to) = self.ends[link as usize];
        self.busy[link as usize] -= 1;
        self.last_on_link[link as usize] = Some(id);
        self.last_out[from as usize] = Some(id);
        self.last_in[to as usize] = Some(id);
        self.sending[from as usize] -= 1;
        self.receiving[to as usize] -= 1;
        self.mark(link);
        if self.ports.is_some() {
            // A freed port may let another link of either node start.
            for i in 0..self.out_links[from as usize].len() {
                self.mark(self.out_links[from as usize][i]);
            }
            for i in 0..self.in_links[to as usize].len() {
                self.mark(self.in_links[to as usize][i]);
            }
        }
        let t = &self.transfers[transfer as usize];
        if let Some(&next) = t.route.get(index as usize + 1) {
            self.enqueue(transfer, index + 1, next, Some(id));
        } else {
            let tag = t.tag;
            if self.last_arrival.is_none_or(|(at, _)| self.now >= at) {
                self.last_arrival = Some((self.now, id));
            }
            driver.arrived(self, tag, id);
        }
    }

    /// Starts what can start now, the candidate links in the order of their
    /// queue heads.
    fn start_ready(&mut self) {
        let mut links = std::mem::take(&mut self.candidates);
        for &l in &links {
            self.candidate[l as usize] = false;
        }
        let free = |e: &Self, l: u32| e.busy[l as usize] < e.capacity[l as usize];
        links.retain(|&l| free(self, l) && !self.queues[l as usize].is_empty());
        links.sort_by_key(|&l| self.queues[l as usize].peek().map(|Reverse(h)| *h));
        for l in links {
            while free(self, l) {
                let Some(&Reverse((_, _, id))) = self.queues[l as usize].peek() else {
                    break;
                };
                let (from, to) = self.ends[l as usize];
                if let Some(k) = self.ports
                    && (self.sending[from as usize] >= k || self.receiving[to as usize] >= k)
                {
                    break; // woken again when a port of `from` or `to` frees
                }
                self.queues[l as usize].pop();
                self.start(id, l, from, to);
            }
        }
    }

    fn start(&mut self, id: HopId, l: u32, from: u32, to: u32) {
        let (alpha, beta) = self.times[l as usize];
        let size = self.transfers[self.hops[id as usize].transfer as usize].size;
        let duration = alpha + size as f64 * beta;
        let now = self.now;
        // What it waited for, when not its data: whatever ended last of its
        // link and its ports (all of them end now).
        let blocker = [
            self.last_on_link[l as usize],
            self.last_out[from as usize],
            self.last_in[to as usize],
        ]
        .into_iter()
        .flatten()
        .max_by(|a, b| At(self.hops[*a as usize].end).cmp(&At(self.hops[*b as usize].end)));
        let hop = &mut self.hops[id as usize];
        if hop.ready < now {
            hop.waited = true;
            hop.after = blocker.or(hop.after);
        }
        hop.start = now;
        hop.end = now + duration;
        self.busy[l as usize] += 1;
        self.sending[from as usize] += 1;
        self.receiving[to as usize] += 1;
        self.busy_time[l as usize] += duration;
        self.messages[l as usize] += 1;
        self.chunks[l as usize] += size;
        self.events.push(Reverse((At(now + duration), id)));
    }

    /// The critical path ending at hop `last`: its hops, latest first.
    pub fn path_to(&self, last: HopId) -> Vec<HopId> {
        let mut path = vec![last];
        let mut at = last;
        while let Some(before) = self.hops[at as usize].after {
            path.push(before);
            at = before;
        }
        path
    }
}
