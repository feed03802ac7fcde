//! Cube-and-conquer beyond one machine: rank 0 of an MPI job owns the formula
//! and a queue of cubes, and hands them out one at a time to the workers that
//! ask (dynamic load balancing); a cube that runs past its budget comes back
//! unknown and is split again.
//!
//! Nothing a worker says is taken on trust: rank 0 checks every model with
//! the kernel and every proof with the proof checker ([`root`]), and writes
//! the same cube certificate as a single-machine run. The protocol
//! ([`protocol`]), the queue ([`queue`]) and the child process that solves one
//! cube ([`task`]) need no MPI and are tested without it, as does the walk
//! over the numbers of columns of a minimising run ([`walk`]); only
//! the transport of txverify-native (its cargo feature `mpi`) talks to MPI, so that
//! turning MPI on rebuilds neither this crate nor its users. See docs/cluster.md.

pub mod protocol;
pub mod queue;
pub mod root;
pub mod task;
pub mod walk;

pub use root::{CUBES_PER_WORKER, ClusterOptions, ClusterStats};
pub use walk::{CubeRound, Plan, Walked};

use super::options::SearchError;

/// Why a cluster run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterError {
    /// This build has no MPI.
    #[error(
        "this build has no MPI: rebuild with `cargo build --release --features mpi` (docs/cluster.md)"
    )]
    NotBuilt,
    /// MPI could not be started (or was started twice).
    #[error("MPI could not be initialised (run under mpirun or srun)")]
    Init,
    /// The search failed on rank 0 (an encoding, a rejected model or proof, a file).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A worker reported that it cannot work.
    #[error("rank {rank}: {why}")]
    Worker {
        /// The worker's rank.
        rank: i32,
        /// What it said.
        why: String,
    },
    /// A message did not decode.
    #[error(transparent)]
    Protocol(#[from] protocol::ProtocolError),
    /// Every worker was given up on while cubes were left.
    #[error("every worker was lost before the cubes were solved")]
    NoWorkers,
}

impl ClusterError {
    /// Whether the failure is about the request or the environment (exit
    /// status 2) rather than a wrong answer or an internal fault.
    pub fn is_input(&self) -> bool {
        match self {
            ClusterError::NotBuilt | ClusterError::Init => true,
            ClusterError::Search(e) => e.is_io(),
            _ => false,
        }
    }
}
