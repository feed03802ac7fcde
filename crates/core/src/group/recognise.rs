//! Recognition of presentations of well-known groups, for a closed-form order.
//!
//! When a presentation is literally the standard one of a cyclic or dihedral
//! group, or a direct product of such (the union of the factors' generators and
//! relators plus every commutator between generators of different factors), the
//! order is known without enumeration. Comparing it with the enumerated order is
//! a third, independent check. Recognition goes by the shape of the relators
//! only and is deliberately conservative: anything unusual gives `None`.

use super::Presentation;
use super::enumerate::reduce;
use std::collections::BTreeSet;

/// The least rotation of a word or of its inverse: equal for relators that say
/// the same thing up to conjugation and inversion.
fn canonical(word: &[u32]) -> Vec<u32> {
    // A power of one letter is its own least rotation (up to the sign).
    if word.iter().all(|&c| c == word[0]) {
        return word.iter().map(|&c| c & !1).collect();
    }
    let inverse: Vec<u32> = word.iter().rev().map(|&c| c ^ 1).collect();
    let mut best: Option<Vec<u32>> = None;
    for w in [word, &inverse[..]] {
        for k in 0..w.len() {
            let mut rot = w[k..].to_vec();
            rot.extend_from_slice(&w[..k]);
            if best.as_ref().is_none_or(|b| rot < *b) {
                best = Some(rot);
            }
        }
    }
    best.unwrap_or_default()
}

/// Whether a reduced word is a commutator `x y x⁻¹ y⁻¹` of letters of two
/// different generators; returns the two generators.
fn commutator_pair(w: &[u32]) -> Option<(u32, u32)> {
    (w.len() == 4 && w[2] == w[0] ^ 1 && w[3] == w[1] ^ 1 && w[0] / 2 != w[1] / 2)
        .then(|| (w[0] / 2, w[1] / 2))
}

/// Longest relator mixing several letters that recognition looks at.
const MAX_MIXED_LEN: usize = 4096;

/// One recognised factor: its short name and order.
struct Factor {
    short: String,
    long: String,
    order: usize,
    is_c2: bool,
}

/// `a^n` as columns, generator `g`.
fn power(g: u32, n: usize) -> Vec<u32> {
    vec![2 * g; n]
}

/// Recognises a factor on generators `gens` with (reduced, non-empty) relators.
fn recognise_factor(gens: &[u32], relators: &BTreeSet<Vec<u32>>) -> Option<Factor> {
    match gens {
        [g] => {
            // Every relator is a power of g; the order is the gcd of the exponents.
            let mut n = 0usize;
            for r in relators {
                if r.iter().any(|&c| c / 2 != *g) {
                    return None;
                }
                n = gcd(n, r.len());
            }
            (n > 0).then(|| Factor {
                short: format!("C_{n}"),
                long: format!("cyclic C_{n}"),
                order: n,
                is_c2: n == 2,
            })
        }
        [g, h] => {
            let (g, h) = (*g, *h);
            if relators.len() != 3 {
                return None;
            }
            let has = |w: Vec<u32>| relators.contains(&canonical(&w));
            // Seed convention: <y, Y | y^2, Y^2, (yY)^k>, order 2k.
            if has(power(g, 2)) && has(power(h, 2)) {
                let third = relators
                    .iter()
                    .find(|w| **w != canonical(&power(g, 2)) && **w != canonical(&power(h, 2)))?;
                let k = third.len() / 2;
                let yz: Vec<u32> = (0..k).flat_map(|_| [2 * g, 2 * h]).collect();
                if k > 0 && canonical(&yz) == *third {
                    return Some(Factor {
                        short: format!("D_{}", 2 * k),
                        long: format!("dihedral D_{} (order {}, seed convention)", 2 * k, 2 * k),
                        order: 2 * k,
                        is_c2: k == 1,
                    });
                }
            }
            // <r, s | r^n, s^2, (rs)^2>, order 2n, either generator as r.
            for (r, s) in [(g, h), (h, g)] {
                if !has(power(s, 2)) || !has(vec![2 * r, 2 * s, 2 * r, 2 * s]) {
                    continue;
                }
                let third = relators.iter().find(|w| {
                    **w != canonical(&power(s, 2))
                        && **w != canonical(&[2 * r, 2 * s, 2 * r, 2 * s])
                })?;
                let n = third.len();
                if third.iter().all(|&c| c == 2 * r) {
                    return Some(Factor {
                        short: format!("D_{}", 2 * n),
                        long: format!("dihedral D_{} (order {})", 2 * n, 2 * n),
                        order: 2 * n,
                        is_c2: n == 1,
                    });
                }
            }
            None
        }
        _ => None,
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Recognises a standard presentation and returns a description of the group
/// and its order, or `None` when the presentation is not (recognisably) one of
/// the known families: cyclic `<a | a^n>`, dihedral `<y, Y | y^2, Y^2, (yY)^k>`
/// (order `2k`) or `<r, s | r^n, s^2, (rs)^2>` (order `2n`), elementary abelian
/// `C2^n`, and direct products of these.
pub fn recognise(p: &Presentation) -> Option<(String, usize)> {
    p.check_letters().ok()?;
    let ngens = p.generators.len();
    if ngens == 0 {
        return p
            .relators
            .iter()
            .all(|r| r.is_empty())
            .then(|| ("trivial group".to_string(), 1));
    }
    let reduced: Vec<Vec<u32>> = p
        .relators
        .iter()
        .map(|r| reduce(r))
        .filter(|w| !w.is_empty())
        .collect();
    // Canonical forms cost quadratic time in the length of mixed words: stay
    // conservative on very long ones.
    if reduced
        .iter()
        .any(|w| w.len() > MAX_MIXED_LEN && w.iter().any(|&c| c != w[0]))
    {
        return None;
    }
    let relators: BTreeSet<Vec<u32>> = reduced.iter().map(|w| canonical(w)).collect();
    // Split generators into classes joined by the non-commutator relators.
    let mut class: Vec<usize> = (0..ngens).collect();
    fn root(class: &mut [usize], mut g: usize) -> usize {
        while class[g] != g {
            class[g] = class[class[g]];
            g = class[g];
        }
        g
    }
    let mut commuting: BTreeSet<(u32, u32)> = BTreeSet::new();
    for w in &relators {
        if let Some((g, h)) = commutator_pair(w) {
            commuting.insert((g.min(h), g.max(h)));
            continue;
        }
        let first = w[0] as usize / 2;
        for &c in w {
            let (a, b) = (root(&mut class, first), root(&mut class, c as usize / 2));
            class[a] = b;
        }
    }
    let roots: Vec<usize> = (0..ngens).map(|g| root(&mut class, g)).collect();
    // Generators in different classes must commute (that is what makes the
    // presentation a direct product); commutators inside a class are ordinary
    // relators of that factor.
    for g in 0..ngens {
        for h in g + 1..ngens {
            if roots[g] != roots[h] && !commuting.contains(&(g as u32, h as u32)) {
                return None;
            }
        }
    }
    let mut factors = Vec::new();
    let mut done = BTreeSet::new();
    for g in 0..ngens {
        if !done.insert(roots[g]) {
            continue;
        }
        let gens: Vec<u32> = (0..ngens as u32)
            .filter(|&h| roots[h as usize] == roots[g])
            .collect();
        let own: BTreeSet<Vec<u32>> = relators
            .iter()
            .filter(|w| w.iter().all(|&c| roots[c as usize / 2] == roots[g]))
            .cloned()
            .collect();
        factors.push(recognise_factor(&gens, &own)?);
    }
    let order = factors
        .iter()
        .try_fold(1usize, |acc, f| acc.checked_mul(f.order))?;
    let description = match factors.as_slice() {
        [only] => only.long.clone(),
        fs if fs.iter().all(|f| f.is_c2) => format!("C2^{}", fs.len()),
        fs => fs
            .iter()
            .map(|f| f.short.as_str())
            .collect::<Vec<_>>()
            .join(" x "),
    };
    Some((description, order))
}
