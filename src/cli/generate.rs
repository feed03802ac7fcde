//! `txverify gen`: print a published construction, after the kernel (and the
//! simulator) have accepted it.
//!
//! Making, checking, writing and reporting it are the library's
//! ([`txverify_clients::construct::report`]); this file prints the report.

use super::exit::Exit;
use super::{GenArgs, GroupArg, OutputFormat};
use txverify_clients::construct::GroupChoice;
use txverify_clients::construct::report::{GenRequest, gen_construction};

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
        // With `--format json`, the binary writes the error object (`failure_object`).
        Err(failure) => return super::output::failure(&failure, None),
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
