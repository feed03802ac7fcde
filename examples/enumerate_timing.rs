//! Times coset enumeration once on the benchmark presentations.
//!
//! `cargo run --release --example enumerate_timing [name filter...]` prints one
//! line per presentation, for plain enumeration and for the cross-checked
//! `compute`; it is the quick companion of the criterion benchmark.

#[path = "../benches/shared/presentations.rs"]
mod presentations;

use presentations::{abelian, dihedral_product, symmetric};
use std::time::Instant;
use txverify_core::group::{EnumerationLimits, compute, enumerate};

fn main() {
    let cases = [
        ("Z_100^3", abelian(100, 3)),
        ("Z_1000^2", abelian(1000, 2)),
        ("D_48^3 (dihedral k=24, cubed)", dihedral_product(24, 3)),
        ("S_8 (Coxeter)", symmetric(8)),
        ("S_9 (Coxeter)", symmetric(9)),
    ];
    let filter: Vec<String> = std::env::args().skip(1).collect();
    for (name, p) in cases {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let start = Instant::now();
        let result = enumerate(&p, &EnumerationLimits::default());
        let elapsed = start.elapsed().as_secs_f64();
        match result {
            Ok(g) => println!("{name}: enumerate: order {} in {elapsed:.3} s", g.order()),
            Err(e) => println!("{name}: enumerate: {e} after {elapsed:.3} s"),
        }
        let start = Instant::now();
        let result = compute(&p, &EnumerationLimits::default());
        let elapsed = start.elapsed().as_secs_f64();
        match result {
            Ok(c) => println!(
                "{name}: compute:   order {} in {elapsed:.3} s, checks {:?}",
                c.group.order(),
                c.checks
            ),
            Err(e) => println!("{name}: compute:   {e} after {elapsed:.3} s"),
        }
    }
}
