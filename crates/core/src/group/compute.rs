//! Computing a group from a presentation, with independent cross-checks.
//!
//! [`compute`] is how the rest of txverify should obtain a group. Coset
//! enumeration is intricate code and its answer decides what network is
//! verified, so it is never trusted alone:
//! * before enumeration, the abelianisation (Smith normal form) is computed;
//!   a free part proves the group infinite and stops at once;
//! * after enumeration, every relator is evaluated from every element (sampled
//!   beyond a work bound, and reported as such), the abelianisation's order must
//!   equal the group's order if the generators commute and properly divide it
//!   otherwise, and a recognised standard family must have its known order.
//!
//! Any disagreement is a bug and is reported as [`GroupError::CrossCheck`].

use super::abelian::abelianise;
use super::check::{check_abelianisation, check_relators};
use super::recognise::recognise;
use super::{EnumerationLimits, FiniteGroup, GroupError, Presentation};

/// A group computed from a presentation, with the record of how it was checked.
#[derive(Clone, Debug)]
pub struct ComputedGroup {
    /// The enumerated group.
    pub group: FiniteGroup,
    /// The cross-checks that ran, in order, for the report (e.g. `"abelianisation"`,
    /// `"relators"`, `"closed form: dihedral D_6 (order 6, seed convention)"`).
    pub checks: Vec<String>,
    /// The standard family the presentation was recognised as, if any.
    pub family: Option<String>,
}

/// Enumerates `p` and cross-checks the result (see the module notes).
pub fn compute(p: &Presentation, limits: &EnumerationLimits) -> Result<ComputedGroup, GroupError> {
    p.check_letters()?;
    let abelianisation = abelianise(p);
    if let Some(ab) = &abelianisation
        && ab.free_rank > 0
    {
        return Err(GroupError::Infinite {
            free_rank: ab.free_rank,
        });
    }
    // |G| ≥ |G/[G, G]|: a group whose abelianisation is over the limit is refused
    // at once, instead of after an enumeration that cannot succeed.
    if let Some(ab) = &abelianisation
        && let Some(order) = ab.order()
        && order > limits.max_order as u128
    {
        return Err(GroupError::AbelianisationTooLarge {
            at_least: order,
            limit: limits.max_order,
        });
    }
    // A visible direct product is enumerated factor by factor (group/product.rs);
    // everything below checks the product's table as it would any other.
    let blocks = super::product::direct_blocks(p);
    let group = match &blocks {
        Some(blocks) => super::product::enumerate_product(p, blocks, limits)?,
        None => super::product::enumerate_block(p, limits)?,
    };
    let mut checks = vec![check_relators(&group, p)?];
    match &abelianisation {
        Some(ab) => {
            check_abelianisation(&group, ab)?;
            checks.push("abelianisation".to_string());
        }
        None => checks.push("abelianisation skipped (integer overflow)".to_string()),
    }
    let family = recognise(p);
    if let Some((name, order)) = &family {
        if *order != group.order() {
            return Err(GroupError::CrossCheck(format!(
                "the presentation is {name} of order {order}, but enumeration found {} elements",
                group.order()
            )));
        }
        checks.push(format!("closed form: {name}"));
    }
    Ok(ComputedGroup {
        group,
        checks,
        family: family.map(|(name, _)| name),
    })
}
