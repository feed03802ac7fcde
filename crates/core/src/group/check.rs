//! The independent checks [`compute`](super::compute()) runs on an enumerated group.
//!
//! Each check recomputes something about the group by a route that shares no
//! code with coset enumeration (evaluating relators on the action table,
//! comparing with the abelianisation's order), so a wrong enumeration is caught
//! rather than verified against. A failed check is [`GroupError::CrossCheck`].

use super::abelian::Abelianisation;
use super::enumerate::reduce;
use super::{Elem, FiniteGroup, GenLetter, GroupError, Presentation};

/// Most table look-ups spent checking relators before switching to a sample of
/// elements (a few tenths of a second).
pub const RELATOR_CHECK_BUDGET: usize = 200_000_000;

/// Whether all generators of `group` commute pairwise (so the group is abelian).
pub fn generators_commute(group: &FiniteGroup) -> bool {
    let n = group.generator_names().len() as u32;
    let letter = |generator, inverse| GenLetter { generator, inverse };
    (0..n).all(|g| {
        (g + 1..n).all(|h| {
            group.eval(&[
                letter(g, false),
                letter(h, false),
                letter(g, true),
                letter(h, true),
            ]) == Elem::IDENTITY
        })
    })
}

/// Compares the group's order with its abelianisation's.
pub fn check_abelianisation(group: &FiniteGroup, ab: &Abelianisation) -> Result<(), GroupError> {
    let order = group.order() as u128;
    let fail = |why: &str| {
        Err(GroupError::CrossCheck(format!(
            "the abelianisation (invariants {:?}, free rank {}) {why} the enumerated order {order}",
            ab.invariants, ab.free_rank
        )))
    };
    let Some(ab_order) = ab.order() else {
        return fail("is larger than");
    };
    if generators_commute(group) {
        if ab_order != order {
            return fail("of an abelian group differs from");
        }
    } else if ab_order >= order || !order.is_multiple_of(ab_order) {
        return fail("of a non-abelian group does not properly divide");
    }
    Ok(())
}

/// Checks that every relator of `p` is the identity at every element of `group`
/// (a sample of elements when that would exceed [`RELATOR_CHECK_BUDGET`]
/// look-ups). A relator that is a power `g^k` is checked on the cycles of `g`
/// instead, in time linear in the order. Returns the description of the check.
pub fn check_relators(group: &FiniteGroup, p: &Presentation) -> Result<String, GroupError> {
    p.check_letters()?;
    if p.generators.len() != group.generator_names().len() {
        return Err(GroupError::CrossCheck(
            "the presentation and the group have different generators".into(),
        ));
    }
    let order = group.order();
    let mut general: Vec<(usize, Vec<GenLetter>)> = Vec::new();
    for (i, r) in p.relators.iter().enumerate() {
        let w = reduce(r);
        if w.is_empty() {
            continue;
        }
        if w.iter().all(|&c| c == w[0]) {
            check_power(group, i, w[0], w.len())?;
        } else {
            let letters = w
                .iter()
                .map(|&c| GenLetter {
                    generator: c / 2,
                    inverse: c % 2 == 1,
                })
                .collect();
            general.push((i, letters));
        }
    }
    let cost: usize = general
        .iter()
        .map(|(_, w)| w.len().saturating_mul(order))
        .fold(0, usize::saturating_add);
    let stride = cost.div_ceil(RELATOR_CHECK_BUDGET).max(1);
    for e in (0..order).step_by(stride) {
        let e = Elem(e as u32);
        for (i, w) in &general {
            if group.apply_word(e, w) != e {
                return Err(GroupError::CrossCheck(format!(
                    "relator {i} does not hold at element {}",
                    e.0
                )));
            }
        }
    }
    Ok(if stride == 1 {
        "relators".to_string()
    } else {
        format!("relators (sampled: every {stride}th element)")
    })
}

/// Checks `e · g^k = e` for all `e` (letter column `col`): every cycle of the
/// permutation must have a length dividing `k`.
fn check_power(group: &FiniteGroup, index: usize, col: u32, k: usize) -> Result<(), GroupError> {
    let letter = GenLetter {
        generator: col / 2,
        inverse: col % 2 == 1,
    };
    let mut seen = vec![false; group.order()];
    for start in group.elements() {
        if seen[start.index()] {
            continue;
        }
        let mut len = 0;
        let mut e = start;
        loop {
            seen[e.index()] = true;
            e = group.apply(e, letter);
            len += 1;
            if e == start {
                break;
            }
            if seen[e.index()] {
                return Err(GroupError::CrossCheck(format!(
                    "generator {} does not act as a permutation",
                    letter.generator
                )));
            }
        }
        if !k.is_multiple_of(len) {
            return Err(GroupError::CrossCheck(format!(
                "relator {index} does not hold: a cycle of length {len} under generator {}",
                letter.generator
            )));
        }
    }
    Ok(())
}
