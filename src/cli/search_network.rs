//! `txverify search --network NET`: a total-exchange schedule on any network,
//! by SAT (the fewest steps, with certificates) or by the heuristic.
//!
//! Whatever is found is replayed and judged by [`txverify_core::verdict::judge`]
//! against the lower bound before anything is printed or written; optimality
//! beyond the bound is claimed only on certificates that the checker accepted
//! and that cover every schedule (any paths).

use super::SearchArgs;
use super::exit::Exit;
use super::search_config::{NetworkConfig, SearchFormat, network_config_of};
use std::path::Path;
use std::time::{Duration, Instant};
use txverify_core::bounds::general::graph_bounds;
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{
    Ports, ReplayOptions, Schedule, TimedSend, replay, write_json, write_text,
};
use txverify_core::verdict::{NamedBound, ScheduleVerdict, judge};
use txverify_search::schedule::{
    self as sched, PathClass, ScheduleInfeasibility, ScheduleSearch, ScheduleSearchOptions,
};

/// The JSON schema of `search --network --format json`.
pub(super) const SCHEDULE_SEARCH_SCHEMA: &str = "txverify-schedule-search/1";

/// What a run found, judged.
struct Judged {
    schedule: Schedule,
    verdict: ScheduleVerdict,
    /// The heuristic found it (SAT found nothing faster).
    by_heuristic: bool,
}

/// Replays `sends` on `graph` and judges them against `bound`.
fn judged(
    network: &NetworkName,
    graph: &Graph,
    sends: Vec<TimedSend>,
    bound: &NamedBound,
) -> Result<Judged, String> {
    let schedule = sched::exchange_schedule(network.clone(), sends);
    let report = replay(&schedule, graph, &ReplayOptions { max_listed: 10 })
        .map_err(|e| format!("the schedule cannot be replayed: {e}"))?;
    let verdict = judge(&report, Some(bound.clone()), None);
    if !verdict.valid() || verdict.beats_bound() {
        return Err(format!(
            "internal error: the schedule found replays with {} violations (time {}, bound {})",
            verdict.violations(),
            verdict.time(),
            bound.value()
        ));
    }
    Ok(Judged {
        schedule,
        verdict,
        by_heuristic: false,
    })
}

/// `search --network NET`.
pub(super) fn run(args: &SearchArgs, words: &str) -> Exit {
    let started = Instant::now();
    let fail = |message: &str, exit: Exit| failure(args, words, message, exit);
    let config = match network_config_of(args, words) {
        Ok(c) => c,
        Err(message) => return fail(&message, Exit::Input),
    };
    // Both the bound and any schedule are quadratic in the nodes: refused
    // from the name, before the network is built.
    if let Err(e) = txverify_clients::bounds::check_size(&config.network) {
        return fail(&e.to_string(), Exit::Input);
    }
    let graph = match config.network.build() {
        Ok(g) => g,
        Err(e) => return fail(&format!("`{words}`: {e}"), Exit::Input),
    };
    // Every message makes at least one send: a first bound on the sends,
    // before the distances are computed.
    let nodes = graph.nodes() as u64;
    if nodes * nodes.saturating_sub(1) > sched::heuristic::MAX_SENDS {
        return fail(
            &format!(
                "`{words}`: a total exchange on {nodes} nodes makes at least {} sends, more than the limit of {}",
                nodes * (nodes - 1),
                sched::heuristic::MAX_SENDS
            ),
            Exit::Input,
        );
    }
    let figures = graph_bounds(&graph, u64::MAX);
    // The all-port bound every command states for this graph (`total_exchange`'s).
    let bound = figures.bound_set(Ports::All).best().clone();
    if !config.heuristic {
        // The smallest formula tried is estimated first: refused before the
        // heuristic schedule or any clause is made.
        let time = args.time.unwrap_or(bound.value() as usize);
        if graph.nodes() > sched::encode::MAX_NODES {
            let e = sched::ExchangeEncodeError::TooLarge {
                nodes: graph.nodes(),
            };
            return fail(&format!("`{words}`: {e}"), Exit::Input);
        }
        let limit = args.max_variables;
        let estimate = sched::encode::estimate_variables(&graph, time, config.paths, limit);
        if estimate > limit {
            let e = sched::ExchangeEncodeError::OverLimit {
                time,
                estimate,
                limit,
            };
            return fail(&format!("`{words}`: {e}"), Exit::Input);
        }
    }
    if figures.total_status > sched::heuristic::MAX_SENDS {
        return fail(
            &format!(
                "`{words}`: a total exchange on shortest paths makes {} sends, more than the limit of {}",
                figures.total_status,
                sched::heuristic::MAX_SENDS
            ),
            Exit::Input,
        );
    }
    let heuristic = sched::heuristic::list_schedule(&graph);
    if config.heuristic {
        return match judged(&config.network, &graph, heuristic, &bound) {
            Ok(mut found) => {
                found.by_heuristic = true;
                report(args, &config, &graph, &bound, Some(found), None, started)
            }
            Err(message) => fail(&message, Exit::Internal),
        };
    }
    let upper = heuristic.iter().map(|s| s.step as usize).max().unwrap_or(0);
    let from = args.time.unwrap_or(bound.value() as usize);
    let options = ScheduleSearchOptions {
        network: words.trim().to_string(),
        paths: config.paths,
        from,
        // The heuristic's schedule is kept when SAT finds nothing faster.
        to: args
            .time
            .or(args.max_time)
            .unwrap_or(upper.saturating_sub(1)),
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        solver: config.solver,
        certificate_dir: args.certificate.clone(),
        descending: args.descending,
        max_variables: args.max_variables,
    };
    let quiet = super::global::quiet();
    let mut progress = |t: usize| {
        if !quiet {
            eprintln!("search: trying T={t} ({})", config.paths);
        }
    };
    let searched = match sched::minimise(&graph, &options, &mut progress) {
        Ok(s) => s,
        Err(e) if e.is_io() || e.is_over_limit() => return fail(&e.to_string(), Exit::Input),
        Err(e) => return fail(&e.to_string(), Exit::Internal),
    };
    let by_heuristic = searched.found.is_none() && args.time.is_none() && args.max_time.is_none();
    let sends = match searched.found.clone() {
        Some(sends) => Some(sends),
        None if by_heuristic => Some(heuristic),
        None => None,
    };
    let found = match sends.map(|sends| judged(&config.network, &graph, sends, &bound)) {
        Some(Ok(mut j)) => {
            j.by_heuristic = by_heuristic;
            Some(j)
        }
        Some(Err(message)) => return fail(&message, Exit::Internal),
        None => None,
    };
    report(
        args,
        &config,
        &graph,
        &bound,
        found,
        Some(&searched),
        started,
    )
}

/// Why the schedule found is optimal, if it is: the library's one rule
/// ([`sched::optimal_by`]) on its verdict and the checked refutations.
fn optimal_by(found: &Judged, infeasible: &[ScheduleInfeasibility]) -> Option<&'static str> {
    sched::optimal_by(&found.verdict, infeasible)
}

/// The exit status: 0 with a schedule, 4 when a limit ran out first, 1 when
/// every `T` tried is infeasible.
fn exit_of(found: bool, searched: Option<&ScheduleSearch>) -> Exit {
    match (found, searched) {
        (true, _) | (false, None) => Exit::Ok,
        (false, Some(s)) if s.unknown.is_empty() => Exit::Rejected,
        (false, Some(_)) => Exit::Limit,
    }
}

/// Writes the schedule to `-o` (JSON for a `.json` name, else text), with an
/// edge list named by an absolute path when the schedule goes elsewhere (a
/// schedule names its edge list relative to itself).
fn write_output(path: &Path, schedule: &Schedule) -> Result<(), String> {
    let mut schedule = schedule.clone();
    if let Some(NetworkName::Edges(edges)) = &schedule.network
        && edges.is_relative()
        && path.parent().is_some_and(|p| !p.as_os_str().is_empty())
    {
        let absolute = std::fs::canonicalize(edges)
            .map_err(|e| format!("cannot resolve {}: {e}", edges.display()))?;
        schedule.network = Some(NetworkName::Edges(absolute));
    }
    let file =
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut w = std::io::BufWriter::new(file);
    let json = path.extension().is_some_and(|e| e == "json");
    let written = if json {
        write_json(&schedule, &mut w)
    } else {
        write_text(&schedule, &mut w)
    };
    written
        .and_then(|()| std::io::Write::flush(&mut w))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reports the run in text or JSON, after writing `-o`.
fn report(
    args: &SearchArgs,
    config: &NetworkConfig,
    graph: &Graph,
    bound: &NamedBound,
    found: Option<Judged>,
    searched: Option<&ScheduleSearch>,
    started: Instant,
) -> Exit {
    let words = &config.network.to_string();
    if let (Some(path), Some(found)) = (&args.output, &found)
        && let Err(message) = write_output(path, &found.schedule)
    {
        return failure(args, words, &message, Exit::Input);
    }
    let exit = exit_of(found.is_some(), searched);
    let infeasible = searched.map_or(&[][..], |s| &s.infeasible[..]);
    let optimal = found.as_ref().map(|f| optimal_by(f, infeasible));
    let seconds = started.elapsed().as_secs_f64();
    if args.format == SearchFormat::Json {
        let value = report_json(
            args, config, graph, bound, &found, searched, optimal, exit, seconds,
        );
        outln!("{value}");
        return exit;
    }
    let method = if config.heuristic {
        "heuristic".to_string()
    } else {
        format!("SAT, {}", config.paths)
    };
    outln!(
        "{}: total exchange, all-port ({} nodes, {} directed links), {method}",
        words.trim(),
        graph.nodes(),
        graph.directed_links()
    );
    outln!("  lower bound  {} ({})", bound.value(), bound.name());
    for i in infeasible {
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
        outln!("  infeasible   T={} ({covers}{certificate})", i.time);
    }
    for t in searched.map_or(&[][..], |s| &s.unknown[..]) {
        outln!("  unknown      T={t}: the limit ran out");
    }
    match (&found, optimal.flatten()) {
        (Some(f), by) => {
            let ratio = f64::from(f.verdict.time()) / bound.value().max(1) as f64;
            let method = if f.by_heuristic { "heuristic" } else { "SAT" };
            outln!(
                "  schedule     time {} (found by {method}), {} sends, {:.3} × the bound",
                f.verdict.time(),
                f.schedule.sends.len(),
                ratio
            );
            let verdict = match by {
                Some("lower_bound") => "VALID, OPTIMAL (meets the lower bound)",
                Some(_) => "VALID, OPTIMAL (fewer steps refuted by checked certificates)",
                None => "VALID (optimality not proved)",
            };
            outln!("  verdict      {verdict}");
        }
        (None, _) => outln!("  no schedule found"),
    }
    exit
}

/// The JSON report (schema txverify-schedule-search/1, docs/json.md).
#[allow(clippy::too_many_arguments)]
fn report_json(
    args: &SearchArgs,
    config: &NetworkConfig,
    graph: &Graph,
    bound: &NamedBound,
    found: &Option<Judged>,
    searched: Option<&ScheduleSearch>,
    optimal: Option<Option<&'static str>>,
    exit: Exit,
    seconds: f64,
) -> serde_json::Value {
    let infeasible: Vec<serde_json::Value> = searched
        .map_or(&[][..], |s| &s.infeasible[..])
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
    let time = found.as_ref().map(|f| f.verdict.time());
    serde_json::json!({
        "schema": SCHEDULE_SEARCH_SCHEMA,
        "network": config.network.to_string(),
        "nodes": graph.nodes(),
        "directed_links": graph.directed_links(),
        "ports": "all",
        "method": if config.heuristic { "heuristic" } else { "sat" },
        "paths": paths_name(if config.heuristic { PathClass::Shortest } else { config.paths }),
        "lower_bound": bound.value(),
        "bound_name": bound.name(),
        "found": found.is_some(),
        "found_by": found.as_ref().map(|f| if f.by_heuristic { "heuristic" } else { "sat" }),
        "time": time,
        "transmissions": found.as_ref().map(|f| f.schedule.sends.len()),
        "valid": found.as_ref().map(|f| f.verdict.valid()),
        "ratio": time.map(|t| f64::from(t) / bound.value().max(1) as f64),
        "optimal": optimal.map(|o| o.is_some()),
        "optimal_by": optimal.flatten(),
        "infeasible": infeasible,
        "unknown": searched.map_or(&[][..], |s| &s.unknown[..]),
        "solver": if config.heuristic { None } else { Some(solver_name(args, config)) },
        "output": found.as_ref().and(args.output.as_ref()).map(|p| p.display().to_string()),
        "seconds": seconds,
        "exit_code": exit.code(),
    })
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
fn solver_name(args: &SearchArgs, config: &NetworkConfig) -> String {
    if args.certificate.is_some() {
        return "varisat".to_string();
    }
    match serde_json::to_value(config.solver) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "a SAT solver".to_string(),
    }
}

/// An error, on standard error and, with `--format json`, as a report.
fn failure(args: &SearchArgs, words: &str, message: &str, exit: Exit) -> Exit {
    eprintln!("error: {message}");
    if args.format == SearchFormat::Json {
        let value = serde_json::json!({
            "schema": SCHEDULE_SEARCH_SCHEMA,
            "network": words.trim(),
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}
