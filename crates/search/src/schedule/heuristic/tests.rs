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
