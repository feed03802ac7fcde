//! The LRAT checker: checks an LRAT proof, text or binary, by following its hints.
//!
//! It needs no search (every step names the clauses that make it follow by
//! unit propagation), so it is much faster than the DRAT checker, and it shares
//! no code with the code in this module's parent that writes LRAT. The proof
//! is read one step at a time, and deleted clauses are dropped, so its memory
//! is that of the clauses present.

use super::parse::{LratReader, LratStep};
use super::{LratMalformation, ProofError};
use std::collections::HashMap;
use std::io::BufRead;

/// Checks a text LRAT proof of the formula's unsatisfiability: every step's
/// hints, read in order under the negation of its clause, must each be unit
/// (and then assigned) until one is false; the proof must add the empty clause.
/// Returns the number of added clauses. Needs no search, so it is much faster
/// than [`check`](super::check); it shares nothing with the code that writes LRAT.
pub fn check_lrat(clauses: &[Vec<i32>], lrat: &[u8]) -> Result<usize, ProofError> {
    check_lrat_reader(clauses, lrat)
}

/// Like [`check_lrat`], reading the proof (text, or binary when it starts with
/// `a` or `d`) from `lrat` one step at a time. RAT hints (negative) are refused.
pub fn check_lrat_reader(clauses: &[Vec<i32>], lrat: impl BufRead) -> Result<usize, ProofError> {
    let mut present: HashMap<u64, Vec<i64>> = clauses
        .iter()
        .enumerate()
        .map(|(i, c)| (i as u64 + 1, c.iter().map(|&l| i64::from(l)).collect()))
        .collect();
    if clauses.iter().any(Vec::is_empty) {
        return Ok(0);
    }
    let mut steps = LratReader::new(lrat)?;
    let mut added = 0;
    let mut last = clauses.len() as u64;
    let mut value: HashMap<u64, bool> = HashMap::new();
    while let Some(step) = steps.next_step()? {
        let line = steps.step;
        let bad = |problem: LratMalformation| ProofError::MalformedLrat { line, problem };
        let (id, clause, hints) = match step {
            LratStep::Delete(ids) => {
                for gone in ids {
                    present.remove(&gone);
                }
                continue;
            }
            LratStep::Add { id, clause, hints } => (id, clause, hints),
        };
        if id <= last {
            return Err(bad(LratMalformation::StepNumberNotIncreasing));
        }
        last = id;
        value.clear();
        value.extend(clause.iter().map(|&l| (l.unsigned_abs(), l < 0)));
        let mut refuted = false;
        for &hint in &hints {
            let hinted = u64::try_from(hint).map_err(|_| bad(LratMalformation::RatHint))?;
            let lits = present
                .get(&hinted)
                .ok_or_else(|| bad(LratMalformation::HintNotPresent))?;
            let mut open = None;
            let mut open_count = 0;
            for &l in lits {
                match value.get(&l.unsigned_abs()) {
                    Some(&v) if v == (l > 0) => return Err(bad(LratMalformation::HintSatisfied)),
                    Some(_) => {}
                    None => {
                        open_count += 1;
                        open = Some(l);
                    }
                }
            }
            match (open_count, open) {
                (0, _) => {
                    refuted = true;
                    break;
                }
                (1, Some(unit)) => {
                    value.insert(unit.unsigned_abs(), unit > 0);
                }
                _ => return Err(bad(LratMalformation::HintNotUnit)),
            }
        }
        if !refuted {
            return Err(ProofError::NotRup { step: line, clause });
        }
        added += 1;
        if clause.is_empty() {
            return Ok(added);
        }
        present.insert(id, clause);
    }
    Err(ProofError::NoContradiction)
}
