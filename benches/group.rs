//! Criterion benchmarks of coset enumeration on large groups.
//!
//! Ten samples each with a short measurement time: each run enumerates up to a
//! million elements, so the default hundred samples would take many minutes.

#[path = "shared/presentations.rs"]
mod presentations;

use criterion::{Criterion, criterion_group, criterion_main};
use presentations::{abelian, dihedral_product, symmetric};
use std::hint::black_box;
use std::time::Duration;
use txverify_core::group::{EnumerationLimits, compute, enumerate};

fn enumeration(c: &mut Criterion) {
    let mut group = c.benchmark_group("enumerate");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let limits = EnumerationLimits::default();
    let cases = [
        ("Z_100^3", abelian(100, 3)),
        ("Z_1000^2", abelian(1000, 2)),
        ("D_48^3", dihedral_product(24, 3)),
        ("S_9", symmetric(9)),
    ];
    for (name, p) in &cases {
        group.bench_function(*name, |b| {
            b.iter(|| {
                enumerate(black_box(p), &limits)
                    .expect("finite group")
                    .order()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("compute");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, p) in &cases {
        group.bench_function(*name, |b| {
            b.iter(|| {
                compute(black_box(p), &limits)
                    .expect("finite group")
                    .group
                    .order()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, enumeration);
criterion_main!(benches);
