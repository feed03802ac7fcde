//! Times coset enumeration once on the benchmark presentations.
//!
//! `cargo run --release --example enumerate_timing` prints one line per
//! presentation; it is the quick companion of the criterion benchmark.

use std::time::Instant;
use txverify::group::{EnumerationLimits, GenLetter, Presentation, enumerate};

fn power(g: u32, n: usize) -> Vec<GenLetter> {
    vec![
        GenLetter {
            generator: g,
            inverse: false
        };
        n
    ]
}

fn commutator(g: u32, h: u32) -> Vec<GenLetter> {
    let l = |generator, inverse| GenLetter { generator, inverse };
    vec![l(g, false), l(h, false), l(g, true), l(h, true)]
}

/// `<a_1..a_k | a_i^n, [a_i, a_j]>`: the abelian group (Z_n)^k.
fn abelian(n: usize, k: u32) -> Presentation {
    let mut relators: Vec<_> = (0..k).map(|g| power(g, n)).collect();
    for g in 0..k {
        for h in g + 1..k {
            relators.push(commutator(g, h));
        }
    }
    Presentation {
        generators: (0..k).map(|g| format!("a{g}")).collect(),
        relators,
    }
}

/// Direct product of `factors` dihedral groups `<y,Y | y^2, Y^2, (yY)^k>`.
fn dihedral_product(k: usize, factors: u32) -> Presentation {
    let mut relators = Vec::new();
    for f in 0..factors {
        let (y, z) = (2 * f, 2 * f + 1);
        relators.push(power(y, 2));
        relators.push(power(z, 2));
        let mut yz = Vec::new();
        for _ in 0..k {
            yz.push(GenLetter {
                generator: y,
                inverse: false,
            });
            yz.push(GenLetter {
                generator: z,
                inverse: false,
            });
        }
        relators.push(yz);
    }
    for g in 0..2 * factors {
        for h in g + 1..2 * factors {
            if g / 2 != h / 2 {
                relators.push(commutator(g, h));
            }
        }
    }
    Presentation {
        generators: (0..2 * factors).map(|g| format!("g{g}")).collect(),
        relators,
    }
}

/// The Coxeter presentation of the symmetric group S_n.
fn symmetric(n: u32) -> Presentation {
    let l = |generator| GenLetter {
        generator,
        inverse: false,
    };
    let mut relators = Vec::new();
    for i in 0..n - 1 {
        relators.push(power(i, 2));
        for j in i + 1..n - 1 {
            let m = if j == i + 1 { 3 } else { 2 };
            let mut w = Vec::new();
            for _ in 0..m {
                w.push(l(i));
                w.push(l(j));
            }
            relators.push(w);
        }
    }
    Presentation {
        generators: (0..n - 1).map(|g| format!("s{g}")).collect(),
        relators,
    }
}

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
        let elapsed = start.elapsed();
        match result {
            Ok(g) => println!(
                "{name}: order {} in {:.3} s",
                g.order(),
                elapsed.as_secs_f64()
            ),
            Err(e) => println!("{name}: {e} after {:.3} s", elapsed.as_secs_f64()),
        }
    }
}
