//! Direct products enumerated factor by factor.
//!
//! A presentation whose generators split into blocks such that every relator
//! other than a commutator `[g, h]` uses one block only, and every two
//! generators of different blocks have their commutator among the relators,
//! presents the direct product of the blocks' own presentations (the standard
//! presentation of a direct product). Enumerating each block alone and taking
//! the product action costs the sum of the factors' enumerations instead of one
//! enumeration of the product, whose commutator relators grow with the square of
//! the number of generators: C2^20 takes well under a second instead of about
//! ten. A block of one generator is the cyclic group its exponent sums give.
//! The product's table is then checked like any other (every relator of
//! the whole presentation, the abelianisation, the closed form).

use super::enumerate::{EnumerationLimits, enumerate};
use super::{FiniteGroup, GenLetter, GroupError, Presentation};

/// The most generators for which a split is looked for (pairs are compared).
const MAX_SPLIT_GENERATORS: usize = 256;

/// The blocks of generators (each in increasing order, blocks ordered by their
/// first generator) when the presentation is visibly a direct product of at
/// least two of them; `None` otherwise.
pub fn direct_blocks(p: &Presentation) -> Option<Vec<Vec<u32>>> {
    let n = p.generators.len();
    if !(2..=MAX_SPLIT_GENERATORS).contains(&n) {
        return None;
    }
    let mut commute = vec![false; n * n];
    let mut parent: Vec<usize> = (0..n).collect();
    for r in &p.relators {
        if let Some((g, h)) = commutator_pair(r) {
            commute[g * n + h] = true;
            commute[h * n + g] = true;
        } else if let Some(first) = r.first() {
            for l in r {
                union(&mut parent, first.generator as usize, l.generator as usize);
            }
        }
    }
    // Generators of different blocks must commute by a relator; join any two
    // that do not, until that holds.
    loop {
        let mut joined = false;
        for g in 0..n {
            for h in g + 1..n {
                if find(&mut parent, g) != find(&mut parent, h) && !commute[g * n + h] {
                    union(&mut parent, g, h);
                    joined = true;
                }
            }
        }
        if !joined {
            break;
        }
    }
    let mut blocks: Vec<Vec<u32>> = Vec::new();
    let mut block_of_root = vec![usize::MAX; n];
    for g in 0..n {
        let root = find(&mut parent, g);
        if block_of_root[root] == usize::MAX {
            block_of_root[root] = blocks.len();
            blocks.push(Vec::new());
        }
        blocks[block_of_root[root]].push(g as u32);
    }
    (blocks.len() >= 2).then_some(blocks)
}

/// `(g, h)` when the relator is `x y x⁻¹ y⁻¹` for letters of two different
/// generators (any rotation or inversion of a commutator has this shape).
fn commutator_pair(r: &[GenLetter]) -> Option<(usize, usize)> {
    match r {
        [a, b, c, d] if a.generator != b.generator && *c == a.inverted() && *d == b.inverted() => {
            Some((a.generator as usize, b.generator as usize))
        }
        _ => None,
    }
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut root = x;
    while parent[root] != root {
        root = parent[root];
    }
    let mut y = x;
    while parent[y] != root {
        let next = parent[y];
        parent[y] = root;
        y = next;
    }
    root
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb)] = ra.min(rb);
    }
}

/// The presentation of one block: its generators renumbered from 0 and the
/// relators that use only them.
fn block_presentation(p: &Presentation, block: &[u32]) -> Presentation {
    let mut local = vec![u32::MAX; p.generators.len()];
    for (i, &g) in block.iter().enumerate() {
        local[g as usize] = i as u32;
    }
    let relators = p
        .relators
        .iter()
        .filter(|r| r.iter().all(|l| local[l.generator as usize] != u32::MAX))
        .map(|r| {
            r.iter()
                .map(|l| GenLetter {
                    generator: local[l.generator as usize],
                    inverse: l.inverse,
                })
                .collect()
        })
        .collect();
    Presentation {
        generators: block
            .iter()
            .map(|&g| p.generators[g as usize].clone())
            .collect(),
        relators,
    }
}

/// A one-generator presentation is the cyclic group of order the gcd of its
/// relators' exponent sums, built directly: coset enumeration would scan a
/// relator such as a^1000000 at every coset. Other presentations are enumerated.
pub fn enumerate_block(
    p: &Presentation,
    limits: &EnumerationLimits,
) -> Result<FiniteGroup, GroupError> {
    if p.generators.len() != 1 {
        return enumerate(p, limits);
    }
    let order = p
        .relators
        .iter()
        .map(|r| {
            r.iter()
                .map(|l| if l.inverse { -1i64 } else { 1 })
                .sum::<i64>()
                .unsigned_abs()
        })
        .fold(0u64, gcd);
    if order == 0 {
        return Err(GroupError::Infinite { free_rank: 1 });
    }
    if order > limits.max_order as u64 {
        return Err(GroupError::TooLarge {
            order: usize::try_from(order).unwrap_or(usize::MAX),
            limit: limits.max_order,
        });
    }
    // Numbered as coset enumeration numbers a cyclic group, breadth first:
    // 1, a, a⁻¹, a², a⁻², …
    let m = order as u32;
    let index = |k: u32| -> u32 {
        match k {
            0 => 0,
            k if k <= m - k => 2 * k - 1,
            k => 2 * (m - k),
        }
    };
    let mut action = vec![0u32; 2 * m as usize];
    for k in 0..m {
        let at = index(k) as usize;
        action[2 * at] = index((k + 1) % m);
        action[2 * at + 1] = index((k + m - 1) % m);
    }
    FiniteGroup::from_action(p.generators.clone(), action)
        .ok_or_else(|| GroupError::CrossCheck("the cyclic action is not a group action".into()))
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Enumerates each block alone and builds the product's action table: element
/// `x = c_1 + n_1·(c_2 + n_2·(…))` with `c_i` the element of block `i`; a
/// generator of block `i` acts on `c_i` only. The order limit is checked after
/// each block, before the next is enumerated.
pub fn enumerate_product(
    p: &Presentation,
    blocks: &[Vec<u32>],
    limits: &EnumerationLimits,
) -> Result<FiniteGroup, GroupError> {
    let mut factors = Vec::with_capacity(blocks.len());
    let mut order: usize = 1;
    for block in blocks {
        let factor = enumerate_block(&block_presentation(p, block), limits)?;
        order = order
            .checked_mul(factor.order())
            .filter(|&o| o <= limits.max_order)
            .ok_or(GroupError::TooLarge {
                order: order.saturating_mul(factor.order()),
                limit: limits.max_order,
            })?;
        factors.push(factor);
    }
    let n = p.generators.len();
    let width = 2 * n;
    let mut action = vec![0u32; order * width];
    let mut stride = 1usize;
    for (block, factor) in blocks.iter().zip(&factors) {
        let side = factor.order();
        for (j, &g) in block.iter().enumerate() {
            for inverse in [false, true] {
                let letter = GenLetter {
                    generator: j as u32,
                    inverse,
                };
                let column = 2 * g as usize + inverse as usize;
                for x in 0..order {
                    let c = (x / stride) % side;
                    let moved = factor.apply(super::Elem(c as u32), letter).index();
                    action[x * width + column] = (x - c * stride + moved * stride) as u32;
                }
            }
        }
        stride *= side;
    }
    FiniteGroup::from_action(p.generators.clone(), action)
        .ok_or_else(|| GroupError::CrossCheck("the product action is not a group action".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(generator: u32, inverse: bool) -> GenLetter {
        GenLetter { generator, inverse }
    }

    fn power(g: u32, n: usize) -> Vec<GenLetter> {
        vec![letter(g, false); n]
    }

    fn commutator(g: u32, h: u32) -> Vec<GenLetter> {
        vec![
            letter(g, true),
            letter(h, true),
            letter(g, false),
            letter(h, false),
        ]
    }

    #[test]
    fn a_product_of_cyclic_groups_splits_and_has_the_product_order() {
        // <a | a^3> x <b | b^4> x <c | c^2>
        let p = Presentation {
            generators: vec!["a".into(), "b".into(), "c".into()],
            relators: vec![
                power(0, 3),
                power(1, 4),
                power(2, 2),
                commutator(0, 1),
                commutator(0, 2),
                commutator(1, 2),
            ],
        };
        let blocks = direct_blocks(&p).unwrap();
        assert_eq!(blocks, vec![vec![0], vec![1], vec![2]]);
        let group = enumerate_product(&p, &blocks, &EnumerationLimits::default()).unwrap();
        assert_eq!(group.order(), 24);
        let whole = enumerate(&p, &EnumerationLimits::default()).unwrap();
        assert_eq!(whole.order(), 24);
        // Every relator holds at every element.
        for e in group.elements() {
            for r in &p.relators {
                assert_eq!(group.apply_word(e, r), e);
            }
        }
    }

    #[test]
    fn a_missing_commutator_keeps_generators_together() {
        // <a, b | a^2, b^2, (ab)^3> is S3, not a product; a third factor c
        // commutes with both.
        let mut ab3 = Vec::new();
        for _ in 0..3 {
            ab3.extend([letter(0, false), letter(1, false)]);
        }
        let p = Presentation {
            generators: vec!["a".into(), "b".into(), "c".into()],
            relators: vec![
                power(0, 2),
                power(1, 2),
                ab3,
                power(2, 5),
                commutator(0, 2),
                commutator(2, 1),
            ],
        };
        let blocks = direct_blocks(&p).unwrap();
        assert_eq!(blocks, vec![vec![0, 1], vec![2]]);
        let group = enumerate_product(&p, &blocks, &EnumerationLimits::default()).unwrap();
        assert_eq!(group.order(), 30);
        // Without the commutator of b and c nothing splits off.
        let mut q = p.clone();
        q.relators.pop();
        assert_eq!(direct_blocks(&q), None);
    }

    #[test]
    fn one_generator_is_the_cyclic_group_of_the_exponent_sums_gcd() {
        let p = Presentation {
            generators: vec!["a".into()],
            relators: vec![power(0, 12), power(0, 18)],
        };
        let group = enumerate_block(&p, &EnumerationLimits::default()).unwrap();
        assert_eq!(group.order(), 6);
        // The same table as coset enumeration's, numbering included.
        let enumerated = enumerate(&p, &EnumerationLimits::default()).unwrap();
        for e in group.elements() {
            for inverse in [false, true] {
                let l = letter(0, inverse);
                assert_eq!(group.apply(e, l), enumerated.apply(e, l));
            }
        }
        let free = Presentation {
            generators: vec!["a".into()],
            relators: vec![vec![letter(0, false), letter(0, true)]],
        };
        assert!(matches!(
            enumerate_block(&free, &EnumerationLimits::default()),
            Err(GroupError::Infinite { .. })
        ));
    }

    #[test]
    fn a_product_over_the_limit_is_refused_before_the_last_factor() {
        let p = Presentation {
            generators: vec!["a".into(), "b".into()],
            relators: vec![power(0, 1000), power(1, 1000), commutator(0, 1)],
        };
        let blocks = direct_blocks(&p).unwrap();
        let limits = EnumerationLimits {
            max_order: 999_999,
            ..EnumerationLimits::default()
        };
        assert!(matches!(
            enumerate_product(&p, &blocks, &limits),
            Err(GroupError::TooLarge { .. })
        ));
    }
}
