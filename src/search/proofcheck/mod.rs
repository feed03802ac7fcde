//! An independent checker for DRUP proofs (DRAT proofs whose lemmas are all RUP).
//!
//! This module shares no code with the encoder or the solver: it takes the
//! clauses of a formula as plain integer lists and the bytes of a proof, and
//! decides whether the proof refutes the formula. It is a forward checker:
//! every added lemma must follow from the clauses present by unit propagation
//! (assign the lemma's literals false, propagate, reach a conflict), and the
//! proof must end with the clause set refuted by unit propagation.
//!
//! Soundness does not depend on deletions. Every clause ever present is implied
//! by the formula (original, or RUP from implied clauses), so neither keeping a
//! unit derived from a clause that was later deleted (as varisat's proofs
//! require) nor ignoring a deletion of a clause we do not hold can make a
//! satisfiable formula look refuted. Lemmas that are RAT but not RUP are
//! rejected: varisat does not produce them.

use std::collections::HashMap;
use std::io::Write;

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
    /// Lemmas checked.
    pub lemmas: usize,
    /// Deletions honoured.
    pub deletions: usize,
    /// Deletions of clauses not present, ignored.
    pub ignored_deletions: usize,
}

/// Why a proof was rejected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProofError {
    /// The bytes do not parse.
    #[error("malformed proof at byte {offset}: {message}")]
    Malformed {
        /// Byte offset.
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// A literal names a variable beyond the formula's.
    #[error("step {step}: literal {literal} names a variable the formula does not have")]
    UnknownVariable {
        /// 1-based step number.
        step: usize,
        /// The literal.
        literal: i64,
    },
    /// The LRAT output could not be written.
    #[error("cannot write the LRAT proof: {0}")]
    Write(#[source] std::io::Error),
    /// A lemma does not follow by unit propagation.
    #[error("step {step}: lemma {clause:?} is not implied by unit propagation")]
    NotRup {
        /// 1-based step number.
        step: usize,
        /// The lemma.
        clause: Vec<i64>,
    },
    /// The proof ended without refuting the formula.
    #[error("the proof ends without deriving a contradiction")]
    NoContradiction,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Add,
    Delete,
}

fn parse(bytes: &[u8], format: ProofFormat) -> Result<Vec<(Step, Vec<i64>)>, ProofError> {
    let mut steps = Vec::new();
    match format {
        ProofFormat::Binary => {
            let mut i = 0;
            while i < bytes.len() {
                let kind = match bytes[i] {
                    b'a' => Step::Add,
                    b'd' => Step::Delete,
                    b => {
                        return Err(ProofError::Malformed {
                            offset: i,
                            message: format!("expected 'a' or 'd', found byte {b}"),
                        });
                    }
                };
                i += 1;
                let mut clause = Vec::new();
                loop {
                    let mut code: u64 = 0;
                    let mut shift = 0;
                    loop {
                        let Some(&b) = bytes.get(i) else {
                            return Err(ProofError::Malformed {
                                offset: i,
                                message: "unterminated clause".into(),
                            });
                        };
                        i += 1;
                        if shift > 56 {
                            return Err(ProofError::Malformed {
                                offset: i,
                                message: "literal too large".into(),
                            });
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
                        return Err(ProofError::Malformed {
                            offset: i,
                            message: "literal code 1".into(),
                        });
                    }
                    let v = (code >> 1) as i64;
                    clause.push(if code & 1 == 1 { -v } else { v });
                }
                steps.push((kind, clause));
            }
        }
        ProofFormat::Text => {
            let text = std::str::from_utf8(bytes).map_err(|e| ProofError::Malformed {
                offset: e.valid_up_to(),
                message: "not UTF-8".into(),
            })?;
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
                    let l: i64 = token.parse().map_err(|_| ProofError::Malformed {
                        offset,
                        message: format!("bad token {token:?}"),
                    })?;
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
                return Err(ProofError::Malformed {
                    offset,
                    message: "unterminated clause".into(),
                });
            }
        }
    }
    Ok(steps)
}

/// Literal `±v` as an index: `2(v-1)` for positive, `2(v-1)+1` for negative.
fn code(l: i64) -> usize {
    2 * (l.unsigned_abs() as usize - 1) + usize::from(l < 0)
}

struct Db {
    clauses: Vec<Vec<usize>>,
    deleted: Vec<bool>,
    watches: Vec<Vec<usize>>,
    /// Value per literal code: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    trail: Vec<usize>,
    head: usize,
    by_key: HashMap<Vec<usize>, Vec<usize>>,
    refuted: bool,
    /// Per variable: the clause that implied its value (`NONE`: an assumption).
    reason: Vec<usize>,
    /// Per variable: its place on the trail.
    place: Vec<usize>,
    /// The clause found false by the last failed propagation.
    conflict: usize,
    /// Per clause: its number in the LRAT numbering (originals first, in order).
    lrat_id: Vec<u64>,
    /// The last LRAT number given out.
    last_id: u64,
    /// Per variable: marks for [`Db::explain`].
    seen: Vec<bool>,
}

const NONE: usize = usize::MAX;

impl Db {
    fn new(vars: usize) -> Db {
        Db {
            clauses: Vec::new(),
            deleted: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            value: vec![0; 2 * vars],
            trail: Vec::new(),
            head: 0,
            by_key: HashMap::new(),
            refuted: false,
            reason: vec![NONE; vars],
            place: vec![0; vars],
            conflict: NONE,
            lrat_id: Vec::new(),
            last_id: 0,
            seen: vec![false; vars],
        }
    }

    fn assign(&mut self, lit: usize, reason: usize) {
        self.value[lit] = 1;
        self.value[lit ^ 1] = -1;
        self.reason[lit / 2] = reason;
        self.place[lit / 2] = self.trail.len();
        self.trail.push(lit);
    }

    /// The clauses that unit propagation used to falsify `conflict`, in the
    /// order they became unit, then `conflict` itself: the hints of an LRAT step.
    fn explain(&mut self, conflict: usize) -> Vec<u64> {
        let mut used = Vec::new();
        let mut stack = vec![conflict];
        let mut marked = Vec::new();
        while let Some(c) = stack.pop() {
            for &lit in &self.clauses[c] {
                let var = lit / 2;
                let reason = self.reason[var];
                if reason != NONE && reason != c && !self.seen[var] {
                    self.seen[var] = true;
                    marked.push(var);
                    used.push((self.place[var], reason));
                    stack.push(reason);
                }
            }
        }
        for var in marked {
            self.seen[var] = false;
        }
        used.sort_unstable();
        used.iter()
            .map(|&(_, c)| self.lrat_id[c])
            .chain(std::iter::once(self.lrat_id[conflict]))
            .collect()
    }

    /// Unit propagation from `head`; returns `false` on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = self.trail[self.head] ^ 1;
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified]);
            let mut keep = 0;
            let mut conflict = false;
            let mut i = 0;
            while i < watching.len() {
                let c = watching[i];
                i += 1;
                if self.deleted[c] {
                    continue;
                }
                if conflict {
                    watching[keep] = c;
                    keep += 1;
                    continue;
                }
                let clause = &mut self.clauses[c];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                if self.value[clause[0]] == 1 {
                    watching[keep] = c;
                    keep += 1;
                    continue;
                }
                let mut moved = false;
                for j in 2..clause.len() {
                    if self.value[clause[j]] != -1 {
                        clause.swap(1, j);
                        self.watches[clause[1]].push(c);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watching[keep] = c;
                keep += 1;
                let first = clause[0];
                if self.value[first] == -1 {
                    conflict = true;
                    self.conflict = c;
                } else {
                    self.assign(first, c);
                }
            }
            watching.truncate(keep);
            let arrived = std::mem::replace(&mut self.watches[falsified], watching);
            self.watches[falsified].extend(arrived);
            if conflict {
                return false;
            }
        }
        true
    }

    fn backtrack(&mut self, len: usize) {
        for &lit in &self.trail[len..] {
            self.value[lit] = 0;
            self.value[lit ^ 1] = 0;
        }
        self.trail.truncate(len);
        self.head = len;
    }

    /// Adds a clause at the top level (after the caller checked it if it is a
    /// lemma), numbered `last_id + 1` in LRAT terms.
    fn add(&mut self, mut lits: Vec<usize>) {
        self.last_id += 1;
        if self.refuted {
            return;
        }
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return; // a tautology holds in every assignment
        }
        let key = lits.clone();
        // Watch two non-false literals if there are, true ones first.
        lits.sort_by_key(|&l| match self.value[l] {
            1 => 0,
            0 => 1,
            _ => 2,
        });
        let id = self.clauses.len();
        match lits.len() {
            0 => {
                self.refuted = true;
                self.conflict = NONE;
                return;
            }
            1 => {}
            _ => {
                self.watches[lits[0]].push(id);
                self.watches[lits[1]].push(id);
            }
        }
        let first = lits[0];
        let unit = lits.len() == 1 || self.value[lits[1]] == -1;
        self.clauses.push(lits);
        self.deleted.push(false);
        self.lrat_id.push(self.last_id);
        self.by_key.entry(key).or_default().push(id);
        if unit {
            match self.value[first] {
                -1 => {
                    self.refuted = true;
                    self.conflict = id;
                }
                0 => {
                    self.assign(first, id);
                    if !self.propagate() {
                        self.refuted = true;
                    }
                }
                _ => {}
            }
        }
    }

    /// Deletes a clause; returns its LRAT number, and whether it still gives a
    /// top-level value its reason (then an LRAT proof must keep it), or `None`
    /// when the clause is not present.
    fn delete(&mut self, mut lits: Vec<usize>) -> Option<(u64, bool)> {
        lits.sort_unstable();
        lits.dedup();
        let id = self.by_key.get_mut(&lits).and_then(|ids| ids.pop())?;
        // Units stay assigned: they are implied by the formula.
        self.deleted[id] = true;
        let is_reason = self.clauses[id].iter().any(|&l| self.reason[l / 2] == id);
        Some((self.lrat_id[id], is_reason))
    }

    /// Whether `lits` follows from the clauses by unit propagation; with
    /// `explain`, the LRAT hints that show it.
    fn rup(&mut self, lits: &[usize], explain: bool) -> Option<Vec<u64>> {
        if self.refuted {
            return Some(Vec::new());
        }
        let mark = self.trail.len();
        // A literal already true at the top level: its reason is falsified by the lemma's negation.
        let mut conflict = lits
            .iter()
            .find(|&&l| self.value[l] == 1)
            .map(|&l| self.reason[l / 2]);
        if conflict.is_none() {
            for &l in lits {
                if self.value[l] == 0 {
                    self.assign(l ^ 1, NONE);
                }
            }
            if !self.propagate() {
                conflict = Some(self.conflict);
            }
        }
        let hints = conflict.map(|c| {
            if explain && c != NONE {
                self.explain(c)
            } else {
                Vec::new()
            }
        });
        self.backtrack(mark);
        hints
    }
}

/// Checks that `proof` refutes the formula with `vars` variables and these clauses.
pub fn check(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
    format: ProofFormat,
) -> Result<ProofReport, ProofError> {
    check_into(vars, clauses, proof, format, None)
}

/// Checks `proof` like [`check`] and writes, as it goes, the same refutation as
/// a text LRAT proof (every lemma with the clauses unit propagation used, by
/// number: the formula's clauses are 1, 2, … in order). Deletions of clauses
/// that still give a top-level value its reason are left out, since the hints
/// of later lemmas may use them.
pub fn check_to_lrat(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
    format: ProofFormat,
    lrat: &mut dyn Write,
) -> Result<ProofReport, ProofError> {
    check_into(vars, clauses, proof, format, Some(lrat))
}

fn check_into(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
    format: ProofFormat,
    mut lrat: Option<&mut dyn Write>,
) -> Result<ProofReport, ProofError> {
    let mut db = Db::new(vars);
    for clause in clauses {
        let lits = clause.iter().map(|&l| code(i64::from(l))).collect();
        db.add(lits);
    }
    let mut report = ProofReport {
        lemmas: 0,
        deletions: 0,
        ignored_deletions: 0,
    };
    let explain = lrat.is_some();
    for (n, (kind, clause)) in parse(proof, format)?.into_iter().enumerate() {
        if db.refuted {
            break;
        }
        if let Some(&literal) = clause.iter().find(|l| l.unsigned_abs() as usize > vars) {
            return Err(ProofError::UnknownVariable {
                step: n + 1,
                literal,
            });
        }
        let lits: Vec<usize> = clause.iter().map(|&l| code(l)).collect();
        match kind {
            Step::Add => {
                let Some(hints) = db.rup(&lits, explain) else {
                    return Err(ProofError::NotRup {
                        step: n + 1,
                        clause,
                    });
                };
                report.lemmas += 1;
                db.add(lits);
                if let Some(out) = lrat.as_deref_mut() {
                    write_step(out, db.last_id, &clause, &hints)?;
                }
            }
            Step::Delete => match db.delete(lits) {
                Some((id, is_reason)) => {
                    report.deletions += 1;
                    if let Some(out) = lrat.as_deref_mut().filter(|_| !is_reason) {
                        writeln!(out, "{} d {id} 0", db.last_id).map_err(write_error)?;
                    }
                }
                None => report.ignored_deletions += 1,
            },
        }
    }
    if !db.refuted && db.propagate() {
        return Err(ProofError::NoContradiction);
    }
    if let Some(out) = lrat {
        // The empty clause, from the top-level conflict (none needed when the
        // formula or the proof holds the empty clause itself).
        if db.conflict != NONE {
            let hints = db.explain(db.conflict);
            write_step(out, db.last_id + 1, &[], &hints)?;
        }
        out.flush().map_err(write_error)?;
    }
    Ok(report)
}

fn write_step(
    out: &mut dyn Write,
    id: u64,
    clause: &[i64],
    hints: &[u64],
) -> Result<(), ProofError> {
    let mut line = id.to_string();
    for l in clause {
        line.push_str(&format!(" {l}"));
    }
    line.push_str(" 0");
    for h in hints {
        line.push_str(&format!(" {h}"));
    }
    line.push_str(" 0");
    writeln!(out, "{line}").map_err(write_error)
}

fn write_error(e: std::io::Error) -> ProofError {
    ProofError::Write(e)
}

/// Checks a text LRAT proof of the formula's unsatisfiability: every step's
/// hints, read in order under the negation of its clause, must each be unit
/// (and then assigned) until one is false; the proof must add the empty clause.
/// Returns the number of added clauses. Needs no search, so it is much faster
/// than [`check`]; it shares nothing with the code that writes LRAT.
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
        message: "not UTF-8 text".into(),
    })?;
    let mut added = 0;
    let mut last = clauses.len() as u64;
    for (n, line) in text.lines().enumerate() {
        let step = n + 1;
        let bad = |message: &str| ProofError::Malformed {
            offset: step,
            message: format!("line {step}: {message}"),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id: u64 = words[0].parse().map_err(|_| bad("no step number"))?;
        if words.get(1) == Some(&"d") {
            for w in &words[2..] {
                let gone: u64 = w.parse().map_err(|_| bad("bad clause number"))?;
                if gone != 0 {
                    present.remove(&gone);
                }
            }
            continue;
        }
        if id <= last {
            return Err(bad("step numbers must increase"));
        }
        last = id;
        let numbers: Vec<i64> = words[1..]
            .iter()
            .map(|w| w.parse().map_err(|_| bad("not a number")))
            .collect::<Result<_, _>>()?;
        let split = numbers
            .iter()
            .position(|&x| x == 0)
            .ok_or_else(|| bad("clause not ended by 0"))?;
        let (clause, rest) = (&numbers[..split], &numbers[split + 1..]);
        if rest.last() != Some(&0) {
            return Err(bad("hints not ended by 0"));
        }
        let mut value: HashMap<u64, bool> =
            clause.iter().map(|&l| (l.unsigned_abs(), l < 0)).collect();
        let mut refuted = false;
        for &hint in &rest[..rest.len() - 1] {
            let hinted = u64::try_from(hint).map_err(|_| bad("RAT hints are not accepted"))?;
            let lits = present
                .get(&hinted)
                .ok_or_else(|| bad("hint names no present clause"))?;
            let open: Vec<i64> = lits
                .iter()
                .copied()
                .filter(|&l| value.get(&l.unsigned_abs()) != Some(&(l < 0)))
                .collect();
            if open
                .iter()
                .any(|&l| value.get(&l.unsigned_abs()) == Some(&(l > 0)))
            {
                return Err(bad("a hint is already satisfied"));
            }
            match open.as_slice() {
                [] => {
                    refuted = true;
                    break;
                }
                [unit] => {
                    value.insert(unit.unsigned_abs(), *unit > 0);
                }
                _ => return Err(bad("a hint is not unit")),
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

#[cfg(test)]
mod tests;
