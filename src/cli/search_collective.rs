//! `txverify search --network NET --collective X [--chunks C] [--ports K]`:
//! the fastest schedule of a collective that copies or combines, by SAT, a
//! construction (`--heuristic`) or both (`--deadline S`). The search, the
//! check of what it found and the report are the library's
//! ([`txverify_clients::report::collective_search`]); this file maps the
//! arguments to a request and prints the report.

use super::exit::Exit;
use super::search_args::SearchArgs;
use super::search_config::{SearchFormat, solver_of};
use txverify_clients::report::collective_search::{
    COLLECTIVE_SEARCH_SCHEMA, CollectiveSearchRequest, search_collective,
};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{Ports, parse_collective};
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
    let refused = [
        (args.descending, "--descending"),
        (args.any_length, "--any-length"),
        (args.slack > 0, "--slack"),
        (!args.symmetry.is_empty(), "--symmetry"),
        (args.break_symmetry, "--break-symmetry"),
        (args.cubes.is_some(), "--cubes"),
        (args.dimacs.is_some(), "--dimacs"),
        (args.model.is_some(), "--model"),
        (args.merge.is_some(), "--merge"),
        (args.solver_cmd.is_some(), "--solver-cmd"),
        (args.format == SearchFormat::Html, "--format html"),
    ];
    if let Some((_, name)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("{name} is not available with --collective yet"));
    }
    let words = args.collective.as_deref().unwrap_or_default();
    let collective = parse_collective(words, args.chunks.as_deref())
        .map_err(|e| format!("--collective `{words}`: {e}"))?;
    let ports = match &args.ports {
        Some(text) => text.parse::<Ports>().map_err(|e| format!("--ports: {e}"))?,
        None => Ports::All,
    };
    Ok(CollectiveSearchRequest {
        network,
        collective,
        ports,
        solver: solver_of(args)?,
        time: args.time,
        max_time: args.max_time,
        max_variables: args.max_variables,
        time_limit: args.time_limit.map(Seconds::duration),
        output: args.output.clone(),
        certificate: args.certificate.clone(),
        heuristic: args.heuristic,
        deadline: args.deadline.map(Seconds::duration),
        // A signal stops the anytime search, which reports the best found.
        interrupt: args
            .deadline
            .and_then(|_| super::search_network::install_interrupt().ok()),
    })
}

/// An error, on standard error and, with `--format json`, as a report.
fn failure(args: &SearchArgs, message: &str, exit: Exit) -> Exit {
    eprintln!("error: {message}");
    if args.format == SearchFormat::Json {
        let value = serde_json::json!({
            "schema": COLLECTIVE_SEARCH_SCHEMA,
            "collective": args.collective,
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}
