//! A fast total-exchange schedule for networks SAT cannot reach: routing that
//! follows the flow, then list scheduling; on networks of up to about 10⁷
//! hops, routing and scheduling at once; and, given the LP bound's flow,
//! routing along it. The fastest is kept.
//!
//! 1. Routing: balanced shortest paths (`routes.rs`), each hop over the least
//!    loaded link one hop closer; then min-congestion rerouting (`flow.rs`):
//!    passes in which the messages of each destination are taken off their
//!    paths and routed again on cheapest paths under link lengths that grow
//!    steeply with the load (a path may be longer than the distance); then
//!    the busiest links are flattened (`flatten.rs`): each message over a link
//!    of the highest load moves to the fewest-hop path that keeps every link
//!    below it, until that load comes down, again and again.
//! 2. Scheduling (`list.rs`): every hop gets a step, by reservation (longest
//!    path first, each hop at the earliest free step of its link after the
//!    message arrived) and step by step (each link sends the waiting message
//!    with the most hops to go).
//! 3. Earliest arrival (`timed.rs`): the messages, longest first, each take
//!    the shortest path that arrives earliest given the steps already taken
//!    (a few orders). On tori this packs the links almost perfectly (515
//!    steps on the 8×8×8 torus, whose bound is 512), where the list
//!    scheduling of near-evenly loaded links loses several per cent.
//!
//! 4. Following the LP ([`follow_flow`], `lp_flow.rs`): given the flow of the
//!    LP bound's best fractional routing, each message takes one of the paths
//!    that flow splits it over, then flattening and list scheduling as above.
//!    On random regular graphs this reaches the LP bound or a step above it
//!    where the routers above end 3 to 15 % higher (docs/schedules-any.md).
//!
//! The result ([`Timed`]) keeps the routes as link ids and one step per hop
//! (8 bytes a send, against 20 for a [`TimedSend`]) and hands out its sends a
//! step at a time ([`Timed::for_each_step`]), so a caller can replay and write
//! a schedule it never holds whole.
//!
//! Nothing here is trusted: the caller replays the sends and judges them.
//! The constructions of the collectives that copy or combine (broadcast,
//! reduce, allgather, reduce-scatter, allreduce) are [`collective`]'s.

pub mod collective;
mod flatten;
mod flow;
mod list;
mod lp_flow;
mod routes;
mod timed;

pub use list::Timed;

use std::time::Instant;
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

/// The flattening's work (hops scanned, links looked at) at most.
const FLATTEN_WORK: u64 = 4_000_000_000;

/// The most flattening rounds (each lowers the busiest load by one).
const FLATTEN_ROUNDS: u64 = 1000;

/// The earliest-arrival routing is tried up to this many hops on shortest
/// paths (a network of 1,000 nodes has about 10⁷).
const EARLIEST_HOPS: u64 = 20_000_000;

/// More orders of the earliest-arrival routing (seeds of the ties among
/// equally long messages) are tried while they take at most this many hops
/// in all.
const EARLIEST_TRIES_HOPS: u64 = 8_000_000;

/// The most orders tried.
const EARLIEST_TRIES: u64 = 16;

/// Without a deadline ([`plan_until`]'s `timed` false), the rerouting and
/// the earliest arrival run on networks of up to this many hops on shortest
/// paths (a 1,000-node torus has 7.5·10⁶, taking about 20 s of CPU with
/// them, against 5 s for the shortest paths alone); above it they are cut
/// (said in the report) and a deadline runs them until it comes.
pub const UNTIMED_ROUTER_HOPS: u64 = 10_000_000;

/// It needs the all-pairs distances: up to this many nodes.
const EARLIEST_NODES: usize = 8192;

/// The sends of a total exchange on `graph`, in step order (see [`plan`]).
pub fn list_schedule(graph: &Graph) -> Vec<TimedSend> {
    plan(graph).to_sends(graph)
}

/// A router of the construction (the module notes), as reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Router {
    /// Shortest paths, reservation-scheduled: spread in one walk for the
    /// first schedule of a run with a deadline ([`quick`], about a second of
    /// CPU on 1,000 nodes with its replay and writing), balanced by three
    /// walks by the loads otherwise ([`plan`]).
    Shortest,
    /// Min-congestion rerouting and flattening, list-scheduled both ways.
    Rerouted,
    /// Earliest arrival, in one or more orders.
    EarliestArrival,
    /// Along the LP bound's flow ([`follow_flow`]).
    FollowLp,
}

impl Router {
    /// The name in reports (text and JSON).
    pub fn name(self) -> &'static str {
        match self {
            Router::Shortest => "shortest",
            Router::Rerouted => "rerouted",
            Router::EarliestArrival => "earliest-arrival",
            Router::FollowLp => "follow-lp",
        }
    }
}

/// Why a router was not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The run was stopped first (its deadline, a signal).
    Stopped,
    /// The network is over the router's work limit (`EARLIEST_HOPS`,
    /// `EARLIEST_NODES`, [`UNTIMED_ROUTER_HOPS`] without a deadline).
    Size,
}

impl Cut {
    /// The reason in reports.
    pub fn name(self) -> &'static str {
        match self {
            Cut::Stopped => "stopped",
            Cut::Size => "size",
        }
    }
}

/// Which routers a construction ran, and which it cut and why: a schedule
/// made without the better routers says so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Routers {
    pub ran: Vec<Router>,
    pub cut: Vec<(Router, Cut)>,
}

impl Routers {
    fn note(&mut self, router: Router) {
        if !self.ran.contains(&router) {
            self.ran.push(router);
        }
    }

    fn cut(&mut self, router: Router, why: Cut) {
        if !self.cut.iter().any(|&(r, _)| r == router) {
            self.cut.push((router, why));
        }
    }
}

/// Whether `TXVERIFY_PROFILE` is set: each router's CPU-bound phases then
/// print their wall time on standard error (a debugging aid, no contract).
pub fn profiling() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("TXVERIFY_PROFILE").is_some())
}

/// Runs `f`, printing its wall time under `phase` when [`profiling`].
pub fn profiled<T>(phase: &str, f: impl FnOnce() -> T) -> T {
    if !profiling() {
        return f();
    }
    let start = Instant::now();
    let out = f();
    eprintln!("profile: {phase}: {:.3} s", start.elapsed().as_secs_f64());
    out
}

/// Never stops: the stop of a phase that must finish.
fn never() -> bool {
    false
}

/// The fast first schedule of an anytime search: shortest paths spread
/// evenly over the links that bring each message closer, in one walk
/// without loads, reservation-scheduled (no walks by the loads, no
/// rerouting, no earliest arrival: [`improve`] does those after the first
/// schedule is written).
pub fn quick(graph: &Graph) -> Timed {
    quick_until(graph, &never).expect("a construction that is never stopped ends with a schedule")
}

/// [`quick`], looking at `stop` between destinations and every few thousand
/// messages: `None` once it says stop, so that a deadline holds even on
/// networks whose first schedule takes longer than it.
pub fn quick_until(graph: &Graph, stop: &dyn Fn() -> bool) -> Option<Timed> {
    let routes = profiled("shortest routes, spread", || {
        routes::spread_until(graph, stop)
    })?;
    profiled("reservation scheduling", || {
        list::reserve(graph, routes, 0, stop)
    })
}

/// [`plan`], and with `flow` also [`follow_flow`]'s schedule: the faster.
pub fn plan_with_flow(graph: &Graph, flow: Option<&[Vec<f64>]>) -> Timed {
    plan_until(graph, flow, &never, true)
        .0
        .expect("a plan that is never stopped ends with a schedule")
}

/// [`plan_with_flow`] that stops its routers once `stop()` says so (each
/// phase asks it: the shortest paths between destinations, the rerouting
/// between destinations, the flattening every 1,024 messages, the
/// reservation every 4,096, the step-by-step scheduling every step, the
/// earliest arrival every 1,024 messages): the fastest schedule of the
/// routers that finished, and which ran and which were cut; when none
/// finished, the balanced shortest paths reservation-scheduled, and `None`
/// when the stop came before even that was made. `timed`: a deadline or a
/// signal will call the stop; without one (false) the rerouting and the
/// earliest arrival are cut over [`UNTIMED_ROUTER_HOPS`] hops.
pub fn plan_until(
    graph: &Graph,
    flow: Option<&[Vec<f64>]>,
    stop: &dyn Fn() -> bool,
    timed: bool,
) -> (Option<Timed>, Routers) {
    let limit = if timed { u64::MAX } else { UNTIMED_ROUTER_HOPS };
    let Some(shortest) = profiled("shortest routes", || routes::balanced_until(graph, 0, stop))
    else {
        return stopped_before_any(Routers::default(), flow.is_some());
    };
    let (best, mut routers) = improve_routes(graph, shortest.clone(), flow, stop, limit);
    if let Some(best) = best {
        return (Some(best), routers);
    }
    let scheduled = profiled("reservation scheduling", || {
        list::reserve(graph, shortest, 0, stop)
    });
    match scheduled {
        Some(best) => {
            routers.note(Router::Shortest);
            (Some(best), routers)
        }
        None => stopped_before_any(routers, flow.is_some()),
    }
}

/// Every router cut by a stop that came before any schedule was made (the
/// LP's among them when there was a flow to follow).
fn stopped_before_any(mut routers: Routers, flow: bool) -> (Option<Timed>, Routers) {
    routers.ran.clear();
    routers.cut.clear();
    for router in [Router::Shortest, Router::Rerouted, Router::EarliestArrival] {
        routers.cut(router, Cut::Stopped);
    }
    if flow {
        routers.cut(Router::FollowLp, Cut::Stopped);
    }
    (None, routers)
}

/// The routers after [`quick`], starting from `quick`'s routes (taken, so
/// its steps are freed): first its shortest paths walked again twice, each
/// hop over the least loaded closer link (as the balanced shortest paths of
/// [`plan`] are), reservation-scheduled; then from those the rerouting and flattening,
/// list-scheduled both ways, the earliest arrival, and along `flow`. Each
/// is stopped when `stop()` says so: the fastest schedule of those that
/// finished (`None` when none did), and which ran and which were cut
/// (`shortest` is not named: `quick` is the caller's).
pub fn improve(
    graph: &Graph,
    quick: Timed,
    flow: Option<&[Vec<f64>]>,
    stop: &dyn Fn() -> bool,
) -> (Option<Timed>, Routers) {
    let mut routes = quick.routes;
    let rebalanced = profiled("shortest routes, walked again", || {
        routes::rebalance_until(graph, &mut routes, 0, stop)
    });
    let balanced = rebalanced.and_then(|()| {
        profiled("reservation scheduling", || {
            list::reserve(graph, routes.clone(), 0, stop)
        })
    });
    let (best, routers) = improve_routes(graph, routes, flow, stop, u64::MAX);
    let best = match (best, balanced) {
        (Some(a), Some(b)) => Some(if b.time() < a.time() { b } else { a }),
        (a, b) => a.or(b),
    };
    (best, routers)
}

/// The routers from the balanced shortest paths `shortest` (the module
/// notes), over `limit` hops on shortest paths none but the LP's.
fn improve_routes(
    graph: &Graph,
    shortest: routes::Routes,
    flow: Option<&[Vec<f64>]>,
    stop: &dyn Fn() -> bool,
    limit: u64,
) -> (Option<Timed>, Routers) {
    let (mut best, mut routers) = plan_routers(graph, shortest, stop, limit);
    if let Some(f) = flow {
        match profiled("follow the LP", || follow_flow_until(graph, f, stop)) {
            Followed::Stopped => routers.cut(Router::FollowLp, Cut::Stopped),
            Followed::NotAFlow => {}
            Followed::Made(other) => {
                routers.note(Router::FollowLp);
                if best.as_ref().is_none_or(|b| other.time() < b.time()) {
                    best = Some(other);
                }
            }
        }
    }
    (best, routers)
}

/// What following a flow gave.
enum Followed {
    Made(Timed),
    /// The flow is not one vector of one entry per directed link for every node.
    NotAFlow,
    /// The stop came first.
    Stopped,
}

/// The routes that follow `flow`, the LP's routing source by source
/// (`LpSolution::per_source` of the core's LP bound; `lp_flow.rs`),
/// flattened and list-scheduled both ways: the faster. `None` when `flow` is
/// not one vector of one entry per directed link for every node.
pub fn follow_flow(graph: &Graph, flow: &[Vec<f64>]) -> Option<Timed> {
    match follow_flow_until(graph, flow, &never) {
        Followed::Made(timed) => Some(timed),
        Followed::NotAFlow | Followed::Stopped => None,
    }
}

/// [`follow_flow`], each phase stopped when `stop()` says so.
fn follow_flow_until(graph: &Graph, flow: &[Vec<f64>], stop: &dyn Fn() -> bool) -> Followed {
    let links = graph.directed_links();
    if flow.len() != graph.nodes() || flow.iter().any(|f| f.len() != links) {
        return Followed::NotAFlow;
    }
    if stop() {
        return Followed::Stopped;
    }
    let mut routes = lp_flow::follow(graph, flow);
    let hops = routes.total_hops().max(1);
    let rounds = (FLATTEN_HOPS / hops).clamp(1, FLATTEN_ROUNDS) as usize;
    flatten::flatten(graph, &mut routes, rounds, FLATTEN_WORK, stop);
    if stop() {
        return Followed::Stopped;
    }
    match faster_of_both(graph, routes, stop) {
        Some(timed) => Followed::Made(timed),
        None => Followed::Stopped,
    }
}

/// `routes` list-scheduled both ways (reservation, then step by step), each
/// stopped when `stop()` says so: the faster of those that finished.
fn faster_of_both(graph: &Graph, routes: routes::Routes, stop: &dyn Fn() -> bool) -> Option<Timed> {
    let reserved = profiled("reservation scheduling", || {
        list::reserve(graph, routes.clone(), 0, stop)
    });
    let stepped = profiled("list scheduling", || {
        list::farthest_first(graph, routes, 0, stop)
    });
    match (reserved, stepped) {
        (Some(a), Some(b)) => Some(if b.time() < a.time() { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Routes and schedules a total exchange on `graph` (the module notes): the
/// fastest of the flow routing list-scheduled both ways and, on networks
/// small enough, the earliest-arrival routing. The same schedule on every run.
pub fn plan(graph: &Graph) -> Timed {
    plan_with_flow(graph, None)
}

/// The rerouting and the earliest arrival from the balanced shortest paths
/// `routes`, each stopped once `stop()` says so (a rerouting or flattening
/// stopped is not scheduled), and over `limit` hops on shortest paths
/// neither: the faster of those that finished, if any.
fn plan_routers(
    graph: &Graph,
    mut routes: routes::Routes,
    stop: &dyn Fn() -> bool,
    limit: u64,
) -> (Option<Timed>, Routers) {
    let mut routers = Routers::default();
    let n = graph.nodes() as u64;
    let links = graph.directed_links().max(1) as u64;
    let hops = routes.total_hops().max(1);
    if hops > limit {
        routers.cut(Router::Rerouted, Cut::Size);
        routers.cut(Router::EarliestArrival, Cut::Size);
        return (None, routers);
    }
    let passes = (REROUTE_HOPS / hops).clamp(PASSES.0, PASSES.1) as usize;
    // About as much work in the searches of one pass as in its walks, twice.
    let groups = (2 * hops / (n * links).max(1)).clamp(1, n.saturating_sub(1).max(1)) as usize;
    let mut best = None;
    if stop() {
        routers.cut(Router::Rerouted, Cut::Stopped);
    } else {
        profiled("rerouting", || {
            flow::reroute(graph, &mut routes, passes, groups, stop)
        });
        let rounds = (FLATTEN_HOPS / hops).clamp(1, FLATTEN_ROUNDS) as usize;
        profiled("flattening", || {
            flatten::flatten(graph, &mut routes, rounds, FLATTEN_WORK, stop)
        });
        best = if stop() {
            None
        } else {
            faster_of_both(graph, routes, stop)
        };
        if best.is_some() {
            routers.note(Router::Rerouted);
        } else {
            routers.cut(Router::Rerouted, Cut::Stopped);
        }
    }
    let table = if hops <= EARLIEST_HOPS {
        graph.distance_table(EARLIEST_NODES).ok()
    } else {
        None
    };
    let Some(table) = table else {
        routers.cut(Router::EarliestArrival, Cut::Size);
        return (best, routers);
    };
    let tries = (EARLIEST_TRIES_HOPS / hops).clamp(1, EARLIEST_TRIES);
    for seed in 1..=tries {
        if stop() {
            // The orders tried so far are kept; none at all is a cut.
            if seed == 1 {
                routers.cut(Router::EarliestArrival, Cut::Stopped);
            }
            break;
        }
        let other = profiled("earliest arrival (one order)", || {
            let order = timed::longest_first(graph, &table, seed);
            timed::earliest_arrival(graph, &table, &order, 0, stop)
        });
        let Some(other) = other else {
            if seed == 1 {
                routers.cut(Router::EarliestArrival, Cut::Stopped);
            }
            break;
        };
        routers.note(Router::EarliestArrival);
        if best.as_ref().is_none_or(|b| other.time() < b.time()) {
            best = Some(other);
        }
    }
    (best, routers)
}

#[cfg(test)]
mod tests;
