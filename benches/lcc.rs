//! Section 5's dynamic programme for three communications on the 16-cube
//! (transpose, bit-reverse, perfect shuffle): 16 · 2^15 (set, last bit) pairs,
//! each costing three ranks. The target is under 10 s.
//!
//! `cargo bench --bench lcc` measures it with criterion. Set
//! `TXVERIFY_BENCH_ONESHOT=1` to time one run of each objective instead.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use txverify_clients::lcc::Lcc;
use txverify_clients::lcc::map::{self, Objective};
use txverify_clients::lcc::spec::builtin;

fn three(n: usize) -> Vec<Lcc> {
    ["transpose", "bit-reverse", "perfect-shuffle"]
        .iter()
        .map(|name| builtin(name, n).unwrap())
        .collect()
}

fn programme(c: &mut Criterion) {
    let lccs = three(16);
    let mut group = c.benchmark_group("lcc map");
    group.sample_size(10);
    for objective in [Objective::Max, Objective::Sum] {
        group.bench_function(
            format!("3 communications, n = 16, {}", objective.name()),
            |b| b.iter(|| map::optimise(black_box(&lccs), &[1, 1, 1], objective).unwrap()),
        );
    }
    group.finish();
}

/// One run of each objective, timed.
fn oneshot() {
    let lccs = three(16);
    for objective in [Objective::Max, Objective::Sum, Objective::Simultaneous] {
        let t = Instant::now();
        let (order, value) = map::optimise(&lccs, &[1, 1, 1], objective).unwrap();
        println!(
            "n = 16, 3 communications, {:<12} {:?}: value {value}, order {order:?}",
            objective.name(),
            t.elapsed()
        );
    }
}

criterion_group!(benches, programme);

fn main() {
    if std::env::var_os("TXVERIFY_BENCH_ONESHOT").is_some() {
        oneshot();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
