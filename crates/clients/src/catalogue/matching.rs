//! Candidate node maps from a table's Cayley graph onto a network, for
//! [`txverify_core::network::Embedding::new`] to verify (nothing here is trusted).
//!
//! Two ways are tried. A table whose `network:` line names a network with
//! exactly the adjacency of the target (same nodes, same neighbours) uses the
//! embedding the network layer finds for that line. Otherwise the target is
//! taken as a Cayley graph whose port `i` is one link label: a map that sends
//! the identity to node 0 and link `i` to port `π(i)` is determined by the
//! permutation `π`, so every `π` is followed out from node 0 (degree at most
//! [`MAX_LABELLED_DEGREE`]). That finds the map for the families the network
//! layer builds as Cayley graphs (star, pancake, CCC, butterfly, rings, tori)
//! whatever the table's presentation numbers its elements.

use txverify_core::group::{Elem, FiniteGroup, GenLetter};
use txverify_core::kernel::Instance;
use txverify_core::network::{Graph, NetworkName, embed, next_permutation};

/// The largest degree whose link permutations are all tried (6! = 720).
pub const MAX_LABELLED_DEGREE: usize = 6;

const UNSET: u32 = u32::MAX;

/// A node map (element index ↦ node) to check, or `None` when neither way
/// finds one.
pub fn node_map(
    instance: &Instance,
    declared: Option<&NetworkName>,
    graph: &Graph,
) -> Option<Vec<u32>> {
    let (group, links) = (instance.group(), instance.links());
    if let Some(spec) = declared
        && let Ok(named) = spec.build()
        && same_adjacency(&named, graph)
        && let Ok(embedding) = embed(group, links, spec)
    {
        return Some(embedding.node_map().to_vec());
    }
    labelled_map(group, links, graph)
}

/// Whether two graphs have the same nodes and the same neighbours at each.
pub fn same_adjacency(a: &Graph, b: &Graph) -> bool {
    a.nodes() == b.nodes()
        && (0..a.nodes() as u32).all(|x| {
            let (mut p, mut q) = (a.neighbours(x).to_vec(), b.neighbours(x).to_vec());
            p.sort_unstable();
            q.sort_unstable();
            p == q
        })
}

/// Tries every permutation of the link labels (see the module note).
fn labelled_map(group: &FiniteGroup, links: &[GenLetter], graph: &Graph) -> Option<Vec<u32>> {
    let k = links.len();
    if k > MAX_LABELLED_DEGREE || group.order() != graph.nodes() {
        return None;
    }
    let mut perm: Vec<usize> = (0..k).collect();
    loop {
        if let Some(map) = follow(group, links, graph, &perm) {
            return Some(map);
        }
        if !next_permutation(&mut perm) {
            return None;
        }
    }
}

/// The map that sends link `i` to port `perm[i]` everywhere, if it is a
/// bijection consistent with every link.
fn follow(
    group: &FiniteGroup,
    links: &[GenLetter],
    graph: &Graph,
    perm: &[usize],
) -> Option<Vec<u32>> {
    let n = group.order();
    let mut node_of = vec![UNSET; n];
    let mut used = vec![false; n];
    node_of[Elem::IDENTITY.index()] = 0;
    used[0] = true;
    let mut stack = vec![Elem::IDENTITY];
    while let Some(g) = stack.pop() {
        let ports = graph.ports(node_of[g.index()]);
        if ports.len() != links.len() {
            return None;
        }
        for (i, &s) in links.iter().enumerate() {
            let h = group.apply(g, s);
            let y = ports[perm[i]];
            match node_of[h.index()] {
                UNSET if !used[y as usize] => {
                    node_of[h.index()] = y;
                    used[y as usize] = true;
                    stack.push(h);
                }
                z if z == y => {}
                _ => return None,
            }
        }
    }
    node_of.iter().all(|&x| x != UNSET).then_some(node_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_all_visited_once() {
        let mut p = vec![0, 1, 2, 3];
        let mut seen = vec![p.clone()];
        while next_permutation(&mut p) {
            seen.push(p.clone());
        }
        assert_eq!(seen.len(), 24);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 24);
    }
}
