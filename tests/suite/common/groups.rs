//! Test groups built in closed form: cyclic, dihedral (seed convention), C2^d and
//! direct products, straight from their action tables.
//!
//! No coset enumeration is involved, so these serve as an independent reference
//! (an enumerated presentation must agree with them) and as a fast source of small
//! groups for property tests and benchmarks.
//!
//! This file is the one copy of that support. It is compiled into the integration
//! tests and benchmarks (through `tests/common/mod.rs`) and into the library's own
//! unit tests (a `#[cfg(test)]` module of `group`); both parents provide `Elem`,
//! `FiniteGroup` and `GenLetter`, which is why they are imported from `super`.

use super::{Elem, FiniteGroup, GenLetter};

fn letter(generator: u32, inverse: bool) -> GenLetter {
    GenLetter { generator, inverse }
}

/// The cyclic group C_n = <a | a^n>, element i = a^i.
pub fn cyclic(n: usize) -> FiniteGroup {
    assert!(n >= 1, "cyclic group of order 0");
    let action = (0..n)
        .flat_map(|i| [((i + 1) % n) as u32, ((i + n - 1) % n) as u32])
        .collect();
    FiniteGroup::from_action(vec!["a".to_string()], action).expect("cyclic action is valid")
}

/// The seed's dihedral group D_n of order n (n even, n ≥ 2) on two involutions:
/// <y, Y | y^2 = Y^2 = (yY)^(n/2) = 1>. Its Cayley graph on {y, Y} is the n-ring.
///
/// Element `p` is the `p`-th node of the ring `1, y, yY, yYy, …`: right
/// multiplication by `y` moves even positions forward and odd ones back, `Y` the
/// other way round.
pub fn dihedral(n: usize) -> FiniteGroup {
    assert!(
        n >= 2 && n.is_multiple_of(2),
        "dihedral D_n needs an even n >= 2"
    );
    let mut action = Vec::with_capacity(4 * n);
    for p in 0..n {
        let (forward, back) = (((p + 1) % n) as u32, ((p + n - 1) % n) as u32);
        let (y, big_y) = if p % 2 == 0 {
            (forward, back)
        } else {
            (back, forward)
        };
        action.extend([y, y, big_y, big_y]);
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
                    let image = factor.apply(Elem(digit as u32), letter(g, inverse)).index();
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

/// The same groups with the link set their Cayley networks use.
pub mod linked {
    use super::{FiniteGroup, GenLetter, cyclic as cyclic_group, direct_product, letter};

    /// A group with the link set its Cayley network uses.
    #[derive(Clone, Debug)]
    pub struct GroupWithLinks {
        /// The group.
        pub group: FiniteGroup,
        /// The links, as generator letters.
        pub links: Vec<GenLetter>,
    }

    /// C_n (`n ≥ 2`) on generator `a`; links `a, a'`, or just `a` when `n = 2`
    /// (then `a' = a`). Its Cayley graph is the ring of `n` nodes.
    pub fn cyclic(n: usize) -> GroupWithLinks {
        assert!(n >= 2, "cyclic group needs n >= 2");
        let links = if n == 2 {
            vec![letter(0, false)]
        } else {
            vec![letter(0, false), letter(0, true)]
        };
        GroupWithLinks {
            group: cyclic_group(n),
            links,
        }
    }

    /// The dihedral group of **order** `n` (`n` even, `n ≥ 4`) in the seed
    /// convention; links `y, Y`. Its Cayley graph is the ring of `n` nodes.
    pub fn dihedral(n: usize) -> GroupWithLinks {
        assert!(
            n >= 4 && n.is_multiple_of(2),
            "dihedral group of order n needs even n >= 4"
        );
        GroupWithLinks {
            group: super::dihedral(n),
            links: vec![letter(0, false), letter(1, false)],
        }
    }

    /// C2^d on generators `a, b, c, …` (bit flips: element bit `g` is generator
    /// `g`); its Cayley graph on all generators is the `d`-cube.
    pub fn elementary_abelian(d: usize) -> GroupWithLinks {
        assert!(d <= 20, "C2^d test groups are limited to d <= 20");
        let factors = vec![cyclic_group(2); d];
        let names: Vec<Vec<String>> = (0..d).map(|i| vec![generator_name(i)]).collect();
        GroupWithLinks {
            group: direct_product(&factors, &names),
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
        let all: Vec<&String> = factors
            .iter()
            .flat_map(|f| f.group.generator_names())
            .collect();
        let clash = (0..all.len()).any(|i| all[..i].contains(&all[i]));
        let mut names = Vec::new();
        let mut links = Vec::new();
        let mut offset = 0u32;
        for (i, f) in factors.iter().enumerate() {
            let factor_names = f.group.generator_names();
            names.push(
                factor_names
                    .iter()
                    .map(|name| {
                        if clash {
                            format!("{name}{}", i + 1)
                        } else {
                            name.clone()
                        }
                    })
                    .collect::<Vec<String>>(),
            );
            links.extend(
                f.links
                    .iter()
                    .map(|l| letter(l.generator + offset, l.inverse)),
            );
            offset += factor_names.len() as u32;
        }
        let groups: Vec<FiniteGroup> = factors.iter().map(|f| f.group.clone()).collect();
        GroupWithLinks {
            group: direct_product(&groups, &names),
            links,
        }
    }
}
