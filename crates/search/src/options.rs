//! What a search is asked to do, and how it can fail: the types every part of
//! `search` shares.
//!
//! They live here, below everything else in `search`, so that the encoder, the
//! symmetry and split restrictions, the solvers, the portfolio and the
//! certificates depend on this module and not on one another: no module of
//! `search` imports back from the module that uses it.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use txverify_core::kernel::Violation;

/// Which words a table may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "extra")]
pub enum WordLengths {
    /// Shortest paths only.
    #[default]
    Shortest,
    /// Words up to this many letters longer than the distance.
    Slack(usize),
    /// Any walk that fits in the table.
    Any,
}

/// What the formula encodes, beyond the instance and `T`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncodingOptions {
    /// Allowed word lengths.
    pub lengths: WordLengths,
    /// Restrict to tables invariant under this permutation of the links (by
    /// index), which must extend to an automorphism φ of the group: the word of
    /// φ(e) is φ(word of e), in the same columns, for every message whose orbit
    /// under φ has as many elements as φ's order (the messages of shorter orbits
    /// are left free: a power of φ fixing e would have to fix e's word).
    pub automorphism: Option<Vec<u16>>,
    /// With `automorphism`: the invariance is asked for only outside the last
    /// `tail` columns. The messages of short orbits, and whole orbits the solver
    /// picks, lie inside those columns and are free there (0: no tail). This is
    /// the shape of the published torus constructions: a symmetric table with a
    /// block of special words at one end ("The free tail" in docs/search.md).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tail: usize,
    /// Restrict to tables equal to their time reversal (words reversed and
    /// inverted, columns mirrored).
    pub time_reversal: bool,
    /// Restrict to tables that repeat one pattern in `2^k` blocks of columns,
    /// split along these `k` links (by index; see [`super::split`]). Empty: no split.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<u16>,
    /// Leave out the redundant constraints (full-table cells, letter counts).
    pub no_redundant: bool,
    /// Redundant: every cell of a *filled link* is used, a link whose letters
    /// the messages fix (every allowed word of a message has as many of them)
    /// and total `T` — the cube links of a cube-connected cycles network at its
    /// bound. Implied by the other clauses (the letters are `T`, at most one a
    /// column). Recorded in certificates only when on, so the certificates
    /// written before it regenerate without it; the command line turns it on
    /// with the other redundant constraints.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub filled_links: bool,
    /// Redundant counting near the bound: at most `σ` cells of the table are
    /// empty (σ = capacity − Σ d(e), all-port), and at most `T − m_s` cells of
    /// link `s` (m_s = Σ over messages of the fewest `s`-letters of their
    /// allowed words), each added when its slack is at most
    /// [`super::encode::EMPTY_CELL_SLACK_LIMIT`] (see
    /// `encode::empty_cell_clauses` for why every table satisfies them).
    /// Recorded in certificates only when on, as `filled_links`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty_cells: bool,
    /// Redundant word choice near a link's bound: at most `T − m_s` messages
    /// use more `s`-letters than the fewest their allowed words have (none
    /// when `m_s = T`), for each link whose slack is at most
    /// [`super::encode::EMPTY_CELL_SLACK_LIMIT`] (see
    /// `encode::excess_letter_clauses`). Recorded only when on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub excess_letters: bool,
    /// Redundant letter floors near the bound: at least `T − σ` letters of
    /// each link whose count the messages do not fix, when the table's slack
    /// `σ = |S|·T − Σ d(e)` is at most
    /// [`super::encode::EMPTY_CELL_SLACK_LIMIT`] (all-port; see
    /// `encode::counting::letter_floor` for why every table satisfies it).
    /// Recorded only when on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub letter_floors: bool,
    /// Redundant, with `empty_cells` and `excess_letters`: the empty cells of a
    /// link and its messages with excess letters, at most `T − m_s` together
    /// (see `encode::counting::joint_count_clauses`). Recorded only when on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub joint_counts: bool,
    /// Lex-leader symmetry-breaking constraints (see [`super::breaking`]): unlike
    /// the restrictions above, they keep at least one table of every orbit, so an
    /// unsatisfiable formula still speaks about every table of the length class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_symmetry: Option<SymmetryBreaking>,
}

/// The symmetries whose lex-leader constraints are added, as recorded in a
/// certificate: the encoder (and so `verify-proof`) re-derives each map from
/// the instance and checks it is a symmetry of the tables before using it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymmetryBreaking {
    /// The maps, each applied to the table as a whole.
    pub maps: Vec<BreakingMap>,
    /// Compare at most this many variable pairs per map (0: all of them).
    /// A prefix of a lexicographic comparison is implied by the whole one.
    #[serde(default)]
    pub prefix: usize,
}

/// One symmetry of the tables: a link permutation that extends to an
/// automorphism of (G, S), optionally followed by the time reversal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakingMap {
    /// The image of every link (by index); the identity for the time reversal alone.
    pub links: Vec<u16>,
    /// Whether the time reversal follows the automorphism.
    pub reverses_time: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl EncodingOptions {
    /// The options of a plain search for `lengths`: every redundant
    /// constraint on (the filled links, the empty-cell counts, the excess
    /// letters, the letter floors and the joint counts included),
    /// or none with `no_redundant`.
    pub fn with_redundant(lengths: WordLengths, no_redundant: bool) -> EncodingOptions {
        EncodingOptions {
            lengths,
            no_redundant,
            filled_links: !no_redundant,
            empty_cells: !no_redundant,
            excess_letters: !no_redundant,
            letter_floors: !no_redundant,
            joint_counts: !no_redundant,
            ..EncodingOptions::default()
        }
    }

    /// Whether the class has no symmetry restriction: an unsatisfiable formula
    /// then says something about every table *with these word lengths*.
    pub fn unrestricted(&self) -> bool {
        self.automorphism.is_none() && !self.time_reversal && self.split.is_empty()
    }

    /// Whether an unsatisfiable formula says something about *every* table:
    /// words of any length (`--any-length`) and no symmetry restriction
    /// (docs/trust.md, "Which class C a certificate speaks about").
    pub fn covers_all_tables(&self) -> bool {
        self.unrestricted() && self.lengths == WordLengths::Any
    }
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
        restrictions.push(if options.tail == 0 {
            format!(
                "invariant under the link automorphism {p:?} (on its full-length orbits of messages)"
            )
        } else {
            format!(
                "invariant under the link automorphism {p:?} outside a free tail of the last {} columns, which holds its short orbits of messages",
                options.tail
            )
        });
    }
    if options.time_reversal {
        restrictions.push(
            "equal to its time reversal (on the messages that are not involutions)".to_string(),
        );
    }
    let breaking = options
        .break_symmetry
        .as_ref()
        .map(|b| {
            format!(
                " (the formula holds lex-leader constraints for {} symmetries, which keep one table of every orbit: the claim is unchanged)",
                b.maps.len()
            )
        })
        .unwrap_or_default();
    if !options.split.is_empty() {
        restrictions.push(format!(
            "made of repeated blocks of columns, split along the direct factor that the links {:?} generate (docs/search.md)",
            options.split
        ));
    }
    let mut text = format!("no valid table with {time} columns {words}");
    if !restrictions.is_empty() {
        text.push_str(" that is ");
        text.push_str(&restrictions.join(" and "));
    }
    text.push_str(&breaking);
    text
}

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// What the formula encodes (word lengths, symmetry restrictions).
    pub encoding: EncodingOptions,
    /// Give up on one `T` after this long (the outcome is then
    /// [`Outcome::Unknown`](super::Outcome::Unknown)).
    pub time_limit: Option<Duration>,
    /// Give up when this flag is set.
    pub stop: Option<Arc<AtomicBool>>,
    /// Solver threads: with 2 or more, a helper on a second thread takes turns on
    /// symmetric restrictions and a shuffled copy of the formula (see
    /// [`super::portfolio`]) while the main solver runs; 0 and 1 mean the main solver alone.
    pub jobs: usize,
    /// Write a certificate for every infeasible `T` into this directory
    /// (`solve` writes into it directly; `minimise` into `T<time>/` below it).
    pub certificate_dir: Option<PathBuf>,
    /// Write the formula as DIMACS to this file (`minimise`: `<file>.T<time>`)
    /// instead of solving it.
    pub dimacs_only: Option<PathBuf>,
    /// The SAT solver.
    pub solver: SolverChoice,
    /// The command of [`SolverChoice::External`] (`{cnf}` stands for the formula's path).
    pub external_command: Option<String>,
}

/// Which SAT solver runs the formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverChoice {
    /// varisat, built in, writes DRAT proofs.
    #[default]
    Varisat,
    /// CaDiCaL (cargo feature `cadical`); writes LRAT proofs when a
    /// certificate is asked for.
    Cadical,
    /// z3 (cargo feature `z3`, links the system's libz3); no proofs: when a
    /// certificate is asked for, an unsatisfiable answer is re-derived with varisat.
    Z3,
    /// Any solver run as a command ([`SearchOptions::external_command`],
    /// `super::external`); its unsatisfiable answers are its word only, and
    /// certificates are re-derived with varisat.
    External,
}

/// Why an encoding cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The link set is defective (the kernel reports how).
    #[error("the link set does not define a connected undirected network")]
    DefectiveLinks,
    /// The link permutation asked for does not extend to an automorphism.
    #[error("the link permutation does not extend to an automorphism of the group")]
    NotAnAutomorphism,
    /// The automorphism asked for does not map the message set onto itself.
    #[error("the automorphism does not map the message set onto itself")]
    AutomorphismMovesMessages,
    /// The time reversal was asked for, but the message set is not closed under inverses.
    #[error("the message set is not closed under inverses")]
    MessagesNotInverseClosed,
    /// The split asked for is not along links that generate a direct factor,
    /// or the columns do not divide into the blocks.
    #[error(
        "the table cannot split along links {0:?}: they must generate a direct factor F (commuting with every other link), with |F| dividing the number of columns and the messages closed under F"
    )]
    Split(Vec<u16>),
    /// A free tail was asked for without an automorphism, or wider than the table.
    #[error(
        "a free tail of {tail} columns needs an automorphism restriction and at most {time} columns"
    )]
    Tail {
        /// The tail asked for.
        tail: usize,
        /// The columns of the table.
        time: usize,
    },
    /// Symmetry breaking was asked for together with a restriction (the
    /// restrictions are not closed under every symmetry the breaking uses).
    #[error("symmetry breaking cannot be combined with a symmetry restriction or a split")]
    BreakingWithRestriction,
    /// A map of the symmetry breaking is not a symmetry of the tables.
    #[error("symmetry breaking: map {index} is not a symmetry of the tables ({why})")]
    NotASymmetry {
        /// Which map (from 0).
        index: usize,
        /// Why.
        why: &'static str,
    },
}

/// Why a SAT solver run failed (giving up at a limit is not a failure).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolverError {
    /// varisat failed (other than by being stopped).
    #[error(transparent)]
    Varisat(#[from] varisat::solver::SolverError),
    /// The solver asked for is not compiled into this build.
    #[error("this build has no {name} (cargo feature `{feature}`)")]
    NotBuilt {
        /// The solver's name.
        name: &'static str,
        /// The cargo feature that adds it.
        feature: &'static str,
    },
    /// A thread running a solver could not be started.
    #[error("cannot start {name}'s thread: {source}")]
    Thread {
        /// The solver's name.
        name: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// A thread running a solver panicked.
    #[error("{name} thread panicked")]
    Panicked {
        /// The thread, as named in the message (`"z3's"`, `"the helper"`).
        name: &'static str,
    },
    /// The solver said satisfiable but gave no model.
    #[error("{solver} said sat but gave no model")]
    NoModel {
        /// The solver's name.
        solver: &'static str,
    },
    /// The solver's model leaves a variable without a value.
    #[error("{solver}'s model has no value for a variable")]
    IncompleteModel {
        /// The solver's name.
        solver: &'static str,
    },
    /// The solver gave up for a reason of its own.
    #[error("{solver} gave up: {reason}")]
    GaveUp {
        /// The solver's name.
        solver: &'static str,
        /// The reason it gave.
        reason: String,
    },
    /// The solver could not open its proof file.
    #[error("cannot write the proof to {}", path.display())]
    ProofFile {
        /// The proof's path.
        path: std::path::PathBuf,
    },
    /// An external solver (`--solver external`) could not be run, or its output
    /// does not follow the conventions or gives a model that is not one.
    #[error("external solver: {problem}")]
    External {
        /// What is wrong, with the offending output.
        problem: String,
    },
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
    /// The kernel rejected the table the search produced.
    #[error("internal error: the search produced a table the kernel rejects ({0:?})")]
    KernelRejected(Vec<Violation>),
    /// The model did not decode to a table.
    #[error("internal error: the solver's model does not describe a table")]
    Undecodable,
    /// The main solver refuted the formula while the helper found a table the
    /// kernel accepts: the encoding misses tables (or a solver is wrong).
    #[error(
        "internal error: the formula was refuted, but the helper found a valid table with {time} columns"
    )]
    Contradiction {
        /// The number of columns.
        time: usize,
    },
    /// A solver that writes proofs (CaDiCaL, or an external solver with a
    /// proof place) said unsatisfiable, but the proof it wrote does not refute
    /// the formula (or is missing): its answer is not taken.
    #[error("the solver said unsatisfiable for T={time}, but its proof is rejected: {problem}")]
    ProofRejected {
        /// The number of columns.
        time: usize,
        /// Why the proof is rejected.
        problem: String,
    },
    /// A file or directory could not be written (an input/output error, not a
    /// fault of the search: see [`SearchError::is_io`]).
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A file could not be read (an input error, like [`SearchError::Io`]).
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The link set is defective, so there is no lower bound to start from.
    #[error("the link set is defective; the kernel reports why")]
    NoBound,
}

impl SearchError {
    /// Whether the failure is an input/output error ([`SearchError::Io`]: a file
    /// or directory that could not be written; [`SearchError::Read`]: a file
    /// that could not be read) rather than a bad request or an internal fault.
    pub fn is_io(&self) -> bool {
        matches!(self, SearchError::Io { .. } | SearchError::Read { .. })
    }

    /// An [`SearchError::Io`] for `path`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> SearchError {
        let path = path.into();
        move |source| SearchError::Io { path, source }
    }
}
