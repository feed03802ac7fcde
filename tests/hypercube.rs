//! The all-port hypercube collectives of `txverify::hypercube` (Bertsekas et
//! al., seed of issue 12): every problem for d = 1 … 8 is replayed by the
//! schedule simulator and meets both lower bounds, which are checked here
//! against the closed forms of the paper's Table 1, computed again here.

use txverify::hypercube::{Problem, bounds::lower_bounds, build};
use txverify::schedule::{NetworkName, ReplayOptions, replay};

/// ⌈(2^d − 1)/d⌉.
fn ceil_ratio(d: u32) -> u64 {
    ((1u64 << d) - 1).div_ceil(u64::from(d))
}

/// Table 1 (and the broadcast tree): (time, transmissions).
fn table_1(problem: Problem, d: u32) -> (u64, u64) {
    let n = 1u64 << d;
    let d64 = u64::from(d);
    match problem {
        Problem::Broadcast | Problem::Accumulate => (d64, n - 1),
        Problem::Scatter | Problem::Gather => (ceil_ratio(d), d64 * n / 2),
        Problem::Mnb => (ceil_ratio(d), n * (n - 1)),
        Problem::Exchange => (n / 2, d64 * n * n / 2),
    }
}

#[test]
fn every_problem_up_to_d_8_is_valid_and_meets_both_bounds() {
    for d in 1..=8u32 {
        let graph = NetworkName::Hypercube(d).build().unwrap();
        for problem in Problem::ALL {
            let roots: Vec<Option<u32>> = if problem.has_root() {
                vec![None, Some((1 << d) - 1), Some(d % (1 << d))]
            } else {
                vec![None]
            };
            for root in roots {
                let built = build(problem, d, root).unwrap();
                let report = replay(&built.schedule, &graph, &ReplayOptions::default()).unwrap();
                let what = format!("{problem} {d} root {root:?}");
                assert!(report.valid, "{what}: {:?}", report.violations);
                let bounds = lower_bounds(problem, &graph, root.unwrap_or(0));
                let (time, sends) = table_1(problem, d);
                assert_eq!(
                    (bounds.time, bounds.transmissions),
                    (time, sends),
                    "{what}: bounds"
                );
                assert_eq!(u64::from(report.time), time, "{what}: time");
                assert_eq!(report.transmissions, sends, "{what}: transmissions");
                assert_eq!(report.derouted, 0, "{what}");
            }
        }
    }
}
