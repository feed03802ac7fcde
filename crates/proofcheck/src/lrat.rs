//! The LRAT checker: checks an LRAT proof, text or binary, by following its hints.
//!
//! It needs no search (every step names the clauses that make it follow by
//! unit propagation), so it is much faster than the DRAT checker, and it shares
//! no code with the code in this module's parent that writes LRAT. The proof
//! is read one step at a time into reused buffers (`lrat/read.rs`), clauses
//! live in one arena found by number (`lrat/store.rs`), and the assignment is
//! an array undone along a trail after each step: a step allocates nothing,
//! and deleted clauses give their memory back.
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
//! that reaches the empty clause refutes the formula. Lemmas may name
//! variables the formula does not have (extension variables, defined by RAT
//! steps), up to 2^24.

mod read;
mod store;

use super::{LratMalformation, ProofError};
use read::{Kind, StepReader};
use std::io::Read;
use store::Store;

/// The largest variable a proof may name (the assignment is an array).
const MAX_VARIABLE: u64 = 1 << 24;

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
pub fn check_lrat_reader(clauses: &[Vec<i32>], lrat: impl Read) -> Result<usize, ProofError> {
    let mut checker = Checker::new();
    for (i, clause) in clauses.iter().enumerate() {
        checker.add(i as u64 + 1, clause.iter().copied());
    }
    if clauses.iter().any(Vec::is_empty) {
        return Ok(0);
    }
    let mut steps = StepReader::new(lrat)?;
    let mut added = 0;
    let mut last = clauses.len() as u64;
    while let Some(kind) = steps.next_step()? {
        let line = steps.step;
        let bad = |problem: LratMalformation| ProofError::MalformedLrat { line, problem };
        let id = match kind {
            Kind::Delete => {
                for &gone in &steps.hints {
                    checker.store.delete(gone.unsigned_abs());
                }
                continue;
            }
            Kind::Add(id) => id,
        };
        if id <= last {
            return Err(bad(LratMalformation::StepNumberNotIncreasing));
        }
        last = id;
        if let Some(&l) = steps
            .clause
            .iter()
            .find(|l| l.unsigned_abs() > MAX_VARIABLE)
        {
            return Err(ProofError::VariableTooLarge {
                step: line,
                variable: l.unsigned_abs(),
            });
        }
        let verdict = checker.check_step(&steps.clause, &steps.hints);
        checker.undo(0);
        match verdict.map_err(bad)? {
            Verdict::Follows => {}
            Verdict::NotRup => {
                return Err(ProofError::NotRup {
                    step: line,
                    clause: steps.clause.clone(),
                });
            }
            Verdict::RatFails(candidate) => {
                return Err(ProofError::NotRat {
                    step: line,
                    clause: steps.clause.clone(),
                    candidate,
                });
            }
        }
        added += 1;
        if steps.clause.is_empty() {
            return Ok(added);
        }
        checker.add(id, steps.clause.iter().map(|&l| l as i32));
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

/// The clauses present and the assignment under which hints are followed.
struct Checker {
    store: Store,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    /// The variables assigned, in order, so that they can be unassigned.
    trail: Vec<u32>,
}

impl Checker {
    fn new() -> Checker {
        Checker {
            store: Store::new(),
            value: vec![0],
            trail: Vec::new(),
        }
    }

    /// Adds a clause (its variables get a place in the assignment).
    fn add(&mut self, id: u64, lits: impl Iterator<Item = i32> + Clone) {
        let top = lits.clone().map(|l| l.unsigned_abs()).max().unwrap_or(0) as usize;
        self.grow(top);
        self.store.add(id, lits);
    }

    fn grow(&mut self, var: usize) {
        if var >= self.value.len() {
            self.value.resize(var + 1, 0);
        }
    }

    /// The value of `lit`: 1 true, -1 false, 0 unassigned.
    #[inline]
    fn lit_value(&self, lit: i32) -> i8 {
        let v = self.value[lit.unsigned_abs() as usize];
        if lit < 0 { -v } else { v }
    }

    /// Makes `lit` true (a variable already assigned is overwritten, not trailed twice).
    #[inline]
    fn assign(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        if self.value[var] == 0 {
            self.trail.push(var as u32);
        }
        self.value[var] = if lit < 0 { -1 } else { 1 };
    }

    /// Unassigns the variables assigned after the first `keep` of the trail.
    fn undo(&mut self, keep: usize) {
        for &var in &self.trail[keep..] {
            self.value[var as usize] = 0;
        }
        self.trail.truncate(keep);
    }

    /// Checks one added clause against its hints (leaves its assignment on the trail).
    fn check_step(&mut self, clause: &[i64], hints: &[i64]) -> Result<Verdict, LratMalformation> {
        let top = clause.iter().map(|l| l.unsigned_abs()).max().unwrap_or(0);
        self.grow(top as usize);
        for &l in clause {
            self.assign(-(l as i32));
        }
        let split = hints.iter().position(|&h| h < 0).unwrap_or(hints.len());
        let (rup, rat) = hints.split_at(split);
        if self.follow(rup)? {
            return Ok(Verdict::Follows);
        }
        // The empty clause has no pivot: it must follow by its positive hints.
        let Some(&pivot) = clause.first() else {
            return Ok(Verdict::NotRup);
        };
        self.check_rat(-(pivot as i32), rat)
    }

    /// The RAT check on the negation `neg` of the lemma's first literal, under
    /// the assignment the positive hints left (see the module note).
    fn check_rat(&mut self, neg: i32, rat: &[i64]) -> Result<Verdict, LratMalformation> {
        let groups = rat_groups(rat)?;
        let candidates = self.store.containing(neg);
        for (j, _) in &groups {
            if candidates.binary_search(j).is_err() {
                return Err(LratMalformation::RatHintNotCandidate);
            }
        }
        let keep = self.trail.len();
        for j in candidates {
            let satisfied = self
                .store
                .get(j)
                .is_some_and(|d| d.iter().any(|&l| l != neg && self.lit_value(l) > 0));
            if satisfied {
                continue;
            }
            let Some(group) = groups.iter().find(|(g, _)| *g == j).map(|&(_, g)| g) else {
                return Ok(Verdict::RatFails(j));
            };
            let len = self.store.get(j).map_or(0, <[i32]>::len);
            for k in 0..len {
                let l = self.store.get(j).map_or(neg, |d| d[k]);
                if l != neg {
                    self.assign(-l);
                }
            }
            let refuted = self.follow(group)?;
            self.undo(keep);
            if !refuted {
                return Ok(Verdict::RatFails(j));
            }
        }
        Ok(Verdict::Follows)
    }

    /// Follows positive hints: each must be unit (its open literal is then
    /// assigned) until one is false. Returns whether a conflict was reached.
    #[inline]
    fn follow(&mut self, hints: &[i64]) -> Result<bool, LratMalformation> {
        for &hint in hints {
            let hinted = u64::try_from(hint).map_err(|_| LratMalformation::HintNotPresent)?;
            let lits = self
                .store
                .get(hinted)
                .ok_or(LratMalformation::HintNotPresent)?;
            let mut open = 0;
            let mut open_count = 0;
            for &l in lits {
                let v = self.value[l.unsigned_abs() as usize];
                let v = if l < 0 { -v } else { v };
                if v > 0 {
                    return Err(LratMalformation::HintSatisfied);
                }
                if v == 0 {
                    open_count += 1;
                    open = l;
                }
            }
            match open_count {
                0 => return Ok(true),
                1 => self.assign(open),
                _ => return Err(LratMalformation::HintNotUnit),
            }
        }
        Ok(false)
    }
}

/// The RAT groups of a step's hints: `-j h1 h2 …` per candidate clause `j`.
fn rat_groups(rat: &[i64]) -> Result<Vec<(u64, &[i64])>, LratMalformation> {
    let mut groups: Vec<(u64, &[i64])> = Vec::new();
    let mut rest = rat;
    while let Some((&head, tail)) = rest.split_first() {
        let end = tail.iter().position(|&h| h < 0).unwrap_or(tail.len());
        let j = head.unsigned_abs();
        if groups.iter().any(|&(g, _)| g == j) {
            return Err(LratMalformation::RatHintRepeated);
        }
        groups.push((j, &tail[..end]));
        rest = &tail[end..];
    }
    Ok(groups)
}
