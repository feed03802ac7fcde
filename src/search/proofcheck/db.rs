//! The clause database of the DRUP checker: watched literals, unit
//! propagation at the top level, and the LRAT hints a propagation used.

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
    by_key: HashMap<Vec<usize>, Vec<usize>>,
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
    pub(super) fn explain(&mut self, conflict: usize) -> Vec<u64> {
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
    pub(super) fn delete(&mut self, mut lits: Vec<usize>) -> Option<(u64, bool)> {
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
                self.explain(c)
            } else {
                Vec::new()
            }
        });
        self.backtrack(mark);
        hints
    }
}
