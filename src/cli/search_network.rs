//! `txverify search --network NET`: a total-exchange schedule on any network,
//! by SAT (the fewest steps, with certificates) or by the heuristic.
//!
//! The search, the check of what it found and the report are the
//! library's ([`txverify_clients::report::network_search`]); this file maps
//! the arguments to a request, installs the signal handlers that stop the
//! search, shows its progress and prints the report.

use super::exit::Exit;
use super::search_args::SearchArgs;
use super::search_config::{SearchFormat, network_config_of};
use super::search_report::Reporter;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use txverify_clients::report::network_search::{
    NetworkSearchEvent, NetworkSearchRequest, search_network,
};
use txverify_search::schedule::{ScheduleEvent, Stopped};
use txverify_search::seconds::Seconds;

/// `search --network`.
pub(super) fn run(args: &SearchArgs, words: &str) -> Exit {
    let config = match network_config_of(args, words) {
        Ok(c) => c,
        Err(message) => return failure(args, words, &message, Exit::Input),
    };
    // The heuristic alone is not interrupted: there a signal ends it at once.
    let interrupt = match (!config.heuristic).then(install_interrupt).transpose() {
        Ok(flag) => flag,
        Err(e) => {
            eprintln!("warning: SIGINT and SIGTERM will end the search at once: {e}");
            None
        }
    };
    let request = NetworkSearchRequest {
        network: config.network,
        words: words.to_string(),
        heuristic: config.heuristic,
        paths: config.paths,
        solver: config.solver,
        time: args.time,
        max_time: args.max_time,
        max_variables: args.max_variables,
        time_limit: args.time_limit.map(Seconds::duration),
        deadline: args.deadline.map(Seconds::duration),
        interrupt,
        certificate: args.certificate.clone(),
        descending: !args.ascending,
        output: args.output.clone(),
        lp: !args.no_lp,
        keep_schedule: false,
    };
    let mut reporter = Reporter::new(super::global::quiet());
    let quiet = super::global::quiet();
    let mut hear = |event: NetworkSearchEvent<'_>| show(&mut reporter, quiet, event);
    let result = search_network(&request, &mut hear);
    reporter.finish();
    match result {
        Ok(report) => {
            if args.format == SearchFormat::Json {
                outln!("{}", report.json());
            } else {
                out!("{}", report.text());
            }
            Exit::from(report.status())
        }
        Err(e) => failure(
            args,
            &e.network,
            &e.failure.message,
            e.failure.status.into(),
        ),
    }
}

/// The flag SIGINT and SIGTERM set: the search polls it, stops, and reports
/// the best schedule found. A second signal, once the flag is set, ends the
/// process at once (status 130), for a search that does not stop soon enough.
pub(super) fn install_interrupt() -> std::io::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = Arc::new(AtomicBool::new(false));
    let status = i32::from(Exit::Interrupted.code());
    for signal in [SIGINT, SIGTERM] {
        // The exit first: it looks at the flag before this signal sets it.
        signal_hook::flag::register_conditional_shutdown(signal, status, flag.clone())?;
        signal_hook::flag::register(signal, flag.clone())?;
    }
    Ok(flag)
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
fn failure(_args: &SearchArgs, _words: &str, message: &str, exit: Exit) -> Exit {
    errorln!("{message}");
    exit
}
