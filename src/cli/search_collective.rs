//! `txverify search --network NET --collective X [--chunks C] [--ports K]`:
//! the fastest schedule of a collective that copies or combines, by SAT, a
//! construction (`--heuristic`) or both (`--deadline S`). The search, the
//! check of what it found and the report are the library's
//! ([`txverify_clients::report::collective_search`]); this file maps the
//! arguments to the library's request (whose `try_from` holds every rule on
//! them) and prints the report.

use super::exit::Exit;
use super::search_args::SearchArgs;
use super::search_config::{SearchFormat, solver_of};
use txverify_clients::report::collective_search::{
    CollectiveSearchArgs, CollectiveSearchRequest, SearchOption, search_collective,
};
use txverify_core::network::NetworkName;
use txverify_search::seconds::Seconds;

/// `search --network NET --collective X`.
pub(super) fn run(args: &SearchArgs, network: NetworkName) -> Exit {
    let request = match request_of(args, network) {
        Ok(r) => r,
        Err(message) => return failure(args, &message, Exit::Input),
    };
    let quiet = super::global::quiet();
    let mut progress = |t: usize| {
        if !quiet {
            eprintln!("search: trying T={t}");
        }
    };
    match search_collective(&request, &mut progress) {
        Ok(report) => {
            if args.format == SearchFormat::Json {
                outln!("{}", report.json());
            } else {
                out!("{}", report.text());
            }
            Exit::from(report.status())
        }
        Err(f) => failure(args, &f.message, f.status.into()),
    }
}

fn request_of(args: &SearchArgs, network: NetworkName) -> Result<CollectiveSearchRequest, String> {
    use SearchOption as O;
    let others = [
        (args.descending, O::Descending),
        (args.any_length, O::AnyLength),
        (args.slack > 0, O::Slack),
        (!args.symmetry.is_empty(), O::Symmetry),
        (args.break_symmetry, O::BreakSymmetry),
        (args.cubes.is_some(), O::Cubes),
        (args.dimacs.is_some(), O::Dimacs),
        (args.model.is_some(), O::Model),
        (args.merge.is_some(), O::Merge),
        (args.solver_cmd.is_some(), O::SolverCmd),
        (args.format == SearchFormat::Html, O::FormatHtml),
    ];
    let raw = CollectiveSearchArgs {
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
        others: others
            .iter()
            .filter(|(given, _)| *given)
            .map(|o| o.1)
            .collect(),
        // A signal stops the anytime search, which reports the best found.
        interrupt: super::search_network::interrupt_if(args.deadline.is_some()),
        names: SearchOption::flag,
    };
    CollectiveSearchRequest::try_from(raw).map_err(|e| e.to_string())
}

/// An error, on standard error (with `--format json`, the binary writes the
/// error object: `failure_object`).
fn failure(_args: &SearchArgs, message: &str, exit: Exit) -> Exit {
    errorln!("{message}");
    exit
}
