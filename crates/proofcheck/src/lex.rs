//! Splitting a DRAT proof held in memory into steps, fast: the backward
//! checker reads the whole proof before it checks anything, so reading is a
//! plain loop over a byte slice with no allocation per step. Literals come out
//! as the checker's codes (`2v + sign`, which is also binary DRAT's encoding).
//! Errors carry the byte offset, as `parse.rs` reports them.

use super::parse::Step;
use super::{MAX_VARIABLE, Malformation, ProofError, ProofFormat};

/// One step: what it does, its literal codes, where it is, its 1-based number.
pub(super) struct Lexed<'a> {
    pub(super) kind: Step,
    pub(super) lits: &'a [u32],
    pub(super) position: Position,
    pub(super) number: usize,
}

/// Where a lemma is in the proof file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// 1-based line of a text proof.
    Line(u64),
    /// Byte offset of the step in a binary proof.
    Byte(u64),
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Position::Line(n) => write!(f, "line {n}"),
            Position::Byte(n) => write!(f, "byte {n}"),
        }
    }
}

fn malformed(offset: usize, problem: Malformation) -> ProofError {
    ProofError::Malformed { offset, problem }
}

/// Calls `each` on every step of `bytes`.
pub(super) fn steps(
    bytes: &[u8],
    format: ProofFormat,
    each: &mut dyn FnMut(Lexed<'_>) -> Result<(), ProofError>,
) -> Result<(), ProofError> {
    match format {
        ProofFormat::Binary => binary(bytes, each),
        ProofFormat::Text => text(bytes, each),
    }
}

/// The code of a literal, or the error for a variable over the checker's limit.
fn checked(variable: u64, negative: bool, number: usize) -> Result<u32, ProofError> {
    if variable > MAX_VARIABLE as u64 {
        return Err(ProofError::VariableTooLarge {
            step: number,
            variable,
        });
    }
    Ok((2 * variable) as u32 | u32::from(negative))
}

fn binary(
    bytes: &[u8],
    each: &mut dyn FnMut(Lexed<'_>) -> Result<(), ProofError>,
) -> Result<(), ProofError> {
    let mut lits = Vec::new();
    let mut i = 0;
    let mut number = 0;
    while i < bytes.len() {
        let start = i;
        let kind = match bytes[i] {
            b'a' => Step::Add,
            b'd' => Step::Delete,
            b => return Err(malformed(i, Malformation::BadTag(b))),
        };
        i += 1;
        number += 1;
        lits.clear();
        loop {
            let (mut code, mut shift) = (0u64, 0u32);
            loop {
                let Some(&b) = bytes.get(i) else {
                    return Err(malformed(i, Malformation::UnterminatedClause));
                };
                i += 1;
                if shift > 56 {
                    return Err(malformed(i, Malformation::LiteralTooLarge));
                }
                code |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            match code {
                0 => break,
                1 => return Err(malformed(i, Malformation::LiteralCodeOne)),
                _ => lits.push(checked(code >> 1, code & 1 == 1, number)?),
            }
        }
        each(Lexed {
            kind,
            lits: &lits,
            position: Position::Byte(start as u64),
            number,
        })?;
    }
    Ok(())
}

fn text(
    bytes: &[u8],
    each: &mut dyn FnMut(Lexed<'_>) -> Result<(), ProofError>,
) -> Result<(), ProofError> {
    let mut lits = Vec::new();
    let mut i = 0;
    let mut line = 1u64;
    let mut number = 0;
    let mut kind = Step::Add;
    let mut first = true;
    loop {
        // White space; comment lines only where a step starts.
        while let Some(&b) = bytes.get(i) {
            if b == b'\n' {
                line += 1;
                i += 1;
            } else if b.is_ascii_whitespace() {
                i += 1;
            } else if first && b == b'c' {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            } else {
                break;
            }
        }
        if i >= bytes.len() {
            return if first {
                Ok(())
            } else {
                Err(malformed(i, Malformation::UnterminatedClause))
            };
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let token = &bytes[start..i];
        if first {
            number += 1;
            lits.clear();
            first = false;
            kind = Step::Add;
            if token == b"d" {
                kind = Step::Delete;
                continue;
            }
        }
        let (negative, digits) = match token.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, token),
        };
        let bad = || match std::str::from_utf8(token) {
            Ok(t) => malformed(start, Malformation::BadToken(t.chars().take(64).collect())),
            Err(e) => malformed(start + e.valid_up_to(), Malformation::NotUtf8),
        };
        if digits.is_empty() || digits.len() > 19 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        let variable = digits
            .iter()
            .fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
        if variable == 0 {
            each(Lexed {
                kind,
                lits: &lits,
                position: Position::Line(line),
                number,
            })?;
            first = true;
        } else {
            lits.push(checked(variable, negative, number)?);
        }
    }
}
