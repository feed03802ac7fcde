//! The split restriction: which links tables may split along, and that the
//! formula holds exactly the tables of the split shape (read off here on its own).

use crate::common;

use common::{Factor, accepts, build, default_links, sample_table, solve_cnf, word_links};
use std::collections::{BTreeMap, BTreeSet};
use txverify_core::group::{Elem, FiniteGroup};
use txverify_core::kernel::{self, Instance, LinkId, MessageSpec, Table, Verdict};
use txverify_search::solver::SatAnswer;
use txverify_search::{self as search, EncodingOptions, split};

fn instance(group: FiniteGroup) -> Instance {
    let links = default_links(&group);
    Instance::new(group, links, MessageSpec::Total, None)
}

fn split_options(links: &[LinkId]) -> EncodingOptions {
    EncodingOptions {
        split: links.iter().map(|l| l.index() as u16).collect(),
        ..EncodingOptions::default()
    }
}

/// (link, offset) cells of a block.
type Cells = BTreeSet<(LinkId, usize)>;

/// Where each message outside the split factor (`in_factor` false) keeps its
/// letters outside the `split` links: element → (its one block of `width`
/// columns, its (link, offset) cells in it). `None` when some message's letters
/// outside the split links span more than one block.
fn placed_in_blocks(
    inst: &Instance,
    table: &Table,
    split: &[LinkId],
    width: usize,
    in_factor: impl Fn(Elem) -> bool,
) -> Option<BTreeMap<Elem, (usize, Cells)>> {
    let mut placed = BTreeMap::new();
    for word in &table.words {
        let links = word_links(inst, &word.letters);
        let element = links.iter().fold(Elem::IDENTITY, |e, &l| inst.step(e, l));
        if in_factor(element) {
            continue;
        }
        let cells: Vec<(LinkId, usize)> = links
            .iter()
            .enumerate()
            .filter(|(_, l)| !split.contains(l))
            .map(|(k, &l)| (l, word.column - 1 + k))
            .collect();
        let blocks: BTreeSet<usize> = cells.iter().map(|&(_, c)| c / width).collect();
        if blocks.len() != 1 {
            return None;
        }
        let pattern = cells.iter().map(|&(l, c)| (l, c % width)).collect();
        placed.insert(element, (*blocks.first()?, pattern));
    }
    Some(placed)
}

/// Whether `table` has the split shape along `split`, checked from its words:
/// every message outside ⟨E⟩ keeps its letters outside E in one block of
/// `time / 2^k` columns, at the (link, offset) cells of every other message of
/// its coset x·⟨E⟩, and the blocks of a coset follow the bits of E: the block
/// of m·e_j flips bit j of the block of m.
fn has_split_shape(inst: &Instance, table: &Table, split: &[LinkId], time: usize) -> bool {
    let width = time >> split.len();
    let in_e = |x: Elem| -> bool {
        (0..1usize << split.len()).any(|mask| {
            let y = (0..split.len())
                .filter(|j| mask >> j & 1 == 1)
                .fold(Elem::IDENTITY, |y, j| inst.step(y, split[j]));
            y == x
        })
    };
    let Some(placed) = placed_in_blocks(inst, table, split, width, in_e) else {
        return false;
    };
    placed.iter().all(|(&m, (block, pattern))| {
        split.iter().enumerate().all(|(j, &e)| {
            placed
                .get(&inst.step(m, e))
                .is_some_and(|(other, p)| *other == block ^ (1 << j) && p == pattern)
        })
    })
}

#[test]
fn tables_split_along_central_involutions_that_are_direct_factors() {
    let cube = instance(build(&[Factor::Elementary(4)]));
    assert_eq!(split::split_links(&cube).len(), 4);
    // C2 × C4: only the generator of C2 (the links of C4 are not involutions).
    let mixed = instance(build(&[Factor::Cyclic(2), Factor::Cyclic(4)]));
    let links = split::split_links(&mixed);
    assert_eq!(links.len(), 1);
    let twice = mixed.step(mixed.step(Elem::IDENTITY, links[0]), links[0]);
    assert_eq!(twice, Elem::IDENTITY);
    // The 4-ring as D_4 = C2 × C2 splits along both links; involutions that are not
    // central (the reflections of larger dihedral groups) do not count.
    assert_eq!(
        split::split_links(&instance(build(&[Factor::Dihedral(4)]))).len(),
        2
    );
    for factors in [
        vec![Factor::Cyclic(4), Factor::Cyclic(4)],
        vec![Factor::Dihedral(6)],
        vec![Factor::Dihedral(8), Factor::Dihedral(8)],
    ] {
        assert!(
            split::split_links(&instance(build(&factors))).is_empty(),
            "{factors:?}"
        );
    }
    // The blocks must divide the columns.
    let e = split::split_links(&cube);
    assert!(split::can_split(&cube, &e[..2], 8));
    assert!(!split::can_split(&cube, &e[..2], 6));
    assert!(!split::can_split(&cube, &[e[0], e[0]], 8));
    let wrong = search::encode(&cube, 6, &split_options(&e[..2]));
    assert!(matches!(wrong, Err(search::EncodeError::Split(links)) if links.len() == 2));
}

#[test]
fn split_tables_are_valid_and_have_the_shape() {
    for (d, k) in [(3, 1), (4, 1), (4, 2), (5, 2), (5, 3)] {
        let inst = instance(build(&[Factor::Elementary(d)]));
        let time = 1 << (d - 1);
        let links: Vec<LinkId> = split::split_links(&inst).into_iter().take(k).collect();
        let encoding = search::encode(&inst, time, &split_options(&links)).unwrap();
        let SatAnswer::Sat(model) = solve_cnf(&encoding.cnf) else {
            panic!("{d}-cube split along {k} links: no table");
        };
        let table = encoding.decode(&inst, &model).unwrap();
        let checked = kernel::check(&inst, &table, &[]);
        assert_eq!(checked.verdict(), Verdict::Optimal, "{d}-cube, k = {k}");
        assert!(
            has_split_shape(&inst, &table, &links, time),
            "{d}-cube, k = {k}"
        );
    }
    let cube7 = instance(build(&[Factor::Elementary(7)]));
    assert_eq!(split::suggested(&cube7, 64).unwrap().len(), 3);
    // Fewer blocks when 8 does not divide the columns; none for an odd number.
    assert_eq!(split::suggested(&cube7, 68).unwrap().len(), 2);
    assert_eq!(split::suggested(&cube7, 66).unwrap().len(), 1);
    assert!(split::suggested(&cube7, 65).is_none());
    assert!(split::suggested(&instance(build(&[Factor::Cyclic(6)])), 12).is_none());
}

#[test]
fn the_split_formula_refuses_tables_of_another_shape() {
    let inst = instance(build(&[Factor::Elementary(4)]));
    let time = 8;
    let links: Vec<LinkId> = split::split_links(&inst).into_iter().take(2).collect();
    let split_encoding = search::encode(&inst, time, &split_options(&links)).unwrap();
    let full = search::encode(&inst, time, &EncodingOptions::default()).unwrap();
    let mut refused = 0;
    for seed in 0..12 {
        let table = sample_table(&inst, &full, seed);
        let shaped = has_split_shape(&inst, &table, &links, time);
        assert_eq!(
            accepts(&inst, &split_encoding, &table),
            shaped,
            "seed {seed}"
        );
        refused += usize::from(!shaped);
    }
    assert!(
        refused > 0,
        "every sampled table happened to have the shape"
    );
}

/// Membership in the subgroup `links` generate, with a shortest word over them
/// for each member (breadth-first, links in the order given).
fn words_over(inst: &Instance, links: &[LinkId]) -> BTreeMap<Elem, Vec<LinkId>> {
    let mut words = BTreeMap::from([(Elem::IDENTITY, Vec::new())]);
    let mut frontier = vec![Elem::IDENTITY];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for u in frontier {
            for &l in links {
                let v = inst.step(u, l);
                if !words.contains_key(&v) {
                    let mut word = words[&u].clone();
                    word.push(l);
                    words.insert(v, word);
                    next.push(v);
                }
            }
        }
        frontier = next;
    }
    words
}

/// Whether `table` has the split shape along links that generate a factor F
/// that is not C2^k, read off its words: blocks of `time / |F|` columns are
/// numbered by F's elements sorted by (distance within F, element number), as
/// docs/search.md says; every message x outside F keeps its letters outside
/// the split links in one block, at the same (link, offset) cells as every
/// other message of x·F, and the block of x·f is the block of x times f.
fn has_factor_split_shape(inst: &Instance, table: &Table, split: &[LinkId], time: usize) -> bool {
    let factor = words_over(inst, split);
    let mut numbered: Vec<(usize, Elem)> = factor.iter().map(|(&x, w)| (w.len(), x)).collect();
    numbered.sort();
    let elements: Vec<Elem> = numbered.into_iter().map(|(_, x)| x).collect();
    let width = time / elements.len();
    let times = |x: Elem, f: Elem| factor[&f].iter().fold(x, |u, &l| inst.step(u, l));
    let Some(placed) = placed_in_blocks(inst, table, split, width, |x| factor.contains_key(&x))
    else {
        return false;
    };
    placed.iter().all(|(&x, (block, pattern))| {
        elements.iter().all(|&f| {
            placed.get(&times(x, f)).is_some_and(|(other, p)| {
                elements[*other] == times(elements[*block], f) && p == pattern
            })
        })
    })
}

fn link_named(inst: &Instance, name: &str) -> LinkId {
    let at = inst.link_names().iter().position(|n| n == name).unwrap();
    LinkId(at as u32)
}

#[test]
fn tables_split_along_any_direct_factor_generated_by_links() {
    // The 10 x 12 torus: no central involution, but the links of D_10 generate
    // a direct factor of 10 elements; one reflection alone does not.
    let torus = instance(build(&[Factor::Dihedral(10), Factor::Dihedral(12)]));
    assert!(split::split_links(&torus).is_empty());
    let short: Vec<LinkId> = ["a", "b"].iter().map(|n| link_named(&torus, n)).collect();
    let factor = split::direct_factor(&torus, &short).expect("D_10 is a direct factor");
    assert_eq!(factor.elements.len(), 10);
    assert_eq!(factor.elements[0], Elem::IDENTITY);
    // The product table is F's: a Latin square with the identity first, associative.
    for (i, row) in factor.product.iter().enumerate() {
        assert_eq!(row[0], i);
        assert_eq!(factor.product[0][i], i);
        assert_eq!(row.iter().collect::<BTreeSet<_>>().len(), 10);
        for (j, &ij) in row.iter().enumerate() {
            for k in 0..10 {
                assert_eq!(
                    factor.product[ij][k],
                    factor.product[i][factor.product[j][k]]
                );
            }
        }
    }
    assert!(split::direct_factor(&torus, &short[..1]).is_none());
    // By default the short ring's factor: 10 blocks of 18 columns, filled by the
    // 12-ring's links; none when the blocks cannot divide the columns.
    assert_eq!(split::suggested(&torus, 180), Some(short.clone()));
    assert!(split::suggested(&torus, 175).is_none());
    assert!(split::can_split(&torus, &short, 180));
    assert!(!split::can_split(&torus, &short, 175));
    // 4 x 6 x 8: the 8-ring fills 8 columns, so the factor is D_4 x D_6 (24 blocks).
    let three = instance(build(&[
        Factor::Dihedral(4),
        Factor::Dihedral(6),
        Factor::Dihedral(8),
    ]));
    let chosen = split::suggested(&three, 192).unwrap();
    assert_eq!(
        split::direct_factor(&three, &chosen)
            .unwrap()
            .elements
            .len(),
        24
    );
}

#[test]
fn tables_split_along_a_cyclic_factor_are_valid_and_have_the_shape() {
    // The 3 x 8 torus at its bound 24: three blocks of 8 columns, each an 8-ring table.
    let inst = instance(build(&[Factor::Cyclic(3), Factor::Dihedral(8)]));
    let time = 24;
    let links = split::suggested(&inst, time).expect("C_3 is a direct factor");
    assert_eq!(
        split::direct_factor(&inst, &links).unwrap().elements.len(),
        3
    );
    let encoding = search::encode(&inst, time, &split_options(&links)).unwrap();
    let SatAnswer::Sat(model) = solve_cnf(&encoding.cnf) else {
        panic!("3 x 8 torus split along C_3: no table");
    };
    let table = encoding.decode(&inst, &model).unwrap();
    assert_eq!(
        kernel::check(&inst, &table, &[]).verdict(),
        Verdict::Optimal
    );
    assert!(has_factor_split_shape(&inst, &table, &links, time));
    // The formula refuses tables of another shape and accepts those of the shape.
    let full = search::encode(&inst, time, &EncodingOptions::default()).unwrap();
    let mut refused = 0;
    for seed in 0..8 {
        let other = sample_table(&inst, &full, seed);
        let shaped = has_factor_split_shape(&inst, &other, &links, time);
        assert_eq!(accepts(&inst, &encoding, &other), shaped, "seed {seed}");
        refused += usize::from(!shaped);
    }
    assert!(
        refused > 0,
        "every sampled table happened to have the shape"
    );
}
