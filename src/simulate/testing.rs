//! Inputs for tests and benchmarks: small groups built directly from action
//! tables, and a greedy table packer.
//!
//! The groups are built without coset enumeration (a [`FiniteGroup`] from its
//! right action) so that network and simulation tests do not depend on the
//! enumerator. The packer produces valid tables for any group and message set
//! before optimal constructions exist: it is how benchmarks get realistic load
//! (every link busy in most steps) and how property tests get tables that must
//! simulate clean.

use std::collections::VecDeque;

use crate::group::{Elem, FiniteGroup, GenLetter};

use super::PlacedWord;

/// A group with the link set its Cayley network uses.
#[derive(Clone, Debug)]
pub struct GroupWithLinks {
    /// The group.
    pub group: FiniteGroup,
    /// The links, as generator letters.
    pub links: Vec<GenLetter>,
}

fn letter(generator: u32, inverse: bool) -> GenLetter {
    GenLetter { generator, inverse }
}

/// The cyclic group `C_n` (`n ≥ 2`) on generator `a`; links `a, a'`, or just `a`
/// when `n = 2` (then `a' = a`). Its Cayley graph is the ring of `n` nodes.
pub fn cyclic(n: usize) -> GroupWithLinks {
    assert!(n >= 2, "cyclic group needs n >= 2");
    let action = (0..n)
        .flat_map(|e| [((e + 1) % n) as u32, ((e + n - 1) % n) as u32])
        .collect();
    let group = FiniteGroup::from_action(vec!["a".into()], action).expect("cyclic action");
    let links = if n == 2 {
        vec![letter(0, false)]
    } else {
        vec![letter(0, false), letter(0, true)]
    };
    GroupWithLinks { group, links }
}

/// The dihedral group of **order** `n` (`n` even, `n ≥ 4`), in the convention
/// `<y, Y | y^2 = Y^2 = (yY)^(n/2) = 1>`; links `y, Y`.
///
/// Element `p` is the `p`-th node of the ring `1, y, yY, yYy, …`: right
/// multiplication by `y` moves even positions forward and odd ones back, `Y`
/// the other way round.
pub fn dihedral(n: usize) -> GroupWithLinks {
    assert!(
        n >= 4 && n.is_multiple_of(2),
        "dihedral group of order n needs even n >= 4"
    );
    let mut action = Vec::with_capacity(4 * n);
    for p in 0..n {
        let (fwd, back) = (((p + 1) % n) as u32, ((p + n - 1) % n) as u32);
        let (y, big_y) = if p % 2 == 0 { (fwd, back) } else { (back, fwd) };
        action.extend([y, y, big_y, big_y]);
    }
    let group =
        FiniteGroup::from_action(vec!["y".into(), "Y".into()], action).expect("dihedral action");
    GroupWithLinks {
        group,
        links: vec![letter(0, false), letter(1, false)],
    }
}

/// The elementary abelian group `C2^d` on generators `a, b, c, …` (bit flips);
/// its Cayley graph on all generators is the `d`-cube.
pub fn elementary_abelian(d: usize) -> GroupWithLinks {
    assert!(d <= 20, "C2^d test groups are limited to d <= 20");
    let n = 1usize << d;
    let mut action = Vec::with_capacity(n * 2 * d);
    for e in 0..n {
        for g in 0..d {
            let f = (e ^ (1 << g)) as u32;
            action.extend([f, f]);
        }
    }
    let names = (0..d).map(generator_name).collect();
    let group = FiniteGroup::from_action(names, action).expect("C2^d action");
    GroupWithLinks {
        group,
        links: (0..d as u32).map(|g| letter(g, false)).collect(),
    }
}

fn generator_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{i}")
    }
}

/// The direct product of the factors, with the union of their links.
///
/// Element `(e1, e2, …)` has index `e1 + |G1|·(e2 + |G2|·…)`. Generator names
/// get the factor number appended when two factors share a name.
pub fn product(factors: &[GroupWithLinks]) -> GroupWithLinks {
    assert!(!factors.is_empty());
    let mut all_names: Vec<&String> = Vec::new();
    for f in factors {
        all_names.extend(f.group.generator_names());
    }
    let clash = (0..all_names.len()).any(|i| all_names[..i].contains(&all_names[i]));
    let mut names = Vec::new();
    let mut offsets = Vec::new();
    let mut links = Vec::new();
    for (i, f) in factors.iter().enumerate() {
        let offset = names.len() as u32;
        offsets.push(offset);
        for name in f.group.generator_names() {
            names.push(if clash {
                format!("{name}{}", i + 1)
            } else {
                name.clone()
            });
        }
        links.extend(
            f.links
                .iter()
                .map(|l| letter(l.generator + offset, l.inverse)),
        );
    }
    let orders: Vec<usize> = factors.iter().map(|f| f.group.order()).collect();
    let n: usize = orders.iter().product();
    let width = 2 * names.len();
    let mut action = vec![0u32; n * width];
    for e in 0..n {
        let mut stride = 1;
        for (i, f) in factors.iter().enumerate() {
            let c = (e / stride) % orders[i];
            let base = e - c * stride;
            for g in 0..f.group.generator_names().len() as u32 {
                for inverse in [false, true] {
                    let img = f.group.apply(Elem(c as u32), letter(g, inverse)).index();
                    let col = 2 * (offsets[i] + g) as usize + inverse as usize;
                    action[e * width + col] = (base + img * stride) as u32;
                }
            }
            stride *= orders[i];
        }
    }
    let group = FiniteGroup::from_action(names, action).expect("product action");
    GroupWithLinks { group, links }
}

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
pub fn greedy_table(
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
