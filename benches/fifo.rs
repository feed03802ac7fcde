//! The node-invariant FIFO algorithm on the star graph S6 (720 nodes), end to
//! end: the `.tbl` header is loaded (coset enumeration of the group), the
//! algorithm runs with every queue compared in full with the identity's after
//! every step (Lemma 2), and its sends are replayed independently.
//!
//! `cargo bench --bench fifo`.

#[path = "../tests/fifo_replay/mod.rs"]
mod fifo_replay;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use txverify::fifo::{self, FifoOptions, Order, Routing};
use txverify::load::{LoadOptions, load};

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

criterion_group!(benches, star6);
criterion_main!(benches);
