//! Benchmarks of checking: a large valid table (greedy packing of shortest words on a
//! 60 × 60 torus, about 10^5 letters) checked by the kernel without simulation, and the
//! published 5 × 5 torus table from text to verdict.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "../tests/suite/common/mod.rs"]
mod common;

use common::groups::{cyclic, direct_product};
use txverify_core::kernel::{Instance, MessageSpec, check};

fn large_table(c: &mut Criterion) {
    let group = direct_product(
        &[cyclic(60), cyclic(60)],
        &[vec!["a".into()], vec!["b".into()]],
    );
    let links = common::default_links(&group);
    let letters: Vec<_> = links.iter().map(|l| l.0).collect();
    let table = common::greedy_table(&group, &letters, 0);
    let letter_count: usize = table.words.iter().map(|w| w.letters.len()).sum();
    let instance = Instance::new(group, links, MessageSpec::Total, None);
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    group.bench_function(format!("torus60x60_greedy_{letter_count}_letters"), |b| {
        b.iter(|| black_box(check(&instance, &table, &[])))
    });
    group.finish();
}

/// Parse, enumerate, check and simulate the published 5 × 5 torus table, from text.
fn mesh5_end_to_end(c: &mut Criterion) {
    use txverify_clients::check::{VerifyOptions, verify};
    use txverify_core::load::{LoadOptions, load};
    let source = include_str!("../tables/mesh5.tbl");
    let mut group = c.benchmark_group("check");
    group.bench_function("mesh5_parse_check_simulate", |b| {
        b.iter(|| {
            let loaded = load(black_box(source), &LoadOptions::default()).unwrap();
            black_box(verify(&loaded, &VerifyOptions::default()).outcome())
        })
    });
    group.finish();
}

criterion_group!(benches, large_table, mesh5_end_to_end);
criterion_main!(benches);
