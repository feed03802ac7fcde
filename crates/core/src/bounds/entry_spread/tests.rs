use super::*;
use crate::network::NetworkName;

fn named(name: &str) -> Graph {
    name.parse::<NetworkName>().unwrap().build().unwrap()
}

#[test]
fn two_dgx1_joined_by_one_nic_need_two_steps_of_spread() {
    // 8C items enter a machine one a step: the last first enters at step
    // 8C at one GPU, which reaches its 4 neighbours and one more crossing
    // the step after (6 of 8), all 8 the step after that.
    let g = named("cluster 2 1 dgx1");
    for chunks in 1..=4u32 {
        let c = Collective::Allgather { chunks };
        let fill = fill::best(&g, c, Some(&(0..8).collect::<Vec<_>>())).unwrap();
        assert_eq!(fill.steps, 8 * u64::from(chunks));
        let cut = best(&g, c, Some(&(0..8).collect::<Vec<_>>())).unwrap();
        assert_eq!(cut.steps, 8 * u64::from(chunks) + 2, "{chunks} chunks");
        assert_eq!(cut.set, (0..8).collect::<Vec<u32>>());
        assert_eq!((cut.fill, cut.last_entry), (cut.steps - 2, cut.steps - 2));
        assert_eq!((cut.entry_nodes, cut.spread, cut.exact), (1, 2, true));
        assert_eq!(recheck(&g, c, &cut.set).unwrap(), cut);
    }
}

#[test]
fn a_gpu_alone_has_no_spread_and_keeps_the_fill_bound() {
    let g = named("nvswitch 8");
    for chunks in 1..=3u32 {
        let c = Collective::Allgather { chunks };
        let cut = recheck(&g, c, &[0]).unwrap();
        assert_eq!(cut.steps, 7 * u64::from(chunks) + 1);
        assert_eq!(cut.spread, 0);
        // It adds nothing to the fill bound, so it is not stated.
        assert!(best(&g, c, None).is_none());
    }
}

#[test]
fn the_ramp_is_summed_and_read_step_by_step() {
    let ramp = [
        Ramp {
            from_step: 2,
            capacity: 1,
        },
        Ramp {
            from_step: 4,
            capacity: 3,
        },
    ];
    let sums: Vec<u64> = (0..7).map(|t| carried(&ramp, t)).collect();
    assert_eq!(sums, [0, 0, 1, 2, 5, 8, 11]);
    let each: Vec<u64> = (0..7).map(|t| at(&ramp, t)).collect();
    assert_eq!(each, [0, 0, 1, 1, 3, 3, 3]);
}

/// A path of `n` nodes inside S, entered at its first node only.
fn path(n: usize, per_step: u64) -> Inside {
    let next = (0..n)
        .map(|i| {
            let mut out = 0u64;
            if i > 0 {
                out |= 1 << (i - 1);
            }
            if i + 1 < n {
                out |= 1 << (i + 1);
            }
            out
        })
        .collect();
    Inside {
        next,
        entries: 1,
        gpus: (1u64 << n) - 1,
        per_step,
    }
}

#[test]
fn the_exact_spread_is_never_below_the_count() {
    // A path entered at one end: the far end is n − 1 hops away.
    for n in 1..8usize {
        let s = path(n, 1);
        assert_eq!(exact_spread(&s, 1), Some(n as u64 - 1));
        assert!(counted_spread(&s, 1) < n as u64);
    }
    // Entered anywhere, two new holders a step: every node is an entry.
    let mut s = path(6, 2);
    s.entries = (1 << 6) - 1;
    let exact = exact_spread(&s, 1).unwrap();
    assert!(counted_spread(&s, 1) <= exact);
    // One holder, its 2 neighbours and 2 entries are 5 of 6: a second step.
    assert_eq!(exact, 2);
}

#[test]
fn subsets_are_every_choice_once() {
    assert_eq!(subsets(0b1011, 2, 100).unwrap(), [0b0011, 0b1001, 0b1010]);
    assert_eq!(subsets(0b1011, 5, 100).unwrap(), [0b1011]);
    assert!(subsets(u64::MAX, 8, 1000).is_none());
    assert_eq!(choose(64, 8), 4_426_165_368);
}

#[test]
fn only_collectives_whose_items_every_gpu_needs_get_it() {
    let g = named("cluster 2 1 dgx1");
    let set: Vec<u32> = (0..8).collect();
    assert!(recheck(&g, Collective::ReduceScatter { chunks: 1 }, &set).is_err());
    assert!(recheck(&g, Collective::TotalExchange, &set).is_err());
    assert!(matches!(
        recheck(&g, Collective::Allgather { chunks: 1 }, &[99]),
        Err(NotAProof::UnknownNode(99))
    ));
    // A broadcast from machine 1's GPU 8 into machine 0: 1 chunk, then
    // spread from the one GPU it first enters.
    let b = recheck(&g, Collective::broadcast(8), &set).unwrap();
    assert_eq!(b.steps, 1 + 2);
}

#[test]
fn over_the_state_limit_the_spread_is_counted() {
    // 64 nodes, each an entry and a GPU, no links inside: 64 choose 8
    // first holder sets are over the limit, so the exact search stops
    // before making them and the count is used.
    let s = Inside {
        next: vec![0; MAX_SPREAD_NODES],
        entries: u64::MAX,
        gpus: u64::MAX,
        per_step: 8,
    };
    assert!(choose(64, 8) > MAX_SPREAD_STATES);
    assert_eq!(exact_spread(&s, 8), None);
    // 8 holders, 8 more a step: 7 steps to 64.
    assert_eq!(counted_spread(&s, 8), 7);
    let fill = FillCut {
        steps: 10,
        set: (0..64).collect(),
        items: 10,
        capacity: 8,
        ramp: vec![Ramp {
            from_step: 1,
            capacity: 1,
        }],
    };
    let cut = bound(&fill, Some(&s));
    // The last item first enters at step 10 at one node, then 1 + 8 a step
    // (63 choose 8 choices a step: counted).
    assert_eq!((cut.entry_nodes, cut.spread, cut.exact), (1, 8, false));
    assert_eq!(cut.steps, 18);
    let wide = FillCut {
        ramp: vec![Ramp {
            from_step: 1,
            capacity: 8,
        }],
        items: 73,
        ..fill
    };
    // 72 items by step 9, so the 73rd alone at step 10, at up to 8 nodes.
    let cut = bound(&wide, Some(&s));
    assert_eq!((cut.entry_nodes, cut.spread, cut.exact), (8, 7, false));
    assert_eq!(cut.steps, 17);
}
