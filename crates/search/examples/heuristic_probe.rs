//! Measures the heuristic total-exchange schedule against the LP bound
//! (docs/schedules-any.md): for each network named on the command line, the
//! LP bound and its seconds, the schedule without and with the LP's flow, and
//! their seconds.
//!
//! `cargo run --release -p txverify-search --example heuristic_probe -- 'edges g.edges'`
//!
//! Environment: LP_WORK (the LP descent's work budget, default 2^28).

use std::time::Instant;
use txverify_core::bounds::lp::LpOptions;
use txverify_core::bounds::total_exchange_with_lp;
use txverify_core::network::NetworkName;
use txverify_core::schedule::Ports;
use txverify_search::schedule::heuristic;

fn main() {
    println!("network\tnodes\tlp\tlp_s\tbefore\tbefore_s\tafter\tafter_s");
    for name in std::env::args().skip(1) {
        let graph = match name.parse::<NetworkName>().and_then(|n| n.build()) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let mut options = LpOptions::default();
        if let Some(w) = std::env::var("LP_WORK").ok().and_then(|v| v.parse().ok()) {
            options.max_work = w;
        }
        let start = Instant::now();
        let (_, solution) = total_exchange_with_lp(&graph, Ports::All, &options);
        let lp_s = start.elapsed().as_secs_f64();
        let Some(s) = solution else { continue };
        let start = Instant::now();
        let before = heuristic::plan(&graph).time();
        let before_s = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let after = heuristic::plan_with_flow(&graph, s.per_source.as_deref()).time();
        let after_s = start.elapsed().as_secs_f64();
        println!(
            "{name}\t{}\t{}\t{lp_s:.2}\t{before}\t{before_s:.2}\t{after}\t{after_s:.2}",
            graph.nodes(),
            s.bound.value
        );
    }
}
