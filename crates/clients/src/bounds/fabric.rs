//! The bounds of `bounds --network FABRIC`: for a fabric (link capacities,
//! switch limits, forward-only nodes) the core's bounds of the collectives
//! ([`txverify_core::bounds::collective()`], which count GPUs only and links
//! at their capacity), each throughput, fill and entry-and-spread bound stated with the node
//! set S that proves it (docs/networks.md, "Fabrics"; docs/json.md, `fabric`).

use serde::Serialize;
use std::fmt::Write;
use txverify_core::bounds::collective::fabric::THROUGHPUT;
use txverify_core::bounds::entry_spread::{self, ENTRY_SPREAD, EntrySpreadCut};
use txverify_core::bounds::fill::{self, FILL, FillCut};
use txverify_core::bounds::throughput::{self, ThroughputCut};
use txverify_core::bounds::{BoundSet, collective};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Ports};

/// What the fabric's bounds leave out, as the report states it.
pub const LEFT_OUT: &str = "on a fabric the cut-vertex, one-way gossip, K-port cut and LP bounds are left out (they count every node a participant or one chunk a link a step)";

/// The bounds of a fabric.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FabricBounds {
    /// Nodes that are not forward-only.
    pub gpus: usize,
    /// The forward-only nodes.
    pub switches: Vec<u32>,
    /// Chunks a step over every directed link.
    pub capacity: u64,
    /// Switch limits.
    pub limits: usize,
    /// One entry per collective asked for.
    pub collectives: Vec<FabricCollectiveBounds>,
    /// [`LEFT_OUT`].
    pub left_out: &'static str,
}

/// The bounds of one collective on a fabric.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FabricCollectiveBounds {
    /// As the command line names it (`allgather`, `reduce-scatter 0`, …).
    pub collective: String,
    /// Chunks per block.
    pub chunks: u32,
    /// Lower bounds on steps, all-port.
    pub time: BoundSet,
    /// Lower bounds on sends.
    pub transmissions: BoundSet,
    /// The throughput bound's node set, when the collective has one.
    pub throughput: Option<ThroughputProof>,
    /// The fill bound and its node set, when the collective has one.
    pub fill: Option<FillCut>,
    /// The entry-and-spread bound and its node set (allgather, broadcast).
    pub entry_spread: Option<EntrySpreadCut>,
}

/// A throughput bound and the set S that proves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThroughputProof {
    /// ⌈chunks · data / capacity⌉.
    pub steps: u64,
    /// data / capacity: steps per chunk.
    pub per_chunk: f64,
    /// The set S (forward-only nodes included), increasing.
    pub set: Vec<u32>,
    /// Items per chunk that must cross S.
    pub data: u64,
    /// Chunks a step that can cross S (links at capacity, switch limits where sound).
    pub capacity: u64,
}

impl ThroughputProof {
    fn of(cut: &ThroughputCut, chunks: u32) -> ThroughputProof {
        ThroughputProof {
            steps: cut.steps(chunks),
            per_chunk: cut.data as f64 / cut.capacity.max(1) as f64,
            set: cut.set.clone(),
            data: cut.data,
            capacity: cut.capacity,
        }
    }
}

/// The collectives a fabric's report states when none is asked for.
pub fn default_collectives(chunks: u32) -> Vec<Collective> {
    vec![
        Collective::Allgather { chunks },
        Collective::ReduceScatter { chunks },
        Collective::Allreduce { chunks },
        Collective::TotalExchange,
    ]
}

/// The bounds of `collectives` on the fabric `graph`.
pub fn fabric_bounds(graph: &Graph, collectives: &[Collective]) -> FabricBounds {
    let collectives = collectives
        .iter()
        .map(|&c| {
            let b = collective(graph, c, Ports::All);
            FabricCollectiveBounds {
                collective: c.to_string(),
                chunks: c.chunks(),
                throughput: b
                    .throughput
                    .as_ref()
                    .map(|cut| ThroughputProof::of(cut, c.chunks())),
                fill: b.fill,
                entry_spread: b.entry_spread,
                time: b.time,
                transmissions: b.transmissions,
            }
        })
        .collect();
    FabricBounds {
        gpus: throughput::gpus(graph).len(),
        switches: (0..graph.nodes() as u32)
            .filter(|&x| graph.is_forward_only(x))
            .collect(),
        capacity: (0..graph.directed_links() as u32)
            .map(|l| u64::from(graph.capacity(l)))
            .sum(),
        limits: graph.fabric().limits().len(),
        collectives,
        left_out: LEFT_OUT,
    }
}

impl FabricBounds {
    /// The report in words.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "  fabric: {} GPUs, {} forward-only node(s), capacity {} chunks a step over all links, {} switch limit(s)",
            self.gpus,
            self.switches.len(),
            self.capacity,
            self.limits
        );
        for c in &self.collectives {
            let bounds: Vec<String> = c
                .time
                .bounds()
                .iter()
                .map(|b| format!("{} {}", b.name(), b.value()))
                .collect();
            let _ = writeln!(
                out,
                "  {} in {} chunk(s): at least {} steps ({}); at least {} sends",
                c.collective,
                c.chunks,
                c.time.value(),
                bounds.join(", "),
                c.transmissions.value()
            );
            if let Some(t) = &c.throughput {
                let _ = writeln!(
                    out,
                    "    {THROUGHPUT}: ⌈{} · {} / {}⌉ = {} ({:.4} a chunk), S = {{{}}}",
                    c.chunks,
                    t.data,
                    t.capacity,
                    t.steps,
                    t.per_chunk,
                    joined(&t.set)
                );
            }
            if let Some(f) = &c.fill {
                let ramp: Vec<String> = f
                    .ramp
                    .iter()
                    .map(|r| format!("{} a step from step {}", r.capacity, r.from_step))
                    .collect();
                let _ = writeln!(
                    out,
                    "    {FILL}: {} items must enter S, at most {}: {} steps, S = {{{}}}",
                    f.items,
                    ramp.join(", "),
                    f.steps,
                    joined(&f.set)
                );
            }
            if let Some(e) = &c.entry_spread {
                let _ = writeln!(
                    out,
                    "    {ENTRY_SPREAD}: {} items enter S, the last first at step {} or later (fill), at most {} node(s) of S at step {}, then {} step(s) to every GPU of S{}: {} steps, S = {{{}}}",
                    e.items,
                    e.fill,
                    e.entry_nodes,
                    e.last_entry,
                    e.spread,
                    if e.exact { "" } else { " (counted)" },
                    e.steps,
                    joined(&e.set)
                );
            }
        }
        let _ = writeln!(out, "  {}", self.left_out);
        out
    }
}

fn joined(set: &[u32]) -> String {
    set.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON field of the entry-and-spread bound in a `bounds` report.
const ENTRY_SPREAD_KEY: &str = "entry_spread";

/// The report of `verify-bound --network FABRIC REPORT` on a `bounds` report.
pub const VERIFY_FABRIC_BOUND_SCHEMA: &str = "txverify-verify-fabric-bound/1";

/// What `verify-bound` found in a `bounds` report of a fabric (schema
/// [`VERIFY_FABRIC_BOUND_SCHEMA`]): every stated throughput bound recomputed
/// from its set S and the fabric alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyFabricBoundReport {
    /// [`VERIFY_FABRIC_BOUND_SCHEMA`].
    pub schema: &'static str,
    /// The report file.
    pub file: String,
    /// The network checked against, as given.
    pub network: String,
    /// One entry per stated throughput bound.
    pub bounds: Vec<RecheckedBound>,
    /// Whether every stated bound is at most its recomputed value.
    pub accepted: bool,
}

/// One stated throughput or fill bound, recomputed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecheckedBound {
    /// Which bound: [`THROUGHPUT`], [`FILL`] or [`ENTRY_SPREAD`].
    pub bound: &'static str,
    /// The collective, as the report names it.
    pub collective: String,
    /// Chunks per block.
    pub chunks: u32,
    /// The steps the report states.
    pub stated: u64,
    /// The bound recomputed from the set and the fabric: ⌈chunks · data /
    /// capacity⌉ (throughput), the least steps whose ramp carries the items
    /// (fill).
    pub steps: u64,
    /// Items per chunk that must cross S, recomputed (fill: all items).
    pub data: u64,
    /// Chunks a step that can cross S, recomputed.
    pub capacity: u64,
    /// The set S.
    pub set: Vec<u32>,
}

impl VerifyFabricBoundReport {
    /// The report in words.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for b in &self.bounds {
            let verdict = if b.stated <= b.steps {
                "holds"
            } else {
                "REJECTED"
            };
            let proves = if b.bound == FILL {
                format!(
                    "{FILL}: {} items at most {} a step = {}",
                    b.data, b.capacity, b.steps
                )
            } else if b.bound == ENTRY_SPREAD {
                format!(
                    "{ENTRY_SPREAD}: {} items at most {} a step, then their spread = {}",
                    b.data, b.capacity, b.steps
                )
            } else {
                format!("⌈{} · {} / {}⌉ = {}", b.chunks, b.data, b.capacity, b.steps)
            };
            let _ = writeln!(
                out,
                "{}: {} in {} chunk(s) on {}: S of {} node(s) proves {proves}; stated {} {verdict}",
                self.file,
                b.collective,
                b.chunks,
                self.network,
                b.set.len(),
                b.stated
            );
        }
        out
    }
}

/// Re-checks the fabric bounds stated in the `bounds` report `text` (named
/// `file`) on `graph` (named `network`); `None` when `text` is not a
/// `txverify-bounds/4` report with a `fabric` object (an LP certificate).
pub fn verify_stated(
    file: &str,
    text: &str,
    network: &str,
    graph: &Graph,
) -> Option<Result<VerifyFabricBoundReport, String>> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    if value.get("schema")?.as_str()? != crate::bounds::BOUNDS_SCHEMA {
        return None;
    }
    let entries = value.get("fabric")?.get("collectives")?.as_array()?;
    let fail = |what: String| Err(format!("{file}: {what}"));
    let mut bounds = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        for (bound, key) in [
            (THROUGHPUT, THROUGHPUT),
            (FILL, FILL),
            (ENTRY_SPREAD, ENTRY_SPREAD_KEY),
        ] {
            let Some(stated) = entry.get(key).filter(|t| !t.is_null()) else {
                continue;
            };
            let name = entry.get("collective").and_then(|c| c.as_str());
            let chunks = entry.get("chunks").and_then(|c| c.as_u64());
            let steps = stated.get("steps").and_then(|s| s.as_u64());
            let set: Option<Vec<u32>> =
                stated.get("set").and_then(|s| s.as_array()).and_then(|a| {
                    a.iter()
                        .map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok()))
                        .collect()
                });
            let (Some(name), Some(chunks), Some(steps), Some(set)) = (name, chunks, steps, set)
            else {
                return Some(fail(format!(
                    "fabric.collectives[{i}]: needs `collective`, `chunks`, `{key}.steps` and `{key}.set`"
                )));
            };
            let c = match txverify_core::schedule::parse_collective(name, Some(&chunks.to_string()))
            {
                Ok(c) => c,
                Err(e) => return Some(fail(format!("fabric.collectives[{i}]: {e}"))),
            };
            // The bound as recomputed from the fabric, beside the steps stated.
            let found = |bound, steps_found, data, capacity, set| RecheckedBound {
                bound,
                collective: name.to_string(),
                chunks: c.chunks(),
                stated: steps,
                steps: steps_found,
                data,
                capacity,
                set,
            };
            let rechecked = if bound == ENTRY_SPREAD {
                entry_spread::recheck(graph, c, &set)
                    .map(|cut| found(ENTRY_SPREAD, cut.steps, cut.items, cut.capacity, cut.set))
            } else if bound == FILL {
                fill::recheck(graph, c, &set)
                    .map(|cut| found(FILL, cut.steps, cut.items, cut.capacity, cut.set))
            } else {
                throughput::recheck(graph, c, &set).map(|cut| {
                    let steps_found = cut.steps(c.chunks());
                    found(THROUGHPUT, steps_found, cut.data, cut.capacity, cut.set)
                })
            };
            match rechecked {
                Ok(b) => bounds.push(b),
                Err(e) => return Some(fail(format!("fabric.collectives[{i}].{key}: {e}"))),
            }
        }
    }
    Some(Ok(VerifyFabricBoundReport {
        schema: VERIFY_FABRIC_BOUND_SCHEMA,
        file: file.to_string(),
        network: network.to_string(),
        accepted: bounds.iter().all(|b| b.stated <= b.steps),
        bounds,
    }))
}
