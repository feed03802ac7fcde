//! `txverify search --mpi`: cube-and-conquer as an MPI job (the library's
//! `search::cluster`), and the hidden `solve-cube` command its workers run as
//! their solver process.

use super::exit::Exit;
use super::search_args::SearchArgs;
#[cfg(feature = "mpi")]
use super::search_report::Reporter;
use super::search_report::search_failure;
use std::path::PathBuf;
use std::process::ExitCode;
use txverify_core::kernel::{Instance, Table};
use txverify_search::SearchOptions;
use txverify_search::cluster::{ClusterOptions, task};

/// `txverify solve-cube CNF PROOF`.
#[derive(clap::Args, Debug)]
pub struct SolveCubeArgs {
    /// The formula, in DIMACS.
    cnf: PathBuf,
    /// Where the proof of an unsatisfiable formula goes: `.lrat` for LRAT by
    /// the bundled CaDiCaL, any other name for DRAT by varisat.
    proof: PathBuf,
}

/// Solves the formula and prints the answer as a SAT solver does (the
/// statuses of [`super::exit::of_solver_answer`], or 2 on an error).
pub fn solve_cube(args: &SolveCubeArgs) -> ExitCode {
    match task::solve_cube_file(&args.cnf, &args.proof) {
        Ok(answer) => {
            let (text, _) = task::solver_output(&answer);
            print!("{text}");
            super::exit::of_solver_answer(&answer)
        }
        Err(e) => {
            errorln!("{e}");
            ExitCode::from(Exit::Input)
        }
    }
}

/// The MPI run: rank 0 shows each time's cubes as they end and reports like
/// the local search (text or JSON, with the cubes of each time); other ranks
/// print nothing. `plan` is `--time T`, or the file's table for `--descending`.
#[cfg(feature = "mpi")]
pub(super) fn run(
    args: &SearchArgs,
    cluster: &ClusterOptions,
    plan: (Option<usize>, Option<&Table>),
    options: &SearchOptions,
    source: &str,
    instance: &Instance,
) -> Exit {
    use txverify_clients::report::cluster;
    use txverify_native::mpi_transport as transport;
    use txverify_search::Outcome;
    use txverify_search::cluster::{ClusterStats, walk};
    let plan = match cluster::plan_of(instance, plan, args.max_time) {
        Ok(plan) => plan,
        Err(failure) => return search_failure(args, &failure.message, failure.status.into()),
    };
    let deadline = walk::deadline_in(args.deadline.map(|d| d.as_secs_f64()));
    let mut show = |time: usize, outcome: &Outcome, stats: &ClusterStats| {
        for line in cluster::round_lines(time, outcome, stats) {
            eprintln!("{line}");
        }
    };
    match transport::run(instance, options, cluster, &plan, deadline, &mut show) {
        Ok(None) => Exit::Ok,
        Ok(Some(walked)) => {
            if let Some(line) =
                cluster::deadline_line(&walked, args.deadline.map_or(0.0, |d| d.as_secs_f64()))
            {
                eprintln!("{line}");
            }
            let options = SearchOptions {
                solver: cluster::workers_solver(),
                ..options.clone()
            };
            let reporter = Reporter::new(true);
            let tried = cluster::tried_of(&walked);
            let cubes = Some(walked.rounds);
            super::search_report::report(
                args,
                &options,
                (source, instance),
                &tried,
                cubes,
                &reporter,
            )
        }
        Err(e) => super::search_report::cube_run_failed(&e, e.is_input()),
    }
}

/// Without the `mpi` feature, `--mpi` is refused as a request this build cannot serve.
#[cfg(not(feature = "mpi"))]
pub(super) fn run(
    args: &SearchArgs,
    _cluster: &ClusterOptions,
    _plan: (Option<usize>, Option<&Table>),
    _options: &SearchOptions,
    _source: &str,
    _instance: &Instance,
) -> Exit {
    let message = txverify_search::cluster::ClusterError::NotBuilt.to_string();
    search_failure(args, &message, Exit::Input)
}
