//! Merging the chunks' work step by step: link occupancy (an overlap between
//! chunks is a conflict like one inside a chunk), link use, and the ports limit.

use std::collections::BTreeMap;

use super::super::{Failure, FailureCounts, LinkUse, SimulationInput, StepUse};
use super::chunk::{Chunk, StepPlan};
use super::describe::describe_conflict;

/// Everything counted and recorded step by step, over all chunks.
pub(super) struct Tally<'a> {
    input: &'a SimulationInput<'a>,
    route: &'a [(u32, u32)],
    /// Whether messages leaving each node were counted (ports below some degree).
    check_ports: bool,
    max_records: usize,
    /// The merged occupancy bitset of the current step.
    merged: Vec<u64>,
    /// Link conflicts and ports exceeded so far (the other kinds are filled in later).
    pub(super) counts: FailureCounts,
    /// Recorded link conflicts, in step order.
    pub(super) conflict_records: Vec<Failure>,
    /// Recorded ports failures, in step order.
    pub(super) ports_records: Vec<Failure>,
    /// Link use per step.
    pub(super) per_step: Vec<StepUse>,
    /// Hops over all steps.
    pub(super) hops: u64,
    /// Distinct (step, link) uses over all steps.
    pub(super) used: u64,
    /// The binned use grid, when asked for.
    pub(super) link_use: Option<LinkUse>,
}

/// One step's occupancy merged over the chunks.
struct Merged {
    /// Extra messages on already-used links, within and between chunks.
    conflicts: u64,
    /// The lowest such link.
    lowest: u32,
    /// Distinct directed links used.
    used: u64,
    /// Tails of links used by two chunks (one entry per overlap).
    overlap_nodes: Vec<u32>,
}

impl<'a> Tally<'a> {
    pub(super) fn new(
        input: &'a SimulationInput<'a>,
        route: &'a [(u32, u32)],
        check_ports: bool,
        max_records: usize,
        horizon: usize,
        link_use: Option<LinkUse>,
    ) -> Self {
        let link_words = input.embedding.network().directed_links().div_ceil(64);
        Tally {
            input,
            route,
            check_ports,
            max_records,
            merged: vec![0; link_words],
            counts: FailureCounts::default(),
            conflict_records: Vec::new(),
            ports_records: Vec::new(),
            per_step: Vec::with_capacity(horizon),
            hops: 0,
            used: 0,
            link_use,
        }
    }

    /// Merges the chunks' results for every step of a batch, in step order.
    pub(super) fn merge_batch(&mut self, plans: &[StepPlan], chunks: &[Chunk]) {
        for (b, plan) in plans.iter().enumerate() {
            self.merge_step(b, plan, chunks);
        }
    }

    fn merge_step(&mut self, b: usize, plan: &StepPlan, chunks: &[Chunk]) {
        let n = self.input.embedding.network().nodes();
        let hops = (plan.moves.len() * n) as u64;
        if plan.moves.is_empty() {
            self.per_step.push(StepUse {
                step: plan.step,
                hops: 0,
                links_used: 0,
            });
            return;
        }
        let merged = self.merge_occupancy(b, chunks);
        self.counts.link_conflicts += merged.conflicts;
        if merged.conflicts > 0 && self.conflict_records.len() < self.max_records {
            let failure = describe_conflict(self.input, self.route, plan, merged.lowest);
            self.conflict_records.push(failure);
        }
        self.check_ports(b, plan, chunks, &merged);
        self.hops += hops;
        self.used += merged.used;
        self.record_link_use(plan.step);
        self.per_step.push(StepUse {
            step: plan.step,
            hops,
            links_used: merged.used,
        });
    }

    /// ORs the chunks' occupancy bitsets of step `b` of the batch into `merged`,
    /// counting the overlaps between chunks as conflicts.
    fn merge_occupancy(&mut self, b: usize, chunks: &[Chunk]) -> Merged {
        let net = self.input.embedding.network();
        let link_words = self.merged.len();
        let mut out = Merged {
            conflicts: chunks.iter().map(|c| c.step_conflicts[b].0).sum(),
            lowest: chunks
                .iter()
                .map(|c| c.step_conflicts[b].1)
                .min()
                .unwrap_or(u32::MAX),
            used: 0,
            overlap_nodes: Vec::new(),
        };
        for (i, m) in self.merged.iter_mut().enumerate() {
            let mut acc = 0u64;
            for c in chunks {
                let o = c.occupancy[b * link_words + i];
                let overlap = acc & o;
                if overlap != 0 {
                    out.conflicts += overlap.count_ones() as u64;
                    out.lowest = out.lowest.min((i * 64) as u32 + overlap.trailing_zeros());
                    let mut bits = overlap;
                    while bits != 0 {
                        let link = (i * 64) as u32 + bits.trailing_zeros();
                        out.overlap_nodes.push(net.endpoints(link).0);
                        bits &= bits - 1;
                    }
                }
                acc |= o;
            }
            *m = acc;
            out.used += acc.count_ones() as u64;
        }
        out
    }

    /// Adds the merged occupancy of `step` to the binned use grid, a bin at a
    /// time (whole words of the bitset, so the cost is the bitset's length plus
    /// the number of bins, not the number of links used).
    fn record_link_use(&mut self, step: usize) {
        let Some(grid) = &mut self.link_use else {
            return;
        };
        let links = self.input.embedding.network().directed_links();
        let s = (step - 1) / grid.steps_per_bin;
        for l in 0..grid.link_bins {
            let start = l * grid.links_per_bin;
            let end = (start + grid.links_per_bin).min(links);
            grid.used[l * grid.step_bins + s] += count_bits(&self.merged, start, end) as u64;
        }
    }

    /// Counts (and records) the nodes that sent more than `ports` messages at
    /// step `b` of the batch.
    ///
    /// With ports below some degree, messages leaving every node were counted
    /// by the chunks, and every node is examined. Otherwise a node can only
    /// exceed its ports by sending two messages over one link, so only nodes
    /// with extra link uses are examined: their distinct links used plus their
    /// extra uses.
    fn check_ports(&mut self, b: usize, plan: &StepPlan, chunks: &[Chunk], merged: &Merged) {
        let net = self.input.embedding.network();
        let n = net.nodes();
        let ports = self.input.ports;
        let mut over: Vec<(u32, usize)> = Vec::new();
        if self.check_ports {
            for x in 0..n as u32 {
                let out: usize = chunks
                    .iter()
                    .map(|c| c.leaving[b * n + x as usize] as usize)
                    .sum();
                if out > ports {
                    over.push((x, out));
                }
            }
        } else if merged.conflicts > 0 {
            let mut extra: BTreeMap<u32, usize> = BTreeMap::new();
            for (&x, &uses) in chunks.iter().flat_map(|c| &c.conflict_nodes[b]) {
                *extra.entry(x).or_default() += uses;
            }
            for &x in &merged.overlap_nodes {
                *extra.entry(x).or_default() += 1;
            }
            for (x, extra_uses) in extra {
                let r = net.links_of(x);
                let out = count_bits(&self.merged, r.start as usize, r.end as usize) + extra_uses;
                if out > ports {
                    over.push((x, out));
                }
            }
        }
        for (node, used) in over {
            self.counts.ports_exceeded += 1;
            if self.ports_records.len() < self.max_records {
                self.ports_records.push(Failure::PortsExceeded {
                    step: plan.step,
                    node,
                    used,
                    ports,
                });
            }
        }
    }
}

/// Number of set bits in positions `start..end`, a word at a time.
fn count_bits(bits: &[u64], start: usize, end: usize) -> usize {
    let mut count = 0;
    let mut pos = start;
    while pos < end {
        let (w, off) = (pos / 64, pos % 64);
        let take = (64 - off).min(end - pos);
        let mask = if take == 64 {
            !0
        } else {
            ((1u64 << take) - 1) << off
        };
        count += (bits[w] & mask).count_ones() as usize;
        pos += take;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::count_bits;

    #[test]
    fn count_bits_matches_bit_by_bit() {
        let bits = [
            0xdead_beef_0123_4567u64,
            0xffff_0000_ffff_0000,
            0x8000_0000_0000_0001,
        ];
        for start in 0..192 {
            for end in start..=192 {
                let slow = (start..end)
                    .filter(|&b| bits[b / 64] & (1 << (b % 64)) != 0)
                    .count();
                assert_eq!(count_bits(&bits, start, end), slow, "{start}..{end}");
            }
        }
    }
}
