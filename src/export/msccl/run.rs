//! Running an MSCCL program as the runtime would, under the strictest rule,
//! and comparing what it moves with the schedule it was made from: the checks
//! the CLI makes before it writes a program.

use super::{AllToAll, Buffer, Chunk, MscclError, StepKind, Transfer};
use crate::schedule::Schedule;
use std::collections::{BTreeMap, HashMap};

impl AllToAll {
    /// Runs the program as MSCCL would, under the strictest rule: a send and
    /// its receive happen together, when both are next in their threadblocks
    /// and what each depends on is done. Checks that every step reads a chunk
    /// that holds a message and writes one that is empty, that a send and the
    /// receive it meets name the same chunks, that every step depended on says
    /// `hasdep`, that nothing deadlocks, and that at the end every GPU's output
    /// holds exactly the messages addressed to it. Returns the transfers in the
    /// order they happened.
    pub fn execute(&self) -> Result<Vec<Transfer>, MscclError> {
        let fail = |what: String| Err(MscclError::Execution(what));
        let n = self.gpus.len();
        let mut next: Vec<Vec<usize>> = self
            .gpus
            .iter()
            .map(|g| vec![0; g.threadblocks.len()])
            .collect();
        // Chunk contents per GPU: (buffer, index) -> message.
        let mut chunks: Vec<HashMap<Chunk, (u32, u32)>> = (0..n as u32)
            .map(|r| {
                (0..n as u32)
                    .map(|d| {
                        (
                            Chunk {
                                buffer: Buffer::Input,
                                index: d,
                            },
                            (r, d),
                        )
                    })
                    .collect()
            })
            .collect();
        let mut receiver_of: HashMap<(u32, u32, u32), usize> = HashMap::new();
        for gpu in &self.gpus {
            for (id, tb) in gpu.threadblocks.iter().enumerate() {
                if let Some(peer) = tb.recv
                    && receiver_of
                        .insert((gpu.rank, peer, tb.channel), id)
                        .is_some()
                {
                    return fail(format!(
                        "GPU {} has two threadblocks receiving from {peer} on one channel",
                        gpu.rank
                    ));
                }
            }
        }
        let done = |next: &Vec<Vec<usize>>, gpu: usize, dep: Option<(u32, u32)>| {
            dep.is_none_or(|(tb, step)| {
                next[gpu]
                    .get(tb as usize)
                    .is_some_and(|&at| at > step as usize)
            })
        };
        let mut transfers = Vec::new();
        let total: usize = self
            .gpus
            .iter()
            .flat_map(|g| &g.threadblocks)
            .map(|tb| tb.steps.len())
            .sum();
        let mut executed = 0;
        while executed < total {
            let before = executed;
            for g in 0..n {
                for t in 0..self.gpus[g].threadblocks.len() {
                    loop {
                        let tb = &self.gpus[g].threadblocks[t];
                        let Some(step) = tb.steps.get(next[g][t]) else {
                            break;
                        };
                        if !done(&next, g, step.depends_on) {
                            break;
                        }
                        if let Some((dt, ds)) = step.depends_on {
                            let target = &self.gpus[g].threadblocks[dt as usize].steps[ds as usize];
                            if !target.has_dependent {
                                return fail(format!(
                                    "GPU {g} threadblock {t} waits for step {ds} of threadblock {dt}, which lacks hasdep"
                                ));
                            }
                        }
                        let read = |chunks: &Vec<HashMap<Chunk, (u32, u32)>>, c: &Chunk| {
                            chunks[g].get(c).copied()
                        };
                        match step.kind {
                            StepKind::Recv => break, // its sender moves it
                            StepKind::Copy => {
                                let Some(message) = read(&chunks, &step.src) else {
                                    return fail(format!("GPU {g} copies an empty chunk"));
                                };
                                if chunks[g].insert(step.dst, message).is_some() {
                                    return fail(format!("GPU {g} copies onto a full chunk"));
                                }
                                next[g][t] += 1;
                                executed += 1;
                            }
                            StepKind::Send => {
                                let Some(peer) = tb.send else {
                                    return fail(format!(
                                        "GPU {g} threadblock {t} sends without a peer"
                                    ));
                                };
                                let Some(&rt) = receiver_of.get(&(peer, g as u32, tb.channel))
                                else {
                                    return fail(format!(
                                        "GPU {peer} has no threadblock receiving from {g}"
                                    ));
                                };
                                let p = peer as usize;
                                let Some(recv) =
                                    self.gpus[p].threadblocks[rt].steps.get(next[p][rt])
                                else {
                                    return fail(format!(
                                        "GPU {g} sends to {peer}, which receives no more"
                                    ));
                                };
                                if recv.kind != StepKind::Recv || !done(&next, p, recv.depends_on) {
                                    break;
                                }
                                if recv.src != step.src || recv.dst != step.dst {
                                    return fail(format!(
                                        "GPU {g} sends {:?} -> {:?} but GPU {peer} receives {:?} -> {:?}",
                                        step.src, step.dst, recv.src, recv.dst
                                    ));
                                }
                                let Some(message) = read(&chunks, &step.src) else {
                                    return fail(format!("GPU {g} sends an empty chunk"));
                                };
                                if chunks[p].insert(recv.dst, message).is_some() {
                                    return fail(format!("GPU {peer} receives onto a full chunk"));
                                }
                                transfers.push(Transfer {
                                    from: g as u32,
                                    to: peer,
                                    source: message.0,
                                    destination: message.1,
                                });
                                next[g][t] += 1;
                                next[p][rt] += 1;
                                executed += 2;
                            }
                        }
                    }
                }
            }
            if executed == before {
                return fail(format!("deadlock with {} of {total} steps done", executed));
            }
        }
        for (d, held) in chunks.iter().enumerate() {
            for s in 0..n as u32 {
                let chunk = Chunk {
                    buffer: Buffer::Output,
                    index: s,
                };
                if held.get(&chunk) != Some(&(s, d as u32)) {
                    return fail(format!(
                        "GPU {d}: output chunk {s} holds {:?}, not the message {s} -> {d}",
                        held.get(&chunk)
                    ));
                }
            }
        }
        Ok(transfers)
    }

    /// Runs the program ([`execute`](Self::execute)) and compares, for every
    /// link, the messages it carries, in order, with the schedule's sends on
    /// that link in step order.
    pub fn check_against(&self, schedule: &Schedule) -> Result<(), MscclError> {
        let mut made: BTreeMap<(u32, u32), Vec<(u32, u32)>> = BTreeMap::new();
        for t in self.execute()? {
            made.entry((t.from, t.to))
                .or_default()
                .push((t.source, t.destination));
        }
        let mut sends = schedule.sends.clone();
        sends.sort_by_key(|s| s.step);
        let mut wanted: BTreeMap<(u32, u32), Vec<(u32, u32)>> = BTreeMap::new();
        for s in &sends {
            wanted
                .entry((s.from, s.to))
                .or_default()
                .push((s.source, s.destination));
        }
        for (&(from, to), want) in &wanted {
            let got = made.remove(&(from, to)).unwrap_or_default();
            if let Some(k) = (0..want.len().max(got.len())).find(|&k| want.get(k) != got.get(k)) {
                return Err(MscclError::Mismatch {
                    from,
                    to,
                    detail: format!(
                        "transfer {} is {:?} in the schedule, {:?} in the program",
                        k + 1,
                        want.get(k),
                        got.get(k)
                    ),
                });
            }
        }
        if let Some((&(from, to), _)) = made.iter().next() {
            return Err(MscclError::Mismatch {
                from,
                to,
                detail: "the schedule never uses this link".to_string(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::schedule::{Collective, Ports, TimedSend};

    fn send(step: u32, from: u32, to: u32, source: u32, destination: u32) -> TimedSend {
        TimedSend {
            step,
            from,
            to,
            source,
            destination,
        }
    }

    /// Total exchange on `linear 3`: the middle node forwards two messages.
    fn linear3() -> Schedule {
        Schedule {
            network: Some(NetworkName::Linear(3)),
            ports: Some(Ports::All),
            collective: Collective::TotalExchange,
            sends: vec![
                send(1, 0, 1, 0, 2),
                send(1, 2, 1, 2, 0),
                send(1, 1, 0, 1, 0),
                send(1, 1, 2, 1, 2),
                send(2, 1, 2, 0, 2),
                send(2, 1, 0, 2, 0),
                send(3, 0, 1, 0, 1),
                send(3, 2, 1, 2, 1),
            ],
        }
    }

    #[test]
    fn a_forward_waits_for_its_receive_and_reads_its_scratch_chunk() {
        let program = alltoall(&linear3(), "linear 3!").unwrap();
        assert_eq!(program.name, "linear_3_");
        let middle = &program.gpus[1];
        // copy; receives from 0 and 2; sends to 0 and 2.
        let peers: Vec<_> = middle
            .threadblocks
            .iter()
            .map(|t| (t.send, t.recv))
            .collect();
        assert_eq!(
            peers,
            [
                (None, None),
                (None, Some(0)),
                (None, Some(2)),
                (Some(0), None),
                (Some(2), None)
            ]
        );
        assert_eq!(middle.scratch_chunks, 2);
        // Channel 0 is the direction 0 -> 1 -> 2, channel 1 the other.
        let channels: Vec<_> = middle.threadblocks.iter().map(|t| t.channel).collect();
        assert_eq!(channels, [0, 0, 1, 1, 0]);
        assert_eq!(program.channels(), 2);
        // To 2: its own message, then 0's, which waits for receive step 0 of tb 1.
        let to2 = &middle.threadblocks[4].steps;
        assert_eq!(
            to2[0].src,
            Chunk {
                buffer: Buffer::Input,
                index: 2
            }
        );
        assert_eq!(
            to2[1].src,
            Chunk {
                buffer: Buffer::Scratch,
                index: 0
            }
        );
        assert_eq!(to2[1].depends_on, Some((1, 0)));
        assert!(middle.threadblocks[1].steps[0].has_dependent);
        program.check_against(&linear3()).unwrap();
    }

    #[test]
    fn a_changed_program_fails_its_checks() {
        let schedule = linear3();
        let program = alltoall(&schedule, "x").unwrap();
        // Without the dependency the forward may run first: under the strict
        // rule it still waits for its receiver, so drop hasdep instead.
        let mut no_hasdep = program.clone();
        no_hasdep.gpus[1].threadblocks[1].steps[0].has_dependent = false;
        assert!(
            matches!(no_hasdep.execute(), Err(MscclError::Execution(m)) if m.contains("hasdep"))
        );
        // A receive that writes elsewhere than its send says.
        let mut wrong = program.clone();
        wrong.gpus[2].threadblocks[1].steps[0].dst.index = 0;
        assert!(matches!(wrong.execute(), Err(MscclError::Execution(_))));
        // Two sends swapped on one link: runs, but not as the schedule says.
        let mut swapped = program.clone();
        let steps = &mut swapped.gpus[0].threadblocks[2].steps;
        assert_eq!(steps.len(), 2);
        steps.swap(0, 1);
        let recv = &mut swapped.gpus[1].threadblocks[1].steps;
        recv.swap(0, 1);
        swapped.gpus[1].threadblocks[4].steps[1].depends_on = Some((1, 1));
        swapped.gpus[1].threadblocks[1].steps[1].has_dependent = true;
        assert!(matches!(
            swapped.check_against(&schedule),
            Err(MscclError::Mismatch { from: 0, to: 1, .. })
        ));
        // A schedule that does not deliver.
        let mut short = schedule.clone();
        short.sends.pop();
        assert!(matches!(
            alltoall(&short, "x"),
            Err(MscclError::NotDelivered {
                from_node: 2,
                destination: 1
            })
        ));
        // Over the size limit: refused before anything is built.
        let mut huge = linear3();
        huge.sends = vec![send(1, 0, 1, 0, 2); MAX_MSCCL_SENDS + 1];
        assert_eq!(
            alltoall(&huge, "x"),
            Err(MscclError::TooLarge {
                sends: MAX_MSCCL_SENDS + 1
            })
        );
        // A forward before its arrival.
        let mut early = schedule;
        early.sends[4].step = 1;
        assert!(matches!(
            alltoall(&early, "x"),
            Err(MscclError::BadSend { .. })
        ));
    }
}
