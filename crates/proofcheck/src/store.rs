//! The formula and the whole DRAT proof, read once into one flat arena of
//! literals, for the backward checker.
//!
//! A backward check walks the proof from its end, so the proof is held in
//! memory; it is held as compactly as it can be: every clause (formula first,
//! then the lemmas in order) is a run of `u32` literal codes in one vector,
//! found by its offset, and the proof itself becomes a list of steps naming
//! clauses by number. A deletion is matched to the clause it deletes while
//! reading, through a hash of the clause's literals that does not depend on
//! their order; a deletion of a clause not present is counted and dropped, as
//! drat-trim does.

use super::lex::{self, Position};
use super::parse::Step;
use super::{EXTENSION_VARIABLES, ProofError, ProofFormat};
use std::collections::HashMap;
use std::io::BufRead;

/// Literal `±v` as a code: `2v` for positive, `2v + 1` for negative.
#[inline]
pub(super) fn lit_code(l: i64) -> u32 {
    (2 * l.unsigned_abs() + u64::from(l < 0)) as u32
}

/// The literal a code stands for.
#[inline]
pub(super) fn lit_value(code: u32) -> i64 {
    let v = i64::from(code >> 1);
    if code & 1 == 1 { -v } else { v }
}

/// A step of the proof: `clause << 1 | deletion`.
pub(super) type StepCode = u32;

/// The formula and the proof, read.
pub(super) struct Store {
    /// Every clause's literals, one after the other.
    pub(super) lits: Vec<u32>,
    /// Per clause: where its literals start (one more entry: the end).
    pub(super) start: Vec<usize>,
    /// Clauses `0..formula` are the formula's.
    pub(super) formula: usize,
    /// The proof's steps, additions and deletions of present clauses.
    pub(super) steps: Vec<StepCode>,
    /// Per lemma (clause number minus `formula`): its position in the file.
    pub(super) position: Vec<Position>,
    /// Per lemma: its 1-based step number in the proof, deletions counted.
    pub(super) step_number: Vec<u32>,
    /// Per lemma: its first literal, the pivot of a RAT check (0: none).
    pub(super) pivot: Vec<u32>,
    /// Per clause: whether it holds a literal and its negation.
    pub(super) tautology: Vec<bool>,
    /// The largest variable named.
    pub(super) vars: usize,
    /// Deletions of clauses not present.
    pub(super) ignored_deletions: usize,
    /// Whether the formula has the empty clause.
    pub(super) formula_empty: Option<u32>,
}

/// An order-independent hash of a clause's literal codes.
fn hash_of(lits: &[u32]) -> u64 {
    let (mut sum, mut xor, mut prod) = (0u64, 0u64, 1u64);
    for &l in lits {
        let x = u64::from(l).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        sum = sum.wrapping_add(x);
        xor ^= x.rotate_left(29);
        prod = prod.wrapping_mul(x | 1);
    }
    sum ^ xor.rotate_left(17) ^ prod.rotate_left(41)
}

/// A hasher for keys that are hashes already: it passes them through.
#[derive(Default)]
struct Passthrough(u64);

impl std::hash::Hasher for Passthrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type HashIndex = HashMap<u64, u32, std::hash::BuildHasherDefault<Passthrough>>;

/// Matches deletions to present clauses.
struct Index {
    /// Per hash: the most recent present clause with it.
    head: HashIndex,
    /// Per clause: the next present clause with the same hash (`u32::MAX`: none).
    next: Vec<u32>,
    /// Per literal code: the stamp of the clause being looked up.
    stamp: Vec<u32>,
    clock: u32,
}

const NIL: u32 = u32::MAX;

impl Index {
    fn insert(&mut self, id: u32, hash: u64) {
        let old = self.head.insert(hash, id).unwrap_or(NIL);
        self.next.push(old);
    }

    /// Removes and returns a present clause with exactly these (distinct) literals.
    fn remove(&mut self, store: &Store, lits: &[u32], hash: u64) -> Option<u32> {
        self.clock = self.clock.wrapping_add(1);
        if self.clock == 0 {
            self.stamp.fill(0);
            self.clock = 1;
        }
        for &l in lits {
            if self.stamp.len() <= l as usize {
                self.stamp.resize(l as usize + 1, 0);
            }
            self.stamp[l as usize] = self.clock;
        }
        let mut previous = NIL;
        let mut id = self.head.get(&hash).copied().unwrap_or(NIL);
        while id != NIL {
            let c = store.clause(id);
            let same = c.len() == lits.len()
                && c.iter()
                    .all(|&l| self.stamp.get(l as usize) == Some(&self.clock));
            if same {
                let next = self.next[id as usize];
                if previous != NIL {
                    self.next[previous as usize] = next;
                } else if next == NIL {
                    self.head.remove(&hash);
                } else {
                    self.head.insert(hash, next);
                }
                return Some(id);
            }
            previous = id;
            id = self.next[id as usize];
        }
        None
    }
}

impl Store {
    /// The literals of clause `id`.
    #[inline]
    pub(super) fn clause(&self, id: u32) -> &[u32] {
        &self.lits[self.start[id as usize]..self.start[id as usize + 1]]
    }

    /// Number of clauses, formula and lemmas.
    pub(super) fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Appends a clause (duplicate literals dropped, the first kept in place)
    /// and returns its number and hash.
    fn push(&mut self, clause: impl IntoIterator<Item = u32>, marks: &mut Vec<bool>) -> (u32, u64) {
        let from = self.lits.len();
        let mut tautology = false;
        for l in clause {
            if marks.len() <= (l | 1) as usize {
                marks.resize((l | 1) as usize + 1, false);
            }
            if marks[l as usize] {
                continue;
            }
            tautology |= marks[(l ^ 1) as usize];
            marks[l as usize] = true;
            self.lits.push(l);
        }
        for &l in &self.lits[from..] {
            marks[l as usize] = false;
        }
        self.start.push(self.lits.len());
        self.tautology.push(tautology);
        let id = (self.start.len() - 2) as u32;
        (id, hash_of(&self.lits[from..]))
    }

    /// Reads the formula and the whole proof.
    pub(super) fn read(
        vars: usize,
        clauses: &[Vec<i32>],
        proof: impl BufRead,
        format: ProofFormat,
    ) -> Result<Store, ProofError> {
        let mut store = Store {
            lits: Vec::new(),
            start: vec![0],
            formula: clauses.len(),
            steps: Vec::new(),
            position: Vec::new(),
            step_number: Vec::new(),
            pivot: Vec::new(),
            tautology: Vec::new(),
            vars,
            ignored_deletions: 0,
            formula_empty: None,
        };
        let mut index = Index {
            head: HashIndex::default(),
            next: Vec::new(),
            stamp: Vec::new(),
            clock: 0,
        };
        let mut marks = Vec::new();
        for clause in clauses {
            let top = clause.iter().map(|l| l.unsigned_abs() as usize).max();
            store.vars = store.vars.max(top.unwrap_or(0));
            let (id, hash) = store.push(clause.iter().map(|&l| lit_code(l.into())), &mut marks);
            if clause.is_empty() && store.formula_empty.is_none() {
                store.formula_empty = Some(id);
            }
            index.insert(id, hash);
        }
        let mut bytes = Vec::new();
        let mut proof = proof;
        proof.read_to_end(&mut bytes).map_err(ProofError::Read)?;
        let mut scratch: Vec<u32> = Vec::new();
        let formula_vars = store.vars;
        let mut top = formula_vars as u32;
        lex::steps(&bytes, format, &mut |step| {
            match step.kind {
                Step::Add => {
                    // Only lemmas count: a deletion names a clause present or
                    // is ignored, so its variables would only cost memory.
                    for &l in step.lits {
                        top = top.max(l >> 1);
                    }
                    if top as usize > formula_vars.saturating_add(EXTENSION_VARIABLES) {
                        return Err(ProofError::NewVariableTooLarge {
                            step: step.number,
                            variable: u64::from(top),
                            formula: formula_vars,
                        });
                    }
                    let (id, hash) = store.push(step.lits.iter().copied(), &mut marks);
                    if id >= (1 << 31) {
                        return Err(ProofError::TooManyClauses);
                    }
                    index.insert(id, hash);
                    store.position.push(step.position);
                    store
                        .step_number
                        .push(u32::try_from(step.number).unwrap_or(u32::MAX));
                    store.pivot.push(step.lits.first().copied().unwrap_or(0));
                    store.steps.push(id << 1);
                }
                // A variable no clause has yet: no clause present matches.
                Step::Delete if step.lits.iter().any(|&l| l >> 1 > top) => {
                    store.ignored_deletions += 1;
                }
                Step::Delete => {
                    scratch.clear();
                    for &l in step.lits {
                        if marks.len() <= (l | 1) as usize {
                            marks.resize((l | 1) as usize + 1, false);
                        }
                        if !marks[l as usize] {
                            marks[l as usize] = true;
                            scratch.push(l);
                        }
                    }
                    for &l in &scratch {
                        marks[l as usize] = false;
                    }
                    match index.remove(&store, &scratch, hash_of(&scratch)) {
                        Some(id) => store.steps.push(id << 1 | 1),
                        None => store.ignored_deletions += 1,
                    }
                }
            }
            Ok(())
        })?;
        store.vars = store.vars.max(top as usize);
        Ok(store)
    }
}
