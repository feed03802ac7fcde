//! The clause database of the DRAT checker: watched literals, unit
//! propagation at the top level, the RAT check, and the LRAT hints a
//! propagation used.
//!
//! A deleted clause gives its memory and its slot back at once (it is taken
//! off its two watch lists), so the database holds the clauses present and no
//! more: a long proof that deletes as it goes is checked in the memory of its
//! largest clause set. Clauses are found for deletion by a hash of their
//! sorted literals, not by a second copy of them.

use std::collections::HashMap;

/// Literal `±v` as an index: `2(v-1)` for positive, `2(v-1)+1` for negative.
pub(super) fn code(l: i64) -> usize {
    2 * (l.unsigned_abs() as usize - 1) + usize::from(l < 0)
}

/// The clauses present, with the top-level assignment they force.
pub(super) struct Db {
    clauses: Vec<Vec<usize>>,
    deleted: Vec<bool>,
    watches: Vec<Vec<usize>>,
    /// Value per literal code: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    trail: Vec<usize>,
    head: usize,
    /// Per hash of a clause's sorted literals: the first slot with that hash.
    by_hash: HashMap<u64, usize>,
    /// Per slot: the next slot with the same hash (`NONE`: the last).
    same_hash: Vec<usize>,
    /// Slots of deleted clauses, to be reused.
    free: Vec<usize>,
    /// Whether the clauses present are refuted at the top level.
    pub(super) refuted: bool,
    /// Per variable: the clause that implied its value (`NONE`: an assumption).
    reason: Vec<usize>,
    /// Per variable: its place on the trail.
    place: Vec<usize>,
    /// The clause found false by the last failed propagation.
    pub(super) conflict: usize,
    /// Per clause: its number in the LRAT numbering (originals first, in order).
    lrat_id: Vec<u64>,
    /// The last LRAT number given out.
    pub(super) last_id: u64,
    /// Per variable: marks for [`Db::explain`].
    seen: Vec<bool>,
}

/// A hash of sorted literals (FNV-1a over their codes).
fn hash_of(sorted: &[usize]) -> u64 {
    sorted.iter().fold(0xcbf2_9ce4_8422_2325, |h, &l| {
        (h ^ l as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// No clause: the reason of an assumption, or no conflict clause.
pub(super) const NONE: usize = usize::MAX;

impl Db {
    pub(super) fn new(vars: usize) -> Db {
        Db {
            clauses: Vec::new(),
            deleted: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            value: vec![0; 2 * vars],
            trail: Vec::new(),
            head: 0,
            by_hash: HashMap::new(),
            same_hash: Vec::new(),
            free: Vec::new(),
            refuted: false,
            reason: vec![NONE; vars],
            place: vec![0; vars],
            conflict: NONE,
            lrat_id: Vec::new(),
            last_id: 0,
            seen: vec![false; vars],
        }
    }

    /// Makes room for variables up to `vars`: a proof may introduce
    /// extension variables the formula does not have (a RAT lemma on a fresh
    /// variable defines it), and they start unassigned and unwatched.
    pub(super) fn grow(&mut self, vars: usize) {
        if vars > self.reason.len() {
            self.watches.resize(2 * vars, Vec::new());
            self.value.resize(2 * vars, 0);
            self.reason.resize(vars, NONE);
            self.place.resize(vars, 0);
            self.seen.resize(vars, false);
        }
    }

    /// Slots in use or free for reuse: the database's size.
    #[cfg(test)]
    pub(super) fn slots(&self) -> usize {
        self.clauses.len()
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
    /// The variables of `lemma` are not explained: an LRAT checker assigns them
    /// from the lemma's negation, so the clauses that forced them at the top
    /// level would be satisfied hints.
    pub(super) fn explain(&mut self, conflict: usize, lemma: &[usize]) -> Vec<u64> {
        let mut used = Vec::new();
        let mut stack = vec![conflict];
        let mut marked = Vec::new();
        for &l in lemma {
            if !self.seen[l / 2] {
                self.seen[l / 2] = true;
                marked.push(l / 2);
            }
        }
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
    pub(super) fn propagate(&mut self) -> bool {
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
    pub(super) fn add(&mut self, mut lits: Vec<usize>) {
        self.last_id += 1;
        if self.refuted {
            return;
        }
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return; // a tautology holds in every assignment
        }
        let hash = hash_of(&lits);
        // Watch two non-false literals if there are, true ones first.
        lits.sort_by_key(|&l| match self.value[l] {
            1 => 0,
            0 => 1,
            _ => 2,
        });
        if lits.is_empty() {
            self.refuted = true;
            self.conflict = NONE;
            return;
        }
        let first = lits[0];
        let unit = lits.len() == 1 || self.value[lits[1]] == -1;
        let next = self.by_hash.get(&hash).copied().unwrap_or(NONE);
        let id = match self.free.pop() {
            Some(id) => {
                self.clauses[id] = lits;
                self.deleted[id] = false;
                self.lrat_id[id] = self.last_id;
                self.same_hash[id] = next;
                id
            }
            None => {
                self.clauses.push(lits);
                self.deleted.push(false);
                self.lrat_id.push(self.last_id);
                self.same_hash.push(next);
                self.clauses.len() - 1
            }
        };
        self.by_hash.insert(hash, id);
        if self.clauses[id].len() >= 2 {
            let (a, b) = (self.clauses[id][0], self.clauses[id][1]);
            self.watches[a].push(id);
            self.watches[b].push(id);
        }
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

    /// Deletes a clause; returns its LRAT number and whether it was kept
    /// because it gives a top-level value its reason (then the clause stays
    /// present: the value it forced stays, and the RAT check must see it), or
    /// `None` when the clause is not present.
    pub(super) fn delete(&mut self, mut lits: Vec<usize>) -> Option<(u64, bool)> {
        lits.sort_unstable();
        lits.dedup();
        let hash = hash_of(&lits);
        let mut previous = NONE;
        let mut id = self.by_hash.get(&hash).copied().unwrap_or(NONE);
        while id != NONE {
            if self.clauses[id].len() == lits.len() && {
                let mut sorted = self.clauses[id].clone();
                sorted.sort_unstable();
                sorted == lits
            } {
                break;
            }
            previous = id;
            id = self.same_hash[id];
        }
        if id == NONE {
            return None;
        }
        let is_reason = |l: usize| self.value[l] != 0 && self.reason[l / 2] == id;
        if self.clauses[id].iter().any(|&l| is_reason(l)) {
            return Some((self.lrat_id[id], true));
        }
        // Off the hash chain, off the watch lists, memory and slot given back.
        let next = self.same_hash[id];
        if previous == NONE {
            if next == NONE {
                self.by_hash.remove(&hash);
            } else {
                self.by_hash.insert(hash, next);
            }
        } else {
            self.same_hash[previous] = next;
        }
        let clause = std::mem::take(&mut self.clauses[id]);
        if clause.len() >= 2 {
            for &watched in &clause[..2] {
                let list = &mut self.watches[watched];
                if let Some(at) = list.iter().position(|&c| c == id) {
                    list.swap_remove(at);
                }
            }
        }
        self.deleted[id] = true;
        self.free.push(id);
        Some((self.lrat_id[id], false))
    }

    /// Whether `lits` is a resolution asymmetric tautology on its first
    /// literal `p`: for every clause present that contains ¬p, the lemma joined
    /// with the rest of that clause is a tautology or follows by unit
    /// propagation. Scans the whole database (RAT lemmas are rare).
    pub(super) fn rat(&mut self, lits: &[usize]) -> bool {
        let Some(&pivot) = lits.first() else {
            return false;
        };
        let mut resolvent = Vec::new();
        for id in 0..self.clauses.len() {
            if self.deleted[id] || !self.clauses[id].contains(&(pivot ^ 1)) {
                continue;
            }
            resolvent.clear();
            resolvent.extend_from_slice(lits);
            resolvent.extend(self.clauses[id].iter().filter(|&&l| l != pivot ^ 1));
            resolvent.sort_unstable();
            resolvent.dedup();
            if resolvent.windows(2).any(|w| w[0] ^ 1 == w[1]) {
                continue;
            }
            if self.rup(&resolvent, false).is_none() {
                return false;
            }
        }
        true
    }

    /// Whether `lits` follows from the clauses by unit propagation; with
    /// `explain`, the LRAT hints that show it.
    pub(super) fn rup(&mut self, lits: &[usize], explain: bool) -> Option<Vec<u64>> {
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
                self.explain(c, lits)
            } else {
                Vec::new()
            }
        });
        self.backtrack(mark);
        hints
    }
}
