//! `txverify gen`: print a published construction, after the kernel (and the
//! simulator) have accepted it.
//!
//! Making, checking, writing and reporting it are the library's
//! ([`txverify_clients::construct::report`]); this file prints the report.

use super::exit::Exit;
use super::{GenArgs, GroupArg, OutputFormat};
use txverify_clients::construct::GroupChoice;
use txverify_clients::construct::report::{GEN_SCHEMA, GenRequest, gen_construction};

pub fn run(args: &GenArgs) -> Exit {
    let request = GenRequest {
        family: args.family.clone(),
        size: args.size,
        more_sizes: args.more_sizes.clone(),
        group: group(args),
        simulate: !args.no_simulate,
        output: args.output.clone(),
    };
    let report = match gen_construction(&request) {
        Ok(report) => report,
        Err(failure) => {
            eprint!("{}", failure.stderr_text());
            return json_failure(args, &failure.message, failure.status.into());
        }
    };
    if args.format == OutputFormat::Json {
        outln!("{}", report.json());
        return report.status().into();
    }
    if let Some(table) = report.table() {
        out!("{table}");
    }
    if !super::global::quiet() {
        eprintln!("{}", report.summary());
    }
    report.status().into()
}

fn group(args: &GenArgs) -> GroupChoice {
    match args.group {
        GroupArg::Default => GroupChoice::Default,
        GroupArg::Cyclic => GroupChoice::Cyclic,
        GroupArg::Dihedral => GroupChoice::Dihedral,
    }
}

/// In JSON, the object of a failure; returns `exit`.
fn json_failure(args: &GenArgs, message: &str, exit: Exit) -> Exit {
    if args.format == OutputFormat::Json {
        let value = serde_json::json!({
            "schema": GEN_SCHEMA,
            "family": args.family,
            "size": args.size,
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}
