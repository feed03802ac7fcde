//! `txverify search --network NET`: a total-exchange schedule on any network,
//! by SAT (the fewest steps, with certificates) or by the heuristic.
//!
//! The search, the check of what it found and the report are the
//! library's ([`txverify_clients::report::network_search`]); this file maps
//! the arguments to a request and prints the report.

use super::SearchArgs;
use super::exit::Exit;
use super::search_config::{SearchFormat, network_config_of};
use std::time::Duration;
use txverify_clients::report::network_search::{
    NetworkSearchRequest, SCHEDULE_SEARCH_SCHEMA, search_network,
};

/// `search --network NET`.
pub(super) fn run(args: &SearchArgs, words: &str) -> Exit {
    let config = match network_config_of(args, words) {
        Ok(c) => c,
        Err(message) => return failure(args, words, &message, Exit::Input),
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
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        certificate: args.certificate.clone(),
        descending: args.descending,
        output: args.output.clone(),
    };
    let quiet = super::global::quiet();
    let mut progress = |t: usize| {
        if !quiet {
            eprintln!("search: trying T={t} ({})", request.paths);
        }
    };
    match search_network(&request, &mut progress) {
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
