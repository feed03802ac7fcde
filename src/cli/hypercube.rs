//! `txverify hypercube PROBLEM D`: an optimal all-port collective on the d-cube
//! (seed paper of Bertsekas et al.), built as a schedule, replayed by the
//! schedule simulator and compared with lower bounds computed from the network.
//!
//! The command passes its arguments to [`txverify_clients::hypercube::report::run`],
//! which builds, replays, judges and reports; it prints the report and exits
//! with the report's status.

use super::exit::Exit;
use super::{HypercubeArgs, OutputFormat};
use txverify_clients::hypercube::report::{HypercubeRequest, run as run_hypercube};

pub fn run(args: &HypercubeArgs) -> Exit {
    let request = HypercubeRequest {
        problem: &args.problem,
        dimension: args.dimension,
        root: args.root,
        output: args.output.as_deref(),
        max_memory: args.max_memory,
    };
    match run_hypercube(&request) {
        Ok(report) => {
            match args.format {
                OutputFormat::Json => outln!("{}", report.json()),
                OutputFormat::Text => out!("{}", report.text()),
            }
            Exit::from(report.status())
        }
        Err(failure) => {
            errorln!(
                "hypercube {} {}: {}",
                args.problem,
                args.dimension,
                failure.message
            );
            if args.format == OutputFormat::Json {
                outln!("{}", failure.json(&request));
            }
            Exit::from(failure.status)
        }
    }
}
