//! `gen twisted N1 N2 [N3]`: a total exchange on a twisted torus, by a greedy
//! construction (no paper; its distance to the lower bound is measured, not
//! claimed).
//!
//! Each message goes to an element t of Z^d / L (docs/networks.md, "Twisted
//! tori"); its shortest moves are the vectors v ≡ t modulo the lattice L of
//! least |v|₁, found among t plus small multiples of L's basis. The
//! construction then
//!
//! 1. picks one shortest vector per message so that the six letters (`+` and
//!    `−` in each dimension) carry loads as equal as possible: messages with
//!    fewest choices first, each taking the vector that keeps the largest load,
//!    then the sum of squared loads, smallest;
//! 2. places the messages, longest first, at the earliest column where their
//!    letters can be ordered so that every letter is free in its column (a
//!    matching of positions to letters, decided by Hall's condition over the
//!    at most three letters a vector uses);
//! 3. lays the placed words out in rows (interval colouring: at most one word
//!    per letter is active in a column, so six rows suffice).
//!
//! Like every construction it is untrusted: `gen` hands the text to the kernel
//! and the simulator before printing it.

use super::ConstructError;
use super::table::{Header, Table, Token, render};

/// The most nodes `gen twisted` builds (12 × 12 × 24, 3,456 nodes, takes
/// seconds; the placement grows about as nodes × columns).
pub const MAX_TWISTED_NODES: u64 = 16_384;

/// The lattice basis of a shape, each vector with its pivot dimension, in the
/// order that reduces a vector into the coordinate box.
fn lattice(sides: &[i64]) -> Vec<Vec<i64>> {
    match *sides {
        [n1, k] => vec![vec![-k, k], vec![n1, 0]],
        [k, k2, n3] if k == k2 => vec![vec![k, 0, -k], vec![0, k, -k], vec![0, 0, n3]],
        [k, n2, n3] => vec![vec![k, -k, -k], vec![0, n2, 0], vec![0, 0, n3]],
        _ => Vec::new(),
    }
}

/// The letter counts (`+e_i` is letter 2i, `−e_i` letter 2i + 1) of every
/// shortest vector equal to `t` modulo the lattice, among `t + Σ m_j l_j`
/// with every m_j in −2 … 2.
fn shortest(t: &[i64], basis: &[Vec<i64>]) -> Vec<Vec<u32>> {
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

/// The twisted torus table of this shape (`sides` checked by the caller).
pub fn generate(sides: &[usize]) -> Result<String, ConstructError> {
    let words: Vec<String> = sides.iter().map(usize::to_string).collect();
    let label = format!("twisted {}", words.join(" "));
    let sizes: Vec<u64> = sides.iter().map(|&s| s as u64).collect();
    let family = crate::families::Family::new("twisted", &sizes)
        .map_err(|e| ConstructError::Shape(e.to_string()))?;
    if family.order() > MAX_TWISTED_NODES {
        return Err(ConstructError::Shape(format!(
            "{label} has {} nodes; gen twisted builds at most {MAX_TWISTED_NODES}",
            family.order()
        )));
    }
    let header = family.header();
    let group = header
        .lines()
        .find_map(|l| l.strip_prefix("group: "))
        .unwrap_or_default()
        .to_string();
    let s: Vec<i64> = sides.iter().map(|&x| x as i64).collect();
    let basis = lattice(&s);
    let d = sides.len();
    let n: usize = sides.iter().product();
    // 1. One shortest vector per message, balancing the letters' loads.
    let mut choices: Vec<Vec<Vec<u32>>> = (1..n)
        .map(|x| {
            let mut rest = x;
            let t: Vec<i64> = sides
                .iter()
                .map(|&m| {
                    let c = rest % m;
                    rest /= m;
                    c as i64
                })
                .collect();
            shortest(&t, &basis)
        })
        .collect();
    choices.sort_by_key(Vec::len);
    let mut load = vec![0u64; 2 * d];
    let mut messages: Vec<Vec<u32>> = Vec::with_capacity(n);
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
    // 2. Longest first, each at its earliest column.
    messages.sort_by_key(|c| std::cmp::Reverse(c.iter().sum::<u32>()));
    let mut grid = Grid {
        busy: vec![Vec::new(); 2 * d],
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
    // 3. Rows by interval colouring.
    placed.sort_by_key(|(start, _)| *start);
    let mut ends: Vec<usize> = Vec::new();
    let mut table = Table::default();
    for (start, word) in placed {
        let row = match ends.iter().position(|&e| e <= start) {
            Some(r) => r,
            None => {
                ends.push(0);
                table.rows.push(Vec::new());
                ends.len() - 1
            }
        };
        if start > ends[row] {
            table.rows[row].push(Token::Blank(start - ends[row]));
        }
        ends[row] = start + word.len();
        table.rows[row].push(Token::Word(word));
    }
    let names: Vec<String> = ["a", "a'", "b", "b'", "c", "c'"][..2 * d]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let head = Header {
        name: format!("twisted{}", words.join("x")),
        notes: Vec::new(),
        source: "txverify gen twisted: balanced shortest words, placed longest first at the earliest column (a greedy construction, not optimal in general)".into(),
        group,
        links: names.join(" "),
        network: label,
        time: table.width(),
        optimal: false,
    };
    Ok(render(&head, &names, &table))
}
