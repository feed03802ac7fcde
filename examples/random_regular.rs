//! Writes a random connected K-regular graph on N nodes as an edge list
//! (docs/networks.md), for benchmarks and experiments on networks that no
//! family describes.
//!
//! `cargo run --release --example random_regular -- N K SEED > graph.edges`
//!
//! The configuration model: N·K half-links are shuffled (a xorshift generator
//! seeded by SEED, so the same arguments give the same graph on every machine)
//! and paired in order; a pairing with a self-loop, a repeated link or a graph
//! that is not connected is thrown away and the next one drawn. Every simple
//! K-regular graph is equally likely. N·K must be even and K < N.

use std::process::ExitCode;

/// xorshift64*: small, seedable, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (the modulo bias is negligible for n ≪ 2^64).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One pairing of the half-links, or `None` when it is not a simple connected graph.
fn attempt(n: usize, k: usize, rng: &mut Rng) -> Option<Vec<(usize, usize)>> {
    let mut stubs: Vec<usize> = (0..n * k).map(|i| i / k).collect();
    for i in (1..stubs.len()).rev() {
        stubs.swap(i, rng.below(i + 1));
    }
    let mut adjacency = vec![Vec::with_capacity(k); n];
    let mut edges = Vec::with_capacity(n * k / 2);
    for pair in stubs.chunks(2) {
        let (u, v) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
        if u == v || adjacency[u].contains(&v) {
            return None;
        }
        adjacency[u].push(v);
        adjacency[v].push(u);
        edges.push((u, v));
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(x) = stack.pop() {
        for &y in &adjacency[x] {
            if !seen[y] {
                seen[y] = true;
                stack.push(y);
            }
        }
    }
    seen.iter().all(|&s| s).then_some(edges)
}

fn main() -> ExitCode {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let [n, k, seed] = args[..] else {
        eprintln!("usage: random_regular N K SEED");
        return ExitCode::from(2);
    };
    let (n, k) = (n as usize, k as usize);
    if n < 2 || k == 0 || k >= n || (n * k) % 2 == 1 {
        eprintln!("random_regular: need 0 < K < N and N·K even");
        return ExitCode::from(2);
    }
    // A zero state would stay zero.
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let edges = loop {
        if let Some(edges) = attempt(n, k, &mut rng) {
            break edges;
        }
    };
    println!("# random {k}-regular graph on {n} nodes, seed {seed} (configuration model)");
    for (u, v) in edges {
        println!("{u} {v}");
    }
    ExitCode::SUCCESS
}
