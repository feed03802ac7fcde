//! A fast total-exchange schedule for networks SAT cannot reach: routing that
//! follows the flow, then list scheduling.
//!
//! 1. Routing ([`routes`]): balanced shortest paths, each hop over the least
//!    loaded link one hop closer; then min-congestion rerouting ([`flow`]):
//!    passes in which the messages of each destination are taken off their
//!    paths and routed again on cheapest paths under link lengths that grow
//!    steeply with the load, so that the busiest links are flattened and a
//!    path may be longer than the distance.
//! 2. Scheduling ([`list`]): every hop gets a step, by reservation (longest
//!    path first, each hop at the earliest free step of its link after the
//!    message arrived) and step by step (each link sends the waiting message
//!    with the most hops to go); the faster is kept.
//!
//! The result ([`Timed`]) keeps the routes as link ids and one step per hop
//! (8 bytes a send, against 20 for a [`TimedSend`]) and hands out its sends a
//! step at a time ([`Timed::for_each_step`]), so a caller can replay and write
//! a schedule it never holds whole.
//!
//! Nothing here is trusted: the caller replays the sends and judges them.

mod flatten;
mod flow;
mod list;
mod routes;
mod timed;

pub use list::Timed;

use txverify_core::network::Graph;
use txverify_core::schedule::TimedSend;

/// The most sends a schedule of [`list_schedule`] may have (it holds them
/// whole, 20 bytes each); [`plan`] holds 8 bytes a send and is limited by
/// [`MAX_PLANNED_SENDS`].
pub const MAX_SENDS: u64 = 1 << 25;

/// The most sends [`plan`] takes on: the routes, their steps and the
/// scheduler's queues take about 24 bytes a send at their peak (6 GB here).
pub const MAX_PLANNED_SENDS: u64 = 1 << 28;

/// The rerouting passes together take at most about this many hops (a small
/// network gets many passes, a large one few).
const REROUTE_HOPS: u64 = 100_000_000;

/// The fewest and most rerouting passes.
const PASSES: (u64, u64) = (2, 10);

/// The flattening's rounds together scan at most about this many hops.
const FLATTEN_HOPS: u64 = 2_000_000_000;

/// The most flattening rounds (each lowers the busiest load by one).
const FLATTEN_ROUNDS: u64 = 1000;

/// The earliest-arrival routing is tried up to this many hops on shortest
/// paths (a network of 1,000 nodes has about 10⁷).
const EARLIEST_HOPS: u64 = 20_000_000;

/// It needs the all-pairs distances: up to this many nodes.
const EARLIEST_NODES: usize = 8192;

/// The sends of a total exchange on `graph`, in step order (see [`plan`]).
pub fn list_schedule(graph: &Graph) -> Vec<TimedSend> {
    plan(graph).to_sends(graph)
}

/// Routes and schedules a total exchange on `graph` (the module notes): the
/// fastest of the flow routing list-scheduled both ways and, on networks
/// small enough, the earliest-arrival routing. The same schedule on every run.
pub fn plan(graph: &Graph) -> Timed {
    let n = graph.nodes() as u64;
    let links = graph.directed_links().max(1) as u64;
    let mut routes = routes::balanced(graph, 0);
    let hops = routes.total_hops().max(1);
    let passes = (REROUTE_HOPS / hops).clamp(PASSES.0, PASSES.1) as usize;
    // About as much work in the searches of one pass as in its walks, twice.
    let groups = (2 * hops / (n * links).max(1)).clamp(1, n.saturating_sub(1).max(1)) as usize;
    flow::reroute(graph, &mut routes, passes, groups);
    let rounds = (FLATTEN_HOPS / hops).clamp(1, FLATTEN_ROUNDS) as usize;
    flatten::flatten(graph, &mut routes, rounds);
    let mut best = list::reserve(graph, routes.clone(), 0);
    let other = list::farthest_first(graph, routes, 0);
    if other.time() < best.time() {
        best = other;
    }
    if hops <= EARLIEST_HOPS
        && let Ok(table) = graph.distance_table(EARLIEST_NODES)
    {
        let order = timed::longest_first(graph, &table, 1);
        let other = timed::earliest_arrival(graph, &table, &order, 0);
        if other.time() < best.time() {
            best = other;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    #[test]
    fn free_steps_hand_out_each_step_once() {
        let mut f = list::FreeSteps::default();
        assert_eq!(f.take_from(1), 1);
        assert_eq!(f.take_from(1), 2);
        assert_eq!(f.take_from(5), 5);
        assert_eq!(f.take_from(3), 3);
        assert_eq!(f.take_from(1), 4);
        assert_eq!(f.take_from(1), 6);
    }
}
