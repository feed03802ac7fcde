//! The z3 backend (cargo feature `z3`): optimal tables the kernel accepts,
//! infeasibility, agreement with varisat, limits, and the certificate rule
//! (z3 writes no proofs; certificates are re-derived with varisat).
#![cfg(feature = "z3")]

mod common;

use common::{Factor, build, default_links};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify::group::FiniteGroup;
use txverify::kernel::{self, Instance, MessageSpec, Verdict};
use txverify::load::{LoadOptions, load};
use txverify::search::cnf::Cnf;
use txverify::search::solver::{SatAnswer, SolveControl, solve_varisat, solve_z3};
use txverify::search::{
    self, EncodingOptions, Outcome, SearchOptions, SolverChoice, certificate, encode,
};

fn z3_options() -> SearchOptions {
    SearchOptions {
        solver: SolverChoice::Z3,
        ..SearchOptions::default()
    }
}

fn instance(group: FiniteGroup) -> Instance {
    let links = default_links(&group);
    Instance::new(group, links, MessageSpec::Total, None)
}

fn loaded(text: &str) -> Instance {
    load(text, &LoadOptions::default()).unwrap().instance
}

fn control<'a>() -> SolveControl<'a> {
    SolveControl {
        deadline: None,
        stop: None,
        proof: None,
        on_progress: Box::new(|_| {}),
    }
}

/// z3 finds a table with `time` columns and the kernel accepts it at that time.
fn assert_found(name: &str, inst: &Instance, time: usize) {
    let Outcome::Found(table) = search::solve(inst, time, &z3_options()).unwrap() else {
        panic!("{name}: z3 should find a table with {time} columns");
    };
    let checked = kernel::check(inst, &table, &[]);
    assert_ne!(checked.verdict(), Verdict::Invalid, "{name}");
    assert_eq!(checked.time(), time, "{name}");
}

#[test]
fn z3_finds_optimal_tables_the_kernel_accepts() {
    let ring8 = loaded("group: <y, Y | y^2 = Y^2 = (yY)^4 = 1>\nnetwork: ring 8\ntable:\n");
    assert_found("dihedral 8-ring", &ring8, 8);
    assert_found("3-cube", &instance(build(&[Factor::Elementary(3)])), 4);
    assert_found(
        "3x4 torus",
        &instance(build(&[Factor::Cyclic(3), Factor::Cyclic(4)])),
        7,
    );
}

#[test]
fn z3_minimises_to_the_optimum() {
    for (name, inst, best) in [
        ("D6 ring", instance(build(&[Factor::Dihedral(6)])), 5),
        ("C6 ring", loaded("group: <a | a^6>\ntable:\n"), 6),
    ] {
        let min = search::minimise(&inst, &z3_options(), None, &mut |_| {})
            .unwrap()
            .expect("a table is found");
        assert_eq!(min.time, best, "{name}");
        assert_ne!(
            kernel::check(&inst, &min.table, &[]).verdict(),
            Verdict::Invalid
        );
        assert!(min.infeasible.iter().all(|i| i.time < best));
    }
}

#[test]
fn z3_says_the_cyclic_six_ring_needs_more_than_five() {
    let inst = loaded("group: <a | a^6>\ntable:\n");
    let Outcome::Infeasible(why) = search::solve(&inst, 5, &z3_options()).unwrap() else {
        panic!("5 columns should not suffice on the cyclic 6-ring");
    };
    assert_eq!(why.time, 5);
    assert!(why.covers_all_tables);
    assert!(why.certificate.is_none(), "no certificate was asked for");
}

#[test]
fn certificates_after_z3_come_from_varisat_and_verify() {
    let inst = loaded("group: <a | a^6>\ntable:\n");
    let dir = std::env::temp_dir().join(format!("txverify-z3-cert-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    let options = SearchOptions {
        certificate_dir: Some(dir.clone()),
        ..z3_options()
    };
    let Outcome::Infeasible(why) = search::solve(&inst, 5, &options).unwrap() else {
        panic!("5 columns should not suffice on the cyclic 6-ring");
    };
    assert_eq!(why.certificate.as_deref(), Some(dir.as_path()));
    let proof = std::fs::read(dir.join("proof.drat")).unwrap();
    assert!(!proof.is_empty());
    let verified = certificate::verify(&inst, &dir).unwrap();
    assert_eq!(verified.provenance.time, 5);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn z3_agrees_with_varisat_on_small_instances() {
    let groups = [
        vec![Factor::Cyclic(5)],
        vec![Factor::Cyclic(6)],
        vec![Factor::Cyclic(7)],
        vec![Factor::Cyclic(3), Factor::Cyclic(4)],
        vec![Factor::Dihedral(10)],
        vec![Factor::Elementary(2), Factor::Cyclic(3)],
        vec![Factor::Cyclic(2), Factor::Dihedral(6)],
        vec![Factor::Cyclic(4), Factor::Cyclic(4)],
    ];
    let (mut sat, mut unsat) = (0, 0);
    for factors in groups {
        let inst = instance(build(&factors));
        let bound = kernel::check(&inst, &Default::default(), &[])
            .bound()
            .unwrap()
            .value as usize;
        // Around the bound: unsat and sat answers both occur (C6 and C3 x C4
        // miss their bound by one).
        for time in bound - 1..bound + 2 {
            let cnf = encode(&inst, time, &EncodingOptions::default())
                .unwrap()
                .cnf;
            let (by_varisat, _) = solve_varisat(&cnf, control()).unwrap();
            let (by_z3, _) = solve_z3(&cnf, control()).unwrap();
            match (&by_varisat, &by_z3) {
                (SatAnswer::Sat(_), SatAnswer::Sat(model)) => {
                    sat += 1;
                    // z3's model satisfies every clause.
                    for clause in cnf.clauses() {
                        assert!(
                            clause
                                .iter()
                                .any(|&l| model[l.unsigned_abs() as usize - 1] == (l > 0)),
                            "{factors:?} T={time}: z3's model falsifies {clause:?}"
                        );
                    }
                }
                (SatAnswer::Unsat, SatAnswer::Unsat) => unsat += 1,
                _ => panic!("{factors:?} T={time}: varisat {by_varisat:?}, z3 {by_z3:?}"),
            }
        }
    }
    assert!(
        sat > 0 && unsat > 0,
        "{sat} satisfiable, {unsat} unsatisfiable"
    );
}

#[test]
fn a_set_stop_flag_makes_z3_give_up() {
    let inst = instance(build(&[Factor::Cyclic(4), Factor::Cyclic(4)]));
    let options = SearchOptions {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..z3_options()
    };
    assert!(matches!(
        search::solve(&inst, 8, &options).unwrap(),
        Outcome::Unknown
    ));
}

/// The pigeonhole formula: `holes + 1` pigeons in `holes` holes (unsatisfiable,
/// and exponentially hard for resolution).
fn pigeonhole(holes: usize) -> Cnf {
    let mut cnf = Cnf::new();
    let sits: Vec<Vec<i32>> = (0..=holes)
        .map(|_| (0..holes).map(|_| cnf.fresh()).collect())
        .collect();
    for pigeon in &sits {
        cnf.add(pigeon);
    }
    for hole in 0..holes {
        let column: Vec<i32> = sits.iter().map(|p| p[hole]).collect();
        cnf.at_most_one(&column);
    }
    cnf
}

#[test]
fn z3_stops_at_the_time_limit_and_reports_progress() {
    let cnf = pigeonhole(12);
    let mut reports = 0;
    let started = Instant::now();
    let limit = Duration::from_millis(1000);
    let control = SolveControl {
        deadline: Some(started + limit),
        stop: None,
        proof: None,
        on_progress: Box::new(|_| reports += 1),
    };
    let (answer, _) = solve_z3(&cnf, control).unwrap();
    let took = started.elapsed();
    assert_eq!(answer, SatAnswer::Unknown);
    assert!(took >= limit, "took {took:?}");
    assert!(took < limit + Duration::from_secs(1), "took {took:?}");
    assert!(reports >= 2, "{reports} progress reports");
}

#[test]
fn z3_stops_when_the_flag_is_set_during_the_search() {
    let cnf = pigeonhole(12);
    let stop = Arc::new(AtomicBool::new(false));
    let setter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let started = Instant::now();
    let control = SolveControl {
        deadline: None,
        stop: Some(stop),
        proof: None,
        on_progress: Box::new(|_| {}),
    };
    let (answer, _) = solve_z3(&cnf, control).unwrap();
    let took = started.elapsed();
    setter.join().unwrap();
    assert_eq!(answer, SatAnswer::Unknown);
    assert!(took < Duration::from_millis(1500), "took {took:?}");
}
