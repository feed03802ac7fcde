//! The clauses present during an LRAT check: one flat arena of literals, found
//! by clause number through a vector (numbers are dense in practice: the
//! formula's clauses are 1, 2, …, and a proof's numbers increase), with a map
//! for numbers too far above the others to index. Deleted clauses leave
//! garbage that is compacted away once it is half the arena, so memory follows
//! the clauses present, not the proof.

use std::collections::HashMap;

/// Where a clause's literals are in the arena; `len == ABSENT` when there is no clause.
#[derive(Clone, Copy, Debug)]
struct Entry {
    start: usize,
    len: u32,
}

const ABSENT: u32 = u32::MAX;
const NO_ENTRY: Entry = Entry {
    start: 0,
    len: ABSENT,
};

/// How far above the indexed numbers a new number may be and still be indexed.
const MAX_GAP: u64 = 1 << 22;

/// The clauses present, by number.
pub(super) struct Store {
    lits: Vec<i32>,
    index: Vec<Entry>,
    /// Numbers too large to index (once one is here, the index stops growing,
    /// so a number is in one place only).
    overflow: HashMap<u64, Entry>,
    garbage: usize,
}

impl Store {
    pub(super) fn new() -> Store {
        Store {
            lits: Vec::new(),
            index: Vec::new(),
            overflow: HashMap::new(),
            garbage: 0,
        }
    }

    /// The literals of clause `id`, if it is present.
    #[inline]
    pub(super) fn get(&self, id: u64) -> Option<&[i32]> {
        let entry = match usize::try_from(id).ok().and_then(|i| self.index.get(i)) {
            Some(e) => *e,
            None => *self.overflow.get(&id)?,
        };
        if entry.len == ABSENT {
            return None;
        }
        Some(&self.lits[entry.start..entry.start + entry.len as usize])
    }

    /// Adds clause `id` (a number above every number added before).
    pub(super) fn add(&mut self, id: u64, lits: impl IntoIterator<Item = i32>) {
        let start = self.lits.len();
        self.lits.extend(lits);
        let entry = Entry {
            start,
            len: (self.lits.len() - start) as u32,
        };
        let indexable = self.overflow.is_empty() && id <= self.index.len() as u64 + MAX_GAP;
        match usize::try_from(id).ok().filter(|_| indexable) {
            Some(i) => {
                if i >= self.index.len() {
                    self.index.resize(i + 1, NO_ENTRY);
                }
                self.index[i] = entry;
            }
            None => {
                self.overflow.insert(id, entry);
            }
        }
    }

    /// Deletes clause `id` (nothing when it is not present).
    pub(super) fn delete(&mut self, id: u64) {
        let slot = match usize::try_from(id).ok().and_then(|i| self.index.get_mut(i)) {
            Some(e) => Some(e),
            None => self.overflow.get_mut(&id),
        };
        if let Some(entry) = slot.filter(|e| e.len != ABSENT) {
            self.garbage += entry.len as usize;
            entry.len = ABSENT;
        }
        if self.garbage > 1 << 20 && self.garbage * 2 > self.lits.len() {
            self.compact();
        }
    }

    /// Moves the clauses present to the front of the arena, in arena order
    /// (which is number order: the index's numbers, then the map's, all added
    /// in increasing order), and frees the rest.
    fn compact(&mut self) {
        let mut overflow: Vec<(u64, Entry)> = self.overflow.drain().collect();
        overflow.sort_unstable_by_key(|&(id, _)| id);
        let mut to = 0;
        let lits = &mut self.lits;
        let mut shift = |e: &mut Entry| {
            if e.len != ABSENT {
                lits.copy_within(e.start..e.start + e.len as usize, to);
                e.start = to;
                to += e.len as usize;
            }
        };
        self.index.iter_mut().for_each(&mut shift);
        overflow.iter_mut().for_each(|(_, e)| shift(e));
        self.lits.truncate(to);
        self.lits.shrink_to(to * 2);
        self.overflow = overflow
            .into_iter()
            .filter(|(_, e)| e.len != ABSENT)
            .collect();
        self.garbage = 0;
    }

    /// The numbers of the clauses present that contain `lit`, in increasing order.
    pub(super) fn containing(&self, lit: i32) -> Vec<u64> {
        let has = |e: &Entry| {
            e.len != ABSENT && self.lits[e.start..e.start + e.len as usize].contains(&lit)
        };
        let mut found: Vec<u64> = (0..self.index.len())
            .filter(|&i| has(&self.index[i]))
            .map(|i| i as u64)
            .collect();
        let mut far: Vec<u64> = self
            .overflow
            .iter()
            .filter(|(_, e)| has(e))
            .map(|(&id, _)| id)
            .collect();
        far.sort_unstable();
        found.extend(far);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_survive_compaction_and_far_numbers() {
        let mut store = Store::new();
        let big = 3_000_000usize;
        for id in 1..=big as u64 {
            store.add(id, [id as i32, -(id as i32) - 1]);
        }
        store.add(1 << 40, [7, 8, 9]);
        let far = 50_000_000;
        store.add((1 << 40) + 5, [-far]);
        for id in (1..=big as u64).filter(|id| id % 3 != 0) {
            store.delete(id);
        }
        assert_eq!(store.get(3), Some(&[3, -4][..]));
        assert_eq!(store.get(4), None);
        assert_eq!(
            store.get(big as u64),
            Some(&[big as i32, -(big as i32) - 1][..])
        );
        assert_eq!(store.get(1 << 40), Some(&[7, 8, 9][..]));
        // A third of the clauses (two literals each) are left: at most twice that is kept.
        assert!(store.lits.len() <= 2 * (2 * big / 3) + 4);
        assert_eq!(store.containing(-far), vec![(1 << 40) + 5]);
        assert_eq!(store.containing(-7), vec![6]);
        assert_eq!(store.containing(-4), vec![3]);
        store.delete(1 << 40);
        assert_eq!(store.get(1 << 40), None);
    }
}
