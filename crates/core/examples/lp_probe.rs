//! Measures the LP bound of networks (docs/schedules-any.md): for each
//! network named on the command line, the distance and cut bounds, the LP
//! bound, the descent's dual and primal (the LP optimum lies between), its
//! steps and the seconds it took.
//!
//! `cargo run --release -p txverify-core --example lp_probe -- 'edges g.edges' 'torus 8 8 8'`
//!
//! Environment: LP_TOLERANCE (default 0.002), LP_ITERATIONS (default 3000).

use std::time::Instant;
use txverify_core::bounds::lp::LpOptions;
use txverify_core::bounds::total_exchange_with_lp;
use txverify_core::network::NetworkName;
use txverify_core::schedule::Ports;

fn main() {
    let mut options = LpOptions::default();
    if let Some(t) = std::env::var("LP_TOLERANCE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        options.tolerance = t;
    }
    if let Some(i) = std::env::var("LP_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        options.max_iterations = i;
    }
    println!("network\tnodes\tlink-load\tcut\tlp\tdual\tprimal\tfound\tsteps\tseconds");
    for name in std::env::args().skip(1) {
        let graph = match name.parse::<NetworkName>().and_then(|n| n.build()) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let start = Instant::now();
        let (set, solution) = total_exchange_with_lp(&graph, Ports::All, &options);
        let seconds = start.elapsed().as_secs_f64();
        let value = |prefix: &str| {
            set.bounds()
                .iter()
                .find(|b| b.name().starts_with(prefix))
                .map_or("-".to_string(), |b| b.value().to_string())
        };
        let Some(s) = solution else { continue };
        println!(
            "{name}\t{}\t{}\t{}\t{}\t{:.3}\t{:.3}\t{:?}\t{}\t{seconds:.2}",
            graph.nodes(),
            value("link-load"),
            value("cut"),
            s.bound.value,
            s.dual,
            s.primal,
            s.found,
            s.iterations
        );
    }
}
