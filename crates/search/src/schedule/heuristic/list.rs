//! Giving every hop of every route a step: list scheduling, two ways, and the
//! sends of the result in step order without holding them all.

use super::routes::{Block, Routes, tie};
use std::collections::BinaryHeap;
use txverify_core::network::Graph;
use txverify_core::schedule::TimedSend;

/// The most sends [`Timed::for_each_step`] gathers at once (20 bytes each:
/// 320 MiB).
const WINDOW_SENDS: u64 = 1 << 24;

/// Routes with a step for every hop: `steps[d]` parallel to `routes.blocks[d].links`.
pub struct Timed {
    pub(super) routes: Routes,
    pub(super) steps: Vec<Vec<u32>>,
    pub(super) time: u32,
}

impl Timed {
    fn new(routes: Routes) -> Timed {
        let steps = routes
            .blocks
            .iter()
            .map(|b| vec![0; b.links.len()])
            .collect();
        Timed {
            routes,
            steps,
            time: 0,
        }
    }

    /// The number of steps.
    pub fn time(&self) -> u32 {
        self.time
    }

    /// The number of sends.
    pub fn sends(&self) -> u64 {
        self.routes.total_hops()
    }

    /// The steps of message `m`'s hops.
    fn steps_of(&mut self, m: usize) -> &mut [u32] {
        let per = self.routes.n as usize - 1;
        let b: &Block = &self.routes.blocks[m / per];
        let (a, z) = (b.starts[m % per] as usize, b.starts[m % per + 1] as usize);
        &mut self.steps[m / per][a..z]
    }

    /// Calls `each` with the sends of every step, in step order, one call a
    /// step (an empty slice for a step without sends), from the windows of
    /// [`for_each_window`](Self::for_each_window).
    pub fn for_each_step<E>(
        &self,
        graph: &Graph,
        each: impl FnMut(&[TimedSend]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.for_each_step_in(graph, WINDOW_SENDS, each)
    }

    /// [`for_each_step`](Self::for_each_step) with windows of at most
    /// `window_sends` sends.
    pub(super) fn for_each_step_in<E>(
        &self,
        graph: &Graph,
        window_sends: u64,
        mut each: impl FnMut(&[TimedSend]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.windows_in(graph, window_sends, |window, counts| {
            let mut begin = 0;
            for &c in counts {
                let end = begin + c as usize;
                each(&window[begin..end])?;
                begin = end;
            }
            Ok(())
        })
    }

    /// Calls `each` with every send in step order, a window of whole steps
    /// at a time, at most `WINDOW_SENDS` (2^24) sends (one step at least):
    /// for each window one pass over the routes in memory order gathers its
    /// sends, placed by a counting sort on the step; within a step the sends
    /// are by destination, source and hop. Following each message from hop to
    /// hop instead, step by step, took a cache miss or more per send, most of
    /// the walk's time on large networks; a window holds 20 bytes a send
    /// beside the routes, never every send. A window is handed out whole so
    /// that a caller can give it to two consumers at once (the replay and the
    /// writing).
    pub fn for_each_window<E>(
        &self,
        graph: &Graph,
        mut each: impl FnMut(&[TimedSend]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.windows_in(graph, WINDOW_SENDS, |window, _| each(window))
    }

    /// The windows of [`for_each_window`](Self::for_each_window), of at most
    /// `window_sends` sends, each with its sends' count step by step.
    fn windows_in<E>(
        &self,
        graph: &Graph,
        window_sends: u64,
        mut each: impl FnMut(&[TimedSend], &[u64]) -> Result<(), E>,
    ) -> Result<(), E> {
        let time = self.time as usize;
        let mut count = vec![0u64; time + 2];
        for steps in &self.steps {
            steps.iter().for_each(|&t| count[t as usize] += 1);
        }
        let blank = TimedSend {
            step: 0,
            from: 0,
            to: 0,
            source: 0,
            destination: 0,
        };
        let mut window: Vec<TimedSend> = Vec::new();
        let mut at = vec![0usize; time + 2];
        let mut first = 1;
        while first <= time {
            // The steps first..last of this window, and where each begins.
            let mut last = first;
            let mut sends = 0u64;
            while last <= time && (last == first || sends + count[last] <= window_sends) {
                at[last] = sends as usize;
                sends += count[last];
                last += 1;
            }
            window.clear();
            window.resize(sends as usize, blank);
            for (d, (b, steps)) in self.routes.blocks.iter().zip(&self.steps).enumerate() {
                for j in 0..b.starts.len().saturating_sub(1) {
                    let (a, z) = (b.starts[j] as usize, b.starts[j + 1] as usize);
                    let source = Routes::source(d as u32, j as u32);
                    for (&t, &link) in steps[a..z].iter().zip(&b.links[a..z]) {
                        let t = t as usize;
                        if t < first || t >= last {
                            continue;
                        }
                        let (from, to) = graph.endpoints(link);
                        window[at[t]] = TimedSend {
                            step: t as u32,
                            from,
                            to,
                            source,
                            destination: d as u32,
                        };
                        at[t] += 1;
                    }
                }
            }
            each(&window, &count[first..last])?;
            first = last;
        }
        Ok(())
    }

    /// Every send, in step order.
    pub fn to_sends(&self, graph: &Graph) -> Vec<TimedSend> {
        let mut sends = Vec::with_capacity(self.sends() as usize);
        let _: Result<(), ()> = self.for_each_step(graph, |batch| {
            sends.extend_from_slice(batch);
            Ok(())
        });
        sends
    }
}

/// How many messages [`reserve`] places between two questions to its stop.
const STOP_EVERY: usize = 4096;

/// Reservation list scheduling: the messages longest path first (ties by
/// `seed`), each crossing its links in order, each at the earliest step after
/// it arrived at which that directed link is still free (buffering: it may
/// wait). `None` when `stop()` said so first (asked every [`STOP_EVERY`]
/// messages).
pub(super) fn reserve(
    graph: &Graph,
    routes: Routes,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<Timed> {
    let order = longest_first(&routes, seed);
    let mut free: Vec<FreeSteps> = (0..graph.directed_links())
        .map(|_| FreeSteps::default())
        .collect();
    let mut timed = Timed::new(routes);
    let mut time = 0;
    let per = timed.routes.n as usize - 1;
    for (i, m) in order.into_iter().enumerate() {
        if i % STOP_EVERY == 0 && stop() {
            return None;
        }
        let m = m as usize;
        let b = &timed.routes.blocks[m / per];
        let (a, z) = (b.starts[m % per] as usize, b.starts[m % per + 1] as usize);
        let (links, steps) = (&b.links[a..z], &mut timed.steps[m / per][a..z]);
        let mut arrived = 0u32;
        for (&link, step) in links.iter().zip(steps) {
            arrived = free[link as usize].take_from(arrived + 1);
            *step = arrived;
        }
        time = time.max(arrived);
    }
    timed.time = time;
    Some(timed)
}

/// The messages longest path first, ties by `seed` ([`tie`]). For seed 0
/// (ties in message order) a counting sort over the path lengths: one pass
/// over the routes in memory order, where a comparison sort looks up two
/// paths' lengths at random places per comparison (most of the reservation
/// scheduling's time on 4,096 nodes); the same order as [`longest_first_sorted`].
pub(super) fn longest_first(routes: &Routes, seed: u64) -> Vec<u32> {
    if seed != 0 {
        return longest_first_sorted(routes, seed);
    }
    let lengths = || {
        routes
            .blocks
            .iter()
            .flat_map(|b| b.starts.windows(2).map(|w| (w[1] - w[0]) as usize))
    };
    let longest = lengths().max().unwrap_or(0);
    // first[k]: where the messages of k hops begin, the longest first.
    let mut first = vec![0usize; longest + 2];
    lengths().for_each(|k| first[longest - k + 1] += 1);
    for i in 1..first.len() {
        first[i] += first[i - 1];
    }
    let mut order = vec![0u32; routes.messages()];
    for (m, k) in lengths().enumerate() {
        let at = &mut first[longest - k];
        order[*at] = m as u32;
        *at += 1;
    }
    order
}

/// [`longest_first`] by a comparison sort, any seed.
pub(super) fn longest_first_sorted(routes: &Routes, seed: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..routes.messages() as u32).collect();
    order.sort_by_key(|&m| {
        (
            std::cmp::Reverse(routes.hops(m as usize).len()),
            tie(seed, u64::from(m)),
        )
    });
    order
}

/// Step-by-step list scheduling: at every step, each directed link sends,
/// among the messages waiting at its tail to cross it (arrived before the
/// step), the one with the most hops still to go (ties by `seed`). `None`
/// when `stop()` said so first (asked before each step).
pub(super) fn farthest_first(
    graph: &Graph,
    routes: Routes,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<Timed> {
    let links = graph.directed_links();
    // (hops to go, tie, message, hop index within the path).
    type Waiting = (u32, u32, u32, u32);
    let mut queues: Vec<BinaryHeap<Waiting>> = (0..links).map(|_| BinaryHeap::new()).collect();
    let mut timed = Timed::new(routes);
    let key = |m: usize| tie(seed, m as u64) as u32;
    let mut busy: Vec<u32> = Vec::new();
    for m in 0..timed.routes.messages() {
        let path = timed.routes.hops(m);
        if let Some(&l) = path.first() {
            queues[l as usize].push((path.len() as u32, key(m), m as u32, 0));
        }
    }
    busy.extend((0..links as u32).filter(|&l| !queues[l as usize].is_empty()));
    let mut listed = vec![false; links];
    busy.iter().for_each(|&l| listed[l as usize] = true);
    let mut arrivals: Vec<(u32, Waiting)> = Vec::new();
    let mut t = 0u32;
    while !busy.is_empty() {
        if stop() {
            return None;
        }
        t += 1;
        arrivals.clear();
        for &l in &busy {
            let Some((_, _, m, k)) = queues[l as usize].pop() else {
                continue;
            };
            let m = m as usize;
            timed.steps_of(m)[k as usize] = t;
            let path = timed.routes.hops(m);
            if let Some(&next) = path.get(k as usize + 1) {
                let left = (path.len() - k as usize - 1) as u32;
                arrivals.push((next, (left, key(m), m as u32, k + 1)));
            }
        }
        for &(l, w) in &arrivals {
            queues[l as usize].push(w);
        }
        busy.retain(|&l| {
            let keep = !queues[l as usize].is_empty();
            listed[l as usize] = keep;
            keep
        });
        for &(l, _) in &arrivals {
            if !listed[l as usize] {
                listed[l as usize] = true;
                busy.push(l);
            }
        }
    }
    timed.time = t;
    Some(timed)
}

/// The busy steps of one directed link, as bits: bit `t % 64` of
/// `busy[t / 64]` is step `t`, and bit `w % 64` of `full[w / 64]` says that
/// word `w` of `busy` is full, so the earliest free step is found in a few
/// words (about 1 KB a link for 9,000 steps, where a union-find over the
/// steps took 4 bytes a step and most of the reservation's time at 4,096
/// nodes in cache misses). Step 0 is never handed out by [`reserve`]: it asks
/// from step 1.
#[derive(Default)]
pub(super) struct FreeSteps {
    busy: Vec<u64>,
    full: Vec<u64>,
}

impl FreeSteps {
    /// The earliest free step at or after `from`, now marked busy.
    pub(super) fn take_from(&mut self, from: u32) -> u32 {
        let t = self.peek(from);
        let w = (t / 64) as usize;
        if w >= self.busy.len() {
            self.busy.resize(w + 1, 0);
        }
        self.busy[w] |= 1 << (t % 64);
        if self.busy[w] == u64::MAX {
            let f = w / 64;
            if f >= self.full.len() {
                self.full.resize(f + 1, 0);
            }
            self.full[f] |= 1 << (w % 64);
        }
        t
    }

    /// The earliest free step at or after `from` (left free).
    pub(super) fn peek(&self, from: u32) -> u32 {
        let w = (from / 64) as usize;
        let Some(&word) = self.busy.get(w) else {
            return from;
        };
        let free = !word & (u64::MAX << (from % 64));
        if free != 0 {
            return (w * 64) as u32 + free.trailing_zeros();
        }
        // The first word after `w` that is not full (a word past the end of
        // `busy` is free; one past the end of `full` is not full).
        let mut at = w + 1;
        loop {
            let f = at / 64;
            let summary = self.full.get(f).copied().unwrap_or(0);
            let open = !summary & (u64::MAX << (at % 64));
            if open != 0 {
                let word = f * 64 + open.trailing_zeros() as usize;
                let bits = self.busy.get(word).copied().unwrap_or(0);
                return (word * 64) as u32 + (!bits).trailing_zeros();
            }
            at = (f + 1) * 64;
        }
    }
}
