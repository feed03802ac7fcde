//! A plain CNF formula, the cardinality encodings the search uses, and DIMACS I/O.
//!
//! The encoder writes clauses here instead of into a solver so that the exact
//! same formula can be handed to varisat, exported as DIMACS for an external
//! solver, and regenerated later to check a proof against. The encodings are
//! our own (not a library's) because a certificate names an encoding version:
//! the CNF must not change when a dependency is upgraded.

use std::fmt::Write as _;
use std::io::{self, BufRead};

/// A literal in DIMACS convention: `v` or `-v` for variable `v >= 1`.
pub type Lit = i32;

/// A CNF formula: a variable count and a list of clauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    vars: u32,
    clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    /// An empty formula over no variables.
    pub fn new() -> Cnf {
        Cnf::default()
    }

    /// A fresh variable, returned as its positive literal.
    pub fn fresh(&mut self) -> Lit {
        self.vars += 1;
        self.vars as Lit
    }

    /// Number of variables.
    pub fn vars(&self) -> usize {
        self.vars as usize
    }

    /// The clauses.
    pub fn clauses(&self) -> &[Vec<Lit>] {
        &self.clauses
    }

    /// Adds a clause (an empty clause makes the formula unsatisfiable).
    pub fn add(&mut self, clause: &[Lit]) {
        debug_assert!(
            clause
                .iter()
                .all(|&l| l != 0 && l.unsigned_abs() <= self.vars)
        );
        self.clauses.push(clause.to_vec());
    }

    /// At most one of `lits` is true (pairwise up to 5 literals, else a sequential ladder).
    pub fn at_most_one(&mut self, lits: &[Lit]) {
        if lits.len() <= 5 {
            for i in 0..lits.len() {
                for j in i + 1..lits.len() {
                    self.add(&[-lits[i], -lits[j]]);
                }
            }
            return;
        }
        // Sinz's ladder: s_i means "some of lits[0..=i] is true".
        let mut prev = lits[0];
        for (i, &l) in lits.iter().enumerate().skip(1) {
            self.add(&[-prev, -l]);
            if i + 1 < lits.len() {
                let s = self.fresh();
                self.add(&[-prev, s]);
                self.add(&[-l, s]);
                prev = s;
            }
        }
    }

    /// Exactly one of `lits` is true.
    pub fn exactly_one(&mut self, lits: &[Lit]) {
        self.add(lits);
        self.at_most_one(lits);
    }

    /// A totalizer over `lits` counting up to `cap`: returns `out` with
    /// `out[j]` true exactly when at least `j + 1` inputs are true (for `j < cap`;
    /// `out.len() == min(cap, lits.len())`). Both directions are encoded, so the
    /// outputs can be used for "at most" (`-out[k]`) and "at least" (`out[k-1]`).
    pub fn totalizer(&mut self, lits: &[Lit], cap: usize) -> Vec<Lit> {
        if lits.len() <= 1 || cap == 0 {
            return lits.iter().copied().take(cap).collect();
        }
        let mid = lits.len() / 2;
        let a = self.totalizer(&lits[..mid], cap);
        let b = self.totalizer(&lits[mid..], cap);
        self.merge_counts(&a, &b, cap)
    }

    /// The sum of two unary counts `a` and `b` (outputs of [`Cnf::totalizer`]
    /// or of this), counting up to `cap`, both directions encoded: `out[j]`
    /// true exactly when `a + b ≥ j + 1`.
    pub fn merge_counts(&mut self, a: &[Lit], b: &[Lit], cap: usize) -> Vec<Lit> {
        let width = (a.len() + b.len()).min(cap);
        let out: Vec<Lit> = (0..width).map(|_| self.fresh()).collect();
        // Counts i in a and j in b, i in 0..=a.len(), j in 0..=b.len().
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                // Up: a >= i and b >= j  =>  out >= i + j.
                if i + j >= 1 && i + j <= width {
                    let mut clause = vec![out[i + j - 1]];
                    if i > 0 {
                        clause.push(-a[i - 1]);
                    }
                    if j > 0 {
                        clause.push(-b[j - 1]);
                    }
                    self.add(&clause);
                }
                // Down: a <= i and b <= j  =>  out <= i + j.
                if i + j < width {
                    let mut clause = vec![-out[i + j]];
                    if i < a.len() {
                        clause.push(a[i]);
                    }
                    if j < b.len() {
                        clause.push(b[j]);
                    }
                    self.add(&clause);
                }
            }
        }
        out
    }

    /// At most `k` of `lits` are true.
    pub fn at_most(&mut self, lits: &[Lit], k: usize) {
        if k >= lits.len() {
            return;
        }
        if k == 0 {
            lits.iter().for_each(|&l| self.add(&[-l]));
            return;
        }
        if k == 1 {
            self.at_most_one(lits);
            return;
        }
        let out = self.totalizer(lits, k + 1);
        self.add(&[-out[k]]);
    }

    /// At least `k` of `lits` are true.
    pub fn at_least(&mut self, lits: &[Lit], k: usize) {
        if k == 0 {
            return;
        }
        if k > lits.len() {
            self.add(&[]);
            return;
        }
        if k == 1 {
            self.add(lits);
            return;
        }
        let out = self.totalizer(lits, k);
        self.add(&[out[k - 1]]);
    }

    /// The same formula with its variables renumbered and its clauses and their
    /// literals reordered, pseudo-randomly from `seed`. A CDCL solver's run depends
    /// a lot on such orders, so a second solver on a shuffled copy searches
    /// differently (solve times of these formulas vary many-fold with the order).
    pub fn shuffled(&self, seed: u64) -> Shuffled {
        let mut rng = SplitMix(seed);
        let n = self.vars as usize;
        // new_of[old - 1] = new variable number.
        let mut new_of: Vec<u32> = (1..=self.vars).collect();
        rng.shuffle(&mut new_of);
        let rename = |l: Lit| {
            let v = new_of[l.unsigned_abs() as usize - 1] as Lit;
            if l > 0 { v } else { -v }
        };
        let mut clauses: Vec<Vec<Lit>> = self
            .clauses
            .iter()
            .map(|c| {
                let mut c: Vec<Lit> = c.iter().map(|&l| rename(l)).collect();
                rng.shuffle(&mut c);
                c
            })
            .collect();
        rng.shuffle(&mut clauses);
        let mut old_of = vec![0u32; n];
        for (old, &new) in new_of.iter().enumerate() {
            old_of[new as usize - 1] = old as u32 + 1;
        }
        Shuffled {
            cnf: Cnf {
                vars: self.vars,
                clauses,
            },
            old_of,
        }
    }

    /// The formula in DIMACS CNF, with `comments` written as `c` lines first.
    pub fn to_dimacs(&self, comments: &[String]) -> String {
        let mut out = String::new();
        for c in comments {
            for line in c.lines() {
                let _ = writeln!(out, "c {line}");
            }
        }
        let _ = writeln!(out, "p cnf {} {}", self.vars, self.clauses.len());
        for clause in &self.clauses {
            for l in clause {
                let _ = write!(out, "{l} ");
            }
            out.push_str("0\n");
        }
        out
    }

    /// Parses DIMACS CNF (comments skipped; the header's counts are checked).
    pub fn parse_dimacs(input: impl BufRead) -> io::Result<Cnf> {
        let bad = |m: String| io::Error::new(io::ErrorKind::InvalidData, m);
        let mut header: Option<(u32, usize)> = None;
        let mut cnf = Cnf::new();
        let mut current = Vec::new();
        for line in input.lines() {
            let line = line?;
            let line = line.trim();
            if line.is_empty() || line.starts_with('c') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("p ") {
                let fields: Vec<&str> = rest.split_whitespace().collect();
                if fields.len() != 3 || fields[0] != "cnf" {
                    return Err(bad(format!("malformed header {line:?}")));
                }
                let vars = fields[1]
                    .parse()
                    .map_err(|_| bad("bad variable count".into()))?;
                let clauses = fields[2]
                    .parse()
                    .map_err(|_| bad("bad clause count".into()))?;
                header = Some((vars, clauses));
                cnf.vars = vars;
                continue;
            }
            let Some((vars, _)) = header else {
                return Err(bad("clause before the header".into()));
            };
            for token in line.split_whitespace() {
                let l: Lit = token
                    .parse()
                    .map_err(|_| bad(format!("bad literal {token:?}")))?;
                if l == 0 {
                    cnf.clauses.push(std::mem::take(&mut current));
                } else if l.unsigned_abs() > vars {
                    return Err(bad(format!("literal {l} beyond {vars} variables")));
                } else {
                    current.push(l);
                }
            }
        }
        match header {
            None => Err(bad("no header".into())),
            Some(_) if !current.is_empty() => Err(bad("last clause not terminated".into())),
            Some((_, n)) if n != cnf.clauses.len() => Err(bad(format!(
                "header announces {n} clauses, found {}",
                cnf.clauses.len()
            ))),
            Some(_) => Ok(cnf),
        }
    }

    /// A 64-bit FNV-1a digest of the DIMACS text without comments, to name a formula.
    pub fn digest(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut feed = |bytes: &[u8]| {
            for &b in bytes {
                h ^= b as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        feed(format!("p cnf {} {}\n", self.vars, self.clauses.len()).as_bytes());
        for clause in &self.clauses {
            for l in clause {
                feed(l.to_string().as_bytes());
                feed(b" ");
            }
            feed(b"0\n");
        }
        h
    }
}

/// A renumbered copy of a formula (see [`Cnf::shuffled`]).
#[derive(Clone, Debug)]
pub struct Shuffled {
    /// The renumbered formula.
    pub cnf: Cnf,
    /// `old_of[new - 1]`: the original number of each variable.
    old_of: Vec<u32>,
}

impl Shuffled {
    /// A model of the copy as a model of the original (`model[v - 1]` for variable `v`).
    pub fn original_model(&self, model: &[bool]) -> Vec<bool> {
        let mut original = vec![false; self.old_of.len()];
        for (new, &old) in self.old_of.iter().enumerate() {
            original[old as usize - 1] = model.get(new).copied().unwrap_or(false);
        }
        original
    }
}

/// A small seeded generator (SplitMix64) for shuffles that must be repeatable.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Fisher–Yates.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `cnf` has a model extending the given values of its first variables
    /// (brute force over the auxiliary variables; only for tiny formulas).
    fn extends(cnf: &Cnf, fixed: &[bool]) -> bool {
        let aux = cnf.vars() - fixed.len();
        assert!(aux <= 20, "too many auxiliary variables for brute force");
        (0u64..1 << aux).any(|bits| {
            let value = |l: Lit| {
                let v = l.unsigned_abs() as usize - 1;
                let b = if v < fixed.len() {
                    fixed[v]
                } else {
                    bits >> (v - fixed.len()) & 1 == 1
                };
                b == (l > 0)
            };
            cnf.clauses().iter().all(|c| c.iter().any(|&l| value(l)))
        })
    }

    fn with_inputs(n: usize) -> (Cnf, Vec<Lit>) {
        let mut cnf = Cnf::new();
        let lits = (0..n).map(|_| cnf.fresh()).collect();
        (cnf, lits)
    }

    #[test]
    fn cardinality_encodings_are_exact() {
        for n in 0..=6usize {
            for k in 0..=n + 1 {
                for kind in 0..3 {
                    let (mut cnf, lits) = with_inputs(n);
                    match kind {
                        0 => cnf.at_most(&lits, k),
                        1 => cnf.at_least(&lits, k),
                        _ if k == 1 => cnf.exactly_one(&lits),
                        _ => continue,
                    }
                    for bits in 0u32..1 << n {
                        let fixed: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                        let count = bits.count_ones() as usize;
                        let expected = match kind {
                            0 => count <= k,
                            1 => count >= k,
                            _ => count == 1,
                        };
                        assert_eq!(
                            extends(&cnf, &fixed),
                            expected,
                            "n={n} k={k} kind={kind} bits={bits:b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn totalizer_outputs_are_the_count() {
        for n in 1..=5usize {
            for cap in 1..=n {
                let (mut cnf, lits) = with_inputs(n);
                let out = cnf.totalizer(&lits, cap);
                for bits in 0u32..1 << n {
                    let count = bits.count_ones() as usize;
                    for (j, &o) in out.iter().enumerate() {
                        let mut fixed: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                        let mut forced = cnf.clone();
                        forced.add(&[-o]);
                        assert_eq!(extends(&forced, &fixed), count <= j, "out[{j}] false");
                        let mut forced = cnf.clone();
                        forced.add(&[o]);
                        fixed.truncate(n);
                        assert_eq!(extends(&forced, &fixed), count > j, "out[{j}] true");
                    }
                }
            }
        }
    }

    #[test]
    fn dimacs_round_trips() {
        let (mut cnf, lits) = with_inputs(9);
        cnf.at_most(&lits, 3);
        cnf.add(&[]);
        let text = cnf.to_dimacs(&["made by a test".into(), "two\nlines".into()]);
        let back = Cnf::parse_dimacs(text.as_bytes()).unwrap();
        assert_eq!(back, cnf);
        assert_eq!(back.digest(), cnf.digest());
        assert!(Cnf::parse_dimacs("p cnf 2 2\n1 2 0\n".as_bytes()).is_err());
        assert!(Cnf::parse_dimacs("p cnf 2 1\n1 3 0\n".as_bytes()).is_err());
    }
}
