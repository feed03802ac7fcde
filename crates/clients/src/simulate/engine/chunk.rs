//! One chunk of sources and what it does in a batch of steps: move every
//! message one link, mark the directed links used, and record arrivals in the
//! chunk's rows of the delivery bitmap. Chunks share nothing mutable, so they
//! run in parallel.

use std::collections::BTreeMap;

/// One arrival worth recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Arrival {
    pub(super) step: usize,
    pub(super) word: usize,
    pub(super) source: u32,
    pub(super) destination: u32,
}

/// What every chunk does in one step.
#[derive(Default)]
pub(super) struct StepPlan {
    pub(super) step: usize,
    /// Slots of words sent at this step: their messages start at their sources.
    pub(super) starts: Vec<u32>,
    /// `(slot, letter, word)`: every message of the slot's word moves over `letter`.
    pub(super) moves: Vec<(u32, u32, usize)>,
    /// `(slot, word)`: words whose last letter was sent at this step, by word index.
    pub(super) ends: Vec<(u32, usize)>,
}

pub(super) struct Chunk {
    pub(super) start: u32,
    pub(super) len: usize,
    /// `cur[slot * len + i]`: where the message of source `start + i` is.
    pub(super) cur: Vec<u32>,
    /// One bitset over directed links per step of the batch.
    pub(super) occupancy: Vec<u64>,
    /// `(conflicts, lowest conflicting link)` per step of the batch.
    pub(super) step_conflicts: Vec<(u64, u32)>,
    /// Nodes where a message left over an already-used link, per step of the batch.
    pub(super) conflict_nodes: Vec<BTreeMap<u32, usize>>,
    /// Messages leaving each node, `leaving[b * n + x]` for step `b` of the batch;
    /// empty unless the ports limit is below some node's degree.
    pub(super) leaving: Vec<u32>,
    /// `delivered[i * row_words + z / 64]` bit `z % 64`: source `start + i` got a message at `z`.
    pub(super) delivered: Vec<u64>,
    pub(super) arrived: u64,
    pub(super) self_messages: u64,
    pub(super) duplicates: u64,
    pub(super) self_records: Vec<Arrival>,
    pub(super) duplicate_records: Vec<Arrival>,
}

impl Chunk {
    /// The chunk of sources `start..end`, with bitsets for `batch` steps; `leaving_nodes`
    /// is the number of nodes when messages leaving each node are counted.
    pub(super) fn new(
        start: usize,
        end: usize,
        batch: usize,
        link_words: usize,
        row_words: usize,
        leaving_nodes: Option<usize>,
    ) -> Chunk {
        Chunk {
            start: start as u32,
            len: end - start,
            cur: Vec::new(),
            occupancy: vec![0; batch * link_words],
            step_conflicts: Vec::with_capacity(batch),
            conflict_nodes: vec![BTreeMap::new(); batch],
            leaving: leaving_nodes.map_or_else(Vec::new, |n| vec![0; batch * n]),
            delivered: vec![0; (end - start) * row_words],
            arrived: 0,
            self_messages: 0,
            duplicates: 0,
            self_records: Vec::new(),
            duplicate_records: Vec::new(),
        }
    }

    /// Makes room in the in-flight state for `slots` slots.
    pub(super) fn reserve_slots(&mut self, slots: usize) {
        if self.cur.len() < slots * self.len {
            self.cur.resize(slots * self.len, 0);
        }
    }

    /// Runs the steps of a batch; step `b` of the batch uses occupancy words
    /// `b * link_words..(b + 1) * link_words`.
    pub(super) fn run_batch(&mut self, plans: &[StepPlan], ctx: &Context<'_>) {
        self.step_conflicts.clear();
        for (b, plan) in plans.iter().enumerate() {
            let occupancy = &mut self.occupancy[b * ctx.link_words..][..ctx.link_words];
            let leaving = if self.leaving.is_empty() {
                None
            } else {
                Some(&mut self.leaving[b * ctx.n..][..ctx.n])
            };
            let conflict_nodes = &mut self.conflict_nodes[b];
            conflict_nodes.clear();
            let marks = StepMarks {
                occupancy,
                leaving,
                conflict_nodes,
            };
            let conflicts = step(self.start, self.len, &mut self.cur, marks, plan, ctx);
            self.step_conflicts.push(conflicts);
            self.arrivals(plan, ctx);
        }
    }

    fn arrivals(&mut self, plan: &StepPlan, ctx: &Context<'_>) {
        let len = self.len;
        for &(slot, word) in &plan.ends {
            let cur = &self.cur[slot as usize * len..][..len];
            self.arrived += len as u64;
            for (i, &z) in cur.iter().enumerate() {
                let source = self.start + i as u32;
                let arrival = Arrival {
                    step: plan.step,
                    word,
                    source,
                    destination: z,
                };
                if z == source {
                    self.self_messages += 1;
                    if self.self_records.len() < ctx.max_records {
                        self.self_records.push(arrival);
                    }
                    continue;
                }
                let (w, bit) = (i * ctx.row_words + z as usize / 64, 1u64 << (z % 64));
                if self.delivered[w] & bit != 0 {
                    self.duplicates += 1;
                    if self.duplicate_records.len() < ctx.max_records {
                        self.duplicate_records.push(arrival);
                    }
                } else {
                    self.delivered[w] |= bit;
                }
            }
        }
    }
}

/// What one step of a chunk writes: link occupancy, messages leaving each node
/// (when counted), and the nodes where a link was used again, with how often
/// (a count per node, not an entry per conflict: an invalid table can make
/// millions a step).
pub(super) struct StepMarks<'a> {
    occupancy: &'a mut [u64],
    leaving: Option<&'a mut [u32]>,
    conflict_nodes: &'a mut BTreeMap<u32, usize>,
}

/// Read-only data every chunk uses.
pub(super) struct Context<'a> {
    pub(super) route: &'a [(u32, u32)],
    pub(super) n: usize,
    pub(super) link_words: usize,
    pub(super) row_words: usize,
    pub(super) max_records: usize,
}

/// Moves every message of the chunk one link; returns the number of extra
/// messages on already-used links and the lowest such link. When `leaving` is
/// given, also counts the messages leaving each node (for the ports limit: two
/// messages on one link are two messages, so distinct links do not suffice).
fn step(
    start: u32,
    len: usize,
    cur: &mut [u32],
    marks: StepMarks<'_>,
    plan: &StepPlan,
    ctx: &Context<'_>,
) -> (u64, u32) {
    let StepMarks {
        occupancy,
        mut leaving,
        conflict_nodes,
    } = marks;
    for &slot in &plan.starts {
        let cur = &mut cur[slot as usize * len..][..len];
        for (i, c) in cur.iter_mut().enumerate() {
            *c = start + i as u32;
        }
    }
    let (mut conflicts, mut lowest) = (0u64, u32::MAX);
    if plan.moves.is_empty() {
        return (conflicts, lowest);
    }
    occupancy.fill(0);
    if let Some(leaving) = leaving.as_deref_mut() {
        leaving.fill(0);
    }
    for &(slot, letter, _) in &plan.moves {
        let table = &ctx.route[letter as usize * ctx.n..][..ctx.n];
        let cur = &mut cur[slot as usize * len..][..len];
        if let Some(leaving) = leaving.as_deref_mut() {
            for &c in cur.iter() {
                leaving[c as usize] += 1;
            }
        }
        for c in cur.iter_mut() {
            let (link, next) = table[*c as usize];
            let (w, bit) = ((link >> 6) as usize, 1u64 << (link & 63));
            let o = occupancy[w];
            if o & bit != 0 {
                conflicts += 1;
                lowest = lowest.min(link);
                *conflict_nodes.entry(*c).or_default() += 1;
            }
            occupancy[w] = o | bit;
            *c = next;
        }
    }
    (conflicts, lowest)
}
