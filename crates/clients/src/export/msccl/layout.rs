//! How an MSCCL program's sends are laid out (docs/export.md, "MSCCL XML"):
//! a send and a receive threadblock per link and lane, a channel per
//! network direction, the dependencies that order each GPU's sends, and
//! the placing of a total exchange's sends as steps. The program's types
//! and the all-to-all's entry are in the parent module; the collectives
//! place their own sends on the same layout (`collective.rs`).

use super::{Buffer, Chunk, Gpu, MAX_ORDER_WAITS, MscclError, Step, StepKind, Threadblock};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use txverify_core::network::NetworkName;
use txverify_core::schedule::TimedSend;

/// Where a message that has moved is.
pub(super) struct Held {
    node: u32,
    chunk: Chunk,
    /// (threadblock, step) of the receive that wrote it.
    writer: (u32, u32),
    arrived: u32,
}

/// The GPUs' threadblocks, and which threadblock sends or receives on each
/// link, while the sends are placed as steps.
pub(super) struct Layout {
    pub(super) gpus: Vec<Gpu>,
    /// (from, to, lane) → the send threadblock of `from` towards `to`.
    send_tb: HashMap<(u32, u32, u32), u32>,
    /// (to, from, lane) → the receive threadblock of `to` from `from`.
    recv_tb: HashMap<(u32, u32, u32), u32>,
    /// (from, to, lane) → the channel of the lane's connection.
    channel: HashMap<(u32, u32, u32), u32>,
    /// Per GPU, when its sends are held in schedule step order: its sends so far.
    order: Vec<Option<SendOrder>>,
}

/// The sends of one GPU whose sends are held in schedule step order.
#[derive(Clone, Debug, Default)]
struct SendOrder {
    /// The schedule step of `current`.
    step: u32,
    /// (threadblock, step) of the sends of the GPU's previous schedule step
    /// that sent, which every send of `step` waits for.
    previous: Vec<(u32, u32)>,
    /// (threadblock, step) of the sends of `step`.
    current: Vec<(u32, u32)>,
}

/// The GPUs whose sends are held in schedule step order: the sources of the
/// network's switch limits. A schedule through switch nodes is refused: the
/// program's ranks are GPUs only.
pub(super) fn ordered_gpus(network: &NetworkName, n: u32) -> Result<Vec<bool>, MscclError> {
    let graph = network.build().map_err(|_| MscclError::NoNetwork)?;
    if graph.fabric().has_forward_only() {
        return Err(MscclError::Switches(format!(
            "{network} has switch nodes: MSCCL export writes a total exchange whose nodes are all GPUs"
        )));
    }
    Ok(limit_sources(&graph, n))
}

/// Which of GPUs `0..n` are sources of a switch limit of `graph`.
pub(super) fn limit_sources(graph: &txverify_core::network::Graph, n: u32) -> Vec<bool> {
    let mut ordered = vec![false; n as usize];
    for limit in graph.fabric().limits() {
        for &x in &limit.sources {
            if let Some(o) = ordered.get_mut(x as usize) {
                *o = true;
            }
        }
    }
    ordered
}

/// The waits that holding the sends of the `ordered` GPUs in step order takes
/// (sends in (step, from, to) order): per GPU and step, its sends times those
/// of its previous step that sent; refused above [`MAX_ORDER_WAITS`].
pub(super) fn order_waits(sends: &[TimedSend], ordered: &[bool]) -> Result<u64, MscclError> {
    let mut last: HashMap<u32, (u32, u64)> = HashMap::new();
    let mut waits = 0u64;
    for group in sends.chunk_by(|a, b| a.step == b.step) {
        let mut now: BTreeMap<u32, u64> = BTreeMap::new();
        for s in group.iter().filter(|s| ordered[s.from as usize]) {
            *now.entry(s.from).or_default() += 1;
        }
        for (from, count) in now {
            let before = last.get(&from).map_or(0, |&(_, c)| c);
            waits = waits.saturating_add(before.saturating_mul(count));
            last.insert(from, (group[0].step, count));
        }
    }
    if waits > MAX_ORDER_WAITS {
        return Err(MscclError::TooManyWaits { waits });
    }
    Ok(waits)
}

/// The lanes of each link the sends use: the most sends it carries in one
/// step (sends in (step, from, to) order).
pub(super) fn link_lanes(sends: &[TimedSend]) -> BTreeMap<(u32, u32), u32> {
    let mut lanes: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for group in sends.chunk_by(|a, b| a.step == b.step) {
        for same in group.chunk_by(|a, b| (a.from, a.to) == (b.from, b.to)) {
            let k = lanes.entry((same[0].from, same[0].to)).or_default();
            *k = (*k).max(same.len() as u32);
        }
    }
    lanes
}

impl Layout {
    /// Every GPU's threadblocks without the sends' steps, with ids sorted as
    /// MSCCL's tools sort them (send peer, receive peer; -1 first): the local
    /// copies `local` gives the GPU (a threadblock of their own when there
    /// are any), the receives by peer, the sends by peer.
    pub(super) fn new(
        n: u32,
        network: &NetworkName,
        lanes: &BTreeMap<(u32, u32), u32>,
        ordered: &[bool],
        local: impl Fn(u32) -> Vec<Step>,
    ) -> Layout {
        let links: BTreeSet<(u32, u32)> = lanes.keys().copied().collect();
        let mut gpus: Vec<Gpu> = (0..n)
            .map(|rank| {
                let steps = local(rank);
                Gpu {
                    rank,
                    scratch_chunks: 0,
                    threadblocks: if steps.is_empty() {
                        Vec::new()
                    } else {
                        vec![Threadblock {
                            send: None,
                            recv: None,
                            channel: 0,
                            steps,
                        }]
                    },
                }
            })
            .collect();
        let base = link_channels(network, &links);
        let stride = base.values().max().map_or(1, |&c| c + 1);
        let mut channel = HashMap::new();
        for (&(from, to), &k) in lanes {
            for lane in 0..k.max(1) {
                channel.insert((from, to, lane), base[&(from, to)] + lane * stride);
            }
        }
        let mut recv_tb = HashMap::new();
        let incoming: BTreeSet<(u32, u32, u32)> = channel
            .keys()
            .map(|&(from, to, lane)| (to, from, lane))
            .collect();
        for &(to, from, lane) in &incoming {
            let gpu = &mut gpus[to as usize];
            recv_tb.insert((to, from, lane), gpu.threadblocks.len() as u32);
            gpu.threadblocks.push(Threadblock {
                send: None,
                recv: Some(from),
                channel: channel[&(from, to, lane)],
                steps: Vec::new(),
            });
        }
        let mut send_tb = HashMap::new();
        let outgoing: BTreeSet<(u32, u32, u32)> = channel.keys().copied().collect();
        for &(from, to, lane) in &outgoing {
            let gpu = &mut gpus[from as usize];
            send_tb.insert((from, to, lane), gpu.threadblocks.len() as u32);
            gpu.threadblocks.push(Threadblock {
                send: Some(to),
                recv: None,
                channel: channel[&(from, to, lane)],
                steps: Vec::new(),
            });
        }
        Layout {
            gpus,
            send_tb,
            recv_tb,
            channel,
            order: (0..n as usize)
                .map(|g| {
                    ordered
                        .get(g)
                        .copied()
                        .unwrap_or(false)
                        .then(SendOrder::default)
                })
                .collect(),
        }
    }

    /// The channel of lane `lane` of the link `from → to`.
    pub(super) fn channel(&self, from: u32, to: u32, lane: u32) -> u32 {
        self.channel[&(from, to, lane)]
    }

    /// A `cpy` step from `src` to `dst`, after `depends_on` if given.
    pub(super) fn copy(src: Chunk, dst: Chunk, depends_on: Option<(u32, u32)>) -> Step {
        Step {
            kind: StepKind::Copy,
            src,
            dst,
            depends_on,
            has_dependent: false,
        }
    }

    /// A new scratch chunk of GPU `gpu`.
    pub(super) fn scratch(&mut self, gpu: u32) -> Chunk {
        let gpu = &mut self.gpus[gpu as usize];
        gpu.scratch_chunks += 1;
        Chunk {
            buffer: Buffer::Scratch,
            index: gpu.scratch_chunks - 1,
        }
    }

    /// Appends send `step`, of schedule step `at`, to the send threadblock of
    /// lane `lane` of the link `from → to`. When `from`'s sends are held in
    /// step order, the send also waits for every send of `from`'s previous
    /// schedule step with sends (in other threadblocks; its own runs in
    /// order), and for `anchor` (a receipt of `from`'s, [`super::placement`]):
    /// a `nop` per wait beyond one, then the send with the last.
    pub(super) fn push_send(
        &mut self,
        from: u32,
        to: u32,
        lane: u32,
        at: u32,
        mut step: Step,
        anchor: Option<(u32, u32)>,
    ) {
        let tb = self.send_tb[&(from, to, lane)];
        let mut waits: Vec<(u32, u32)> = Vec::new();
        if let Some(order) = self.order[from as usize].as_mut() {
            if order.step != at {
                order.previous = std::mem::take(&mut order.current);
                order.step = at;
            }
            waits.extend(order.previous.iter().filter(|&&(t, _)| t != tb));
        }
        waits.extend(anchor);
        waits.extend(step.depends_on);
        for &w in &waits {
            self.mark(from, Some(w));
        }
        step.depends_on = waits.pop();
        let steps = &mut self.gpus[from as usize].threadblocks[tb as usize].steps;
        for w in waits {
            steps.push(Step {
                kind: StepKind::Nop,
                src: step.src,
                dst: step.dst,
                depends_on: Some(w),
                has_dependent: false,
            });
        }
        steps.push(step);
        let index = steps.len() as u32 - 1;
        if let Some(order) = self.order[from as usize].as_mut() {
            order.current.push((tb, index));
        }
    }

    /// Appends `step` to the threadblock of `to` that receives from `from`;
    /// returns its (threadblock, step).
    pub(super) fn push_recv(&mut self, from: u32, to: u32, lane: u32, step: Step) -> (u32, u32) {
        let tb = self.recv_tb[&(to, from, lane)];
        let steps = &mut self.gpus[to as usize].threadblocks[tb as usize].steps;
        steps.push(step);
        (tb, steps.len() as u32 - 1)
    }

    /// Appends `step` to the threadblock of `gpu` that neither sends nor
    /// receives, made (with the next id) if the GPU has none.
    pub(super) fn push_local(&mut self, gpu: u32, step: Step) {
        let tbs = &mut self.gpus[gpu as usize].threadblocks;
        match tbs
            .iter_mut()
            .find(|t| t.send.is_none() && t.recv.is_none())
        {
            Some(tb) => tb.steps.push(step),
            None => tbs.push(Threadblock {
                send: None,
                recv: None,
                channel: 0,
                steps: vec![step],
            }),
        }
    }

    /// Marks step `at` (threadblock, step) of `gpu`, if any, as waited for
    /// by a step of another threadblock (`hasdep`).
    pub(super) fn mark(&mut self, gpu: u32, at: Option<(u32, u32)>) {
        if let Some((tb, step)) = at {
            self.gpus[gpu as usize].threadblocks[tb as usize].steps[step as usize].has_dependent =
                true;
        }
    }

    /// Appends send `s` (the next in step order) as a send step on its link's
    /// send threadblock and a receive step on the receive threadblock of its
    /// peer, and records in `held` where the message now is. Refuses a send
    /// whose sender does not hold the message, or that sends it on from its
    /// destination.
    pub(super) fn place(
        &mut self,
        s: &TimedSend,
        held: &mut HashMap<(u32, u32), Held>,
    ) -> Result<(), MscclError> {
        let key = (s.source, s.destination);
        let (node, src, writer, arrived) = match held.get(&key) {
            Some(h) => (h.node, h.chunk, Some(h.writer), h.arrived),
            None => (
                s.source,
                Chunk {
                    buffer: Buffer::Input,
                    index: s.destination,
                },
                None,
                0,
            ),
        };
        if node != s.from || arrived >= s.step {
            return Err(MscclError::BadSend {
                send: *s,
                reason: "the sender does not hold the message at the start of the step",
            });
        }
        if node == s.destination {
            return Err(MscclError::BadSend {
                send: *s,
                reason: "the message is sent on from its destination",
            });
        }
        let dst = self.destination_chunk(s);
        let send = Step {
            kind: StepKind::Send,
            src,
            dst,
            depends_on: writer,
            has_dependent: false,
        };
        self.push_send(s.from, s.to, 0, s.step, send, None);
        let recv_id = self.recv_tb[&(s.to, s.from, 0)];
        let tb = &mut self.gpus[s.to as usize].threadblocks[recv_id as usize];
        tb.steps.push(Step {
            kind: StepKind::Recv,
            src,
            dst,
            depends_on: None,
            has_dependent: false,
        });
        held.insert(
            key,
            Held {
                node: s.to,
                chunk: dst,
                writer: (recv_id, tb.steps.len() as u32 - 1),
                arrived: s.step,
            },
        );
        Ok(())
    }

    /// The chunk that send `s` writes at its receiver: the output chunk of
    /// the source at the destination, or else a new scratch chunk.
    pub(super) fn destination_chunk(&mut self, s: &TimedSend) -> Chunk {
        if s.to == s.destination {
            Chunk {
                buffer: Buffer::Output,
                index: s.source,
            }
        } else {
            self.scratch(s.to)
        }
    }
}

/// Refuses a program after which some message is not at its destination.
pub(super) fn all_delivered(n: u32, held: &HashMap<(u32, u32), Held>) -> Result<(), MscclError> {
    for source in 0..n {
        for destination in (0..n).filter(|&d| d != source) {
            if held
                .get(&(source, destination))
                .is_none_or(|h| h.node != destination)
            {
                return Err(MscclError::NotDelivered {
                    from_node: source,
                    destination,
                });
            }
        }
    }
    Ok(())
}

/// The channel of every directed link: on a ring, torus, mesh or hypercube,
/// one channel per direction of the network (dimension and sign; on a side of
/// 2 the two directions are one), numbered in order of the directions used, so
/// that each channel is a set of parallel links, as an NCCL ring is; on any
/// other network, channel 0 for every link.
fn link_channels(network: &NetworkName, links: &BTreeSet<(u32, u32)>) -> HashMap<(u32, u32), u32> {
    let sides: Vec<u32> = match network {
        NetworkName::Ring(n) | NetworkName::Linear(n) => vec![*n],
        NetworkName::Torus(sides) | NetworkName::Mesh(sides) => sides.clone(),
        NetworkName::Hypercube(d) => vec![2; *d as usize],
        _ => Vec::new(),
    };
    // (dimension, +1 or -1) of a link, when it moves one coordinate by one.
    let direction = |from: u32, to: u32| -> Option<(usize, bool)> {
        let (mut a, mut b) = (from, to);
        let mut found = None;
        for (i, &side) in sides.iter().enumerate() {
            let (x, y) = (a % side, b % side);
            (a, b) = (a / side, b / side);
            if x != y {
                if found.is_some() {
                    return None;
                }
                found = Some((i, side == 2 || y == (x + 1) % side));
            }
        }
        found
    };
    let directions: Option<BTreeMap<(u32, u32), (usize, bool)>> = links
        .iter()
        .map(|&(from, to)| direction(from, to).map(|d| ((from, to), d)))
        .collect();
    let Some(directions) = directions else {
        return links.iter().map(|&link| (link, 0)).collect();
    };
    // Plus before minus within a dimension.
    let numbers: BTreeMap<(usize, bool), u32> = directions
        .values()
        .map(|&(i, plus)| (i, !plus))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .enumerate()
        .map(|(k, (i, minus))| ((i, !minus), k as u32))
        .collect();
    directions
        .into_iter()
        .map(|(link, d)| (link, numbers[&d]))
        .collect()
}

#[cfg(test)]
mod order_tests {
    use super::*;

    fn send(step: u32, from: u32, to: u32) -> TimedSend {
        TimedSend {
            step,
            from,
            to,
            source: from,
            destination: to,
        }
    }

    #[test]
    fn a_gpus_sends_wait_for_those_of_its_previous_sending_step() {
        // GPU 0 sends twice in step 1, three times in step 3: 2 · 3 waits;
        // GPU 1 is not ordered.
        let sends = [
            send(1, 0, 1),
            send(1, 0, 2),
            send(1, 1, 0),
            send(3, 0, 1),
            send(3, 0, 2),
            send(3, 0, 3),
            send(3, 1, 2),
        ];
        assert_eq!(order_waits(&sends, &[true, false, false, false]), Ok(6));
        assert_eq!(order_waits(&sends, &[false; 4]), Ok(0));
    }

    #[test]
    fn waits_over_the_limit_are_refused_before_the_program_is_built() {
        // 2,049 sends of GPU 0 in each of two steps: 2,049² > 2^22 waits.
        let wide = 2049u32;
        let sends: Vec<TimedSend> = (1..=2)
            .flat_map(|step| (1..=wide).map(move |to| send(step, 0, to)))
            .collect();
        let mut ordered = vec![false; wide as usize + 1];
        ordered[0] = true;
        assert_eq!(
            order_waits(&sends, &ordered),
            Err(MscclError::TooManyWaits {
                waits: u64::from(wide) * u64::from(wide)
            })
        );
    }
}
