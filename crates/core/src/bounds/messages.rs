//! The lower bound of an exchange of any message set (the FIFO algorithm's
//! `messages:` lines): packet `(s, d)` for every `d` of `destinations[s]`.
//!
//! The packets need H = Σ d(s, d) sends in all and a step makes at most
//! Σ_x min(K, deg x) of them, so T ≥ ⌈H / capacity⌉; a packet moves one hop
//! a step, so T ≥ the farthest destination. For one port on a Cayley graph
//! numbered by the group, H / N is Σ_{w ∈ M} d(w), the status of the message
//! set (seed 004, docs/single-port.md). When the message set is every pair,
//! the exchange is a total exchange and its bounds are
//! [`super::total_exchange`]'s, so that every command states the same bound
//! for the same graph and model. Copies and buffering change none of these
//! counts.

use super::distance::{distance_bound, packet_hops, port_capacity};
use super::set::{BoundSet, counting_model, port_limit};
use crate::network::Graph;
use crate::schedule::Ports;

/// The bounds of delivering every packet `(s, d)`, `d ∈ destinations[s]`, on
/// `graph` under `ports`.
pub fn message_set(graph: &Graph, destinations: &[Vec<u32>], ports: Ports) -> BoundSet {
    let n = graph.nodes();
    let every_pair = destinations.len() == n
        && destinations
            .iter()
            .enumerate()
            .all(|(s, ds)| ds.len() == n - 1 && ds.iter().all(|&d| d as usize != s));
    if every_pair {
        return super::total_exchange(graph, ports);
    }
    let (hops, farthest) = packet_hops(graph, destinations);
    let name = match ports {
        Ports::Limit(1) => "status of the message set".to_string(),
        Ports::Limit(k) => format!("{k}-port counting bound (hops over sends per step)"),
        Ports::All => "all-port counting bound (hops over directed links)".to_string(),
    };
    let counting = distance_bound(hops, port_capacity(graph, port_limit(ports)));
    BoundSet::new(
        counting_model(ports),
        vec![
            (counting, name),
            (farthest, "farthest destination".to_string()),
        ],
    )
}
