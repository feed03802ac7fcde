//! What the replay records: each violation as it is found (counted, and
//! listed up to the options' limit), the close of each step (its busy links,
//! and the per-step counts cleared for the next), and at the end the packets
//! never delivered.

use super::{Packet, Packets, State, StepUse, Violation, ViolationKind};

impl State<'_> {
    pub(super) fn report(
        &mut self,
        kind: ViolationKind,
        step: Option<u32>,
        node: u32,
        link: Option<(u32, u32)>,
        packet: Packet,
    ) {
        *self.counts.entry(kind).or_insert(0) += 1;
        if self.violations.len() < self.max_listed {
            self.violations.push(Violation {
                kind,
                step,
                node,
                link,
                packet,
            });
        }
    }

    pub(super) fn end_step(&mut self, step: u32) {
        if let Some(mut sums) = self.sums.take() {
            sums.end_step(|s, kind| {
                self.report(kind, Some(s.step), s.to, Some((s.from, s.to)), s.packet())
            });
            self.sums = Some(sums);
        }
        if !self.busy_list.is_empty() {
            self.link_use.push(StepUse {
                step,
                busy_links: self.busy_list.len() as u32,
            });
        }
        match &mut self.link_load {
            Some(load) => self.busy_list.drain(..).for_each(|l| load[l as usize] = 0),
            None => {
                for l in self.busy_list.drain(..) {
                    self.link_busy.clear(l as usize);
                }
            }
        }
        for i in self.limits_touched.drain(..) {
            self.limit_sends[i as usize] = 0;
        }
        for x in self.port_touched.drain(..) {
            self.sent[x as usize] = 0;
            self.received[x as usize] = 0;
        }
        for i in self.fresh_list.drain(..) {
            self.fresh.clear(i);
        }
        if let Some(copies) = self.switch_copies.as_mut() {
            copies.end_step();
        }
        for x in self.queue_touched.drain(..) {
            self.peak_queue = self.peak_queue.max(self.queue[x as usize]);
        }
    }

    pub(super) fn finish(&mut self) {
        let n = self.n;
        match self.packets {
            Packets::All | Packets::From(_) => {
                for i in 0..self.personal.len() {
                    let (source, destination) = match self.packets {
                        Packets::All => ((i / n) as u32, (i % n) as u32),
                        Packets::From(r) => (r, i as u32),
                        _ => unreachable!("personalised collectives only"),
                    };
                    let wanted = self.wanted.as_ref().is_none_or(|w| w.get(i))
                        && !self.graph.is_forward_only(source)
                        && !self.graph.is_forward_only(destination);
                    if wanted && source != destination && self.personal[i].holder != destination {
                        let packet = Packet {
                            source,
                            destination,
                        };
                        self.report(
                            ViolationKind::NeverDelivered,
                            None,
                            self.personal[i].holder,
                            None,
                            packet,
                        );
                    }
                }
            }
            Packets::Items(set) => {
                for p in 0..set.count(n) {
                    let block = set.packet(p).source as usize;
                    if self.graph.is_forward_only(block as u32) {
                        continue;
                    }
                    for x in 0..n {
                        if self.graph.is_forward_only(x as u32) {
                            continue;
                        }
                        let missing = match &self.sums {
                            None => !self.have.get(p * n + x),
                            Some(sums) => (set.everywhere || x == block) && !sums.complete(p, x),
                        };
                        if missing {
                            let packet = set.packet(p);
                            self.report(
                                ViolationKind::NeverDelivered,
                                None,
                                x as u32,
                                None,
                                packet,
                            );
                        }
                    }
                }
            }
        }
    }
}
