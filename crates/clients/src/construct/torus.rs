//! Two- and three-dimensional tori (sections 3.3 and 3.4 of the paper).
//!
//! The group is C_n^K for odd n and D_n^K (the dihedral group of order n in every
//! factor) for even n. Letters are numbered so that the paper's substitution sigma is
//! "add one modulo 2K": in 2-D `a b a' b'` (or `a b A B`), in 3-D `a b c a' b' c'` (or
//! `a b c A B C`). On node coordinates sigma is (x1, …, xK) ↦ (−xK, x1, …, x(K−1)).
//!
//! A table is a few *special blocks* (the paper's small tables for the messages whose
//! sigma-class is not of full size, each padded with whole classes) followed by one
//! column block per remaining class: its first row holds one shortest word of the class
//! and row r + 1 is the sigma^r-image of row 1, letter by letter, so every column holds
//! 2K distinct links.

use super::table::{Header, Table, Token, commutations, render};
use super::{ConstructError, Family, GroupChoice, PAPER};

/// A torus of side `n` in `dims` dimensions, with its group choice settled.
struct Torus {
    dims: usize,
    n: usize,
    dihedral: bool,
}

pub(super) fn generate(
    dims: usize,
    n: usize,
    choice: GroupChoice,
) -> Result<String, ConstructError> {
    let family = if dims == 2 {
        Family::Torus2d
    } else {
        Family::Torus3d
    };
    let dihedral = match (n % 2, choice) {
        (1, GroupChoice::Dihedral) => {
            return Err(ConstructError::BadGroupChoice {
                family,
                size: n,
                reason: "the dihedral group of order n needs an even n".into(),
            });
        }
        (1, _) => false,
        (_, GroupChoice::Cyclic) => {
            return Err(ConstructError::NotCovered {
                family,
                size: n,
                reason: "the paper gives no construction for even n with cyclic groups \
                         (use the default dihedral group, or `search` on the cyclic header: \
                         C10 x C10 reaches the bound, tables/found/c10-squared.tbl)"
                    .into(),
            });
        }
        _ => true,
    };
    if dihedral && n == 4 {
        let dim = 2 * dims;
        return Err(ConstructError::NotCovered {
            family,
            size: n,
            reason: format!(
                "the construction needs n >= 6; the {dims}-D torus of side 4 is the \
                 {dim}-dimensional hypercube (use `hypercube {dim}`)"
            ),
        });
    }
    let torus = Torus { dims, n, dihedral };
    torus.build(family)
}

impl Torus {
    fn letters(&self) -> usize {
        2 * self.dims
    }

    fn sigma(&self, letter: u8) -> u8 {
        ((letter as usize + 1) % self.letters()) as u8
    }

    /// `len` letters along `axis`: a power of one letter (cyclic) or the alternating run
    /// starting with the positive (`a`) or negative (`A`) letter (dihedral).
    fn run(&self, axis: usize, len: usize, positive: bool) -> Vec<u8> {
        let pos = axis as u8;
        let neg = (axis + self.dims) as u8;
        let (first, second) = if positive { (pos, neg) } else { (neg, pos) };
        (0..len)
            .map(|i| {
                if self.dihedral && i % 2 == 1 {
                    second
                } else {
                    first
                }
            })
            .collect()
    }

    /// A shortest word to coordinate `v` along `axis`.
    fn axis_word(&self, axis: usize, v: usize) -> Vec<u8> {
        if v <= self.n / 2 {
            self.run(axis, v, true)
        } else {
            self.run(axis, self.n - v, false)
        }
    }

    /// A shortest word to the node with coordinates `p`.
    fn word(&self, p: &[usize]) -> Vec<u8> {
        (0..self.dims)
            .flat_map(|axis| self.axis_word(axis, p[axis]))
            .collect()
    }

    fn index(&self, p: &[usize]) -> usize {
        p.iter().rev().fold(0, |acc, &x| acc * self.n + x)
    }

    fn coords(&self, mut index: usize) -> Vec<usize> {
        (0..self.dims)
            .map(|_| {
                let x = index % self.n;
                index /= self.n;
                x
            })
            .collect()
    }

    /// Sigma on coordinates: (x1, …, xK) ↦ (−xK, x1, …, x(K−1)).
    fn sigma_coords(&self, p: &[usize]) -> Vec<usize> {
        let mut q = Vec::with_capacity(self.dims);
        q.push((self.n - p[self.dims - 1]) % self.n);
        q.extend_from_slice(&p[..self.dims - 1]);
        q
    }

    /// The node a word leads to from the identity. In the ring D_n the position moves
    /// by +1 or −1 depending on the letter and on the parity of the position.
    fn spell(&self, word: &[u8]) -> Vec<usize> {
        let mut p = vec![0usize; self.dims];
        for &l in word {
            let axis = l as usize % self.dims;
            let positive = (l as usize) < self.dims;
            let up = if self.dihedral {
                positive == p[axis].is_multiple_of(2)
            } else {
                positive
            };
            p[axis] = if up {
                (p[axis] + 1) % self.n
            } else {
                (p[axis] + self.n - 1) % self.n
            };
        }
        p
    }

    /// Builds a block from rows of entries and the number of entries in each word.
    fn block(&self, rows: Vec<(Vec<Vec<u8>>, &[usize])>) -> Table {
        let mut table = Table::with_rows(self.letters());
        for (r, (entries, groups)) in rows.into_iter().enumerate() {
            let mut it = entries.into_iter();
            for &g in groups {
                let word: Vec<u8> = it.by_ref().take(g).flatten().collect();
                table.rows[r].push(Token::Word(word));
            }
            debug_assert!(it.next().is_none());
        }
        table
    }

    /// Entry `letter` followed by the run of `len` letters along `axis`.
    fn entry(&self, letter: u8, axis: usize, positive: bool, len: usize) -> Vec<u8> {
        let mut w = vec![letter];
        w.extend(self.run(axis, len, positive));
        w
    }

    /// The special blocks: every message whose sigma-class is not of full size, with the
    /// full classes the paper packs alongside them.
    fn special_blocks(&self) -> Vec<Table> {
        match (self.dims, self.dihedral) {
            (2, false) => Vec::new(),
            (2, true) => vec![self.special_block_2d_even()],
            (3, false) => self.special_blocks_3d_odd(),
            _ => {
                // Section 3.4, n even.
                let k = self.n / 2;
                let mut blocks = vec![self.small_classes_3d_even(), self.size_two_low_3d_even()];
                blocks.extend((3..k).map(|i| self.size_two_3d_even(i)));
                blocks
            }
        }
    }

    /// The special block of the 2-D torus, n even.
    fn special_block_2d_even(&self) -> Table {
        let k = self.n / 2;
        // Section 3.3: aAa…, bBb…, their product, and the 8 words of length n/2
        // with one letter of one factor (letters a b A B = 0 1 2 3).
        let (a, b, cap_a, cap_b) = (0u8, 1u8, 2u8, 3u8);
        let e = |l, axis, pos| self.entry(l, axis, pos, k - 1);
        self.block(vec![
            (
                vec![
                    self.run(0, k, true),
                    self.run(1, k, true),
                    e(cap_b, 0, true),
                ],
                &[1, 1, 1],
            ),
            (
                vec![e(b, 0, true), e(a, 1, true), e(b, 0, false)],
                &[1, 1, 1],
            ),
            (
                vec![e(cap_a, 1, false), e(cap_b, 0, false), e(cap_a, 1, true)],
                &[1, 1, 1],
            ),
            (
                vec![self.run(1, k, false), self.run(0, k, false), e(a, 1, false)],
                &[2, 1],
            ),
        ])
    }

    /// The special blocks of the 3-D torus, n odd.
    fn special_blocks_3d_odd(&self) -> Vec<Table> {
        let n = self.n;
        // Section 3.4, n odd: for each 0 < i < n/2 the class {a^i b^-i c^i, its
        // inverse} with the classes of a^i, a^i b^i and a^i c^i (letters
        // a b c a' b' c' = 0..5; every entry is the i-th power of one letter).
        let rows: [(&[u8], &[usize]); 6] = [
            (&[0, 2, 4, 1, 3, 5], &[3, 3]),
            (&[3, 4, 0, 2, 0, 1], &[2, 2, 2]),
            (&[4, 5, 3, 5, 1, 2], &[2, 2, 2]),
            (&[1, 3, 2, 3, 4, 0], &[2, 2, 2]),
            (&[5, 1, 5, 0, 2, 4], &[2, 2, 2]),
            (&[2, 0, 1, 4, 5, 3], &[1, 1, 1, 1, 1, 1]),
        ];
        (1..=(n - 1) / 2)
            .map(|i| {
                self.block(
                    rows.iter()
                        .map(|(ls, g)| (ls.iter().map(|&l| vec![l; i]).collect(), *g))
                        .collect(),
                )
            })
            .collect()
    }

    /// 3-D torus, n even (letters a b c A B C = 0..5): the classes of sizes 1 and 3
    /// with the classes of c·α(k−1), B·α(k−1).
    fn small_classes_3d_even(&self) -> Table {
        let k = self.n / 2;
        let (a, b, c, ca, cb, cc) = (0u8, 1u8, 2u8, 3u8, 4u8, 5u8);
        let e = |l, axis, pos| self.entry(l, axis, pos, k - 1);
        self.block(vec![
            (
                vec![
                    e(a, 0, false),
                    e(cb, 1, true),
                    e(c, 2, false),
                    e(b, 0, false),
                ],
                &[3, 1],
            ),
            (
                vec![
                    e(ca, 0, true),
                    e(b, 1, false),
                    e(cc, 2, true),
                    e(a, 1, false),
                ],
                &[2, 1, 1],
            ),
            (
                vec![
                    e(cb, 1, true),
                    e(c, 2, false),
                    e(a, 0, false),
                    e(cc, 1, true),
                ],
                &[2, 1, 1],
            ),
            (
                vec![
                    e(cc, 2, true),
                    e(ca, 0, true),
                    e(b, 1, false),
                    e(cb, 2, true),
                ],
                &[2, 1, 1],
            ),
            (
                vec![
                    e(c, 1, false),
                    e(a, 2, true),
                    e(cb, 0, true),
                    e(ca, 2, false),
                ],
                &[1, 1, 1, 1],
            ),
            (
                vec![
                    e(b, 2, false),
                    e(cc, 0, false),
                    e(ca, 1, true),
                    e(c, 0, true),
                ],
                &[1, 1, 1, 1],
            ),
        ])
    }

    /// 3-D torus, n even: the classes of size 2 for i = 1, 2 with the classes of
    /// CaA and baA.
    fn size_two_low_3d_even(&self) -> Table {
        let rows: [(&str, &[usize]); 6] = [
            ("aABbcCaBc", &[6, 3]),
            ("AabBCcAbC", &[6, 3]),
            ("bBcCaABAa", &[3, 3, 3]),
            ("BbCcAabaA", &[3, 3, 3]),
            ("cCAabBCcB", &[3, 3, 3]),
            ("CcaABbcCb", &[3, 3, 3]),
        ];
        let letter = |ch: char| "abcABC".find(ch).map(|i| i as u8).unwrap_or(0);
        self.block(
            rows.iter()
                .map(|(s, g)| (s.chars().map(|ch| vec![letter(ch)]).collect(), *g))
                .collect(),
        )
    }

    /// 3-D torus, n even: the classes of size 2 for `i` (3 ≤ i < k) with the
    /// classes of c·α(i−1), B·α(i−1).
    fn size_two_3d_even(&self, i: usize) -> Table {
        let (a, b, c, ca, cb, cc) = (0u8, 1u8, 2u8, 3u8, 4u8, 5u8);
        let e = |l, axis, pos| self.entry(l, axis, pos, i - 1);
        self.block(vec![
            (vec![e(a, 0, false), e(cb, 1, true), e(c, 2, false)], &[3]),
            (vec![e(ca, 0, true), e(b, 1, false), e(cc, 2, true)], &[3]),
            (
                vec![e(cc, 1, true), e(ca, 2, false), e(b, 0, false)],
                &[1, 1, 1],
            ),
            (
                vec![e(cb, 2, true), e(c, 0, true), e(a, 1, false)],
                &[1, 1, 1],
            ),
            (
                vec![e(c, 1, false), e(a, 2, true), e(cb, 0, true)],
                &[1, 1, 1],
            ),
            (
                vec![e(b, 2, false), e(cc, 0, false), e(ca, 1, true)],
                &[1, 1, 1],
            ),
        ])
    }

    fn expected_time(&self) -> usize {
        let n = self.n;
        match (self.dims, self.dihedral) {
            (2, false) => n * (n - 1) * (n + 1) / 8,
            (2, true) => n * n * n / 8,
            (_, false) => n * n * (n - 1) * (n + 1) / 8,
            _ => n * n * n * n / 8,
        }
    }

    fn build(&self, family: Family) -> Result<String, ConstructError> {
        let fail = |reason: String| ConstructError::Failed {
            family,
            size: self.n,
            reason,
        };
        let order = self.n.pow(self.dims as u32);
        let mut used = vec![false; order];
        used[0] = true;
        let specials = self.special_blocks();
        for block in &specials {
            for token in block.rows.iter().flatten() {
                if let Token::Word(w) = token {
                    let idx = self.index(&self.spell(w));
                    if used[idx] {
                        return Err(fail(format!("a special block repeats node {idx}")));
                    }
                    used[idx] = true;
                }
            }
        }
        // One shortest word per remaining sigma-class.
        let rows = self.letters();
        let mut first_row = Vec::new();
        for idx in 1..order {
            if used[idx] {
                continue;
            }
            let p = self.coords(idx);
            let mut q = p.clone();
            for step in 0..rows {
                let j = self.index(&q);
                if step > 0 && j == idx || used[j] {
                    return Err(fail(format!(
                        "the class of node {idx} is not of size {rows}"
                    )));
                }
                used[j] = true;
                q = self.sigma_coords(&q);
            }
            if self.index(&q) != idx {
                return Err(fail(format!("sigma has no order {rows} on node {idx}")));
            }
            first_row.push(self.word(&p));
        }
        let mut classes = Table::with_rows(rows);
        for r in 0..rows {
            classes.rows[r] = first_row
                .iter()
                .map(|w| {
                    Token::Word(
                        w.iter()
                            .map(|&l| (0..r).fold(l, |l, _| self.sigma(l)))
                            .collect(),
                    )
                })
                .collect();
        }
        let mut table = Table::with_rows(rows);
        if self.dims == 2 {
            // Section 3.3 puts the classes first and the special block last.
            table.append(classes);
            for b in specials {
                table.append(b);
            }
        } else {
            for b in specials {
                table.append(b);
            }
            table.append(classes);
        }
        let time = self.expected_time();
        if table.width() != time {
            return Err(fail(format!(
                "table has {} columns, expected {time}",
                table.width()
            )));
        }
        Ok(render(&self.header(time), &self.names(), &table))
    }

    fn names(&self) -> Vec<String> {
        let gens = &["a", "b", "c"][..self.dims];
        let mut names: Vec<String> = gens.iter().map(|g| g.to_string()).collect();
        if self.dihedral {
            names.extend(gens.iter().map(|g| g.to_uppercase()));
        } else {
            names.extend(gens.iter().map(|g| format!("{g}'")));
        }
        names
    }

    fn header(&self, time: usize) -> Header {
        let (n, k, dims) = (self.n, self.n / 2, self.dims);
        let gens = &["a", "b", "c"][..dims];
        let group = if self.dihedral {
            gens.iter()
                .map(|g| {
                    let h = g.to_uppercase();
                    format!("<{g}, {h} | {g}^2 = {h}^2 = ({g}{h})^{k} = 1>")
                })
                .collect::<Vec<_>>()
                .join(" x ")
        } else {
            let powers = gens
                .iter()
                .map(|g| format!("{g}^{n}"))
                .collect::<Vec<_>>()
                .join(" = ");
            format!(
                "<{} | {powers} = 1, {}>",
                gens.join(", "),
                commutations(gens).join(", ")
            )
        };
        let (section, shape) = if dims == 2 {
            ("3.3", format!("{n}x{n}"))
        } else {
            ("3.4", format!("{n}x{n}x{n}"))
        };
        let group_name = if self.dihedral {
            format!("D{n}^{dims}")
        } else {
            format!("C{n}^{dims}")
        };
        Header {
            name: format!("torus{dims}d-{n}"),
            notes: vec![format!(
                "{shape} torus as {group_name}: the paper's special blocks, then one \
                 word per class of sigma in row 1 and its sigma-images below."
            )],
            source: format!("{PAPER}, section {section}"),
            group,
            links: self.names().join(" "),
            network: format!("torus{}", format!(" {n}").repeat(dims)),
            time,
            optimal: true,
        }
    }
}
