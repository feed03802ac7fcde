//! The lower bounds of a total exchange on any connected graph,
//! vertex-transitive or not (an edge list, a mesh, a product, a Cayley graph):
//! the one function every command takes them from ([`total_exchange`]).
//!
//! The N(N − 1) messages need H = Σ_{x≠y} d(x, y) hops in all
//! ([`Graph::distance_sums`]), and in one step node x sends at most
//! min(K, deg x) messages one hop each, so no total exchange takes fewer than
//! ⌈H / Σ_x min(K, deg x)⌉ steps (single-port: ⌈H / N⌉, the average status
//! of seed 000; all-port: ⌈H / L⌉, the link load). Node x receives N − 1
//! distinct messages, at most min(K, deg x) a step: ⌈(N − 1) / min(K, δ)⌉,
//! δ the least degree (the intake bound). A message moves one hop a step: the
//! diameter. The cut bounds are [`super::cut_search`]'s, all-port and K-port,
//! over every cut of a small graph and, on a larger one, the cuts its search
//! finds, the cuts of each factor of a product times the other factors, and
//! the halvings of a grid's coordinates. On a tree every route is unique, so
//! node x forwards every message between two of the parts it separates,
//! besides its own N − 1: at least ⌈(N − 1 + through(x)) / min(K, deg x)⌉
//! steps (the node load; a path of m nodes gives m − 1 + ⌊(m − 1)²/2⌋
//! single-port, seed 000's linear-array bound). Every K-port schedule is an
//! all-port one, so each all-port bound is also a K-port bound and the K-port
//! figures are at least the all-port ones. The model is the one of
//! [`crate::bounds`]: any routing, any buffering; copies of a packet serve no
//! other destination, so they change none of these counts.

use super::cut::Cut;
use super::cut_search::{CutMethod, best_cut, better, cut_of};
use super::distance;
use super::lp;
use super::set::{BoundSet, counting_model, port_limit};
use crate::network::Graph;
use crate::schedule::Ports;

/// The figures and lower bounds of one graph under K ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphBounds {
    /// Nodes.
    pub order: u64,
    /// The least degree.
    pub degree_min: u64,
    /// The largest degree.
    pub degree_max: u64,
    /// The largest distance.
    pub diameter: u64,
    /// Σ_y d(0, y): the status of node 0.
    pub status: u64,
    /// Σ_{x,y} d(x, y) over all ordered pairs: the hops of a total exchange.
    pub total_status: u64,
    /// Directed links (L).
    pub directed_links: u64,
    /// The K of K-port (the ports asked for; `u64::MAX`: all ports).
    pub ports: u64,
    /// Σ_x min(K, deg x).
    pub port_capacity: u64,
    /// The best all-port cut found.
    pub cut: Option<Cut>,
    /// The best K-port cut found (the all-port one when K ≥ every degree).
    pub ports_cut: Option<Cut>,
    /// On a tree, the node load: max_x (N − 1 + messages through x) and the
    /// degree of that x (`None` on a graph with a cycle).
    node_load: Option<Vec<(u64, u64)>>,
}

impl GraphBounds {
    /// ⌈H / L⌉: the all-port distance bound.
    pub fn link_load_bound(&self) -> u64 {
        distance::distance_bound(self.total_status, self.directed_links)
    }

    /// ⌈H / Σ_x min(K, deg x)⌉: the K-port distance bound.
    pub fn ports_distance_bound(&self) -> u64 {
        distance::distance_bound(self.total_status, self.port_capacity)
    }

    /// ⌈(N − 1) / min(K, δ)⌉ (K = `ports`; `None`: all-port).
    pub fn intake_bound(&self, ports: Option<u64>) -> u64 {
        let k = ports.map_or(self.degree_min, |k| k.min(self.degree_min));
        distance::distance_bound(self.order.saturating_sub(1), k)
    }

    /// The node load of a tree under K ports (`None`: all-port); 0 on a graph
    /// with a cycle.
    pub fn node_load_bound(&self, ports: Option<u64>) -> u64 {
        self.node_load.as_ref().map_or(0, |loads| {
            loads
                .iter()
                .map(|&(sends, degree)| {
                    distance::distance_bound(sends, ports.map_or(degree, |k| k.min(degree)))
                })
                .max()
                .unwrap_or(0)
        })
    }

    /// The largest all-port bound.
    pub fn all_port_bound(&self) -> u64 {
        self.bound_set(Ports::All).value()
    }

    /// The largest K-port bound (K = `ports`), every all-port bound included.
    pub fn ports_bound(&self) -> u64 {
        self.bound_set(self.ports_model()).value()
    }

    /// The port model of `ports`.
    fn ports_model(&self) -> Ports {
        match u32::try_from(self.ports) {
            Ok(k) if self.ports < self.degree_max => Ports::Limit(k),
            _ => Ports::All,
        }
    }

    /// The named bounds of a total exchange under `ports`: the all-port ones,
    /// or the K-port ones when `ports` is `Ports::Limit(K)` with K the ports
    /// these figures were computed for (any other K: its distance, intake and
    /// node-load bounds and the all-port cut, which holds for every K).
    pub fn bound_set(&self, ports: Ports) -> BoundSet {
        BoundSet::new(counting_model(ports), self.named_bounds(ports))
    }

    /// The weights of the best all-port cut found (1 on its links either
    /// way), a candidate for the LP bound; `None` without a cut.
    pub fn cut_weights(&self, graph: &Graph) -> Option<Vec<u64>> {
        self.cut.as_ref().map(|c| lp::cut_weights(graph, &c.nodes))
    }

    /// The named bounds of [`GraphBounds::bound_set`], in its order.
    fn named_bounds(&self, ports: Ports) -> Vec<(u64, String)> {
        let asked = port_limit(ports).filter(|&k| k < self.degree_max);
        // The K-port distance and cut need figures for that K; for another K
        // the all-port ones stand (they hold under every K).
        let limit = asked.filter(|&k| k == self.ports);
        let (distance, distance_name) = match limit {
            None => (self.link_load_bound(), "link-load".to_string()),
            Some(1) => (self.ports_distance_bound(), "average-status".to_string()),
            Some(k) => (self.ports_distance_bound(), format!("{k}-port distance")),
        };
        let cut = match limit {
            Some(_) => self.ports_cut.as_ref(),
            None => self.cut.as_ref(),
        };
        let mut bounds = vec![
            (distance, distance_name),
            (self.intake_bound(asked), "intake".to_string()),
            (self.diameter, "diameter".to_string()),
        ];
        if let Some(c) = cut {
            bounds.push((c.steps(), format!("cut ({})", c.method)));
        }
        if self.node_load.is_some() {
            bounds.push((self.node_load_bound(asked), "node-load".to_string()));
        }
        bounds
    }
}

/// The lower bounds of a total exchange on `graph` under `ports`: the one
/// function every command takes them from.
pub fn total_exchange(graph: &Graph, ports: Ports) -> BoundSet {
    if super::collective::fabric::is_fabric(graph) {
        return super::collective::fabric::fabric_total_exchange(graph, ports);
    }
    let k = port_limit(ports).unwrap_or(u64::MAX);
    graph_bounds(graph, k).bound_set(ports)
}

/// The bounds of [`total_exchange`] and the LP bound beside them (named
/// [`lp::LP_BOUND_NAME`]; [`super::lp`]), with the weights that prove it.
/// Apart from [`total_exchange`] because the weights take a search (seconds
/// on a thousand nodes): only the commands that ask for it pay for it. The
/// search is given the distance weights (w = 1) and the best cut's weights as
/// candidates, so the LP bound is at least the link-load and cut bounds.
/// `None` for the weights on a graph without links (one node).
pub fn total_exchange_with_lp(
    graph: &Graph,
    ports: Ports,
    options: &lp::LpOptions,
) -> (BoundSet, Option<lp::LpSolution>) {
    // The LP's weights do not count capacities: left out on a fabric.
    if super::collective::fabric::is_fabric(graph) {
        return (total_exchange(graph, ports), None);
    }
    let k = port_limit(ports).unwrap_or(u64::MAX);
    let g = graph_bounds(graph, k);
    let solution = g.lp(graph, options);
    (g.bound_set_with_lp(ports, solution.as_ref()), solution)
}

/// The most nodes on which a schedule search states the LP bound by default
/// (`search --network`, with [`lp::LpOptions::for_search`]: seconds up to
/// here); beyond, only `bounds --network` computes it.
pub const LP_SEARCH_NODES: usize = 1024;

/// The most nodes on which `bounds --network` computes the LP bound unless
/// its certificate is asked for: its descent takes at least eight
/// shortest-path trees from every node, seconds on 2,048 nodes of degree 12
/// but minutes on 8,192; beyond, the report says it was skipped and why.
pub const LP_BOUNDS_NODES: usize = 2048;

impl GraphBounds {
    /// The LP bound's weights for `graph`, whose bounds these are: the
    /// distance weights (w = 1) and the best cut's weights are the search's
    /// candidates, so its bound is at least the link-load and cut bounds.
    /// `None` on a graph without links (one node).
    pub fn lp(&self, graph: &Graph, options: &lp::LpOptions) -> Option<lp::LpSolution> {
        let mut candidates = vec![vec![1; graph.directed_links()]];
        candidates.extend(self.cut_weights(graph));
        lp::optimise(graph, options, &candidates).ok()
    }

    /// [`GraphBounds::bound_set`] with the LP bound of `lp` beside the others
    /// (named [`lp::LP_BOUND_NAME`]; all-port, so it holds under any ports).
    pub fn bound_set_with_lp(&self, ports: Ports, lp: Option<&lp::LpSolution>) -> BoundSet {
        let mut bounds = self.named_bounds(ports);
        if let Some(s) = lp {
            bounds.push((s.bound.value, lp::LP_BOUND_NAME.to_string()));
        }
        BoundSet::new(counting_model(ports), bounds)
    }
}

/// The most work [`graph_bounds`] is given: its breadth-first search from
/// every node visits N·(N + L) nodes and directed links (2^31 takes about five
/// seconds of one core; the cut search is bounded on its own).
pub const MAX_ALL_PAIRS_WORK: u64 = 1 << 31;

/// A network too large for the all-pairs distances of [`graph_bounds`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the distances between all pairs of {nodes} nodes over {links} directed links take {work} steps (nodes × (nodes + links)), more than the limit of {MAX_ALL_PAIRS_WORK}"
)]
pub struct TooLargeForAllPairs {
    /// Nodes.
    pub nodes: u64,
    /// Directed links (or a bound on them, when estimated from a name).
    pub links: u64,
    /// Their work, N·(N + L).
    pub work: u64,
}

/// Whether a network of `nodes` nodes and `links` directed links is within
/// [`MAX_ALL_PAIRS_WORK`]; checked before the network is built when its name
/// gives the two.
pub fn check_all_pairs(nodes: u64, links: u64) -> Result<(), TooLargeForAllPairs> {
    let work = nodes.saturating_mul(nodes.saturating_add(links));
    if work > MAX_ALL_PAIRS_WORK {
        return Err(TooLargeForAllPairs { nodes, links, work });
    }
    Ok(())
}

/// Computes [`GraphBounds`] of a connected `graph` under `ports` ports (K ≥ 1;
/// `u64::MAX`: all ports).
pub fn graph_bounds(graph: &Graph, ports: u64) -> GraphBounds {
    graph_bounds_before_cuts(graph, ports).with_cuts(graph)
}

/// [`graph_bounds`] without the cut search (`cut` and `ports_cut` are
/// `None`): the distances, degrees and node load, a breadth-first search
/// from every node. An anytime search judges its first schedule against
/// these and searches the cuts after writing it (the cut search takes
/// seconds on a thousand nodes); [`GraphBounds::with_cuts`] adds them.
pub fn graph_bounds_before_cuts(graph: &Graph, ports: u64) -> GraphBounds {
    let n = graph.nodes() as u32;
    let sums = graph.distance_sums();
    let degrees = (0..n).map(|x| graph.degree(x) as u64);
    let degree_min = degrees.clone().min().unwrap_or(0);
    let degree_max = degrees.max().unwrap_or(0);
    GraphBounds {
        order: u64::from(n),
        degree_min,
        degree_max,
        diameter: sums.diameter,
        status: sums.status,
        total_status: sums.total,
        directed_links: graph.directed_links() as u64,
        ports,
        port_capacity: distance::port_capacity(graph, (ports < u64::MAX).then_some(ports)),
        cut: None,
        ports_cut: None,
        node_load: node_load(graph),
    }
}

impl GraphBounds {
    /// These figures with the best cuts of `graph` (the one they were
    /// computed on) searched: [`graph_bounds`]'s.
    pub fn with_cuts(self, graph: &Graph) -> GraphBounds {
        let ports = self.ports;
        let cut = better(best_cut(graph, None), structured_cut(graph, None));
        let ports_cut = if ports >= self.degree_max {
            cut.clone()
        } else {
            // The best all-port side is a K-port cut too, perhaps a better one.
            let all_port_side = cut
                .as_ref()
                .and_then(|c| cut_of(graph, &c.nodes, Some(ports), c.method));
            let searched = better(
                best_cut(graph, Some(ports)),
                structured_cut(graph, Some(ports)),
            );
            better(searched, all_port_side)
        };
        GraphBounds {
            cut,
            ports_cut,
            ..self
        }
    }
}

/// The cuts a graph's structure offers beyond the search: on a graph too
/// large for every cut to be tried, each factor's best cut times the other
/// factors (a product, a torus), and the halving of each coordinate of a grid.
fn structured_cut(graph: &Graph, ports: Option<u64>) -> Option<Cut> {
    if graph.nodes() <= super::cut_search::EXHAUSTIVE_NODES {
        return None;
    }
    let mut best = None;
    let mut stride = 1usize;
    for (i, &side) in graph.factor_sizes().iter().enumerate() {
        best = better(best, factor_cut(graph, stride, side, i + 1, ports));
        stride *= side;
    }
    let mut stride = 1usize;
    for (i, &side) in graph.radix().iter().enumerate() {
        let in_a: Vec<u32> = (0..graph.nodes() as u32)
            .filter(|&x| (x as usize / stride) % side < side / 2)
            .collect();
        let method = CutMethod::Halving { dimension: i + 1 };
        best = better(best, cut_of(graph, &in_a, ports, method));
        stride *= side;
    }
    best
}

/// The best cut of the factor of `side` nodes at `stride` (the nodes whose
/// other coordinates are 0), times every other factor: A = A_i × the rest.
/// Every copy of the factor adds its own crossing links, so the cut of the
/// product is evaluated link by link on the product itself.
fn factor_cut(
    graph: &Graph,
    stride: usize,
    side: usize,
    dimension: usize,
    ports: Option<u64>,
) -> Option<Cut> {
    if side < 2 {
        return None;
    }
    let lists: Vec<Vec<u32>> = (0..side)
        .map(|c| {
            graph
                .neighbours((c * stride) as u32)
                .iter()
                .filter(|&&y| (y as usize).is_multiple_of(stride) && (y as usize) < side * stride)
                .map(|&y| (y as usize / stride) as u32)
                .collect()
        })
        .collect();
    let factor = Graph::from_adjacency(lists).ok()?;
    let found = best_cut(&factor, ports)?;
    let in_side: Vec<bool> = {
        let mut v = vec![false; side];
        found.nodes.iter().for_each(|&c| v[c as usize] = true);
        v
    };
    let a: Vec<u32> = (0..graph.nodes() as u32)
        .filter(|&x| in_side[(x as usize / stride) % side])
        .collect();
    let method = CutMethod::Dimension {
        dimension,
        factor_exhaustive: found.method == CutMethod::Exhaustive,
    };
    cut_of(graph, &a, ports, method)
}

/// On a tree (N − 1 edges), for every node x: the messages x must send,
/// its own N − 1 and every message between two parts of the tree without x
/// (routes are unique), with x's degree. `None` on a graph with a cycle.
fn node_load(graph: &Graph) -> Option<Vec<(u64, u64)>> {
    let n = graph.nodes();
    if n < 2 || graph.directed_links() != 2 * (n - 1) {
        return None;
    }
    // Breadth-first order from node 0, each node's parent, then subtree sizes.
    let mut order = vec![0u32];
    let mut parent = vec![u32::MAX; n];
    parent[0] = 0;
    let mut i = 0;
    while let Some(&x) = order.get(i) {
        for &y in graph.neighbours(x) {
            if parent[y as usize] == u32::MAX {
                parent[y as usize] = x;
                order.push(y);
            }
        }
        i += 1;
    }
    let mut size = vec![1u64; n];
    for &x in order.iter().skip(1).rev() {
        size[parent[x as usize] as usize] += size[x as usize];
    }
    let total = n as u64 - 1;
    let loads = (0..n as u32)
        .map(|x| {
            let mut parts: Vec<u64> = graph
                .neighbours(x)
                .iter()
                .filter(|&&y| y != parent[x as usize] || x == 0)
                .filter(|&&y| parent[y as usize] == x)
                .map(|&y| size[y as usize])
                .collect();
            let below: u64 = parts.iter().sum();
            if x != 0 {
                parts.push(total - below);
            }
            let squares: u64 = parts.iter().map(|p| p * p).sum();
            let through = total * total - squares;
            (total + through, graph.degree(x) as u64)
        })
        .collect();
    Some(loads)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn a_path_of_four() {
        // 0-1-2-3: H = 2·(1+2+3+1+2+1) = 20, L = 6, ⌈20/6⌉ = 4; the middle
        // cut is 2·2 / 1 = 4; node 0 receives 3 messages on one link: 3.
        let g = graph("linear 4");
        let b = graph_bounds(&g, 1);
        assert_eq!(
            (b.order, b.degree_min, b.degree_max, b.diameter),
            (4, 1, 2, 3)
        );
        assert_eq!((b.status, b.total_status), (6, 20));
        assert_eq!(b.link_load_bound(), 4);
        assert_eq!(b.cut.as_ref().unwrap().steps(), 4);
        assert_eq!(b.all_port_bound(), 4);
        // Single-port: Σ min(1, deg) = 4, ⌈20 / 4⌉ = 5.
        assert_eq!(b.ports_distance_bound(), 5);
        // The node load: node 1 sends its own 3 and forwards 1·2 each way: 7.
        assert_eq!(b.node_load_bound(Some(1)), 7);
        assert_eq!(b.ports_bound(), 7);
    }

    #[test]
    fn the_node_load_of_a_path_is_the_seed_s_linear_array_bound() {
        for m in 2..=9u64 {
            let g = graph(&format!("linear {m}"));
            let set = total_exchange(&g, Ports::Limit(1));
            let seed = m - 1 + (m - 1) * (m - 1) / 2;
            assert_eq!(set.named("node-load").unwrap().value(), seed, "linear {m}");
            assert!(set.value() >= seed);
        }
        assert!(
            total_exchange(&graph("ring 6"), Ports::Limit(1))
                .named("node-load")
                .is_none()
        );
    }

    #[test]
    fn the_best_is_the_largest_and_every_bound_states_its_model() {
        for name in [
            "ring 8",
            "torus 4 4",
            "hypercube 3",
            "mesh 3 5",
            "ring 5 x linear 3",
        ] {
            let g = graph(name);
            for ports in [Ports::All, Ports::Limit(1), Ports::Limit(2)] {
                let set = total_exchange(&g, ports);
                let largest = set.bounds().iter().map(|b| b.value()).max().unwrap();
                assert_eq!(set.value(), largest, "{name}");
                assert!(set.bounds().iter().all(|b| b.model().ports() == ports));
            }
            // Fewer ports can only slow a schedule down.
            let all = total_exchange(&g, Ports::All).value();
            assert!(total_exchange(&g, Ports::Limit(1)).value() >= all, "{name}");
        }
    }

    #[test]
    fn a_large_product_gets_its_factor_cut() {
        // 5 × 5 × 2 = 50 nodes: too many for every cut; the ring 5 factor's
        // cut (2 · 3 / 2) times 10 copies: 60 · 10 / 20 → 30.
        let g = graph("ring 5 x ring 5 x linear 2");
        let b = graph_bounds(&g, u64::MAX);
        let cut = b.cut.unwrap();
        assert!(cut.steps() >= 30, "{cut:?}");
        // Ring 8: exhaustively 16 / 2 = 8, with the all-port distance bound 8.
        assert_eq!(total_exchange(&graph("ring 8"), Ports::All).value(), 8);
    }
}
