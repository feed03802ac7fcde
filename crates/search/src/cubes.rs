//! Cube-and-conquer: one formula split into cubes (conjunctions of literals)
//! that are solved apart, locally on every core or as independent jobs.
//!
//! The cubes are the leaves of a decision tree over a few split variables, so
//! their disjunction is a tautology by construction; a merge does not take
//! that on trust and checks it again with [`covers`] on the cubes it reads.
//! Then "formula ∧ cube is unsatisfiable" for every cube, each with a proof,
//! refutes the formula.
//!
//! Split variables are the ones that occur in the most clauses (ties to the
//! lower number), leaving out those fixed by unit clauses: in txverify's
//! formulas these are the letters and cell variables of the busiest links and
//! columns, whose both values constrain much of the formula.

use super::cnf::Cnf;
use std::fmt::Write;

/// The iCNF file of a directory of cubes (next to `cube-NNNN.cnf` and the
/// cubes' proofs).
pub const ICNF_FILE: &str = "cubes.icnf";

/// A cube: literals that hold together.
pub type Cube = Vec<i32>;

/// Most cubes a split may ask for (the coverage check and the files stay small).
pub const MAX_CUBES: usize = 1 << 16;

/// `count` cubes (at least 1) splitting `cnf`: the leaves of a breadth-first
/// decision tree whose depth-d nodes all split on the d-th split variable
/// (chosen by [`lookahead_split_variables`]).
pub fn make_cubes(cnf: &Cnf, count: usize) -> Vec<Cube> {
    let count = count.clamp(1, MAX_CUBES);
    let depth = usize::BITS - (count - 1).leading_zeros();
    let vars = lookahead_split_variables(cnf, depth as usize);
    let mut cubes: std::collections::VecDeque<Cube> = [Vec::new()].into();
    while cubes.len() < count {
        let Some(cube) = cubes.front() else { break };
        let Some(&var) = vars.get(cube.len()) else {
            break; // fewer free variables than the depth asks for
        };
        let cube = cubes.pop_front().unwrap_or_default();
        for lit in [var, -var] {
            let mut child = cube.clone();
            child.push(lit);
            cubes.push_back(child);
        }
    }
    cubes.into()
}

/// The `count` variables that occur in the most clauses, not fixed by a unit clause.
pub fn split_variables(cnf: &Cnf, count: usize) -> Vec<i32> {
    let mut occurrences = vec![0u64; cnf.vars() + 1];
    let mut fixed = vec![false; cnf.vars() + 1];
    for clause in cnf.clauses() {
        if let [unit] = clause.as_slice() {
            fixed[unit.unsigned_abs() as usize] = true;
        }
        for l in clause {
            occurrences[l.unsigned_abs() as usize] += 1;
        }
    }
    let mut vars: Vec<usize> = (1..=cnf.vars())
        .filter(|&v| !fixed[v] && occurrences[v] > 0)
        .collect();
    vars.sort_by_key(|&v| (std::cmp::Reverse(occurrences[v]), v));
    vars.into_iter().take(count).map(|v| v as i32).collect()
}

/// How many of the most frequent variables [`lookahead_split_variables`]
/// tries by unit propagation, at least (more when more split variables are asked).
pub const LOOKAHEAD_CANDIDATES: usize = 64;

/// The `count` split variables whose two values each propagate the most (the
/// product of the numbers of literals unit propagation fixes after setting the
/// variable true and false), among the [`LOOKAHEAD_CANDIDATES`] variables that
/// occur in the most clauses; a variable one of whose values propagates to a
/// conflict (or is fixed by the unit clauses already) is left out, since its
/// cube would be refuted at once and the other would be the whole problem.
/// Falls back to [`split_variables`] order for ties and when too few remain.
///
/// Why: splitting on the most frequent variables alone gave, on the truncated
/// icosahedron (`examples/groups/a5-2-5.tbl` at T = 93), 8 cubes of which 7
/// were refuted in 0.2 s and the eighth was as hard as the formula.
/// The choice never matters for soundness: the cubes are the leaves of a
/// decision tree whatever the variables, and every reader checks [`covers`].
pub fn lookahead_split_variables(cnf: &Cnf, count: usize) -> Vec<i32> {
    let candidates = split_variables(cnf, LOOKAHEAD_CANDIDATES.max(4 * count));
    let mut propagator = Propagator::new(cnf);
    if !propagator.propagate_units() {
        // The unit clauses alone conflict: any split is as good.
        return candidates.into_iter().take(count).collect();
    }
    let mut scored: Vec<(u64, usize, i32)> = Vec::new();
    for (rank, &var) in candidates.iter().enumerate() {
        if propagator.value(var) != 0 {
            continue; // fixed by the unit clauses through propagation
        }
        let (Some(pos), Some(neg)) = (propagator.probe(var), propagator.probe(-var)) else {
            continue; // a failed literal
        };
        scored.push(((pos as u64 + 1) * (neg as u64 + 1), rank, var));
    }
    scored.sort_by_key(|&(score, rank, _)| (std::cmp::Reverse(score), rank));
    let mut chosen: Vec<i32> = scored.into_iter().map(|(_, _, v)| v).take(count).collect();
    for v in candidates {
        if chosen.len() >= count {
            break;
        }
        if !chosen.contains(&v) {
            chosen.push(v);
        }
    }
    chosen
}

/// Unit propagation over a formula, for the lookahead of
/// [`lookahead_split_variables`]: occurrence lists and a trail, no watches
/// (every clause of a falsified literal is scanned; the lookahead runs once per split).
struct Propagator<'a> {
    clauses: &'a [Vec<i32>],
    /// The clauses of each literal: index `2v` for `v`, `2v + 1` for `-v`.
    occurs: Vec<Vec<u32>>,
    /// Per variable: 1 true, -1 false, 0 free.
    values: Vec<i8>,
    trail: Vec<i32>,
}

impl<'a> Propagator<'a> {
    fn new(cnf: &'a Cnf) -> Self {
        let mut occurs = vec![Vec::new(); 2 * (cnf.vars() + 1)];
        for (i, clause) in cnf.clauses().iter().enumerate() {
            for &l in clause {
                occurs[Self::slot(l)].push(i as u32);
            }
        }
        Propagator {
            clauses: cnf.clauses(),
            occurs,
            values: vec![0; cnf.vars() + 1],
            trail: Vec::new(),
        }
    }

    fn slot(l: i32) -> usize {
        2 * l.unsigned_abs() as usize + usize::from(l < 0)
    }

    fn value(&self, l: i32) -> i8 {
        let v = self.values[l.unsigned_abs() as usize];
        if l < 0 { -v } else { v }
    }

    fn assign(&mut self, l: i32) {
        self.values[l.unsigned_abs() as usize] = if l < 0 { -1 } else { 1 };
        self.trail.push(l);
    }

    /// Propagates the trail from `from` on; false on a conflict.
    fn propagate_from(&mut self, mut from: usize) -> bool {
        while from < self.trail.len() {
            let falsified = -self.trail[from];
            from += 1;
            for k in 0..self.occurs[Self::slot(falsified)].len() {
                let clause = &self.clauses[self.occurs[Self::slot(falsified)][k] as usize];
                let mut unassigned = None;
                let mut free = 0;
                let mut satisfied = false;
                for &l in clause {
                    match self.value(l) {
                        1 => {
                            satisfied = true;
                            break;
                        }
                        0 => {
                            free += 1;
                            unassigned = Some(l);
                        }
                        _ => {}
                    }
                }
                if satisfied || free > 1 {
                    continue;
                }
                match unassigned {
                    Some(l) => self.assign(l),
                    None => return false,
                }
            }
        }
        true
    }

    /// Assigns and propagates the unit clauses, for good; false on a conflict.
    fn propagate_units(&mut self) -> bool {
        for clause in self.clauses {
            match clause.as_slice() {
                [] => return false,
                [l] => match self.value(*l) {
                    1 => {}
                    0 => self.assign(*l),
                    _ => return false,
                },
                _ => {}
            }
        }
        self.propagate_from(0)
    }

    /// How many literals setting `l` fixes (itself included), or `None` when
    /// it propagates to a conflict; the assignment is undone either way.
    fn probe(&mut self, l: i32) -> Option<usize> {
        let mark = self.trail.len();
        self.assign(l);
        let consistent = self.propagate_from(mark);
        let fixed = self.trail.len() - mark;
        for undone in self.trail.drain(mark..) {
            self.values[undone.unsigned_abs() as usize] = 0;
        }
        consistent.then_some(fixed)
    }
}

/// Whether every assignment satisfies some cube (their disjunction is a
/// tautology), by splitting on the cubes' variables. Exponential in the worst
/// case, linear in the cubes' total size for the leaves of a decision tree.
pub fn covers(cubes: &[Cube]) -> bool {
    fn go(cubes: Vec<&[i32]>, assumed: &mut Vec<i32>) -> bool {
        // The cubes not yet falsified, with their literals not yet satisfied.
        let open: Vec<Vec<i32>> = cubes
            .iter()
            .filter(|c| !c.iter().any(|l| assumed.contains(&-l)))
            .map(|c| c.iter().copied().filter(|l| !assumed.contains(l)).collect())
            .collect();
        if open.iter().any(Vec::is_empty) {
            return true;
        }
        let Some(&var) = open.iter().find_map(|c| c.first()) else {
            return false; // no cube left
        };
        let refs: Vec<&[i32]> = open.iter().map(Vec::as_slice).collect();
        [var, -var].into_iter().all(|lit| {
            assumed.push(lit);
            let covered = go(refs.clone(), assumed);
            assumed.pop();
            covered
        })
    }
    go(cubes.iter().map(Vec::as_slice).collect(), &mut Vec::new())
}

/// The formula and its cubes in the iCNF format of incremental and cube
/// solvers: `p inccnf`, the clauses, then one `a <literals> 0` line per cube.
pub fn to_icnf(cnf: &Cnf, cubes: &[Cube], comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        for line in c.lines() {
            let _ = writeln!(out, "c {line}");
        }
    }
    out.push_str("p inccnf\n");
    for clause in cnf.clauses() {
        for l in clause {
            let _ = write!(out, "{l} ");
        }
        out.push_str("0\n");
    }
    for cube in cubes {
        out.push('a');
        for l in cube {
            let _ = write!(out, " {l}");
        }
        out.push_str(" 0\n");
    }
    out
}

/// The formula with a cube's literals as unit clauses.
pub fn with_cube(cnf: &Cnf, cube: &[i32]) -> Cnf {
    let mut conjoined = cnf.clone();
    for &l in cube {
        conjoined.add(&[l]);
    }
    conjoined
}

/// Why an iCNF file's cubes cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CubeError {
    /// A cube line is not literals ended by 0.
    #[error("line {line}: a cube must be `a` and literals ended by 0")]
    BadCube {
        /// 1-based line.
        line: usize,
    },
    /// A cube names a variable the formula does not have.
    #[error("line {line}: literal {literal} names a variable the formula does not have")]
    UnknownVariable {
        /// 1-based line.
        line: usize,
        /// The literal.
        literal: i64,
    },
    /// No cube at all, or more than [`MAX_CUBES`].
    #[error("the file has {0} cubes; 1 to {MAX_CUBES} are needed")]
    Count(usize),
}

/// The cubes (`a … 0` lines) of an iCNF text, for a formula of `vars` variables.
pub fn cubes_of_icnf(text: &str, vars: usize) -> Result<Vec<Cube>, CubeError> {
    let mut cubes = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("a ") else {
            continue;
        };
        let bad = CubeError::BadCube { line: n + 1 };
        let literals: Vec<i64> = rest
            .split_whitespace()
            .map(|w| w.parse().map_err(|_| bad.clone()))
            .collect::<Result<_, _>>()?;
        let Some((&0, cube)) = literals.split_last() else {
            return Err(bad);
        };
        if cube.contains(&0) {
            return Err(bad);
        }
        if let Some(&literal) = cube.iter().find(|l| l.unsigned_abs() as usize > vars) {
            return Err(CubeError::UnknownVariable {
                line: n + 1,
                literal,
            });
        }
        cubes.push(cube.iter().map(|&l| l as i32).collect());
        if cubes.len() > MAX_CUBES {
            return Err(CubeError::Count(cubes.len()));
        }
    }
    if cubes.is_empty() {
        return Err(CubeError::Count(0));
    }
    Ok(cubes)
}

/// The file name stem of cube `index` (0-based): `cube-0001` for the first.
pub fn cube_stem(index: usize) -> String {
    format!("cube-{:04}", index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formula() -> Cnf {
        let mut cnf = Cnf::new();
        let v: Vec<i32> = (0..6).map(|_| cnf.fresh()).collect();
        cnf.add(&[v[0]]);
        cnf.add(&[v[1], v[2], v[3]]);
        cnf.add(&[-v[1], v[2]]);
        cnf.add(&[v[2], -v[4], v[0]]);
        cnf.add(&[v[3], v[4]]);
        cnf
    }

    #[test]
    fn cubes_of_any_count_cover_and_skip_fixed_variables() {
        let cnf = formula();
        // Variable 1 is a unit; 3 occurs most, then 2, 4, 5.
        assert_eq!(split_variables(&cnf, 3), vec![3, 2, 4]);
        for count in 1..=8 {
            let cubes = make_cubes(&cnf, count);
            assert_eq!(cubes.len(), count);
            assert!(covers(&cubes), "{count}: {cubes:?}");
            // Dropping any cube leaves an assignment uncovered.
            for i in 0..cubes.len().min(count) {
                if count > 1 {
                    let mut fewer = cubes.clone();
                    fewer.remove(i);
                    assert!(!covers(&fewer), "{count} without {i}");
                }
            }
        }
    }

    #[test]
    fn lookahead_leaves_out_failed_literals_and_prefers_balanced_variables() {
        let mut cnf = Cnf::new();
        let v: Vec<i32> = (0..7).map(|_| cnf.fresh()).collect();
        // v0 true conflicts (v0 → v1, v0 → ¬v1): a failed literal, though it
        // occurs most.
        for _ in 0..3 {
            cnf.add(&[-v[0], v[1]]);
            cnf.add(&[-v[0], -v[1]]);
        }
        // v2 fixes v3 and v4 either way; v5 fixes only v6 one way.
        cnf.add(&[-v[2], v[3]]);
        cnf.add(&[-v[2], v[4]]);
        cnf.add(&[v[2], -v[3]]);
        cnf.add(&[v[2], -v[4]]);
        cnf.add(&[-v[5], v[6]]);
        cnf.add(&[v[5], v[6], v[3]]);
        let chosen = lookahead_split_variables(&cnf, 2);
        assert_eq!(chosen[0], v[2], "{chosen:?}");
        assert!(!chosen.contains(&v[0]), "{chosen:?}");
        // The cubes split on v2 first and never on the failed literal.
        let cubes = make_cubes(&cnf, 2);
        assert_eq!(cubes, vec![vec![v[2]], vec![-v[2]]]);
        for count in 1..=8 {
            assert!(covers(&make_cubes(&cnf, count)));
        }
    }

    #[test]
    fn coverage_is_decided_for_cubes_not_from_a_tree() {
        assert!(covers(&[vec![1, 2], vec![-1], vec![-2]]));
        assert!(!covers(&[vec![1, 2], vec![-1, 3], vec![-2]]));
        assert!(covers(&[vec![]]));
        assert!(!covers(&[]));
    }

    #[test]
    fn icnf_round_trips_its_cubes_and_refuses_bad_lines() {
        let cnf = formula();
        let cubes = make_cubes(&cnf, 5);
        let text = to_icnf(&cnf, &cubes, &["made by a test".to_string()]);
        assert!(text.contains("p inccnf\n"));
        assert_eq!(cubes_of_icnf(&text, cnf.vars()).unwrap(), cubes);
        assert_eq!(
            cubes_of_icnf("a 1 2\n", 6),
            Err(CubeError::BadCube { line: 1 })
        );
        assert_eq!(
            cubes_of_icnf("p inccnf\na 1 -9 0\n", 6),
            Err(CubeError::UnknownVariable {
                line: 2,
                literal: -9
            })
        );
        assert_eq!(
            cubes_of_icnf("p inccnf\n1 0\n", 6),
            Err(CubeError::Count(0))
        );
    }
}
