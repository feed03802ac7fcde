//! An independent checker for DRAT and LRAT proofs of unsatisfiability.
//!
//! This module shares no code with the encoder or the solvers: it takes the
//! clauses of a formula as plain integer lists and a proof as a stream of
//! bytes, and decides whether the proof refutes the formula.
//!
//! DRAT proofs are checked backwards, as drat-trim checks them
//! (`backward.rs`): the proof is read once into a flat arena (`store.rs`),
//! replayed forward at the top level to the conflict that ends it, then
//! walked back, checking only the lemmas that the conflict, or a lemma
//! checked before, used (the core): RUP by unit propagation over core clauses
//! first, with two watched literals per clause (`watch.rs`), and RAT on the
//! lemma's first literal when RUP fails. Lemmas may name extension variables,
//! above the formula's count. What deletions are honoured, and why that is
//! sound, is said in `backward.rs`.
//!
//! [`check_to_lrat`] also writes the core of the refutation as an LRAT proof,
//! RAT steps included, and [`check_lrat`] checks LRAT proofs, text or binary
//! (in `lrat.rs`, sharing nothing with the writer).

mod backward;
pub mod dimacs;
mod lex;
mod lrat;
mod parse;
mod store;
#[cfg(test)]
mod tests;
mod watch;

pub use backward::Progress;
pub use lex::Position;
pub use lrat::{check_lrat, check_lrat_reader};

use std::io::{BufRead, Read, Write};

/// The largest variable a proof may name: extension variables are allocated
/// on demand, and this keeps one malformed literal from allocating gigabytes.
const MAX_VARIABLE: usize = 1 << 24;

/// How far above the formula's variables a DRAT lemma may name new ones
/// (extended resolution introduces some; the checker's memory is per variable).
pub const EXTENSION_VARIABLES: usize = 1 << 20;

/// How the proof is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    /// Text DRAT: one clause per line ending in `0`, deletions prefixed by `d`.
    Text,
    /// Binary DRAT: `a`/`d` then variable-length literal codes `2v + sign`, then 0.
    Binary,
}

/// What the checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofReport {
    /// Lemmas of the proof up to the conflict that ends it.
    pub lemmas: usize,
    /// Of those, the lemmas the refutation uses, each checked.
    pub core_lemmas: usize,
    /// Of the core lemmas, those that are RAT but not RUP.
    pub rat_lemmas: usize,
    /// Deletions honoured.
    pub deletions: usize,
    /// Deletions of clauses not present, ignored.
    pub ignored_deletions: usize,
}

/// Why a proof was rejected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProofError {
    /// The bytes of a DRAT proof do not parse.
    #[error("malformed proof at byte {offset}: {problem}")]
    Malformed {
        /// Byte offset.
        offset: usize,
        /// What is wrong.
        problem: Malformation,
    },
    /// A line of an LRAT proof does not parse, or its hints do not do what they must.
    #[error("malformed LRAT proof at line {line}: {problem}")]
    MalformedLrat {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: LratMalformation,
    },
    /// A literal names a variable too large for the checker's memory (over
    /// 2^24); variables above the formula's but below that are extension
    /// variables and accepted.
    #[error("step {step}: variable {variable} is too large (the checker takes up to 2^24)")]
    VariableTooLarge {
        /// 1-based step number.
        step: usize,
        /// The variable.
        variable: u64,
    },
    /// A lemma names a variable far above the formula's: the checker's
    /// memory grows with the largest variable (about 100 bytes each), so a
    /// proof of a few bytes could ask for gigabytes.
    #[error(
        "step {step}: variable {variable} is more than {EXTENSION_VARIABLES} above the formula's {formula} variables"
    )]
    NewVariableTooLarge {
        /// 1-based step number.
        step: usize,
        /// The variable.
        variable: u64,
        /// The formula's largest variable (or its header's count).
        formula: usize,
    },
    /// The proof could not be read.
    #[error("cannot read the proof: {0}")]
    Read(#[source] std::io::Error),
    /// The proof has more clauses than the checker numbers (2^31).
    #[error("the proof has more than 2^31 clauses")]
    TooManyClauses,
    /// The LRAT output could not be written.
    #[error("cannot write the LRAT proof: {0}")]
    Write(#[source] std::io::Error),
    /// An LRAT lemma does not follow from its hints.
    #[error(
        "step {step}: lemma {clause:?} is not implied by unit propagation, nor RAT on its first literal"
    )]
    NotRup {
        /// 1-based line (text) or step (binary) number.
        step: usize,
        /// The lemma.
        clause: Vec<i64>,
    },
    /// A DRAT lemma the refutation uses is neither implied by unit
    /// propagation nor RAT on any of its literals.
    #[error(
        "{position}: lemma {lemma} (step {step}) {clause:?} is not implied by unit propagation, nor RAT on any of its literals"
    )]
    LemmaNotImplied {
        /// 1-based step number, deletions counted.
        step: usize,
        /// 1-based number of the lemma among the proof's added clauses.
        lemma: usize,
        /// Where the lemma is in the proof file.
        position: Position,
        /// The lemma.
        clause: Vec<i64>,
    },
    /// An LRAT lemma's hints reach no conflict and its RAT check on its first
    /// literal fails for one clause containing that literal's negation.
    #[error(
        "step {step}: lemma {clause:?} is not implied by its hints, and its RAT check fails for clause {candidate}"
    )]
    NotRat {
        /// 1-based line (text) or step (binary) number.
        step: usize,
        /// The lemma.
        clause: Vec<i64>,
        /// The clause whose resolvent is not refuted.
        candidate: u64,
    },
    /// The proof ended without refuting the formula.
    #[error("the proof ends without deriving a contradiction")]
    NoContradiction,
}

/// What is wrong with the bytes of a DRAT proof (or an LRAT proof that is not text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Malformation {
    /// A binary step starts with another byte than `a` or `d`.
    #[error("expected 'a' or 'd', found byte {0}")]
    BadTag(u8),
    /// The proof ends inside a clause.
    #[error("unterminated clause")]
    UnterminatedClause,
    /// A binary literal code has more than 64 bits.
    #[error("literal too large")]
    LiteralTooLarge,
    /// A binary literal code is 1 (variable 0).
    #[error("literal code 1")]
    LiteralCodeOne,
    /// A text proof is not UTF-8.
    #[error("not UTF-8")]
    NotUtf8,
    /// A text token is neither `d` nor a number.
    #[error("bad token {0:?}")]
    BadToken(String),
}

/// What is wrong with a line of an LRAT proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LratMalformation {
    /// The line does not start with a step number.
    #[error("no step number")]
    NoStepNumber,
    /// A deletion names something that is not a clause number.
    #[error("bad clause number")]
    BadClauseNumber,
    /// An added clause's number is not above every number before it.
    #[error("step numbers must increase")]
    StepNumberNotIncreasing,
    /// A word of an added clause's line is not a number.
    #[error("not a number")]
    NotANumber,
    /// The clause has no terminating 0.
    #[error("clause not ended by 0")]
    ClauseNotEnded,
    /// The hints have no terminating 0.
    #[error("hints not ended by 0")]
    HintsNotEnded,
    /// A negative (RAT) hint names a clause that is not present or does not
    /// contain the negation of the lemma's first literal.
    #[error("a RAT hint names no present clause containing the pivot's negation")]
    RatHintNotCandidate,
    /// Two RAT hints name the same clause.
    #[error("a RAT hint names the same clause twice")]
    RatHintRepeated,
    /// A hint names no clause present.
    #[error("hint names no present clause")]
    HintNotPresent,
    /// A hint is satisfied by the assignment so far.
    #[error("a hint is already satisfied")]
    HintSatisfied,
    /// A hint leaves more than one literal open.
    #[error("a hint is not unit")]
    HintNotUnit,
}

/// Checks that `proof` refutes the formula with `vars` variables and these clauses.
pub fn check(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
    format: ProofFormat,
) -> Result<ProofReport, ProofError> {
    check_with(vars, clauses, proof, Some(format), None, None)
}

/// Like [`check`], reading the proof from `proof`; with `format` `None`, text
/// or binary is told from the proof's first bytes, as drat-trim does.
pub fn check_reader(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: impl BufRead,
    format: Option<ProofFormat>,
) -> Result<ProofReport, ProofError> {
    check_with(vars, clauses, proof, format, None, None)
}

/// Checks `proof` like [`check_reader`] and writes the core of the
/// refutation as a text LRAT proof: every core lemma with the clauses unit
/// propagation used, by number (the formula's clauses are 1, 2, … in order),
/// RAT lemmas with a group of hints per clause resolved with, the deletions
/// of formula and core clauses, and the empty clause.
pub fn check_to_lrat(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: impl BufRead,
    format: Option<ProofFormat>,
    lrat: &mut dyn Write,
) -> Result<ProofReport, ProofError> {
    check_with(vars, clauses, proof, format, Some(lrat), None)
}

/// The DRAT check with every option: LRAT output if `lrat` is given, and
/// `progress` told now and then how far the backward walk is.
pub fn check_with(
    vars: usize,
    clauses: &[Vec<i32>],
    mut proof: impl BufRead,
    format: Option<ProofFormat>,
    lrat: Option<&mut dyn Write>,
    progress: Option<Progress<'_>>,
) -> Result<ProofReport, ProofError> {
    let (format, head) = match format {
        Some(format) => (format, Vec::new()),
        None => parse::detect(&mut proof)?,
    };
    // The proof is held whole to be walked backwards: a binary proof that
    // does not start with a step (`/dev/zero`) is refused before it is read.
    if format == ProofFormat::Binary
        && let Some(&tag) = head.first()
        && !matches!(tag, b'a' | b'd')
    {
        return Err(ProofError::Malformed {
            offset: 0,
            problem: Malformation::BadTag(tag),
        });
    }
    let store = store::Store::read(vars, clauses, (&head[..]).chain(proof), format)?;
    backward::check(store, lrat, progress)
}
