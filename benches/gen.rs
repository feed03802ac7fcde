//! End-to-end figures of the constructions: generate, load from text, check, and
//! (for 16³) simulate. Targets: `gen torus3d 16` with simulation under 5 s (the
//! simulation alone under 2 s); `gen torus3d 32` and `gen hypercube 16` generated and
//! checked under 30 s each.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use txverify::construct::{Family, GenOptions, generate};
use txverify::load::{LoadOptions, load};
use txverify::verify::{Outcome, VerifyOptions, verify};

fn end_to_end(family: Family, size: usize, simulate: bool) -> Outcome {
    let text = generate(family, size, GenOptions::default()).unwrap();
    let loaded = load(&text, &LoadOptions::default()).unwrap();
    let options = VerifyOptions {
        simulate,
        ..VerifyOptions::default()
    };
    verify(&loaded, &options).outcome()
}

fn constructions(c: &mut Criterion) {
    let mut group = c.benchmark_group("gen");
    group.sample_size(10);
    group.bench_function("torus3d_16_check_simulate", |b| {
        b.iter(|| {
            assert_eq!(
                black_box(end_to_end(Family::Torus3d, 16, true)),
                Outcome::Passed
            )
        })
    });
    group.bench_function("torus3d_32_check", |b| {
        b.iter(|| {
            assert_eq!(
                black_box(end_to_end(Family::Torus3d, 32, false)),
                Outcome::Passed
            )
        })
    });
    group.bench_function("hypercube_16_check", |b| {
        b.iter(|| {
            assert_eq!(
                black_box(end_to_end(Family::Hypercube, 16, false)),
                Outcome::Passed
            )
        })
    });
    group.finish();
}

criterion_group!(benches, constructions);
criterion_main!(benches);
