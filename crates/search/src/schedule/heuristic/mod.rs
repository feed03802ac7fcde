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
        assert_eq!(f.peek(1), 7);
        assert_eq!(f.take_from(7), 7);
    }

    proptest::proptest! {
        /// The counting sort of the reservation order gives the comparison
        /// sort's order, on random path lengths (the links are not looked at).
        #[test]
        fn the_counting_sort_orders_as_the_comparison_sort(
            n in 2u32..9,
            lengths in proptest::collection::vec(0u32..7, 72),
        ) {
            let per = (n - 1) as usize;
            let mut it = lengths.iter().cycle();
            let blocks = (0..n)
                .map(|_| {
                    let mut b = routes::Block::default();
                    b.starts.push(0);
                    for _ in 0..per {
                        let end = b.starts.last().unwrap() + it.next().unwrap();
                        b.links.resize(end as usize, 0);
                        b.starts.push(end);
                    }
                    b
                })
                .collect();
            let r = routes::Routes { n, blocks };
            proptest::prop_assert_eq!(list::longest_first(&r, 0), list::longest_first_sorted(&r, 0));
            proptest::prop_assert_eq!(list::longest_first(&r, 3), list::longest_first_sorted(&r, 3));
        }
    }

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    /// `sends` replayed by the core's kernel: no violation, and its time.
    fn replayed_time(g: &Graph, sends: Vec<TimedSend>) -> u32 {
        use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, replay};
        let schedule = Schedule {
            network: None,
            ports: Some(Ports::All),
            collective: Collective::TotalExchange,
            sends,
        };
        let report = replay(&schedule, g, &ReplayOptions::default()).unwrap();
        assert_eq!(report.violation_count(), 0);
        report.time()
    }

    proptest::proptest! {
        /// The first schedule of an anytime run, on random connected graphs
        /// (a ring and chords): its routes, spread without loads, are
        /// shortest paths, and the schedule and the one [`improve`] makes
        /// from them replay valid in the core's kernel.
        #[test]
        fn the_spread_first_schedule_replays_valid_on_random_graphs(
            n in 3usize..20,
            chords in proptest::collection::vec((0usize..20, 0usize..20), 0..24),
        ) {
            let mut lists: Vec<Vec<u32>> = (0..n)
                .map(|i| {
                    let mut l = vec![((i + 1) % n) as u32, ((i + n - 1) % n) as u32];
                    l.dedup();
                    l
                })
                .collect();
            for (a, b) in chords {
                let (a, b) = (a % n, b % n);
                if a != b && !lists[a].contains(&(b as u32)) {
                    lists[a].push(b as u32);
                    lists[b].push(a as u32);
                }
            }
            let g = Graph::from_adjacency(lists).unwrap();
            let routes = routes::spread_until(&g, &never).unwrap();
            assert_paths(&g, &routes);
            for m in 0..routes.messages() {
                let (s, d) = routes.message(m);
                proptest::prop_assert_eq!(routes.hops(m).len() as u32, g.distance(s, d));
            }
            let first = quick(&g);
            proptest::prop_assert_eq!(replayed_time(&g, first.to_sends(&g)), first.time());
            let (better, _) = improve(&g, first, None, &never);
            let better = better.unwrap();
            proptest::prop_assert_eq!(replayed_time(&g, better.to_sends(&g)), better.time());
        }
    }

    /// Every message's path goes from its source to its destination over
    /// links that join.
    fn assert_paths(g: &Graph, routes: &routes::Routes) {
        for m in 0..routes.messages() {
            let (s, d) = routes.message(m);
            let mut at = s;
            for &l in routes.hops(m) {
                let (from, to) = g.endpoints(l);
                assert_eq!(from, at, "message {s} -> {d}");
                at = to;
            }
            assert_eq!(at, d, "message {s} -> {d}");
        }
    }

    #[test]
    fn rerouting_and_flattening_keep_paths_whole_and_lower_the_busiest_load() {
        // Two rings of 6 joined by one link: the bridge is the bottleneck,
        // and rerouting cannot make it lighter, but the rings' links flatten.
        let g = graph("mesh 3 6");
        let mut routes = routes::balanced(&g, 0);
        assert_paths(&g, &routes);
        let before = routes.max_load(&g);
        flow::reroute(&g, &mut routes, 4, 3, &|| false);
        assert_paths(&g, &routes);
        flatten::flatten(&g, &mut routes, 100, u64::MAX, &never);
        assert_paths(&g, &routes);
        assert!(routes.max_load(&g) <= before);
        // A mesh's middle links carry at least |A|·|V∖A| / cut messages.
        assert!(routes.max_load(&g) >= 9 * 9 / 3);
    }

    #[test]
    fn every_scheduler_gives_each_link_one_message_a_step_in_path_order() {
        let g = graph("torus 3 4");
        let routes = routes::balanced(&g, 0);
        let table = g.distance_table(64).unwrap();
        let order = timed::longest_first(&g, &table, 1);
        for timed in [
            quick(&g),
            quick_until(&g, &never).unwrap(),
            list::reserve(&g, routes.clone(), 0, &never).unwrap(),
            list::farthest_first(&g, routes.clone(), 0, &never).unwrap(),
            timed::earliest_arrival(&g, &table, &order, 0, &|| false).unwrap(),
        ] {
            let sends = timed.to_sends(&g);
            assert_eq!(sends.len() as u64, timed.sends());
            assert!(sends.windows(2).all(|w| w[0].step <= w[1].step));
            let mut used = std::collections::HashSet::new();
            let mut at = std::collections::HashMap::new();
            for s in &sends {
                assert!(used.insert((s.step, s.from, s.to)), "{s:?}");
                let (holder, since) = at
                    .insert((s.source, s.destination), (s.to, s.step))
                    .unwrap_or((s.source, 0));
                assert_eq!(holder, s.from);
                assert!(since < s.step);
            }
            assert_eq!(at.len(), 12 * 11);
            assert!(at.iter().all(|(&(_, d), &(h, _))| h == d));
            assert_eq!(sends.last().unwrap().step, timed.time());
        }
    }

    /// The sends handed out in small windows of steps are those handed out
    /// in one, step by step (each window is one pass over the routes).
    #[test]
    fn the_steps_handed_out_in_windows_are_the_same() {
        let g = graph("torus 3 5");
        let timed = quick(&g);
        let collect = |window: u64| {
            let mut steps = Vec::new();
            let _: Result<(), ()> = timed.for_each_step_in(&g, window, |batch| {
                steps.push(batch.to_vec());
                Ok(())
            });
            steps
        };
        let whole = collect(u64::MAX);
        assert_eq!(whole.len(), timed.time() as usize);
        assert_eq!(
            whole.iter().map(Vec::len).sum::<usize>() as u64,
            timed.sends()
        );
        for window in [1, 7, 100] {
            assert_eq!(collect(window), whole, "window {window}");
        }
    }

    /// A construction stopped before its first schedule has none and names
    /// every router cut; unstopped it runs them all (the earliest arrival
    /// where the network is small enough) and is [`plan`].
    #[test]
    fn a_stopped_construction_names_the_routers_it_cut() {
        let g = graph("torus 4 5");
        let (timed, routers) = plan_until(&g, None, &|| true, true);
        assert!(timed.is_none());
        assert!(routers.ran.is_empty());
        assert_eq!(
            routers.cut,
            [
                (Router::Shortest, Cut::Stopped),
                (Router::Rerouted, Cut::Stopped),
                (Router::EarliestArrival, Cut::Stopped)
            ]
        );
        let (timed, routers) = plan_until(&g, None, &|| false, true);
        let timed = timed.unwrap();
        assert_eq!(routers.ran, [Router::Rerouted, Router::EarliestArrival]);
        assert!(routers.cut.is_empty());
        assert_eq!(timed.time(), plan(&g).time());
        assert!(timed.time() <= quick(&g).time());
    }

    /// The first schedule looks at its stop between destinations and every
    /// few thousand messages, and ends with none at the first stop: a
    /// deadline holds however long the shortest paths take.
    #[test]
    fn a_stop_while_the_first_schedule_is_made_ends_it_at_once() {
        use std::cell::Cell;
        let g = graph("torus 4 5");
        let looked = Cell::new(0usize);
        let count = || {
            looked.set(looked.get() + 1);
            false
        };
        let whole = quick_until(&g, &count).unwrap();
        assert_eq!(whole.time(), quick(&g).time());
        let looks = looked.get();
        // Each of the 20 destinations, and the scheduling.
        assert!(looks > 20, "{looks}");
        for after in [0, looks / 2, looks - 1] {
            let seen = Cell::new(0usize);
            let stop = || {
                seen.set(seen.get() + 1);
                seen.get() > after
            };
            assert!(quick_until(&g, &stop).is_none(), "stopped after {after}");
        }
    }

    /// Over the hop limit of a run without a deadline (here 100 hops for
    /// a network of 400), the shortest paths alone, the others cut by size.
    #[test]
    fn over_the_hop_limit_only_the_shortest_paths_run() {
        let g = graph("torus 4 5");
        let (timed, routers) = plan_routers(&g, routes::balanced(&g, 0), &never, 100);
        assert!(timed.is_none());
        assert!(routers.ran.is_empty());
        assert_eq!(
            routers.cut,
            [
                (Router::Rerouted, Cut::Size),
                (Router::EarliestArrival, Cut::Size)
            ]
        );
        let hops = quick(&g).sends();
        let (timed, routers) = plan_routers(&g, routes::balanced(&g, 0), &never, hops);
        assert!(routers.cut.is_empty());
        assert!(timed.is_some());
    }

    /// The claim of docs/schedules-any.md on random regular graphs: the
    /// routes that follow the LP's flow are whole paths, and their schedule
    /// is within 3 % of the LP bound (on this 6-regular graph of 60 nodes the
    /// project's own routers end 16 % above it).
    #[test]
    fn following_the_lp_comes_within_three_per_cent_of_its_bound() {
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/networks/random60-6.edges"
        );
        let g = graph(&format!("edges {file}"));
        let (_, lp) = txverify_core::bounds::total_exchange_with_lp(
            &g,
            txverify_core::schedule::Ports::All,
            &txverify_core::bounds::lp::LpOptions::default(),
        );
        let lp = lp.unwrap();
        let flow = lp.per_source.as_deref().unwrap();
        assert_paths(&g, &lp_flow::follow(&g, flow));
        let timed = plan_with_flow(&g, Some(flow));
        let bound = lp.bound.value;
        assert!(u64::from(timed.time()) >= bound);
        assert!(
            u64::from(timed.time()) * 100 <= bound * 103,
            "{} against the LP bound {bound}",
            timed.time()
        );
        // Flows that do not fit the graph are refused, not followed.
        assert!(follow_flow(&g, &flow[1..]).is_none());
    }

    /// The claim of docs/schedules-any.md on a small torus: within 7 % of
    /// the distance bound on the 4×4×4 torus (34 steps against 32).
    #[test]
    fn a_small_torus_is_scheduled_near_its_bound() {
        let g = graph("torus 4 4 4");
        let timed = plan(&g);
        let g = &g;
        let hops: u64 = (0..64)
            .flat_map(|s| (0..64).map(move |d| u64::from(g.distance(s, d))))
            .sum();
        let bound = hops.div_ceil(g.directed_links() as u64);
        assert_eq!(bound, 32);
        assert!(
            u64::from(timed.time()) * 100 <= bound * 107,
            "{}",
            timed.time()
        );
        assert!(timed.time() >= 32);
    }

    /// A stop that comes while the rerouting runs ends it: the rerouted
    /// routes are not scheduled and the report names the rerouting as cut;
    /// as the stop stays, nothing else is scheduled after it either.
    #[test]
    fn a_stop_during_the_rerouting_cuts_it() {
        use std::cell::Cell;
        let g = graph("torus 4 5");
        let shortest_looks = Cell::new(0usize);
        routes::balanced_until(&g, 0, &|| {
            shortest_looks.set(shortest_looks.get() + 1);
            false
        })
        .unwrap();
        let polls = Cell::new(0usize);
        // The shortest paths and the look before the rerouting pass; the
        // rerouting's first look stops it.
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() > shortest_looks.get() + 1
        };
        let (timed, routers) = plan_until(&g, None, &stop, true);
        assert!(
            routers.cut.contains(&(Router::Rerouted, Cut::Stopped)),
            "{routers:?}"
        );
        assert!(!routers.ran.contains(&Router::Rerouted), "{routers:?}");
        assert!(timed.is_none());
    }

    /// A stop already set ends each phase before its work: the two list
    /// schedulers give nothing, the flattening leaves every route as it was,
    /// following a flow gives nothing and [`improve`] names every router cut.
    #[test]
    fn a_stop_set_before_a_phase_ends_the_phase() {
        let g = graph("torus 4 5");
        let routes = routes::balanced(&g, 0);
        assert!(list::reserve(&g, routes.clone(), 0, &|| true).is_none());
        assert!(list::farthest_first(&g, routes.clone(), 0, &|| true).is_none());
        let mut flattened = routes.clone();
        flatten::flatten(&g, &mut flattened, 100, u64::MAX, &|| true);
        assert!((0..routes.messages()).all(|m| routes.hops(m) == flattened.hops(m)));
        let flow = vec![vec![0.0; g.directed_links()]; g.nodes()];
        assert!(matches!(
            follow_flow_until(&g, &flow, &|| true),
            Followed::Stopped
        ));
        let (timed, routers) = improve(&g, quick(&g), Some(&flow), &|| true);
        assert!(timed.is_none());
        assert!(routers.ran.is_empty());
        assert_eq!(
            routers.cut,
            [
                (Router::Rerouted, Cut::Stopped),
                (Router::EarliestArrival, Cut::Stopped),
                (Router::FollowLp, Cut::Stopped)
            ]
        );
    }

    proptest::proptest! {
        /// The free steps of a link as bits hand out what a plain list of
        /// the taken steps says is the earliest free one, across words and
        /// full stretches of words.
        #[test]
        fn the_free_steps_are_the_earliest_untaken(
            asks in proptest::collection::vec(1u32..9000, 1..600),
        ) {
            let mut free = list::FreeSteps::default();
            let mut taken = std::collections::BTreeSet::new();
            for (i, &from) in asks.iter().enumerate() {
                // Crowd the start too, so that whole words fill up.
                let from = if i % 2 == 0 { 1 + from % 200 } else { from };
                let mut expected = from;
                while taken.contains(&expected) {
                    expected += 1;
                }
                proptest::prop_assert_eq!(free.peek(from), expected);
                proptest::prop_assert_eq!(free.take_from(from), expected);
                taken.insert(expected);
            }
        }
    }
}
