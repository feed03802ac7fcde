//! The step loop behind [`super::simulate`].
//!
//! State per chunk of sources: one current node per (source, active word),
//! stored slot-major so that one word's messages from the chunk are one
//! contiguous slice; a private bitset over directed links for the step; and the
//! chunk's rows of the delivery bitmap (one bit per (source, destination)).
//! Routing is a table `route[letter][node] = (directed link, next node)`, built
//! once and checked physical, so a hop is two loads, a bit test and a store.
//!
//! Chunks run a *batch* of steps between synchronisations, keeping one
//! occupancy bitset per step of the batch; the bitsets are then merged step by
//! step. A step of a well-packed table is only tens of microseconds of work, so
//! synchronising every step would cost as much as the work itself. Conflicts
//! are described afterwards by replaying the few words concerned from their
//! sources, so no per-step positions need to be kept.

use rayon::prelude::*;

use crate::network::{PhysicalNetwork, Topology};

use super::{
    Failure, FailureCounts, MessageRef, MessageSet, SimulationError, SimulationInput,
    SimulationOptions, SimulationReport, StepUse,
};

/// One arrival worth recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Arrival {
    step: usize,
    word: usize,
    source: u32,
    destination: u32,
}

/// What every chunk does in one step.
#[derive(Default)]
struct StepPlan {
    step: usize,
    /// Slots of words sent at this step: their messages start at their sources.
    starts: Vec<u32>,
    /// `(slot, letter, word)`: every message of the slot's word moves over `letter`.
    moves: Vec<(u32, u32, usize)>,
    /// `(slot, word)`: words whose last letter was sent at this step, by word index.
    ends: Vec<(u32, usize)>,
}

struct Chunk {
    start: u32,
    len: usize,
    /// `cur[slot * len + i]`: where the message of source `start + i` is.
    cur: Vec<u32>,
    /// One bitset over directed links per step of the batch.
    occupancy: Vec<u64>,
    /// `(conflicts, lowest conflicting link)` per step of the batch.
    step_conflicts: Vec<(u64, u32)>,
    /// Nodes where a message left over an already-used link, per step of the batch.
    conflict_nodes: Vec<Vec<u32>>,
    /// Messages leaving each node, `leaving[b * n + x]` for step `b` of the batch;
    /// empty unless the ports limit is below some node's degree.
    leaving: Vec<u32>,
    /// `delivered[i * row_words + z / 64]` bit `z % 64`: source `start + i` got a message at `z`.
    delivered: Vec<u64>,
    arrived: u64,
    self_messages: u64,
    duplicates: u64,
    self_records: Vec<Arrival>,
    duplicate_records: Vec<Arrival>,
}

impl Chunk {
    /// Runs the steps of a batch; step `b` of the batch uses occupancy words
    /// `b * link_words..(b + 1) * link_words`.
    fn run_batch(&mut self, plans: &[StepPlan], ctx: &Context<'_>) {
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
/// (when counted), and the nodes where a link was used again.
struct StepMarks<'a> {
    occupancy: &'a mut [u64],
    leaving: Option<&'a mut [u32]>,
    conflict_nodes: &'a mut Vec<u32>,
}

/// Read-only data every chunk uses.
struct Context<'a> {
    route: &'a [(u32, u32)],
    n: usize,
    link_words: usize,
    row_words: usize,
    max_records: usize,
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
                conflict_nodes.push(*c);
            }
            occupancy[w] = o | bit;
            *c = next;
        }
    }
    (conflicts, lowest)
}

/// The message set, ready to produce each source's expected row.
enum Expected {
    Total,
    /// `wanted[d]`: messages go to nodes at distance `d`.
    ByDistance(Vec<bool>),
    /// Generator words for each target element.
    To(Vec<Vec<crate::group::GenLetter>>),
}

pub(super) fn run(
    input: &SimulationInput<'_>,
    options: &SimulationOptions,
) -> Result<SimulationReport, SimulationError> {
    validate(input)?;
    let net = input.embedding.network();
    let n = net.nodes();
    let words = input.words;
    let route = build_routes(input)?;
    let expected = prepare_expected(input);
    let row_words = n.div_ceil(64);
    let link_words = net.directed_links().div_ceil(64);
    let max_records = options.max_records;

    let mut by_start: Vec<usize> = (0..words.len()).collect();
    by_start.sort_by_key(|&i| (words[i].column, i));
    let horizon = words
        .iter()
        .map(|w| w.column + w.letters.len() - 1)
        .max()
        .unwrap_or(0);

    let threads = rayon::current_num_threads().max(1);
    let chunk_count = match options.chunks {
        0 if n < 4096 => 1,
        0 => (2 * threads).min(n / 1024).max(1),
        c => c.min(n).max(1),
    };
    // Steps per batch: up to 64, keeping each chunk's bitsets within 256 KiB
    // (cache-resident; larger batches measured slower on big networks).
    let batch = ((256 << 10) / 8 / link_words.max(1)).clamp(1, 64);
    // With ports below some degree, messages leaving every node are counted at
    // every step. Otherwise a node can only exceed its ports by sending two
    // messages over one link, so counting the extra uses of links (conflicts)
    // per node is exact and costs nothing on conflict-free steps.
    let check_ports = (0..n as u32).any(|x| net.degree(x) > input.ports);
    let mut chunks: Vec<Chunk> = (0..chunk_count)
        .map(|c| {
            let start = n * c / chunk_count;
            let end = n * (c + 1) / chunk_count;
            Chunk {
                start: start as u32,
                len: end - start,
                cur: Vec::new(),
                occupancy: vec![0; batch * link_words],
                step_conflicts: Vec::with_capacity(batch),
                conflict_nodes: vec![Vec::new(); batch],
                leaving: if check_ports {
                    vec![0; batch * n]
                } else {
                    Vec::new()
                },
                delivered: vec![0; (end - start) * row_words],
                arrived: 0,
                self_messages: 0,
                duplicates: 0,
                self_records: Vec::new(),
                duplicate_records: Vec::new(),
            }
        })
        .collect();
    let ctx = Context {
        route: &route,
        n,
        link_words,
        row_words,
        max_records,
    };

    let mut merged = vec![0u64; link_words];
    let mut counts = FailureCounts::default();
    let mut conflict_records: Vec<Failure> = Vec::new();
    let mut ports_records: Vec<Failure> = Vec::new();
    let mut per_step = Vec::with_capacity(horizon);
    let mut hops_total = 0u64;
    let mut used_total = 0u64;

    // Active words as (word, slot), and free slots for reuse.
    let mut active: Vec<(usize, u32)> = Vec::new();
    let mut free_slots: Vec<u32> = Vec::new();
    let mut slot_count = 0usize;
    let mut next_start = 0;
    let mut plans: Vec<StepPlan> = (0..batch).map(|_| StepPlan::default()).collect();

    let mut first = 1;
    while first <= horizon {
        let last = (first + batch - 1).min(horizon);
        let plans = &mut plans[..=last - first];
        // Plan the batch: which words start, move and end at each step.
        let mut batch_hops = 0usize;
        for (plan, t) in plans.iter_mut().zip(first..=last) {
            plan.step = t;
            plan.starts.clear();
            plan.moves.clear();
            plan.ends.clear();
            while next_start < by_start.len() && words[by_start[next_start]].column == t {
                let w = by_start[next_start];
                next_start += 1;
                let slot = match free_slots.pop() {
                    Some(s) => s,
                    None => {
                        if (slot_count + 1).saturating_mul(n).saturating_mul(4)
                            > options.max_in_flight_bytes
                        {
                            return Err(SimulationError::TooManyInFlight {
                                step: t,
                                words: active.len() + 1,
                            });
                        }
                        slot_count += 1;
                        (slot_count - 1) as u32
                    }
                };
                active.push((w, slot));
                plan.starts.push(slot);
            }
            for &(w, slot) in &active {
                let word = &words[w];
                plan.moves
                    .push((slot, word.letters[t - word.column] as u32, w));
                if word.column + word.letters.len() - 1 == t {
                    plan.ends.push((slot, w));
                }
            }
            plan.ends.sort_by_key(|&(_, w)| w);
            batch_hops += plan.moves.len() * n;
            if !plan.ends.is_empty() {
                active.retain(|&(w, slot)| {
                    let word = &words[w];
                    let done = word.column + word.letters.len() - 1 == t;
                    if done {
                        free_slots.push(slot);
                    }
                    !done
                });
            }
        }
        for c in &mut chunks {
            if c.cur.len() < slot_count * c.len {
                c.cur.resize(slot_count * c.len, 0);
            }
        }

        // Run it.
        let plans = &*plans;
        if chunks.len() > 1 && batch_hops >= 16_384 {
            chunks.par_iter_mut().for_each(|c| c.run_batch(plans, &ctx));
        } else {
            for c in &mut chunks {
                c.run_batch(plans, &ctx);
            }
        }

        // Merge step by step: an overlap between chunks is a conflict too.
        for (b, plan) in plans.iter().enumerate() {
            let hops = (plan.moves.len() * n) as u64;
            if plan.moves.is_empty() {
                per_step.push(StepUse {
                    step: plan.step,
                    hops: 0,
                    links_used: 0,
                });
                continue;
            }
            let mut step_conflicts: u64 = chunks.iter().map(|c| c.step_conflicts[b].0).sum();
            let mut lowest = chunks
                .iter()
                .map(|c| c.step_conflicts[b].1)
                .min()
                .unwrap_or(u32::MAX);
            let mut used = 0u64;
            let mut overlap_nodes: Vec<u32> = Vec::new();
            for (i, m) in merged.iter_mut().enumerate() {
                let mut acc = 0u64;
                for c in &chunks {
                    let o = c.occupancy[b * link_words + i];
                    let overlap = acc & o;
                    if overlap != 0 {
                        step_conflicts += overlap.count_ones() as u64;
                        lowest = lowest.min((i * 64) as u32 + overlap.trailing_zeros());
                        let mut bits = overlap;
                        while bits != 0 {
                            let link = (i * 64) as u32 + bits.trailing_zeros();
                            overlap_nodes.push(net.endpoints(link).0);
                            bits &= bits - 1;
                        }
                    }
                    acc |= o;
                }
                *m = acc;
                used += acc.count_ones() as u64;
            }
            counts.link_conflicts += step_conflicts;
            if step_conflicts > 0 && conflict_records.len() < max_records {
                conflict_records.push(describe_conflict(input, &route, plan, lowest));
            }
            let leaving_at = |x: u32| -> usize {
                if check_ports {
                    chunks
                        .iter()
                        .map(|c| c.leaving[b * n + x as usize] as usize)
                        .sum()
                } else {
                    let r = net.links_of(x);
                    count_bits(&merged, r.start as usize, r.end as usize)
                }
            };
            // Nodes to examine: all of them when counting, else those with extra link uses.
            let mut extra: std::collections::BTreeMap<u32, usize> = Default::default();
            if !check_ports && step_conflicts > 0 {
                let nodes = chunks.iter().flat_map(|c| &c.conflict_nodes[b]);
                for &x in nodes.chain(&overlap_nodes) {
                    *extra.entry(x).or_default() += 1;
                }
            }
            let candidates: Box<dyn Iterator<Item = (u32, usize)>> = if check_ports {
                Box::new((0..n as u32).map(|x| (x, 0)))
            } else {
                Box::new(extra.into_iter())
            };
            for (x, extra_uses) in candidates {
                {
                    let out = leaving_at(x) + extra_uses;
                    if out > input.ports {
                        counts.ports_exceeded += 1;
                        if ports_records.len() < max_records {
                            ports_records.push(Failure::PortsExceeded {
                                step: plan.step,
                                node: x,
                                used: out,
                                ports: input.ports,
                            });
                        }
                    }
                }
            }
            hops_total += hops;
            used_total += used;
            per_step.push(StepUse {
                step: plan.step,
                hops,
                links_used: used,
            });
        }
        first = last + 1;
    }

    // Deliveries against the message set, source by source.
    let deliveries: Vec<DeliveryCheck> = chunks
        .par_iter()
        .map(|c| check_deliveries(input, &expected, c, row_words, max_records))
        .collect();

    let mut failures = conflict_records.clone();
    failures.extend(ports_records);
    let mut self_records: Vec<Arrival> = chunks
        .iter()
        .flat_map(|c| c.self_records.iter().copied())
        .collect();
    self_records.sort();
    self_records.truncate(max_records);
    let mut duplicate_records: Vec<Arrival> = chunks
        .iter()
        .flat_map(|c| c.duplicate_records.iter().copied())
        .collect();
    duplicate_records.sort();
    duplicate_records.truncate(max_records);
    for a in self_records {
        failures.push(Failure::SelfMessage {
            step: a.step,
            message: message_ref(input, a.word, a.source, a.destination),
        });
    }
    for a in duplicate_records {
        let earlier = find_delivery(input, &route, a.source, a.destination, Some(a.word), a.step)
            .map(|w| message_ref(input, w, a.source, a.destination));
        failures.push(Failure::Duplicate {
            step: a.step,
            message: message_ref(input, a.word, a.source, a.destination),
            earlier,
        });
    }
    let mut unexpected: Vec<(u32, u32)> = deliveries
        .iter()
        .flat_map(|d| d.unexpected_records.iter().copied())
        .collect();
    unexpected.truncate(max_records);
    for (source, destination) in unexpected {
        if let Some(w) = find_delivery(input, &route, source, destination, None, usize::MAX) {
            let word = &words[w];
            failures.push(Failure::Unexpected {
                step: word.column + word.letters.len() - 1,
                message: message_ref(input, w, source, destination),
            });
        }
    }
    let mut missing: Vec<(u32, u32)> = deliveries
        .iter()
        .flat_map(|d| d.missing_records.iter().copied())
        .collect();
    missing.truncate(max_records);
    failures.extend(
        missing
            .into_iter()
            .map(|(source, destination)| Failure::Missing {
                source,
                destination,
            }),
    );
    failures.sort_by_key(|f| f.step().unwrap_or(usize::MAX));

    counts.self_messages = chunks.iter().map(|c| c.self_messages).sum();
    counts.duplicates = chunks.iter().map(|c| c.duplicates).sum();
    counts.unexpected = deliveries.iter().map(|d| d.unexpected).sum();
    counts.missing = deliveries.iter().map(|d| d.missing).sum();
    let expected_messages = deliveries.iter().map(|d| d.expected).sum();
    let links = net.directed_links() as f64;
    let utilisation = if horizon == 0 || links == 0.0 {
        0.0
    } else {
        used_total as f64 / (horizon as f64 * links)
    };
    Ok(SimulationReport {
        network: net.label().to_string(),
        nodes: n,
        directed_links: net.directed_links(),
        ports: input.ports,
        words: words.len(),
        expected_messages,
        arrived_messages: chunks.iter().map(|c| c.arrived).sum(),
        hops: hops_total,
        completion_time: horizon,
        valid: counts.total() == 0,
        counts,
        first_conflict: conflict_records.into_iter().next(),
        failures,
        per_step,
        utilisation,
    })
}

fn validate(input: &SimulationInput<'_>) -> Result<(), SimulationError> {
    if input.ports == 0 {
        return Err(SimulationError::ZeroPorts);
    }
    let (nodes, order) = (input.embedding.network().nodes(), input.group.order());
    if nodes != order {
        return Err(SimulationError::SizeMismatch { nodes, order });
    }
    for w in input.words {
        if w.column == 0 {
            return Err(SimulationError::ColumnZero {
                row: w.row,
                word: w.text.clone(),
            });
        }
        if w.letters.is_empty() {
            return Err(SimulationError::EmptyWord {
                row: w.row,
                column: w.column,
            });
        }
        if let Some(&letter) = w.letters.iter().find(|&&l| l >= input.links.len()) {
            return Err(SimulationError::LinkOutOfRange {
                row: w.row,
                column: w.column,
                word: w.text.clone(),
                letter,
                links: input.links.len(),
            });
        }
    }
    match input.messages {
        MessageSet::Distances(d) if d.contains(&0) => Err(SimulationError::Messages(
            "distance 0 is the sender itself".into(),
        )),
        MessageSet::To(targets) => {
            for (i, m) in targets.iter().enumerate() {
                if m.index() >= order {
                    return Err(SimulationError::Messages(format!(
                        "element {} is not in the group",
                        m.0
                    )));
                }
                if m.index() == 0 {
                    return Err(SimulationError::Messages("a target is the identity".into()));
                }
                if targets[..i].contains(m) {
                    return Err(SimulationError::Messages(format!(
                        "element {} is named twice",
                        m.0
                    )));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `route[s * n + y] = (link, next)`: a message at node `y` sent over link `s`
/// takes directed link `link` to `next = φ(φ⁻¹(y)·s)`; every entry is checked
/// to be a physical link.
fn build_routes(input: &SimulationInput<'_>) -> Result<Vec<(u32, u32)>, SimulationError> {
    let emb = input.embedding;
    let net = emb.network();
    let n = net.nodes();
    let mut route = Vec::with_capacity(n * input.links.len());
    for &s in input.links {
        for y in 0..n as u32 {
            let next = emb.node(input.group.apply(emb.elem(y), s));
            let link = net
                .link_between(y, next)
                .ok_or_else(|| SimulationError::NotAdjacent {
                    link: input.group.format_word(&[s]),
                    node: y,
                    reached: next,
                })?;
            route.push((link, next));
        }
    }
    Ok(route)
}

fn prepare_expected(input: &SimulationInput<'_>) -> Expected {
    let n = input.embedding.network().nodes();
    match input.messages {
        MessageSet::Total => Expected::Total,
        MessageSet::Odd => Expected::ByDistance((0..=n).map(|d| d % 2 == 1).collect()),
        MessageSet::Distances(ds) => {
            let mut wanted = vec![false; n + 1];
            for &d in ds {
                if (d as usize) <= n {
                    wanted[d as usize] = true;
                }
            }
            Expected::ByDistance(wanted)
        }
        MessageSet::To(targets) => {
            let words = input.group.shortest_words();
            Expected::To(targets.iter().map(|m| words[m.index()].clone()).collect())
        }
    }
}

/// Writes the expected destinations of source `x` into `row` (cleared first).
fn expected_row(input: &SimulationInput<'_>, expected: &Expected, x: u32, row: &mut [u64]) {
    let net = input.embedding.network();
    let n = net.nodes();
    row.fill(0);
    let set = |row: &mut [u64], y: usize| row[y / 64] |= 1 << (y % 64);
    match expected {
        Expected::Total => {
            for y in 0..n {
                set(row, y);
            }
            row[x as usize / 64] &= !(1 << (x % 64));
        }
        Expected::ByDistance(wanted) => match net.topology() {
            Topology::Torus { sides } => torus_row(sides, x as usize, wanted, row),
            Topology::Cayley => {
                for (y, d) in net.distances_from(x).into_iter().enumerate() {
                    if d != u32::MAX && wanted[d as usize] {
                        set(row, y);
                    }
                }
            }
        },
        Expected::To(words) => {
            let h = input.embedding.elem(x);
            for w in words {
                let y = input.embedding.node(input.group.apply_word(h, w));
                set(row, y as usize);
            }
        }
    }
}

/// Marks the nodes of a torus whose distance from `x` is wanted, walking the
/// coordinates as an odometer so each node costs O(1).
fn torus_row(sides: &[usize], x: usize, wanted: &[bool], row: &mut [u64]) {
    let mut rest = x;
    let tables: Vec<Vec<u32>> = sides
        .iter()
        .map(|&s| {
            let c = rest % s;
            rest /= s;
            (0..s)
                .map(|v| {
                    let d = c.abs_diff(v);
                    d.min(s - d) as u32
                })
                .collect()
        })
        .collect();
    let n: usize = sides.iter().product();
    let mut coords = vec![0usize; sides.len()];
    let mut sum: u32 = tables.iter().map(|t| t[0]).sum();
    for y in 0..n {
        if wanted[sum as usize] {
            row[y / 64] |= 1 << (y % 64);
        }
        for (i, t) in tables.iter().enumerate() {
            sum -= t[coords[i]];
            coords[i] += 1;
            if coords[i] == sides[i] {
                coords[i] = 0;
                sum += t[0];
            } else {
                sum += t[coords[i]];
                break;
            }
        }
    }
}

struct DeliveryCheck {
    expected: u64,
    missing: u64,
    unexpected: u64,
    missing_records: Vec<(u32, u32)>,
    unexpected_records: Vec<(u32, u32)>,
}

fn check_deliveries(
    input: &SimulationInput<'_>,
    expected: &Expected,
    chunk: &Chunk,
    row_words: usize,
    max_records: usize,
) -> DeliveryCheck {
    let mut out = DeliveryCheck {
        expected: 0,
        missing: 0,
        unexpected: 0,
        missing_records: Vec::new(),
        unexpected_records: Vec::new(),
    };
    let mut row = vec![0u64; row_words];
    for i in 0..chunk.len {
        let x = chunk.start + i as u32;
        expected_row(input, expected, x, &mut row);
        let got = &chunk.delivered[i * row_words..][..row_words];
        for (w, (&e, &g)) in row.iter().zip(got).enumerate() {
            out.expected += e.count_ones() as u64;
            let (missing, unexpected) = (e & !g, g & !e);
            out.missing += missing.count_ones() as u64;
            out.unexpected += unexpected.count_ones() as u64;
            for (bits, records) in [
                (missing, &mut out.missing_records),
                (unexpected, &mut out.unexpected_records),
            ] {
                let mut bits = bits;
                while bits != 0 && records.len() < max_records {
                    records.push((x, (w * 64) as u32 + bits.trailing_zeros()));
                    bits &= bits - 1;
                }
            }
        }
    }
    out
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

/// Where the word's message from `source` ends, walking the routing table.
fn walk(input: &SimulationInput<'_>, route: &[(u32, u32)], from: u32, letters: &[usize]) -> u32 {
    let n = input.embedding.network().nodes();
    letters
        .iter()
        .fold(from, |y, &s| route[s * n + y as usize].1)
}

/// The earliest-ending word other than `except`, ending no later than `by`,
/// that carries a message from `source` to `destination`.
fn find_delivery(
    input: &SimulationInput<'_>,
    route: &[(u32, u32)],
    source: u32,
    destination: u32,
    except: Option<usize>,
    by: usize,
) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, w) in input.words.iter().enumerate() {
        let end = w.column + w.letters.len() - 1;
        if Some(i) == except || end > by || best.is_some_and(|b| b <= (end, i)) {
            continue;
        }
        if walk(input, route, source, &w.letters) == destination {
            best = Some((end, i));
        }
    }
    best.map(|(_, i)| i)
}

fn message_ref(
    input: &SimulationInput<'_>,
    word: usize,
    source: u32,
    destination: u32,
) -> MessageRef {
    let w = &input.words[word];
    MessageRef {
        source,
        destination,
        word: w.text.clone(),
        row: w.row,
        column: w.column,
    }
}

/// Describes the conflict on directed link `link` at this step: replays every
/// word that moves over a letter routed through the link from its tail, from
/// every source, and keeps the messages that stood at the tail.
fn describe_conflict(
    input: &SimulationInput<'_>,
    route: &[(u32, u32)],
    plan: &StepPlan,
    link: u32,
) -> Failure {
    let net: &PhysicalNetwork = input.embedding.network();
    let n = net.nodes();
    let (tail, head) = net.endpoints(link);
    let mut users: Vec<(usize, u32)> = Vec::new();
    for &(_, letter, w) in &plan.moves {
        if route[letter as usize * n + tail as usize].0 != link {
            continue;
        }
        let word = &input.words[w];
        let before = &word.letters[..plan.step - word.column];
        for x in 0..n as u32 {
            if walk(input, route, x, before) == tail {
                users.push((w, x));
            }
        }
    }
    users.sort();
    let describe = |&(w, source): &(usize, u32)| {
        let word = &input.words[w];
        message_ref(input, w, source, walk(input, route, source, &word.letters))
    };
    Failure::LinkConflict {
        step: plan.step,
        link,
        from: tail,
        to: head,
        messages: users.len(),
        first: describe(&users[0]),
        second: describe(&users[1.min(users.len() - 1)]),
    }
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
