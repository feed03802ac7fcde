//! The report of `txverify compose` (schema `txverify-compose/1`,
//! docs/json.md): a composed run, its theorem, its bound and its verdict, as a
//! typed serde object and in words.

use super::ProductRun;
use super::factor::{Candidate, FactorExchange};
use crate::bounds::CutSummary;
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON schema of the report.
pub const COMPOSE_SCHEMA: &str = "txverify-compose/1";

/// A bound as the report names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoundReport {
    /// Steps.
    pub value: u64,
    /// Which bound (its name in [`txverify_core::bounds`]).
    pub kind: String,
}

/// One factor's part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactorReport {
    /// Its network name.
    pub factor: String,
    /// `direct`, `fifo`, `table` or `greedy`.
    pub method: &'static str,
    /// Where its schedule comes from.
    pub source: String,
    /// Its replayed time.
    pub time: u32,
    /// Every schedule tried.
    pub candidates: Vec<Candidate>,
    /// Its own bound under the model.
    pub lower_bound: u64,
    /// That bound's name.
    pub lower_bound_kind: String,
}

/// What `compose --format json` prints (schema [`COMPOSE_SCHEMA`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComposeReport {
    /// [`COMPOSE_SCHEMA`].
    pub schema: &'static str,
    /// `a1` or `a2`.
    pub algorithm: String,
    /// The product network.
    pub network: String,
    /// `1` or `all`.
    pub ports: String,
    /// Nodes.
    pub nodes: usize,
    /// The replayed time.
    pub time: u32,
    /// The seed's result giving the time.
    pub theorem: &'static str,
    /// The time it gives.
    pub theorem_time: u64,
    /// Its optimality condition holds.
    pub theorem_optimal: bool,
    /// The bound the time is compared with.
    pub lower_bound: BoundReport,
    /// The verdict: valid and the time equals the bound.
    pub optimal: bool,
    /// The replay found no violation.
    pub valid: bool,
    /// Violations the replay found.
    pub violations: u64,
    /// Sends.
    pub transmissions: u64,
    /// Derouted sends.
    pub derouted: u64,
    /// The largest queue.
    pub peak_queue: u64,
    /// AS(G).
    pub average_status: f64,
    /// S_G by search equals S_G by Corollary 2.
    pub status_by_theorem_agrees: bool,
    /// The best cut splitting one dimension.
    pub dimension_cut: Option<CutSummary>,
    /// The best cut over every bisection (small graphs).
    pub exhaustive_cut: Option<CutSummary>,
    /// One per factor.
    pub factors: Vec<FactorReport>,
}

impl ComposeReport {
    /// The report of `run`.
    pub fn of(run: &ProductRun) -> ComposeReport {
        let r = &run.replay;
        ComposeReport {
            schema: COMPOSE_SCHEMA,
            algorithm: run.algorithm.to_string(),
            network: run.network.to_string(),
            ports: run.ports.to_string(),
            nodes: r.nodes(),
            time: r.time(),
            theorem: run.theorem.name,
            theorem_time: run.theorem.time,
            theorem_optimal: run.theorem.says_optimal,
            lower_bound: BoundReport {
                value: run.lower_bound.value(),
                kind: run.lower_bound.name().to_string(),
            },
            optimal: run.optimal(),
            valid: run.verdict.valid(),
            violations: run.verdict.violations(),
            transmissions: r.transmissions(),
            derouted: r.derouted(),
            peak_queue: r.peak_queue() as u64,
            average_status: run.average_status.value(),
            status_by_theorem_agrees: run.status_by_theorem_agrees,
            dimension_cut: run.dimension_cut.as_ref().map(CutSummary::of),
            exhaustive_cut: run.exhaustive_cut.as_ref().map(CutSummary::of),
            factors: run
                .factors
                .iter()
                .map(|f| FactorReport {
                    factor: f.part.factor.to_string(),
                    method: f.part.method,
                    source: f.part.source.clone(),
                    time: f.part.exchange.time,
                    candidates: f.part.candidates.clone(),
                    lower_bound: f.lower_bound.value(),
                    lower_bound_kind: f.lower_bound.name().to_string(),
                })
                .collect(),
        }
    }
}

/// Where a factor's schedule comes from, when that is more than its method:
/// an embedded table's path or the generator, and the slower ones tried.
fn source_note(part: &FactorExchange) -> String {
    let mut note = String::new();
    if part.source != part.method && part.method == "table" {
        let _ = write!(note, " from {}", part.source);
    }
    let slower: Vec<String> = part
        .candidates
        .iter()
        .filter(|c| c.source != part.source)
        .map(|c| format!("{} {}", c.source, c.time))
        .collect();
    if !slower.is_empty() {
        let _ = write!(note, "; also tried: {}", slower.join(", "));
    }
    note
}

/// The report in words.
pub fn text(run: &ProductRun) -> String {
    let r = &run.replay;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} on {} ({} nodes, {}-port): time {} (theorem: {})",
        run.algorithm.to_string().to_uppercase(),
        run.network,
        r.nodes(),
        run.ports,
        r.time(),
        run.theorem.time
    );
    for f in &run.factors {
        let _ = writeln!(
            s,
            "  factor {:<14} {:<7} time {:>4}  (its bound {}, {}){}",
            f.part.factor.to_string(),
            f.part.method,
            f.part.exchange.time,
            f.lower_bound.value(),
            f.lower_bound.name(),
            source_note(&f.part)
        );
    }
    let _ = writeln!(
        s,
        "  {}: time {} — {}",
        run.theorem.name,
        run.theorem.time,
        if u64::from(r.time()) == run.theorem.time {
            "met"
        } else {
            "NOT met"
        }
    );
    let _ = writeln!(
        s,
        "  lower bound {} ({}, for any {}-port schedule on {}); average status {:.4}",
        run.lower_bound.value(),
        run.lower_bound.name(),
        run.ports,
        run.network,
        run.average_status.value()
    );
    if let Some(c) = &run.exhaustive_cut {
        let _ = writeln!(
            s,
            "  best bisection over all cuts: {} · {} / {} = {:.4} (cut bound {}, any port model)",
            c.side,
            c.other_side,
            c.edges,
            c.ratio.value(),
            c.steps()
        );
    }
    let _ = writeln!(
        s,
        "  replay: {} ({} sends, {} violations, peak queue {})",
        if run.verdict.valid() {
            "valid"
        } else {
            "INVALID"
        },
        r.transmissions(),
        run.verdict.violations(),
        r.peak_queue()
    );
    for v in r.violations() {
        let _ = writeln!(s, "    {v}");
    }
    let verdict = match (run.optimal(), run.theorem.says_optimal) {
        (true, _) => "optimal (time = lower bound)",
        (false, true) => "NOT optimal although the theorem says it is",
        (false, false) => "not shown optimal (time above the lower bound)",
    };
    let _ = writeln!(s, "  verdict: {verdict}");
    s
}
