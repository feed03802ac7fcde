//! Benchmark of the MSCCL program checker: a 64-GPU ring allreduce of about 10^5
//! steps, generated here as text, from the XML to the verdict (parse, lower, run
//! symbolically in place), alone and measured on `nvlink 64` (routes, link loads
//! and bounds too). scripts/bench-msccl.sh times the release binary on the same
//! programs of three sizes and reports their peak memory.

use criterion::{Criterion, criterion_group, criterion_main};
use std::fmt::Write as _;
use std::hint::black_box;
use txverify_core::network::NetworkName;

/// A ring allreduce on `n` GPUs, in place, with one thread block per channel:
/// channel r reduces chunks r·n … r·n + n − 1 around the ring g → g + 1 (a
/// send, n − 2 receive-reduce-sends, a receive-reduce-copy-send, n − 2
/// receive-copy-sends and a receive: 2n − 1 steps per thread block).
fn ring_allreduce(n: i64, channels: i64) -> String {
    let mut out = format!(
        "<algo name=\"ring\" proto=\"Simple\" nchannels=\"{channels}\" nchunksperloop=\"{}\" ngpus=\"{n}\" coll=\"allreduce\" inplace=\"1\" outofplace=\"0\" minBytes=\"0\" maxBytes=\"0\">\n",
        n * channels
    );
    for g in 0..n {
        let _ = writeln!(
            out,
            "  <gpu id=\"{g}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"0\">",
            n * channels,
            n * channels
        );
        for r in 0..channels {
            let c = |k: i64| r * n + (g - k).rem_euclid(n);
            let mut steps = vec![("s", c(0))];
            steps.extend((1..n - 1).map(|j| ("rrs", c(j))));
            steps.push(("rrcs", c(n - 1)));
            steps.extend((1..n - 1).map(|j| ("rcs", c(j - 1))));
            steps.push(("r", c(n - 2)));
            let _ = writeln!(
                out,
                "    <tb id=\"{r}\" send=\"{}\" recv=\"{}\" chan=\"{r}\">",
                (g + 1) % n,
                (g + n - 1) % n
            );
            for (s, (t, off)) in steps.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "      <step s=\"{s}\" type=\"{t}\" srcbuf=\"i\" srcoff=\"{off}\" dstbuf=\"i\" dstoff=\"{off}\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>"
                );
            }
            out.push_str("    </tb>\n");
        }
        out.push_str("  </gpu>\n");
    }
    out + "</algo>\n"
}

fn allreduce_64_gpus(c: &mut Criterion) {
    // 64 GPUs × 13 channels × 127 steps = 105,664 steps.
    let source = ring_allreduce(64, 13);
    let steps = source.matches("<step ").count();
    let checked = txverify_clients::msccl::check(&source).unwrap();
    assert!(checked.valid(), "{:?}", checked.reason());
    let nvlink = NetworkName::Complete(64).build().unwrap();
    let mut group = c.benchmark_group("msccl");
    group.sample_size(10);
    group.bench_function(format!("ring_allreduce_64gpus_{steps}_steps"), |b| {
        b.iter(|| black_box(txverify_clients::msccl::check(black_box(&source)).unwrap()))
    });
    group.bench_function(
        format!("ring_allreduce_64gpus_{steps}_steps_on_nvlink64"),
        |b| {
            b.iter(|| {
                black_box(
                    txverify_clients::msccl::check_on(black_box(&source), Some(&nvlink)).unwrap(),
                )
            })
        },
    );
    group.finish();
}

criterion_group!(benches, allreduce_64_gpus);
criterion_main!(benches);
