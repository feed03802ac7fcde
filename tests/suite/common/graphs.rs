//! Graphs built in the tests, independently of the network layer: edge lists,
//! adjacency lists, BFS distances, connectivity, the Petersen graph and seeded
//! random 3-regular graphs. The tests compare txverify's figures with these.

use std::collections::VecDeque;

/// Adjacency lists from undirected edges.
pub fn lists(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for &(u, v) in edges {
        adj[u].push(v);
        adj[v].push(u);
    }
    adj
}

/// The text of an `.edges` file: one `u v` line per edge.
pub fn edge_list(edges: &[(usize, usize)]) -> String {
    edges.iter().map(|(u, v)| format!("{u} {v}\n")).collect()
}

/// Σ over ordered pairs of the distance, and the diameter, by BFS from each node
/// (the graph must be connected).
pub fn total_distance(adj: &[Vec<usize>]) -> (u64, u64) {
    let (mut total, mut diameter) = (0u64, 0u64);
    for s in 0..adj.len() {
        let mut dist = vec![u64::MAX; adj.len()];
        dist[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for &y in &adj[x] {
                if dist[y] == u64::MAX {
                    dist[y] = dist[x] + 1;
                    queue.push_back(y);
                }
            }
        }
        total += dist.iter().sum::<u64>();
        diameter = diameter.max(*dist.iter().max().unwrap());
    }
    (total, diameter)
}

/// Whether every node is reached from node 0.
pub fn connected(adj: &[Vec<usize>]) -> bool {
    let mut seen = vec![false; adj.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(x) = stack.pop() {
        for &y in &adj[x] {
            if !seen[y] {
                seen[y] = true;
                stack.push(y);
            }
        }
    }
    seen.iter().all(|&s| s)
}

/// The Petersen graph as the Kneser graph K(5, 2): the 2-subsets of
/// {0, …, 4}, joined when disjoint.
pub fn kneser_petersen() -> Vec<(usize, usize)> {
    let pairs: Vec<(u32, u32)> = (0..5)
        .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
        .collect();
    let mut edges = Vec::new();
    for (i, &(a, b)) in pairs.iter().enumerate() {
        for (j, &(c, d)) in pairs.iter().enumerate().skip(i + 1) {
            if a != c && a != d && b != c && b != d {
                edges.push((i, j));
            }
        }
    }
    edges
}

/// A random 3-regular graph on `n` nodes (pairing model, retried until simple
/// and connected), from a seed; edges sorted.
pub fn random_cubic(n: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |m: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % m as u64) as usize
    };
    loop {
        let mut points: Vec<usize> = (0..3 * n).map(|p| p / 3).collect();
        for i in (1..points.len()).rev() {
            points.swap(i, next(i + 1));
        }
        let mut edges: Vec<(usize, usize)> = points
            .chunks(2)
            .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
            .collect();
        edges.sort_unstable();
        let simple = edges.iter().all(|&(u, v)| u != v) && edges.windows(2).all(|w| w[0] != w[1]);
        if simple && connected(&lists(n, &edges)) {
            return edges;
        }
    }
}
