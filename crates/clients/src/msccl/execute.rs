//! The symbolic executor: the trusted verdict for MSCCL programs
//! (docs/trust.md, docs/msccl.md "Running").
//!
//! Every slot of every GPU's memory holds the set of contributions (GPU,
//! input chunk) reduced into it, or nothing yet. All thread blocks run their
//! transmissions in order, as the kernel does: a transmission first waits for
//! its dependencies (another thread block of its GPU has published a step
//! number at least the one named), then receives, then sends. A connection
//! (channel, sender, receiver) is a first-in first-out queue: a send puts its
//! chunks at the back and is done, a receive takes the message at the front or
//! waits for one. The most chunks ever waiting on one connection is reported,
//! since a real connection buffers a bounded amount.
//!
//! Races are found with vector clocks: every access of a slot is checked to be
//! ordered, by program order, dependencies and messages, after every earlier
//! conflicting access by another thread block of the GPU. A message orders only
//! what its sender finished *before* the transmission that sent it (the kernel
//! sends slice by slice while it still reads and writes).
//!
//! This module shares no code with the exporter (src/export/msccl*), which
//! writes programs; it reads only [`lower`](super::lower)'s transmissions.

use super::collective::Shape;
use super::lower::{Rank, Tx};
use super::parse::Pos;
use super::program::{Buf, Op};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// What kind of fault a [`Finding`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// An offset and count outside the buffer.
    Range,
    /// A read of a slot nothing has written.
    Unwritten,
    /// Two accesses of a slot, one a write, not ordered.
    Race,
    /// A contribution reduced twice into one slot.
    Duplicate,
    /// Thread blocks waiting for each other, or for one that has finished.
    Deadlock,
    /// A send and its receive disagree on the count.
    Count,
    /// A dependency names a thread block the GPU does not have.
    Dependency,
    /// The output does not hold what the collective requires.
    WrongData,
}

impl Fault {
    /// The name the JSON report uses.
    pub fn name(self) -> &'static str {
        match self {
            Fault::Range => "range",
            Fault::Unwritten => "unwritten",
            Fault::Race => "race",
            Fault::Duplicate => "duplicate",
            Fault::Deadlock => "deadlock",
            Fault::Count => "count",
            Fault::Dependency => "dependency",
            Fault::WrongData => "wrong-data",
        }
    }
}

/// Why a run fails: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The fault.
    pub fault: Fault,
    /// The GPU.
    pub gpu: u32,
    /// The thread block, when one step is to blame.
    pub tb: Option<u32>,
    /// The step's index in its thread block (file order).
    pub step: Option<usize>,
    /// The step's place, or the program's.
    pub pos: Option<Pos>,
    /// The slot (buffer, chunk index), when one is.
    pub slot: Option<(Buf, i64)>,
    /// The reason, in words.
    pub message: String,
}

/// The figures of a successful run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Length of the longest chain of transmissions (each send–receive
    /// meeting, copy and reduction counts one).
    pub critical_path: u64,
    /// Transmissions run, all GPUs.
    pub transmissions: u64,
    /// Chunks sent on each connection (channel, from, to).
    pub connections: BTreeMap<(u32, u32, u32), u64>,
    /// The most chunks sent and not yet received on one connection.
    pub most_buffered: u64,
    /// The roots for which the postcondition holds (rooted collectives only).
    pub roots: Vec<u32>,
    /// The longest chain of messages, each weighed by its connection's hops
    /// ([`Options::hops`]; one each without a network): the steps the program
    /// needs at least when a chunk crosses one link a step, however wide the
    /// links. Copies, reductions and waits take no time here.
    pub depth: u64,
    /// With [`Options::record`]: what each connection (channel, from, to)
    /// carried, message by message in the order sent, each message its
    /// chunks' contributions.
    pub carried: BTreeMap<(u32, u32, u32), Vec<Vec<Value>>>,
    /// The steps of the fabric model ([`Options::hops`]): a connection
    /// moves one chunk a step along its route (a message of `cnt` chunks
    /// takes `cnt` steps to leave, each chunk one link a step behind the one
    /// before), messages of a connection in order, a message leaves the step
    /// after what its sender waited for arrived (a receive: its message; a
    /// send: its last chunk left); the last step a chunk moves.
    pub steps: u64,
    /// Every message in that model: its connection (channel, from, to), the
    /// step its first chunk takes its route's first link, and its chunks.
    pub timeline: Vec<Departure>,
}

/// A message in the step model of [`Figures::steps`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Departure {
    /// The connection (channel, from, to).
    pub connection: (u32, u32, u32),
    /// The step its first chunk crosses the route's first link (from 1).
    pub first_step: u64,
    /// Its chunks (`cnt`): chunk k crosses link i of the route at
    /// `first_step + k + i`.
    pub chunks: u64,
}

/// How to run: what a message costs in [`Figures::depth`], and whether to
/// keep every message ([`Figures::carried`]).
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Hops of the connection from one GPU to another (`None`: one).
    pub hops: Option<&'a dyn Fn(u32, u32) -> u64>,
    /// Keep the messages each connection carried.
    pub record: bool,
}

/// A set of contributions, sorted.
pub type Value = Vec<u32>;

/// One chunk of memory.
#[derive(Clone, Default)]
struct Slot {
    value: Option<Value>,
    writer: Option<(u32, u32)>,
    readers: Vec<(u32, u32)>,
}

/// A message on its way: its chunks, the sender's clock and time, and the
/// sending thread block and step.
struct Message {
    value: Vec<Value>,
    clock: Vec<u32>,
    time: u64,
    /// When it arrives in [`Figures::depth`]'s measure.
    depth: u64,
    /// The step its last chunk arrives in [`Figures::steps`]'s model.
    step: u64,
    from: (usize, usize),
}

/// A published step number: the number, when, and the publisher's clock if a
/// dependency needs it.
struct Publication {
    number: i64,
    time: u64,
    depth: u64,
    step: u64,
    clock: Option<Vec<u32>>,
}

/// Runs the program once in the shape `shape` and checks its postcondition.
pub fn run(ranks: &[Rank], shape: &Shape) -> Result<Figures, Finding> {
    run_with(ranks, shape, Options::default())
}

/// [`run`], with the cost of messages and the record asked for in `options`.
pub fn run_with(ranks: &[Rank], shape: &Shape, options: Options) -> Result<Figures, Finding> {
    let mut m = Machine::new(ranks, shape)?;
    m.options = options;
    while let Some(t) = m.queue.pop_front() {
        m.queued[t] = false;
        m.run_tb(t)?;
    }
    if let Some(t) = (0..m.tbs.len()).find(|&t| m.current(t).is_some()) {
        return Err(m.deadlock(t));
    }
    if let Some(f) = m.unreceived() {
        return Err(f);
    }
    let roots = m.check_output()?;
    m.figures.roots = roots;
    Ok(m.figures)
}

struct Machine<'a> {
    ranks: &'a [Rank],
    shape: &'a Shape,
    /// Global thread block → (GPU, id).
    tbs: Vec<(u32, u32)>,
    /// First global index of each GPU's thread blocks.
    first: Vec<usize>,
    next: Vec<usize>,
    begun: Vec<bool>,
    received: Vec<Option<Vec<Value>>>,
    outgoing: Vec<Option<Vec<Value>>>,
    ready: Vec<u64>,
    /// Per thread block, where it is in [`Figures::depth`]'s measure.
    depth: Vec<u64>,
    /// Per thread block, the step by whose end what it waited for arrived
    /// and what it sent left ([`Figures::steps`]).
    step: Vec<u64>,
    /// Per connection, the first step its next message may leave.
    connection_free: HashMap<(u32, u32, u32), u64>,
    options: Options<'a>,
    clock: Vec<Vec<u32>>,
    publications: Vec<Vec<Publication>>,
    awaited: Vec<Vec<i64>>,
    waiters: Vec<Vec<usize>>,
    memory: Vec<Vec<Slot>>,
    sender: HashMap<(u32, u32, u32), usize>,
    receiver: HashMap<(u32, u32, u32), usize>,
    fifo: HashMap<(u32, u32, u32), VecDeque<Message>>,
    buffered: HashMap<(u32, u32, u32), u64>,
    queue: VecDeque<usize>,
    queued: Vec<bool>,
    figures: Figures,
}

impl<'a> Machine<'a> {
    fn new(ranks: &'a [Rank], shape: &'a Shape) -> Result<Machine<'a>, Finding> {
        let mut tbs = Vec::new();
        let mut first = Vec::new();
        let mut sender = HashMap::new();
        let mut receiver = HashMap::new();
        for (g, rank) in ranks.iter().enumerate() {
            first.push(tbs.len());
            for tb in &rank.tbs {
                let global = tbs.len();
                tbs.push((g as u32, tb.id));
                let conns = [
                    (
                        tb.send.map(|p| (tb.chan, g as u32, p)),
                        &mut sender,
                        "send to",
                    ),
                    (
                        tb.recv.map(|p| (tb.chan, p, g as u32)),
                        &mut receiver,
                        "receive from",
                    ),
                ];
                for (conn, map, what) in conns {
                    if let Some(c) = conn
                        && let Some(other) = map.insert(c, global)
                    {
                        let peer = if what == "send to" { c.2 } else { c.1 };
                        return Err(Finding {
                            fault: Fault::Race,
                            gpu: g as u32,
                            tb: Some(tb.id),
                            step: None,
                            pos: Some(tb.pos),
                            slot: None,
                            message: format!(
                                "thread blocks {} and {} both {what} GPU {peer} on channel {}: they share one connection and their messages interleave unpredictably",
                                tbs[other].1, tb.id, c.0
                            ),
                        });
                    }
                }
            }
        }
        let t = tbs.len();
        let mut awaited = vec![Vec::new(); t];
        for (g, rank) in ranks.iter().enumerate() {
            for tb in &rank.tbs {
                for tx in &tb.txs {
                    for &(b, k) in &tx.deps {
                        if b < 0 || b as usize >= rank.tbs.len() {
                            return Err(Finding {
                                fault: Fault::Dependency,
                                gpu: g as u32,
                                tb: Some(tb.id),
                                step: Some(tx.index),
                                pos: Some(tx.pos),
                                slot: None,
                                message: format!(
                                    "it depends on thread block {b}, which GPU {g} does not have: the wait never ends"
                                ),
                            });
                        }
                        awaited[first[g] + b as usize].push(k);
                    }
                }
            }
        }
        for a in &mut awaited {
            a.sort_unstable();
            a.dedup();
        }
        let memory = ranks
            .iter()
            .enumerate()
            .map(|(g, rank)| initial_memory(shape, g as u32, rank.scratch))
            .collect();
        Ok(Machine {
            ranks,
            shape,
            tbs,
            first,
            next: vec![0; t],
            begun: vec![false; t],
            received: vec![None; t],
            outgoing: vec![None; t],
            ready: vec![0; t],
            depth: vec![0; t],
            step: vec![0; t],
            connection_free: HashMap::new(),
            options: Options::default(),
            clock: vec![vec![0; t]; t],
            publications: (0..t).map(|_| Vec::new()).collect(),
            awaited,
            waiters: vec![Vec::new(); t],
            memory,
            sender,
            receiver,
            fifo: HashMap::new(),
            buffered: HashMap::new(),
            queue: (0..t).collect(),
            queued: vec![true; t],
            figures: Figures::default(),
        })
    }

    fn tx(&self, t: usize, i: usize) -> &'a Tx {
        let (g, id) = self.tbs[t];
        &self.ranks[g as usize].tbs[id as usize].txs[i]
    }

    fn current(&self, t: usize) -> Option<&'a Tx> {
        let (g, id) = self.tbs[t];
        self.ranks[g as usize].tbs[id as usize]
            .txs
            .get(self.next[t])
    }

    fn push(&mut self, t: usize) {
        if !self.queued[t] {
            self.queued[t] = true;
            self.queue.push_back(t);
        }
    }

    /// The earliest publication of thread block `b` with a number ≥ `k`.
    fn publication(&self, b: usize, k: i64) -> Option<&Publication> {
        let pubs = &self.publications[b];
        let i = pubs.partition_point(|p| p.number < k);
        pubs.get(i)
    }

    /// The first dependency of `t`'s current transmission not yet met.
    fn unmet(&self, t: usize) -> Option<(usize, i64)> {
        let tx = self.current(t)?;
        let base = self.first[self.tbs[t].0 as usize];
        tx.deps
            .iter()
            .map(|&(b, k)| (base + b as usize, k))
            .find(|&(b, k)| self.publication(b, k).is_none())
    }

    /// Starts `t`'s current transmission (its dependencies are met): takes in
    /// what its dependencies' publishers had done, and when.
    fn begin(&mut self, t: usize) {
        if self.begun[t] {
            return;
        }
        self.begun[t] = true;
        let tx = self.current(t).expect("a transmission to begin");
        let base = self.first[self.tbs[t].0 as usize];
        for &(b, k) in &tx.deps {
            let p = self.publication(base + b as usize, k).expect("met");
            let (time, depth, step) = (p.time, p.depth, p.step);
            // Kept for every awaited number; without it, nothing is taken
            // as ordered (which can only report more races, never fewer).
            let snapshot = p.clock.clone();
            self.depth[t] = self.depth[t].max(depth);
            self.step[t] = self.step[t].max(step);
            self.ready[t] = self.ready[t].max(time);
            if let Some(snapshot) = snapshot {
                merge(&mut self.clock[t], &snapshot);
            }
        }
    }

    /// Runs `t` as far as it can go.
    fn run_tb(&mut self, t: usize) -> Result<(), Finding> {
        while let Some(tx) = self.current(t) {
            if let Some((b, _)) = self.unmet(t) {
                self.waiters[b].push(t);
                return Ok(());
            }
            self.begin(t);
            let active = tx.count > 0;
            if active && tx.op.receives() && self.received[t].is_none() && !self.receive(t)? {
                return Ok(());
            }
            if active && tx.op.sends() {
                self.send(t)?;
            } else {
                let end = self.ready[t] + u64::from(!tx.op.receives() && active);
                self.finish(t, end)?;
            }
        }
        Ok(())
    }

    fn send_conn(&self, t: usize) -> (u32, u32, u32) {
        let (g, id) = self.tbs[t];
        let tb = &self.ranks[g as usize].tbs[id as usize];
        (tb.chan, g, tb.send.unwrap_or(u32::MAX))
    }

    fn recv_conn(&self, t: usize) -> (u32, u32, u32) {
        let (g, id) = self.tbs[t];
        let tb = &self.ranks[g as usize].tbs[id as usize];
        (tb.chan, tb.recv.unwrap_or(u32::MAX), g)
    }

    /// `t` takes the first message waiting on its receive connection, if any.
    fn receive(&mut self, t: usize) -> Result<bool, Finding> {
        let conn = self.recv_conn(t);
        let Some(message) = self.fifo.get_mut(&conn).and_then(VecDeque::pop_front) else {
            return Ok(false);
        };
        *self.buffered.entry(conn).or_default() -= message.value.len() as u64;
        let tx = self.current(t).expect("receiving");
        if message.value.len() as i64 != tx.count {
            let (s, index) = message.from;
            return Err(self.at(
                t,
                Fault::Count,
                None,
                format!(
                    "it receives {} chunks from GPU {}, whose thread block {} step {index} sent {}: the connection carries elements, not steps, so the two disagree",
                    tx.count,
                    self.tbs[s].0,
                    self.tbs[s].1,
                    message.value.len()
                ),
            ));
        }
        merge(&mut self.clock[t], &message.clock);
        self.ready[t] = self.ready[t].max(message.time) + 1;
        self.depth[t] = self.depth[t].max(message.depth);
        self.step[t] = self.step[t].max(message.step);
        self.received[t] = Some(message.value);
        Ok(true)
    }

    /// `t` sends its current transmission: the message joins its connection's
    /// queue, and the transmission is done.
    fn send(&mut self, t: usize) -> Result<(), Finding> {
        let tx = self.current(t).expect("sending");
        let value = match tx.op {
            Op::Send => self.read(t, tx.src, tx.count)?,
            Op::RecvCopySend => self.received[t].clone().expect("received"),
            _ => {
                let local = self.read(t, tx.src, tx.count)?;
                let got = self.received[t].clone().expect("received");
                self.combine(t, tx.src, got, &local)?
            }
        };
        let conn = self.send_conn(t);
        let time = self.ready[t] + 1;
        *self.figures.connections.entry(conn).or_default() += tx.count as u64;
        let waiting = self.buffered.entry(conn).or_default();
        *waiting += tx.count as u64;
        self.figures.most_buffered = self.figures.most_buffered.max(*waiting);
        let keep = (tx.op == Op::RecvReduceCopySend).then(|| value.clone());
        if self.options.record {
            let carried = self.figures.carried.entry(conn).or_default();
            carried.push(value.clone());
        }
        let hops = self.options.hops.map_or(1, |h| h(conn.1, conn.2));
        let arrives = self.depth[t].saturating_add(hops);
        self.figures.depth = self.figures.depth.max(arrives);
        let chunks = tx.count as u64;
        let free = self.connection_free.entry(conn).or_insert(1);
        let first_step = (*free).max(self.step[t].saturating_add(1));
        *free = first_step.saturating_add(chunks);
        // The last chunk leaves at first + cnt − 1 and takes hops − 1 more.
        let last = (first_step + chunks - 1).saturating_add(hops.saturating_sub(1));
        self.figures.steps = self.figures.steps.max(last);
        // The send is done when its last chunk has left: what waits for it
        // (its thread block's next steps, a dependency on it) goes no earlier
        // than the step after.
        self.step[t] = self.step[t].max(first_step + chunks - 1);
        self.figures.timeline.push(Departure {
            connection: conn,
            first_step,
            chunks,
        });
        self.fifo.entry(conn).or_default().push_back(Message {
            value,
            clock: self.clock[t].clone(),
            time,
            depth: arrives,
            step: last,
            from: (t, tx.index),
        });
        if let Some(&r) = self.receiver.get(&conn) {
            self.push(r);
        }
        self.outgoing[t] = keep;
        self.finish(t, time)
    }

    /// Reduces `a` with `b` slot by slot; a contribution in both is a fault.
    fn combine(
        &self,
        t: usize,
        at: (Buf, i64),
        mut a: Vec<Value>,
        b: &[Value],
    ) -> Result<Vec<Value>, Finding> {
        for (i, (x, y)) in a.iter_mut().zip(b).enumerate() {
            let mut both = Vec::with_capacity(x.len() + y.len());
            let (mut p, mut q) = (0, 0);
            while p < x.len() || q < y.len() {
                if p < x.len() && q < y.len() && x[p] == y[q] {
                    return Err(self.at(
                        t,
                        Fault::Duplicate,
                        Some((at.0, at.1 + i as i64)),
                        format!(
                            "{} would be reduced into it twice",
                            self.shape.describe(x[p])
                        ),
                    ));
                }
                if q == y.len() || (p < x.len() && x[p] < y[q]) {
                    both.push(x[p]);
                    p += 1;
                } else {
                    both.push(y[q]);
                    q += 1;
                }
            }
            *x = both;
        }
        Ok(a)
    }

    /// Ends `t`'s current transmission at `end`: writes what it writes,
    /// publishes its number if it says `hasdep`, wakes its waiters.
    fn finish(&mut self, t: usize, end: u64) -> Result<(), Finding> {
        let tx = self.current(t).expect("a transmission to finish");
        if tx.count > 0 {
            match tx.op {
                Op::Recv | Op::RecvCopySend => {
                    let v = self.received[t].take().expect("received");
                    self.write(t, tx.dst, v)?;
                }
                Op::RecvReduceCopy => {
                    let local = self.read(t, tx.src, tx.count)?;
                    let got = self.received[t].take().expect("received");
                    let v = self.combine(t, tx.dst, got, &local)?;
                    self.write(t, tx.dst, v)?;
                }
                Op::RecvReduceCopySend => {
                    let v = self.outgoing[t].take().expect("sent");
                    self.write(t, tx.dst, v)?;
                }
                Op::Copy => {
                    let v = self.read(t, tx.src, tx.count)?;
                    self.write(t, tx.dst, v)?;
                }
                Op::Reduce => {
                    let mut v = self.read(t, tx.dst, tx.count)?;
                    for &off in &tx.reduce_srcs {
                        let more = self.read(t, (tx.src.0, off), tx.count)?;
                        v = self.combine(t, tx.dst, v, &more)?;
                    }
                    self.write(t, tx.dst, v)?;
                }
                Op::Send | Op::RecvReduceSend | Op::Nop => {}
            }
        }
        self.received[t] = None;
        self.outgoing[t] = None;
        self.begun[t] = false;
        self.ready[t] = end;
        self.figures.critical_path = self.figures.critical_path.max(end);
        self.figures.transmissions += 1;
        self.next[t] += 1;
        self.clock[t][t] = self.next[t] as u32;
        if tx.hasdep {
            let prev = self.publications[t].last().map_or(i64::MIN, |p| p.number);
            let needed = self.awaited[t].iter().any(|&k| k > prev && k <= tx.number);
            self.publications[t].push(Publication {
                number: tx.number,
                time: end,
                depth: self.depth[t],
                step: self.step[t],
                clock: needed.then(|| self.clock[t].clone()),
            });
            for w in std::mem::take(&mut self.waiters[t]) {
                self.push(w);
            }
        }
        Ok(())
    }

    /// The slots of `t`'s GPU that `(buf, off)` and `count` name.
    fn slots(
        &self,
        t: usize,
        (buf, off): (Buf, i64),
        count: i64,
    ) -> Result<std::ops::Range<usize>, Finding> {
        let g = self.tbs[t].0;
        let (input, output, user) = self.shape.layout(g);
        let (base, size) = match buf {
            Buf::Input => (input, self.shape.input),
            Buf::Output => (output, self.shape.output),
            Buf::Scratch => (user, self.ranks[g as usize].scratch.max(0)),
        };
        // The reader keeps values to 32 bits; saturating keeps this total anyway.
        let end = off.saturating_add(count);
        if off < 0 || count < 0 || end > size {
            return Err(self.at(
                t,
                Fault::Range,
                Some((buf, off)),
                format!(
                    "chunks {off}..{end} of buffer {} are outside its {size} chunks",
                    buf.letter()
                ),
            ));
        }
        Ok((base + off) as usize..(base + off + count) as usize)
    }

    fn read(&mut self, t: usize, at: (Buf, i64), count: i64) -> Result<Vec<Value>, Finding> {
        let range = self.slots(t, at, count)?;
        let g = self.tbs[t].0 as usize;
        let me = (t as u32, self.next[t] as u32 + 1);
        let mut out = Vec::with_capacity(range.len());
        for (i, a) in range.enumerate() {
            let slot = (at.0, at.1 + i as i64);
            let Some(v) = self.memory[g][a].value.clone() else {
                return Err(self.at(
                    t,
                    Fault::Unwritten,
                    Some(slot),
                    "it reads a chunk nothing has written yet".into(),
                ));
            };
            if let Some(w) = self.memory[g][a].writer
                && !self.ordered(t, w)
            {
                return Err(self.race(t, slot, w, "writes"));
            }
            let readers = &mut self.memory[g][a].readers;
            if readers.last() != Some(&me) {
                readers.push(me);
            }
            out.push(v);
        }
        Ok(out)
    }

    fn write(&mut self, t: usize, at: (Buf, i64), values: Vec<Value>) -> Result<(), Finding> {
        let range = self.slots(t, at, values.len() as i64)?;
        let g = self.tbs[t].0 as usize;
        let me = (t as u32, self.next[t] as u32 + 1);
        for ((i, a), v) in range.enumerate().zip(values) {
            let slot = (at.0, at.1 + i as i64);
            let cell = &self.memory[g][a];
            if let Some(w) = cell.writer
                && !self.ordered(t, w)
            {
                return Err(self.race(t, slot, w, "also writes"));
            }
            if let Some(&r) = cell.readers.iter().find(|&&r| !self.ordered(t, r)) {
                return Err(self.race(t, slot, r, "reads"));
            }
            let cell = &mut self.memory[g][a];
            cell.value = Some(v);
            cell.writer = Some(me);
            cell.readers.clear();
        }
        Ok(())
    }

    /// Whether access `(u, seq)` is ordered before `t`'s current one.
    fn ordered(&self, t: usize, (u, seq): (u32, u32)) -> bool {
        u as usize == t || self.clock[t][u as usize] >= seq
    }

    fn race(&self, t: usize, slot: (Buf, i64), (u, seq): (u32, u32), what: &str) -> Finding {
        let other = self.tx(u as usize, seq as usize - 1);
        self.at(
            t,
            Fault::Race,
            Some(slot),
            format!(
                "thread block {} step {} ({}) {what} this chunk, and no dependency or message orders the two",
                self.tbs[u as usize].1, other.index, other.pos
            ),
        )
    }

    fn at(&self, t: usize, fault: Fault, slot: Option<(Buf, i64)>, message: String) -> Finding {
        let tx = self.current(t);
        Finding {
            fault,
            gpu: self.tbs[t].0,
            tb: Some(self.tbs[t].1),
            step: tx.map(|x| x.index),
            pos: tx.map(|x| x.pos),
            slot,
            message,
        }
    }
}

/// `clock` ← the larger of it and `other`, component by component.
fn merge(clock: &mut [u32], other: &[u32]) {
    for (a, b) in clock.iter_mut().zip(other) {
        *a = (*a).max(*b);
    }
}

/// GPU `g`'s memory at the start: every input chunk holds its own
/// contribution, everything else is unwritten.
fn initial_memory(shape: &Shape, g: u32, scratch: i64) -> Vec<Slot> {
    let (input, _, user) = shape.layout(g);
    let mut memory = vec![Slot::default(); (user + scratch.max(0)) as usize];
    for c in 0..shape.input {
        memory[(input + c) as usize].value = Some(vec![(i64::from(g) * shape.input + c) as u32]);
    }
    memory
}

mod outcome;
