//! The greedy part of `gen twisted`: shortest vectors, balanced letter loads,
//! and the placement of words at their earliest column.
//!
//! In an abelian group the letters of a word can be put in any order, so a
//! message is a multiset of letters (its letter counts); placing it means
//! choosing a start column and an order in which every letter is free in its
//! column.

/// The letter counts (`+e_i` is letter 2i, `−e_i` letter 2i + 1) of every
/// shortest vector equal to `t` modulo the lattice, among `t + Σ m_j l_j`
/// with every m_j in −2 … 2.
pub(super) fn shortest(t: &[i64], basis: &[Vec<i64>]) -> Vec<Vec<u32>> {
    let d = t.len();
    let mut best = i64::MAX;
    let mut out: Vec<Vec<u32>> = Vec::new();
    let combos = 5usize.pow(basis.len() as u32);
    for code in 0..combos {
        let mut v = t.to_vec();
        let mut rest = code;
        for l in basis {
            let m = (rest % 5) as i64 - 2;
            rest /= 5;
            for (vi, li) in v.iter_mut().zip(l) {
                *vi += m * li;
            }
        }
        let norm: i64 = v.iter().map(|x| x.abs()).sum();
        if norm > best {
            continue;
        }
        let mut counts = vec![0u32; 2 * d];
        for (i, &x) in v.iter().enumerate() {
            counts[2 * i + usize::from(x < 0)] = x.unsigned_abs() as u32;
        }
        if norm < best {
            best = norm;
            out.clear();
        }
        if !out.contains(&counts) {
            out.push(counts);
        }
    }
    out
}

/// One shortest vector per message, chosen so that the letters carry loads as
/// equal as possible: messages with fewest choices first, each taking the
/// vector that keeps the largest load, then the sum of squared loads, smallest.
pub(super) fn balance(mut choices: Vec<Vec<Vec<u32>>>, letters: usize) -> Vec<Vec<u32>> {
    choices.sort_by_key(Vec::len);
    let mut load = vec![0u64; letters];
    let mut messages: Vec<Vec<u32>> = Vec::with_capacity(choices.len());
    for options in choices {
        let score = |c: &Vec<u32>| {
            let after = load.iter().zip(c).map(|(&a, &b)| a + u64::from(b));
            (
                after.clone().max().unwrap_or(0),
                after.map(|x| x * x).sum::<u64>(),
            )
        };
        let Some(pick) = options.into_iter().min_by_key(score) else {
            continue;
        };
        for (a, &b) in load.iter_mut().zip(&pick) {
            *a += u64::from(b);
        }
        messages.push(pick);
    }
    messages
}

/// Letter occupancy per column.
struct Grid {
    busy: Vec<Vec<bool>>,
}

impl Grid {
    fn free(&self, letter: usize, column: usize) -> bool {
        !self.busy[letter].get(column).copied().unwrap_or(false)
    }

    fn take(&mut self, letter: usize, column: usize) {
        let row = &mut self.busy[letter];
        if row.len() <= column {
            row.resize(column + 1, false);
        }
        row[column] = true;
    }

    /// Whether `counts` can fill columns `start ..` (Hall's condition over the
    /// letters used, on the positions from `from` on).
    fn hall(&self, counts: &[u32], start: usize, from: usize, len: usize) -> bool {
        let used: Vec<usize> = (0..counts.len()).filter(|&l| counts[l] > 0).collect();
        (1u32..1 << used.len()).all(|subset| {
            let members: Vec<usize> = (0..used.len())
                .filter(|&j| subset >> j & 1 == 1)
                .map(|j| used[j])
                .collect();
            let need: u32 = members.iter().map(|&l| counts[l]).sum();
            let room = (from..len)
                .filter(|&p| members.iter().any(|&l| self.free(l, start + p)))
                .count() as u32;
            room >= need
        })
    }

    /// A word with these letter counts whose letters are all free from column
    /// `start` on, if there is one.
    fn fit(&self, counts: &[u32], start: usize) -> Option<Vec<u8>> {
        let len = counts.iter().sum::<u32>() as usize;
        if !self.hall(counts, start, 0, len) {
            return None;
        }
        let mut left = counts.to_vec();
        let mut word = Vec::with_capacity(len);
        for p in 0..len {
            let letter = (0..left.len()).find(|&l| {
                if left[l] == 0 || !self.free(l, start + p) {
                    return false;
                }
                left[l] -= 1;
                let ok = self.hall(&left, start, p + 1, len);
                left[l] += 1;
                ok
            })?;
            left[letter] -= 1;
            word.push(letter as u8);
        }
        Some(word)
    }
}

/// Places the messages, longest first, each at the earliest column where its
/// letters can be ordered so that every letter is free in its column (a
/// matching of positions to letters, decided by Hall's condition over the at
/// most three letters a vector uses). Returns (start column, word) pairs.
pub(super) fn place(mut messages: Vec<Vec<u32>>, letters: usize) -> Vec<(usize, Vec<u8>)> {
    messages.sort_by_key(|c| std::cmp::Reverse(c.iter().sum::<u32>()));
    let mut grid = Grid {
        busy: vec![Vec::new(); letters],
    };
    let mut placed: Vec<(usize, Vec<u8>)> = Vec::with_capacity(messages.len());
    for counts in &messages {
        let mut start = 0;
        let word = loop {
            if let Some(word) = grid.fit(counts, start) {
                break word;
            }
            start += 1;
        };
        for (p, &l) in word.iter().enumerate() {
            grid.take(usize::from(l), start + p);
        }
        placed.push((start, word));
    }
    placed
}

/// The last column a placement uses (its width).
pub(super) fn width(placed: &[(usize, Vec<u8>)]) -> usize {
    placed
        .iter()
        .map(|(start, word)| start + word.len())
        .max()
        .unwrap_or(0)
}
