//! Simulation tests: one per failure kind, the seed's ring-6 table, and
//! greedy tables on random small groups.

use proptest::prelude::*;

use super::group_testing::linked::{GroupWithLinks, cyclic, dihedral, elementary_abelian, product};
use super::testing::{greedy_placed_words, shortest_link_words};
use super::*;
use txverify_core::network::{Embedding, NetworkName, embed, infer};

fn word(row: usize, column: usize, letters: &[usize], text: &str) -> PlacedWord {
    PlacedWord {
        row,
        column,
        letters: letters.to_vec(),
        text: text.to_string(),
    }
}

/// D6 (order 6) with links b = y (index 0) and B = Y (index 1), on ring 6.
fn ring6() -> (GroupWithLinks, Embedding) {
    let g = dihedral(6);
    let e = embed(&g.group, &g.links, &NetworkName::Ring(6)).unwrap();
    (g, e)
}

/// The element a word of link indices spells.
fn spell(g: &GroupWithLinks, letters: &[usize]) -> Elem {
    letters
        .iter()
        .fold(Elem::IDENTITY, |e, &i| g.group.apply(e, g.links[i]))
}

fn run(
    g: &GroupWithLinks,
    e: &Embedding,
    words: &[PlacedWord],
    messages: &MessageSet,
    ports: usize,
) -> SimulationReport {
    simulate(
        &SimulationInput {
            group: &g.group,
            links: &g.links,
            words,
            messages,
            ports,
            embedding: e,
        },
        &SimulationOptions::default(),
    )
    .unwrap()
}

/// Asserts that exactly the counted kinds are non-zero.
fn only(counts: &FailureCounts, expected: FailureCounts) {
    assert_eq!(*counts, expected);
}

fn seed_table() -> Vec<PlacedWord> {
    vec![
        word(1, 1, &[0, 1, 0], "bBb"),
        word(1, 4, &[0, 1], "bB"),
        word(2, 1, &[1, 0], "Bb"),
        word(2, 3, &[1], "B"),
        word(2, 5, &[0], "b"),
    ]
}

#[test]
fn seed_ring6_table_is_clean_in_five_steps() {
    let (g, e) = ring6();
    let words = seed_table();
    let report = run(&g, &e, &words, &MessageSet::Total, 2);
    assert!(report.valid, "{report:?}");
    assert_eq!(report.completion_time, 5);
    assert_eq!(report.expected_messages, 30);
    assert_eq!(report.arrived_messages, 30);
    assert_eq!(report.hops, 6 * 9);
    assert_eq!(report.per_step.len(), 5);
    assert!(report.per_step.iter().all(|s| s.hops == s.links_used));
    assert!((report.utilisation - 54.0 / 60.0).abs() < 1e-12);
    // Same on the Cayley graph itself.
    let cayley = Embedding::cayley(&g.group, &g.links).unwrap();
    assert!(run(&g, &cayley, &words, &MessageSet::Total, 2).valid);
    // And the report serialises.
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains("\"completion_time\":5"));
}

#[test]
fn seed_table_with_one_port_exceeds_ports() {
    let (g, e) = ring6();
    let report = run(&g, &e, &seed_table(), &MessageSet::Total, 1);
    assert!(!report.valid);
    assert_eq!(report.counts.link_conflicts, 0);
    // Steps 1, 2, 3 and 5 have two letters in the column: every node sends two.
    assert_eq!(report.counts.ports_exceeded, 4 * 6);
}

#[test]
fn link_conflict_is_reported_with_both_messages() {
    let (g, e) = ring6();
    let words = [word(1, 1, &[0], "b"), word(2, 1, &[0, 1], "bB")];
    let messages = MessageSet::To(vec![spell(&g, &[0]), spell(&g, &[0, 1])]);
    let report = run(&g, &e, &words, &messages, 2);
    only(
        &report.counts,
        FailureCounts {
            link_conflicts: 6,
            ..Default::default()
        },
    );
    let b = e.node(spell(&g, &[0]));
    let b_big = e.node(spell(&g, &[0, 1]));
    let Some(Failure::LinkConflict {
        step,
        from,
        to,
        messages,
        first,
        second,
        ..
    }) = report.first_conflict.clone()
    else {
        panic!("no conflict: {report:?}")
    };
    assert_eq!((step, from, to, messages), (1, 0, b, 2));
    assert_eq!(
        (first.source, first.destination, first.word.as_str()),
        (0, b, "b")
    );
    assert_eq!(
        (second.source, second.destination, second.word.as_str()),
        (0, b_big, "bB")
    );
    assert_eq!((second.row, second.column), (2, 1));
    assert_eq!(report.failures.first(), report.first_conflict.as_ref());
}

#[test]
fn ports_exceeded_is_reported() {
    let (g, e) = ring6();
    let words = [word(1, 1, &[0], "b"), word(2, 1, &[1], "B")];
    let messages = MessageSet::To(vec![spell(&g, &[0]), spell(&g, &[1])]);
    let report = run(&g, &e, &words, &messages, 1);
    only(
        &report.counts,
        FailureCounts {
            ports_exceeded: 6,
            ..Default::default()
        },
    );
    assert_eq!(
        report.failures[0],
        Failure::PortsExceeded {
            step: 1,
            node: 0,
            used: 2,
            ports: 1
        }
    );
}

#[test]
fn unexpected_delivery_is_reported() {
    let (g, e) = ring6();
    let words = [word(1, 1, &[0], "b"), word(2, 1, &[1], "B")];
    let messages = MessageSet::To(vec![spell(&g, &[0])]);
    let report = run(&g, &e, &words, &messages, 2);
    only(
        &report.counts,
        FailureCounts {
            unexpected: 6,
            ..Default::default()
        },
    );
    let Failure::Unexpected { step, message } = &report.failures[0] else {
        panic!("{report:?}")
    };
    assert_eq!(*step, 1);
    assert_eq!((message.source, message.word.as_str()), (0, "B"));
    assert_eq!(message.destination, e.node(spell(&g, &[1])));
}

#[test]
fn missing_message_is_reported() {
    let (g, e) = ring6();
    let words = [word(1, 1, &[0], "b")];
    let messages = MessageSet::To(vec![spell(&g, &[0]), spell(&g, &[1])]);
    let report = run(&g, &e, &words, &messages, 2);
    only(
        &report.counts,
        FailureCounts {
            missing: 6,
            ..Default::default()
        },
    );
    assert_eq!(
        report.failures[0],
        Failure::Missing {
            source: 0,
            destination: e.node(spell(&g, &[1]))
        }
    );
}

#[test]
fn duplicate_delivery_is_reported_with_the_earlier_one() {
    let (g, e) = ring6();
    // yYy and YyY both reach the antipode of the 6-ring.
    let words = [word(1, 1, &[0, 1, 0], "bBb"), word(2, 1, &[1, 0, 1], "BbB")];
    assert_eq!(spell(&g, &[0, 1, 0]), spell(&g, &[1, 0, 1]));
    let messages = MessageSet::To(vec![spell(&g, &[0, 1, 0])]);
    let report = run(&g, &e, &words, &messages, 2);
    only(
        &report.counts,
        FailureCounts {
            duplicates: 6,
            ..Default::default()
        },
    );
    let Failure::Duplicate {
        step,
        message,
        earlier,
    } = &report.failures[0]
    else {
        panic!("{report:?}")
    };
    assert_eq!(
        (*step, message.source, message.word.as_str()),
        (3, 0, "BbB")
    );
    assert_eq!(earlier.as_ref().map(|m| m.word.as_str()), Some("bBb"));
}

#[test]
fn self_message_is_reported() {
    let (g, e) = ring6();
    let words = [word(1, 1, &[0, 0], "bb")];
    let report = run(&g, &e, &words, &MessageSet::To(vec![]), 2);
    only(
        &report.counts,
        FailureCounts {
            self_messages: 6,
            ..Default::default()
        },
    );
    let Failure::SelfMessage { step, message } = &report.failures[0] else {
        panic!("{report:?}")
    };
    assert_eq!((*step, message.source, message.destination), (2, 0, 0));
}

#[test]
fn odd_and_distance_message_sets_use_physical_distances() {
    let (g, e) = ring6();
    // Odd distances on the 6-ring: 1 and 3.
    let words = [
        word(1, 1, &[0], "b"),
        word(2, 1, &[1], "B"),
        word(1, 2, &[0, 1, 0], "bBb"),
    ];
    assert!(run(&g, &e, &words, &MessageSet::Odd, 2).valid);
    assert!(run(&g, &e, &words, &MessageSet::Distances(vec![1, 3]), 2).valid);
    let cayley = Embedding::cayley(&g.group, &g.links).unwrap();
    assert!(run(&g, &cayley, &words, &MessageSet::Odd, 2).valid);
    let report = run(&g, &e, &words, &MessageSet::Distances(vec![1, 2, 3]), 2);
    assert_eq!(report.counts.missing, 12);
    assert_eq!(report.expected_messages, 30);
}

#[test]
fn empty_table_with_empty_message_set_is_valid() {
    let (g, e) = ring6();
    let report = run(&g, &e, &[], &MessageSet::Distances(vec![9]), 2);
    assert!(report.valid);
    assert_eq!(report.completion_time, 0);
}

#[test]
fn conflicts_between_chunks_are_found() {
    // 4096 nodes: the sources are split into several chunks.
    let g = product(&[cyclic(64), cyclic(64)]);
    let e = embed(&g.group, &g.links, &NetworkName::Torus(vec![64, 64])).unwrap();
    let words = [word(1, 1, &[0, 0], "aa"), word(2, 2, &[0], "a")];
    let messages = MessageSet::To(vec![spell(&g, &[0, 0]), spell(&g, &[0])]);
    let report = run(&g, &e, &words, &messages, 4);
    only(
        &report.counts,
        FailureCounts {
            link_conflicts: 4096,
            ..Default::default()
        },
    );
    let Some(Failure::LinkConflict {
        step,
        from,
        first,
        second,
        ..
    }) = &report.first_conflict
    else {
        panic!()
    };
    assert_eq!((*step, *from), (2, 0));
    // Node 0's message by "a" and the message of "aa" from the node before 0.
    assert_eq!((first.word.as_str(), second.word.as_str()), ("aa", "a"));
    assert_eq!(second.source, 0);
    assert_eq!(first.source, e.node(spell(&g, &[1])));
}

#[test]
fn malformed_inputs_are_errors() {
    let (g, e) = ring6();
    let input = |words: &'static [PlacedWord], ports| SimulationInput {
        group: &g.group,
        links: &g.links,
        words,
        messages: &MessageSet::Total,
        ports,
        embedding: &e,
    };
    let opts = SimulationOptions::default();
    static BAD_LETTER: std::sync::LazyLock<Vec<PlacedWord>> =
        std::sync::LazyLock::new(|| vec![word(1, 1, &[2], "?")]);
    static EMPTY: std::sync::LazyLock<Vec<PlacedWord>> =
        std::sync::LazyLock::new(|| vec![word(1, 1, &[], "")]);
    static ZERO: std::sync::LazyLock<Vec<PlacedWord>> =
        std::sync::LazyLock::new(|| vec![word(1, 0, &[0], "b")]);
    assert!(matches!(
        simulate(&input(&BAD_LETTER, 2), &opts),
        Err(SimulationError::LinkOutOfRange { letter: 2, .. })
    ));
    assert!(matches!(
        simulate(&input(&EMPTY, 2), &opts),
        Err(SimulationError::EmptyWord { .. })
    ));
    assert!(matches!(
        simulate(&input(&ZERO, 2), &opts),
        Err(SimulationError::ColumnZero { .. })
    ));
    assert!(matches!(
        simulate(&input(&[], 0), &opts),
        Err(SimulationError::ZeroPorts)
    ));
    let tiny = SimulationOptions {
        max_in_flight_bytes: 6 * 4,
        ..opts
    };
    let words = seed_table();
    let r = simulate(
        &SimulationInput {
            words: &words,
            ..input(&[], 2)
        },
        &tiny,
    );
    assert!(matches!(
        r,
        Err(SimulationError::TooManyInFlight { step: 1, words: 2 })
    ));
    let to_identity = MessageSet::To(vec![Elem::IDENTITY]);
    let r = simulate(
        &SimulationInput {
            messages: &to_identity,
            ..input(&[], 2)
        },
        &opts,
    );
    assert!(matches!(r, Err(SimulationError::Messages(_))));
}

#[test]
fn greedy_tables_on_tori_simulate_clean() {
    let g = product(&[cyclic(5), cyclic(4), cyclic(3)]);
    let targets: Vec<Elem> = g.group.elements().skip(1).collect();
    let words = greedy_placed_words(&g.group, &g.links, &targets, g.links.len());
    let (spec, e) = infer(&g.group, &g.links).unwrap();
    assert_eq!(spec, NetworkName::Torus(vec![3, 4, 5]));
    let report = run(&g, &e, &words, &MessageSet::Total, g.links.len());
    assert!(report.valid, "{:?}", report.failures);
    assert_eq!(report.expected_messages, 60 * 59);
}

#[test]
fn report_does_not_depend_on_chunking() {
    let g = product(&[cyclic(5), cyclic(4), cyclic(3)]);
    let e = infer(&g.group, &g.links).unwrap().1;
    let targets: Vec<Elem> = g.group.elements().skip(1).collect();
    let mut words = greedy_placed_words(&g.group, &g.links, &targets, g.links.len());
    // Break it in every way at once: a moved word, a dropped one, a repeated one.
    words[3].column = words[7].column;
    words.remove(11);
    let again = words[20].clone();
    words.push(PlacedWord { row: 99, ..again });
    words.push(word(98, 1, &[0, 1], "aa'"));
    let run_with = |chunks| {
        simulate(
            &SimulationInput {
                group: &g.group,
                links: &g.links,
                words: &words,
                messages: &MessageSet::Total,
                ports: 3,
                embedding: &e,
            },
            &SimulationOptions {
                chunks,
                ..SimulationOptions::default()
            },
        )
        .unwrap()
    };
    let one = run_with(1);
    assert!(one.counts.link_conflicts > 0 && one.counts.missing > 0 && one.counts.duplicates > 0);
    assert!(one.counts.self_messages > 0 && one.counts.ports_exceeded > 0);
    for chunks in [2, 3, 7, 60] {
        assert_eq!(run_with(chunks), one, "{chunks} chunks");
    }
}

#[test]
fn trivial_group_has_an_empty_network() {
    let group = FiniteGroup::from_action(vec![], vec![]).unwrap();
    let g = GroupWithLinks {
        group,
        links: vec![],
    };
    let (spec, e) = infer(&g.group, &g.links).unwrap();
    assert_eq!(spec, NetworkName::Hypercube(0));
    let report = run(&g, &e, &[], &MessageSet::Total, 1);
    assert!(report.valid);
    assert_eq!(report.expected_messages, 0);
}

fn small_group() -> impl Strategy<Value = GroupWithLinks> {
    let leaf = prop_oneof![
        (2usize..10).prop_map(cyclic),
        (2usize..7).prop_map(|k| dihedral(2 * k)),
        (1usize..5).prop_map(elementary_abelian),
    ];
    prop_oneof![
        leaf.clone(),
        (leaf.clone(), leaf).prop_filter_map("small enough", |(a, b)| {
            (a.group.order() * b.group.order() <= 96).then(|| product(&[a, b]))
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_greedy_tables_simulate_clean(
        g in small_group(),
        kind in 0usize..3,
        pick in proptest::collection::vec(any::<bool>(), 100),
        ports_pick in 0usize..8,
    ) {
        let words = shortest_link_words(&g.group, &g.links);
        let dist: Vec<usize> = words.iter().map(|w| w.as_ref().unwrap().len()).collect();
        let max_d = dist.iter().copied().max().unwrap_or(0);
        let (messages, targets): (MessageSet, Vec<Elem>) = match kind {
            0 => (MessageSet::Total, g.group.elements().skip(1).collect()),
            1 => {
                let ds: Vec<u32> = (1..=max_d as u32).filter(|&d| pick[d as usize % 100]).collect();
                let t = g.group.elements().filter(|e| ds.contains(&(dist[e.index()] as u32))).collect();
                (MessageSet::Distances(ds), t)
            }
            _ => {
                let t: Vec<Elem> = g.group.elements().skip(1).filter(|e| pick[e.index() % 100]).collect();
                (MessageSet::To(t.clone()), t)
            }
        };
        let ports = 1 + ports_pick % g.links.len();
        let table = greedy_placed_words(&g.group, &g.links, &targets, ports);
        let cayley = Embedding::cayley(&g.group, &g.links).unwrap();
        let report = run(&g, &cayley, &table, &messages, ports);
        prop_assert!(report.valid, "{:?}", report.failures);
        prop_assert_eq!(report.expected_messages, (g.group.order() * targets.len()) as u64);
        let expected_time = table.iter().map(|w| w.column + w.letters.len() - 1).max().unwrap_or(0);
        prop_assert_eq!(report.completion_time, expected_time);
        if let Some((_, e)) = infer(&g.group, &g.links) {
            let report = run(&g, &e, &table, &messages, ports);
            prop_assert!(report.valid, "{:?}", report.failures);
        }
    }
}

/// The binned link-use grid against the hops of [`trace`], on a table broken in
/// several ways (conflicts count a link once per step: distinct uses).
#[test]
fn link_use_grid_matches_the_traced_hops() {
    let g = product(&[cyclic(5), cyclic(4)]);
    let e = infer(&g.group, &g.links).unwrap().1;
    let targets: Vec<Elem> = g.group.elements().skip(1).collect();
    let mut words = greedy_placed_words(&g.group, &g.links, &targets, g.links.len());
    words[3].column = words[7].column;
    words.push(word(98, 2, &[0, 1], "aa'"));
    let input = SimulationInput {
        group: &g.group,
        links: &g.links,
        words: &words,
        messages: &MessageSet::Total,
        ports: 4,
        embedding: &e,
    };
    let net = e.network();
    let mut traced = std::collections::BTreeSet::new();
    for hop in trace(&input).unwrap() {
        traced.insert((hop.step, net.link(hop.from, hop.to).unwrap()));
    }
    let with = |max_step_bins, max_link_bins| {
        let options = SimulationOptions {
            link_use: Some(LinkUseShape {
                max_step_bins,
                max_link_bins,
            }),
            ..SimulationOptions::default()
        };
        simulate(&input, &options).unwrap()
    };
    let exact = with(10_000, 10_000);
    let grid = exact.link_use.as_ref().unwrap();
    assert_eq!((grid.steps_per_bin, grid.links_per_bin), (1, 1));
    assert_eq!(grid.step_bins, exact.completion_time);
    assert_eq!(grid.link_bins, net.directed_links());
    for l in 0..grid.link_bins {
        for s in 0..grid.step_bins {
            let used = traced.contains(&(s + 1, l as u32));
            assert_eq!(grid.at(l, s), u64::from(used), "link {l}, step {}", s + 1);
        }
    }
    // Coarse bins hold the sums of the exact ones, and the grid is the only change.
    let coarse = with(3, 7);
    let bins = coarse.link_use.as_ref().unwrap();
    assert!(bins.step_bins <= 3 && bins.link_bins <= 7);
    for l in 0..bins.link_bins {
        for s in 0..bins.step_bins {
            let sum: u64 = (0..grid.link_bins)
                .filter(|x| x / bins.links_per_bin == l)
                .flat_map(|x| {
                    (0..grid.step_bins)
                        .filter(|t| t / bins.steps_per_bin == s)
                        .map(move |t| grid.at(x, t))
                })
                .sum();
            assert_eq!(bins.at(l, s), sum, "bin ({l}, {s})");
        }
    }
    let plain = simulate(&input, &SimulationOptions::default()).unwrap();
    assert_eq!(plain.link_use, None);
    assert_eq!(
        SimulationReport {
            link_use: None,
            ..coarse
        },
        plain
    );
}
