//! `txverify search --format html`: the search's log and the table found as one page.

use super::exit::Exit;
use super::search_args::SearchArgs;
use super::search_report::found_by_text;
use txverify_clients::report::html::PageOptions;
use txverify_clients::report::search::Tried;
use txverify_clients::report::search_html::{SearchLog, search_page};
use txverify_core::load::Loaded;

/// Writes the page of a search the arguments asked for (to `-o` or standard
/// output); the exit status is the one the text report would give.
pub(super) fn write(args: &SearchArgs, source: &str, loaded: &Loaded, tried: Tried) -> Exit {
    let exit = Exit::from(tried.status(false));
    let log = SearchLog {
        found: (tried.found).map(|(table, by)| (table, found_by_text(&by))),
        infeasible: tried.infeasible,
        unknown: tried.unknown,
        fixed_time: args.time.is_some(),
    };
    let shown = args.shown_file();
    let page = search_page(&shown, source, loaded, &log, &PageOptions::default());
    match &args.output {
        Some(out) => {
            if let Err(e) = std::fs::write(out, &page) {
                errorln!("cannot write {}: {e}", out.display());
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
