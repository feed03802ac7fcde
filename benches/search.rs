//! Solve times of the search on the standard networks.
//!
//! Run with `cargo bench --bench search [-- FILTER…]`. For every instance it
//! prints the kernel's lower bound, the time to find a table at the first
//! feasible `T` from the bound up (with the formula's size), and the time to
//! show `T − 1` infeasible when that `T − 1` is at least the bound's largest
//! distance. `SEARCH_BENCH_LIMIT` (seconds, default 120) caps each solve;
//! `SEARCH_BENCH_SYMMETRY=sigma` (and/or `reverse`) restricts to symmetric
//! tables; `SEARCH_BENCH_SOLVER=cadical` uses CaDiCaL (`--features cadical`),
//! `SEARCH_BENCH_SOLVER=z3` uses z3 (`--features z3`).
//!
//! Before the table, criterion measures how soon a search stops once it is
//! asked to (benchmarks `stop/…`; the same filters select them): varisat past
//! its deadline, varisat after a stop flag is set during the search, and a
//! search with the portfolio's helper whose stop flag is set from the start.

use criterion::Criterion;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
#[path = "../tests/suite/common/mod.rs"]
mod common;

use common::groups::{cyclic, dihedral, direct_product};
use common::pigeonhole;
use std::time::{Duration, Instant};
use txverify_core::group::{FiniteGroup, GenLetter};
use txverify_core::kernel::{self, Instance, MessageSpec};
use txverify_search::solver::{SatAnswer, SolveControl, solve_varisat};
use txverify_search::{self as search, EncodingOptions, Outcome, SearchOptions, SolverChoice};

fn default_links(group: &FiniteGroup) -> Vec<(GenLetter, String)> {
    txverify_core::load::default_links(group).0
}

/// A product of factors, generators named a, b, c, … (dihedral factors get two).
fn product(factors: Vec<FiniteGroup>) -> Instance {
    let mut next = b'a';
    let names: Vec<Vec<String>> = factors
        .iter()
        .map(|g| {
            g.generator_names()
                .iter()
                .map(|_| {
                    let n = (next as char).to_string();
                    next += 1;
                    n
                })
                .collect()
        })
        .collect();
    let group = direct_product(&factors, &names);
    let links = default_links(&group);
    Instance::new(group, links, MessageSpec::Total, None)
}

fn instances() -> Vec<(String, Instance)> {
    let mut all = Vec::new();
    for n in [6, 8, 10, 12, 20, 40] {
        all.push((format!("ring D{n}"), product(vec![dihedral(n)])));
    }
    for d in [3, 4, 5, 6, 7] {
        all.push((
            format!("{d}-cube"),
            product((0..d).map(|_| cyclic(2)).collect()),
        ));
    }
    all.push(("torus 3x3 C3^2".into(), product(vec![cyclic(3), cyclic(3)])));
    all.push(("torus 5x5 C5^2".into(), product(vec![cyclic(5), cyclic(5)])));
    all.push((
        "torus 6x6 D6^2".into(),
        product(vec![dihedral(6), dihedral(6)]),
    ));
    all.push(("torus 7x7 C7^2".into(), product(vec![cyclic(7), cyclic(7)])));
    all.push((
        "torus 8x8 D8^2".into(),
        product(vec![dihedral(8), dihedral(8)]),
    ));
    all.push(("torus 9x9 C9^2".into(), product(vec![cyclic(9), cyclic(9)])));
    for (n, m) in [(3, 4), (4, 5), (4, 6), (5, 6), (5, 7), (6, 8)] {
        all.push((
            format!("torus {n}x{m} C{n}xC{m}"),
            product(vec![cyclic(n), cyclic(m)]),
        ));
    }
    all.push((
        "torus 5x5x5 C5^3".into(),
        product(vec![cyclic(5), cyclic(5), cyclic(5)]),
    ));
    all
}

/// With `SEARCH_BENCH_CERTIFY` set: solve again writing a certificate, then verify it.
fn certify(instance: &Instance, time: usize, options: &SearchOptions) -> String {
    if std::env::var_os("SEARCH_BENCH_CERTIFY").is_none() {
        return String::new();
    }
    let dir = std::env::temp_dir().join(format!("txverify-bench-cert-{}", std::process::id()));
    let with_proof = SearchOptions {
        certificate_dir: Some(dir.clone()),
        ..options.clone()
    };
    let started = Instant::now();
    let Ok(Outcome::Infeasible(_)) = search::solve(instance, time, &with_proof) else {
        return "; no certificate".into();
    };
    let written = started.elapsed().as_secs_f64();
    let proof_bytes = std::fs::metadata(dir.join("proof.drat")).map_or(0, |m| m.len());
    let started = Instant::now();
    let verdict = match search::certificate::verify(instance, &dir) {
        Ok(v) => format!("verified, {} lemmas", v.report.lemmas),
        Err(e) => format!("REJECTED: {e}"),
    };
    let _ = std::fs::remove_dir_all(&dir);
    format!(
        "; with proof {written:.2} s, {proof_bytes} bytes, {verdict} in {:.2} s",
        started.elapsed().as_secs_f64()
    )
}

/// How soon solving stops once asked to: each sample's time is the time from
/// the request (deadline or flag) to the solver's return.
fn stop_latency(c: &mut Criterion) {
    let cnf = pigeonhole(12);
    let run_for = Duration::from_millis(200);
    let mut group = c.benchmark_group("stop");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("varisat_past_the_deadline", |b| {
        b.iter_custom(|iters| {
            let mut late = Duration::ZERO;
            for _ in 0..iters {
                let deadline = Instant::now() + run_for;
                let control = SolveControl {
                    deadline: Some(deadline),
                    stop: Vec::new(),
                    proof: None,
                    lrat: None,
                    on_progress: Box::new(|_| {}),
                };
                let (answer, _) = solve_varisat(&cnf, control).unwrap();
                assert_eq!(answer, SatAnswer::Unknown);
                late += Instant::now().saturating_duration_since(deadline);
            }
            late
        })
    });
    group.bench_function("varisat_after_the_stop_flag", |b| {
        b.iter_custom(|iters| {
            let mut late = Duration::ZERO;
            for _ in 0..iters {
                let stop = Arc::new(AtomicBool::new(false));
                let setter = {
                    let stop = stop.clone();
                    std::thread::spawn(move || {
                        std::thread::sleep(run_for);
                        stop.store(true, Ordering::Relaxed);
                        Instant::now()
                    })
                };
                let control = SolveControl {
                    deadline: None,
                    stop: vec![stop],
                    proof: None,
                    lrat: None,
                    on_progress: Box::new(|_| {}),
                };
                let (answer, _) = solve_varisat(&cnf, control).unwrap();
                let returned = Instant::now();
                assert_eq!(answer, SatAnswer::Unknown);
                late += returned.saturating_duration_since(setter.join().unwrap());
            }
            late
        })
    });
    let torus = product(vec![dihedral(8), dihedral(8)]);
    let bound = kernel::lower_bound(&torus).expect("defect-free").value as usize;
    let stopped = SearchOptions {
        stop: Some(Arc::new(AtomicBool::new(true))),
        jobs: 2,
        ..SearchOptions::default()
    };
    group.bench_function("solve_with_helper_stopped_from_the_start_D8xD8", |b| {
        b.iter(|| {
            let outcome = search::solve(&torus, bound, &stopped).unwrap();
            assert!(matches!(outcome, Outcome::Unknown));
        })
    });
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    stop_latency(&mut criterion);
    criterion.final_summary();
    solve_table();
}

/// Solve times of the search on the standard networks, printed as a table.
fn solve_table() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let limit = std::env::var("SEARCH_BENCH_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120u64);
    let symmetry = std::env::var("SEARCH_BENCH_SYMMETRY").unwrap_or_default();
    let solver = match std::env::var("SEARCH_BENCH_SOLVER").as_deref() {
        Ok("cadical") => SolverChoice::Cadical,
        Ok("z3") => SolverChoice::Z3,
        _ => SolverChoice::Varisat,
    };
    assert!(
        solver.available(),
        "build with --features cadical (or z3) for SEARCH_BENCH_SOLVER"
    );
    let base = SearchOptions {
        time_limit: Some(Duration::from_secs(limit)),
        encoding: EncodingOptions::default(),
        solver,
        ..SearchOptions::default()
    };
    println!(
        "{:<22} {:>5} {:>4} {:>9} {:>9} {:>10} {:>9}  {:>12}",
        "instance", "order", "LB", "T found", "vars", "clauses", "solve s", "T-1 infeas."
    );
    for (name, instance) in instances() {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let bound = kernel::lower_bound(&instance).expect("defect-free");
        let mut options = base.clone();
        if symmetry.contains("sigma") {
            options.encoding.automorphism = search::symmetry::find_rotation(&instance, 50_000);
        }
        options.encoding.time_reversal = symmetry.contains("reverse");
        let mut time = bound.value as usize;
        let mut proved_below = false;
        let mut line = format!(
            "{:<22} {:>5} {:>4}",
            name,
            instance.group().order(),
            bound.value
        );
        loop {
            let started = Instant::now();
            let encoding = search::encode(&instance, time, &options.encoding).unwrap();
            let stats = encoding.stats();
            match search::solve(&instance, time, &options).unwrap() {
                Outcome::Found(..) => {
                    line += &format!(
                        " {:>9} {:>9} {:>10} {:>9.2}",
                        time,
                        stats.variables,
                        stats.clauses,
                        started.elapsed().as_secs_f64()
                    );
                    break;
                }
                Outcome::Infeasible(_) => {
                    let solved = started.elapsed().as_secs_f64();
                    println!(
                        "{line}   T={time} infeasible in {solved:.2} s ({} vars, {} clauses){}",
                        stats.variables,
                        stats.clauses,
                        certify(&instance, time, &options)
                    );
                    time += 1;
                    proved_below = true;
                    if time > bound.value as usize + 4 {
                        line += "  (gave up: 5 infeasible T)";
                        time = 0;
                        break;
                    }
                }
                Outcome::Unknown => {
                    line += &format!(
                        " {:>9} {:>9} {:>10} {:>9}",
                        format!(">{time}?"),
                        stats.variables,
                        stats.clauses,
                        format!(">{limit}")
                    );
                    time = 0;
                    break;
                }
            }
        }
        if proved_below {
            line += "  (above)";
        } else if time > 0 && time as u64 == bound.value {
            // T − 1 is below the kernel's bound: infeasible for free, nothing to prove.
            line += "  (below bound)";
        } else if time > 0 {
            let started = Instant::now();
            let short = SearchOptions {
                time_limit: Some(Duration::from_secs(limit.min(30))),
                ..options.clone()
            };
            match search::solve(&instance, time - 1, &short).unwrap() {
                Outcome::Infeasible(_) => {
                    line += &format!("  {:>10.2} s", started.elapsed().as_secs_f64())
                }
                Outcome::Unknown => line += "  (limit)",
                Outcome::Found(..) => line += "  FOUND?!",
            }
        }
        println!("{line}");
    }
}
