//! `search --network NET --collective X [--chunks C] [--ports K]`: the
//! fastest schedule of a collective that copies (broadcast, allgather) or
//! combines (reduce, reduce-scatter, allreduce) by SAT from the core's lower
//! bound upward, and its report.
//!
//! What is found is replayed and judged by [`txverify_core::verdict::judge`]
//! against the core's bound ([`txverify_core::bounds::collective()`]) before
//! anything is reported or written. With `--certificate DIR` every refuted
//! time leaves a certificate, checked at once; optimality is claimed when the
//! schedule meets the bound, or by the core's rule on the checked
//! certificates of every time from the bound up ([`collective_optimal_by`]).

use super::{Failure, Status};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use txverify_core::bounds;
use txverify_core::network::NetworkName;
use txverify_core::schedule::{
    Collective, Ports, ReplayOptions, Schedule, replay, write_json, write_text,
};
use txverify_core::verdict::judge;
use txverify_search::SolverChoice;
use txverify_search::schedule::collective::{
    CollectiveSearchOptions, collective_optimal_by, encoding_version, minimise_collective,
};

/// The JSON schema of `search --network --collective --format json`.
pub const COLLECTIVE_SEARCH_SCHEMA: &str = "txverify-collective-search/1";

/// What was asked, its arguments checked.
#[derive(Clone, Debug)]
pub struct CollectiveSearchRequest {
    /// The network.
    pub network: NetworkName,
    /// The collective, with its chunks.
    pub collective: Collective,
    /// The port model.
    pub ports: Ports,
    /// The solver.
    pub solver: SolverChoice,
    /// `--time T`: this time only.
    pub time: Option<usize>,
    /// `--max-time T`: the largest time tried (default: the bound + 16).
    pub max_time: Option<usize>,
    /// The largest formula, in variables.
    pub max_variables: u64,
    /// The time limit of each solver call.
    pub time_limit: Option<Duration>,
    /// `-o FILE`: where the schedule found is written (JSON for `.json`).
    pub output: Option<PathBuf>,
    /// `--certificate DIR`: where the certificates of refuted times go.
    pub certificate: Option<PathBuf>,
}

/// The report: text, JSON and status.
pub struct CollectiveSearchReport {
    text: String,
    json: Value,
    status: Status,
}

impl CollectiveSearchReport {
    /// For people.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// For programs (docs/json.md).
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// 0 with a schedule, 4 when a limit ran out first, 1 when every `T`
    /// tried is infeasible.
    pub fn status(&self) -> Status {
        self.status
    }
}

/// Runs the search; `progress` hears each time tried.
pub fn search_collective(
    request: &CollectiveSearchRequest,
    progress: &mut dyn FnMut(usize),
) -> Result<CollectiveSearchReport, Box<Failure>> {
    let started = Instant::now();
    let fail = |status, message: String| Err(Box::new(Failure::new(status, message)));
    let words = request.network.to_string();
    if let Err(e) = crate::bounds::check_size(&request.network) {
        return fail(Status::Input, e.to_string());
    }
    let graph = match request.network.build() {
        Ok(g) => g,
        Err(e) => return fail(Status::Input, format!("`{words}`: {e}")),
    };
    if let Some(root) = request.collective.root()
        && root as usize >= graph.nodes()
    {
        let n = graph.nodes();
        return fail(
            Status::Input,
            format!("root {root} is not a node of `{words}` ({n} nodes)"),
        );
    }
    let bound = bounds::collective(&graph, request.collective, request.ports)
        .time
        .best()
        .clone();
    let from = request.time.unwrap_or(bound.value() as usize);
    let options = CollectiveSearchOptions {
        network: words.clone(),
        certificate_dir: request.certificate.clone(),
        collective: request.collective,
        ports: request.ports,
        from,
        to: request.time.or(request.max_time).unwrap_or(from + 16),
        time_limit: request.time_limit,
        solver: request.solver,
        max_variables: request.max_variables,
        translate: true,
    };
    let searched = match minimise_collective(&graph, &options, progress) {
        Ok(s) => s,
        Err(e) => {
            use txverify_search::schedule::collective::CollectiveSearchError as E;
            let status = match e {
                E::Unsupported(_) | E::OverLimit { .. } | E::Write { .. } => Status::Input,
                _ => Status::Internal,
            };
            return fail(status, format!("`{words}`: {e}"));
        }
    };
    let mut found = None;
    if let Some(sends) = searched.found.clone() {
        let schedule = Schedule {
            network: Some(request.network.clone()),
            ports: Some(request.ports),
            collective: request.collective,
            sends,
        };
        let report = match replay(&schedule, &graph, &ReplayOptions { max_listed: 10 }) {
            Ok(r) => r,
            Err(e) => {
                return fail(
                    Status::Internal,
                    format!("the schedule cannot be replayed: {e}"),
                );
            }
        };
        let verdict = judge(&report, Some(bound.clone()), None);
        if !verdict.valid() || verdict.beats_bound() {
            return fail(
                Status::Internal,
                format!(
                    "internal error: the schedule found replays with {} violations (time {}, bound {})",
                    verdict.violations(),
                    verdict.time(),
                    bound.value()
                ),
            );
        }
        if let Some(path) = &request.output {
            let written = std::fs::File::create(path).and_then(|file| {
                let mut w = std::io::BufWriter::new(file);
                if path.extension().is_some_and(|e| e == "json") {
                    write_json(&schedule, &mut w)?;
                } else {
                    write_text(&schedule, &mut w)?;
                }
                std::io::Write::flush(&mut w)
            });
            if let Err(e) = written {
                return fail(
                    Status::Input,
                    format!("cannot write {}: {e}", path.display()),
                );
            }
        }
        found = Some((schedule, verdict));
    }
    let status = match (&found, searched.unknown.is_empty()) {
        (Some(_), _) => Status::Ok,
        (None, true) => Status::Rejected,
        (None, false) => Status::Limit,
    };
    let seconds = started.elapsed().as_secs_f64();
    let chunks = request.collective.chunks();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} in {chunks} chunk(s) on {words} ({} nodes), ports {}: lower bound {} ({})",
        request.collective,
        graph.nodes(),
        request.ports,
        bound.value(),
        bound.name()
    );
    for i in &searched.infeasible {
        let how = match (&i.certificate, i.certificate_checked) {
            (Some(dir), true) => format!("certificate {} checked", dir.display()),
            (Some(dir), false) => format!("certificate {} NOT accepted", dir.display()),
            (None, _) => "the solver's word; no certificate (--certificate DIR)".to_string(),
        };
        let _ = writeln!(text, "  T={}: infeasible ({how})", i.time);
    }
    let optimal_by = found
        .as_ref()
        .and_then(|(_, v)| collective_optimal_by(v, &searched.infeasible));
    for t in &searched.unknown {
        let _ = writeln!(text, "  T={t}: unknown (time limit)");
    }
    match &found {
        Some((schedule, verdict)) => {
            let _ = writeln!(
                text,
                "  found        time {}, {} sends\n  verdict      {}",
                verdict.time(),
                schedule.sends.len(),
                verdict_text(verdict, optimal_by, bound.value())
            );
            if searched.translated {
                let _ = writeln!(
                    text,
                    "  translated   block 0's items scheduled, every block b's mapped from them by an automorphism taking 0 to b"
                );
            }
            if request.output.is_none() {
                let mut out = Vec::new();
                let _ = write_text(schedule, &mut out);
                text.push_str(&String::from_utf8_lossy(&out));
            }
        }
        None => {
            let _ = writeln!(text, "  no schedule within the times tried");
        }
    }
    let _ = writeln!(text, "  seconds      {seconds:.3}");
    let json = json!({
        "schema": COLLECTIVE_SEARCH_SCHEMA,
        "network": words,
        "nodes": graph.nodes(),
        "collective": request.collective.to_string(),
        "chunks": chunks,
        "ports": match request.ports { Ports::All => json!("all"), Ports::Limit(k) => json!(k) },
        "encoding": encoding_version(request.collective),
        "bound": bound,
        "infeasible": searched.infeasible.iter().map(|i| json!({
            "time": i.time,
            "claim": i.claim,
            "certificate": i.certificate.as_ref().map(|d| d.display().to_string()),
            "certificate_checked": i.certificate_checked,
        })).collect::<Vec<_>>(),
        "unknown": searched.unknown,
        "time": found.as_ref().map(|(_, v)| v.time()),
        "transmissions": found.as_ref().map(|(s, _)| s.sends.len()),
        "valid": found.as_ref().map(|(_, v)| v.valid()),
        "optimal": found.as_ref().map(|_| optimal_by.is_some()),
        "optimal_by": optimal_by,
        "translated": found.as_ref().map(|_| searched.translated),
        "verdict": found.as_ref().map(|(_, v)| verdict_text(v, optimal_by, bound.value())),
        "seconds": seconds,
        "exit_code": status.code(),
    });
    Ok(CollectiveSearchReport { text, json, status })
}

/// The verdict in words; optimal by certificates says so rather than "not
/// optimal" by the bound.
fn verdict_text(
    verdict: &txverify_core::verdict::ScheduleVerdict,
    optimal_by: Option<&str>,
    bound: u64,
) -> String {
    if optimal_by == Some("certificates") {
        format!(
            "OPTIMAL (completion time {}: every time from the bound, {bound}, up to {} refuted by a checked certificate)",
            verdict.time(),
            verdict.time().saturating_sub(1)
        )
    } else {
        verdict.to_string()
    }
}
