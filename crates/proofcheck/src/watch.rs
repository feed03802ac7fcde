//! Unit propagation for the backward checker: two watched literals per
//! clause with a blocking literal, core clauses first.
//!
//! Every literal has two watch lists, one for core clauses (those a check
//! has used) and one for the rest. Propagation exhausts the core lists before
//! it looks at one non-core list, so that a conflict is found with core
//! clauses where it can be, and the core, the part of the proof that is
//! checked at all, stays small (the technique of drat-trim). A clause that
//! becomes core moves to the core lists the next time its watch is visited.
//!
//! The assignment has one level above the top level: a check assigns the
//! negation of a lemma, propagates, and backtracks to the top level, whose
//! trail the caller shortens or lengthens as it walks the proof.

use super::store::Store;

/// No clause: the reason of an assumption.
pub(super) const NO_REASON: u32 = u32::MAX;

/// A watch: the clause, and a literal of it that, when true, spares a visit.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: u32,
}

/// The assignment, the watch lists, and which clauses are present or core.
pub(super) struct Engine {
    /// Per literal code: 1 true, -1 false, 0 unassigned.
    pub(super) value: Vec<i8>,
    /// Per variable: the clause that forced it (`NO_REASON`: an assumption).
    pub(super) reason: Vec<u32>,
    /// Per variable: its place on the trail.
    pub(super) place: Vec<u32>,
    /// True literals in the order they were assigned.
    pub(super) trail: Vec<u32>,
    head_core: usize,
    head_other: usize,
    core_watches: Vec<Vec<Watch>>,
    other_watches: Vec<Vec<Watch>>,
    /// Per clause: present now.
    pub(super) active: Vec<bool>,
    /// Per clause: used by a check.
    pub(super) core: Vec<bool>,
    /// Per variable: marks of [`Engine::analyze`].
    seen: Vec<bool>,
}

impl Engine {
    pub(super) fn new(vars: usize, clauses: usize) -> Engine {
        let codes = 2 * (vars + 1);
        Engine {
            value: vec![0; codes],
            reason: vec![NO_REASON; vars + 1],
            place: vec![0; vars + 1],
            trail: Vec::new(),
            head_core: 0,
            head_other: 0,
            core_watches: vec![Vec::new(); codes],
            other_watches: vec![Vec::new(); codes],
            active: vec![false; clauses],
            core: vec![false; clauses],
            seen: vec![false; vars + 1],
        }
    }

    #[inline]
    pub(super) fn assign(&mut self, lit: u32, reason: u32) {
        self.value[lit as usize] = 1;
        self.value[(lit ^ 1) as usize] = -1;
        let var = (lit >> 1) as usize;
        self.reason[var] = reason;
        self.place[var] = self.trail.len() as u32;
        self.trail.push(lit);
    }

    /// Unassigns everything after the first `len` trail entries.
    pub(super) fn backtrack(&mut self, len: usize) {
        for &lit in &self.trail[len..] {
            self.value[lit as usize] = 0;
            self.value[(lit ^ 1) as usize] = 0;
        }
        self.trail.truncate(len);
        self.head_core = self.head_core.min(len);
        self.head_other = self.head_other.min(len);
    }

    /// How good a literal is to watch: true ones first (earliest first),
    /// then unassigned ones, then false ones (latest first).
    fn rank(&self, lit: u32) -> (u8, u32) {
        let place = self.place[(lit >> 1) as usize];
        match self.value[lit as usize] {
            1 => (0, place),
            0 => (1, 0),
            _ => (2, u32::MAX - place),
        }
    }

    /// Makes clause `id` present: watches its two best literals. Returns the
    /// clause when it is false under the assignment; assigns its last open
    /// literal when it is unit. A unit clause is not watched (the trail holds
    /// its literal); an empty clause is false.
    pub(super) fn attach(&mut self, store: &mut Store, id: u32) -> Option<u32> {
        self.active[id as usize] = true;
        let (from, to) = (store.start[id as usize], store.start[id as usize + 1]);
        if to - from >= 2 {
            for slot in [from, from + 1] {
                let best = (slot..to)
                    .min_by_key(|&k| self.rank(store.lits[k]))
                    .unwrap_or(slot);
                store.lits.swap(slot, best);
            }
            let (a, b) = (store.lits[from], store.lits[from + 1]);
            let lists = self.lists_mut(id);
            lists[a as usize].push(Watch {
                clause: id,
                blocker: b,
            });
            lists[b as usize].push(Watch {
                clause: id,
                blocker: a,
            });
            if self.value[b as usize] != -1 {
                return None;
            }
        }
        match store.lits.get(from).filter(|_| to > from) {
            None => Some(id),
            Some(&first) => match self.value[first as usize] {
                -1 => Some(id),
                0 => {
                    self.assign(first, id);
                    None
                }
                _ => None,
            },
        }
    }

    fn lists_mut(&mut self, id: u32) -> &mut Vec<Vec<Watch>> {
        if self.core[id as usize] {
            &mut self.core_watches
        } else {
            &mut self.other_watches
        }
    }

    /// Makes clause `id` absent: takes it off its watch lists.
    pub(super) fn detach(&mut self, store: &Store, id: u32) {
        self.active[id as usize] = false;
        let clause = store.clause(id);
        if clause.len() < 2 {
            return;
        }
        for &lit in &clause[..2] {
            for lists in [&mut self.core_watches, &mut self.other_watches] {
                let list = &mut lists[lit as usize];
                if let Some(at) = list.iter().rposition(|w| w.clause == id) {
                    list.swap_remove(at);
                    break;
                }
            }
        }
    }

    /// Propagates from the unvisited part of the trail, core clauses first.
    /// Returns a false clause, or `None` at a fixpoint.
    pub(super) fn propagate(&mut self, store: &mut Store) -> Option<u32> {
        loop {
            while self.head_core < self.trail.len() {
                let lit = self.trail[self.head_core];
                self.head_core += 1;
                if let Some(conflict) = self.visit(store, lit ^ 1, true) {
                    return Some(conflict);
                }
            }
            if self.head_other >= self.trail.len() {
                return None;
            }
            let lit = self.trail[self.head_other];
            self.head_other += 1;
            if let Some(conflict) = self.visit(store, lit ^ 1, false) {
                return Some(conflict);
            }
        }
    }

    /// Visits the clauses of one watch list of `falsified`, now false.
    fn visit(&mut self, store: &mut Store, falsified: u32, core_list: bool) -> Option<u32> {
        let mut list = if core_list {
            std::mem::take(&mut self.core_watches[falsified as usize])
        } else {
            std::mem::take(&mut self.other_watches[falsified as usize])
        };
        let (mut i, mut kept) = (0, 0);
        let mut conflict = None;
        while i < list.len() {
            let w = list[i];
            i += 1;
            if self.value[w.blocker as usize] == 1 {
                list[kept] = w;
                kept += 1;
                continue;
            }
            let id = w.clause as usize;
            let (from, to) = (store.start[id], store.start[id + 1]);
            let lits = &mut store.lits[from..to];
            if lits[0] == falsified {
                lits.swap(0, 1);
            }
            let first = lits[0];
            let to_core = self.core[id];
            let watch = Watch {
                clause: w.clause,
                blocker: first,
            };
            if first != w.blocker && self.value[first as usize] == 1 {
                if to_core && !core_list {
                    self.core_watches[falsified as usize].push(watch);
                } else {
                    list[kept] = watch;
                    kept += 1;
                }
                continue;
            }
            if let Some(k) = (2..lits.len()).find(|&k| self.value[lits[k] as usize] != -1) {
                lits.swap(1, k);
                let new = lits[1] as usize;
                if to_core {
                    self.core_watches[new].push(watch);
                } else {
                    self.other_watches[new].push(watch);
                }
                continue;
            }
            if to_core && !core_list {
                self.core_watches[falsified as usize].push(watch);
            } else {
                list[kept] = watch;
                kept += 1;
            }
            if self.value[first as usize] == -1 {
                conflict = Some(w.clause);
                while i < list.len() {
                    list[kept] = list[i];
                    kept += 1;
                    i += 1;
                }
            } else {
                self.assign(first, w.clause);
            }
        }
        list.truncate(kept);
        if core_list {
            self.core_watches[falsified as usize] = list;
        } else {
            self.other_watches[falsified as usize] = list;
        }
        conflict
    }

    /// Marks as core the clause `conflict` and every reason its falsity
    /// rests on, not following the variables of `assumed` (assigned by the
    /// check itself). With `hints`, pushes the reasons used in trail order,
    /// then `conflict`: the hints of an LRAT step.
    pub(super) fn analyze(
        &mut self,
        store: &Store,
        conflict: u32,
        assumed: &[u32],
        hints: Option<&mut Vec<u32>>,
    ) {
        let mut marked: Vec<usize> = Vec::new();
        for &l in assumed {
            let var = (l >> 1) as usize;
            if !self.seen[var] {
                self.seen[var] = true;
                marked.push(var);
            }
        }
        let mut used: Vec<(u32, u32)> = Vec::new();
        let mut stack = vec![conflict];
        self.core[conflict as usize] = true;
        while let Some(c) = stack.pop() {
            for &lit in store.clause(c) {
                let var = (lit >> 1) as usize;
                let reason = self.reason[var];
                if self.seen[var] || reason == NO_REASON || reason == c {
                    continue;
                }
                if self.value[lit as usize] == 0 {
                    continue;
                }
                self.seen[var] = true;
                marked.push(var);
                self.core[reason as usize] = true;
                used.push((self.place[var], reason));
                stack.push(reason);
            }
        }
        for var in marked {
            self.seen[var] = false;
        }
        if let Some(hints) = hints {
            used.sort_unstable();
            hints.extend(used.iter().map(|&(_, c)| c));
            hints.push(conflict);
        }
    }
}
