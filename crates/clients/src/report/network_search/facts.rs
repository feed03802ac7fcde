//! The report of `search --network`, in text and JSON (schema
//! txverify-schedule-search/3, docs/json.md): what was found, how sure it is,
//! how the run ended and how far the best schedule is from the bound.

use super::{Judged, LpFacts, NetworkSearchRequest, SCHEDULE_SEARCH_SCHEMA};
use crate::report::Status;
use serde_json::Value;
use std::fmt::Write as _;
use txverify_core::network::Graph;
use txverify_core::schedule::Collective;
use txverify_core::verdict::NamedBound;
use txverify_search::schedule::{self as sched, PathClass, ScheduleSearch};

/// A schedule kept as the best so far, in the order they were kept (by the
/// anytime searches of total exchange and of the collectives alike).
pub(crate) struct Kept {
    /// Its number of steps.
    pub(crate) time: u32,
    /// `heuristic` or `sat`.
    pub(crate) found_by: &'static str,
    /// When it was kept (and written), in seconds from the start.
    pub(crate) seconds: f64,
}

impl Kept {
    /// Its entry of the JSON report's `improvements`.
    pub(crate) fn json(&self) -> Value {
        serde_json::json!({
            "time": self.time,
            "found_by": self.found_by,
            "seconds": self.seconds,
        })
    }

    /// The text report's `improved` line, when the run kept more than one schedule.
    pub(crate) fn improved_line(kept: &[Kept]) -> Option<String> {
        (kept.len() > 1).then(|| {
            let steps: Vec<String> = kept
                .iter()
                .map(|k| format!("{} ({}, {:.1} s)", k.time, k.found_by, k.seconds))
                .collect();
            format!("  improved     {}", steps.join(" → "))
        })
    }
}

/// Everything a report states.
pub(super) struct Facts<'a> {
    pub(super) request: &'a NetworkSearchRequest,
    pub(super) graph: &'a Graph,
    pub(super) bound: &'a NamedBound,
    /// The LP bound, or why it is absent (the best of it and the others is `bound`).
    pub(super) lp: &'a LpFacts,
    pub(super) found: &'a Option<Judged>,
    pub(super) searched: Option<&'a ScheduleSearch>,
    pub(super) optimal: Option<Option<&'static str>>,
    /// `deadline` or `signal` when the search was stopped before it was done.
    pub(super) stopped: Option<&'static str>,
    /// The phase the stop came in: `construction`, `encoding` or `solving`.
    pub(super) stopped_in: Option<&'static str>,
    /// Why SAT was not run (or not run further) after the heuristic.
    pub(super) sat_skipped: Option<&'a str>,
    pub(super) kept: &'a [Kept],
    /// Which of the heuristic's routers ran and which were cut (a streamed
    /// run's construction).
    pub(super) routers: Option<&'a sched::heuristic::Routers>,
}

impl Facts<'_> {
    fn infeasible(&self) -> &[sched::ScheduleInfeasibility] {
        self.searched.map_or(&[][..], |s| &s.infeasible[..])
    }

    fn unknown(&self) -> &[usize] {
        self.searched.map_or(&[][..], |s| &s.unknown[..])
    }

    /// The best time's distance to the bound, in steps.
    fn gap(&self) -> Option<u64> {
        let time = u64::from(self.found.as_ref()?.verdict.time());
        Some(time.saturating_sub(self.bound.value()))
    }

    /// Why the search stopped and in which phase, in words.
    fn stopped_while(&self) -> Option<String> {
        let why = self.stopped_by()?;
        Some(match self.stopped_in {
            Some(phase) => format!("{why} while {}", phase_words(phase)),
            None => why.to_string(),
        })
    }

    /// Why the search stopped, in words.
    fn stopped_by(&self) -> Option<&'static str> {
        self.stopped.map(|s| match s {
            "deadline" => "stopped by the deadline",
            _ => "interrupted by a signal",
        })
    }

    /// The text report.
    pub(super) fn text(&self) -> String {
        let (request, bound) = (self.request, self.bound);
        let mut out = String::new();
        let method = if request.heuristic {
            "heuristic".to_string()
        } else {
            format!("SAT, {}", request.paths)
        };
        let _ = writeln!(
            out,
            "{}: total exchange, all-port ({} nodes, {} directed links), {method}",
            request.network.to_string().trim(),
            self.graph.nodes(),
            self.graph.directed_links()
        );
        let _ = writeln!(out, "  lower bound  {} ({})", bound.value(), bound.name());
        let _ = match self.lp {
            LpFacts::Stated(value) => writeln!(out, "  LP bound     {value}"),
            LpFacts::Skipped(why) => writeln!(out, "  LP bound     not computed: {why}"),
        };
        if let Some(why) = self.sat_skipped {
            let _ = writeln!(out, "  SAT skipped  {why}");
        }
        // Said when a router was cut: the schedule is not the best they give.
        if let Some(r) = self.routers.filter(|r| !r.cut.is_empty()) {
            let mut ran: Vec<&str> = r.ran.iter().map(|x| x.name()).collect();
            if ran.is_empty() {
                ran.push("none");
            }
            let cut: Vec<String> = r
                .cut
                .iter()
                .map(|(x, why)| format!("{} ({})", x.name(), why.name()))
                .collect();
            let _ = writeln!(
                out,
                "  routers      {} ran; cut: {}",
                ran.join(", "),
                cut.join(", ")
            );
        }
        for i in self.infeasible() {
            let covers = if i.covers_all_schedules {
                "every schedule"
            } else {
                "restricted: not every schedule"
            };
            let certificate = match (&i.certificate, i.certificate_checked) {
                (Some(dir), true) => format!(", certificate {} (checked)", dir.display()),
                (Some(dir), false) => {
                    format!(", certificate {} (REJECTED by the checker)", dir.display())
                }
                (None, _) => String::new(),
            };
            let _ = writeln!(out, "  infeasible   T={} ({covers}{certificate})", i.time);
        }
        let unknown = self.unknown();
        for (k, t) in unknown.iter().enumerate() {
            let why = match self.stopped_while() {
                Some(why) if k + 1 == unknown.len() => why,
                _ => "the limit ran out".to_string(),
            };
            let _ = writeln!(out, "  unknown      T={t}: {why}");
        }
        if let Some(line) = Kept::improved_line(self.kept) {
            let _ = writeln!(out, "{line}");
        }
        match self.found {
            Some(f) => {
                let ratio = f64::from(f.verdict.time()) / bound.value().max(1) as f64;
                let method = if f.by_heuristic { "heuristic" } else { "SAT" };
                let written = match &request.output {
                    Some(path) => format!(", written to {}", path.display()),
                    None => String::new(),
                };
                let _ = writeln!(
                    out,
                    "  schedule     time {} (found by {method}), {} sends, {:.3} × the bound{written}",
                    f.verdict.time(),
                    f.schedule.sends(),
                    ratio
                );
                let _ = writeln!(out, "  verdict      {}", self.verdict_words(f));
            }
            None => {
                let why = self
                    .stopped_while()
                    .map(|w| format!(": {w}"))
                    .unwrap_or_default();
                let _ = writeln!(out, "  no schedule found{why}");
            }
        }
        out
    }

    /// The verdict line: optimal and why, or the gap to the bound and why
    /// the search ended without closing it.
    fn verdict_words(&self, found: &Judged) -> String {
        match self.optimal.flatten() {
            Some("lower_bound") => "VALID, OPTIMAL (meets the lower bound)".to_string(),
            Some(_) => "VALID, OPTIMAL (fewer steps refuted by checked certificates)".to_string(),
            None => {
                let bound = self.bound.value();
                let gap = self.gap().unwrap_or(0);
                let percent = 100.0 * gap as f64 / bound.max(1) as f64;
                let why = self
                    .stopped_by()
                    .map(|w| format!(": {w}"))
                    .unwrap_or_default();
                format!(
                    "VALID, {} steps, bound {bound}, gap {gap} ({percent:.1} %), optimality not proved{why}",
                    found.verdict.time()
                )
            }
        }
    }

    /// The JSON report (schema txverify-schedule-search/3, docs/json.md):
    /// the fields every schedule search writes, the collective's among them.
    pub(super) fn json(&self, status: Status, seconds: f64) -> Value {
        let (request, bound, found) = (self.request, self.bound, self.found);
        let infeasible: Vec<Value> = self
            .infeasible()
            .iter()
            .map(|i| {
                serde_json::json!({
                    "time": i.time,
                    "claim": i.claim,
                    "covers_all_schedules": i.covers_all_schedules,
                    "restrictions": i.restrictions,
                    "certificate": i.certificate.as_ref().map(|p| p.display().to_string()),
                    "certificate_checked": i.certificate_checked,
                })
            })
            .collect();
        let kept: Vec<Value> = self.kept.iter().map(Kept::json).collect();
        let time = found.as_ref().map(|f| f.verdict.time());
        let heuristic = request.heuristic;
        serde_json::json!({
            "schema": SCHEDULE_SEARCH_SCHEMA,
            "network": request.network.to_string(),
            "nodes": self.graph.nodes(),
            "directed_links": self.graph.directed_links(),
            "collective": Collective::TotalExchange.to_string(),
            "chunks": Collective::TotalExchange.chunks(),
            "ports": "all",
            "method": if heuristic { "heuristic" } else { "sat" },
            "encoding": (!heuristic).then_some(sched::encode::EXCHANGE_ENCODING_VERSION),
            "paths": paths_name(if heuristic { PathClass::Any } else { request.paths }),
            "bound": bound,
            "lower_bound": bound.value(),
            "bound_name": bound.name(),
            "lp": match self.lp {
                LpFacts::Stated(value) => Some(*value),
                LpFacts::Skipped(_) => None,
            },
            "lp_skipped": match self.lp {
                LpFacts::Stated(_) => None,
                LpFacts::Skipped(why) => Some(why.as_str()),
            },
            "found": found.is_some(),
            "found_by": found.as_ref().map(|f| if f.by_heuristic { "heuristic" } else { "sat" }),
            "construction": found.as_ref().and_then(|f| f.by_heuristic.then_some(LIST_SCHEDULE)),
            "time": time,
            "transmissions": found.as_ref().map(|f| f.schedule.sends()),
            "valid": found.as_ref().map(|f| f.verdict.valid()),
            "ratio": time.map(|t| f64::from(t) / bound.value().max(1) as f64),
            "gap": self.gap(),
            "optimal": self.optimal.map(|o| o.is_some()),
            "optimal_by": self.optimal.flatten(),
            "verdict": found.as_ref().map(|f| self.verdict_words(f)),
            "translated": found.as_ref().map(|_| false),
            "infeasible": infeasible,
            "unknown": self.unknown(),
            "improvements": kept,
            "stopped": self.stopped,
            "stopped_in": self.stopped_in,
            "sat_skipped": self.sat_skipped,
            "routers": self.routers.map(|r| serde_json::json!({
                "ran": r.ran.iter().map(|x| x.name()).collect::<Vec<_>>(),
                "cut": r.cut.iter().map(|(x, why)| serde_json::json!({
                    "router": x.name(),
                    "why": why.name(),
                })).collect::<Vec<_>>(),
            })),
            "deadline": request.deadline.map(|d| d.as_secs_f64()),
            "solver": if heuristic { None } else { Some(solver_name(request)) },
            "output": found.as_ref().and(request.output.as_ref()).map(|p| p.display().to_string()),
            "seconds": seconds,
            "exit_code": status.code(),
        })
    }
}

/// The construction of the total exchange, as the report names it: the
/// heuristic's list schedule ([`sched::heuristic::list_schedule`]).
const LIST_SCHEDULE: &str = "list schedule";

/// A phase as the text report names it.
fn phase_words(phase: &str) -> &'static str {
    match phase {
        "construction" => "the heuristic's schedule was made",
        "encoding" => "the formula was built",
        _ => "the formula was solved",
    }
}

/// The path class as JSON names it: `shortest`, `slack K`, `any`.
fn paths_name(paths: PathClass) -> String {
    match paths {
        PathClass::Shortest => "shortest".to_string(),
        PathClass::Slack(k) => format!("slack {k}"),
        PathClass::Any => "any".to_string(),
    }
}

/// The solver that ran: varisat whenever certificates were asked for.
fn solver_name(request: &NetworkSearchRequest) -> String {
    if request.certificate.is_some() {
        return "varisat".to_string();
    }
    match serde_json::to_value(request.solver) {
        Ok(Value::String(name)) => name,
        _ => "a SAT solver".to_string(),
    }
}
