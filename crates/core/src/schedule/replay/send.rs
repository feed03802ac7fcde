//! One send: the packet it carries ([`Slot`]), the checks it must pass
//! (a link, the packet held by the sender since before the step, no second
//! delivery) and the room it takes (the link's capacity, the fabric's switch
//! limits, the sender's and receiver's ports), then its effect on who holds
//! what. Each failed check is recorded by [`State::report`]
//! (`replay/record.rs`).

use super::switch_copies::Spend;
use super::{Held, Packet, Packets, Ports, Slot, State, TimedSend, ViolationKind};
use crate::schedule::Items;

impl State<'_> {
    fn slot(&self, p: Packet) -> Option<Slot> {
        let n = self.n as u32;
        let switch = |x: u32| self.graph.is_forward_only(x);
        if switch(p.source) || (!p.is_broadcast() && switch(p.destination)) {
            return None;
        }
        match self.packets {
            Packets::All => {
                let i = p.source as usize * self.n + p.destination as usize;
                (!p.is_broadcast()
                    && p.source != p.destination
                    && self.wanted.as_ref().is_none_or(|w| w.get(i)))
                .then_some(Slot::Personal(i))
            }
            Packets::From(r) => (p.source == r && !p.is_broadcast() && p.destination != r)
                .then_some(Slot::Personal(p.destination as usize)),
            Packets::Items(set) => {
                let i = set.index(p, n as usize)?;
                Some(match set.how {
                    Items::Sums => Slot::Sum(i),
                    _ => Slot::Copy(i),
                })
            }
        }
    }

    /// Reads the state of the personalised packet a send carries, if there is
    /// one, so that its cache line is loaded before the send is played. Changes
    /// nothing; the value read is meaningless.
    pub(super) fn warm(&self, s: &TimedSend) -> u32 {
        let i = match self.packets {
            Packets::All => (s.source as usize)
                .saturating_mul(self.n)
                .saturating_add(s.destination as usize),
            Packets::From(_) => s.destination as usize,
            _ => return 0,
        };
        self.personal.get(i).map_or(0, |h| h.holder)
    }

    pub(super) fn send(&mut self, s: TimedSend) {
        let packet = s.packet();
        let link = Some((s.from, s.to));
        let step = Some(s.step);
        if s.step == 0 {
            return self.report(ViolationKind::StepZero, step, s.from, link, packet);
        }
        let n = self.n as u32;
        let bad = |x: u32| x >= n;
        let item = s.packet().is_broadcast();
        if bad(s.from) || bad(s.to) || bad(s.source) || (!item && bad(s.destination)) {
            let node = [s.from, s.to, s.source, s.destination]
                .into_iter()
                .find(|&x| bad(x) && !(item && x == s.destination))
                .unwrap_or(s.from);
            return self.report(ViolationKind::BadNode, step, node, link, packet);
        }
        let Some(slot) = self.slot(packet) else {
            return self.report(ViolationKind::UnknownPacket, step, s.from, link, packet);
        };
        let link_id = self.graph.link(s.from, s.to);
        if link_id.is_none() {
            self.report(ViolationKind::NotALink, step, s.from, link, packet);
        }
        // Holding and delivery.
        match slot {
            Slot::Personal(i) => {
                let held = self.personal[i];
                if held.holder != s.from || held.arrival >= s.step {
                    return self.report(ViolationKind::NotHeld, step, s.from, link, packet);
                }
                if s.from == s.destination {
                    return self.report(ViolationKind::DeliveredTwice, step, s.from, link, packet);
                }
            }
            Slot::Copy(p) if self.counts_copies(s.from) => {
                let copies = self.switch_copies.as_mut().map(|c| c.spend(p, s.from));
                match copies {
                    Some(Spend::NeverHeld) => {
                        return self.report(ViolationKind::NotHeld, step, s.from, link, packet);
                    }
                    Some(Spend::NoneLeft) => {
                        self.report(ViolationKind::SwitchCopy, step, s.from, link, packet)
                    }
                    _ => {}
                }
                if !self.counts_copies(s.to) && self.have.get(p * self.n + s.to as usize) {
                    return self.report(ViolationKind::DeliveredTwice, step, s.to, link, packet);
                }
            }
            Slot::Copy(p) => {
                let from = p * self.n + s.from as usize;
                if !self.have.get(from) || self.fresh.get(from) {
                    return self.report(ViolationKind::NotHeld, step, s.from, link, packet);
                }
                if !self.counts_copies(s.to) && self.have.get(p * self.n + s.to as usize) {
                    return self.report(ViolationKind::DeliveredTwice, step, s.to, link, packet);
                }
            }
            // Every node holds a partial of every item; what it brings is
            // judged when the step ends.
            Slot::Sum(_) => {}
        }
        // Capacity.
        if let Some(l) = link_id {
            self.use_link(l, s);
        }
        if !self.limits_from.is_empty() {
            self.count_limits(s);
        }
        if let (Some(copies), Slot::Sum(p)) = (&mut self.switch_copies, &slot)
            && self.graph.is_forward_only(s.from)
            && !copies.forwarded_sums.insert((*p, s.from))
        {
            self.report(ViolationKind::SwitchCopy, step, s.from, link, packet);
        }
        let (from, to) = (s.from as usize, s.to as usize);
        if self.sent[from] == 0 && self.received[from] == 0 {
            self.port_touched.push(s.from);
        }
        self.sent[from] = self.sent[from].saturating_add(1);
        if self.sent[to] == 0 && self.received[to] == 0 {
            self.port_touched.push(s.to);
        }
        self.received[to] = self.received[to].saturating_add(1);
        if let Ports::Limit(k) = self.ports {
            if self.sent[from] > k {
                self.report(ViolationKind::SendPorts, step, s.from, link, packet);
            }
            if self.received[to] > k {
                self.report(ViolationKind::ReceivePorts, step, s.to, link, packet);
            }
        }
        // Effect.
        match slot {
            Slot::Personal(i) => {
                if self.personal[i].arrival > 0 {
                    self.queue[from] = self.queue[from].saturating_sub(1);
                }
                self.personal[i] = Held {
                    holder: s.to,
                    arrival: s.step,
                };
                if s.to != s.destination {
                    self.queue[to] = self.queue[to].saturating_add(1);
                    self.queue_touched.push(s.to);
                }
            }
            Slot::Copy(p) => {
                if let Some(copies) = self
                    .switch_copies
                    .as_mut()
                    .filter(|_| self.graph.is_forward_only(s.to))
                {
                    copies.receive(p, s.to);
                }
                let i = p * self.n + to;
                self.have.set(i);
                self.fresh.set(i);
                self.fresh_list.push(i);
            }
            Slot::Sum(p) => {
                if let Some(sums) = self.sums.as_mut() {
                    sums.send(s, p);
                }
            }
        }
    }

    /// Whether `x` is a forward-only node that counts its copies (it does not
    /// copy).
    fn counts_copies(&self, x: u32) -> bool {
        self.switch_copies.is_some() && self.graph.is_forward_only(x)
    }

    /// Counts a send on directed link `l` against its capacity.
    fn use_link(&mut self, l: u32, s: TimedSend) {
        let (step, link, packet) = (Some(s.step), Some((s.from, s.to)), s.packet());
        let Some(load) = self.link_load.as_mut() else {
            if self.link_busy.get(l as usize) {
                self.report(ViolationKind::LinkBusy, step, s.from, link, packet);
            } else {
                self.link_busy.set(l as usize);
                self.busy_list.push(l);
            }
            return;
        };
        let count = &mut load[l as usize];
        if *count == 0 {
            self.busy_list.push(l);
        }
        *count = count.saturating_add(1);
        let capacity = self.graph.capacity(l);
        if *count > capacity {
            let kind = if capacity == 1 {
                ViolationKind::LinkBusy
            } else {
                ViolationKind::OverCapacity
            };
            self.report(kind, step, s.from, link, packet);
        }
    }

    /// Counts a send against every switch limit between its sender and receiver.
    fn count_limits(&mut self, s: TimedSend) {
        let limits = self.graph.fabric().limits();
        let mut over = 0;
        for &i in &self.limits_from[s.from as usize] {
            let limit = &limits[i as usize];
            if limit.destinations.binary_search(&s.to).is_err() {
                continue;
            }
            let sends = &mut self.limit_sends[i as usize];
            if *sends == 0 {
                self.limits_touched.push(i);
            }
            *sends = sends.saturating_add(1);
            if *sends > limit.sends {
                over += 1;
            }
        }
        for _ in 0..over {
            let (step, link) = (Some(s.step), Some((s.from, s.to)));
            self.report(ViolationKind::SwitchLimit, step, s.from, link, s.packet());
        }
    }
}
