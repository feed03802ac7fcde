//! Writes a named network (docs/networks.md) as an edge list, optionally with
//! some links failed, for benchmarks of `search --network 'edges FILE'` on
//! networks given the way a user of an irregular fabric gives them.
//!
//! `cargo run --release --example network_edges -- 'torus 8 8 8' [FAILED SEED] > t.edges`
//!
//! With FAILED, that many links, drawn by a xorshift generator seeded by SEED
//! (the same links on every machine), are left out; a draw that would leave the
//! network disconnected is put back and another drawn.

use std::process::ExitCode;
use txverify_core::network::NetworkName;

/// xorshift64*: small, seedable, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
    }
}

fn connected(n: usize, edges: &[(u32, u32)], skip: &[bool]) -> bool {
    let mut adjacency = vec![Vec::new(); n];
    for (i, &(u, v)) in edges.iter().enumerate() {
        if !skip[i] {
            adjacency[u as usize].push(v);
            adjacency[v as usize].push(u);
        }
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(u) = stack.pop() {
        for &v in &adjacency[u as usize] {
            if !seen[v as usize] {
                seen[v as usize] = true;
                stack.push(v);
            }
        }
    }
    seen.iter().all(|&s| s)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: network_edges NETWORK [FAILED SEED]";
    let Some(name) = args.first() else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let graph = match name.parse::<NetworkName>().map(|n| n.build()) {
        Ok(Ok(g)) => g,
        Ok(Err(e)) => {
            eprintln!("{name}: {e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{name}: {e}");
            return ExitCode::from(2);
        }
    };
    let (failed, seed) = match (args.get(1), args.get(2)) {
        (None, _) => (0, 1),
        (Some(f), Some(s)) => match (f.parse::<usize>(), s.parse::<u64>()) {
            (Ok(f), Ok(s)) => (f, s),
            _ => {
                eprintln!("{usage}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let n = graph.nodes();
    let edges: Vec<(u32, u32)> = (0..graph.directed_links() as u32)
        .map(|l| graph.endpoints(l))
        .filter(|&(u, v)| u < v)
        .collect();
    let mut skip = vec![false; edges.len()];
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut left = failed.min(edges.len());
    let mut tries = 0;
    while left > 0 && tries < 100 * edges.len() {
        tries += 1;
        let i = rng.below(edges.len());
        if skip[i] {
            continue;
        }
        skip[i] = true;
        if connected(n, &edges, &skip) {
            left -= 1;
        } else {
            skip[i] = false;
        }
    }
    if left > 0 {
        eprintln!("cannot fail {failed} links and keep {name} connected");
        return ExitCode::from(2);
    }
    let mut out = String::new();
    for (i, &(u, v)) in edges.iter().enumerate() {
        if !skip[i] {
            out.push_str(&format!("{u} {v}\n"));
        }
    }
    print!("{out}");
    ExitCode::SUCCESS
}
