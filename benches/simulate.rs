//! Simulation throughput on 3-dimensional tori with greedy first-fit tables.
//!
//! `cargo bench --bench simulate` measures torus 8³ and 16³ with criterion.
//! Set `TXVERIFY_BENCH_ONESHOT=8,16,32` to time single runs instead (embedding,
//! table packing, simulation, hops/s, peak memory), which is how the 32³ case
//! (2.6·10^10 hops) is measured.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group};
use txverify_core::group::Elem;
use txverify_core::network::{Embedding, NetworkName, embed};
#[path = "../tests/suite/common/mod.rs"]
mod common;

use common::groups::linked::{GroupWithLinks, cyclic, product};
use common::schedules::greedy_placed_words;
use txverify_clients::simulate::{
    MessageSet, PlacedWord, SimulationInput, SimulationOptions, simulate,
};

struct Case {
    g: GroupWithLinks,
    embedding: Embedding,
    words: Vec<PlacedWord>,
}

fn case(side: usize) -> Case {
    let g = product(&[cyclic(side), cyclic(side), cyclic(side)]);
    let embedding = embed(
        &g.group,
        &g.links,
        &NetworkName::Torus(vec![side as u32; 3]),
    )
    .unwrap();
    let targets: Vec<Elem> = g.group.elements().skip(1).collect();
    let words = greedy_placed_words(&g.group, &g.links, &targets, g.links.len());
    Case {
        g,
        embedding,
        words,
    }
}

fn run(c: &Case) -> txverify_clients::simulate::SimulationReport {
    simulate(
        &SimulationInput {
            group: &c.g.group,
            links: &c.g.links,
            words: &c.words,
            messages: &MessageSet::Total,
            ports: c.g.links.len(),
            embedding: &c.embedding,
        },
        &SimulationOptions::default(),
    )
    .unwrap()
}

fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn oneshot(sides: &str) {
    for side in sides.split(',').map(|s| s.trim().parse::<usize>().unwrap()) {
        let g = product(&[cyclic(side), cyclic(side), cyclic(side)]);
        let t = Instant::now();
        let embedding = embed(
            &g.group,
            &g.links,
            &NetworkName::Torus(vec![side as u32; 3]),
        )
        .unwrap();
        let t_embed = t.elapsed();
        let targets: Vec<Elem> = g.group.elements().skip(1).collect();
        let t = Instant::now();
        let words = greedy_placed_words(&g.group, &g.links, &targets, g.links.len());
        let t_greedy = t.elapsed();
        let c = Case {
            g,
            embedding,
            words,
        };
        let t = Instant::now();
        let report = run(&c);
        let t_sim = t.elapsed();
        assert!(report.valid);
        println!(
            "torus {side}^3: embed {:.3} s, greedy table {:.3} s ({} steps), simulate {:.3} s, {:.3e} hops, {:.3e} hops/s, utilisation {:.3}, peak RSS {:.0} MiB",
            t_embed.as_secs_f64(),
            t_greedy.as_secs_f64(),
            report.completion_time,
            t_sim.as_secs_f64(),
            report.hops as f64,
            report.hops as f64 / t_sim.as_secs_f64(),
            report.utilisation,
            peak_rss_mib().unwrap_or(f64::NAN),
        );
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate_torus3_greedy");
    group.sample_size(10);
    for side in [8, 16] {
        let case = case(side);
        let hops = run(&case).hops;
        group.throughput(Throughput::Elements(hops));
        group.bench_function(format!("{side}^3"), |b| b.iter(|| black_box(run(&case))));
    }
    group.finish();
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(sides) = std::env::var("TXVERIFY_BENCH_ONESHOT") {
        oneshot(&sides);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
