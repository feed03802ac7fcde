//! A greedy packer of valid tables for the simulator: one shortest word per
//! target, placed first-fit, for any group and message set.
//!
//! It is how benchmarks get realistic load (every link busy in most steps) and
//! how property tests get tables that must simulate clean.
//!
//! This file is the one copy of that support. It is compiled into the integration
//! tests and benchmarks (through `tests/common/mod.rs`) and into the library's own
//! unit tests (a `#[cfg(test)]` module of `simulate`); both parents provide
//! `Elem`, `FiniteGroup`, `GenLetter` and the simulator's `PlacedWord`, which is
//! why they are imported from `super`.

use std::collections::VecDeque;

use super::{Elem, FiniteGroup, GenLetter, PlacedWord};

/// A shortest word over the links (as link indices) for every element, by
/// breadth-first search trying links in order. `None` for unreachable elements.
pub fn shortest_link_words(group: &FiniteGroup, links: &[GenLetter]) -> Vec<Option<Vec<usize>>> {
    let n = group.order();
    let mut parent: Vec<Option<(Elem, usize)>> = vec![None; n];
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut queue = VecDeque::from([Elem::IDENTITY]);
    while let Some(g) = queue.pop_front() {
        for (i, &s) in links.iter().enumerate() {
            let h = group.apply(g, s);
            if !seen[h.index()] {
                seen[h.index()] = true;
                parent[h.index()] = Some((g, i));
                queue.push_back(h);
            }
        }
    }
    (0..n)
        .map(|e| {
            if !seen[e] {
                return None;
            }
            let mut word = Vec::new();
            let mut cur = e;
            while let Some((g, i)) = parent[cur] {
                word.push(i);
                cur = g.index();
            }
            word.reverse();
            Some(word)
        })
        .collect()
}

/// A valid table by first-fit packing: one shortest word per target element,
/// longest words first, each placed at the earliest start column where every
/// letter's (column, link) cell is free and no column exceeds `ports` letters.
///
/// Distinct links in a column and distinct sources of one word never share a
/// physical link, so the result is always conflict-free. Rows are then
/// assigned by first fit over start columns (interval colouring).
///
/// # Panics
/// When a target is the identity or not reachable over the links, or `ports == 0`.
pub fn greedy_placed_words(
    group: &FiniteGroup,
    links: &[GenLetter],
    targets: &[Elem],
    ports: usize,
) -> Vec<PlacedWord> {
    assert!(ports >= 1);
    let words = shortest_link_words(group, links);
    let mut order: Vec<(Elem, Vec<usize>)> = targets
        .iter()
        .map(|&e| {
            assert!(e != Elem::IDENTITY, "the identity is not a message");
            (
                e,
                words[e.index()]
                    .clone()
                    .expect("target reachable over the links"),
            )
        })
        .collect();
    order.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));

    let mut grid = Grid {
        busy: vec![Vec::new(); links.len()],
        full: Vec::new(),
        count: Vec::new(),
        ports,
    };
    let mut placed: Vec<(usize, Vec<usize>)> = Vec::with_capacity(order.len());
    for (_, word) in order {
        let column = grid.first_fit(&word);
        grid.place(column, &word);
        placed.push((column, word));
    }
    // Rows by interval colouring in order of start column.
    placed.sort_by_key(|(c, _)| *c);
    let mut row_end: Vec<usize> = Vec::new();
    placed
        .into_iter()
        .map(|(column, letters)| {
            let end = column + letters.len() - 1;
            let row = match row_end.iter().position(|&e| e < column) {
                Some(r) => {
                    row_end[r] = end;
                    r
                }
                None => {
                    row_end.push(end);
                    row_end.len() - 1
                }
            };
            let gen_letters: Vec<GenLetter> = letters.iter().map(|&i| links[i]).collect();
            PlacedWord {
                row: row + 1,
                column,
                text: group.format_word(&gen_letters),
                letters,
            }
        })
        .collect()
}

/// Occupancy of (column, link) cells, 0-based columns, as bitsets.
struct Grid {
    busy: Vec<Vec<u64>>,
    full: Vec<u64>,
    count: Vec<usize>,
    ports: usize,
}

impl Grid {
    fn taken(&self, link: usize, col: usize) -> bool {
        let (w, b) = (col / 64, 1u64 << (col % 64));
        self.busy[link].get(w).is_some_and(|x| x & b != 0)
            || self.full.get(w).is_some_and(|x| x & b != 0)
    }

    /// The first column `>= col` where `link` is free.
    fn next_free(&self, link: usize, col: usize) -> usize {
        let mut w = col / 64;
        let mut mask = !0u64 << (col % 64);
        loop {
            let taken = self.busy[link].get(w).copied().unwrap_or(0)
                | self.full.get(w).copied().unwrap_or(0);
            let free = !taken & mask;
            if free != 0 {
                return w * 64 + free.trailing_zeros() as usize;
            }
            w += 1;
            mask = !0;
        }
    }

    fn first_fit(&self, word: &[usize]) -> usize {
        let mut c = 0;
        'retry: loop {
            for (i, &s) in word.iter().enumerate() {
                if self.taken(s, c + i) {
                    c = self.next_free(s, c + i) - i;
                    continue 'retry;
                }
            }
            return c + 1;
        }
    }

    fn place(&mut self, column: usize, word: &[usize]) {
        for (i, &s) in word.iter().enumerate() {
            let col = column - 1 + i;
            let w = col / 64;
            for v in [&mut self.busy[s], &mut self.full] {
                if v.len() <= w {
                    v.resize(w + 1, 0);
                }
            }
            if self.count.len() <= col {
                self.count.resize(col + 1, 0);
            }
            self.busy[s][w] |= 1 << (col % 64);
            self.count[col] += 1;
            if self.count[col] >= self.ports {
                self.full[w] |= 1 << (col % 64);
            }
        }
    }
}
