//! Reading DRAT proofs, text and binary, into steps.

use super::{Malformation, ProofError, ProofFormat};

/// What a proof step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Adds a lemma.
    Add,
    /// Deletes a clause.
    Delete,
}

/// The steps of a DRAT proof, each with its clause.
pub(super) fn parse(
    bytes: &[u8],
    format: ProofFormat,
) -> Result<Vec<(Step, Vec<i64>)>, ProofError> {
    match format {
        ProofFormat::Binary => parse_binary(bytes),
        ProofFormat::Text => parse_text(bytes),
    }
}

/// Binary DRAT: `a`/`d`, then literal codes `2v + sign` as base-128 varints, then 0.
fn parse_binary(bytes: &[u8]) -> Result<Vec<(Step, Vec<i64>)>, ProofError> {
    let mut steps = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let kind = match bytes[i] {
            b'a' => Step::Add,
            b'd' => Step::Delete,
            b => {
                return Err(malformed(i, Malformation::BadTag(b)));
            }
        };
        i += 1;
        let mut clause = Vec::new();
        loop {
            let mut code: u64 = 0;
            let mut shift = 0;
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
            if code == 0 {
                break;
            }
            if code < 2 {
                return Err(malformed(i, Malformation::LiteralCodeOne));
            }
            let v = (code >> 1) as i64;
            clause.push(if code & 1 == 1 { -v } else { v });
        }
        steps.push((kind, clause));
    }
    Ok(steps)
}

/// Text DRAT: clauses ending in `0`, deletions prefixed by `d`, comments by `c`.
fn parse_text(bytes: &[u8]) -> Result<Vec<(Step, Vec<i64>)>, ProofError> {
    let mut steps = Vec::new();
    let text = std::str::from_utf8(bytes)
        .map_err(|e| malformed(e.valid_up_to(), Malformation::NotUtf8))?;
    let mut kind = Step::Add;
    let mut clause = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let content = line.split('c').next().unwrap_or("");
        let content = if line.trim_start().starts_with('c') {
            ""
        } else {
            content
        };
        for token in content.split_whitespace() {
            if token == "d" && clause.is_empty() {
                kind = Step::Delete;
                continue;
            }
            let l: i64 = token
                .parse()
                .map_err(|_| malformed(offset, Malformation::BadToken(token.into())))?;
            if l == 0 {
                steps.push((kind, std::mem::take(&mut clause)));
                kind = Step::Add;
            } else {
                clause.push(l);
            }
        }
        offset += line.len();
    }
    if !clause.is_empty() || kind == Step::Delete {
        return Err(malformed(offset, Malformation::UnterminatedClause));
    }
    Ok(steps)
}

fn malformed(offset: usize, problem: Malformation) -> ProofError {
    ProofError::Malformed { offset, problem }
}
