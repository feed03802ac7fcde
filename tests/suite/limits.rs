//! Each documented size limit (docs/limits.md) meets an input just over it and
//! refuses it before the work, with a typed error or exit status 2. No timing
//! is asserted; the inputs are chosen so that a refusal that came late would
//! need gigabytes.

use crate::common;

use common::cli::{file, txverify};
use txverify::network::{self, NetworkError, NetworkName};
use txverify::product::{self, Algorithm, ProductError};
use txverify::schedule::replay::{MAX_PACKET_SLOTS, ReplayError};
use txverify::schedule::{Collective, Ports, ReplayOptions, Schedule, replay};

#[test]
fn a_schedule_network_over_the_node_limit_is_refused_by_its_name() {
    let side = (network::MAX_NODES as f64).sqrt() as u32 + 1;
    let name = format!("torus {side} {side}");
    assert_eq!(name.parse::<NetworkName>(), Err(NetworkError::TooLarge));
    let complete = format!(
        "complete {}",
        (network::MAX_DIRECTED_LINKS as f64).sqrt() as u32 + 2
    );
    assert_eq!(complete.parse::<NetworkName>(), Err(NetworkError::TooLarge));
}

#[test]
fn a_total_exchange_over_the_packet_limit_is_refused_before_the_replay() {
    // N² packet slots: one node more than the limit allows.
    let n = (MAX_PACKET_SLOTS as f64).sqrt() as u32 + 1;
    let graph = NetworkName::Ring(n).build().unwrap();
    let schedule = Schedule {
        network: Some(NetworkName::Ring(n)),
        ports: Some(Ports::All),
        collective: Collective::TotalExchange,
        sends: Vec::new(),
    };
    assert!(matches!(
        replay(&schedule, &graph, &ReplayOptions::default()),
        Err(ReplayError::TooLarge { .. })
    ));
}

#[test]
fn a_composed_schedule_over_the_send_limit_is_refused_before_it_is_built() {
    // A1 on the 15-cube makes 15 · 2^29 sends, over 2^27.
    let network = NetworkName::Hypercube(15);
    assert!(matches!(
        product::run(Algorithm::A1, &network),
        Err(ProductError::TooLarge { .. })
    ));
    let run = txverify(&["compose", "a1", "hypercube", "15"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("more than the limit"), "{}", run.stderr);
}

#[test]
fn a_fifo_run_over_the_send_limit_is_refused_up_front() {
    // The 8192-ring: status 8192²/4 = 16,777,216 per node, 2^37 sends in all.
    let path = file("ring8192.tbl", "group: <a | a^8192>\ntable:\n");
    let run = txverify(&["simulate", "--algorithm", "fifo", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn a_group_over_the_order_limit_is_refused() {
    // One element over --max-order, cyclic (built from its exponent sum) and as a
    // product of two factors (refused after the second factor).
    for (text, max) in [
        ("group: <a | a^1001>\ntable:\n", "1000"),
        ("group: <a | a^11> x <b | b^91>\ntable:\n", "1000"),
    ] {
        let path = file("order.tbl", text);
        let run = txverify(&["check", "--max-order", max, path.to_str().unwrap()]);
        assert_eq!(run.code, 2, "{text}: {}", run.stderr);
        assert!(run.stderr.contains("limit"), "{text}: {}", run.stderr);
    }
}
