//! The LRAT checker: checks an LRAT proof, text or binary, by following its hints.
//!
//! It needs no search (every step names the clauses that make it follow by
//! unit propagation), so it is much faster than the DRAT checker, and it shares
//! no code with the code in this module's parent that writes LRAT. The proof
//! is read one step at a time, and deleted clauses are dropped, so its memory
//! is that of the clauses present.
//!
//! RAT steps follow the LRAT format's hint semantics: the hints of a step are
//! first a list of positive clause numbers (unit propagation under the
//! negation of the lemma), then groups, each a negative number `-j` followed by
//! positive numbers. When the positive prefix reaches no conflict, the lemma
//! must be a resolution asymmetric tautology on its first literal `p`: for
//! every clause `j` present that contains `¬p`, either a literal of `j` other
//! than `¬p` is already true under the assignment so far (the resolvent is
//! satisfied), or the group `-j` is given and, with the negation of the rest of
//! `j` added, its hints reach a conflict. A group naming a clause that is not
//! such a candidate is an error. Every step only adds a clause that keeps a
//! satisfiable set satisfiable, and deletions only remove clauses, so a proof
//! that reaches the empty clause refutes the formula.

use super::parse::{LratReader, LratStep};
use super::{LratMalformation, ProofError};
use std::collections::HashMap;
use std::io::BufRead;

/// Clauses present, by number.
type Present = HashMap<u64, Vec<i64>>;
/// The assignment under which hints are followed: variable → its value.
type Assignment = HashMap<u64, bool>;

/// Checks a text LRAT proof of the formula's unsatisfiability: every step's
/// hints, read in order under the negation of its clause, must each be unit
/// (and then assigned) until one is false, or the step must pass the RAT
/// check its negative hints spell out (see the module note); the proof must
/// add the empty clause. Returns the number of added clauses. Needs no search,
/// so it is much faster than [`check`](super::check); it shares nothing with
/// the code that writes LRAT.
pub fn check_lrat(clauses: &[Vec<i32>], lrat: &[u8]) -> Result<usize, ProofError> {
    check_lrat_reader(clauses, lrat)
}

/// Like [`check_lrat`], reading the proof (text, or binary when it starts with
/// `a` or `d`) from `lrat` one step at a time.
pub fn check_lrat_reader(clauses: &[Vec<i32>], lrat: impl BufRead) -> Result<usize, ProofError> {
    let mut present: Present = clauses
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
        match check_step(&present, &clause, &hints).map_err(bad)? {
            Verdict::Follows => {}
            Verdict::NotRup => return Err(ProofError::NotRup { step: line, clause }),
            Verdict::RatFails(candidate) => {
                return Err(ProofError::NotRat {
                    step: line,
                    clause,
                    candidate,
                });
            }
        }
        added += 1;
        if clause.is_empty() {
            return Ok(added);
        }
        present.insert(id, clause);
    }
    Err(ProofError::NoContradiction)
}

/// What the hints of one step show.
enum Verdict {
    /// The lemma follows (RUP, or RAT on its first literal).
    Follows,
    /// No conflict and no RAT hints.
    NotRup,
    /// The RAT check fails for this candidate clause.
    RatFails(u64),
}

/// Checks one added clause against its hints.
fn check_step(
    present: &Present,
    clause: &[i64],
    hints: &[i64],
) -> Result<Verdict, LratMalformation> {
    let mut value: Assignment = clause.iter().map(|&l| (l.unsigned_abs(), l < 0)).collect();
    let split = hints.iter().position(|&h| h < 0).unwrap_or(hints.len());
    let (rup, rat) = hints.split_at(split);
    if follow(present, &mut value, rup)? {
        return Ok(Verdict::Follows);
    }
    // The empty clause has no pivot: it must follow by its positive hints.
    let Some(&pivot) = clause.first() else {
        return Ok(Verdict::NotRup);
    };
    let groups = rat_groups(rat)?;
    for &j in groups.keys() {
        let is_candidate = present.get(&j).is_some_and(|d| d.contains(&-pivot));
        if !is_candidate {
            return Err(LratMalformation::RatHintNotCandidate);
        }
    }
    let mut candidates: Vec<u64> = present
        .iter()
        .filter(|(_, d)| d.contains(&-pivot))
        .map(|(&j, _)| j)
        .collect();
    candidates.sort_unstable();
    for j in candidates {
        let rest: Vec<i64> = present[&j]
            .iter()
            .copied()
            .filter(|&l| l != -pivot)
            .collect();
        let satisfied = rest
            .iter()
            .any(|&l| value.get(&l.unsigned_abs()) == Some(&(l > 0)));
        if satisfied {
            continue;
        }
        let Some(group) = groups.get(&j) else {
            return Ok(Verdict::RatFails(j));
        };
        let mut extended = value.clone();
        extended.extend(rest.iter().map(|&l| (l.unsigned_abs(), l < 0)));
        if !follow(present, &mut extended, group)? {
            return Ok(Verdict::RatFails(j));
        }
    }
    Ok(Verdict::Follows)
}

/// The RAT groups of a step's hints: `-j h1 h2 …` per candidate clause `j`.
fn rat_groups(rat: &[i64]) -> Result<HashMap<u64, &[i64]>, LratMalformation> {
    let mut groups = HashMap::new();
    let mut rest = rat;
    while let Some((&head, tail)) = rest.split_first() {
        let end = tail.iter().position(|&h| h < 0).unwrap_or(tail.len());
        if groups.insert(head.unsigned_abs(), &tail[..end]).is_some() {
            return Err(LratMalformation::RatHintRepeated);
        }
        rest = &tail[end..];
    }
    Ok(groups)
}

/// Follows positive hints under `value`: each must be unit (its open literal
/// is then assigned) until one is false. Returns whether a conflict was reached.
fn follow(
    present: &Present,
    value: &mut Assignment,
    hints: &[i64],
) -> Result<bool, LratMalformation> {
    for &hint in hints {
        let hinted = u64::try_from(hint).map_err(|_| LratMalformation::HintNotPresent)?;
        let lits = present
            .get(&hinted)
            .ok_or(LratMalformation::HintNotPresent)?;
        let mut open = None;
        let mut open_count = 0;
        for &l in lits {
            match value.get(&l.unsigned_abs()) {
                Some(&v) if v == (l > 0) => return Err(LratMalformation::HintSatisfied),
                Some(_) => {}
                None => {
                    open_count += 1;
                    open = Some(l);
                }
            }
        }
        match (open_count, open) {
            (0, _) => return Ok(true),
            (1, Some(unit)) => {
                value.insert(unit.unsigned_abs(), unit > 0);
            }
            _ => return Err(LratMalformation::HintNotUnit),
        }
    }
    Ok(false)
}
