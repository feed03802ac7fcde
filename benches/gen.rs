//! End-to-end figures of the constructions: generate, load from text, check, and
//! (for 16³) simulate. Targets: `gen torus3d 16` with simulation under 5 s (the
//! simulation alone under 2 s); `gen torus3d 32` and `gen hypercube 16` generated and
//! checked under 30 s each. Twisted tori (issue 27's targets): `gen twisted 8 8 16`
//! built, checked and simulated in at most 60 s, `12 12 24` in at most 10 min.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use txverify_clients::check::{Outcome, VerifyOptions, verify};
use txverify_clients::construct::{Family, GenOptions, generate};
use txverify_core::load::{LoadOptions, load};

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

/// `gen twisted` end to end: build, load, check and simulate on the twisted torus.
fn twisted_end_to_end(sides: &[usize]) -> Outcome {
    let text = txverify_clients::construct::twisted::generate(sides).unwrap();
    let loaded = load(&text, &LoadOptions::default()).unwrap();
    let options = VerifyOptions {
        simulate: true,
        ..VerifyOptions::default()
    };
    verify(&loaded, &options).outcome()
}

fn twisted(c: &mut Criterion) {
    let mut group = c.benchmark_group("gen_twisted");
    group.sample_size(10);
    for sides in [&[8usize, 8, 16][..], &[8, 16, 16], &[12, 12, 24]] {
        let name: Vec<String> = sides.iter().map(usize::to_string).collect();
        group.bench_function(format!("twisted_{}_check_simulate", name.join("x")), |b| {
            b.iter(|| assert_eq!(black_box(twisted_end_to_end(sides)), Outcome::Passed))
        });
    }
    group.finish();
}

criterion_group!(benches, constructions, twisted);
criterion_main!(benches);
