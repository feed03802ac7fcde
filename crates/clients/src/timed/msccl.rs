//! The timed replay of an MSCCL program on a network, by the executor's
//! order of events ([`crate::msccl::execute`]): every thread block runs its
//! transmissions in order; a transmission waits for its dependencies (the
//! time a thread block published a step number at least the one named), then
//! for the message it receives (when it has wholly arrived), then sends. A
//! send hands its message of `cnt` chunks to the first link of its
//! connection's route and is done (the connection buffers it, as in the
//! executor); the message crosses the route store-and-forward, queueing
//! behind earlier messages on each link. Copies, reductions and the
//! bookkeeping of a step take no time: only links do.
//!
//! Only programs the executor found valid are timed: their receives match
//! their sends, and no wait is circular.

use super::engine::{Driver, Engine, HopId};
use super::{LinkTimes, MAX_TIMED_SENDS, TimedReport};
use crate::msccl::lower::Rank;
use crate::msccl::routes::Routes;
use std::collections::HashMap;
use txverify_core::bounds::timed::TimedBound;

/// A time and the hop whose end it is (`None` for time 0).
type Mark = (f64, Option<HopId>);

struct ProgramDriver<'r> {
    ranks: &'r [Rank],
    /// Global thread block → (GPU, id).
    tbs: Vec<(usize, usize)>,
    first: Vec<usize>,
    /// The connection each thread block sends on, receives on.
    send_conn: Vec<Option<usize>>,
    recv_conn: Vec<Option<usize>>,
    /// Each connection's route (directed links).
    routes: Vec<Vec<u32>>,
    /// Messages sent on each connection, and when each arrived.
    sent: Vec<usize>,
    arrivals: Vec<Vec<Option<Mark>>>,
    /// The thread block waiting for a message of each connection.
    receiver_waiting: Vec<Option<usize>>,
    /// (connection, sequence) of each injected message.
    messages: Vec<(usize, usize)>,
    next: Vec<usize>,
    received: Vec<usize>,
    ready: Vec<Mark>,
    publications: Vec<Vec<(i64, Mark)>>,
    waiters: Vec<Vec<usize>>,
    pending: Vec<usize>,
    completion: f64,
}

impl ProgramDriver<'_> {
    fn txs(&self, t: usize) -> &[crate::msccl::lower::Tx] {
        let (g, id) = self.tbs[t];
        &self.ranks[g].tbs[id].txs
    }

    /// Runs the thread blocks in `pending` as far as each can go now.
    fn settle(&mut self, engine: &mut Engine<'_>) {
        while let Some(t) = self.pending.pop() {
            self.advance(t, engine);
        }
    }

    fn advance(&mut self, t: usize, engine: &mut Engine<'_>) {
        let ranks = self.ranks;
        let (g, id) = self.tbs[t];
        let txs = &ranks[g].tbs[id].txs;
        while let Some(tx) = txs.get(self.next[t]) {
            let mut at = self.ready[t];
            let later = |at: &mut Mark, m: Mark| {
                if m.0 > at.0 || at.1.is_none() && m.0 >= at.0 {
                    *at = m;
                }
            };
            for &(b, k) in &tx.deps {
                if b < 0 || b as usize >= ranks[g].tbs.len() {
                    return; // refused by the executor: never timed
                }
                let publisher = self.first[g] + b as usize;
                let pubs = &self.publications[publisher];
                match pubs.get(pubs.partition_point(|p| p.0 < k)) {
                    Some(&(_, m)) => later(&mut at, m),
                    None => {
                        self.waiters[publisher].push(t);
                        return;
                    }
                }
            }
            let active = tx.count > 0;
            if active && tx.op.receives() {
                let Some(c) = self.recv_conn[t] else { return };
                match self.arrivals[c].get(self.received[t]).copied().flatten() {
                    Some(m) => later(&mut at, m),
                    None => {
                        self.receiver_waiting[c] = Some(t);
                        return;
                    }
                }
                self.received[t] += 1;
            }
            if active && tx.op.sends() {
                let Some(c) = self.send_conn[t] else { return };
                let tag = self.messages.len() as u32;
                self.messages.push((c, self.sent[c]));
                self.sent[c] += 1;
                self.arrivals[c].push(None);
                let route = self.routes[c].clone();
                engine.inject(route, tx.count as u64, u64::from(tag), tag, at.1);
            }
            self.ready[t] = at;
            self.completion = self.completion.max(at.0);
            if tx.hasdep {
                self.publications[t].push((tx.number, at));
                let woken = std::mem::take(&mut self.waiters[t]);
                self.pending.extend(woken);
            }
            self.next[t] += 1;
        }
    }
}

impl Driver for ProgramDriver<'_> {
    fn arrived(&mut self, engine: &mut Engine<'_>, tag: u32, hop: HopId) {
        let (c, seq) = self.messages[tag as usize];
        self.arrivals[c][seq] = Some((engine.now(), Some(hop)));
        if let Some(t) = self.receiver_waiting[c].take() {
            self.pending.push(t);
        }
        self.settle(engine);
    }
}

/// The timed replay of the lowered program `ranks` (valid, one rank per node
/// of `routes`' network) with its connections on `routes`, beside `bound`.
pub fn replay(
    ranks: &[Rank],
    routes: &Routes<'_>,
    times: &LinkTimes,
    bound: Option<TimedBound>,
) -> TimedReport {
    let graph = routes.graph();
    let total: usize = ranks.iter().flat_map(|r| &r.tbs).map(|t| t.txs.len()).sum();
    if total > MAX_TIMED_SENDS {
        return TimedReport::not_timed(
            times,
            format!(
                "not timed: {total} transmissions, more than the {MAX_TIMED_SENDS} a timed replay plays"
            ),
        );
    }
    let (mut tbs, mut first) = (Vec::new(), Vec::new());
    let mut conns: HashMap<(u32, u32, u32), usize> = HashMap::new();
    let mut conn_routes: Vec<Vec<u32>> = Vec::new();
    let (mut send_conn, mut recv_conn) = (Vec::new(), Vec::new());
    let mut conn_of = |key: (u32, u32, u32)| -> Option<usize> {
        if let Some(&c) = conns.get(&key) {
            return Some(c);
        }
        let route: Option<Vec<u32>> = routes
            .route(key.1, key.2)
            .into_iter()
            .map(|(a, b)| graph.link(a, b))
            .collect();
        let route = route.filter(|r| !r.is_empty())?;
        conn_routes.push(route);
        conns.insert(key, conn_routes.len() - 1);
        Some(conn_routes.len() - 1)
    };
    for (g, rank) in ranks.iter().enumerate() {
        first.push(tbs.len());
        for (i, tb) in rank.tbs.iter().enumerate() {
            tbs.push((g, i));
            let g = g as u32;
            send_conn.push(tb.send.and_then(|p| conn_of((tb.chan, g, p))));
            recv_conn.push(tb.recv.and_then(|p| conn_of((tb.chan, p, g))));
        }
    }
    let (t, c) = (tbs.len(), conn_routes.len());
    let mut driver = ProgramDriver {
        ranks,
        tbs,
        first,
        send_conn,
        recv_conn,
        routes: conn_routes,
        sent: vec![0; c],
        arrivals: vec![Vec::new(); c],
        receiver_waiting: vec![None; c],
        messages: Vec::new(),
        next: vec![0; t],
        received: vec![0; t],
        ready: vec![(0.0, None); t],
        publications: vec![Vec::new(); t],
        waiters: vec![Vec::new(); t],
        pending: (0..t).rev().collect(),
        completion: 0.0,
    };
    let capacities = (0..graph.directed_links() as u32)
        .map(|l| graph.capacity(l))
        .collect();
    let mut engine =
        Engine::new(&times.times, &times.ends, graph.nodes(), None).with_capacities(capacities);
    driver.settle(&mut engine);
    engine.run(&mut driver);
    let mut report = TimedReport::of_run(times, &engine, driver.completion, bound);
    if let Some(stuck) = (0..t).find(|&x| driver.next[x] < driver.txs(x).len()) {
        // Never on a program the executor ran to the end.
        let (g, id) = driver.tbs[stuck];
        report.completion = None;
        report.ratio = None;
        report.note = Some(format!(
            "not timed: GPU {g}, thread block {id} never finished its step {}",
            driver.txs(stuck)[driver.next[stuck]].index
        ));
    }
    report
}
