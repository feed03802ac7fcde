//! Closed-form groups: cyclic, dihedral (seed convention), and direct products.
//!
//! These build action tables directly from arithmetic, with no coset
//! enumeration, so they serve as an independent reference in tests (an
//! enumerated presentation must agree with them) and as a fast source of
//! random small groups for property tests.

use super::FiniteGroup;

/// The cyclic group C_n = <a | a^n>, element i = a^i.
pub fn cyclic(n: usize) -> FiniteGroup {
    assert!(n >= 1, "cyclic group of order 0");
    let mut action = Vec::with_capacity(2 * n);
    for i in 0..n {
        action.push(((i + 1) % n) as u32);
        action.push(((i + n - 1) % n) as u32);
    }
    FiniteGroup::from_action(vec!["a".to_string()], action).expect("cyclic action is valid")
}

/// The seed's dihedral group D_n of order n (n even, n ≥ 2) on two involutions:
/// <y, Y | y^2 = Y^2 = (yY)^(n/2) = 1>. Its Cayley graph on {y, Y} is the n-ring.
///
/// Element 2k is (yY)^k and element 2k+1 is (yY)^k·y, so the ring order is
/// 0, 1, ... read along alternating y, Y steps.
pub fn dihedral(n: usize) -> FiniteGroup {
    assert!(
        n >= 2 && n.is_multiple_of(2),
        "dihedral D_n needs an even n >= 2"
    );
    // Realise the elements as the path 0 - 1 - 2 - ... - (n-1) - 0 of the ring,
    // where y joins 2k to 2k+1 and Y joins 2k+1 to 2k+2 (mod n): the right
    // action of y and Y on the ring's vertices is then the Cayley graph.
    let mut action = vec![0u32; 4 * n];
    for v in 0..n {
        let y = if v % 2 == 0 { v + 1 } else { v - 1 };
        let big_y = if v % 2 == 1 {
            (v + 1) % n
        } else {
            (v + n - 1) % n
        };
        action[4 * v] = y as u32;
        action[4 * v + 1] = y as u32;
        action[4 * v + 2] = big_y as u32;
        action[4 * v + 3] = big_y as u32;
    }
    FiniteGroup::from_action(vec!["y".to_string(), "Y".to_string()], action)
        .expect("dihedral action is valid")
}

/// The direct product of groups, generators renamed by `names` (one list per factor).
///
/// Element (e_1, …, e_k) is numbered in mixed radix with e_1 least significant.
pub fn direct_product(factors: &[FiniteGroup], names: &[Vec<String>]) -> FiniteGroup {
    let order: usize = factors.iter().map(FiniteGroup::order).product();
    let total_gens: usize = factors.iter().map(|f| f.generator_names().len()).sum();
    let mut action = vec![0u32; order * 2 * total_gens];
    for e in 0..order {
        let mut column = 0;
        let mut stride = 1;
        for factor in factors {
            let digit = (e / stride) % factor.order();
            for g in 0..factor.generator_names().len() as u32 {
                for inverse in [false, true] {
                    let image = factor
                        .apply(
                            super::Elem(digit as u32),
                            super::GenLetter {
                                generator: g,
                                inverse,
                            },
                        )
                        .index();
                    let moved = e - digit * stride + image * stride;
                    action[e * 2 * total_gens + column] = moved as u32;
                    column += 1;
                }
            }
            stride *= factor.order();
        }
    }
    let names = names.iter().flatten().cloned().collect();
    FiniteGroup::from_action(names, action).expect("product action is valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::{Elem, GenLetter};

    fn letter(generator: u32, inverse: bool) -> GenLetter {
        GenLetter { generator, inverse }
    }

    #[test]
    fn dihedral_satisfies_its_relators() {
        for n in [2, 4, 6, 12] {
            let g = dihedral(n);
            assert_eq!(g.order(), n);
            let (y, big_y) = (letter(0, false), letter(1, false));
            let mut rotation = Vec::new();
            for _ in 0..n / 2 {
                rotation.extend([y, big_y]);
            }
            for e in g.elements() {
                assert_eq!(g.apply_word(e, &[y, y]), e);
                assert_eq!(g.apply_word(e, &rotation), e);
            }
            // yY has order exactly n/2.
            if n > 2 {
                assert_ne!(
                    g.apply_word(Elem::IDENTITY, &rotation[..n - 2]),
                    Elem::IDENTITY
                );
            }
        }
    }

    #[test]
    fn product_orders_multiply_and_factors_commute() {
        let g = direct_product(
            &[cyclic(5), dihedral(6)],
            &[vec!["a".into()], vec!["b".into(), "B".into()]],
        );
        assert_eq!(g.order(), 30);
        let (a, b) = (letter(0, false), letter(1, false));
        for e in g.elements() {
            assert_eq!(g.apply_word(e, &[a, b]), g.apply_word(e, &[b, a]));
        }
    }
}
