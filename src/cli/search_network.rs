//! `txverify search --network NET [--collective X]`: a schedule of a total
//! exchange or of a collective on any network, by SAT (the fewest steps, with
//! certificates), by the heuristic, or both (anytime).
//!
//! The rules on the arguments, the search, the check of what it found and the
//! report are the library's ([`txverify_clients::report::schedule_request`]);
//! this file translates the arguments, installs the signal handlers that stop
//! the search, shows its progress and prints the report.

use super::exit::Exit;
use super::search_args::SearchArgs;
use super::search_config::{SearchFormat, solver_of};
use super::search_report::Reporter;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use txverify_clients::report::collective_search::search_collective;
use txverify_clients::report::network_search::{NetworkSearchEvent, search_network};
use txverify_clients::report::schedule_request::{
    ScheduleSearchArgs, ScheduleSearchRequest, SearchOption,
};
use txverify_core::network::NetworkName;
use txverify_search::schedule::{ScheduleEvent, Stopped};
use txverify_search::{SearchOptions, seconds::Seconds};

/// `search --network`.
pub(super) fn run(args: &SearchArgs, network: NetworkName) -> Exit {
    let request = match request_of(args, network) {
        Ok(r) => r,
        Err(message) => return failure(&message, Exit::Input),
    };
    let quiet = super::global::quiet();
    let report = match request {
        ScheduleSearchRequest::TotalExchange(request) => {
            let mut reporter = Reporter::new(quiet);
            let mut hear = |event: NetworkSearchEvent<'_>| show(&mut reporter, quiet, event);
            let result = search_network(&request, &mut hear);
            reporter.finish();
            match result {
                Ok(r) => r,
                Err(e) => return failure(&e.failure.message, e.failure.status.into()),
            }
        }
        ScheduleSearchRequest::Collective(request) => {
            let mut progress = |t: usize| {
                if !quiet {
                    eprintln!("search: trying T={t}");
                }
            };
            match search_collective(&request, &mut progress) {
                Ok(r) => r,
                Err(f) => return failure(&f.message, f.status.into()),
            }
        }
    };
    if args.format == SearchFormat::Json {
        outln!("{}", report.json());
    } else {
        out!("{}", report.text());
    }
    Exit::from(report.status())
}

/// The arguments translated for the library, which checks them.
fn request_of(args: &SearchArgs, network: NetworkName) -> Result<ScheduleSearchRequest, String> {
    use SearchOption as O;
    let table_only = [
        (!args.symmetry.is_empty(), O::Symmetry),
        (args.break_symmetry, O::BreakSymmetry),
        (args.free_tail.is_some(), O::FreeTail),
        (!args.split_along.is_empty(), O::SplitAlong),
        (args.cubes.is_some(), O::Cubes),
        (args.merge.is_some(), O::Merge),
        (args.model.is_some(), O::Model),
        (args.dimacs.is_some(), O::Dimacs),
        (args.solver_cmd.is_some(), O::SolverCmd),
        (args.format == SearchFormat::Html, O::FormatHtml),
    ];
    let raw = ScheduleSearchArgs {
        words: network.to_string(),
        network,
        collective: args.collective.clone(),
        chunks: args.chunks.clone(),
        root: None,
        ports: args.ports.clone(),
        solver: solver_of(args)?,
        time: args.time,
        max_time: args.max_time,
        max_variables: Some(args.max_variables),
        time_limit: args.time_limit.map(Seconds::as_secs_f64),
        deadline: args.deadline.map(Seconds::as_secs_f64),
        output: args.output.clone(),
        certificate: args.certificate.clone(),
        heuristic: args.heuristic,
        descending: args.descending,
        ascending: args.ascending,
        any_length: args.any_length,
        no_lp: args.no_lp,
        slack: args.slack as u64,
        others: table_only.iter().filter(|o| o.0).map(|o| o.1).collect(),
        // A signal stops the SAT search, which reports the best found; the
        // heuristic alone is not interrupted: there a signal ends it at once.
        interrupt: interrupt_if(!args.heuristic),
        // The report is printed, the schedule only written: it may stream.
        keep_schedule: false,
        names: SearchOption::flag,
    };
    ScheduleSearchRequest::try_from(raw).map_err(|e| e.to_string())
}

/// `options` with the flag of [`interrupt_if`] as its stop when `wanted`.
pub(super) fn stoppable(options: &SearchOptions, wanted: bool) -> SearchOptions {
    let mut options = options.clone();
    options.stop = interrupt_if(wanted).or(options.stop);
    options
}

/// The flag SIGINT and SIGTERM set when `wanted`: the search polls it, stops, and
/// reports the best schedule found. A second signal, once the flag is set, ends the
/// process at once (status 130), for a search that does not stop soon enough.
/// None, with a warning, when the handlers cannot be installed.
pub(super) fn interrupt_if(wanted: bool) -> Option<Arc<AtomicBool>> {
    use signal_hook::{consts::SIGINT, consts::SIGTERM, flag};
    let (stop, status) = (Arc::new(AtomicBool::new(false)), Exit::Interrupted.code());
    for signal in [SIGINT, SIGTERM].into_iter().filter(|_| wanted) {
        // The exit first: it looks at the flag before this signal sets it.
        let installed = flag::register_conditional_shutdown(signal, status.into(), stop.clone())
            .and_then(|_| flag::register(signal, stop.clone()));
        if let Err(e) = installed {
            eprintln!("warning: SIGINT and SIGTERM will end the search at once: {e}");
            return None;
        }
    }
    wanted.then_some(stop)
}

/// Shows the search's progress on standard error, as the table search does.
fn show(reporter: &mut Reporter, quiet: bool, event: NetworkSearchEvent<'_>) {
    match event {
        NetworkSearchEvent::Kept {
            time,
            found_by,
            written,
        } if !quiet => {
            let written =
                written.map_or(String::new(), |p| format!(", written to {}", p.display()));
            reporter.say(&format!(
                "best: {time} steps (found by {found_by}){written}"
            ));
        }
        NetworkSearchEvent::Kept { .. } => {}
        NetworkSearchEvent::Search {
            event,
            best,
            bound,
            elapsed,
        } => {
            let best = best.map_or("none".to_string(), |b| b.to_string());
            let so_far = format!(
                "; best {best}, bound {bound}, {:.1} s in all",
                elapsed.as_secs_f64()
            );
            let (text, done) = match event {
                ScheduleEvent::Encoding { time } => (format!("T={time} encoding"), false),
                ScheduleEvent::Solving {
                    time,
                    variables,
                    clauses,
                    learned,
                    elapsed,
                } => (
                    format!(
                        "T={time} solving: {variables} vars, {clauses} clauses, {learned} learned, {:.1} s",
                        elapsed.as_secs_f64()
                    ),
                    false,
                ),
                ScheduleEvent::Found { time, .. } => (format!("T={time} satisfiable"), true),
                ScheduleEvent::Refuted { time } => (format!("T={time} refuted"), true),
                ScheduleEvent::Unknown { time, stopped } => {
                    let why = match stopped {
                        Some(Stopped::Deadline) => "stopped by the deadline",
                        Some(Stopped::Requested) => "stopped by a signal",
                        None => "the limit ran out",
                    };
                    (format!("T={time} unknown: {why}"), true)
                }
            };
            reporter.show_text(format!("{text}{so_far}"), done);
        }
    }
}

/// An error, on standard error (with `--format json`, the binary writes the
/// error object: `failure_object`).
fn failure(message: &str, exit: Exit) -> Exit {
    errorln!("{message}");
    exit
}
