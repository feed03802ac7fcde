//! The search portfolio: symmetry candidates and the counting test that drops
//! some, shuffled formulas, and searches with a helper thread.

use crate::common;

use common::groups::cyclic;
use common::{Factor, build, default_links, solve_cnf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use txverify_core::group::FiniteGroup;
use txverify_core::kernel::{self, Instance, LinkId, MessageSpec, Verdict};
use txverify_search::solver::SatAnswer;
use txverify_search::symmetry::{self, extend_to_automorphism};
use txverify_search::{
    self as search, EncodingOptions, FoundBy, Outcome, SearchOptions, certificate,
};

fn instance(group: FiniteGroup) -> Instance {
    let links = default_links(&group);
    Instance::new(group, links, MessageSpec::Total, None)
}

fn torus(factors: &[Factor]) -> Instance {
    instance(build(factors))
}

fn bound(inst: &Instance) -> usize {
    kernel::check(inst, &Default::default(), &[])
        .bound()
        .unwrap()
        .value as usize
}

/// Every link permutation of `inst` that extends to an automorphism and whose
/// cycles all have one length, with the letters of the messages it leaves free.
/// Computed here on its own, as an oracle independent of the library's
/// permutation code.
fn equal_cycle_automorphisms(inst: &Instance) -> Vec<(Vec<u16>, usize, usize)> {
    let n = inst.links().len();
    let distances = inst.distances();
    let mut found = Vec::new();
    let mut perm: Vec<u16> = (0..n as u16).collect();
    loop {
        let links: Vec<LinkId> = perm.iter().map(|&l| LinkId(l as u32)).collect();
        let mut cycles = Vec::new();
        let mut seen = vec![false; n];
        for start in 0..n {
            let (mut i, mut len) = (start, 0);
            while !seen[i] {
                seen[i] = true;
                i = perm[i] as usize;
                len += 1;
            }
            if len > 0 {
                cycles.push(len);
            }
        }
        let order = cycles[0];
        if order > 1
            && cycles.iter().all(|&c| c == order)
            && let Some(image) = extend_to_automorphism(inst, &links)
        {
            let free: usize = (1..image.len())
                .filter(|&e| {
                    let mut cur = image[e];
                    let mut len = 1;
                    while cur.index() != e {
                        cur = image[cur.index()];
                        len += 1;
                    }
                    len < order
                })
                .map(|e| distances[e] as usize)
                .sum();
            found.push((perm.clone(), order, free));
        }
        // Next permutation in lexicographic order.
        let Some(i) = (0..n.saturating_sub(1))
            .rev()
            .find(|&i| perm[i] < perm[i + 1])
        else {
            break;
        };
        let j = (i + 1..n).rev().find(|&j| perm[j] > perm[i]).unwrap();
        perm.swap(i, j);
        perm[i + 1..].reverse();
    }
    found
}

#[test]
fn the_counting_test_only_drops_restrictions_the_solver_refutes() {
    let instances = [
        ("3-cube", instance(build(&[Factor::Elementary(3)]))),
        ("4-cube", instance(build(&[Factor::Elementary(4)]))),
        ("C3^2", torus(&[Factor::Cyclic(3), Factor::Cyclic(3)])),
        ("D4^2", torus(&[Factor::Dihedral(4), Factor::Dihedral(4)])),
        ("C5^2", torus(&[Factor::Cyclic(5), Factor::Cyclic(5)])),
    ];
    for (name, inst) in instances {
        let time = bound(&inst);
        let full = search::encode(&inst, time, &EncodingOptions::default())
            .unwrap()
            .full;
        assert!(full, "{name}: the bound is met with every cell used");
        let kept = symmetry::candidates(&inst, full, 1_000_000);
        let mut dropped = 0;
        for (perm, order, free) in equal_cycle_automorphisms(&inst) {
            let shape_kept = kept
                .iter()
                .any(|c| c.order == order && c.free_letters == free);
            let candidate = kept.iter().find(|c| c.links == perm);
            if let Some(c) = candidate {
                assert_eq!((c.order, c.free_letters), (order, free), "{name} {perm:?}");
            }
            if shape_kept {
                continue;
            }
            dropped += 1;
            let restricted = EncodingOptions {
                automorphism: Some(perm.clone()),
                ..EncodingOptions::default()
            };
            let encoding = search::encode(&inst, time, &restricted).unwrap();
            assert_eq!(
                solve_cnf(&encoding.cnf),
                SatAnswer::Unsat,
                "{name}: {perm:?} was dropped by counting but has an invariant table"
            );
        }
        if name.ends_with("cube") {
            assert!(dropped > 0, "{name}: the rotations fix the antipode");
        }
    }
}

#[test]
fn candidates_are_automorphisms_with_full_orbits() {
    // The odd torus's quarter turn fixes only the identity: nothing is left free.
    let odd = torus(&[Factor::Cyclic(5), Factor::Cyclic(5)]);
    let kept = symmetry::candidates(&odd, true, 1_000_000);
    assert!(kept.iter().any(|c| c.order == 4 && c.free_letters == 0));
    // The even torus's quarter turn fixes the antipode, whose word of 8 letters
    // needs 8 columns that only 16 free letters would have to fill in fours.
    let even = torus(&[Factor::Dihedral(8), Factor::Dihedral(8)]);
    let kept = symmetry::candidates(&even, true, 1_000_000);
    assert!(kept.iter().all(|c| c.order == 2), "{kept:?}");
    assert!(!kept.is_empty());
    for c in &kept {
        let links: Vec<LinkId> = c.links.iter().map(|&l| LinkId(l as u32)).collect();
        assert!(extend_to_automorphism(&even, &links).is_some());
    }
    // Sorted by free letters.
    assert!(
        kept.windows(2)
            .all(|w| w[0].free_letters <= w[1].free_letters)
    );
}

#[test]
fn a_shuffled_formula_has_the_same_models() {
    let inst = torus(&[Factor::Cyclic(3), Factor::Cyclic(3)]);
    for time in [2, 3] {
        let encoding = search::encode(&inst, time, &EncodingOptions::default()).unwrap();
        for seed in 0..3 {
            let shuffled = encoding.cnf.shuffled(seed);
            if encoding.cnf.vars() > 1 {
                assert_ne!(shuffled.cnf, encoding.cnf);
            }
            match (solve_cnf(&encoding.cnf), solve_cnf(&shuffled.cnf)) {
                (SatAnswer::Sat(_), SatAnswer::Sat(model)) => {
                    let model = shuffled.original_model(&model);
                    let value = |l: i32| model[l.unsigned_abs() as usize - 1] == (l > 0);
                    for clause in encoding.cnf.clauses() {
                        assert!(clause.iter().any(|&l| value(l)), "clause {clause:?}");
                    }
                    let table = encoding.decode(&inst, &model).unwrap();
                    assert_eq!(
                        kernel::check(&inst, &table, &[]).verdict(),
                        Verdict::Optimal
                    );
                }
                (SatAnswer::Unsat, SatAnswer::Unsat) => assert_eq!(time, 2),
                (a, b) => panic!("T={time}: {a:?} against {b:?}"),
            }
        }
    }
}

fn with_helper() -> SearchOptions {
    SearchOptions {
        jobs: 2,
        ..SearchOptions::default()
    }
}

#[test]
fn tables_from_the_helper_pass_the_kernel() {
    for (name, inst) in [
        ("C5^2", torus(&[Factor::Cyclic(5), Factor::Cyclic(5)])),
        ("D6^2", torus(&[Factor::Dihedral(6), Factor::Dihedral(6)])),
        ("C7 x C3", torus(&[Factor::Cyclic(7), Factor::Cyclic(3)])),
        ("4-cube", instance(build(&[Factor::Elementary(4)]))),
    ] {
        let time = bound(&inst);
        let Outcome::Found(table, by) = search::solve(&inst, time, &with_helper()).unwrap() else {
            panic!("{name}: a table meets the bound");
        };
        let checked = kernel::check(&inst, &table, &[]);
        assert_eq!(checked.verdict(), Verdict::Optimal, "{name} ({by:?})");
        if let FoundBy::Helper(how) = &by {
            assert!(
                how.contains("restriction") || how.contains("shuffled"),
                "{how}"
            );
        }
    }
}

#[test]
fn infeasibility_with_a_helper_keeps_its_class_and_certificate() {
    let ring = instance(cyclic(6));
    let Outcome::Infeasible(why) = search::solve(&ring, 5, &with_helper()).unwrap() else {
        panic!("C6 needs 6 columns");
    };
    assert!(
        why.unrestricted && !why.covers_all_tables,
        "shortest paths only"
    );
    assert!(why.certificate.is_none());

    let dir = std::env::temp_dir().join(format!("txverify-portfolio-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = SearchOptions {
        certificate_dir: Some(dir.clone()),
        ..with_helper()
    };
    let Outcome::Infeasible(why) = search::solve(&ring, 5, &options).unwrap() else {
        panic!("C6 needs 6 columns");
    };
    assert_eq!(why.certificate.as_deref(), Some(dir.as_path()));
    let verified = certificate::verify(&ring, &dir).expect("the certificate checks");
    assert!(verified.provenance.options.unrestricted());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stop_flag_stops_both_solvers() {
    let inst = torus(&[Factor::Dihedral(8), Factor::Dihedral(8)]);
    let options = SearchOptions {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..with_helper()
    };
    // How long stopping takes is measured in benches/search.rs.
    assert!(matches!(
        search::solve(&inst, bound(&inst), &options).unwrap(),
        Outcome::Unknown
    ));
}

#[test]
fn the_plan_puts_the_split_first_when_some_links_set_the_bound_alone() {
    // 3 x 8: the 8-ring's links set the bound 24, the 3-ring's are not full.
    let inst = torus(&[Factor::Cyclic(3), Factor::Dihedral(8)]);
    let time = bound(&inst);
    assert_eq!(time, 24);
    assert!(!search::encode::fills_every_cell(&inst, time));
    let plan = search::portfolio::plan(&inst, time, &SearchOptions::default());
    assert!(
        plan[0].contains("3 blocks of 8 columns, split along a, a'"),
        "{plan:?}"
    );
    assert!(plan.len() > 1, "{plan:?}");
}

#[test]
fn on_a_full_table_a_kept_automorphism_with_free_messages_also_gets_a_tail() {
    // The 6 x 6 torus at 27: an involution that fixes the antipodes leaves 12 free
    // letters, which counting accepts without a tail (12 >= 2 x 6); it is also
    // tried with a tail, after the quarter turn, which counting rules out.
    let inst = torus(&[Factor::Dihedral(6), Factor::Dihedral(6)]);
    let time = bound(&inst);
    assert!(search::encode::fills_every_cell(&inst, time));
    let kept = symmetry::candidates(&inst, true, 1_000_000);
    let involution = kept
        .iter()
        .find(|c| c.order == 2 && c.free_letters > 0)
        .expect("counting keeps an involution with free messages");
    let tailed = symmetry::tailed_candidates(&inst, true, 4, 1_000_000);
    assert!(
        tailed.iter().any(|c| c.links == involution.links),
        "{tailed:?}"
    );
    assert_eq!(tailed[0].order, 4, "{tailed:?}");
    assert!(!kept.iter().any(|c| c.links == tailed[0].links));
    let plan = search::portfolio::plan(&inst, time, &SearchOptions::default());
    assert!(
        plan[0].contains("(order 4) outside a free tail"),
        "{plan:?}"
    );
}
