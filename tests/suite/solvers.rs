//! The optional solver backends (cargo features `z3` and `cadical`): optimal
//! tables the kernel accepts, infeasibility, agreement with varisat, the time
//! limit and the stop flag, and the certificate rule (neither writes proofs;
//! certificates are re-derived with varisat). Every test runs once per backend
//! built in: `cargo test --release --features z3 --test suite solvers::`.
#![cfg(any(feature = "z3", feature = "cadical"))]

use crate::common;

use common::{Factor, build, default_links, pigeonhole};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify_core::group::FiniteGroup;
use txverify_core::kernel::{self, Instance, MessageSpec, Verdict};
use txverify_core::load::{LoadOptions, load};
use txverify_search::SolverError;
use txverify_search::cnf::Cnf;
use txverify_search::solver::{SatAnswer, SolveControl, solve_varisat};
use txverify_search::{
    self as search, EncodingOptions, Outcome, SearchOptions, SolverChoice, certificate, encode,
};

/// A backend's entry point, as `z3_backend::solve_z3` and `solver::solve_cadical`.
type Solve = fn(&Cnf, SolveControl<'_>) -> Result<(SatAnswer, u64), SolverError>;

fn options(solver: SolverChoice) -> SearchOptions {
    // z3 is plugged in by txverify-native, as the binary does at start-up.
    txverify_native::install();
    SearchOptions {
        solver,
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
        stop: Vec::new(),
        proof: None,
        lrat: None,
        on_progress: Box::new(|_| {}),
    }
}

/// The solver finds a table with `time` columns and the kernel accepts it at that time.
fn assert_found(solver: SolverChoice, name: &str, inst: &Instance, time: usize) {
    let Outcome::Found(table, _) = search::solve(inst, time, &options(solver)).unwrap() else {
        panic!("{name}: {solver:?} should find a table with {time} columns");
    };
    let checked = kernel::check(inst, &table, &[]);
    assert_ne!(checked.verdict(), Verdict::Invalid, "{name}");
    assert_eq!(checked.time(), time, "{name}");
}

fn finds_optimal_tables_the_kernel_accepts(solver: SolverChoice) {
    let ring8 = loaded("group: <y, Y | y^2 = Y^2 = (yY)^4 = 1>\nnetwork: ring 8\ntable:\n");
    assert_found(solver, "dihedral 8-ring", &ring8, 8);
    assert_found(
        solver,
        "3-cube",
        &instance(build(&[Factor::Elementary(3)])),
        4,
    );
    assert_found(
        solver,
        "3x4 torus",
        &instance(build(&[Factor::Cyclic(3), Factor::Cyclic(4)])),
        7,
    );
}

fn minimises_to_the_optimum(solver: SolverChoice) {
    for (name, inst, best) in [
        ("D6 ring", instance(build(&[Factor::Dihedral(6)])), 5),
        ("C6 ring", loaded("group: <a | a^6>\ntable:\n"), 6),
    ] {
        let min = search::minimise(&inst, &options(solver), None, &mut |_| {})
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

fn says_the_cyclic_six_ring_needs_more_than_five(solver: SolverChoice) {
    let inst = loaded("group: <a | a^6>\ntable:\n");
    let Outcome::Infeasible(why) = search::solve(&inst, 5, &options(solver)).unwrap() else {
        panic!("5 columns should not suffice on the cyclic 6-ring");
    };
    assert_eq!(why.time, 5);
    assert!(
        why.unrestricted && !why.covers_all_tables,
        "shortest paths only"
    );
    assert!(why.certificate.is_none(), "no certificate was asked for");
}

/// CaDiCaL writes its own LRAT proof; z3 writes none, so varisat derives a DRAT one.
fn certificates_come_from_the_proof_writer_and_verify(solver: SolverChoice) {
    let inst = loaded("group: <a | a^6>\ntable:\n");
    let dir = std::env::temp_dir().join(format!("txverify-{solver:?}-cert-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    let options = SearchOptions {
        certificate_dir: Some(dir.clone()),
        ..options(solver)
    };
    let Outcome::Infeasible(why) = search::solve(&inst, 5, &options).unwrap() else {
        panic!("5 columns should not suffice on the cyclic 6-ring");
    };
    assert_eq!(why.certificate.as_deref(), Some(dir.as_path()));
    let (file, author) = match solver {
        SolverChoice::Cadical => ("proof.lrat", "CaDiCaL 3.0.1"),
        _ => ("proof.drat", "varisat"),
    };
    let proof = std::fs::read(dir.join(file)).unwrap();
    assert!(!proof.is_empty());
    // CaDiCaL's proof was checked when it answered.
    assert_eq!(why.checked_proof.is_some(), solver == SolverChoice::Cadical);
    let verified = certificate::verify(&inst, &dir).unwrap();
    assert_eq!(verified.provenance.time, 5);
    assert!(verified.provenance.solver.starts_with(author));
    std::fs::remove_dir_all(&dir).ok();
}

fn agrees_with_varisat_on_small_instances(solve: Solve) {
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
            let (by_other, _) = solve(&cnf, control()).unwrap();
            match (&by_varisat, &by_other) {
                (SatAnswer::Sat(_), SatAnswer::Sat(model)) => {
                    sat += 1;
                    // The model satisfies every clause.
                    for clause in cnf.clauses() {
                        assert!(
                            clause
                                .iter()
                                .any(|&l| model[l.unsigned_abs() as usize - 1] == (l > 0)),
                            "{factors:?} T={time}: the model falsifies {clause:?}"
                        );
                    }
                }
                (SatAnswer::Unsat, SatAnswer::Unsat) => unsat += 1,
                _ => panic!("{factors:?} T={time}: varisat {by_varisat:?}, the other {by_other:?}"),
            }
        }
    }
    assert!(
        sat > 0 && unsat > 0,
        "{sat} satisfiable, {unsat} unsatisfiable"
    );
}

fn gives_up_when_the_stop_flag_is_set(solver: SolverChoice) {
    let inst = instance(build(&[Factor::Cyclic(4), Factor::Cyclic(4)]));
    let options = SearchOptions {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..options(solver)
    };
    assert!(matches!(
        search::solve(&inst, 8, &options).unwrap(),
        Outcome::Unknown
    ));
}

fn stops_at_the_time_limit_and_reports_progress(solve: Solve) {
    let cnf = pigeonhole(12);
    let mut reports = 0;
    let started = Instant::now();
    let limit = Duration::from_millis(1000);
    let control = SolveControl {
        deadline: Some(started + limit),
        stop: Vec::new(),
        proof: None,
        lrat: None,
        on_progress: Box::new(|_| reports += 1),
    };
    let (answer, _) = solve(&cnf, control).unwrap();
    // How soon after the deadline the solver stops is measured in benches/search.rs.
    assert_eq!(answer, SatAnswer::Unknown);
    assert!(reports >= 2, "{reports} progress reports");
}

fn stops_when_the_flag_is_set_during_the_search(solve: Solve) {
    let cnf = pigeonhole(12);
    let stop = Arc::new(AtomicBool::new(false));
    let setter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let control = SolveControl {
        deadline: None,
        stop: vec![stop],
        proof: None,
        lrat: None,
        on_progress: Box::new(|_| {}),
    };
    let (answer, _) = solve(&cnf, control).unwrap();
    setter.join().unwrap();
    // Pigeonhole 13/12 takes varisat far longer than the flag's half second:
    // only the flag can have ended the run. Its latency is in benches/search.rs.
    assert_eq!(answer, SatAnswer::Unknown);
}

/// The tests above, once for a backend.
macro_rules! backend {
    ($module:ident, $feature:literal, $choice:expr, $solve:path) => {
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;

            #[test]
            fn finds_optimal_tables_the_kernel_accepts() {
                super::finds_optimal_tables_the_kernel_accepts($choice);
            }

            #[test]
            fn minimises_to_the_optimum() {
                super::minimises_to_the_optimum($choice);
            }

            #[test]
            fn says_the_cyclic_six_ring_needs_more_than_five() {
                super::says_the_cyclic_six_ring_needs_more_than_five($choice);
            }

            #[test]
            fn certificates_come_from_the_proof_writer_and_verify() {
                super::certificates_come_from_the_proof_writer_and_verify($choice);
            }

            #[test]
            fn agrees_with_varisat_on_small_instances() {
                super::agrees_with_varisat_on_small_instances($solve);
            }

            #[test]
            fn gives_up_when_the_stop_flag_is_set() {
                super::gives_up_when_the_stop_flag_is_set($choice);
            }

            #[test]
            fn stops_at_the_time_limit_and_reports_progress() {
                super::stops_at_the_time_limit_and_reports_progress($solve);
            }

            #[test]
            fn stops_when_the_flag_is_set_during_the_search() {
                super::stops_when_the_flag_is_set_during_the_search($solve);
            }
        }
    };
}

backend!(
    z3,
    "z3",
    SolverChoice::Z3,
    txverify_native::z3_backend::solve_z3
);
backend!(
    cadical,
    "cadical",
    SolverChoice::Cadical,
    txverify_search::solver::solve_cadical
);
