//! Translations of a network: automorphisms σ_b, one per node b, with
//! σ_b(0) = b and, for every node u, b ↦ σ_b(u) one-to-one (they act
//! regularly, as the translations of a torus or the left multiplications of
//! a Cayley graph do). With them a collective whose items are one per block
//! (allgather, reduce-scatter, allreduce) can be searched as a *translated*
//! schedule: the schedule of the items of block 0 is chosen, and the items of
//! block b do the same, mapped by σ_b (see [`super::collective`]).
//!
//! This restricts the schedules searched: a model is a schedule (it is
//! replayed and judged as any other), but a refuted restricted formula proves
//! nothing about the collective, so the search never reports one, and never
//! writes a certificate for one.
//!
//! The maps are found from the graph alone, trying in turn: translation of
//! the mixed-radix coordinates (a torus, ring, hypercube, complete graph,
//! generalised hypercube; then of a product's factors), following the port numbers from node 0 (a Cayley
//! graph built on a link list: port i of e goes to e · g_i, so
//! σ_b(e · g_i) = σ_b(e) · g_i is left multiplication by b), and rotation of
//! the node numbers (a circulant). Each candidate is checked to be an
//! automorphism acting regularly before it is used; a graph none fits (a
//! mesh, the Petersen graph) has no translations, and is searched as before.

use txverify_core::network::Graph;

/// Largest graph whose translations are looked for (N² node images).
pub const MAX_TRANSLATED_NODES: usize = 1024;

/// Regular automorphisms σ_b, b = 0 … N − 1, with σ_b(0) = b.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translations {
    /// `maps[b][x]` = σ_b(x).
    maps: Vec<Vec<u32>>,
}

impl Translations {
    /// The translations of `graph`, if one of the candidates (module notes)
    /// is a group of automorphisms acting regularly.
    pub fn find(graph: &Graph) -> Option<Translations> {
        let n = graph.nodes();
        if !(2..=MAX_TRANSLATED_NODES).contains(&n) {
            return None;
        }
        let candidates: [&dyn Fn() -> Option<Vec<Vec<u32>>>; 4] = [
            &|| by_radix(graph.radix(), n),
            &|| by_radix(graph.factor_sizes(), n),
            &|| by_ports(graph),
            &|| Some(by_rotation(n)),
        ];
        candidates
            .iter()
            .filter_map(|make| make())
            .map(|maps| Translations { maps })
            .find(|t| t.holds_on(graph))
    }

    /// The number of maps (the nodes).
    pub fn len(&self) -> usize {
        self.maps.len()
    }

    /// Never: a graph has at least two nodes to have translations.
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// σ_b(x).
    pub fn map(&self, b: u32, x: u32) -> u32 {
        self.maps[b as usize][x as usize]
    }

    /// Whether every map is an automorphism of `graph` taking 0 to its
    /// node, and they act regularly (each node's images are every node once).
    fn holds_on(&self, graph: &Graph) -> bool {
        let n = graph.nodes();
        if self.maps.len() != n {
            return false;
        }
        let mut seen = vec![false; n];
        for (b, map) in self.maps.iter().enumerate() {
            if map.len() != n || map[0] as usize != b {
                return false;
            }
            seen.iter_mut().for_each(|s| *s = false);
            for &y in map {
                if y as usize >= n || std::mem::replace(&mut seen[y as usize], true) {
                    return false;
                }
            }
            // A bijection taking links to links is an automorphism (as many
            // links on each side).
            for u in 0..n as u32 {
                for &w in graph.neighbours(u) {
                    if !graph.adjacent(map[u as usize], map[w as usize]) {
                        return false;
                    }
                }
            }
        }
        for u in 0..n {
            seen.iter_mut().for_each(|s| *s = false);
            for map in &self.maps {
                if std::mem::replace(&mut seen[map[u] as usize], true) {
                    return false;
                }
            }
        }
        true
    }
}

/// Coordinatewise addition on a mixed-radix numbering (first coordinate
/// fastest).
fn by_radix(sides: &[usize], n: usize) -> Option<Vec<Vec<u32>>> {
    if sides.is_empty() || sides.iter().product::<usize>() != n {
        return None;
    }
    let digits = |mut x: usize| -> Vec<usize> {
        sides
            .iter()
            .map(|&s| {
                let d = x % s;
                x /= s;
                d
            })
            .collect()
    };
    let all: Vec<Vec<usize>> = (0..n).map(digits).collect();
    let number = |d: &[usize]| {
        d.iter()
            .zip(sides)
            .rev()
            .fold(0usize, |acc, (&c, &s)| acc * s + c) as u32
    };
    Some(
        all.iter()
            .map(|b| {
                all.iter()
                    .map(|x| {
                        let sum: Vec<usize> = x
                            .iter()
                            .zip(b)
                            .zip(sides)
                            .map(|((&xi, &bi), &s)| (xi + bi) % s)
                            .collect();
                        number(&sum)
                    })
                    .collect()
            })
            .collect(),
    )
}

/// σ_b by following port numbers from node 0 to x, and the same ports from b
/// (breadth-first; `None` when a port is missing or two paths disagree).
fn by_ports(graph: &Graph) -> Option<Vec<Vec<u32>>> {
    let n = graph.nodes();
    // A breadth-first tree from 0: (parent, port of the parent) per node.
    let mut order = vec![0u32];
    let mut via = vec![None::<(u32, usize)>; n];
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut i = 0;
    while i < order.len() {
        let u = order[i];
        i += 1;
        for (port, &w) in graph.ports(u).iter().enumerate() {
            if !seen[w as usize] {
                seen[w as usize] = true;
                via[w as usize] = Some((u, port));
                order.push(w);
            }
        }
    }
    if order.len() != n {
        return None;
    }
    (0..n as u32)
        .map(|b| {
            let mut map = vec![0u32; n];
            map[0] = b;
            for &x in &order[1..] {
                let (parent, port) = via[x as usize]?;
                map[x as usize] = *graph.ports(map[parent as usize]).get(port)?;
            }
            // Every port, not only the tree's, must agree.
            for u in 0..n {
                let (from, to) = (graph.ports(u as u32), graph.ports(map[u]));
                if from.len() != to.len()
                    || from.iter().zip(to).any(|(&w, &y)| map[w as usize] != y)
                {
                    return None;
                }
            }
            Some(map)
        })
        .collect()
}

/// x ↦ x + b mod N.
fn by_rotation(n: usize) -> Vec<Vec<u32>> {
    (0..n)
        .map(|b| (0..n).map(|x| ((x + b) % n) as u32).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn vertex_transitive_families_have_translations_and_others_none() {
        for name in [
            "ring 7",
            "hypercube 4",
            "torus 4 4",
            "torus 3 5",
            "complete 5",
            "genhypercube 3 4",
            "star 4",
            "ccc 3",
            "ring 4 x complete 3",
        ] {
            let g = graph(name);
            let t = Translations::find(&g).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(t.len(), g.nodes());
            assert!(t.holds_on(&g), "{name}");
        }
        for name in [
            "linear 4",
            "mesh 3 3",
            "edges ../../examples/networks/petersen.edges",
        ] {
            assert_eq!(Translations::find(&graph(name)), None, "{name}");
        }
    }

    #[test]
    fn maps_that_are_not_automorphisms_or_not_regular_are_refused() {
        let g = graph("ring 6");
        let good = Translations {
            maps: by_rotation(6),
        };
        assert!(good.holds_on(&g));
        // x ↦ 2x + b is not an automorphism of the ring.
        let mut bad = good.clone();
        bad.maps[1] = (0..6).map(|x| ((2 * x + 1) % 6) as u32).collect();
        assert!(!bad.holds_on(&g));
        // Reflections are automorphisms, but σ_b(u) = σ_c(u) for some b ≠ c.
        let mut bad = good.clone();
        bad.maps[2] = (0..6).map(|x| ((8 - x) % 6) as u32).collect();
        assert!(!bad.holds_on(&g));
    }
}
