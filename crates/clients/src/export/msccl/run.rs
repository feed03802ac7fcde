//! Running an MSCCL program as the runtime would, under the strictest rule,
//! and comparing what it moves with the schedule it was made from: the checks
//! the CLI makes before it writes a program.

use super::{Buffer, Chunk, MscclError, MscclProgram, Step, StepKind, Transfer};
use std::collections::{BTreeMap, HashMap};
use txverify_core::schedule::Schedule;

impl MscclProgram {
    /// Runs the program as MSCCL would, under the strictest rule: a send and
    /// its receive happen together, when both are next in their threadblocks
    /// and what each depends on is done. Checks that every step reads a chunk
    /// that holds a message and writes one that is empty, that a send and the
    /// receive it meets name the same chunks, that every step depended on says
    /// `hasdep`, that nothing deadlocks, and that at the end every GPU's output
    /// holds exactly the messages addressed to it. Returns the transfers in the
    /// order they happened.
    pub fn execute(&self) -> Result<Vec<Transfer>, MscclError> {
        if self.coll != "alltoall" {
            // The other collectives are run by the MSCCL checker
            // (`collective::check_collective`).
            return fail(format!("this runner runs all-to-alls, not {}", self.coll));
        }
        let mut run = Execution::new(self)?;
        let total: usize = self
            .gpus
            .iter()
            .flat_map(|g| &g.threadblocks)
            .map(|tb| tb.steps.len())
            .sum();
        while run.executed < total {
            let before = run.executed;
            for g in 0..self.gpus.len() {
                for t in 0..self.gpus[g].threadblocks.len() {
                    while run.step(g, t)? {}
                }
            }
            if run.executed == before {
                return fail(format!(
                    "deadlock with {} of {total} steps done",
                    run.executed
                ));
            }
        }
        run.check_outputs()?;
        Ok(run.transfers)
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

/// A failed check of [`MscclProgram::execute`].
fn fail<T>(what: String) -> Result<T, MscclError> {
    Err(MscclError::Execution(what))
}

/// A run of a program under the strictest rule, part way through.
struct Execution<'a> {
    program: &'a MscclProgram,
    /// Per GPU and threadblock, the index of its next step.
    next: Vec<Vec<usize>>,
    /// Chunk contents per GPU: chunk → message (source, destination).
    chunks: Vec<HashMap<Chunk, (u32, u32)>>,
    /// (GPU, peer, channel) → the GPU's threadblock receiving from the peer.
    receiver_of: HashMap<(u32, u32, u32), usize>,
    /// The transfers so far, in the order they happened.
    transfers: Vec<Transfer>,
    /// Steps executed so far (a send and its receive count two).
    executed: usize,
}

impl<'a> Execution<'a> {
    /// The start: no step done, every GPU's input chunk `d` holding its
    /// message to `d`. Refuses a GPU with two threadblocks receiving from one
    /// peer on one channel.
    fn new(program: &'a MscclProgram) -> Result<Execution<'a>, MscclError> {
        let n = program.gpus.len() as u32;
        let next = program
            .gpus
            .iter()
            .map(|g| vec![0; g.threadblocks.len()])
            .collect();
        let chunks = (0..n)
            .map(|r| {
                (0..n)
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
        let mut receiver_of = HashMap::new();
        for gpu in &program.gpus {
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
        Ok(Execution {
            program,
            next,
            chunks,
            receiver_of,
            transfers: Vec::new(),
            executed: 0,
        })
    }

    /// Whether the step `dep` of GPU `gpu` names (if any) is done.
    fn done(&self, gpu: usize, dep: Option<(u32, u32)>) -> bool {
        dep.is_none_or(|(tb, step)| {
            self.next[gpu]
                .get(tb as usize)
                .is_some_and(|&at| at > step as usize)
        })
    }

    /// Executes the next step of threadblock `t` of GPU `g` if it can run now
    /// (a receive runs with its send); whether it ran.
    fn step(&mut self, g: usize, t: usize) -> Result<bool, MscclError> {
        let program = self.program;
        let Some(step) = program.gpus[g].threadblocks[t].steps.get(self.next[g][t]) else {
            return Ok(false);
        };
        if !self.done(g, step.depends_on) {
            return Ok(false);
        }
        if let Some((dt, ds)) = step.depends_on {
            let target = &program.gpus[g].threadblocks[dt as usize].steps[ds as usize];
            if !target.has_dependent {
                return fail(format!(
                    "GPU {g} threadblock {t} waits for step {ds} of threadblock {dt}, which lacks hasdep"
                ));
            }
        }
        match step.kind {
            StepKind::Recv => Ok(false), // its sender moves it
            StepKind::Nop => {
                self.next[g][t] += 1;
                self.executed += 1;
                Ok(true)
            }
            StepKind::Copy => self.copy(g, t, step).map(|()| true),
            StepKind::Send => self.send(g, t, step),
            StepKind::RecvReduceCopy => fail(format!("GPU {g} combines in an all-to-all")),
        }
    }

    /// Executes copy step `step`, the next of threadblock `t` of GPU `g`.
    fn copy(&mut self, g: usize, t: usize, step: &Step) -> Result<(), MscclError> {
        let Some(message) = self.chunks[g].get(&step.src).copied() else {
            return fail(format!("GPU {g} copies an empty chunk"));
        };
        if self.chunks[g].insert(step.dst, message).is_some() {
            return fail(format!("GPU {g} copies onto a full chunk"));
        }
        self.next[g][t] += 1;
        self.executed += 1;
        Ok(())
    }

    /// Executes send step `step`, the next of threadblock `t` of GPU `g`,
    /// with the receive it meets, if that receive is next in its threadblock
    /// and what it depends on is done; whether they ran.
    fn send(&mut self, g: usize, t: usize, step: &Step) -> Result<bool, MscclError> {
        let program = self.program;
        let tb = &program.gpus[g].threadblocks[t];
        let Some(peer) = tb.send else {
            return fail(format!("GPU {g} threadblock {t} sends without a peer"));
        };
        let Some(&rt) = self.receiver_of.get(&(peer, g as u32, tb.channel)) else {
            return fail(format!("GPU {peer} has no threadblock receiving from {g}"));
        };
        let p = peer as usize;
        let Some(recv) = program.gpus[p].threadblocks[rt].steps.get(self.next[p][rt]) else {
            return fail(format!("GPU {g} sends to {peer}, which receives no more"));
        };
        if recv.kind != StepKind::Recv || !self.done(p, recv.depends_on) {
            return Ok(false);
        }
        if recv.src != step.src || recv.dst != step.dst {
            return fail(format!(
                "GPU {g} sends {:?} -> {:?} but GPU {peer} receives {:?} -> {:?}",
                step.src, step.dst, recv.src, recv.dst
            ));
        }
        let Some(message) = self.chunks[g].get(&step.src).copied() else {
            return fail(format!("GPU {g} sends an empty chunk"));
        };
        if self.chunks[p].insert(recv.dst, message).is_some() {
            return fail(format!("GPU {peer} receives onto a full chunk"));
        }
        self.transfers.push(Transfer {
            from: g as u32,
            to: peer,
            source: message.0,
            destination: message.1,
        });
        self.next[g][t] += 1;
        self.next[p][rt] += 1;
        self.executed += 2;
        Ok(true)
    }

    /// Refuses an end in which some GPU's output chunk `s` does not hold
    /// exactly the message from `s`.
    fn check_outputs(&self) -> Result<(), MscclError> {
        let n = self.chunks.len() as u32;
        for (d, held) in self.chunks.iter().enumerate() {
            for s in 0..n {
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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use txverify_core::network::NetworkName;
    use txverify_core::schedule::{Collective, Ports, TimedSend};

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
