//! One builder per family of graphs, all producing the one [`Graph`] type.
//!
//! Numbering and port order, family by family:
//!
//! - Grids (`torus`, `ring`, `hypercube`, `mesh`, `linear`) use mixed radix
//!   with the first coordinate fastest, node `x = c1 + N1·(c2 + N2·(…))`. For
//!   each dimension in order a node's ports are `+1` then `−1` (modulo the side
//!   on a torus, left out at the border of a mesh). A torus dimension of side 2
//!   has a single port (the two nodes are joined by one link, not two), so
//!   every torus is a simple graph. `ring N` is `torus N`, `hypercube D` is
//!   `torus 2 … 2` (node bits are coordinates, port `i` flips bit `i`;
//!   `hypercube 0` is one node), `linear N` is `mesh N`.
//! - `genhypercube M1 M2 …` (and `complete N` = `genhypercube N`): mixed radix,
//!   two nodes joined when they differ in exactly one coordinate; ports by
//!   dimension, then by the other coordinate value in increasing order.
//! - A product `G1 × G2 × …`: mixed radix with the first factor fastest; ports
//!   are the first factor's ports, then the second's, and so on.
//! - The Cayley graph of a group on a link list ([`Graph::cayley`]): node `e`
//!   is element `e` (the identity is node 0), port `i` goes to `e · links[i]`.

use super::{Graph, NetworkError, Topology};
use crate::group::{FiniteGroup, GenLetter};

/// Adds one grid dimension's ports of node `x` at coordinate `c` to `list`.
fn grid_ports(list: &mut Vec<u32>, base: usize, c: usize, side: usize, stride: usize, wrap: bool) {
    let mut add = |c2: usize| {
        let y = (base + c2 * stride) as u32;
        if c2 != c && !list.contains(&y) {
            list.push(y);
        }
    };
    if c + 1 < side {
        add(c + 1);
    } else if wrap {
        add(0);
    }
    if c > 0 {
        add(c - 1);
    } else if wrap {
        add(side - 1);
    }
}

/// Neighbour lists of a grid: per node, per dimension, `+1` then `−1`.
fn grid(sides: &[usize], wrap: bool) -> Vec<Vec<u32>> {
    let n: usize = sides.iter().product();
    (0..n)
        .map(|x| {
            let mut list = Vec::new();
            let mut stride = 1usize;
            for &side in sides {
                let c = (x / stride) % side;
                let base = x - c * stride;
                grid_ports(&mut list, base, c, side, stride, wrap);
                stride *= side;
            }
            list
        })
        .collect()
}

/// The torus with these sides (each ≥ 2; none for the one-node 0-cube).
pub fn torus(sides: &[usize]) -> Result<Graph, NetworkError> {
    let topology = Topology::Torus {
        sides: sides.to_vec(),
    };
    let label = torus_label(sides);
    Graph::from_ports(label, topology, grid(sides, true))
}

fn torus_label(sides: &[usize]) -> String {
    let mut label = "torus".to_string();
    for s in sides {
        label.push_str(&format!(" {s}"));
    }
    label
}

/// The mesh (grid without wrap-around) with these sides, each ≥ 1.
pub fn mesh(sides: &[usize]) -> Result<Graph, NetworkError> {
    let mut label = "mesh".to_string();
    for s in sides {
        label.push_str(&format!(" {s}"));
    }
    Ok(Graph::from_ports(label, Topology::General, grid(sides, false))?.with_radix(sides.to_vec()))
}

/// K_M1 × K_M2 × …, mixed radix, first coordinate fastest.
pub fn gen_hypercube(sides: &[usize]) -> Result<Graph, NetworkError> {
    let n: usize = sides.iter().product();
    let lists = (0..n)
        .map(|x| {
            let mut list = Vec::new();
            let mut stride = 1usize;
            for &side in sides {
                let c = (x / stride) % side;
                let base = x - c * stride;
                list.extend(
                    (0..side)
                        .filter(|&c2| c2 != c)
                        .map(|c2| (base + c2 * stride) as u32),
                );
                stride *= side;
            }
            list
        })
        .collect();
    // K_M1 × K_M2 × … is the Cayley graph of Z_M1 × Z_M2 × … on every
    // non-zero element of one coordinate.
    Ok(Graph::from_ports("genhypercube", Topology::General, lists)?
        .vertex_transitive()
        .with_radix(sides.to_vec())
        .with_factor_sizes(sides.to_vec()))
}

/// G1 × G2 × …: nodes mixed radix with the first factor fastest, joined when
/// they differ in one coordinate and are joined there. A product of tori is
/// the torus of all their sides.
pub fn product(graphs: &[Graph]) -> Result<Graph, NetworkError> {
    let n = graphs
        .iter()
        .try_fold(1usize, |acc, g| acc.checked_mul(g.nodes()))
        .filter(|&n| n <= super::MAX_NODES)
        .ok_or(NetworkError::TooLarge)?;
    let lists = (0..n)
        .map(|x| {
            let mut list = Vec::new();
            let mut stride = 1usize;
            for graph in graphs {
                let side = graph.nodes();
                let c = (x / stride) % side;
                let base = x - c * stride;
                list.extend(
                    graph
                        .ports(c as u32)
                        .iter()
                        .map(|&c2| (base + c2 as usize * stride) as u32),
                );
                stride *= side;
            }
            list
        })
        .collect();
    let mut sides = Vec::new();
    for graph in graphs {
        match graph.topology() {
            Topology::Torus { sides: s } => sides.extend_from_slice(s),
            Topology::General => {
                // A product of vertex-transitive graphs is vertex-transitive
                // (translate each coordinate by its factor's automorphism).
                let transitive = graphs.iter().all(Graph::is_vertex_transitive);
                let factor_sizes = graphs
                    .iter()
                    .flat_map(|g| match g.factor_sizes() {
                        [] => vec![g.nodes()],
                        sizes => sizes.to_vec(),
                    })
                    .collect();
                let graph = Graph::from_ports("product", Topology::General, lists)?
                    .with_factor_sizes(factor_sizes);
                return Ok(if transitive {
                    graph.vertex_transitive()
                } else {
                    graph
                });
            }
        }
    }
    let label = torus_label(&sides);
    Graph::from_ports(label, Topology::Torus { sides }, lists)
}

impl Graph {
    /// The Cayley graph of `group` on `links`: node `e` (an element index) has
    /// port `i` to `e · links[i]`, leaving out a link that is the identity or
    /// repeats an earlier link's element. The graph is checked like any other
    /// (undirected and connected), so a replay or a simulation on it does not
    /// rest on the group's links being well chosen.
    pub fn cayley(group: &FiniteGroup, links: &[GenLetter]) -> Result<Graph, NetworkError> {
        let lists = group
            .elements()
            .map(|g| {
                let mut ports: Vec<u32> = Vec::with_capacity(links.len());
                for &s in links {
                    let h = group.apply(g, s).0;
                    if h != g.0 && !ports.contains(&h) {
                        ports.push(h);
                    }
                }
                ports
            })
            .collect();
        // Left multiplication by g·h⁻¹ maps h to g and keeps every link.
        Ok(Graph::from_ports("cayley graph", Topology::General, lists)?.vertex_transitive())
    }
}

#[cfg(test)]
mod tests {
    use super::super::NetworkName;
    use super::*;

    fn build(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    fn is_simple_undirected(n: &Graph) -> bool {
        (0..n.nodes() as u32).all(|x| {
            let nb = n.ports(x);
            nb.iter().all(|&y| y != x && n.adjacent(y, x))
                && nb.iter().enumerate().all(|(i, y)| !nb[..i].contains(y))
        })
    }

    #[test]
    fn families_have_the_documented_links() {
        let ring = build("ring 5");
        assert_eq!(ring.neighbours(0), &[1, 4]);
        assert_eq!(ring.directed_links(), 10);
        assert_eq!(build("ring 2").neighbours(0), &[1]);
        let line = build("linear 3");
        assert_eq!(line.neighbours(0), &[1]);
        assert_eq!(line.neighbours(1), &[0, 2]);
        // mesh 3 2: node x = c1 + 3·c2.
        let mesh = build("mesh 3 2");
        assert_eq!(mesh.neighbours(0), &[1, 3]);
        assert_eq!(mesh.ports(4), &[5, 3, 1]);
        assert_eq!(mesh.neighbours(4), &[1, 3, 5]);
        let torus = build("torus 3 3");
        assert_eq!(torus.ports(0), &[1, 2, 3, 6]);
        let cube = build("hypercube 3");
        assert_eq!(cube.ports(5), &[4, 7, 1]);
        assert_eq!(cube.neighbours(5), &[1, 4, 7]);
        assert_eq!(build("hypercube 0").nodes(), 1);
        let k4 = build("complete 4");
        assert_eq!(k4.neighbours(2), &[0, 1, 3]);
        assert_eq!(build("linear 1").directed_links(), 0);
        let gh = build("genhypercube 2 3");
        assert_eq!(gh.ports(0), &[1, 2, 4]);
        assert_eq!(gh.ports(3), &[2, 1, 5]);
    }

    #[test]
    fn ring_six_and_ring_two() {
        let r = build("ring 6");
        assert_eq!(r.ports(0), &[1, 5]);
        assert_eq!(r.ports(5), &[0, 4]);
        assert!(is_simple_undirected(&r));
        assert_eq!(r.distance(0, 3), 3);
        assert_eq!(r.distance(1, 5), 2);
        let two = build("ring 2");
        assert_eq!(two.directed_links(), 2);
        assert_eq!(two, build("torus 2"));
        assert_eq!(two, build("hypercube 1"));
        assert_eq!(two.label(), "ring 2");
    }

    #[test]
    fn hypercube_ports_flip_bits() {
        let h = build("hypercube 4");
        assert_eq!(h.directed_links(), 64);
        for x in 0..16u32 {
            let expect: Vec<u32> = (0..4).map(|i| x ^ (1 << i)).collect();
            assert_eq!(h.ports(x), expect.as_slice());
        }
        assert_eq!(h.distance(0b0101, 0b1010), 4);
        assert!(is_simple_undirected(&h));
    }

    #[test]
    fn torus_counts_and_size_two_dimensions() {
        let t = build("torus 3 2 5");
        assert_eq!(t.nodes(), 30);
        assert_eq!(t.regular_degree(), Some(5));
        assert_eq!(t.directed_links(), 30 * 5);
        assert!(is_simple_undirected(&t));
        assert_eq!(t.coordinates(1 + 3 + 6 * 4), Some(vec![1, 1, 4]));
        assert_eq!(t.node_name(1 + 3 + 6 * 4), "(1,1,4)");
    }

    #[test]
    fn closed_form_distance_matches_bfs() {
        for name in ["torus 5 4", "torus 2 3 4", "ring 7", "hypercube 4"] {
            let t = build(name);
            for x in 0..t.nodes() as u32 {
                let bfs = t.distances_to(x);
                for y in 0..t.nodes() as u32 {
                    assert_eq!(t.distance(x, y), bfs[y as usize]);
                }
            }
        }
    }

    #[test]
    fn distances_agree_with_the_closed_forms() {
        let ring = build("ring 7");
        let table = ring.all_distances(1 << 20).unwrap();
        for x in 0..7usize {
            for y in 0..7usize {
                let d = (x + 7 - y) % 7;
                assert_eq!(table[x * 7 + y] as usize, d.min(7 - d));
            }
        }
        let mesh = build("mesh 3 4");
        let to = mesh.distances_to(11);
        for (x, &d) in to.iter().enumerate() {
            assert_eq!(d as usize, (2 - x % 3) + (3 - x / 3));
        }
        assert!(ring.all_distances(10).is_none());
    }

    #[test]
    fn products_are_the_cartesian_product() {
        let product = build("ring 4 x ring 3");
        assert_eq!(product, build("torus 4 3"));
        assert_eq!(product.ports(0), build("torus 4 3").ports(0));
        assert_eq!(product.coordinates(5), Some(vec![1, 1]));
        assert_eq!(build("linear 3 x mesh 2 2"), build("mesh 3 2 2"));
        assert_eq!(build("complete 3 x complete 2"), build("genhypercube 3 2"));
        assert_eq!(build("star 3 x linear 2").nodes(), 12);
    }

    #[test]
    fn the_cyclic_group_of_order_five_is_the_five_ring() {
        // C5 = <a | a^5>; links a, a'. Action table: e·a = e + 1, e·a' = e − 1.
        let action = (0..5u32).flat_map(|e| [(e + 1) % 5, (e + 4) % 5]).collect();
        let group = FiniteGroup::from_action(vec!["a".into()], action).expect("a valid action");
        let a = GenLetter {
            generator: 0,
            inverse: false,
        };
        let graph = Graph::cayley(&group, &[a, a.inverted()]).unwrap();
        assert_eq!(graph, build("ring 5"));
        assert_eq!(graph.ports(0), &[1, 4]);
        assert_eq!(graph.label(), "cayley graph");
        // A repeated link or the identity adds no port.
        let again = Graph::cayley(&group, &[a, a, a.inverted()]).unwrap();
        assert_eq!(again.ports(3), &[4, 2]);
    }
}
