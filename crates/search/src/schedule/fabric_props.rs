//! Properties of the search on random small fabrics (apart from
//! `fabric.rs`, which the formulas import): the core's bounds never exceed
//! a schedule found and replayed, and SAT's refutations hold.

use super::StopToken;
use super::collective::{CollectiveSearchOptions, minimise_collective};
use super::fabric::construct_on_fabric;
use crate::options::SolverChoice;
use proptest::prelude::*;
use txverify_core::network::{FabricSpec, Graph};
use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, TimedSend, replay};

/// A connected fabric: `gpus` GPUs then `switches` forward-only nodes, a
/// path through them all, the `extra` links, capacities from `caps`.
fn fabric(gpus: u32, switches: u32, extra: &[(u32, u32)], caps: &[u64], multicast: bool) -> Graph {
    let n = gpus + switches;
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    let mut join = |a: u32, b: u32| {
        if a != b && !lists[a as usize].contains(&b) {
            lists[a as usize].push(b);
            lists[b as usize].push(a);
        }
    };
    for x in 1..n {
        join(x - 1, x);
    }
    for &(a, b) in extra {
        join(a % n, b % n);
    }
    for l in &mut lists {
        l.sort_unstable();
    }
    let g = Graph::from_adjacency(lists).unwrap();
    let mut spec = FabricSpec {
        forward_only: (gpus..n).collect(),
        multicast,
        ..FabricSpec::default()
    };
    for l in 0..g.directed_links() as u32 {
        let (a, b) = g.endpoints(l);
        spec.capacities.push((a, b, caps[l as usize % caps.len()]));
    }
    g.with_fabric(spec).unwrap()
}

fn replayed_time(graph: &Graph, collective: Collective, sends: &[TimedSend]) -> u32 {
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::All),
        collective,
        sends: sends.to_vec(),
    };
    let r = replay(&schedule, graph, &ReplayOptions::default()).unwrap();
    assert_eq!(r.violation_count(), 0, "{:?}", r.violations());
    r.time()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The core's bounds (throughput and fill among them) never exceed
    /// the time of a schedule the search finds and the replay accepts: the
    /// construction's, and SAT's least time where SAT runs; SAT's least
    /// time is never above a valid construction's (its refutations hold).
    #[test]
    fn no_bound_exceeds_a_schedule_the_replay_accepts(
        gpus in 2u32..5,
        switches in 0u32..3,
        extra in prop::collection::vec((0u32..7, 0u32..7), 0..4),
        caps in prop::collection::vec(1u64..3, 1..4),
        multicast in any::<bool>(),
        which in 0u8..4,
        chunks in 1u32..3,
    ) {
        let g = fabric(gpus, switches, &extra, &caps, multicast);
        let c = match which {
            0 => Collective::Allgather { chunks },
            1 => Collective::ReduceScatter { chunks },
            2 => Collective::Allreduce { chunks },
            _ => Collective::broadcast(0).with_chunks(chunks).unwrap(),
        };
        let bound = txverify_core::bounds::collective(&g, c, Ports::All).time.value();
        let made = construct_on_fabric(&g, c, Ports::All, &StopToken::default()).unwrap();
        let made = made.map(|m| replayed_time(&g, c, &m.sends));
        if let Some(t) = made {
            prop_assert!(u64::from(t) >= bound, "construction {t} below the bound {bound}");
        }
        {
            let options = CollectiveSearchOptions {
                network: "random".into(),
                certificate_dir: None,
                collective: c,
                ports: Ports::All,
                from: 1,
                to: 14,
                time_limit: None,
                solver: SolverChoice::Varisat,
                max_variables: 1 << 20,
                translate: false,
                deadline: None,
                stop: vec![],
            };
            let found = minimise_collective(&g, &options, &mut |_| {}).unwrap();
            if let Some(sends) = found.found {
                let t = replayed_time(&g, c, &sends);
                prop_assert!(u64::from(t) >= bound, "SAT's {t} below the bound {bound}");
                if let Some(m) = made {
                    prop_assert!(t <= m, "SAT's least {t} above a construction's {m}");
                }
            }
        }
    }
}
