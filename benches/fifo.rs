//! The node-invariant FIFO algorithm on the star graph S6 (720 nodes), end to
//! end: the `.tbl` header is loaded (coset enumeration of the group), the
//! algorithm runs with every queue compared in full with the identity's after
//! every step (Lemma 2), and its sends are replayed independently.
//!
//! `cargo bench --bench fifo` measures it with criterion. Set
//! `TXVERIFY_BENCH_ONESHOT=1` to time one run of each phase instead.

#[path = "../tests/suite/fifo_replay/mod.rs"]
mod fifo_replay;

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use txverify_clients::fifo::{self, FifoOptions, Order, Routing};
use txverify_core::load::{LoadOptions, load};

fn star6(c: &mut Criterion) {
    let net = fifo_replay::star(6);
    let text = format!("{}\ntable:\n", net.header);
    let mut group = c.benchmark_group("fifo");
    group.sample_size(10);
    for order in [Order::Closest, Order::Furthest] {
        group.bench_function(format!("star 6 {order}"), |b| {
            b.iter(|| {
                let inst = load(black_box(&text), &LoadOptions::default())
                    .unwrap()
                    .instance;
                let routing = Routing::shortest(&inst).unwrap();
                let options = FifoOptions {
                    order,
                    full_compare_every: 1,
                };
                let run = fifo::run(&inst, &routing, &options).unwrap();
                let records: Vec<_> = run.sends.iter().map(|s| s.record()).collect();
                let wanted = vec![true; inst.group().order()];
                let replayed =
                    fifo_replay::replay(inst.group(), inst.links(), &wanted, &records).unwrap();
                assert_eq!(replayed.completion_time as u64, run.status);
                black_box(replayed)
            })
        });
    }
    group.finish();
}

/// One run of each phase, timed separately.
fn oneshot() {
    let net = fifo_replay::star(6);
    let text = format!("{}\ntable:\n", net.header);
    let t = Instant::now();
    let inst = load(&text, &LoadOptions::default()).unwrap().instance;
    println!("load (coset enumeration)   {:?}", t.elapsed());
    let t = Instant::now();
    let routing = Routing::shortest(&inst).unwrap();
    println!("routing function           {:?}", t.elapsed());
    for (order, every) in [(Order::Closest, 1), (Order::Closest, usize::MAX)] {
        let t = Instant::now();
        let options = FifoOptions {
            order,
            full_compare_every: every,
        };
        let run = fifo::run(&inst, &routing, &options).unwrap();
        println!(
            "run, full comparisons {:>4}  {:?} ({} steps, {} sends, {} entries compared)",
            run.full_comparisons,
            t.elapsed(),
            run.completion_time,
            run.sends.len(),
            run.entries_compared
        );
        let t = Instant::now();
        let records: Vec<_> = run.sends.iter().map(|s| s.record()).collect();
        let wanted = vec![true; inst.group().order()];
        let replayed = fifo_replay::replay(inst.group(), inst.links(), &wanted, &records).unwrap();
        println!(
            "replay                     {:?} (completion time {})",
            t.elapsed(),
            replayed.completion_time
        );
    }
}

criterion_group!(benches, star6);

fn main() {
    if std::env::var_os("TXVERIFY_BENCH_ONESHOT").is_some() {
        oneshot();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
