//! Network metrics of a Cayley network for `txverify bounds`: order, degree,
//! diameter, status, average distance, and the lower bounds for total
//! exchange that go with them — the K-port distance bound and the bisection
//! cut bound of tori and hypercubes from [`crate::bounds`] (where each is
//! derived, with its model), and the kernel's all-port bound for tables.
//!
//! Distances come from the group's one breadth-first search (a Cayley graph is
//! vertex-transitive, so the identity's status is every node's); the all-port
//! bound is the kernel's own ([`kernel::lower_bound`]), not recomputed here.

use crate::bounds::{Cut, cut, distance};
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
    /// Ports per node the K-port bound is stated for (1: single-port), as asked.
    pub ports: u64,
    /// ⌈status / min(ports, degree)⌉: every node's messages need `status` hops
    /// in all, and all nodes together make at most `min(ports, degree) · order`
    /// hops a step ([`distance::vertex_transitive_bound`]).
    pub single_port_bound: u64,
    /// The kernel's lower bound for tables under the file's `ports:`.
    pub all_port_bound: Option<u64>,
    /// The bisection bound of tori and hypercubes ([`cut::torus_cut`]) and of
    /// twisted tori ([`cut::coordinate_halvings`]), when the network is one.
    pub cut_bound: Option<Cut>,
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
    let order = group.order();
    let Some(status) = distance::status(&distances) else {
        return Err(MetricsError::Disconnected);
    };
    let diameter = distances.iter().copied().max().unwrap_or(0);
    let average_distance = if order > 1 {
        status as f64 / (order - 1) as f64
    } else {
        0.0
    };
    let degree = instance.links().len();
    Ok(Metrics {
        order,
        degree,
        diameter,
        status,
        average_distance,
        ports,
        single_port_bound: distance::vertex_transitive_bound(status, ports, degree as u64),
        all_port_bound: kernel::lower_bound(instance).map(|b| b.value),
        cut_bound: network.and_then(cut_of),
    })
}

/// The cut bound of a torus (the halving of one dimension, by its closed
/// form) or of a twisted torus (the halving of one coordinate, its crossing
/// links counted on the built graph).
fn cut_of(network: &NetworkName) -> Option<Cut> {
    match network {
        NetworkName::Twisted(sides) => {
            let graph = network.build().ok()?;
            let sides: Vec<usize> = sides.iter().map(|&s| s as usize).collect();
            cut::coordinate_halvings(&graph, &sides)
        }
        _ => cut::torus_cut(&network.torus_sides().ok()?),
    }
}
