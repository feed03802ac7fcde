//! The parts of txverify that link a system library, each behind a cargo feature:
//! the z3 SAT backend (`z3`, libz3) and the MPI transport of the cluster search
//! (`mpi`, Open MPI). Neither is trusted: a z3 model is decoded and checked by the
//! kernel like any other, and rank 0 of an MPI run checks every answer it gets.

#[cfg(feature = "mpi")]
pub mod mpi_transport;
#[cfg(feature = "z3")]
pub mod z3_backend;

/// Installs the backends this build has into the search crate (`--solver z3`);
/// the binary calls it once at start-up, before any search.
pub fn install() {
    #[cfg(feature = "z3")]
    txverify_search::solver::install_z3(z3_backend::solve_z3);
}
