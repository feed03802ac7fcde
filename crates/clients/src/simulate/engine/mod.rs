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

mod chunk;
mod deliveries;
mod describe;
mod merge;
mod plan;

use rayon::prelude::*;

use super::{
    Failure, LinkUse, MessageSet, SimulationError, SimulationInput, SimulationOptions,
    SimulationReport,
};
use chunk::{Arrival, Chunk, Context, StepPlan};
use deliveries::{DeliveryCheck, check_deliveries, prepare_expected};
use describe::{find_delivery, message_ref};
use merge::Tally;
use plan::Planner;

pub(super) fn run(
    input: &SimulationInput<'_>,
    options: &SimulationOptions,
) -> Result<SimulationReport, SimulationError> {
    validate(input)?;
    let net = input.embedding.network();
    let n = net.nodes();
    let route = build_routes(input)?;
    let expected = prepare_expected(input);
    let row_words = n.div_ceil(64);
    let link_words = net.directed_links().div_ceil(64);
    let max_records = options.max_records;
    let horizon = input
        .words
        .iter()
        .map(|w| w.column + w.letters.len() - 1)
        .max()
        .unwrap_or(0);

    // Steps per batch: up to 64, keeping each chunk's bitsets within 256 KiB
    // (cache-resident; larger batches measured slower on big networks).
    let batch = ((256 << 10) / 8 / link_words.max(1)).clamp(1, 64);
    // With ports below some degree, messages leaving every node are counted at
    // every step. Otherwise a node can only exceed its ports by sending two
    // messages over one link, so counting the extra uses of links (conflicts)
    // per node is exact and costs nothing on conflict-free steps.
    let check_ports = (0..n as u32).any(|x| net.degree(x) > input.ports);
    let chunk_count = chunk_count(n, options.chunks);
    let mut chunks: Vec<Chunk> = (0..chunk_count)
        .map(|c| {
            let (start, end) = (n * c / chunk_count, n * (c + 1) / chunk_count);
            Chunk::new(
                start,
                end,
                batch,
                link_words,
                row_words,
                check_ports.then_some(n),
            )
        })
        .collect();
    let ctx = Context {
        route: &route,
        n,
        link_words,
        row_words,
        max_records,
    };

    let mut planner = Planner::new(input.words, n, options.max_in_flight_bytes);
    let link_use = options
        .link_use
        .map(|shape| LinkUse::new(horizon, net.directed_links(), shape));
    let mut tally = Tally::new(input, &route, check_ports, max_records, horizon, link_use);
    let mut plans: Vec<StepPlan> = (0..batch).map(|_| StepPlan::default()).collect();
    let mut first = 1;
    while first <= horizon {
        let last = (first + batch - 1).min(horizon);
        let plans = &mut plans[..=last - first];
        let batch_hops = planner.plan_batch(plans, first)?;
        for c in &mut chunks {
            c.reserve_slots(planner.slot_count());
        }
        run_batch(&mut chunks, plans, &ctx, batch_hops);
        tally.merge_batch(plans, &chunks);
        first = last + 1;
    }

    // Deliveries against the message set, source by source.
    let deliveries: Vec<DeliveryCheck> = chunks
        .par_iter()
        .map(|c| check_deliveries(input, &expected, c, row_words, max_records))
        .collect();
    Ok(report(
        input,
        &route,
        &chunks,
        &deliveries,
        tally,
        horizon,
        max_records,
    ))
}

/// Number of source chunks: one for small networks, else about two per thread
/// (at least 1024 sources each) unless the options fix it.
fn chunk_count(n: usize, asked: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    match asked {
        0 if n < 4096 => 1,
        0 => (2 * threads).min(n / 1024).max(1),
        c => c.min(n).max(1),
    }
}

/// Runs a planned batch on every chunk, in parallel when there is enough work.
fn run_batch(chunks: &mut [Chunk], plans: &[StepPlan], ctx: &Context<'_>, batch_hops: usize) {
    if chunks.len() > 1 && batch_hops >= 16_384 {
        chunks.par_iter_mut().for_each(|c| c.run_batch(plans, ctx));
    } else {
        for c in chunks {
            c.run_batch(plans, ctx);
        }
    }
}

/// Puts the counts and the recorded failures of the run together.
fn report(
    input: &SimulationInput<'_>,
    route: &[(u32, u32)],
    chunks: &[Chunk],
    deliveries: &[DeliveryCheck],
    tally: Tally<'_>,
    horizon: usize,
    max_records: usize,
) -> SimulationReport {
    let net = input.embedding.network();
    let mut counts = tally.counts;
    counts.self_messages = chunks.iter().map(|c| c.self_messages).sum();
    counts.duplicates = chunks.iter().map(|c| c.duplicates).sum();
    counts.unexpected = deliveries.iter().map(|d| d.unexpected).sum();
    counts.missing = deliveries.iter().map(|d| d.missing).sum();
    let mut failures = tally.conflict_records.clone();
    failures.extend(tally.ports_records);
    failures.extend(arrival_failures(input, route, chunks, max_records));
    failures.extend(delivery_failures(input, route, deliveries, max_records));
    failures.sort_by_key(|f| f.step().unwrap_or(usize::MAX));
    let links = net.directed_links() as f64;
    let utilisation = if horizon == 0 || links == 0.0 {
        0.0
    } else {
        tally.used as f64 / (horizon as f64 * links)
    };
    SimulationReport {
        network: net.label().to_string(),
        nodes: net.nodes(),
        directed_links: net.directed_links(),
        ports: input.ports,
        words: input.words.len(),
        expected_messages: deliveries.iter().map(|d| d.expected).sum(),
        arrived_messages: chunks.iter().map(|c| c.arrived).sum(),
        hops: tally.hops,
        completion_time: horizon,
        valid: counts.total() == 0,
        counts,
        first_conflict: tally.conflict_records.into_iter().next(),
        failures,
        per_step: tally.per_step,
        utilisation,
        link_use: tally.link_use,
    }
}

/// The earliest `max_records` arrivals of one kind over all chunks.
fn earliest(
    chunks: &[Chunk],
    max_records: usize,
    pick: fn(&Chunk) -> &Vec<Arrival>,
) -> Vec<Arrival> {
    let mut all: Vec<Arrival> = chunks
        .iter()
        .flat_map(|c| pick(c).iter().copied())
        .collect();
    all.sort();
    all.truncate(max_records);
    all
}

/// Self-messages then duplicates, the earliest of each kind over all chunks.
fn arrival_failures(
    input: &SimulationInput<'_>,
    route: &[(u32, u32)],
    chunks: &[Chunk],
    max_records: usize,
) -> Vec<Failure> {
    let mut failures = Vec::new();
    for a in earliest(chunks, max_records, |c| &c.self_records) {
        failures.push(Failure::SelfMessage {
            step: a.step,
            message: message_ref(input, a.word, a.source, a.destination),
        });
    }
    for a in earliest(chunks, max_records, |c| &c.duplicate_records) {
        let earlier = find_delivery(input, route, a.source, a.destination, Some(a.word), a.step)
            .map(|w| message_ref(input, w, a.source, a.destination));
        failures.push(Failure::Duplicate {
            step: a.step,
            message: message_ref(input, a.word, a.source, a.destination),
            earlier,
        });
    }
    failures
}

/// Unexpected then missing deliveries, the lowest sources first.
fn delivery_failures(
    input: &SimulationInput<'_>,
    route: &[(u32, u32)],
    deliveries: &[DeliveryCheck],
    max_records: usize,
) -> Vec<Failure> {
    let mut failures = Vec::new();
    let unexpected = deliveries
        .iter()
        .flat_map(|d| d.unexpected_records.iter().copied())
        .take(max_records);
    for (source, destination) in unexpected {
        if let Some(w) = find_delivery(input, route, source, destination, None, usize::MAX) {
            let word = &input.words[w];
            failures.push(Failure::Unexpected {
                step: word.column + word.letters.len() - 1,
                message: message_ref(input, w, source, destination),
            });
        }
    }
    let missing = deliveries
        .iter()
        .flat_map(|d| d.missing_records.iter().copied())
        .take(max_records);
    failures.extend(missing.map(|(source, destination)| Failure::Missing {
        source,
        destination,
    }));
    failures
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
                .link(y, next)
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
