//! `txverify search --format html`: the search's log and the table found as one page.

use super::SearchArgs;
use super::exit::Exit;
use super::search_report::{Reporter, found_by_text, search_failure};
use txverify_clients::report::html::PageOptions;
use txverify_clients::report::search_html::{SearchLog, search_page};
use txverify_core::load::Loaded;
use txverify_search::{self as search, Outcome, SearchOptions};

/// Runs the search the arguments ask for and writes its page (to `-o` or
/// standard output); the exit status is the one the text report would give.
pub(super) fn run(
    args: &SearchArgs,
    source: &str,
    loaded: &Loaded,
    options: &SearchOptions,
) -> Exit {
    let instance = &loaded.instance;
    let mut reporter = Reporter::new(super::global::quiet());
    let result = match args.time {
        Some(time) => search::solve_reporting(instance, time, options, &mut |p| reporter.show(p))
            .map(|outcome| {
                let mut log = SearchLog {
                    fixed_time: true,
                    ..SearchLog::default()
                };
                match outcome {
                    Outcome::Found(table, by) => log.found = Some((table, found_by_text(&by))),
                    Outcome::Infeasible(i) => log.infeasible.push(i),
                    Outcome::Unknown => log.unknown.push(time),
                }
                log
            }),
        None => search::minimise_tried(instance, options, args.max_time, &mut |p| reporter.show(p))
            .map(|tried| SearchLog {
                infeasible: tried.infeasible,
                unknown: tried.unknown,
                found: tried
                    .found
                    .map(|(table, _, by)| (table, found_by_text(&by))),
                fixed_time: false,
            }),
    };
    reporter.finish();
    let log = match result {
        Ok(log) => log,
        Err(e) => return search_failure(args, &e.to_string(), Exit::of_search_error(&e)),
    };
    let exit = match (&log.found, log.unknown.is_empty()) {
        (Some(_), _) => Exit::Ok,
        (None, true) => Exit::Rejected,
        (None, false) => Exit::Limit,
    };
    let shown = args.shown_file();
    let page = search_page(&shown, source, loaded, &log, &PageOptions::default());
    match &args.output {
        Some(out) => {
            if let Err(e) = std::fs::write(out, &page) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return Exit::Input;
            }
            if !super::global::quiet() {
                let what = match &log.found {
                    Some(_) => "table found",
                    None => "no table found",
                };
                eprintln!(
                    "{shown}: {what}; wrote {} ({} bytes)",
                    out.display(),
                    page.len()
                );
            }
        }
        None => out!("{page}"),
    }
    exit
}
