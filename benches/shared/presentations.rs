//! Presentations used by the group benchmarks and the timing example.
//!
//! Shared by `benches/group.rs` and `examples/enumerate_timing.rs` so both time
//! exactly the same inputs. It lives in `benches/shared/`, where Cargo finds no
//! bench target: a file directly in `benches/` would become one.

use txverify_core::group::{GenLetter, Presentation};

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
pub fn abelian(n: usize, k: u32) -> Presentation {
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
pub fn dihedral_product(k: usize, factors: u32) -> Presentation {
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
pub fn symmetric(n: u32) -> Presentation {
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
