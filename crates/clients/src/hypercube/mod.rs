//! Optimal all-port collectives on the d-cube, after Bertsekas, Özveren,
//! Stamoulis, Tseng and Tsitsiklis, "Optimal communication algorithms for
//! hypercubes" (J. Parallel Distrib. Comput. 11, 1991): single-node broadcast,
//! scatter (section 3), multinode broadcast (section 2) and total exchange with
//! buffering (section 4), with gather and accumulate as the reversals of
//! scatter and broadcast.
//!
//! Every construction here is *untrusted*: it produces a
//! [`Schedule`] on `hypercube d` with all ports, which
//! the caller replays with [`replay`](fn@txverify_core::schedule::replay); the lower bounds of
//! [`bounds`] are computed from the network alone, by counting, not from the
//! constructions. Node numbering is that of the schedule networks: bit i of a
//! node is its coordinate i + 1, the paper's "position i + 1 from the right".

pub mod baselines;
pub mod bounds;
pub mod broadcast;
pub mod buffer;
pub mod exchange;
pub mod mnb;
mod necklace;
pub mod report;
pub mod scatter;
pub mod single_port;
pub mod table;

use std::fmt;
use std::str::FromStr;
use txverify_core::schedule::{Collective, Schedule, TimedSend};

/// The largest dimension `txverify hypercube` accepts.
pub const MAX_DIMENSION: u32 = 16;

/// A collective the module builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    /// One packet from the root to every node (binomial tree).
    Broadcast,
    /// A packet from the root to each node (section 3).
    Scatter,
    /// A packet from each node to the root: the reversal of scatter.
    Gather,
    /// Every node's contribution combined at the root: the reversal of broadcast.
    Accumulate,
    /// Every node broadcasts (section 2).
    Mnb,
    /// Every node sends a packet to every node (section 4).
    Exchange,
}

impl Problem {
    /// Every problem, in the order of the documentation.
    pub const ALL: [Problem; 6] = [
        Problem::Broadcast,
        Problem::Scatter,
        Problem::Gather,
        Problem::Accumulate,
        Problem::Mnb,
        Problem::Exchange,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Problem::Broadcast => "broadcast",
            Problem::Scatter => "scatter",
            Problem::Gather => "gather",
            Problem::Accumulate => "accumulate",
            Problem::Mnb => "mnb",
            Problem::Exchange => "exchange",
        }
    }

    /// Whether the problem has a root node.
    pub fn has_root(self) -> bool {
        !matches!(self, Problem::Mnb | Problem::Exchange)
    }

    /// The schedule collective of the problem from `root`.
    pub fn collective(self, root: u32) -> Collective {
        match self {
            Problem::Broadcast => Collective::broadcast(root),
            Problem::Scatter => Collective::Scatter(root),
            Problem::Gather => Collective::Gather(root),
            Problem::Accumulate => Collective::reduce(root),
            Problem::Mnb => Collective::ALLGATHER,
            Problem::Exchange => Collective::TotalExchange,
        }
    }

    /// Sends of the construction on the d-cube (the optimal numbers of the
    /// paper's Table 1 and of the broadcast tree), for the memory estimate.
    pub fn sends(self, d: u32) -> u128 {
        let n = 1u128 << d;
        let d = u128::from(d);
        match self {
            Problem::Broadcast | Problem::Accumulate => n - 1,
            Problem::Scatter | Problem::Gather => d * n / 2,
            Problem::Mnb => n * (n - 1),
            Problem::Exchange => d * n * n / 2,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Problem {
    type Err = HypercubeError;

    fn from_str(text: &str) -> Result<Problem, HypercubeError> {
        Problem::ALL
            .into_iter()
            .find(|p| p.name() == text)
            .ok_or_else(|| HypercubeError::UnknownProblem(text.to_string()))
    }
}

/// Why no schedule was built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HypercubeError {
    /// Not a problem this module builds.
    #[error("unknown problem `{0}` (known: broadcast, scatter, gather, accumulate, mnb, exchange)")]
    UnknownProblem(String),
    /// The dimension is outside 1 … [`MAX_DIMENSION`].
    #[error("the dimension must be between 1 and {MAX_DIMENSION}, not {0}")]
    Dimension(u32),
    /// The root is not a node.
    #[error("root {root} is not a node of the {d}-cube (nodes 0 … {})", (1u64 << d) - 1)]
    RootOutOfRange {
        /// The root given.
        root: u32,
        /// The dimension.
        d: u32,
    },
    /// A root was given to a problem without one.
    #[error("`{0}` has no root")]
    UnexpectedRoot(&'static str),
    /// A step of a construction did not give what the paper says it gives.
    #[error("the {problem} construction failed its own check: {message}")]
    Construction {
        /// The problem.
        problem: &'static str,
        /// What failed.
        message: String,
    },
    /// The multinode broadcast's link sets are not a conflict-free tree.
    #[error("the mnb link sets are not a conflict-free broadcast tree: {0}")]
    LinkSets(#[from] mnb::LinkSetError),
}

/// A built schedule and what its construction says about itself.
#[derive(Clone, Debug)]
pub struct Built {
    /// The schedule, on `hypercube d`, all ports, sends in step order.
    pub schedule: Schedule,
    /// Scatter and gather: the number of nodes in each subtree of the root, by
    /// the dimension of the root's link into it.
    pub subtree_sizes: Option<Vec<u64>>,
    /// Mnb: the number of links in each set A_i.
    pub link_set_sizes: Option<Vec<usize>>,
    /// The construction's own checks that passed, in words.
    pub checks: Vec<String>,
}

/// Refuses a dimension outside 1 … [`MAX_DIMENSION`], a root given to a
/// problem without one and a root that is not a node, as [`build`] does.
pub fn validate(problem: Problem, d: u32, root: Option<u32>) -> Result<(), HypercubeError> {
    if d == 0 || d > MAX_DIMENSION {
        return Err(HypercubeError::Dimension(d));
    }
    if root.is_some() && !problem.has_root() {
        return Err(HypercubeError::UnexpectedRoot(problem.name()));
    }
    let root = root.unwrap_or(0);
    if u64::from(root) >= 1u64 << d {
        return Err(HypercubeError::RootOutOfRange { root, d });
    }
    Ok(())
}

/// Builds `problem` on the d-cube from `root` (ignored by mnb and exchange,
/// which must be given `None`; the others default to node 0).
pub fn build(problem: Problem, d: u32, root: Option<u32>) -> Result<Built, HypercubeError> {
    validate(problem, d, root)?;
    let root = root.unwrap_or(0);
    let mut built = Built {
        schedule: broadcast::build(d, root),
        subtree_sizes: None,
        link_set_sizes: None,
        checks: Vec::new(),
    };
    match problem {
        Problem::Broadcast => {}
        Problem::Accumulate => built.schedule = reversed(&built.schedule, problem.collective(root)),
        Problem::Scatter | Problem::Gather => {
            let (schedule, sizes) = scatter::build(d, root)?;
            built.schedule = if problem == Problem::Gather {
                reversed(&schedule, problem.collective(root))
            } else {
                schedule
            };
            built.subtree_sizes = Some(sizes);
            built.checks = vec![
                "every tree link joins a node to one with a single unity bit fewer (a shortest path tree)".into(),
                "every subtree of the root has at most ceil((2^d - 1)/d) nodes".into(),
            ];
        }
        Problem::Mnb => {
            let (schedule, sets) = mnb::build(d)?;
            built.schedule = schedule;
            built.link_set_sizes = Some(sets.iter().map(Vec::len).collect());
            built.checks = vec![
                "the links of every set A_i are of distinct types".into(),
                "every link of A_i starts at 00...0 or at a node reached by A_1 ... A_(i-1)".into(),
                "every node other than 00...0 is reached exactly once".into(),
            ];
        }
        Problem::Exchange => {
            built.schedule = exchange::build(d)?;
            built.checks = exchange_checks();
        }
    }
    Ok(built)
}

/// What [`exchange::hops_by_step`] (and so [`build`]) checks of section 4's
/// total exchange, in words.
pub fn exchange_checks() -> Vec<String> {
    vec![
        "the inductive hypothesis N_d(i, n) <= 2^(d-1) + n - 1 (eq. 6)".into(),
        "every packet crosses its bits at increasing steps within 1 ... 2^(d-1)".into(),
    ]
}

/// The time-and-direction reversal of a schedule, as `collective` (the dual):
/// step t becomes T + 1 − t, `from` and `to` swap, and a personalised packet
/// `(s, d)` is named `(d, s)`. Sends stay in step order.
pub fn reversed(schedule: &Schedule, collective: Collective) -> Schedule {
    let time = schedule.sends.iter().map(|s| s.step).max().unwrap_or(0);
    let sends = schedule
        .sends
        .iter()
        .rev()
        .map(|s| {
            let (source, destination) = if s.packet().is_broadcast() {
                (s.source, s.destination)
            } else {
                (s.destination, s.source)
            };
            TimedSend {
                step: time + 1 - s.step,
                from: s.to,
                to: s.from,
                source,
                destination,
            }
        })
        .collect();
    Schedule {
        network: schedule.network.clone(),
        ports: schedule.ports,
        collective,
        sends,
    }
}

/// Bytes the build, the replay and the report of `problem` on the d-cube
/// take at their peak: 20 bytes per send held (every send; for a `streamed`
/// exchange whose single-port baseline is not replayed, the d·2^d sends of
/// one step, twice for the batch's growth), the replay's state (8 bytes per
/// personalised packet, 2 bits per broadcast copy), the buffer count (1 bit
/// per personalised packet), the graph and a fixed 16 MiB for the program.
/// Within 3% of the peak resident memory measured from d = 12 on, and above
/// it below (docs/hypercube.md).
pub fn memory_estimate(problem: Problem, d: u32, streamed: bool) -> u128 {
    let n = 1u128 << d;
    // The single-port baseline, replayed after the all-port schedule is
    // dropped, holds as many sends when it is replayed at all.
    let whole = match problem {
        Problem::Gather | Problem::Accumulate => 2 * problem.sends(d), // and its reversal
        _ => problem.sends(d),
    };
    let held = if streamed && problem == Problem::Exchange && whole > baselines::REPLAY_MAX_SENDS {
        2 * u128::from(d) * n
    } else {
        whole
    };
    let (packets, copies) = match problem {
        Problem::Exchange => (n * n, 0),
        Problem::Scatter | Problem::Gather => (n, 0),
        Problem::Broadcast | Problem::Accumulate => (0, n),
        Problem::Mnb => (0, n * n),
    };
    let graph = n * u128::from(d) * 8 + n * 16;
    held * 20 + packets * 8 + packets / 8 + copies / 4 + graph + (16 << 20)
}

/// Whether `txverify hypercube` streams `problem` (generates, replays and
/// counts its sends a step at a time) when no schedule file is asked for.
pub fn streams(problem: Problem) -> bool {
    problem == Problem::Exchange
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_parse_as_they_print() {
        for p in Problem::ALL {
            assert_eq!(p.name().parse::<Problem>(), Ok(p));
        }
        assert!(matches!(
            "alltoall".parse::<Problem>(),
            Err(HypercubeError::UnknownProblem(_))
        ));
    }

    #[test]
    fn bad_dimensions_roots_and_roots_of_rootless_problems_are_refused() {
        assert_eq!(
            build(Problem::Broadcast, 0, None).unwrap_err(),
            HypercubeError::Dimension(0)
        );
        assert_eq!(
            build(Problem::Mnb, 17, None).unwrap_err(),
            HypercubeError::Dimension(17)
        );
        assert_eq!(
            build(Problem::Scatter, 3, Some(8)).unwrap_err(),
            HypercubeError::RootOutOfRange { root: 8, d: 3 }
        );
        assert_eq!(
            build(Problem::Exchange, 3, Some(1)).unwrap_err(),
            HypercubeError::UnexpectedRoot("exchange")
        );
    }
}
