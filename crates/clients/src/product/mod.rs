//! Total exchange on product (multidimensional) networks, after seed 000
//! (Dimakopoulos & Dimopoulos): algorithm A1 (single-port, any product) and A2
//! (all-port, `A × B` with `|A| = |B|`, recursively `H^(2^k)`), composed from
//! total exchanges in the factors ([`factor`]), written as schedules and
//! replayed by the one schedule simulator.
//!
//! The verdict of [`run`] rests on the replay of the whole composed schedule
//! on the product graph (built from its name, not from the composition) and on
//! bounds computed apart ([`bounds`]); the theorem's time is computed from the
//! factors' times alone and compared with the replayed time.

pub mod best;
pub mod bounds;
pub mod compose;
pub mod factor;
pub mod header;
pub mod report;

pub use factor::{Candidate, Factor, FactorExchange, LocalExchange};

use std::fmt;
use txverify_core::bounds::total_exchange;
use txverify_core::bounds::{Cut, Ratio};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{
    Collective, Ports, ReplayError, ReplayOptions, ReplayReport, Schedule, replay,
};
use txverify_core::verdict::{NamedBound, ScheduleVerdict, judge};

/// The most sends a composed schedule may have (20 bytes each).
pub const MAX_SENDS: u64 = 1 << 27;

/// Which of the seed's algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Algorithm A1 (section 4): single-port, any product.
    A1,
    /// Algorithm A2 (section 5 and 6): all-port, halves of equal size.
    A2,
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::A1 => "a1",
            Algorithm::A2 => "a2",
        })
    }
}

/// Why no composed schedule was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProductError {
    /// The network is not a product of rings, paths or complete graphs.
    #[error(
        "`{0}` is not a product txverify composes (torus, mesh, genhypercube, hypercube, kary, ring, linear, complete, star, pancake, ccc, butterfly, and products of them written `NET x NET`)"
    )]
    NotAProduct(String),
    /// A2 needs the factors to split into two halves with as many nodes each.
    #[error(
        "A2 needs the dimensions to split, again and again, into two halves with as many nodes each (as `torus N N`, `torus N N N N`, `hypercube 4`); `{0}` does not"
    )]
    NoEqualHalves(String),
    /// The network cannot be built.
    #[error("{0}")]
    Network(txverify_core::network::NetworkError),
    /// A factor's schedule failed its own replay (a bug).
    #[error("the total exchange in the factor {0} is not valid: {1}")]
    Factor(Factor, String),
    /// A factor's algorithm could not be built (a bug).
    #[error("cannot build a factor's total exchange: {0}")]
    Construction(String),
    /// A factor's algorithm refuses its size: its run would be over a limit.
    #[error("cannot build a factor's total exchange: {0}")]
    FactorOverLimit(String),
    /// The composed schedule would be too large.
    #[error("the composed schedule would have {sends} sends, more than the limit of {limit}")]
    TooLarge {
        /// Sends it would have.
        sends: u64,
        /// The limit ([`MAX_SENDS`]).
        limit: u64,
    },
    /// The replay could not run.
    #[error("cannot replay the composed schedule: {0}")]
    Replay(ReplayError),
}

/// The factors of a named product network, first coordinate first (the
/// fastest-varying one in node numbers).
pub fn factors_of(network: &NetworkName) -> Result<Vec<Factor>, ProductError> {
    Ok(match network {
        NetworkName::Ring(n) => vec![Factor::Ring(*n)],
        NetworkName::Linear(n) => vec![Factor::Linear(*n)],
        NetworkName::Complete(n) => vec![Factor::Complete(*n)],
        NetworkName::Torus(s) => s.iter().map(|&n| Factor::Ring(n)).collect(),
        NetworkName::Mesh(s) => s.iter().map(|&n| Factor::Linear(n)).collect(),
        NetworkName::GenHypercube(s) => s.iter().map(|&n| Factor::Complete(n)).collect(),
        // The 0-cube is one node: one factor of one node, not none.
        NetworkName::Hypercube(0) => vec![Factor::Linear(1)],
        NetworkName::Hypercube(d) => vec![Factor::Linear(2); *d as usize],
        NetworkName::Cayley { family, size } => {
            let nodes = network.nodes().map_err(ProductError::Network)?;
            vec![Factor::Cayley {
                family: *family,
                size: *size,
                nodes: nodes as u32,
            }]
        }
        NetworkName::Edges(_) => return Err(ProductError::NotAProduct(network.to_string())),
        NetworkName::Twisted(_) | NetworkName::Fabric(_) => {
            return Err(ProductError::NotAProduct(network.to_string()));
        }
        NetworkName::Product(parts) => {
            let mut factors = Vec::new();
            for part in parts {
                match part {
                    // An edge list is a factor of a product, not a product alone.
                    NetworkName::Edges(path) => factors.push(Factor::Edges {
                        path: path.clone(),
                        nodes: part.nodes().map_err(ProductError::Network)? as u32,
                    }),
                    _ => factors.extend(factors_of(part)?),
                }
            }
            factors
        }
    })
}

/// How the composition nests: a factor, or A1/A2 of two parts.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Plan {
    Factor(usize),
    Compose(Box<Plan>, Box<Plan>),
}

/// A1 nests to the left, G = (G1 × … × G_{k−1}) × G_k (section 4).
fn a1_plan(k: usize) -> Plan {
    (1..k).fold(Plan::Factor(0), |acc, i| {
        Plan::Compose(Box::new(acc), Box::new(Plan::Factor(i)))
    })
}

/// A2 splits the dimensions `range` into a first and a second part with as
/// many nodes each, and each part again, down to single factors.
fn a2_plan(factors: &[Factor], range: std::ops::Range<usize>) -> Option<Plan> {
    if range.len() == 1 {
        return Some(Plan::Factor(range.start));
    }
    let sizes: Vec<u64> = factors[range.clone()]
        .iter()
        .map(|f| u64::from(f.nodes()))
        .collect();
    let total: u64 = sizes.iter().product();
    let mut prefix = 1u64;
    for (i, size) in sizes.iter().enumerate().take(sizes.len() - 1) {
        prefix *= size;
        if prefix * prefix == total {
            let middle = range.start + i + 1;
            let first = a2_plan(factors, range.start..middle)?;
            let second = a2_plan(factors, middle..range.end)?;
            return Some(Plan::Compose(Box::new(first), Box::new(second)));
        }
    }
    None
}

/// The time a plan's theorem gives from the factors' times: Theorem 2
/// (`|A|·T_B + |B|·T_A`) for A1, Theorem 4 and section 6 (`n·max(T_A, T_B)`)
/// for A2. Returns (nodes, time).
fn theorem_time(plan: &Plan, algorithm: Algorithm, times: &[(u64, u64)]) -> (u64, u64) {
    match plan {
        Plan::Factor(i) => times[*i],
        Plan::Compose(a, b) => {
            let (na, ta) = theorem_time(a, algorithm, times);
            let (nb, tb) = theorem_time(b, algorithm, times);
            let time = match algorithm {
                Algorithm::A1 => na * tb + nb * ta,
                Algorithm::A2 => na * ta.max(tb),
            };
            (na * nb, time)
        }
    }
}

/// Sends a plan's schedule will have, for the size check before building.
fn planned_sends(plan: &Plan, parts: &[FactorExchange]) -> (u64, u64) {
    match plan {
        Plan::Factor(i) => (
            u64::from(parts[*i].exchange.nodes),
            parts[*i].exchange.sends.len() as u64,
        ),
        Plan::Compose(a, b) => {
            let (na, sa) = planned_sends(a, parts);
            let (nb, sb) = planned_sends(b, parts);
            let sends = sa
                .saturating_mul(nb.saturating_mul(nb))
                .saturating_add(sb.saturating_mul(na.saturating_mul(na)));
            (na * nb, sends)
        }
    }
}

fn build(plan: &Plan, algorithm: Algorithm, parts: &[FactorExchange]) -> LocalExchange {
    match plan {
        Plan::Factor(i) => parts[*i].exchange.clone(),
        Plan::Compose(a, b) => {
            let a = build(a, algorithm, parts);
            let b = build(b, algorithm, parts);
            match algorithm {
                Algorithm::A1 => compose::a1(&a, &b),
                Algorithm::A2 => compose::a2(&a, &b),
            }
        }
    }
}

/// What the theorems of seed 000 say about the composition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theorem {
    /// Which: "Theorem 2 / Corollary 3", "Theorem 4 / Corollary 4" or "section 6".
    pub name: &'static str,
    /// The time it gives from the factors' times.
    pub time: u64,
    /// Whether its optimality condition holds (Theorem 3: every factor meets
    /// its average status; Theorem 5: homogeneous, and the factor's time equals
    /// its cut bound exactly), so that the time must equal the bound.
    pub says_optimal: bool,
}

/// One factor's part in a composition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactorReport {
    /// The factor and its schedule.
    pub part: FactorExchange,
    /// The factor's own lower bound under the model
    /// ([`txverify_core::bounds::total_exchange`] of the factor graph).
    pub lower_bound: NamedBound,
}

/// A composed schedule, replayed, with its theorem and bounds.
#[derive(Clone, Debug)]
pub struct ProductRun {
    /// A1 or A2.
    pub algorithm: Algorithm,
    /// The product network.
    pub network: NetworkName,
    /// Single-port (A1) or all-port (A2).
    pub ports: Ports,
    /// The factors with their schedules.
    pub factors: Vec<FactorReport>,
    /// The composed schedule.
    pub schedule: Schedule,
    /// The replay of the composed schedule on the product graph.
    pub replay: ReplayReport,
    /// What the seed's theorem gives.
    pub theorem: Theorem,
    /// The bound the time is compared with: the best of
    /// [`txverify_core::bounds::total_exchange`] on the product graph under
    /// the port model, as every command states it.
    pub lower_bound: NamedBound,
    /// The trusted verdict on the replay against `lower_bound`.
    pub verdict: ScheduleVerdict,
    /// Average status AS(G) = S_G / n, exact.
    pub average_status: Ratio,
    /// S_G by breadth-first search on the product graph equals S_G by
    /// Corollary 2 from the factors (checked; a mismatch is an error).
    pub status_by_theorem_agrees: bool,
    /// The best cut splitting one dimension.
    pub dimension_cut: Option<Cut>,
    /// The best cut over every bisection, for small graphs.
    pub exhaustive_cut: Option<Cut>,
}

impl ProductRun {
    /// Valid replay (the verdict's) and time equal to the theorem's.
    pub fn meets_theorem(&self) -> bool {
        self.verdict.valid() && u64::from(self.verdict.time()) == self.theorem.time
    }

    /// The verdict: valid replay and time equal to the lower bound.
    pub fn optimal(&self) -> bool {
        self.verdict.optimal()
    }
}

/// Composes `algorithm` on `network`, replays the schedule and computes the
/// bounds.
pub fn run(algorithm: Algorithm, network: &NetworkName) -> Result<ProductRun, ProductError> {
    let factors = factors_of(network)?;
    let graph = network.build().map_err(ProductError::Network)?;
    let ports = match algorithm {
        Algorithm::A1 => Ports::Limit(1),
        Algorithm::A2 => Ports::All,
    };
    let plan = match algorithm {
        Algorithm::A1 => a1_plan(factors.len()),
        Algorithm::A2 => a2_plan(&factors, 0..factors.len())
            .ok_or_else(|| ProductError::NoEqualHalves(network.to_string()))?,
    };
    // A factor that repeats (`star 4 x star 4`) is made once.
    let mut parts: Vec<FactorExchange> = Vec::with_capacity(factors.len());
    for f in &factors {
        let part = match parts.iter().find(|p| &p.factor == f) {
            Some(made) => made.clone(),
            None => factor::factor_exchange(f, ports)?,
        };
        parts.push(part);
    }
    let (_, sends) = planned_sends(&plan, &parts);
    if sends > MAX_SENDS {
        return Err(ProductError::TooLarge {
            sends,
            limit: MAX_SENDS,
        });
    }
    let composed = build(&plan, algorithm, &parts);
    let schedule = Schedule {
        network: Some(network.clone()),
        ports: Some(ports),
        collective: Collective::TotalExchange,
        sends: composed.sends,
    };
    let replayed =
        replay(&schedule, &graph, &ReplayOptions::default()).map_err(ProductError::Replay)?;

    let factor_reports: Vec<FactorReport> = parts
        .into_iter()
        .map(|part| {
            let lower_bound = factor_bound(&part.factor, ports);
            FactorReport { part, lower_bound }
        })
        .collect();
    let times: Vec<(u64, u64)> = factor_reports
        .iter()
        .map(|f| {
            (
                u64::from(f.part.factor.nodes()),
                u64::from(f.part.exchange.time),
            )
        })
        .collect();
    let (_, time) = theorem_time(&plan, algorithm, &times);
    let theorem = Theorem {
        name: match algorithm {
            Algorithm::A1 => "Theorem 2 / Corollary 3",
            Algorithm::A2 if homogeneous(&factors) => "Theorem 4 / Corollary 4",
            Algorithm::A2 => "section 6",
        },
        time,
        says_optimal: says_optimal(algorithm, &factors, &factor_reports),
    };
    let (total_status, _) = bounds::total_status_by_search(&graph);
    let n = graph.nodes() as u64;
    let lower_bound = total_exchange(&graph, ports).best().clone();
    let verdict = judge(&replayed, Some(lower_bound.clone()), None);
    Ok(ProductRun {
        algorithm,
        network: network.clone(),
        ports,
        lower_bound,
        verdict,
        factors: factor_reports,
        schedule,
        replay: replayed,
        theorem,
        average_status: Ratio {
            numerator: total_status,
            denominator: n.max(1),
        },
        status_by_theorem_agrees: bounds::total_status_by_theorem(&factors) == Some(total_status),
        dimension_cut: bounds::dimension_cut(&factors),
        exhaustive_cut: txverify_core::bounds::cut_search::best_bisection(&graph),
    })
}

fn homogeneous(factors: &[Factor]) -> bool {
    factors.windows(2).all(|w| w[0] == w[1]) && factors.len().is_power_of_two()
}

/// Theorem 3 (A1): every factor's time is its average status. Theorem 5 (A2):
/// homogeneous `H^(2^k)` and `T_H` equal to the cut fraction of `H` exactly.
fn says_optimal(algorithm: Algorithm, factors: &[Factor], reports: &[FactorReport]) -> bool {
    match algorithm {
        Algorithm::A1 => reports.iter().all(|r| {
            let status = bounds::factor_total_status(&r.part.factor);
            let n = u64::from(r.part.factor.nodes());
            status.is_some_and(|s| u64::from(r.part.exchange.time) * n == s)
        }),
        Algorithm::A2 => {
            homogeneous(factors)
                && reports.first().is_some_and(|r| {
                    let t = u64::from(r.part.exchange.time);
                    bounds::dimension_cut(std::slice::from_ref(&r.part.factor))
                        .is_some_and(|c| c.ratio.numerator == t * c.ratio.denominator)
                })
        }
    }
}

/// A factor's own bound: [`total_exchange`] of the factor graph under the
/// port model (for a linear array under one port, its node load).
fn factor_bound(factor: &Factor, ports: Ports) -> NamedBound {
    let graph = factor.network().build();
    // A factor was built once already to compose its schedule.
    graph.map_or_else(
        |_| total_exchange_unknown(ports),
        |g| total_exchange(&g, ports).best().clone(),
    )
}

/// The bound of a factor that does not build: the one-node graph's, 0.
fn total_exchange_unknown(ports: Ports) -> NamedBound {
    let one = NetworkName::Linear(1).build().expect("one node builds");
    total_exchange(&one, ports).best().clone()
}
