//! `txverify hypercube mnb 12` and `exchange 12` (16.8 M and 100.7 M sends):
//! the construction, the replay, and the figures the report adds beside it.
//!
//! `cargo bench --bench hypercube` measures build + replay of each with
//! criterion (10 samples). Set `TXVERIFY_BENCH_ONESHOT=1` to time one run of
//! each phase instead (the figures docs/hypercube.md quotes), on the 12-cube or
//! on the dimension `TXVERIFY_BENCH_DIMENSION` says. The command the
//! target speaks of is `txverify hypercube exchange 12` in a release build,
//! which runs these phases, the last three beside the replay on a second thread.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use txverify_clients::hypercube::{
    Problem, bounds::lower_bounds, buffer::peak_buffer, build, exchange, table,
};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{ReplayOptions, replay};
use txverify_core::verdict::judge;

fn build_and_replay(problem: Problem, d: u32) -> u32 {
    let graph = NetworkName::Hypercube(d).build().unwrap();
    let built = build(problem, d, None).unwrap();
    let report = replay(&built.schedule, &graph, &ReplayOptions::default()).unwrap();
    assert!(judge(&report, None, None).valid());
    report.time()
}

fn twelve(c: &mut Criterion) {
    let mut group = c.benchmark_group("hypercube 12");
    group.sample_size(10);
    for problem in [Problem::Mnb, Problem::Exchange] {
        group.bench_function(format!("{problem} build + replay"), |b| {
            b.iter(|| black_box(build_and_replay(problem, 12)))
        });
    }
    group.finish();
}

/// One run of each phase, timed separately.
fn oneshot() {
    let d: u32 = std::env::var("TXVERIFY_BENCH_DIMENSION")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    for problem in [Problem::Mnb, Problem::Exchange] {
        let t = Instant::now();
        let graph = NetworkName::Hypercube(d).build().unwrap();
        println!("{problem} {d}: network                {:?}", t.elapsed());
        let t = Instant::now();
        let built = build(problem, d, None).unwrap();
        println!("{problem} {d}: build                  {:?}", t.elapsed());
        let t = Instant::now();
        let report = replay(&built.schedule, &graph, &ReplayOptions::default()).unwrap();
        println!("{problem} {d}: replay                 {:?}", t.elapsed());
        assert!(judge(&report, None, None).valid());
        let t = Instant::now();
        let bounds = lower_bounds(problem, &graph, 0);
        println!("{problem} {d}: bounds                 {:?}", t.elapsed());
        assert_eq!(u64::from(report.time()), bounds.time);
        let t = Instant::now();
        let peak = peak_buffer(&built.schedule, graph.nodes());
        println!("{problem} {d}: peak buffer {peak:?}    {:?}", t.elapsed());
        if problem == Problem::Exchange {
            let t = Instant::now();
            let table = table::buffer_free(d).unwrap();
            println!("{problem} {d}: buffer-free table      {:?}", t.elapsed());
            assert!(table.valid);
            streamed(d, &graph);
        }
    }
}

/// The exchange as `txverify hypercube exchange D` runs it without `-o`: each
/// step's sends generated, replayed and dropped.
fn streamed(d: u32, graph: &txverify_core::network::Graph) {
    use txverify_core::schedule::{Collective, Ports, StreamReplay};
    let t = Instant::now();
    let hops = exchange::hops_by_step(d).unwrap();
    let options = ReplayOptions::default();
    let mut stream =
        StreamReplay::start(graph, Ports::All, Collective::TotalExchange, &options).unwrap();
    let mut batch = Vec::new();
    for step in &hops {
        batch.clear();
        exchange::step_sends(d, step, &mut batch);
        stream.feed(&batch).unwrap();
    }
    assert!(judge(&stream.finish().unwrap(), None, None).valid());
    println!("exchange {d}: streamed build + replay  {:?}", t.elapsed());
}

criterion_group!(benches, twelve);

fn main() {
    if std::env::var_os("TXVERIFY_BENCH_ONESHOT").is_some() {
        oneshot();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
