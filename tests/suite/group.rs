//! Tests of group computation: known orders, limits, cross-checks, and
//! properties of random products and quotients.

use crate::common;

use common::groups::{cyclic, dihedral, direct_product};
use proptest::prelude::*;
use std::time::Duration;
use txverify_core::group::abelian::abelianise;
use txverify_core::group::check::{check_abelianisation, check_relators};
use txverify_core::group::{
    Elem, EnumerationLimits, FiniteGroup, GenLetter, GroupError, Presentation, compute, enumerate,
    recognise,
};

/// Parses a word such as `"aab'"` over single-letter generators named in `gens`
/// (`'` inverts the letter before it; `"1"` is the empty word).
fn word(gens: &str, s: &str) -> Vec<GenLetter> {
    let mut out: Vec<GenLetter> = Vec::new();
    for ch in s.chars() {
        match ch {
            '\'' => {
                let last = out.last_mut().expect("' after a letter");
                last.inverse = !last.inverse;
            }
            '1' | ' ' => {}
            _ => out.push(GenLetter {
                generator: gens
                    .find(ch)
                    .unwrap_or_else(|| panic!("unknown generator {ch}"))
                    as u32,
                inverse: false,
            }),
        }
    }
    out
}

/// `<gens | relators>` with single-letter generator names.
fn pres(gens: &str, relators: &[&str]) -> Presentation {
    Presentation {
        generators: gens.chars().map(|c| c.to_string()).collect(),
        relators: relators.iter().map(|r| word(gens, r)).collect(),
    }
}

fn rep(s: &str, n: usize) -> String {
    s.repeat(n)
}

fn order(p: &Presentation) -> usize {
    compute(p, &EnumerationLimits::default())
        .unwrap_or_else(|e| panic!("{p}: {e}"))
        .group
        .order()
}

fn small_limits(max_cosets: usize) -> EnumerationLimits {
    EnumerationLimits {
        max_cosets,
        ..EnumerationLimits::default()
    }
}

#[test]
fn cyclic_groups() {
    for n in 1..=12 {
        let p = pres("a", &[&rep("a", n)]);
        let c = compute(&p, &EnumerationLimits::default()).unwrap();
        assert_eq!(c.group.order(), n);
        assert_eq!(c.family.as_deref(), Some(format!("cyclic C_{n}").as_str()));
    }
    // Inverse powers and several powers: the order is the gcd.
    assert_eq!(order(&pres("a", &["a'a'a'a'a'"])), 5);
    assert_eq!(order(&pres("a", &["aaaaaa", "aaaa"])), 2);
}

#[test]
fn dihedral_seed_convention() {
    // <y, Y | y^2 = Y^2 = (yY)^k = 1> has order 2k.
    for (k, name) in [(3, "D_6"), (6, "D_12"), (1, "D_2"), (25, "D_50")] {
        let yy = rep("yY", k);
        let p = pres("yY", &["yy", "YY", &yy]);
        let c = compute(&p, &EnumerationLimits::default()).unwrap();
        assert_eq!(c.group.order(), 2 * k, "k = {k}");
        let want = format!("dihedral {name} (order {}, seed convention)", 2 * k);
        assert_eq!(c.family.as_deref(), Some(want.as_str()));
        assert!(
            c.checks
                .iter()
                .any(|x| x == &format!("closed form: {want}"))
        );
    }
}

#[test]
fn dihedral_rotation_reflection_form() {
    for n in 1..=9 {
        let p = pres("rs", &[&rep("r", n), "ss", "rsrs"]);
        assert_eq!(order(&p), 2 * n);
        assert_eq!(recognise(&p).map(|(_, o)| o), Some(2 * n));
    }
}

#[test]
fn elementary_abelian_2_groups() {
    let gens = "abcde";
    for n in 1..=5 {
        let g = &gens[..n];
        let mut rels: Vec<String> = g.chars().map(|c| format!("{c}{c}")).collect();
        for (i, x) in g.chars().enumerate() {
            for y in g.chars().skip(i + 1) {
                rels.push(format!("{x}{y}{x}'{y}'"));
            }
        }
        let refs: Vec<&str> = rels.iter().map(|s| s.as_str()).collect();
        let p = pres(g, &refs);
        let c = compute(&p, &EnumerationLimits::default()).unwrap();
        assert_eq!(c.group.order(), 1 << n);
        if n > 1 {
            assert_eq!(c.family.as_deref(), Some(format!("C2^{n}").as_str()));
        }
    }
}

#[test]
fn direct_products() {
    let p = pres("ab", &["aaaaa", "bbbbb", "aba'b'"]);
    let c = compute(&p, &EnumerationLimits::default()).unwrap();
    assert_eq!(c.group.order(), 25);
    assert_eq!(c.family.as_deref(), Some("C_5 x C_5"));
    // D_6 x C_4 with the commutators written in different sign conventions.
    let p = pres(
        "yYc",
        &["yy", "YY", "yYyYyY", "cccc", "ycy'c'", "Yc'Y'c", "c'y'cy"],
    );
    let c = compute(&p, &EnumerationLimits::default()).unwrap();
    assert_eq!(c.group.order(), 24);
    assert_eq!(c.family.as_deref(), Some("D_6 x C_4"));
    // A missing commutator makes it a free product: not recognised, infinite.
    let p = pres("ab", &["aa", "bbb"]);
    assert_eq!(recognise(&p), None);
    assert!(matches!(
        enumerate(&p, &small_limits(10_000)),
        Err(GroupError::TooManyCosets { .. })
    ));
}

#[test]
fn symmetric_group_s4_coxeter() {
    let p = pres("abc", &["aa", "bb", "cc", "ababab", "bcbcbc", "acac"]);
    let c = compute(&p, &EnumerationLimits::default()).unwrap();
    assert_eq!(c.group.order(), 24);
    assert_eq!(c.family, None);
    assert_eq!(c.checks, vec!["relators", "abelianisation"]);
}

#[test]
fn quaternion_group() {
    // Q8 = <i, j | i^4, i^2 = j^2, j^-1 i j = i^-1>.
    let p = pres("ij", &["iiii", "iij'j'", "j'iji"]);
    let c = compute(&p, &EnumerationLimits::default()).unwrap();
    assert_eq!(c.group.order(), 8);
    assert_eq!(abelianise(&p).unwrap().invariants, vec![2, 2]);
    // Exactly one element of order 2: i^2.
    let g = &c.group;
    let i2 = g.eval(&word("ij", "ii"));
    for e in g.elements() {
        let square = {
            let w = &g.shortest_words()[e.index()];
            let mut ww = w.clone();
            ww.extend_from_slice(w);
            g.eval(&ww)
        };
        if e != Elem::IDENTITY && square == Elem::IDENTITY {
            assert_eq!(e, i2);
        }
    }
}

#[test]
fn classical_groups_with_many_coincidences() {
    let cases: Vec<(Presentation, usize)> = vec![
        (pres("ab", &["aa", "bbb", &rep("ab", 5)]), 60), // A_5
        (
            pres("ab", &["aa", "bbb", &rep("ab", 7), &rep("aba'b'", 4)]),
            168,
        ), // PSL(2,7)
        (
            pres("abc", &["aa", "bb", "cc", "ababab", &rep("bc", 5), "acac"]),
            120,
        ), // H_3
        (pres("ab", &["aaaaaaaa", "bbaaaa", "b'aba"]), 16), // Q_16
        // Fibonacci group F(2,5) is cyclic of order 11.
        (pres("abcde", &["abc'", "bcd'", "cde'", "dea'", "eab'"]), 11),
        // Long powers (chain tracking) together with coincidences.
        (pres("ab", &[&rep("a", 12), "bb", "abab"]), 24),
        // C_16 ⋊ C_16 with b acting as a -> a^3.
        (
            pres("ab", &[&rep("a", 16), &rep("b", 16), "b'aba'a'a'"]),
            256,
        ),
        (pres("a", &[&rep("a", 12), &rep("a", 18)]), 6),
        (
            pres(
                "ab",
                &[
                    &rep("a", 10),
                    &rep("b", 10),
                    "aba'b'",
                    &(rep("a", 4) + &rep("b", 6)),
                ],
            ),
            20,
        ),
        // b^-1 a b = a^2, a^-1 b a = b^2 defines the trivial group.
        (pres("ab", &["b'aba'a'", "a'bab'b'"]), 1),
    ];
    for (p, n) in cases {
        assert_eq!(order(&p), n, "{p}");
    }
}

#[test]
fn weyl_group_f4() {
    let p = pres(
        "abcd",
        &[
            "aa", "bb", "cc", "dd", "ababab", "bcbcbcbc", "cdcdcd", "acac", "adad", "bdbd",
        ],
    );
    assert_eq!(order(&p), 1152);
}

#[test]
fn trivial_groups() {
    let none = Presentation {
        generators: vec![],
        relators: vec![],
    };
    assert_eq!(order(&none), 1);
    let with_empty = Presentation {
        generators: vec![],
        relators: vec![vec![]],
    };
    assert_eq!(order(&with_empty), 1);
    assert_eq!(order(&pres("a", &["a"])), 1);
    assert_eq!(order(&pres("ab", &["a", "b'"])), 1);
    assert_eq!(order(&pres("ab", &["ab", "a'b'b'"])), 1);
}

#[test]
fn degenerate_relators() {
    // A trivial generator next to a real one.
    assert_eq!(order(&pres("ab", &["a", "bbbbb"])), 5);
    // Duplicated relators, inverse duplicates and the empty relator.
    assert_eq!(
        order(&pres("a", &["aaaa", "aaaa", "a'a'a'a'", "1", "aa'"])),
        4
    );
    // Relators that are not cyclically reduced.
    assert_eq!(order(&pres("ab", &["b'aaab", "bbaa'", "ba'babb'"])), 6);
}

#[test]
fn numbering_is_breadth_first() {
    let g = compute(&pres("a", &["aaaaaa"]), &EnumerationLimits::default())
        .unwrap()
        .group;
    assert_eq!(g.eval(&[]), Elem(0));
    assert_eq!(g.eval(&word("a", "a")), Elem(1));
    assert_eq!(g.eval(&word("a", "a'")), Elem(2));
    assert_eq!(g.eval(&word("a", "aa")), Elem(3));
    assert_eq!(g.eval(&word("a", "aaa")), Elem(5));
    // The same presentation always gives the same table.
    let p = pres("abc", &["aa", "bb", "cc", "ababab", "bcbcbc", "acac"]);
    let x = enumerate(&p, &EnumerationLimits::default()).unwrap();
    let y = enumerate(&p, &EnumerationLimits::default()).unwrap();
    for e in x.elements() {
        for g in 0..3 {
            let l = GenLetter {
                generator: g,
                inverse: false,
            };
            assert_eq!(x.apply(e, l), y.apply(e, l));
        }
    }
}

#[test]
fn infinite_by_abelianisation() {
    let p = pres("ab", &["aa"]);
    assert_eq!(
        compute(&p, &EnumerationLimits::default()).unwrap_err(),
        GroupError::Infinite { free_rank: 1 }
    );
    // b is mentioned but its exponent sum is zero: the abelianisation has Z.
    let p = pres("ab", &["aaa", "bab'a'"]);
    assert_eq!(
        compute(&p, &EnumerationLimits::default()).unwrap_err(),
        GroupError::Infinite { free_rank: 1 }
    );
    // enumerate alone also refuses a generator absent from all relators.
    assert!(matches!(
        enumerate(&pres("ab", &["aa"]), &EnumerationLimits::default()),
        Err(GroupError::Infinite { .. })
    ));
}

#[test]
fn infinite_dihedral_hits_the_coset_limit() {
    // <a, b | a^2, b^2> is infinite although its abelianisation C2 x C2 is finite.
    let p = pres("ab", &["aa", "bb"]);
    assert_eq!(abelianise(&p).unwrap().free_rank, 0);
    assert_eq!(
        compute(&p, &small_limits(5000)).unwrap_err(),
        GroupError::TooManyCosets { limit: 5000 }
    );
}

#[test]
fn infinite_group_hits_the_time_budget() {
    let p = pres("ab", &["aa", "bbb"]);
    let limits = EnumerationLimits {
        time_budget: Some(Duration::from_millis(50)),
        max_cosets: 1_000_000_000,
        ..EnumerationLimits::default()
    };
    assert!(matches!(
        enumerate(&p, &limits),
        Err(GroupError::TimeBudget { .. }) | Err(GroupError::TooManyCosets { .. })
    ));
}

#[test]
fn unknown_generators_are_rejected_not_panicked_on() {
    let mut p = pres("a", &["aaa"]);
    p.relators.push(vec![GenLetter {
        generator: 1,
        inverse: false,
    }]);
    let want = GroupError::UnknownGenerator {
        relator: 1,
        generator: 1,
        generators: 1,
    };
    assert_eq!(
        compute(&p, &EnumerationLimits::default()).unwrap_err(),
        want
    );
    assert_eq!(
        enumerate(&p, &EnumerationLimits::default()).unwrap_err(),
        want
    );
    assert_eq!(abelianise(&p), None);
    assert_eq!(recognise(&p), None);
    let empty = Presentation {
        generators: vec![],
        relators: vec![word("a", "a")],
    };
    assert!(compute(&empty, &EnumerationLimits::default()).is_err());
}

#[test]
fn over_limit_errors() {
    let p = pres("a", &[&rep("a", 100)]);
    let limits = EnumerationLimits {
        max_order: 50,
        ..EnumerationLimits::default()
    };
    assert_eq!(
        enumerate(&p, &limits).unwrap_err(),
        GroupError::TooLarge {
            order: 100,
            limit: 50
        }
    );
    assert_eq!(
        enumerate(&p, &small_limits(60)).unwrap_err(),
        GroupError::TooManyCosets { limit: 60 }
    );
    // Exactly enough room succeeds.
    assert_eq!(enumerate(&p, &small_limits(100)).unwrap().order(), 100);
}

#[test]
fn compaction_reclaims_dead_cosets() {
    // A_5 needs more cosets than its order along the way; a limit a little above
    // the order forces compaction and must still succeed or fail cleanly.
    let p = pres("ab", &["aa", "bbb", &rep("ab", 5)]);
    for cap in [60, 64, 70, 80, 100, 150] {
        match enumerate(&p, &small_limits(cap)) {
            Ok(g) => assert_eq!(g.order(), 60),
            Err(GroupError::TooManyCosets { limit }) => assert_eq!(limit, cap),
            Err(e) => panic!("{e}"),
        }
    }
}

/// `C_3` as a right-action table on one generator.
fn c3() -> FiniteGroup {
    FiniteGroup::from_action(vec!["a".into()], vec![1, 2, 2, 0, 0, 1]).unwrap()
}

#[test]
fn cross_checks_can_fail() {
    // The C_3 table does not satisfy a^2, nor a^4, but does satisfy a^6.
    let g = c3();
    assert!(check_relators(&g, &pres("a", &["aa"])).is_err());
    assert!(check_relators(&g, &pres("a", &["aaaa"])).is_err());
    assert!(check_relators(&g, &pres("a", &["aaaaaa"])).is_ok());
    // A mixed relator is checked element by element.
    let two = FiniteGroup::from_action(vec!["a".into(), "b".into()], {
        // C_3 x trivial: b acts trivially.
        vec![1, 2, 0, 0, 2, 0, 1, 1, 0, 1, 2, 2]
    })
    .unwrap();
    assert!(check_relators(&two, &pres("ab", &["ab'a'b"])).is_ok());
    assert!(check_relators(&two, &pres("ab", &["aba"])).is_err());
    // Abelian group whose abelianisation has another order.
    let ab6 = abelianise(&pres("a", &["aaaaaa"])).unwrap();
    assert!(check_abelianisation(&g, &ab6).is_err());
    let ab3 = abelianise(&pres("a", &["aaa"])).unwrap();
    assert!(check_abelianisation(&g, &ab3).is_ok());
}

/// The closed-form test groups are what they claim: the dihedral group's
/// relators hold and `yY` has order exactly n/2; a product's order multiplies and
/// its factors commute.
#[test]
fn closed_form_test_groups_are_right() {
    let letter = |generator, inverse| GenLetter { generator, inverse };
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
        if n > 2 {
            assert_ne!(
                g.apply_word(Elem::IDENTITY, &rotation[..n - 2]),
                Elem::IDENTITY
            );
        }
    }
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

// ---------------------------------------------------------------------------
// Properties.

/// A small factor of a direct product.
#[derive(Clone, Debug)]
enum Factor {
    Cyclic(usize),
    SeedDihedral(usize),
    RsDihedral(usize),
    C2Power(usize),
}

impl Factor {
    fn order(&self) -> usize {
        match *self {
            Factor::Cyclic(n) => n,
            Factor::SeedDihedral(k) => 2 * k,
            Factor::RsDihedral(n) => 2 * n,
            Factor::C2Power(k) => 1 << k,
        }
    }

    /// Generators used and relators, with generators numbered from `base`.
    fn relators(&self, base: u32) -> (u32, Vec<Vec<GenLetter>>) {
        let l = |g: u32| GenLetter {
            generator: base + g,
            inverse: false,
        };
        let power = |g: u32, n: usize| vec![l(g); n];
        let comm = |g: u32, h: u32| vec![l(g), l(h), l(g).inverted(), l(h).inverted()];
        match *self {
            Factor::Cyclic(n) => (1, vec![power(0, n)]),
            Factor::SeedDihedral(k) => (
                2,
                vec![
                    power(0, 2),
                    power(1, 2),
                    (0..k).flat_map(|_| [l(0), l(1)]).collect(),
                ],
            ),
            Factor::RsDihedral(n) => (
                2,
                vec![power(0, n), power(1, 2), vec![l(0), l(1), l(0), l(1)]],
            ),
            Factor::C2Power(k) => {
                let mut rels: Vec<_> = (0..k as u32).map(|g| power(g, 2)).collect();
                for g in 0..k as u32 {
                    for h in g + 1..k as u32 {
                        rels.push(comm(g, h));
                    }
                }
                (k as u32, rels)
            }
        }
    }
}

fn factor() -> impl Strategy<Value = Factor> {
    prop_oneof![
        (1usize..12).prop_map(Factor::Cyclic),
        (1usize..8).prop_map(Factor::SeedDihedral),
        (1usize..8).prop_map(Factor::RsDihedral),
        (1usize..4).prop_map(Factor::C2Power),
    ]
}

/// The direct product presentation of `factors`, relators shuffled by `seed`.
fn product(factors: &[Factor], seed: u64) -> Presentation {
    let mut relators = Vec::new();
    let mut blocks = Vec::new();
    let mut next = 0;
    for f in factors {
        let (n, rels) = f.relators(next);
        blocks.push(next..next + n);
        relators.extend(rels);
        next += n;
    }
    for (i, a) in blocks.iter().enumerate() {
        for b in &blocks[i + 1..] {
            for g in a.clone() {
                for h in b.clone() {
                    let l = |generator, inverse| GenLetter { generator, inverse };
                    relators.push(vec![l(g, false), l(h, false), l(g, true), l(h, true)]);
                }
            }
        }
    }
    // Deterministic shuffle so relator order varies between cases.
    let mut state = seed | 1;
    for i in (1..relators.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        relators.swap(i, (state % (i as u64 + 1)) as usize);
    }
    Presentation {
        generators: (0..next).map(|g| format!("g{g}")).collect(),
        relators,
    }
}

/// The order of the quotient of `g` by the normal closure of `words`, by brute
/// force on the multiplication table (independent of coset enumeration).
fn quotient_order(g: &FiniteGroup, words: &[Vec<GenLetter>]) -> usize {
    let n = g.order();
    let names = g.shortest_words();
    let mul = |x: Elem, y: Elem| g.apply_word(x, &names[y.index()]);
    let inv: Vec<Elem> = g
        .elements()
        .map(|x| g.elements().find(|&y| mul(x, y) == Elem::IDENTITY).unwrap())
        .collect();
    let mut in_n = vec![false; n];
    in_n[0] = true;
    let mut members = vec![Elem::IDENTITY];
    let mut pending: Vec<Elem> = words.iter().map(|w| g.eval(w)).collect();
    while let Some(x) = pending.pop() {
        if in_n[x.index()] {
            continue;
        }
        // Add x and everything it generates with N, closed under conjugation.
        in_n[x.index()] = true;
        members.push(x);
        for c in g.elements() {
            pending.push(mul(mul(inv[c.index()], x), c));
        }
        for &m in &members {
            pending.push(mul(m, x));
            pending.push(mul(x, m));
        }
    }
    n / members.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn products_have_the_product_order(
        factors in prop::collection::vec(factor(), 1..=3),
        seed in any::<u64>(),
    ) {
        let p = product(&factors, seed);
        let expected: usize = factors.iter().map(Factor::order).product();
        let c = compute(&p, &EnumerationLimits::default()).unwrap();
        let g = &c.group;
        prop_assert_eq!(g.order(), expected);
        prop_assert_eq!(recognise(&p).map(|(_, o)| o), Some(expected));
        prop_assert!(c.checks.iter().any(|x| x.starts_with("closed form")));
        for e in g.elements() {
            for r in &p.relators {
                prop_assert_eq!(g.apply_word(e, r), e);
            }
            for generator in 0..p.generators.len() as u32 {
                for inverse in [false, true] {
                    let l = GenLetter { generator, inverse };
                    prop_assert_eq!(g.apply(g.apply(e, l), l.inverted()), e);
                }
            }
        }
    }

    #[test]
    fn quotients_match_brute_force(
        base in 0usize..3,
        extra in prop::collection::vec(prop::collection::vec((0u32..3, any::<bool>()), 1..7), 1..3),
    ) {
        let bases = [
            pres("abc", &["aa", "bb", "cc", "ababab", "bcbcbc", "acac"]), // S_4
            pres("abc", &[&rep("a", 8), "bb", "abab", "cc", "aca'c'", "bcb'c'"]), // D_16 x C_2
            pres("abc", &[&rep("a", 9), "bbb", "aba'b'", "c"]), // C_9 x C_3
        ];
        let base = &bases[base];
        let whole = enumerate(base, &EnumerationLimits::default()).unwrap();
        let words: Vec<Vec<GenLetter>> = extra
            .iter()
            .map(|w| w.iter().map(|&(generator, inverse)| GenLetter { generator, inverse }).collect())
            .collect();
        let mut p = base.clone();
        p.relators.extend(words.iter().cloned());
        let q = compute(&p, &EnumerationLimits::default()).unwrap();
        prop_assert_eq!(q.group.order(), quotient_order(&whole, &words));
    }
}

#[test]
fn a_group_whose_abelianisation_is_over_the_limit_is_refused_before_enumeration() {
    // C2^32 as 32 direct factors: its abelianisation has 2^32 elements, so the
    // group has at least as many; coset enumeration would only give up after
    // filling its working space.
    let factors: Vec<String> = (0..32)
        .map(|i| format!("<{{g{i}}} | {{g{i}}}^2>"))
        .collect();
    let text = format!("group: {}\ntable:\n", factors.join(" x "));
    match txverify_core::load::load(&text, &Default::default()) {
        Err(txverify_core::load::LoadError::Group {
            error: GroupError::AbelianisationTooLarge { at_least, limit },
            ..
        }) => {
            assert_eq!(at_least, 1u128 << 32);
            assert_eq!(limit, 2_000_000);
        }
        other => panic!("expected a refusal by the abelianisation, got {other:?}"),
    }
}
