//! Broadcast, reduce, allgather, reduce-scatter and allreduce schedules as
//! the MSCCL collectives `broadcast`, `reduce`, `allgather`, `reducescatter`
//! and `allreduce` (docs/export.md, "Collectives").
//!
//! The threadblocks, channels and dependencies are the all-to-all's (one
//! threadblock per link direction, a channel per network direction, a step
//! waiting for the step that wrote what it reads). What differs is what a
//! chunk holds:
//!
//! - **Copies** (broadcast, allgather): an item lives in the output chunk
//!   MSCCL's layout gives it, on every GPU. Its block node copies it from its
//!   input chunk (`cpy`); every other GPU receives it straight into that
//!   output chunk (`r`), once, and sends it on from there.
//! - **Combining** (reduce, reduce-scatter, allreduce): a GPU's partial of an
//!   item starts in its input chunk. Each change of it gets a chunk of its
//!   own (a new scratch chunk, or the output chunk once the partial is
//!   complete where the collective wants it), so that a send of step t reads
//!   the partial as it was at the start of step t, as the schedule model says,
//!   and no chunk is written after it is read. The partials a GPU receives in
//!   one step are combined into the new chunk one after the other: a partial
//!   that contains the GPU's own is received as it is (`r`), one disjoint from
//!   it is received and combined with the current partial (`rrc`), each after
//!   the one before (a dependency), so the chunk is never written by two
//!   threadblocks at once.
//!
//! The fused steps of MSCCL (`rcs`, `rrs`, `rrcs`) would pair a receive with a
//! send on one threadblock; a schedule forwards what it received on several
//! links at several later steps, so the program keeps one step per send and
//! receive and lets dependencies carry the order.
//!
//! Nothing here decides whether the program is right:
//! [`check_collective`] runs it through the MSCCL checker (`msccl::check`,
//! which shares no code with this module), requires the verdict VALID for
//! the same collective (and, for a rooted one, for the schedule's root), and
//! compares the contributions each link carried, message by message, with
//! the schedule's sends.

use super::placement::{self, Placed};
use super::switches::gpu_sends;
use super::{
    Buffer, Chunk, Layout, MscclError, MscclProgram, Step, StepKind, limit_sources, link_lanes,
    order_waits, sanitize, sends_in_order,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Packet, Schedule, TimedSend};

/// At most this many 64-bit words of partial sums are tracked (items × GPUs ×
/// ⌈GPUs / 64⌉), 128 MiB.
pub const MAX_SUM_WORDS: usize = 1 << 24;

/// What each connection (channel, from, to) carries, in step order: per
/// message the contributions it holds, numbered as the MSCCL checker numbers
/// them (GPU h's input chunk c is `h · i_chunks + c`).
pub type Carried = BTreeMap<(u32, u32, u32), Vec<Vec<u32>>>;

/// How a collective of the schedule model lies in MSCCL's buffers.
#[derive(Clone, Copy, Debug)]
struct Plan {
    collective: Collective,
    coll: &'static str,
    n: u32,
    /// Chunks per block, C.
    chunks: u32,
    /// Whether items are combined (else copied).
    sums: bool,
}

impl Plan {
    fn new(collective: Collective, n: u32) -> Result<Plan, MscclError> {
        let (coll, sums) = match collective {
            Collective::Broadcast { .. } => ("broadcast", false),
            Collective::Allgather { .. } => ("allgather", false),
            Collective::Reduce { .. } => ("reduce", true),
            Collective::ReduceScatter { .. } => ("reducescatter", true),
            Collective::Allreduce { .. } => ("allreduce", true),
            other => return Err(MscclError::Unsupported(other.to_string())),
        };
        if collective.root().is_some_and(|r| r >= n) {
            return Err(MscclError::Unsupported(format!(
                "{collective}: the root is not a node of the network"
            )));
        }
        Ok(Plan {
            collective,
            coll,
            n,
            chunks: collective.chunks(),
            sums,
        })
    }

    /// Whether the items are one per chunk (rooted) or one per block and chunk.
    fn rooted(&self) -> bool {
        self.collective.root().is_some()
    }

    /// Items: C for a rooted collective, N · C otherwise.
    fn items(&self) -> u32 {
        if self.rooted() {
            self.chunks
        } else {
            self.n * self.chunks
        }
    }

    /// The item a send carries, numbered block · C + chunk (chunk, rooted).
    fn item(&self, s: &TimedSend) -> Option<u32> {
        let p = s.packet();
        if !p.is_broadcast() || p.chunk() >= self.chunks {
            return None;
        }
        match self.collective.root() {
            Some(root) => (p.source == root).then_some(p.chunk()),
            None => (p.source < self.n).then(|| p.source * self.chunks + p.chunk()),
        }
    }

    /// The packet of an item, for messages.
    fn packet(&self, item: u32) -> Packet {
        match self.collective.root() {
            Some(root) => Packet::item(root, item),
            None => Packet::item(item / self.chunks, item % self.chunks),
        }
    }

    /// `nchunksperloop`, `i_chunks` and `o_chunks`.
    fn sizes(&self) -> (u32, u32, u32) {
        let (c, all) = (self.chunks, self.n * self.chunks);
        match self.collective {
            Collective::Allgather { .. } => (all, c, all),
            Collective::ReduceScatter { .. } => (all, all, c),
            Collective::Allreduce { .. } => (all, all, all),
            _ => (c, c, c),
        }
    }

    /// The input chunk an item starts in (at its block node, for copies).
    fn input_index(&self, item: u32) -> u32 {
        match self.collective {
            Collective::Allgather { .. } => item % self.chunks,
            _ => item,
        }
    }

    /// The node a copied item starts at.
    fn home(&self, item: u32) -> u32 {
        self.collective.root().unwrap_or_else(|| item / self.chunks)
    }

    /// The output chunk of `node` that must end with the item (complete,
    /// when combined), if any.
    fn output(&self, node: u32, item: u32) -> Option<u32> {
        match self.collective {
            Collective::Reduce { root, .. } => (node == root).then_some(item),
            Collective::ReduceScatter { .. } => {
                (node == item / self.chunks).then_some(item % self.chunks)
            }
            _ => Some(item),
        }
    }

    /// The checker's number of GPU h's contribution to an item.
    fn contribution(&self, h: u32, item: u32) -> u32 {
        h * self.sizes().1 + self.input_index(item)
    }
}

/// Where a GPU holds its copy or partial of an item, and which receive wrote
/// it (none for an input chunk).
#[derive(Clone, Copy, Debug)]
struct Holding {
    chunk: Chunk,
    writer: Option<(u32, u32)>,
}

/// A partial or copy on its way in one step.
struct Arrival {
    send: TimedSend,
    /// The lane of its link ([`Layout`]): its place among the step's sends
    /// on that link.
    lane: u32,
    /// The sender's chunk it is read from, and the step that wrote it.
    src: Holding,
    /// The contributions it carries (combining collectives).
    set: Vec<u64>,
}

/// The state while the sends are placed, step by step.
struct Build {
    plan: Plan,
    layout: Layout,
    /// (item · N + node) → where the node holds the item.
    held: Vec<Option<Holding>>,
    /// Bit sets of contributions, `words` words per (item, node).
    sums: Vec<u64>,
    words: usize,
    carried: Carried,
    /// Through switch nodes: the receipt each send also waits for, by the
    /// send that brought it ([`placement`]).
    anchors: HashMap<TimedSend, TimedSend>,
    /// The (threadblock, step) of the receive of each anchoring send.
    receipts: HashMap<TimedSend, (u32, u32)>,
}

/// The MSCCL program of a broadcast, reduce, allgather, reduce-scatter or
/// allreduce schedule (which the caller has replayed valid), and what each
/// link carries in it. `name` is sanitised into the algorithm's name.
pub fn collective(schedule: &Schedule, name: &str) -> Result<(MscclProgram, Carried), MscclError> {
    let network = schedule.network.as_ref().ok_or(MscclError::NoNetwork)?;
    let graph = network.build().map_err(|_| MscclError::NoNetwork)?;
    let nodes = graph.nodes() as u32;
    let sends = sends_in_order(schedule, nodes)?;
    // Through switch nodes: the GPUs and their sends to one another.
    let through_switches = graph.fabric().has_forward_only();
    let (n, Placed { sends, anchors }) = if through_switches {
        let combines = Plan::new(schedule.collective, nodes)?.sums;
        let collective = schedule.collective.to_string();
        let (gpus, crossings) = gpu_sends(&graph, &sends, combines, &collective)?;
        (gpus, placement::place(&graph, gpus, &crossings)?)
    } else {
        let anchors = HashMap::new();
        (nodes, Placed { sends, anchors })
    };
    let plan = Plan::new(schedule.collective, n)?;
    let items = plan.items() as usize;
    let words = if plan.sums {
        (n as usize).div_ceil(64)
    } else {
        0
    };
    let state = items.saturating_mul(n as usize);
    if state.saturating_mul(words) > MAX_SUM_WORDS || state > MAX_SUM_WORDS {
        return Err(MscclError::TooLarge { sends: sends.len() });
    }
    let lanes = link_lanes(&sends);
    // Through switches every GPU's sends go in schedule step order, so that
    // its link into the switch carries them one step after another.
    let ordered = if through_switches {
        vec![true; n as usize]
    } else {
        limit_sources(&graph, n)
    };
    order_waits(&sends, &ordered)?;
    // A block node (copies) copies its items from input to output first.
    let local = |rank: u32| -> Vec<Step> {
        if plan.sums {
            return Vec::new();
        }
        (0..plan.items())
            .filter(|&item| plan.home(item) == rank)
            .map(|item| Layout::copy(input(plan.input_index(item)), output(item), None))
            .collect()
    };
    let mut build = Build {
        plan,
        layout: Layout::new(n, network, &lanes, &ordered, local),
        held: vec![None; state],
        sums: vec![0; state * words],
        words,
        carried: Carried::new(),
        receipts: HashMap::new(),
        anchors,
    };
    for item in 0..plan.items() {
        for node in 0..n {
            if plan.sums || plan.home(item) == node {
                build.held[(item * n + node) as usize] = Some(Holding {
                    chunk: input(plan.input_index(item)),
                    writer: None,
                });
            }
            if plan.sums {
                let at = (item * n + node) as usize * words;
                build.sums[at + node as usize / 64] |= 1 << (node % 64);
            }
        }
    }
    for group in sends.chunk_by(|a, b| a.step == b.step) {
        build.step(group)?;
    }
    build.finish()?;
    let (per_loop, input_chunks, output_chunks) = plan.sizes();
    let time = sends.last().map_or(0, |s| s.step);
    let program = MscclProgram {
        name: sanitize(name),
        origin: format!(
            "{} in {} chunk(s) on {network} ({n} GPUs), {} sends in {time} steps",
            plan.collective,
            plan.chunks,
            sends.len()
        ),
        coll: plan.coll,
        chunks_per_loop: per_loop,
        input_chunks,
        output_chunks,
        gpus: build.layout.gpus,
    };
    Ok((program, build.carried))
}

fn input(index: u32) -> Chunk {
    Chunk {
        buffer: Buffer::Input,
        index,
    }
}

fn output(index: u32) -> Chunk {
    Chunk {
        buffer: Buffer::Output,
        index,
    }
}

impl Build {
    fn set(&self, item: u32, node: u32) -> &[u64] {
        let at = (item * self.plan.n + node) as usize * self.words;
        &self.sums[at..at + self.words]
    }

    fn complete(&self, set: &[u64]) -> bool {
        (0..self.plan.n).all(|x| set[x as usize / 64] >> (x % 64) & 1 == 1)
    }

    /// The contributions of a set (or of a copied item), as the checker
    /// numbers them.
    fn contributions(&self, item: u32, set: &[u64]) -> Vec<u32> {
        if !self.plan.sums {
            return vec![self.plan.contribution(self.plan.home(item), item)];
        }
        (0..self.plan.n)
            .filter(|&x| set[x as usize / 64] >> (x % 64) & 1 == 1)
            .map(|x| self.plan.contribution(x, item))
            .collect()
    }

    /// Places the sends of one step: every send reads what its sender held
    /// at the start of the step; what arrives is placed per (receiver, item).
    fn step(&mut self, group: &[TimedSend]) -> Result<(), MscclError> {
        let n = self.plan.n;
        let mut arrivals: BTreeMap<(u32, u32), Vec<Arrival>> = BTreeMap::new();
        let mut on_link: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        for s in group {
            let lane = on_link.entry((s.from, s.to)).or_default();
            let (this_lane, channel) = (*lane, self.layout.channel(s.from, s.to, *lane));
            *lane += 1;
            let bad = |reason| MscclError::BadSend { send: *s, reason };
            let item = self
                .plan
                .item(s)
                .ok_or_else(|| bad("a packet that is not an item of the collective"))?;
            let src = self.held[(item * n + s.from) as usize]
                .ok_or_else(|| bad("the sender does not hold the item at the start of the step"))?;
            let set = self.set(item, s.from).to_vec();
            let message = self.contributions(item, &set);
            self.carried
                .entry((channel, s.from, s.to))
                .or_default()
                .push(message);
            arrivals.entry((s.to, item)).or_default().push(Arrival {
                send: *s,
                lane: this_lane,
                src,
                set,
            });
        }
        for ((to, item), list) in arrivals {
            if self.plan.sums {
                self.combine(to, item, list)?;
            } else {
                self.copy(to, item, &list)?;
            }
        }
        Ok(())
    }

    /// A copied item arrives at `to`: once, into its output chunk.
    fn copy(&mut self, to: u32, item: u32, list: &[Arrival]) -> Result<(), MscclError> {
        let at = (item * self.plan.n + to) as usize;
        let a = &list[0];
        let bad = |send, reason| Err(MscclError::BadSend { send, reason });
        if self.held[at].is_some() {
            return bad(a.send, "the receiver holds the item already");
        }
        if let Some(second) = list.get(1) {
            return bad(
                second.send,
                "a second copy of the item reaches the node in the step",
            );
        }
        let dst = output(self.plan.output(to, item).unwrap_or(item));
        let anchor = match self.anchors.get(&a.send) {
            Some(by) => match self.receipts.get(by) {
                Some(&receipt) => Some(receipt),
                None => return bad(a.send, "the receipt the send waits for is not placed"),
            },
            None => None,
        };
        let writer = self.transfer(a, StepKind::Recv, a.src.chunk, dst, None, anchor);
        if !self.anchors.is_empty() {
            self.receipts.insert(a.send, writer);
        }
        self.held[at] = Some(Holding {
            chunk: dst,
            writer: Some(writer),
        });
        Ok(())
    }

    /// The partials of an item that arrive at `to` in one step: combined, one
    /// after the other, into a chunk of their own.
    fn combine(&mut self, to: u32, item: u32, mut list: Vec<Arrival>) -> Result<(), MscclError> {
        let own = self.set(item, to).to_vec();
        let mut union = own.clone();
        for (i, a) in list.iter().enumerate() {
            let subset = |x: &[u64], y: &[u64]| x.iter().zip(y).all(|(p, q)| p & !q == 0);
            let meet = |x: &[u64], y: &[u64]| x.iter().zip(y).any(|(p, q)| p & q != 0);
            let clash = list
                .iter()
                .enumerate()
                .any(|(j, b)| j != i && meet(&a.set, &b.set));
            let reason = if subset(&a.set, &own) {
                Some("the partial brings the receiver nothing new")
            } else if clash || (meet(&a.set, &own) && !subset(&own, &a.set)) {
                Some("the partial would count a contribution twice")
            } else {
                None
            };
            if let Some(reason) = reason {
                let send = a.send;
                return Err(MscclError::BadSend { send, reason });
            }
            for (u, w) in union.iter_mut().zip(&a.set) {
                *u |= w;
            }
        }
        // The partial that contains the receiver's own replaces it: first.
        list.sort_by_key(|a| !a.set.iter().zip(&own).all(|(p, q)| q & !p == 0));
        let at = (item * self.plan.n + to) as usize;
        let mut current = self.held[at].expect("a combining node holds every item");
        let dst = match self.plan.output(to, item) {
            Some(o) if self.complete(&union) => output(o),
            _ => self.layout.scratch(to),
        };
        for (k, a) in list.iter().enumerate() {
            let replaces = k == 0 && a.set.iter().zip(&own).all(|(p, q)| q & !p == 0);
            let (kind, src) = if replaces {
                (StepKind::Recv, a.src.chunk)
            } else {
                (StepKind::RecvReduceCopy, current.chunk)
            };
            let wait = (!replaces).then_some(current.writer).flatten();
            let writer = self.transfer(a, kind, src, dst, wait, None);
            current = Holding {
                chunk: dst,
                writer: Some(writer),
            };
        }
        self.held[at] = Some(current);
        let start = at * self.words;
        self.sums[start..start + self.words].copy_from_slice(&union);
        Ok(())
    }

    /// The send of arrival `a` (after `anchor` too, a receipt of its
    /// sender's) and its receive (`kind`, reading `src` on the receiver for
    /// `rrc`, writing `dst`, after `wait`); the receive's place.
    fn transfer(
        &mut self,
        a: &Arrival,
        kind: StepKind,
        src: Chunk,
        dst: Chunk,
        wait: Option<(u32, u32)>,
        anchor: Option<(u32, u32)>,
    ) -> (u32, u32) {
        let (from, to) = (a.send.from, a.send.to);
        self.layout.mark(from, a.src.writer);
        self.layout.mark(to, wait);
        let send = Step {
            kind: StepKind::Send,
            src: a.src.chunk,
            dst,
            depends_on: a.src.writer,
            has_dependent: false,
        };
        self.layout
            .push_send(from, to, a.lane, a.send.step, send, anchor);
        let recv = Step {
            kind,
            src,
            dst,
            depends_on: wait,
            has_dependent: false,
        };
        self.layout.push_recv(from, to, a.lane, recv)
    }

    /// Refuses a schedule that leaves a node without what the collective
    /// gives it; copies a complete partial that is not in its output chunk
    /// yet (a GPU alone) there.
    fn finish(&mut self) -> Result<(), MscclError> {
        let n = self.plan.n;
        for item in 0..self.plan.items() {
            for node in 0..n {
                let Some(o) = self.plan.output(node, item) else {
                    continue;
                };
                let packet = self.plan.packet(item);
                let held = self.held[(item * n + node) as usize];
                let Some(h) =
                    held.filter(|_| !self.plan.sums || self.complete(self.set(item, node)))
                else {
                    return Err(MscclError::Unfinished(format!(
                        "node {node} does not end with the whole of item {packet}"
                    )));
                };
                // A block node's own copy is its local threadblock's already.
                if self.plan.sums && h.chunk != output(o) {
                    self.layout.mark(node, h.writer);
                    self.layout
                        .push_local(node, Layout::copy(h.chunk, output(o), h.writer));
                }
            }
        }
        Ok(())
    }
}

/// Runs `program` through the MSCCL checker and refuses it unless the
/// checker calls it VALID for the MSCCL collective of `schedule` (for a
/// rooted one: right for the schedule's root) and every link carried, in
/// order, the contributions `carried` lists (the schedule's sends).
pub fn check_collective(
    program: &MscclProgram,
    schedule: &Schedule,
    carried: &Carried,
) -> Result<(), MscclError> {
    let failed = |what: String| MscclError::Execution(what);
    let text = program_text(program)?;
    let check = crate::msccl::check_recorded(&text).map_err(|e| {
        failed(format!(
            "the checker cannot read it: {}: {}",
            e.pos, e.message
        ))
    })?;
    if !check.valid() {
        let reason = check.reason().unwrap_or_default();
        return Err(failed(format!(
            "the MSCCL checker calls it invalid: {reason}"
        )));
    }
    let checked = check.collective().map(|c| c.name());
    if checked != Some(program.coll) {
        return Err(failed(format!(
            "the MSCCL checker checked it as {checked:?}, not {}",
            program.coll
        )));
    }
    let figures = check.figures().cloned().unwrap_or_default();
    if let Some(root) = schedule.collective.root()
        && !figures.roots.contains(&root)
    {
        return Err(failed(format!(
            "the MSCCL checker finds it right for roots {:?}, not for the schedule's root {root}",
            figures.roots
        )));
    }
    let mut made = Carried::new();
    for (&connection, messages) in &figures.carried {
        let link = made.entry(connection).or_default();
        link.extend(messages.iter().flatten().cloned());
    }
    let connections: BTreeSet<&(u32, u32, u32)> = made.keys().chain(carried.keys()).collect();
    for &connection in connections {
        let (_, from, to) = connection;
        let got = made.get(&connection).map_or(&[][..], Vec::as_slice);
        let want = carried.get(&connection).map_or(&[][..], Vec::as_slice);
        if let Some(k) = (0..got.len().max(want.len())).find(|&k| got.get(k) != want.get(k)) {
            return Err(MscclError::Mismatch {
                from,
                to,
                detail: format!(
                    "message {} carries the contributions {:?} in the schedule, {:?} in the program",
                    k + 1,
                    want.get(k),
                    got.get(k)
                ),
            });
        }
    }
    Ok(())
}

/// `program` as the XML text the checks read.
fn program_text(program: &MscclProgram) -> Result<String, MscclError> {
    let failed = |e: &dyn std::fmt::Display| MscclError::Execution(e.to_string());
    let mut xml = Vec::new();
    program.write_xml(&mut xml).map_err(|e| failed(&e))?;
    String::from_utf8(xml).map_err(|e| failed(&e))
}

/// Plays `program` in steps on `graph` as `check PROGRAM.xml --network`
/// does (docs/msccl.md, "On a fabric") and refuses it if a step exceeds a
/// link's capacity or a switch limit, or if it is too large to be played;
/// on a network that is not a fabric there is nothing to exceed.
pub fn check_fits(program: &MscclProgram, graph: &Graph) -> Result<(), MscclError> {
    let failed = |what: String| MscclError::Execution(what);
    let text = program_text(program)?;
    let check = crate::msccl::check_on(&text, Some(graph)).map_err(|e| {
        failed(format!(
            "the checker cannot read it on {}: {}: {}",
            graph.label(),
            e.pos,
            e.message
        ))
    })?;
    // A network without capacities, switch limits or switches is not
    // played in steps: it has nothing to exceed.
    let Some(fabric) = check.network().and_then(|on| on.fabric.as_ref()) else {
        return Ok(());
    };
    if let Some(chunk_hops) = fabric.not_played {
        return Err(MscclError::NotPlayed { chunk_hops });
    }
    match fabric.violations.first() {
        Some(first) => Err(MscclError::OverFabric {
            violations: fabric.violation_count,
            first: first.to_string(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::schedule::parse;

    fn program(text: &str) -> (Schedule, MscclProgram, Carried) {
        let schedule = parse(text).unwrap();
        let (program, carried) = collective(&schedule, "t").unwrap();
        (schedule, program, carried)
    }

    fn kinds(program: &MscclProgram, gpu: usize) -> Vec<Vec<&'static str>> {
        program.gpus[gpu]
            .threadblocks
            .iter()
            .map(|t| t.steps.iter().map(|s| s.kind.code()).collect())
            .collect()
    }

    #[test]
    fn two_partials_in_one_step_are_combined_one_after_the_other() {
        let text = "network: linear 3\ncollective: reduce 1\nsends:\n1 0 1 1 *\n1 2 1 1 *\n";
        let (schedule, program, carried) = program(text);
        assert_eq!(program.coll, "reduce");
        // GPU 1: receives from 0 and from 2, both combining, the second
        // after the first, into the output chunk (complete there).
        assert_eq!(kinds(&program, 1), [vec!["rrc"], vec!["rrc"]]);
        let tbs = &program.gpus[1].threadblocks;
        assert_eq!(tbs[0].steps[0].src, input(0));
        assert_eq!(tbs[0].steps[0].dst, output(0));
        assert!(tbs[0].steps[0].has_dependent);
        assert_eq!(tbs[1].steps[0].src, output(0));
        assert_eq!(tbs[1].steps[0].depends_on, Some((0, 0)));
        // Channel 0 is the + direction of the line, channel 1 the − one.
        assert_eq!(carried[&(0, 0, 1)], [vec![0]]);
        assert_eq!(carried[&(1, 2, 1)], [vec![2]]);
        check_collective(&program, &schedule, &carried).unwrap();
    }

    #[test]
    fn a_partial_containing_the_receivers_replaces_it() {
        // linear 2 allreduce: item 0 is combined at 1 and sent back whole.
        let text = "network: linear 2\ncollective: allreduce\nsends:\n1 0 1 0 *\n1 1 0 1 *\n2 1 0 0 *\n2 0 1 1 *\n";
        let (schedule, program, carried) = program(text);
        assert_eq!(
            (
                program.chunks_per_loop,
                program.input_chunks,
                program.output_chunks
            ),
            (2, 2, 2)
        );
        assert_eq!(kinds(&program, 0), [vec!["rrc", "r"], vec!["s", "s"]]);
        // The whole item 0 goes back from GPU 1's output chunk, after the
        // receive that completed it.
        let send = &program.gpus[1].threadblocks[1].steps[1];
        assert_eq!((send.src, send.depends_on), (output(0), Some((0, 0))));
        assert_eq!(carried[&(0, 1, 0)], [vec![3], vec![0, 2]]);
        check_collective(&program, &schedule, &carried).unwrap();
    }

    #[test]
    fn copies_go_straight_to_the_output() {
        let text = "network: ring 3\ncollective: allgather\nchunks: 2\nsends:\n1 0 1 0 *\n1 0 2 0 * 1\n2 1 2 0 *\n2 2 1 0 * 1\n";
        let schedule = parse(text).unwrap();
        // Blocks 1 and 2 never move: the schedule does not finish.
        assert!(matches!(
            collective(&schedule, "t"),
            Err(MscclError::Unfinished(_))
        ));
        let text = "network: linear 3\ncollective: broadcast 0\nchunks: 2\nsends:\n1 0 1 0 *\n2 0 1 0 * 1\n2 1 2 0 *\n3 1 2 0 * 1\n";
        let (schedule, program, carried) = program(text);
        assert_eq!(program.coll, "broadcast");
        assert_eq!(kinds(&program, 0), [vec!["cpy", "cpy"], vec!["s", "s"]]);
        assert_eq!(kinds(&program, 1), [vec!["r", "r"], vec!["s", "s"]]);
        assert_eq!(program.gpus[2].threadblocks[0].steps[1].dst, output(1));
        check_collective(&program, &schedule, &carried).unwrap();
    }

    #[test]
    fn sends_the_model_refuses_are_refused() {
        let refused = |text: &str| match collective(&parse(text).unwrap(), "t") {
            Err(MscclError::BadSend { reason, .. }) => reason,
            other => panic!("{other:?}"),
        };
        // Forwarded in the step it arrives.
        let early = "network: linear 3\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n1 1 2 0 *\n";
        assert!(refused(early).contains("does not hold"));
        // Counted twice.
        let twice = "network: linear 2\ncollective: allreduce\nsends:\n1 0 1 0 *\n2 0 1 0 *\n";
        assert!(refused(twice).contains("nothing new"));
        // Not this collective's item.
        let other = "network: linear 2\ncollective: reduce 1\nsends:\n1 0 1 0 *\n";
        assert!(refused(other).contains("not an item"));
        let scatter = parse("network: ring 3\ncollective: scatter 0\nsends:\n").unwrap();
        assert!(matches!(
            collective(&scatter, "t"),
            Err(MscclError::Unsupported(_))
        ));
    }

    #[test]
    fn a_program_over_a_fabrics_capacity_is_refused_before_it_is_written() {
        // An allgather of `ring 3` in one step (every GPU sends its chunk to
        // both neighbours at once) is VALID, but played on `nvswitch 3` each
        // GPU's one link into the switch carries two chunks in step 1.
        let text = "network: ring 3\ncollective: allgather\nsends:\n1 0 1 0 *\n1 0 2 0 *\n1 1 0 1 *\n1 1 2 1 *\n1 2 0 2 *\n1 2 1 2 *\n";
        let (schedule, program, carried) = program(text);
        check_collective(&program, &schedule, &carried).unwrap();
        let ring: txverify_core::network::NetworkName = "ring 3".parse().unwrap();
        check_fits(&program, &ring.build().unwrap()).unwrap();
        let switch: txverify_core::network::NetworkName = "nvswitch 3".parse().unwrap();
        let Err(MscclError::OverFabric { violations, first }) =
            check_fits(&program, &switch.build().unwrap())
        else {
            panic!("a program over capacity was let through");
        };
        assert!(violations >= 3, "{violations}: {first}");
        assert!(first.starts_with("link-busy at step 1"), "{first}");
    }
}
