//! `txverify lcc`: the paper's numbers (Hou, Wang, Ku, Hsu, IEEE TPDS: Examples
//! 3, 4 and 6, sections 2.3 and 6.2), the rank formula against the count of
//! every e-cube path, the dynamic programme against all n! orders, the
//! constructions against the least contention over all orders, the input
//! format's errors and the simulation's timing (the CLI: tests/lcc_cli.rs).

use proptest::prelude::*;
use txverify_clients::lcc::contention::{self, by_enumeration, by_rank};
use txverify_clients::lcc::map::{self, Objective};
use txverify_clients::lcc::reorder::{self, Method};
use txverify_clients::lcc::spec::{self, Fault};
use txverify_clients::lcc::wormhole::{self, SimConfig};
use txverify_clients::lcc::{Class, Direction, Lcc, Matrix};

/// A matrix from rows of 0/1 digits written as printed (a_{i,0} first).
fn printed(rows: &[&str]) -> Matrix {
    Matrix::from_rows(
        rows.iter()
            .map(|r| {
                r.split_whitespace()
                    .enumerate()
                    .fold(0u64, |acc, (j, d)| acc | u64::from(d == "1") << j)
            })
            .collect(),
    )
}

fn forward(a: Matrix, b: u64) -> Lcc {
    Lcc {
        a,
        b,
        direction: Direction::Forward,
    }
}

fn builtin(name: &str, n: usize) -> Lcc {
    spec::builtin(name, n).unwrap()
}

/// Example 3's matrix, as printed.
fn example3() -> Matrix {
    printed(&[
        "0 0 0 0 1 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 0 0 0 1 0",
        "0 0 0 0 0 0 0 1",
        "1 0 0 0 0 0 0 0",
        "0 1 0 0 0 0 0 0",
        "0 0 1 0 0 0 0 0",
        "0 0 0 1 0 0 0 0",
    ])
}

/// Example 1's bit-reverse matrix, as printed.
fn example1() -> Matrix {
    Matrix::from_rows((0..8).map(|i| 1u64 << (7 - i)).collect())
}

#[test]
fn example_3_transpose_on_8_dimensions() {
    let lcc = forward(example3(), 0);
    assert_eq!(lcc, builtin("transpose", 8));
    let paper = vec![1, 2, 4, 8, 8, 4, 2, 1];
    assert_eq!(by_rank(&lcc), paper);
    assert_eq!(by_enumeration(&lcc).unwrap().per_dimension(), paper);
    assert_eq!(lcc.class(), Class::Lcp);
}

#[test]
fn transpose_and_bit_reverse_for_every_even_n() {
    // Counted by hand from Theorem 1: rank A_{L_{i+1}, L_i} is 0 below n/2 and
    // 2(i − n/2) + 1 from there on, for both patterns.
    for n in (2..=14).step_by(2) {
        let h = n / 2;
        let expected: Vec<u64> = (0..n)
            .map(|i| if i < h { 1 << i } else { 1 << (n - 1 - i) })
            .collect();
        for name in ["transpose", "bit-reverse"] {
            let lcc = builtin(name, n);
            assert_eq!(
                by_enumeration(&lcc).unwrap().per_dimension(),
                expected,
                "{name}:{n}"
            );
            // Section 6.2: the contention of bit-reverse is 2^(n/2 − 1).
            assert_eq!(contention::degree(&expected), 1 << (h - 1));
        }
    }
}

#[test]
fn section_2_3_eight_paths_share_one_channel_of_bit_reverse() {
    // The channel ([00010000]^t, [00000000]^t): from node 8 across dimension 3.
    let e = by_enumeration(&forward(example1(), 0)).unwrap();
    assert_eq!(e.count(8, 3), 8);
}

#[test]
fn example_4_lcp_optimizer_on_the_transpose() {
    let lcc = forward(example3(), 0);
    let r = reorder::reorder(&lcc).unwrap();
    assert_eq!(r.method, Method::LcpOptimizer);
    // Section 5 gives the order of Example 4's mapping as R(L_8).
    assert_eq!(r.order, vec![0, 4, 2, 6, 1, 5, 3, 7]);
    let new_lcp = printed(&[
        "0 1 0 0 0 0 0 0",
        "1 0 0 0 0 0 0 0",
        "0 0 0 1 0 0 0 0",
        "0 0 1 0 0 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 0 1 0 0 0",
        "0 0 0 0 0 0 0 1",
        "0 0 0 0 0 0 1 0",
    ]);
    assert_eq!(r.after.a, new_lcp);
    assert_eq!(
        by_enumeration(&r.after).unwrap().per_dimension(),
        vec![1; 8]
    );
    // The printed Q is not a permutation matrix: rows 3 and 7 both have their 1
    // in column 7, column 6 has none. Q[i][R[i]] = 1 differs in row 3 only.
    let printed_q = printed(&[
        "1 0 0 0 0 0 0 0",
        "0 0 0 0 1 0 0 0",
        "0 0 1 0 0 0 0 0",
        "0 0 0 0 0 0 0 1",
        "0 1 0 0 0 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 1 0 0 0 0",
        "0 0 0 0 0 0 0 1",
    ]);
    let columns: Vec<u32> = (0..8)
        .map(|j| (0..8).filter(|&i| printed_q.get(i, j)).count() as u32)
        .collect();
    assert_eq!(columns, vec![1, 1, 1, 1, 1, 1, 0, 2]);
    let q = Matrix::permutation(&r.order);
    let differ: Vec<usize> = (0..8).filter(|&i| q.row(i) != printed_q.row(i)).collect();
    assert_eq!(differ, vec![3]);
    assert_eq!(q.row(3), 1 << 6);
    // D = QAQ⁻¹ as a product, too.
    assert_eq!(q.mul(&lcc.a).mul(&q.transpose()), new_lcp);
}

/// Example 6's order and printed matrices.
const EXAMPLE_6_ORDER: [usize; 8] = [3, 4, 0, 7, 2, 5, 1, 6];

#[test]
fn example_6_printed_matrices_follow_from_the_order() {
    let q = Matrix::permutation(&EXAMPLE_6_ORDER);
    let printed_q = printed(&[
        "0 0 0 1 0 0 0 0",
        "0 0 0 0 1 0 0 0",
        "1 0 0 0 0 0 0 0",
        "0 0 0 0 0 0 0 1",
        "0 0 1 0 0 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 1 0 0 0 0 0 0",
        "0 0 0 0 0 0 1 0",
    ]);
    let printed_q_inverse = printed(&[
        "0 0 1 0 0 0 0 0",
        "0 0 0 0 0 0 1 0",
        "0 0 0 0 1 0 0 0",
        "1 0 0 0 0 0 0 0",
        "0 1 0 0 0 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 0 0 0 0 1",
        "0 0 0 1 0 0 0 0",
    ]);
    assert_eq!(q, printed_q);
    assert_eq!(q.mul(&printed_q_inverse), Matrix::identity(8));
    let transpose_after = printed(&[
        "0 0 0 1 0 0 0 0",
        "0 0 1 0 0 0 0 0",
        "0 1 0 0 0 0 0 0",
        "1 0 0 0 0 0 0 0",
        "0 0 0 0 0 0 0 1",
        "0 0 0 0 0 0 1 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 0 1 0 0 0",
    ]);
    let reverse_after = printed(&[
        "0 1 0 0 0 0 0 0",
        "1 0 0 0 0 0 0 0",
        "0 0 0 1 0 0 0 0",
        "0 0 1 0 0 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 0 1 0 0 0",
        "0 0 0 0 0 0 0 1",
        "0 0 0 0 0 0 1 0",
    ]);
    assert_eq!(q.mul(&example3()).mul(&printed_q_inverse), transpose_after);
    assert_eq!(q.mul(&example1()).mul(&printed_q_inverse), reverse_after);
    // "The degrees of channel contention now become 2 … and 1", counted.
    let count = |a: &Matrix| {
        contention::degree(
            &by_enumeration(&forward(a.clone(), 0))
                .unwrap()
                .per_dimension(),
        )
    };
    assert_eq!((count(&transpose_after), count(&reverse_after)), (2, 1));
}

#[test]
fn example_6_order_is_optimal_and_the_programme_finds_the_optimum() {
    let lccs = [forward(example3(), 0), forward(example1(), 0)];
    let weights = [1, 1];
    for objective in [Objective::Max, Objective::Sum, Objective::Simultaneous] {
        let (_, best) = map::brute_force(&lccs, &weights, objective).unwrap();
        let (order, value) = map::optimise(&lccs, &weights, objective).unwrap();
        assert_eq!(value, best, "{objective:?}");
        assert_eq!(map::evaluate(&lccs, &weights, objective, &order), best);
        // The paper's order is optimal for every objective.
        assert_eq!(
            map::evaluate(&lccs, &weights, objective, &EXAMPLE_6_ORDER),
            best
        );
    }
    // No order makes both contention-free.
    let (_, best) = map::brute_force(&lccs, &weights, Objective::Max).unwrap();
    assert_eq!(best, 2);
}

/// Every order of 0 … n−1, lexicographically.
fn all_orders(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for rest in all_orders(n - 1) {
            let mut order = vec![first];
            order.extend(rest.into_iter().map(|r| if r >= first { r + 1 } else { r }));
            out.push(order);
        }
    }
    out
}

#[test]
fn example_6_counts_of_optimal_orders() {
    let (t, r) = (forward(example3(), 0), forward(example1(), 0));
    let degree = |l: &Lcc, o: &[usize]| contention::degree(&by_rank(&l.reordered(o)));
    let orders = all_orders(8);
    assert_eq!(orders.len(), 40_320);
    let pairs: Vec<(u64, u64)> = orders
        .iter()
        .map(|o| (degree(&t, o), degree(&r, o)))
        .collect();
    let optimal = pairs.iter().filter(|(a, b)| *a.max(b) == 2).count();
    let one_free = pairs
        .iter()
        .filter(|(a, b)| *a.max(b) == 2 && *a.min(b) == 1)
        .count();
    assert_eq!((optimal, one_free), (2_304, 256));
    assert!(pairs.iter().all(|(a, b)| *a.max(b) >= 2));
}

#[test]
fn section_6_three_communications_share_one_mapping_with_contention_2() {
    let lccs = [
        builtin("transpose", 8),
        builtin("bit-reverse", 8),
        builtin("reverse-flip", 8),
    ];
    let (order, value) = map::optimise(&lccs, &[1, 1, 1], Objective::Max).unwrap();
    assert_eq!(value, 2);
    let after: Vec<u64> = lccs
        .iter()
        .map(|l| {
            contention::degree(
                &by_enumeration(&l.reordered(&order))
                    .unwrap()
                    .per_dimension(),
            )
        })
        .collect();
    assert_eq!(after.iter().max(), Some(&2));
}

#[test]
fn example_5_scale_is_a_scatter_of_contention_2() {
    // The printed LCS: x = Ay with x_k = y_{k+1} inside each half.
    let a = printed(&[
        "0 1 0 0 0 0 0 0",
        "0 0 1 0 0 0 0 0",
        "0 0 0 1 0 0 0 0",
        "0 0 0 0 0 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 0 0 0 1 0",
        "0 0 0 0 0 0 0 1",
        "0 0 0 0 0 0 0 0",
    ]);
    let lcc = builtin("scale", 8);
    assert_eq!(lcc.a, a);
    assert_eq!(lcc.class(), Class::Lcs);
    // Every source (2px, 2py) → four destinations; the rank formula of the
    // scatter agrees with the paths, and the minimum is 2^(7 − rank) = 2.
    assert_eq!(by_rank(&lcc), by_enumeration(&lcc).unwrap().per_dimension());
    assert_eq!(contention::minimum(&lcc), 2);
    assert_eq!(reorder::reorder(&lcc).unwrap().checked.contention, 2);
    // Theorem 1 unmirrored, applied to the scatter's matrix, counts the paths
    // of the gather y = Ax instead, not the scatter's: it needs its own index sets.
    let gather = Lcc {
        direction: Direction::Forward,
        ..lcc.clone()
    };
    let unmirrored = by_rank(&gather);
    assert_eq!(unmirrored, by_enumeration(&gather).unwrap().per_dimension());
    assert_ne!(unmirrored, by_enumeration(&lcc).unwrap().per_dimension());
    assert_eq!(contention::degree(&unmirrored), 4);
}

/// Random n × n matrices of several shapes: dense, sparse, permutation,
/// low rank (a product through k < n), singular with unit rows.
fn matrix(max_n: usize) -> impl Strategy<Value = Lcc> {
    (1..=max_n).prop_flat_map(matrix_of)
}

/// [`matrix`] for one n.
fn matrix_of(n: usize) -> impl Strategy<Value = Lcc> {
    let perm = Just((0..n).collect::<Vec<usize>>()).prop_shuffle();
    (
        Just(n),
        proptest::collection::vec(any::<u64>(), 2 * n),
        perm,
        0u8..5,
        1..=n,
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(n, words, perm, shape, k, b, scatter)| {
            let mask = (1u64 << n) - 1;
            let rows: Vec<u64> = match shape {
                0 => words[..n].to_vec(),
                1 => (0..n).map(|i| words[i] & words[n + i]).collect(),
                2 => perm.iter().map(|&p| 1u64 << p).collect(),
                3 => (0..n)
                    .map(|i| {
                        (0..k)
                            .filter(|&j| words[i] >> j & 1 == 1)
                            .fold(0, |acc, j| acc ^ words[n + j])
                    })
                    .collect(),
                _ => (0..n)
                    .map(|i| {
                        if words[i] & 3 == 0 {
                            1 << i
                        } else {
                            words[n + i]
                        }
                    })
                    .collect(),
            };
            let b = if shape == 4 { b & words[0] } else { b };
            Lcc {
                a: Matrix::from_rows(rows),
                b: b & mask,
                direction: if scatter {
                    Direction::Scatter
                } else {
                    Direction::Forward
                },
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    /// Theorem 1 (mirrored for scatters) against the count of every e-cube path.
    #[test]
    fn rank_formula_equals_the_enumeration(lcc in matrix(10)) {
        prop_assert_eq!(by_rank(&lcc), by_enumeration(&lcc).unwrap().per_dimension());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// A scatter's T_i under an order R is T_{n−1−i} of y = Ax ⊕ b under R
    /// reversed: why Corollary 2's minimum holds for scatters too.
    #[test]
    fn a_scatter_is_a_forward_communication_mirrored(
        lcc in matrix(7),
        seed in any::<u64>(),
    ) {
        let n = lcc.n();
        let mut order: Vec<usize> = (0..n).collect();
        let mut s = seed;
        for i in (1..n).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        let scatter = Lcc { direction: Direction::Scatter, ..lcc.clone() };
        let forward = Lcc { direction: Direction::Forward, ..lcc };
        let reversed: Vec<usize> = order.iter().rev().copied().collect();
        let mut mirrored = by_enumeration(&forward.reordered(&reversed)).unwrap().per_dimension();
        mirrored.reverse();
        prop_assert_eq!(by_enumeration(&scatter.reordered(&order)).unwrap().per_dimension(), mirrored);
    }
}

/// The least contention over all n! orders, by brute force.
fn least_over_all_orders(lcc: &Lcc) -> u64 {
    map::brute_force(std::slice::from_ref(lcc), &[1], Objective::Max)
        .unwrap()
        .1
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// LCP_Optimizer and the Theorem 4 construction reach the least contention
    /// of all orders, which is the bound of Corollaries 1 and 2.
    #[test]
    fn reordering_reaches_the_least_contention(lcc in matrix(6)) {
        let r = reorder::reorder(&lcc).unwrap();
        let least = least_over_all_orders(&lcc);
        prop_assert_eq!(r.checked.contention, least);
        prop_assert_eq!(contention::minimum(&lcc), least);
        let counted = by_enumeration(&r.after).unwrap().per_dimension();
        prop_assert_eq!(contention::degree(&counted), least);
    }
}

fn objective() -> impl Strategy<Value = Objective> {
    prop_oneof![
        Just(Objective::Max),
        Just(Objective::Sum),
        Just(Objective::Simultaneous)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The dynamic programme's optimum is the best of all n! orders.
    #[test]
    fn programme_equals_brute_force(
        lccs in (1usize..=8).prop_flat_map(|n| proptest::collection::vec(matrix_of(n), 1..=3)),
        weights in proptest::collection::vec(1u64..=3, 3),
        objective in objective(),
    ) {
        let weights = &weights[..lccs.len()];
        let (order, value) = map::optimise(&lccs, weights, objective).unwrap();
        let (_, best) = map::brute_force(&lccs, weights, objective).unwrap();
        prop_assert_eq!(value, best);
        prop_assert_eq!(map::evaluate(&lccs, weights, objective, &order), best);
    }
}

fn fault_of(text: &str) -> (usize, usize, Fault) {
    let e = spec::parse(text).unwrap_err();
    (e.line, e.column, e.fault)
}

#[test]
fn malformed_files_name_line_and_column() {
    use Fault::*;
    let ragged = Ragged {
        expected: 2,
        found: 3,
    };
    assert_eq!(fault_of("0 1\n1 0 1\n"), (2, 5, ragged));
    assert_eq!(
        fault_of("0 1\n1\n"),
        (
            2,
            2,
            Ragged {
                expected: 2,
                found: 1
            }
        )
    );
    assert_eq!(fault_of("# A\n0 2\n1 0\n"), (2, 3, NotBinary('2')));
    assert_eq!(
        fault_of("0 1\n1 0\n0 0\n"),
        (
            3,
            1,
            TooManyRows {
                rows: 3,
                columns: 2
            }
        )
    );
    assert_eq!(
        fault_of("0 1 0\n1 0 0\n"),
        (
            3,
            1,
            TooFewRows {
                rows: 2,
                columns: 3
            }
        )
    );
    assert_eq!(
        fault_of("0 1\nb: 0 1\n"),
        (
            2,
            1,
            TooFewRows {
                rows: 1,
                columns: 2
            }
        )
    );
    assert_eq!(
        fault_of("0 1\n1 0\nb:  1\n"),
        (
            3,
            5,
            BLength {
                expected: 2,
                found: 1
            }
        )
    );
    assert_eq!(fault_of("0 1\n1 0\nb: 0 x\n"), (3, 6, NotBinary('x')));
    assert_eq!(fault_of("# nothing\n"), (2, 1, Empty));
    assert_eq!(fault_of("0 1\n1 0\nc: 1\n"), (3, 1, UnknownKey("c".into())));
    assert_eq!(
        fault_of("0 1\n1 0\nb: 00\n1 1\n"),
        (4, 1, RowAfterHeader("b"))
    );
    assert_eq!(fault_of("0 1\n1 0\nb: 00\nb: 00\n"), (4, 1, Duplicate("b")));
    assert_eq!(
        fault_of("1\ndirection: sideways\n"),
        (2, 12, BadDirection("sideways".into()))
    );
}

#[test]
fn a_well_formed_file() {
    let lcc = spec::parse(
        "# bit-reverse on 2 dimensions\n0 1  # y_0 = x_1\n10\nb: 0 1\ndirection: scatter\n",
    )
    .unwrap();
    assert_eq!(lcc.a, printed(&["0 1", "1 0"]));
    assert_eq!(lcc.b, 0b10);
    assert_eq!(lcc.direction, Direction::Scatter);
}

#[test]
fn built_ins_are_the_paper_patterns() {
    // Example 5: b of the image operations, b_0 first as printed.
    let b = |name: &str| builtin(name, 8).b;
    assert_eq!(b("reflect-antidiagonal"), 0b1111_1111);
    assert_eq!(b("rotate-cw"), 0b0000_1111); // [11110000]^t
    assert_eq!(b("rotate-ccw"), 0b1111_0000); // [00001111]^t
    assert_eq!(b("reflect-vertical"), 0b0000_1111);
    assert_eq!(b("reflect-horizontal"), 0b1111_0000);
    let row_reverse = printed(&[
        "0 0 0 1 0 0 0 0",
        "0 0 1 0 0 0 0 0",
        "0 1 0 0 0 0 0 0",
        "1 0 0 0 0 0 0 0",
        "0 0 0 0 1 0 0 0",
        "0 0 0 0 0 1 0 0",
        "0 0 0 0 0 0 1 0",
        "0 0 0 0 0 0 0 1",
    ]);
    assert_eq!(builtin("row-bit-reverse", 8).a, row_reverse);
    // Pixel (px, py) on node py·16 + px: reflecting on the vertical line sends
    // it to (15 − px, py); node by node.
    let lcc = builtin("reflect-vertical", 8);
    for node in 0..256u64 {
        let (px, py) = (node % 16, node / 16);
        assert_eq!(lcc.image(node), py * 16 + (15 - px));
    }
    // Perfect shuffle: y_{i+1 mod n} = x_i, a rotation of the address left.
    let shuffle = builtin("perfect-shuffle", 5);
    for x in 0..32u64 {
        assert_eq!(shuffle.image(x), ((x << 1) | (x >> 4)) & 31);
    }
    assert!(spec::builtin("transpose", 7).is_err());
}

#[test]
fn a_lone_message_crosses_in_path_length_plus_flits() {
    // n = 1, y = x ⊕ 1 restricted to one stream: node 0 → 1 (node 1 → 1 stays).
    let lcc = forward(Matrix::from_rows(vec![0]), 1);
    let config = SimConfig {
        flits: 6,
        warmup: 100,
        measure: 20_000,
        drain: 1_000,
        seed: 7,
    };
    let p = wormhole::run(&lcc, 0.002, &config);
    assert!(p.delivered == p.measured && p.delivered > 0, "{p:?}");
    // Injection buffer, the channel, ejection: the header is delivered 2 cycles
    // after it enters the injection buffer, the tail 5 more; it was born up to
    // one cycle before that and counts up to the end of its last cycle.
    let f = f64::from(config.flits);
    assert!(p.latency >= f + 2.0 && p.latency <= f + 3.0, "{p:?}");
    // At full load one bubble per message on the injection channel: F/(F + 1).
    let full = wormhole::run(&lcc, 1.0, &config);
    assert!((full.accepted - f / (f + 1.0)).abs() < 0.01, "{full:?}");
}

#[test]
fn reordering_the_transpose_raises_its_saturation_throughput() {
    let lcc = builtin("transpose", 6);
    let r = reorder::reorder(&lcc).unwrap();
    let config = SimConfig {
        flits: 8,
        warmup: 300,
        measure: 3_000,
        drain: 3_000,
        seed: 1,
    };
    let loads = [0.05, 1.0];
    let before = wormhole::sweep(&lcc, &loads, &config);
    let after = wormhole::sweep(&r.after, &loads, &config);
    assert_eq!(before, wormhole::sweep(&lcc, &loads, &config), "seeded");
    // At low load both carry what is offered, the reordered one faster.
    for p in [&before[0], &after[0]] {
        assert!((p.accepted - 0.05).abs() < 0.01 && !p.saturated, "{p:?}");
    }
    assert!(after[0].latency < before[0].latency);
    // Contention 4 before, 1 after: saturation about 1/4 of the one-stream
    // limit F/(F + 1) before, near it after.
    let (b, a) = (
        wormhole::peak_accepted(&before),
        wormhole::peak_accepted(&after),
    );
    assert!(before[1].saturated && b < 0.25, "{b}");
    assert!(a > 0.8 && a / b > 3.0, "{a} / {b}");
}
