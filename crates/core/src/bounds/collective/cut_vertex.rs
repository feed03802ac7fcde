//! The components of G − x for every node x (one depth-first search), and the
//! "cut vertex" bound of the collectives built on them (docs/collectives.md,
//! lemma L6).
//!
//! A node x whose removal splits the graph into components A_1 … A_m is the
//! only way in and out of each A_j: every packet that enters A_j is sent by x,
//! every packet that leaves it is received by x. Counting the distinct items
//! that must enter (or leave) each component gives a number of packets x
//! sends (receives), at most min(K, deg x) a step. Under all ports the bound
//! is never above the cut bound of one component (x's links into A_j carry
//! what enters A_j); under K ports below the degree it can be, because the
//! components share x's K ports: on `linear 4` under one port node 1 sends 3
//! items to node 0 and 2 towards nodes 2 and 3, 5 steps against a cut bound
//! of 3.
//!
//! The components come from the classical low-point search (Hopcroft and
//! Tarjan's articulation points), written iteratively so that a long path
//! does not overflow the stack: with the search rooted at r, the components
//! of G − x for x ≠ r are the subtrees of the children c of x with
//! low(c) ≥ disc(x), each alone, and the rest of the graph (holding r) as one;
//! for x = r every child's subtree is a component.

use crate::network::Graph;
use crate::schedule::{Collective, Ports};

/// The components of G − x, as the search from the root sees them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// The sizes of the components of G − x that do not hold the root.
    pub away: Vec<u64>,
    /// The size of the component of G − x that holds the root (0 for the
    /// root itself).
    pub rooted: u64,
}

impl Split {
    /// Every component's size.
    pub fn sizes(&self) -> impl Iterator<Item = u64> + '_ {
        self.away
            .iter()
            .copied()
            .chain((self.rooted > 0).then_some(self.rooted))
    }
}

/// The components of G − x for every node x of the connected `graph`,
/// searched from `root`.
pub fn splits(graph: &Graph, root: u32) -> Vec<Split> {
    let n = graph.nodes();
    let mut splits = vec![Split::default(); n];
    if n == 0 {
        return splits;
    }
    const NONE: u32 = u32::MAX;
    let mut disc = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut parent = vec![NONE; n];
    let mut size = vec![1u64; n];
    // (node, index of its next neighbour to look at)
    let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
    disc[root as usize] = 0;
    let mut clock = 1u32;
    while let Some(top) = stack.last_mut() {
        let (v, next) = *top;
        top.1 += 1;
        let vi = v as usize;
        if let Some(&w) = graph.neighbours(v).get(next) {
            let wi = w as usize;
            if disc[wi] == NONE {
                disc[wi] = clock;
                low[wi] = clock;
                clock += 1;
                parent[wi] = v;
                stack.push((w, 0));
            } else if w != parent[vi] {
                low[vi] = low[vi].min(disc[wi]);
            }
            continue;
        }
        stack.pop();
        let p = parent[vi];
        if p == NONE {
            continue;
        }
        let pi = p as usize;
        low[pi] = low[pi].min(low[vi]);
        size[pi] += size[vi];
        if low[vi] >= disc[pi] {
            splits[pi].away.push(size[vi]);
        }
    }
    let n64 = n as u64;
    for (x, split) in splits.iter_mut().enumerate() {
        if x != root as usize {
            split.rooted = n64 - 1 - split.away.iter().sum::<u64>();
        }
    }
    splits
}

/// The cut vertex bound of `collective` (0 where it has none): the largest
/// over the nodes x of ⌈P(x) / min(K, deg x)⌉, P(x) the packets x must send
/// or receive across the components A_1 … A_m of G − x (C chunks, N nodes):
///
/// - broadcast R: C per component without R (x sends them every chunk);
/// - reduce R: the same (x receives a partial of every chunk from each);
/// - allgather: C·(N − |A_j|) into each A_j (x sends every item from outside);
/// - reduce-scatter: C·(N − |A_j|) out of each A_j (x receives A_j's
///   contributions to every item of a block outside A_j);
/// - allreduce: N·C into each A_j (x sends).
pub fn cut_vertex_bound(graph: &Graph, collective: Collective, ports: Ports) -> u64 {
    let n = graph.nodes() as u64;
    let c = u64::from(collective.chunks());
    let root = collective.root().unwrap_or(0);
    if n < 2 || root as u64 >= n {
        return 0;
    }
    let splits = splits(graph, root);
    let mut best = 0;
    for (x, split) in splits.iter().enumerate() {
        let packets: u64 = match collective {
            Collective::Broadcast { .. } | Collective::Reduce { .. } => c * split.away.len() as u64,
            Collective::Allgather { .. } | Collective::ReduceScatter { .. } => {
                split.sizes().map(|a| c * (n - a)).sum()
            }
            Collective::Allreduce { .. } => n * c * split.sizes().count() as u64,
            _ => 0,
        };
        let degree = graph.degree(x as u32) as u64;
        let per_step = match ports {
            Ports::All => degree,
            Ports::Limit(k) => degree.min(u64::from(k)),
        };
        if per_step > 0 {
            best = best.max(packets.div_ceil(per_step));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    /// The components of G − x by removing x and searching, written here.
    fn by_removal(g: &Graph, x: u32, root: u32) -> Split {
        let n = g.nodes();
        let mut seen = vec![false; n];
        seen[x as usize] = true;
        let mut split = Split::default();
        for start in 0..n as u32 {
            if seen[start as usize] {
                continue;
            }
            let mut todo = vec![start];
            seen[start as usize] = true;
            let (mut count, mut has_root) = (0u64, false);
            while let Some(v) = todo.pop() {
                count += 1;
                has_root |= v == root;
                for &w in g.neighbours(v) {
                    if !seen[w as usize] {
                        seen[w as usize] = true;
                        todo.push(w);
                    }
                }
            }
            if has_root {
                split.rooted = count;
            } else {
                split.away.push(count);
            }
        }
        split
    }

    #[test]
    fn the_search_finds_the_components_removal_finds() {
        for name in [
            "linear 1",
            "linear 2",
            "linear 6",
            "ring 5",
            "mesh 2 3",
            "mesh 1 4",
            "complete 4",
            "hypercube 3",
            "linear 3 x ring 3",
        ] {
            let g = graph(name);
            for root in 0..g.nodes() as u32 {
                let found = splits(&g, root);
                for x in 0..g.nodes() as u32 {
                    let mut want = by_removal(&g, x, root);
                    let mut got = found[x as usize].clone();
                    want.away.sort_unstable();
                    got.away.sort_unstable();
                    assert_eq!(got, want, "{name}, root {root}, node {x}");
                }
            }
        }
    }

    #[test]
    fn a_line_under_one_port_waits_for_its_relays() {
        // linear 4, one port: node 1 sends items 1, 2, 3 to node 0 and 0, 1
        // towards node 2: 5 sends, one a step.
        let g = graph("linear 4");
        let one = Ports::Limit(1);
        assert_eq!(cut_vertex_bound(&g, Collective::ALLGATHER, one), 5);
        let rs = Collective::ReduceScatter { chunks: 1 };
        assert_eq!(cut_vertex_bound(&g, rs, one), 5);
        // Allreduce: each of the 4 items enters both sides of node 1: 8.
        let ar = Collective::Allreduce { chunks: 1 };
        assert_eq!(cut_vertex_bound(&g, ar, one), 8);
        // All ports: node 1 has two links, ⌈5 / 2⌉ = 3.
        assert_eq!(cut_vertex_bound(&g, Collective::ALLGATHER, Ports::All), 3);
        // Broadcast from an end: every relay sends each chunk once.
        let b = Collective::broadcast(0).with_chunks(3).unwrap();
        assert_eq!(cut_vertex_bound(&g, b, one), 3);
        // From node 1, two sides to serve, 3 chunks each.
        let b = Collective::broadcast(1).with_chunks(3).unwrap();
        assert_eq!(cut_vertex_bound(&g, b, one), 6);
        // No cut vertex: each node's own C items, at most.
        let ring = graph("ring 6");
        assert_eq!(cut_vertex_bound(&ring, Collective::ALLGATHER, one), 1);
    }
}
