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
/// decision tree whose depth-d nodes all split on the d-th split variable.
pub fn make_cubes(cnf: &Cnf, count: usize) -> Vec<Cube> {
    let count = count.clamp(1, MAX_CUBES);
    let depth = usize::BITS - (count - 1).leading_zeros();
    let vars = split_variables(cnf, depth as usize);
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
