//! `lcc map`'s default objective `lex`: the worst weighted contention first,
//! then the communications' weighted contentions added, then the sum over
//! dimensions and communications, checked against every order enumerated here
//! (independently of the library's programmes and brute force), and Example 6
//! of the paper, whose contentions 2 and 1 the default now gives.

use crate::common::cli::txverify;
use proptest::prelude::*;
use txverify_clients::lcc::contention::{by_rank, degree};
use txverify_clients::lcc::lex::{self, Lexicographic};
use txverify_clients::lcc::{Direction, Lcc, Matrix, spec};

/// Every order of 0 … n−1, by inserting n−1 into every order of 0 … n−2.
fn every_order(n: usize) -> Vec<Vec<usize>> {
    let mut orders = vec![Vec::new()];
    for k in 0..n {
        let mut next = Vec::new();
        for o in &orders {
            for at in 0..=o.len() {
                let mut grown = o.clone();
                grown.insert(at, k);
                next.push(grown);
            }
        }
        orders = next;
    }
    orders
}

/// (max_r w_r·T_r, Σ_r w_r·T_r, Σ_r Σ_i w_r·T_i,r) of an order, from
/// Theorem 1 on QAQ⁻¹.
fn lex_of(lccs: &[Lcc], weights: &[u64], order: &[usize]) -> (u64, u64, u64) {
    let per: Vec<Vec<u64>> = lccs.iter().map(|l| by_rank(&l.reordered(order))).collect();
    let each: Vec<u64> = per
        .iter()
        .zip(weights)
        .map(|(t, w)| w * degree(t))
        .collect();
    let total = per
        .iter()
        .zip(weights)
        .map(|(t, w)| w * t.iter().sum::<u64>())
        .sum();
    (*each.iter().max().unwrap(), each.iter().sum(), total)
}

/// The lexicographic least value over every order.
fn least(lccs: &[Lcc], weights: &[u64]) -> (u64, u64, u64) {
    let n = lccs[0].n();
    every_order(n)
        .iter()
        .map(|o| lex_of(lccs, weights, o))
        .min()
        .unwrap()
}

fn lcc_of(n: usize, rows: &[u64], b: u64, scatter: bool) -> Lcc {
    let mask = (1u64 << n) - 1;
    Lcc {
        a: Matrix::from_rows(rows[..n].iter().map(|r| r & mask).collect()),
        b: b & mask,
        direction: if scatter {
            Direction::Scatter
        } else {
            Direction::Forward
        },
    }
}

/// Random communications on n ≤ 6: dense rows, or sparse ones (fixed
/// dimensions and low rank are frequent), forward or scatter.
fn communications() -> impl Strategy<Value = Vec<Lcc>> {
    (1usize..=6).prop_flat_map(|n| {
        let one = (
            proptest::collection::vec(any::<u64>(), 2 * n),
            any::<u64>(),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(move |(words, b, sparse, scatter)| {
                let rows: Vec<u64> = if sparse {
                    (0..n).map(|i| words[i] & words[n + i]).collect()
                } else {
                    words[..n].to_vec()
                };
                lcc_of(n, &rows, b, scatter)
            });
        proptest::collection::vec(one, 1..=3)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// The two programmes give the least (max, sum) of every order, and the
    /// order they return has it.
    #[test]
    fn lex_equals_every_order_enumerated(
        lccs in communications(),
        weights in proptest::collection::vec(1u64..=3, 3),
    ) {
        let weights = &weights[..lccs.len()];
        let (order, value) = lex::optimise(&lccs, weights).unwrap();
        let best = least(&lccs, weights);
        prop_assert_eq!((value.worst, value.contentions, value.total), best);
        prop_assert_eq!(lex_of(&lccs, weights, &order), best);
    }
}

/// Example 6: transpose and bit-reverse on 8 dimensions.
#[test]
fn example_6_default_objective_leaves_one_communication_contention_free() {
    let lccs = [
        spec::builtin("transpose", 8).unwrap(),
        spec::builtin("bit-reverse", 8).unwrap(),
    ];
    let weights = [1, 1];
    let orders = every_order(8);
    let values: Vec<(u64, u64, u64)> = orders.iter().map(|o| lex_of(&lccs, &weights, o)).collect();
    let best = *values.iter().min().unwrap();
    assert_eq!(best, (2, 3, 20));
    // The sum over dimensions alone does not separate 2/1 from 2/2: some
    // orders with contentions 2 and 2 also reach max 2 and sum 20.
    assert!(orders.iter().zip(&values).any(|(o, v)| {
        let t: Vec<u64> = lccs
            .iter()
            .map(|l| degree(&by_rank(&l.reordered(o))))
            .collect();
        v.0 == 2 && v.2 == 20 && t == [2, 2]
    }));
    // Every order that reaches the optimum leaves one of the two
    // contention-free, and the paper's order is one of them. Which one is free
    // is a tie: 128 orders each way.
    let (mut optimal, mut transpose_free) = (0, 0);
    for (o, v) in orders.iter().zip(&values) {
        if *v == best {
            let t: Vec<u64> = lccs
                .iter()
                .map(|l| degree(&by_rank(&l.reordered(o))))
                .collect();
            assert!(t == [1, 2] || t == [2, 1], "{o:?}: {t:?}");
            transpose_free += usize::from(t[0] == 1);
            optimal += 1;
        }
    }
    assert_eq!((optimal, transpose_free), (256, 128));
    assert_eq!(lex_of(&lccs, &weights, &[3, 4, 0, 7, 2, 5, 1, 6]), best);
    let (order, value) = lex::optimise(&lccs, &weights).unwrap();
    let expected = Lexicographic {
        worst: 2,
        contentions: 3,
        total: 20,
    };
    assert_eq!(value, expected);
    assert_eq!(lex_of(&lccs, &weights, &order), best);
}

#[test]
fn map_without_options_gives_contentions_2_and_1_for_example_6() {
    let run = txverify(&[
        "lcc",
        "map",
        "transpose:8",
        "bit-reverse:8",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["objective"], "lex");
    let value = ["value", "contentions", "sum"].map(|k| v[k].as_u64());
    assert_eq!(value, [Some(2), Some(3), Some(20)]);
    let order: Vec<usize> = serde_json::from_value(v["order"].clone()).unwrap();
    let t: Vec<u64> = ["transpose", "bit-reverse"]
        .iter()
        .map(|name| degree(&by_rank(&spec::builtin(name, 8).unwrap().reordered(&order))))
        .collect();
    let reported: Vec<u64> = (0..2)
        .map(|k| v["communications"][k]["contention"].as_u64().unwrap())
        .collect();
    assert_eq!(reported, t);
    // The paper's assignment: transpose 2, bit-reverse contention-free (the
    // tie between the two goes to the communication listed last).
    assert_eq!(t, vec![2, 1]);
    // Listed the other way round, the bit-reverse is the one at 2.
    let run = txverify(&[
        "lcc",
        "map",
        "bit-reverse:8",
        "transpose:8",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let reported: Vec<u64> = (0..2)
        .map(|k| v["communications"][k]["contention"].as_u64().unwrap())
        .collect();
    assert_eq!(reported, vec![2, 1]);
}

#[test]
fn map_without_options_gives_section_6_1_mapping_m_g() {
    // M-G: transpose 2, bit-reverse and reverse-flip contention-free.
    let run = txverify(&[
        "lcc",
        "map",
        "transpose:8",
        "bit-reverse:8",
        "reverse-flip:8",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let order: Vec<usize> = serde_json::from_value(v["order"].clone()).unwrap();
    let t: Vec<u64> = ["transpose", "bit-reverse", "reverse-flip"]
        .iter()
        .map(|name| degree(&by_rank(&spec::builtin(name, 8).unwrap().reordered(&order))))
        .collect();
    assert_eq!(t, vec![2, 1, 1]);
}

#[test]
fn lex_with_too_many_caps_to_try_is_refused_with_a_way_out() {
    // Weight 1024 on one communication makes the optimum of `max` at least
    // 1024, so each of the five others may have any contention 1 … 128: 8^5
    // vectors of caps, more than `lex` tries.
    let mut args = vec!["lcc", "map", "transpose:8"];
    args.extend(["bit-reverse:8"; 5]);
    args.extend(["--weights", "1024,1,1,1,1,1"]);
    let run = txverify(&args);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--objective max"), "{}", run.stderr);
    args.extend(["--objective", "max"]);
    assert_eq!(txverify(&args).code, 0);
}
