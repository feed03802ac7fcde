//! The LRAT checker: checks a text LRAT proof by following its hints.
//!
//! It needs no search (every step names the clauses that make it follow by
//! unit propagation), so it is much faster than the DRUP checker, and it shares
//! no code with the code in this module's parent that writes LRAT.

use super::{LratMalformation, Malformation, ProofError};
use std::collections::HashMap;

/// Checks a text LRAT proof of the formula's unsatisfiability: every step's
/// hints, read in order under the negation of its clause, must each be unit
/// (and then assigned) until one is false; the proof must add the empty clause.
/// Returns the number of added clauses. Needs no search, so it is much faster
/// than [`check`](super::check); it shares nothing with the code that writes LRAT.
pub fn check_lrat(clauses: &[Vec<i32>], lrat: &[u8]) -> Result<usize, ProofError> {
    let mut present: HashMap<u64, Vec<i64>> = clauses
        .iter()
        .enumerate()
        .map(|(i, c)| (i as u64 + 1, c.iter().map(|&l| i64::from(l)).collect()))
        .collect();
    if clauses.iter().any(Vec::is_empty) {
        return Ok(0);
    }
    let text = std::str::from_utf8(lrat).map_err(|e| ProofError::Malformed {
        offset: e.valid_up_to(),
        problem: Malformation::NotUtf8,
    })?;
    let mut added = 0;
    let mut last = clauses.len() as u64;
    for (n, line) in text.lines().enumerate() {
        let step = n + 1;
        let bad = |problem: LratMalformation| ProofError::MalformedLrat {
            line: step,
            problem,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id: u64 = words[0]
            .parse()
            .map_err(|_| bad(LratMalformation::NoStepNumber))?;
        if words.get(1) == Some(&"d") {
            for w in &words[2..] {
                let gone: u64 = w
                    .parse()
                    .map_err(|_| bad(LratMalformation::BadClauseNumber))?;
                if gone != 0 {
                    present.remove(&gone);
                }
            }
            continue;
        }
        if id <= last {
            return Err(bad(LratMalformation::StepNumberNotIncreasing));
        }
        last = id;
        let numbers: Vec<i64> = words[1..]
            .iter()
            .map(|w| w.parse().map_err(|_| bad(LratMalformation::NotANumber)))
            .collect::<Result<_, _>>()?;
        let split = numbers
            .iter()
            .position(|&x| x == 0)
            .ok_or_else(|| bad(LratMalformation::ClauseNotEnded))?;
        let (clause, rest) = (&numbers[..split], &numbers[split + 1..]);
        if rest.last() != Some(&0) {
            return Err(bad(LratMalformation::HintsNotEnded));
        }
        let mut value: HashMap<u64, bool> =
            clause.iter().map(|&l| (l.unsigned_abs(), l < 0)).collect();
        let mut refuted = false;
        for &hint in &rest[..rest.len() - 1] {
            let hinted = u64::try_from(hint).map_err(|_| bad(LratMalformation::RatHint))?;
            let lits = present
                .get(&hinted)
                .ok_or_else(|| bad(LratMalformation::HintNotPresent))?;
            let open: Vec<i64> = lits
                .iter()
                .copied()
                .filter(|&l| value.get(&l.unsigned_abs()) != Some(&(l < 0)))
                .collect();
            if open
                .iter()
                .any(|&l| value.get(&l.unsigned_abs()) == Some(&(l > 0)))
            {
                return Err(bad(LratMalformation::HintSatisfied));
            }
            match open.as_slice() {
                [] => {
                    refuted = true;
                    break;
                }
                [unit] => {
                    value.insert(unit.unsigned_abs(), *unit > 0);
                }
                _ => return Err(bad(LratMalformation::HintNotUnit)),
            }
        }
        if !refuted {
            return Err(ProofError::NotRup {
                step,
                clause: clause.to_vec(),
            });
        }
        added += 1;
        if clause.is_empty() {
            return Ok(added);
        }
        present.insert(id, clause.to_vec());
    }
    Err(ProofError::NoContradiction)
}
