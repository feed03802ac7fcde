//! Each documented size limit (docs/limits.md) meets an input just over it and
//! refuses it before the work, with a typed error or exit status 2. No timing
//! is asserted; the inputs are chosen so that a refusal that came late would
//! need gigabytes.

use crate::common;

use common::cli::{file, txverify};
use txverify_clients::product::{self, Algorithm, ProductError};
use txverify_core::network::{self, NetworkError, NetworkName};
use txverify_core::schedule::replay::{MAX_PACKET_SLOTS, ReplayError};
use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, replay};

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

#[test]
fn a_simulation_over_its_step_limit_is_refused_and_the_report_says_so() {
    // ring6-cyclic-total: 6 nodes × (9 letters + 5 messages) = 84 message-steps.
    let path = "tables/ring6-cyclic-total.tbl";
    let at = |limit: &str| {
        txverify(&[
            "check",
            "--format",
            "json",
            "--max-simulation-steps",
            limit,
            path,
        ])
    };
    let ran = at("84");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let report: serde_json::Value = serde_json::from_str(ran.stdout.trim()).unwrap();
    assert_eq!(report["simulation"]["status"], "ran");
    let refused = at("83");
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    let report: serde_json::Value = serde_json::from_str(refused.stdout.trim()).unwrap();
    assert_eq!(report["simulation"]["status"], "skipped");
    assert_eq!(
        report["simulation"]["reason"],
        "not simulated: 84 message-steps over the limit 83 (--max-simulation-steps)"
    );
    assert_eq!(report["agreement"]["status"], "kernel_only");
    assert_eq!(report["exit_code"], 2);
    // The kernel's verdict is still reported.
    assert_eq!(report["verdict"], "valid");
    let text = txverify(&["check", "--max-simulation-steps", "83", path]);
    assert_eq!(text.code, 2);
    assert!(
        text.stdout
            .contains("not simulated: 84 message-steps over the limit 83"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_large_group_is_not_simulated_by_default() {
    // The 64 × 64 × 80 torus (327,680 nodes): its total exchange alone is
    // 327,680 × 327,679 ≈ 1.07·10^11 message-steps, over the default 2^35.
    // Refused before the simulator allocates its n² delivery bits (12.5 GiB).
    let header = txverify(&["net", "torus", "64", "64", "80"]).stdout;
    let text = format!("{header}a b c a' b' c'\naa bb cc a'a' b'b' c'c'\n");
    let path = file("torus-64-64-80.tbl", &text);
    let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(report["simulation"]["status"], "skipped");
    let reason = report["simulation"]["reason"].as_str().unwrap();
    assert!(reason.starts_with("not simulated: "), "{reason}");
    assert_eq!(report["agreement"]["status"], "kernel_only");
}

#[test]
fn a_network_size_beyond_32_bits_is_refused_at_its_column_not_changed() {
    // Sizes are held as 32-bit numbers: a larger one must not be stored as another
    // number (which `fmt` would then print back), but refused where it is written.
    for (line, column) in [
        ("network: ring 5000000000", 15),
        ("network: torus 4 5000000000", 18),
    ] {
        let path = file(
            "huge.tbl",
            &format!("group: <a | a^6 = 1>\n{line}\ntable:\n"),
        );
        for command in ["check", "fmt"] {
            let run = txverify(&[command, path.to_str().unwrap()]);
            assert_eq!(run.code, 2, "{command} {line}: {}", run.stderr);
            assert!(
                run.stderr.contains(&format!(":2:{column}:")),
                "{command}: {}",
                run.stderr
            );
            assert!(run.stdout.is_empty(), "{command} printed {}", run.stdout);
        }
    }
}
