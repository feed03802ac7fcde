//! Lex-leader symmetry breaking: constraints that drop symmetric copies of
//! tables without dropping any orbit, so an unsatisfiable formula still says
//! that *no* table of the length class exists.
//!
//! A table is one assignment of the formula's *table variables* (every route's
//! start variables `x` and letter variables, in the fixed order of
//! [`table_variables`]); every other variable is a function of them or an
//! auxiliary of a cardinality constraint. A symmetry σ of the tables (an
//! automorphism of (G, S) fixing the message set, the time reversal, or one
//! followed by the other) maps every valid table of the class to a valid table
//! of the class, and acts on the table variables as a permutation π. For each
//! chosen σ the formula says "the table's vector is lexicographically at most
//! the vector read at the permuted positions", i.e. τ ≤ σ⁻¹(τ). In every orbit
//! of the group the chosen maps generate, the lexicographically least table
//! τ* satisfies all of them at once (σ⁻¹(τ*) is in its orbit), because they
//! all compare in the *same* order; so if any table exists, τ* is a model.
//! The proof is written out in docs/search.md ("Symmetry breaking").
//!
//! The maps are re-derived from the instance when the formula is built (and so
//! when `verify-proof` regenerates it): a link permutation is used only if it
//! extends to an automorphism of the Cayley graph, maps the message set onto
//! itself and permutes the table variables.

use super::cnf::{Cnf, Lit};
use super::options::{BreakingMap, EncodeError, SymmetryBreaking};
use super::routes::RouteVars;
use super::symmetry::{TableMap, for_each_permutation};
use std::collections::HashMap;
use txverify_core::group::Elem;
use txverify_core::kernel::Instance;

/// How many link permutations [`suggested`] looks at.
pub const PERMUTATION_BUDGET: usize = 100_000;

/// The symmetries [`suggested`] uses by default: this many automorphisms
/// (fewest moved links first), and the time reversal after each of them and alone.
pub const DEFAULT_AUTOMORPHISMS: usize = 8;

/// A set of symmetries worth breaking: up to `automorphisms` automorphisms of
/// (G, S) that fix the message set (those moving the fewest links first, e.g.
/// the transpositions of a hypercube's links, the inversion of one torus
/// dimension), and, when the messages are closed under inverses, the time
/// reversal alone and after each of them.
pub fn suggested(instance: &Instance, automorphisms: usize) -> SymmetryBreaking {
    let mut found: Vec<(usize, Vec<u16>)> = Vec::new();
    for_each_permutation(instance.links().len(), PERMUTATION_BUDGET, |p| {
        let moved = p
            .iter()
            .enumerate()
            .filter(|&(i, &l)| i != l as usize)
            .count();
        if moved > 0 && TableMap::automorphism(instance, p).is_some() {
            found.push((moved, p.to_vec()));
        }
    });
    found.sort();
    let kept: Vec<Vec<u16>> = found
        .into_iter()
        .take(automorphisms)
        .map(|(_, p)| p)
        .collect();
    let mut maps: Vec<BreakingMap> = kept
        .iter()
        .map(|p| BreakingMap {
            links: p.clone(),
            reverses_time: false,
        })
        .collect();
    if TableMap::time_reversal(instance).is_some() {
        let identity: Vec<u16> = (0..instance.links().len() as u16).collect();
        maps.push(BreakingMap {
            links: identity,
            reverses_time: true,
        });
        maps.extend(kept.into_iter().map(|links| BreakingMap {
            links,
            reverses_time: true,
        }));
    }
    SymmetryBreaking { maps, prefix: 0 }
}

/// The maps of `breaking` as maps of tables, each checked against the instance.
pub fn table_maps(
    instance: &Instance,
    breaking: &SymmetryBreaking,
) -> Result<Vec<TableMap>, EncodeError> {
    breaking
        .maps
        .iter()
        .enumerate()
        .map(|(index, map)| {
            let automorphism =
                TableMap::automorphism(instance, &map.links).ok_or(EncodeError::NotASymmetry {
                    index,
                    why: "the link permutation does not extend to an automorphism of the group fixing the message set",
                })?;
            if !map.reverses_time {
                return Ok(automorphism);
            }
            let reversal = TableMap::time_reversal(instance).ok_or(EncodeError::NotASymmetry {
                index,
                why: "the message set is not closed under inverses",
            })?;
            Ok(automorphism.then(&reversal))
        })
        .collect()
}

/// The table variables in the common order of every comparison: route by
/// route (messages in element order, then lengths), its starts, then its
/// letters depth by depth.
pub fn table_variables(routes: &[RouteVars]) -> Vec<Lit> {
    let mut order = Vec::new();
    for rv in routes {
        order.extend(&rv.x);
        for letters in &rv.letters {
            order.extend(letters);
        }
    }
    order
}

/// The table variable at the position of each of [`table_variables`] under
/// `map` (where the image table has the value the table has at that variable),
/// or `None` when the map does not permute the table variables.
pub fn images(time: usize, routes: &[RouteVars], map: &TableMap) -> Option<Vec<Lit>> {
    let index: HashMap<(Elem, usize), usize> = routes
        .iter()
        .enumerate()
        .map(|(i, rv)| ((rv.route.message, rv.route.len), i))
        .collect();
    let mut image = Vec::new();
    for rv in routes {
        let len = rv.route.len;
        let other = &routes[*index.get(&(map.element(rv.route.message), len))?];
        if other.x.len() != rv.x.len() {
            return None;
        }
        for t in 0..rv.x.len() {
            let t2 = if map.reverses_time() {
                time.checked_sub(len + t)?
            } else {
                t
            };
            image.push(*other.x.get(t2)?);
        }
        for k in 0..len {
            let k2 = if map.reverses_time() { len - 1 - k } else { k };
            for &link in &rv.route.letters[k] {
                image.push(other.letter(k2, map.link(link))?);
            }
        }
    }
    Some(image)
}

/// Adds `τ ≤_lex σ⁻¹(τ)` over the table variables for every map.
pub fn lex_leader_clauses(
    cnf: &mut Cnf,
    time: usize,
    routes: &[RouteVars],
    maps: &[TableMap],
    prefix: usize,
) -> Result<(), EncodeError> {
    let order = table_variables(routes);
    for (index, map) in maps.iter().enumerate() {
        let not_permuted = EncodeError::NotASymmetry {
            index,
            why: "it does not permute the table variables",
        };
        let image = images(time, routes, map).ok_or(not_permuted.clone())?;
        if image.len() != order.len() || !is_permutation(&order, &image) {
            return Err(not_permuted);
        }
        let mut pairs: Vec<(Lit, Lit)> = order
            .iter()
            .zip(&image)
            .filter(|(a, b)| a != b)
            .map(|(&a, &b)| (a, b))
            .collect();
        if prefix > 0 {
            pairs.truncate(prefix);
        }
        lex_at_most(cnf, &pairs);
    }
    Ok(())
}

fn is_permutation(order: &[Lit], image: &[Lit]) -> bool {
    let mut a = order.to_vec();
    let mut b = image.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// `(a1, a2, …) ≤_lex (b1, b2, …)` for the pairs `(ai, bi)`, with one
/// auxiliary `eq_i` per pair but the last ("equal up to and including i"):
/// `eq_{i-1} → (ai → bi)`, `eq_{i-1} ∧ ai → eq_i`, `eq_{i-1} ∧ ¬bi → eq_i`
/// (with `eq_0` true). Any assignment with a ≤_lex b extends to a model by
/// setting each `eq_i` to "the first i pairs are equal".
pub fn lex_at_most(cnf: &mut Cnf, pairs: &[(Lit, Lit)]) {
    let mut equal: Option<Lit> = None;
    for (i, &(a, b)) in pairs.iter().enumerate() {
        let guard: Vec<Lit> = equal.map(|e| -e).into_iter().collect();
        let with = |extra: &[Lit]| -> Vec<Lit> { guard.iter().chain(extra).copied().collect() };
        cnf.add(&with(&[-a, b]));
        if i + 1 < pairs.len() {
            let next = cnf.fresh();
            cnf.add(&with(&[-a, next]));
            cnf.add(&with(&[b, next]));
            equal = Some(next);
        }
    }
}
