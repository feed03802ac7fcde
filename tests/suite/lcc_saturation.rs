//! `lcc simulate`'s saturation throughput is a sustained rate: the largest
//! offered load whose backlog stays bounded, by bisection, not the accepted
//! rate of an overloaded run. Checked on one lone stream, whose capacity and
//! overload growth are known in closed form, and on the transpose.

use crate::common::cli::txverify;
use txverify_clients::lcc::saturation::{self, RESOLUTION};
use txverify_clients::lcc::wormhole::{self, SimConfig};
use txverify_clients::lcc::{Direction, Lcc, Matrix, spec};

/// n = 1, y = x ⊕ 1 restricted to one stream: node 0 sends to node 1.
fn lone_stream() -> Lcc {
    Lcc {
        a: Matrix::from_rows(vec![0]),
        b: 1,
        direction: Direction::Forward,
    }
}

fn config(flits: u32, measure: u64) -> SimConfig {
    SimConfig {
        flits,
        warmup: 2_000,
        measure,
        drain: 20_000,
        seed: 3,
    }
}

#[test]
fn an_overloaded_lone_stream_grows_its_backlog_as_queueing_predicts() {
    // One message of F flits leaves every F + 1 cycles (one idle cycle on the
    // injection channel): capacity F/(F + 1). Offered 1 flit per cycle, the
    // queue grows by 1/F − 1/(F + 1) messages per cycle, so the two halves of a
    // window of M cycles differ on average by M/2 times that.
    let (f, m) = (4u32, 20_000u64);
    let p = wormhole::run(&lone_stream(), 1.0, &config(f, m));
    let ff = f64::from(f);
    let per_cycle = 1.0 / ff - 1.0 / (ff + 1.0);
    let expected = per_cycle * m as f64 / 2.0;
    let growth = p.backlog_second - p.backlog_first;
    assert!(
        (growth / expected - 1.0).abs() < 0.1,
        "{growth} vs {expected}: {p:?}"
    );
    assert!(p.saturated && wormhole::grew(p.backlog_first, p.backlog_second));
    // Its accepted rate is the capacity: what the old headline reported.
    assert!((p.accepted - ff / (ff + 1.0)).abs() < 0.01, "{p:?}");
}

#[test]
fn the_sustainable_rate_of_a_lone_stream_is_below_its_capacity() {
    let f = 4u32;
    let cap = f64::from(f) / f64::from(f + 1);
    let config = config(f, 20_000);
    let s = saturation::sustainable(&lone_stream(), &config);
    let at = s.at_rate.clone().unwrap();
    let above = s.above.clone().unwrap();
    // The bracket: the rate is sustained, a load within RESOLUTION above is not.
    assert!(!at.saturated && at.offered == s.rate, "{at:?}");
    assert!(above.saturated && above.offered > s.rate, "{above:?}");
    assert!(above.offered - s.rate <= RESOLUTION + 1e-12);
    // Below the capacity, and not far below it.
    assert!(s.rate < cap && s.rate > 0.7 * cap, "{} vs {cap}", s.rate);
    // The bisection ran about log2(1 / RESOLUTION) + 1 runs.
    assert!(s.runs <= 10, "{}", s.runs);
}

#[test]
fn a_contended_transpose_sustains_about_its_share_of_the_busiest_channel() {
    // transpose:6 has contention 4: four paths share a channel, so no stream
    // can be given more than a quarter of the channel's flits.
    let lcc = spec::builtin("transpose", 6).unwrap();
    let config = SimConfig {
        flits: 8,
        warmup: 500,
        measure: 4_000,
        drain: 4_000,
        seed: 1,
    };
    let s = saturation::sustainable(&lcc, &config);
    assert!(s.rate > 0.1 && s.rate <= 0.25, "{}", s.rate);
    let overloaded = wormhole::run(&lcc, 1.0, &config);
    assert!(overloaded.saturated);
}

#[test]
fn simulate_reports_the_sustainable_rate_and_labels_the_peak() {
    let args = [
        "lcc",
        "simulate",
        "transpose:4",
        "--flits",
        "4",
        "--loads",
        "0.1,1",
        "--warmup",
        "200",
        "--measure",
        "2000",
        "--drain",
        "2000",
    ];
    let mut json = args.to_vec();
    json.extend(["--format", "json"]);
    let run = txverify(&json);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let lcc = spec::builtin("transpose", 4).unwrap();
    let config = SimConfig {
        flits: 4,
        warmup: 200,
        measure: 2_000,
        drain: 2_000,
        seed: 1,
    };
    // The headline is a load that is sustained when run again, and the load
    // reported as not sustained is not.
    let rate = v["saturation_before"].as_f64().unwrap();
    assert!(!wormhole::run(&lcc, rate, &config).saturated);
    let above = v["sustained"]["before"]["not_sustained"].as_f64().unwrap();
    assert!(wormhole::run(&lcc, above, &config).saturated);
    assert!(above > rate && above - rate <= RESOLUTION + 1e-12);
    // The peak accepted rate is that of the overloaded load 1.
    let peak = v["peak_accepted_before"].as_f64().unwrap();
    assert_eq!(peak, wormhole::run(&lcc, 1.0, &config).accepted);
    let text = txverify(&args);
    assert!(text.stdout.contains("sustainable rate"), "{}", text.stdout);
    assert!(
        text.stdout
            .contains("peak accepted rate, at an overloaded load")
    );
}
