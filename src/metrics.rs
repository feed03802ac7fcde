//! Network metrics and lower bounds for total exchange on a Cayley network:
//! order, degree, diameter, status (seed 004, eq. 3: the single-port bound),
//! average distance, the kernel's all-port bound, and the bisection cut bound
//! of tori and hypercubes (seed 000, eq. 4).
//!
//! Distances come from the group's one breadth-first search; the all-port bound
//! is the kernel's own ([`kernel::lower_bound`]), not recomputed here.

use crate::kernel::{self, Instance};
use crate::network::NetworkName;

/// The figures `txverify bounds` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// Nodes (the group's order).
    pub order: usize,
    /// Links per node (|S|).
    pub degree: usize,
    /// The largest distance from a node.
    pub diameter: u32,
    /// The sum of the distances from a node to every other (the same for every
    /// node of a Cayley graph).
    pub status: u64,
    /// `status / (order − 1)` (0 for one node).
    pub average_distance: f64,
    /// Ports per node the single-port bound is stated for (1: single-port).
    pub ports: u64,
    /// ⌈status / ports⌉: every node's messages need `status` hops in all, and
    /// all nodes together make at most `ports · order` hops a step.
    pub single_port_bound: u64,
    /// The kernel's lower bound for tables under the file's `ports:`.
    pub all_port_bound: Option<u64>,
    /// The bisection bound of tori and hypercubes, when the network is one.
    pub cut_bound: Option<CutBound>,
}

/// ⌈|V1||V2| / C(V1, V2)⌉ for the best cut that halves one dimension: every
/// message from V1 to V2 crosses the cut, and C directed links cross it in that
/// direction, each carrying one message a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutBound {
    /// The bound.
    pub value: u64,
    /// The dimension cut (1-based).
    pub dimension: usize,
    /// |V1|, the smaller side.
    pub smaller_side: u64,
    /// |V2|.
    pub larger_side: u64,
    /// Directed links from V1 to V2.
    pub crossing_links: u64,
}

/// Why the metrics cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MetricsError {
    /// The links do not reach every node.
    #[error("the link set does not connect the group's elements")]
    Disconnected,
    /// `--ports 0`.
    #[error("ports must be at least 1")]
    NoPorts,
}

/// The metrics of `instance`'s Cayley graph; `network` is the torus or hypercube
/// it is (declared or recognised), for the cut bound; `ports` is the K of the
/// K-port bound (1: single-port).
pub fn metrics(
    instance: &Instance,
    network: Option<&NetworkName>,
    ports: u64,
) -> Result<Metrics, MetricsError> {
    if ports == 0 {
        return Err(MetricsError::NoPorts);
    }
    let group = instance.group();
    let distances = group.distances_from_identity(instance.links());
    if distances.contains(&u32::MAX) {
        return Err(MetricsError::Disconnected);
    }
    let order = group.order();
    let status: u64 = distances.iter().map(|&d| u64::from(d)).sum();
    let diameter = distances.iter().copied().max().unwrap_or(0);
    let average_distance = if order > 1 {
        status as f64 / (order - 1) as f64
    } else {
        0.0
    };
    Ok(Metrics {
        order,
        degree: instance.links().len(),
        diameter,
        status,
        average_distance,
        ports,
        single_port_bound: status.div_ceil(ports),
        all_port_bound: kernel::lower_bound(instance).map(|b| b.value),
        cut_bound: network
            .and_then(|kind| kind.torus_sides().ok())
            .and_then(|s| cut_bound(&s)),
    })
}

/// The best one-dimension bisection bound of the torus with these sides (a
/// hypercube is the torus of sides 2): the cut halving dimension i at
/// ⌊n_i / 2⌋ is crossed, in one direction, by N / n_i links when n_i = 2 (one
/// link per pair) and 2N / n_i otherwise (the cut and the wrap-around).
pub fn cut_bound(sides: &[usize]) -> Option<CutBound> {
    let nodes: u64 = sides.iter().map(|&n| n as u64).product();
    sides
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n >= 2)
        .map(|(i, &n)| {
            let n = n as u64;
            let smaller_side = (n / 2) * (nodes / n);
            let larger_side = nodes - smaller_side;
            let crossing_links = if n == 2 { nodes / 2 } else { 2 * nodes / n };
            CutBound {
                value: (smaller_side * larger_side).div_ceil(crossing_links),
                dimension: i + 1,
                smaller_side,
                larger_side,
                crossing_links,
            }
        })
        .max_by_key(|c| (c.value, std::cmp::Reverse(c.dimension)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the links from {x : x_i < n_i / 2} to the rest by listing every
    /// node's neighbours.
    fn crossing_by_enumeration(sides: &[usize], dim: usize) -> u64 {
        let nodes: usize = sides.iter().product();
        let coords = |mut x: usize| -> Vec<usize> {
            sides
                .iter()
                .map(|&n| {
                    let c = x % n;
                    x /= n;
                    c
                })
                .collect()
        };
        let mut count = 0;
        for x in 0..nodes {
            let c = coords(x);
            if c[dim] >= sides[dim] / 2 {
                continue;
            }
            let mut seen = std::collections::BTreeSet::new();
            for delta in [1, sides[dim] - 1] {
                let y = (c[dim] + delta) % sides[dim];
                if y >= sides[dim] / 2 {
                    seen.insert(y);
                }
            }
            count += seen.len() as u64;
        }
        count
    }

    #[test]
    fn cut_links_match_an_enumeration_of_the_torus() {
        for sides in [
            vec![4, 4],
            vec![5, 5],
            vec![2, 2, 2, 2],
            vec![3, 6],
            vec![8],
        ] {
            let best = cut_bound(&sides).unwrap();
            let counted = crossing_by_enumeration(&sides, best.dimension - 1);
            assert_eq!(best.crossing_links, counted, "{sides:?}");
        }
    }

    #[test]
    fn cut_bounds_of_known_networks() {
        // The 4-cube: 8 · 8 / 8 = 8 = 2^(d−1); the 5 × 5 torus: 10 · 15 / 10 = 15;
        // the 6-ring: 3 · 3 / 2 = 4.5, so 5.
        assert_eq!(cut_bound(&[2, 2, 2, 2]).unwrap().value, 8);
        assert_eq!(cut_bound(&[5, 5]).unwrap().value, 15);
        assert_eq!(cut_bound(&[6]).unwrap().value, 5);
        // 4 × 8: halving the side 8 gives 16 · 16 / 8 = 32, the side 4 16 · 16 / 16 = 16.
        let c = cut_bound(&[4, 8]).unwrap();
        assert_eq!((c.value, c.dimension), (32, 2));
    }
}
