//! The types a search is driven by and answers with: options, outcomes,
//! progress reports and errors.
//!
//! They live apart from the search itself so that every part of it (the
//! encoder, the portfolio's helper, certificates) can name them without
//! importing back from `search/mod.rs`: dependencies inside `search/` point one
//! way, from the driver down to these types.

use super::encode::{EncodeError, EncodingOptions, EncodingStats, WordLengths};
use super::solver::SolverError;
use crate::kernel::{Table, Violation};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// What the formula encodes (word lengths, symmetry restrictions).
    pub encoding: EncodingOptions,
    /// Give up on one `T` after this long (the outcome is then [`Outcome::Unknown`]).
    pub time_limit: Option<Duration>,
    /// Give up when this flag is set.
    pub stop: Option<Arc<AtomicBool>>,
    /// Solver threads: with 2 or more, a helper on a second thread takes turns on
    /// symmetric restrictions and a shuffled copy of the formula (see
    /// [`portfolio`]) while the main solver runs; 0 and 1 mean the main solver alone.
    pub jobs: usize,
    /// Write a certificate for every infeasible `T` into this directory
    /// (`solve` writes into it directly; `minimise` into `T<time>/` below it).
    pub certificate_dir: Option<PathBuf>,
    /// Write the formula as DIMACS to this file (`minimise`: `<file>.T<time>`)
    /// instead of solving it.
    pub dimacs_only: Option<PathBuf>,
    /// The SAT solver.
    pub solver: SolverChoice,
}

/// Which SAT solver runs the formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverChoice {
    /// varisat, built in, writes DRAT proofs.
    #[default]
    Varisat,
    /// CaDiCaL (cargo feature `cadical`); no proofs: when a certificate is
    /// asked for, an unsatisfiable answer is re-derived with varisat.
    Cadical,
    /// z3 (cargo feature `z3`, links the system's libz3); no proofs either:
    /// certificates are re-derived with varisat as for CaDiCaL.
    Z3,
}

impl SolverChoice {
    /// Whether this build has the solver.
    pub fn available(self) -> bool {
        match self {
            SolverChoice::Varisat => true,
            SolverChoice::Cadical => cfg!(feature = "cadical"),
            SolverChoice::Z3 => cfg!(feature = "z3"),
        }
    }
}

/// Why `T` columns are not enough.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Infeasibility {
    /// The number of columns.
    pub time: usize,
    /// The class of tables the answer speaks about, in words.
    pub claim: String,
    /// Whether that class is every table with these word lengths (no symmetry restriction).
    pub covers_all_tables: bool,
    /// Where the certificate was written, if one was asked for.
    pub certificate: Option<PathBuf>,
}

/// What one search for a table with `T` columns found.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A table with at most `T` columns, accepted by the kernel, and who found it.
    Found(Table, FoundBy),
    /// No table of the searched class has `T` columns.
    Infeasible(Infeasibility),
    /// The limit ran out, or only a DIMACS file was written.
    Unknown,
}

/// Which solver run found a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// The main solver, on the formula asked for.
    Main,
    /// The portfolio's helper, on the formula described.
    Helper(String),
}

/// Where a search is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Building the formula.
    Encoding,
    /// The solver is running.
    Solving,
    /// This `T` is settled.
    Done,
}

/// A progress report.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Progress {
    /// The number of columns being tried.
    pub time: usize,
    /// What is happening.
    pub phase: Phase,
    /// Size of the formula (zero while encoding).
    pub stats: EncodingStats,
    /// Clauses the solver has learned so far (about one per conflict).
    pub learned: u64,
    /// What the portfolio's helper is doing, when there is one and the main solver runs.
    pub helper: Option<HelperActivity>,
    /// Time spent on this `T`.
    pub elapsed: Duration,
}

/// Why a search failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The formula could not be built.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The solver failed.
    #[error("solver error: {0}")]
    Solver(#[from] SolverError),
    /// The solver's model did not decode to a table, or the kernel rejected it.
    #[error("internal error: the search produced a table the kernel rejects ({0:?})")]
    KernelRejected(Vec<Violation>),
    /// The model did not decode to a table.
    #[error("internal error: the solver's model does not describe a table")]
    Undecodable,
    /// The main solver refuted the formula while the helper found a table the
    /// kernel accepts: the encoding misses tables (or a solver is wrong).
    #[error(
        "internal error: the formula was refuted, but the helper found a valid table with {0} columns"
    )]
    Contradiction(usize),
    /// Files could not be written.
    #[error("cannot write {path}: {error}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The link set is defective, so there is no lower bound to start from.
    #[error("the link set is defective; the kernel reports why")]
    NoBound,
}

/// The class of tables a formula speaks about, in words.
pub fn claim(time: usize, options: &EncodingOptions) -> String {
    let words = match options.lengths {
        WordLengths::Shortest => "whose words are all shortest paths".to_string(),
        WordLengths::Slack(k) => {
            format!("whose words are at most {k} letters longer than shortest paths")
        }
        WordLengths::Any => "with words of any length".to_string(),
    };
    let mut restrictions = Vec::new();
    if let Some(p) = &options.automorphism {
        restrictions.push(format!(
            "invariant under the link automorphism {p:?} (on its full-length orbits of messages)"
        ));
    }
    if options.time_reversal {
        restrictions.push(
            "equal to its time reversal (on the messages that are not involutions)".to_string(),
        );
    }
    if !options.split.is_empty() {
        restrictions.push(format!(
            "made of {} repeated blocks split along the links {:?} (docs/search.md)",
            1usize << options.split.len(),
            options.split
        ));
    }
    let mut text = format!("no valid table with {time} columns {words}");
    if !restrictions.is_empty() {
        text.push_str(" that is ");
        text.push_str(&restrictions.join(" and "));
    }
    text
}

/// What the helper is doing, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "on")]
pub enum HelperActivity {
    /// Building its first formula.
    Starting,
    /// A turn on the `index`-th (from 1) of the `open` restrictions still open.
    Restriction {
        /// Which one.
        index: usize,
        /// How many are open.
        open: usize,
        /// The length of this turn, in milliseconds (`None`: up to the limit).
        turn_ms: Option<u64>,
    },
    /// The shuffled copy of the full formula.
    ShuffledCopy,
}
