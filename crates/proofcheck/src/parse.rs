//! Telling text DRAT from binary as drat-trim does, by the first bytes (DRAT
//! itself is split into steps in `lex.rs`; LRAT has its own reader in
//! `lrat/read.rs`).

use super::{ProofError, ProofFormat};
use std::io::Read;

/// What a proof step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Adds a lemma.
    Add,
    /// Deletes a clause.
    Delete,
}

/// How many leading bytes decide between text and binary.
const SNIFF: usize = 10;

/// The format of a DRAT proof from its first bytes: binary when it starts with
/// `a` (no text proof does) or when one of its first ten bytes is a control
/// character other than white space, or a byte above ASCII; text otherwise.
/// An empty proof is text. Returns the format and the bytes read to tell.
pub(super) fn detect(input: &mut impl Read) -> Result<(ProofFormat, Vec<u8>), ProofError> {
    let mut head = Vec::with_capacity(SNIFF);
    input
        .take(SNIFF as u64)
        .read_to_end(&mut head)
        .map_err(ProofError::Read)?;
    let binary = head.first() == Some(&b'a')
        || head
            .iter()
            .any(|&b| (b < 0x20 && !b.is_ascii_whitespace()) || b >= 0x7f);
    let format = if binary {
        ProofFormat::Binary
    } else {
        ProofFormat::Text
    };
    Ok((format, head))
}
