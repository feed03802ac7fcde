//! `txverify search --mpi`: cube-and-conquer as an MPI job (the library's
//! `search::cluster`), and the hidden `solve-cube` command its workers run as
//! their solver process.

use super::exit::Exit;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use txverify_core::kernel::Instance;
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
            eprintln!("error: {e}");
            ExitCode::from(Exit::Input)
        }
    }
}

/// The MPI run; rank 0 reports like `--cubes K` and other ranks print nothing.
#[cfg(feature = "mpi")]
pub(super) fn run(
    cluster: &ClusterOptions,
    time: usize,
    options: &SearchOptions,
    source: &str,
    instance: &Instance,
    output: Option<&Path>,
) -> Exit {
    use super::search_report::{describe, how_found, write_found};
    use txverify_search::Outcome;
    use txverify_search::cluster::transport;
    match transport::run(instance, time, options, cluster) {
        Ok(None) => Exit::Ok,
        Ok(Some((outcome, stats))) => {
            eprintln!("{}", stats.summary());
            let n = stats.made;
            match outcome {
                Outcome::Found(table, _) => {
                    eprintln!("found in one of {n} cubes");
                    let how = how_found(&format!("{} over MPI", proof_solver_name()));
                    write_found(source, instance, &table, output, &how)
                }
                Outcome::Infeasible(i) => {
                    eprintln!(
                        "infeasible {} (every cube refuted with a checked proof; {} leaves of {n} cubes)",
                        describe(&i),
                        n - stats.splits
                    );
                    Exit::Rejected
                }
                Outcome::Unknown => {
                    eprintln!("unknown T={time}: the limit ran out before the cubes were solved");
                    Exit::Limit
                }
            }
        }
        Err(e) => super::search_report::cube_run_failed(&e, e.is_input()),
    }
}

/// Without the `mpi` feature, `--mpi` is refused as a request this build cannot serve.
#[cfg(not(feature = "mpi"))]
pub(super) fn run(
    _cluster: &ClusterOptions,
    _time: usize,
    _options: &SearchOptions,
    _source: &str,
    _instance: &Instance,
    _output: Option<&Path>,
) -> Exit {
    eprintln!(
        "error: {}",
        txverify_search::cluster::ClusterError::NotBuilt
    );
    Exit::Input
}

/// The name of the solver the workers run (the one that writes proofs), as JSON spells it.
#[cfg(feature = "mpi")]
fn proof_solver_name() -> String {
    match serde_json::to_value(task::PROOF_SOLVER) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "a SAT solver".to_string(),
    }
}
