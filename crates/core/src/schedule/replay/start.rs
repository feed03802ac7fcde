//! The replay's state before the first step, sized (and refused when too
//! large) before anything is allocated.

use super::{
    Bits, Held, MAX_BROADCAST_BITS, MAX_PACKET_SLOTS, Packets, ReplayError, ReplayOptions, State,
    sums,
};
use crate::network::Graph;
use crate::schedule::{Items, Ports};
use std::collections::BTreeMap;

impl<'g> State<'g> {
    /// The state before the first step: who holds each personalised packet, which
    /// nodes have each broadcast packet, and empty per-step records.
    pub(super) fn start(
        graph: &'g Graph,
        ports: Ports,
        packets: Packets,
        options: &ReplayOptions,
    ) -> Result<State<'g>, ReplayError> {
        let n = graph.nodes();
        let personal_slots = match packets {
            Packets::All => n.checked_mul(n).ok_or(ReplayError::TooLarge { nodes: n })?,
            Packets::From(_) => n,
            _ => 0,
        };
        let too_large = ReplayError::TooLarge { nodes: n };
        let (broadcast_bits, sum_bits) = match packets {
            Packets::Items(set) if set.how == Items::Sums => (
                0,
                sums::Sums::bits(n, set.count(n)).ok_or(too_large.clone())?,
            ),
            Packets::Items(set) => (n.checked_mul(set.count(n)).ok_or(too_large.clone())?, 0),
            _ => (0, 0),
        };
        if personal_slots > MAX_PACKET_SLOTS
            || broadcast_bits > MAX_BROADCAST_BITS
            || sum_bits > MAX_BROADCAST_BITS
        {
            return Err(too_large);
        }
        let at = |holder: u32| Held { holder, arrival: 0 };
        let mut personal = Vec::with_capacity(personal_slots);
        match packets {
            Packets::All => {
                // Row s holds (s, d) at s for every d; the diagonal slot (s, s) is
                // not a packet and, held by s, counts as delivered.
                for s in 0..n as u32 {
                    personal.extend(std::iter::repeat_n(at(s), n));
                }
            }
            Packets::From(r) => personal.extend(std::iter::repeat_n(at(r), n)),
            _ => {}
        }
        let fabric = graph.fabric();
        let mut limits_from: Vec<Vec<u32>> = Vec::new();
        if !fabric.limits().is_empty() {
            limits_from = vec![Vec::new(); n];
            for (i, limit) in fabric.limits().iter().enumerate() {
                for &x in &limit.sources {
                    limits_from[x as usize].push(i as u32);
                }
            }
        }
        let mut have = Bits::new(broadcast_bits);
        let mut sums = None;
        if let Packets::Items(set) = packets {
            let switch: Vec<bool> = (0..n as u32).map(|x| graph.is_forward_only(x)).collect();
            if set.how == Items::Sums {
                sums = Some(sums::Sums::new(n, set.count(n), &switch));
            } else {
                // Each item starts at its block's node; a forward-only node has none.
                for p in 0..set.count(n) {
                    let block = set.packet(p).source as usize;
                    if !switch[block] {
                        have.set(p * n + block);
                    }
                }
            }
        }
        Ok(State {
            graph,
            n,
            ports,
            packets,
            wanted: None,
            personal,
            have,
            fresh: Bits::new(broadcast_bits),
            fresh_list: Vec::new(),
            sums,
            link_busy: Bits::new(if fabric.has_capacities() {
                0
            } else {
                graph.directed_links()
            }),
            link_load: fabric
                .has_capacities()
                .then(|| vec![0; graph.directed_links()]),
            busy_list: Vec::new(),
            limits_from,
            limit_sends: vec![0; fabric.limits().len()],
            limits_touched: Vec::new(),
            switch_copies: (fabric.has_forward_only() && !fabric.multicast())
                .then(Default::default),
            sent: vec![0; n],
            received: vec![0; n],
            port_touched: Vec::new(),
            queue: vec![0; n],
            queue_touched: Vec::new(),
            peak_queue: 0,
            link_use: Vec::new(),
            counts: BTreeMap::new(),
            violations: Vec::new(),
            max_listed: options.max_listed,
        })
    }
}
