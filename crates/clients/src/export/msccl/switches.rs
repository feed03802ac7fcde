//! A collective schedule through forward-only nodes (switches, `nvswitch N`)
//! as sends between GPUs (docs/export.md, "Switch nodes"). An MSCCL program
//! names GPU ranks only; a send between two GPUs on a switch crosses it (the
//! route `check --network` gives it, docs/msccl.md "On a fabric"). So each
//! send into a switch is paired with the send out of it that forwards that
//! copy, and the pair is one send from the GPU that sent it in to the GPU it
//! reaches. The step it takes in the program is placed afterwards
//! ([`super::placement`]): the schedule's switch may hold the copy for
//! several steps, the program's send crosses the switch without stopping.
//!
//! A switch without multicast forwards each receipt once: per switch and
//! item, receipts and forwards are matched in step order, first in first
//! out; a chain of switches carries the GPU that sent the copy in along. A
//! receipt no forward takes is a send the program does not need, and is left
//! out. Refused, with the reason: a combining collective (a switch would sum
//! what it receives, which no GPU's step writes), a forward of a copy the
//! switch does not hold (a multicast switch's second copy: the one GPU send
//! in cannot be sent twice without loading the link into the switch twice),
//! a send between a node and a switch it is not linked to, a forward back to
//! the GPU that sent the copy, and a switch numbered before a GPU (GPU i is
//! node i in the program).

use super::MscclError;
use super::placement::Crossing;
use std::collections::{BTreeMap, VecDeque};
use txverify_core::network::Graph;
use txverify_core::schedule::{Packet, TimedSend};

/// A copy a switch holds: the GPU that sent it in, the step it arrived,
/// the step the GPU sent it.
type HeldCopy = (u32, u32, u32);

/// The GPU-to-GPU sends of `sends` (in (step, from, to) order, every node
/// in range) on `graph`, whose forward-only nodes are its last; the GPUs'
/// count and the sends, each at the step its copy left its GPU, in (step,
/// from, to) order. Their steps in the program are [`super::placement`]'s.
pub(super) fn gpu_sends(
    graph: &Graph,
    sends: &[TimedSend],
    combines: bool,
    collective: &str,
) -> Result<(u32, Vec<Crossing>), MscclError> {
    let n = graph.nodes() as u32;
    let switch = |x: u32| graph.is_forward_only(x);
    let gpus = (0..n).filter(|&x| !switch(x)).count() as u32;
    if let Some(first) = (0..gpus).find(|&x| switch(x)) {
        return Err(MscclError::Switches(format!(
            "switch node {first} is numbered before a GPU: MSCCL export writes GPU i as node i, so switch nodes must come after every GPU"
        )));
    }
    let refuse = |s: &TimedSend, why: String| {
        Err(MscclError::Switches(format!(
            "step {}: {} -> {} carrying {}: {why}",
            s.step,
            s.from,
            s.to,
            s.packet()
        )))
    };
    // (switch, packet) → the copies it holds: (the GPU that sent it in,
    // the step it arrived, the step the GPU sent it), oldest first.
    let mut held: BTreeMap<(u32, Packet), VecDeque<HeldCopy>> = BTreeMap::new();
    let mut out = Vec::with_capacity(sends.len());
    for s in sends {
        if !switch(s.from) && !switch(s.to) {
            out.push(Crossing {
                send: *s,
                reached: s.step,
                switch: None,
            });
            continue;
        }
        if combines {
            let node = if switch(s.from) { s.from } else { s.to };
            return Err(MscclError::Switches(format!(
                "{collective} through switch node {node}: a switch combines the partials it receives, and an MSCCL program (GPU ranks only) cannot write a sum made in a switch"
            )));
        }
        if !graph.neighbours(s.from).contains(&s.to) {
            return refuse(s, "the two nodes are not linked".to_string());
        }
        let (origin, sent) = if switch(s.from) {
            let copies = held.entry((s.from, s.packet())).or_default();
            match copies.front() {
                Some(&(origin, at, sent)) if at < s.step => {
                    copies.pop_front();
                    (origin, sent)
                }
                _ => {
                    return refuse(
                        s,
                        format!(
                            "switch {} forwards a copy it does not hold (each copy a switch receives is forwarded once in an MSCCL program; a multicast switch's second copy cannot be written as a GPU's send)",
                            s.from
                        ),
                    );
                }
            }
        } else {
            (s.from, s.step)
        };
        if switch(s.to) {
            held.entry((s.to, s.packet()))
                .or_default()
                .push_back((origin, s.step, sent));
        } else if origin == s.to {
            return refuse(s, format!("GPU {origin} gets back the copy it sent"));
        } else {
            out.push(Crossing {
                send: TimedSend {
                    step: sent,
                    from: origin,
                    ..*s
                },
                reached: s.step,
                switch: Some(s.from),
            });
        }
    }
    out.sort_by_key(|c| (c.send.step, c.send.from, c.send.to));
    Ok((gpus, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn nvswitch(n: u32) -> Graph {
        let name: NetworkName = format!("nvswitch {n}").parse().unwrap();
        name.build().unwrap()
    }

    /// A send of block `source`'s chunk 0.
    fn item(step: u32, from: u32, to: u32, source: u32) -> TimedSend {
        let p = Packet::item(source, 0);
        TimedSend {
            step,
            from,
            to,
            source: p.source,
            destination: p.destination,
        }
    }

    #[test]
    fn receipts_and_forwards_pair_first_in_first_out() {
        // nvswitch 3: the switch is node 3. GPU 0's item goes in twice
        // (steps 1, 2) and out to 1 (step 3), then to 2 (step 4): the first
        // copy in is the first out, each written in the step it went in.
        let g = nvswitch(3);
        let sends = [
            item(1, 0, 3, 0),
            item(2, 0, 3, 0),
            item(3, 3, 1, 0),
            item(4, 3, 2, 0),
        ];
        let (gpus, out) = gpu_sends(&g, &sends, false, "allgather").unwrap();
        assert_eq!(gpus, 3);
        let pairs: Vec<(TimedSend, u32)> = out.iter().map(|c| (c.send, c.reached)).collect();
        assert_eq!(pairs, [(item(1, 0, 1, 0), 3), (item(2, 0, 2, 0), 4)]);
        assert!(out.iter().all(|c| c.switch == Some(3)));
    }

    #[test]
    fn a_second_forward_of_one_copy_is_refused() {
        let g = nvswitch(3);
        let sends = [item(1, 0, 3, 0), item(2, 3, 1, 0), item(2, 3, 2, 0)];
        let Err(MscclError::Switches(why)) = gpu_sends(&g, &sends, false, "allgather") else {
            panic!("a forward without a copy was accepted");
        };
        assert!(why.contains("does not hold"), "{why}");
        // Forwarded in the step it arrives: not held yet either.
        let early = [item(1, 0, 3, 0), item(1, 3, 1, 0)];
        assert!(gpu_sends(&g, &early, false, "allgather").is_err());
    }

    #[test]
    fn a_sum_through_a_switch_and_a_copy_sent_back_are_refused() {
        let g = nvswitch(3);
        let sends = [item(1, 0, 3, 0), item(2, 3, 1, 0)];
        let Err(MscclError::Switches(why)) = gpu_sends(&g, &sends, true, "reduce-scatter") else {
            panic!("a sum in a switch was accepted");
        };
        assert!(why.contains("combines"), "{why}");
        let back = [item(1, 0, 3, 0), item(2, 3, 0, 0)];
        let Err(MscclError::Switches(why)) = gpu_sends(&g, &back, false, "allgather") else {
            panic!("a copy sent back was accepted");
        };
        assert!(why.contains("gets back"), "{why}");
    }
}
