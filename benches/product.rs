//! Benchmarks of seed 000's product algorithms, from the network's name to the
//! replayed verdict: A2 on the 16 × 16 torus (256 nodes, 524,288 sends) and A1 on
//! the 10-cube (1,024 nodes, 5,242,880 sends). Target: each under 10 s.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use txverify_clients::product::{Algorithm, run};
use txverify_core::network::NetworkName;

fn compose_and_replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("compose");
    group.sample_size(10);
    for (algorithm, network) in [
        (Algorithm::A2, "torus 16 16"),
        (Algorithm::A1, "hypercube 10"),
    ] {
        let name: NetworkName = network.parse().unwrap();
        group.bench_function(format!("{algorithm} {network}"), |b| {
            b.iter(|| {
                let result = run(algorithm, black_box(&name)).unwrap();
                assert!(result.meets_theorem() && result.optimal());
            })
        });
    }
    group.finish();
}

criterion_group!(benches, compose_and_replay);
criterion_main!(benches);
