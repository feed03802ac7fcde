//! Schedules of the collectives that copy (broadcast, allgather) or combine
//! (reduce, reduce-scatter, allreduce: the formula of
//! [`super::collective_sums`]), with C chunks, under K ports or all: the
//! fewest steps by SAT, from the lower bound upward. The copies formula:
//!
//! The formula "the collective finishes in T steps", in the model of
//! docs/schedule.md: per item i (chunk c of block b) and time t = 0 … T a
//! variable `has(i, v, t)` says that node v holds the item after step t; per
//! step t and directed link u → w a variable `snd(i, t, u → w)` says that the
//! item is copied over that link at step t. Clauses: the item starts at b
//! alone and is everywhere after step T; a copy is sent only by a node that
//! held it after step t − 1, only to a node that did not, and then the
//! receiver holds it; a node holds an item after step t only if it did before
//! or received it at step t, and keeps it; one copy of an item into a node a
//! step (a second is delivered-twice); one packet per directed link a step; at
//! most K sends and K receives per node a step. A `has` variable is made only
//! where breadth-first distance allows (d(b, v) ≤ t), which every schedule
//! respects, so an unsatisfiable formula speaks about every schedule of the
//! model. Every model is decoded into sends and replayed by the core before
//! it is returned; a model the replay rejects is an encoder bug (an error).

use super::collective_certificate as certificate;
use crate::certificate::ProofKind;
use crate::cnf::{Cnf, Lit};
use crate::options::{SolverChoice, SolverError};
use crate::refutation::CheckedRefutation;
use crate::solver::{SatAnswer, SolveControl};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use txverify_core::network::Graph;
use txverify_core::schedule::{
    Collective, Items, Packet, Ports, ReplayOptions, Schedule, TimedSend, replay,
};
use txverify_core::verdict::{OptimalBy, ScheduleVerdict, schedule_optimal_by};

/// The version of this encoding, for the record of a search.
pub const COPIES_ENCODING_VERSION: &str = "txverify-copies-encoding-1";

/// Why a collective search failed (as opposed to finding nothing).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CollectiveSearchError {
    /// The collective is not one this search handles.
    #[error(
        "{0} is not searched here: --collective takes broadcast R, allgather, reduce R, reduce-scatter and allreduce (a total exchange: search --network without --collective)"
    )]
    Unsupported(Collective),
    /// The formula would be too large.
    #[error(
        "the formula for T={time} would have about {estimate} variables, more than the limit of {limit}: raise it with --max-variables N"
    )]
    OverLimit {
        /// The number of steps.
        time: usize,
        /// The variables estimated.
        estimate: u64,
        /// The limit.
        limit: u64,
    },
    /// The solver failed.
    #[error("solver error: {0}")]
    Solver(#[from] SolverError),
    /// A certificate could not be written.
    #[error("cannot write the certificate in {path}: {source}")]
    Write {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The decoded model is not a valid schedule: an encoder bug.
    #[error("internal error: the model for T={time} replays with {violations} violations")]
    InvalidModel {
        /// The number of steps.
        time: usize,
        /// The violations the replay counted.
        violations: u64,
    },
}

/// The formula and what its send variables mean.
pub struct CollectiveEncoding {
    /// The formula.
    pub cnf: Cnf,
    sends: Vec<(Lit, TimedSend)>,
}

impl CollectiveEncoding {
    pub(crate) fn new(cnf: Cnf, sends: Vec<(Lit, TimedSend)>) -> CollectiveEncoding {
        CollectiveEncoding { cnf, sends }
    }

    /// The sends a model (`model[v − 1]`, the value of variable `v`) makes.
    pub fn decode(&self, model: &[bool]) -> Vec<TimedSend> {
        let mut sends: Vec<TimedSend> = self
            .sends
            .iter()
            .filter(|(var, _)| model.get(*var as usize - 1).copied().unwrap_or(false))
            .map(|&(_, s)| s)
            .collect();
        sends.sort_by_key(|s| s.step);
        sends
    }
}

/// The items of a copying collective as `(block, chunk)`.
fn items(graph: &Graph, collective: Collective) -> Vec<(u32, u32)> {
    let blocks: Vec<u32> = match collective.root() {
        Some(r) => vec![r],
        None => (0..graph.nodes() as u32).collect(),
    };
    let chunks = collective.chunks();
    blocks
        .into_iter()
        .flat_map(|b| (0..chunks).map(move |c| (b, c)))
        .collect()
}

/// The formula of `collective` for `time` steps: [`encode_copies`] for
/// broadcast and allgather, [`super::collective_sums::encode_sums`] for reduce,
/// reduce-scatter and allreduce.
pub fn encode(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    match collective.items() {
        Items::Sums => super::collective_sums::encode_sums(graph, collective, ports, time),
        _ => encode_copies(graph, collective, ports, time),
    }
}

/// The version of the encoding [`encode`] uses for `collective`.
pub fn encoding_version(collective: Collective) -> &'static str {
    match collective.items() {
        Items::Sums => super::collective_sums::SUMS_ENCODING_VERSION,
        _ => COPIES_ENCODING_VERSION,
    }
}

/// An upper estimate of the variables of [`encode`]'s formula.
pub fn estimate(graph: &Graph, collective: Collective, time: usize) -> u64 {
    match collective.items() {
        Items::Sums => super::collective_sums::estimate_variables(graph, collective, time),
        _ => estimate_variables(graph, collective, time),
    }
}

/// An upper estimate of the copies formula's variables for `time` steps.
pub fn estimate_variables(graph: &Graph, collective: Collective, time: usize) -> u64 {
    let items = items(graph, collective).len() as u64;
    let per_item = (time as u64 + 1) * (graph.nodes() as u64 + graph.directed_links() as u64);
    items.saturating_mul(per_item)
}

/// Builds the formula for `time` steps.
pub fn encode_copies(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    if collective.items() != Items::Copies {
        return Err(CollectiveSearchError::Unsupported(collective));
    }
    let n = graph.nodes();
    let links = graph.directed_links();
    let mut cnf = Cnf::new();
    let mut sends = Vec::new();
    // The send variables of each (step, link), of each (step, node) out and in.
    let mut on_link: Vec<Vec<Lit>> = vec![Vec::new(); time * links];
    let mut out: Vec<Vec<Lit>> = vec![Vec::new(); time * n];
    let mut inn: Vec<Vec<Lit>> = vec![Vec::new(); time * n];
    for (block, chunk) in items(graph, collective) {
        let dist = graph.distances_from(block);
        // has[t][v]: 0 where the item cannot be yet.
        let mut has = vec![vec![0 as Lit; n]; time + 1];
        for (t, row) in has.iter_mut().enumerate() {
            for (v, slot) in row.iter_mut().enumerate() {
                if dist[v] as usize <= t {
                    *slot = cnf.fresh();
                }
            }
        }
        cnf.add(&[has[0][block as usize]]);
        for &last in &has[time] {
            // Everywhere at the end (an empty clause when too far).
            cnf.add(if last == 0 {
                &[]
            } else {
                std::slice::from_ref(&last)
            });
        }
        for t in 1..=time {
            let mut into: Vec<Vec<Lit>> = vec![Vec::new(); n];
            for u in 0..n as u32 {
                let before = has[t - 1][u as usize];
                if before == 0 {
                    continue;
                }
                for link in graph.links_of(u) {
                    let (_, w) = graph.endpoints(link);
                    let s = cnf.fresh();
                    cnf.add(&[-s, before]);
                    let held = has[t - 1][w as usize];
                    if held != 0 {
                        cnf.add(&[-s, -held]);
                    }
                    cnf.add(&[-s, has[t][w as usize]]);
                    into[w as usize].push(s);
                    on_link[(t - 1) * links + link as usize].push(s);
                    out[(t - 1) * n + u as usize].push(s);
                    inn[(t - 1) * n + w as usize].push(s);
                    let p = Packet::item(block, chunk);
                    let send = TimedSend {
                        step: t as u32,
                        from: u,
                        to: w,
                        source: p.source,
                        destination: p.destination,
                    };
                    sends.push((s, send));
                }
            }
            for (v, arriving) in into.into_iter().enumerate() {
                let (before, after) = (has[t - 1][v], has[t][v]);
                if after == 0 {
                    continue;
                }
                // Held after t: held before, or arrived at t; and kept.
                let mut clause = vec![-after];
                if before != 0 {
                    clause.push(before);
                    cnf.add(&[-before, after]);
                }
                clause.extend(&arriving);
                cnf.add(&clause);
                cnf.at_most_one(&arriving);
            }
        }
    }
    for vars in &on_link {
        cnf.at_most_one(vars);
    }
    if let Ports::Limit(k) = ports {
        for vars in out.iter().chain(&inn) {
            cnf.at_most(vars, k as usize);
        }
    }
    Ok(CollectiveEncoding { cnf, sends })
}

/// What a search is asked.
#[derive(Clone, Debug)]
pub struct CollectiveSearchOptions {
    /// The network as named (recorded in certificates).
    pub network: String,
    /// Where certificates of the refuted times go (`DIR/T<t>/`).
    pub certificate_dir: Option<PathBuf>,
    /// The collective (broadcast or allgather, with its chunks).
    pub collective: Collective,
    /// The port model.
    pub ports: Ports,
    /// The first number of steps tried (the lower bound).
    pub from: usize,
    /// The last number of steps tried.
    pub to: usize,
    /// Give up on one `T` after this long.
    pub time_limit: Option<Duration>,
    /// The solver.
    pub solver: SolverChoice,
    /// Refuse a formula estimated to have more variables than this.
    pub max_variables: u64,
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct CollectiveSearch {
    /// The sends of the fastest schedule found (replayed, valid).
    pub found: Option<Vec<TimedSend>>,
    /// The numbers of steps the solver refuted, in order.
    pub infeasible: Vec<CollectiveInfeasibility>,
    /// The numbers of steps where the limit ran out.
    pub unknown: Vec<usize>,
}

/// A number of steps the solver refuted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectiveInfeasibility {
    /// The number of steps.
    pub time: usize,
    /// What the refutation proves, in words.
    pub claim: String,
    /// Where its certificate was written.
    pub certificate: Option<PathBuf>,
    /// Whether that certificate passed
    /// [`super::collective_certificate::verify`] right after it was written.
    pub certificate_checked: bool,
    /// The refutation, when the certificate passed (only this crate makes one).
    refutation: Option<CheckedRefutation>,
}

/// Why the judged schedule is optimal, if it is (`lower_bound`,
/// `certificates`): the core's one rule
/// ([`txverify_core::verdict::schedule_optimal_by`]) on the checked
/// refutations among `infeasible`; a refutation without a checked
/// certificate does not count.
pub fn collective_optimal_by(
    verdict: &ScheduleVerdict,
    infeasible: &[CollectiveInfeasibility],
) -> Option<&'static str> {
    let refutations: Vec<CheckedRefutation> = infeasible
        .iter()
        .filter_map(|i| i.refutation.clone())
        .collect();
    schedule_optimal_by(verdict, &refutations).map(OptimalBy::name)
}

/// Tries `from ..= to` steps in order and stops at the first satisfiable one.
/// `progress` hears each `T` before it is tried.
pub fn minimise_collective(
    graph: &Graph,
    options: &CollectiveSearchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<CollectiveSearch, CollectiveSearchError> {
    let mut result = CollectiveSearch::default();
    for time in options.from..=options.to {
        progress(time);
        if collective_unsupported(options.collective) {
            return Err(CollectiveSearchError::Unsupported(options.collective));
        }
        let estimate = estimate(graph, options.collective, time);
        if estimate > options.max_variables {
            return Err(CollectiveSearchError::OverLimit {
                time,
                estimate,
                limit: options.max_variables,
            });
        }
        let encoding = encode(graph, options.collective, options.ports, time)?;
        let dir = options
            .certificate_dir
            .as_ref()
            .map(|d| crate::certificate_dir_for(d, time));
        let kind = match options.solver {
            SolverChoice::Cadical => ProofKind::Lrat,
            _ => ProofKind::Drat,
        };
        let failed = |path: &PathBuf| {
            let path = path.clone();
            move |source| CollectiveSearchError::Write { path, source }
        };
        if let Some(dir) = &dir {
            std::fs::create_dir_all(dir).map_err(failed(dir))?;
        }
        let proof_path = dir.as_ref().map(|d| d.join(kind.file_name()));
        let drat: Option<Box<dyn std::io::Write>> = match (&proof_path, kind) {
            (Some(path), ProofKind::Drat) => Some(Box::new(std::io::BufWriter::new(
                std::fs::File::create(path).map_err(failed(path))?,
            ))),
            _ => None,
        };
        let control = SolveControl {
            deadline: options.time_limit.map(|limit| Instant::now() + limit),
            stop: vec![],
            proof: drat,
            lrat: proof_path.as_deref().filter(|_| kind == ProofKind::Lrat),
            on_progress: Box::new(|_| {}),
        };
        let answer = crate::run_solver(options.solver, None, &encoding.cnf, control)?.0;
        if let (Some(dir), false) = (&dir, matches!(answer, SatAnswer::Unsat)) {
            let _ = std::fs::remove_dir_all(dir);
        }
        match answer {
            SatAnswer::Sat(model) => {
                let sends = encoding.decode(&model);
                check_model(graph, options, time, &sends)?;
                result.found = Some(sends);
                break;
            }
            SatAnswer::Unsat => {
                let mut checked = None;
                if let Some(dir) = &dir {
                    let provenance = certificate::provenance_of(
                        &options.network,
                        graph,
                        options.collective,
                        options.ports,
                        time,
                        &encoding,
                        kind,
                    );
                    certificate::write(dir, &provenance, &encoding).map_err(failed(dir))?;
                    checked = certificate::verify(
                        graph,
                        dir,
                        Some(options.collective),
                        options.max_variables,
                    )
                    .ok();
                }
                result.infeasible.push(CollectiveInfeasibility {
                    time,
                    claim: certificate::claim(
                        &options.network,
                        options.collective,
                        options.ports,
                        time,
                    ),
                    certificate: dir,
                    certificate_checked: checked.is_some(),
                    refutation: checked
                        .as_ref()
                        .map(CheckedRefutation::of_collective_certificate),
                });
            }
            SatAnswer::Unknown => result.unknown.push(time),
        }
    }
    Ok(result)
}

/// The personalised collectives are searched by `search --network` alone.
fn collective_unsupported(c: Collective) -> bool {
    c.items() == Items::None
}

/// Replays decoded sends: a model that is not a valid schedule finishing by
/// `time` is an encoder bug.
fn check_model(
    graph: &Graph,
    options: &CollectiveSearchOptions,
    time: usize,
    sends: &[TimedSend],
) -> Result<(), CollectiveSearchError> {
    let schedule = Schedule {
        network: None,
        ports: Some(options.ports),
        collective: options.collective,
        sends: sends.to_vec(),
    };
    let invalid = |violations| CollectiveSearchError::InvalidModel { time, violations };
    let report =
        replay(&schedule, graph, &ReplayOptions { max_listed: 0 }).map_err(|_| invalid(0))?;
    if report.violation_count() > 0 || report.time() as usize > time {
        return Err(invalid(report.violation_count()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    fn times(found: &CollectiveSearch) -> Vec<usize> {
        found.infeasible.iter().map(|i| i.time).collect()
    }

    fn fastest(name: &str, collective: Collective, ports: Ports, from: usize) -> CollectiveSearch {
        let options = CollectiveSearchOptions {
            network: name.to_string(),
            certificate_dir: None,
            collective,
            ports,
            from,
            to: from + 4,
            time_limit: None,
            solver: SolverChoice::Varisat,
            max_variables: 1 << 24,
        };
        minimise_collective(&graph(name), &options, &mut |_| {}).unwrap()
    }

    #[test]
    fn allgather_on_a_ring_of_six_takes_three_steps_all_port_and_five_on_one_port() {
        let found = fastest("ring 6", Collective::ALLGATHER, Ports::All, 2);
        assert_eq!(times(&found), [2]);
        assert_eq!(found.found.unwrap().last().unwrap().step, 3);
        let found = fastest("ring 6", Collective::ALLGATHER, Ports::Limit(1), 4);
        assert_eq!(times(&found), [4]);
        assert_eq!(found.found.unwrap().last().unwrap().step, 5);
    }

    #[test]
    fn a_pipelined_broadcast_of_three_chunks_down_a_line() {
        let c = Collective::broadcast(0).with_chunks(3).unwrap();
        let found = fastest("linear 4", c, Ports::Limit(1), 4);
        assert_eq!(times(&found), [4]);
        assert_eq!(found.found.unwrap().last().unwrap().step, 5);
    }

    #[test]
    fn refuted_times_leave_certificates_that_verify() {
        let g = graph("ring 6");
        let dir = std::env::temp_dir().join(format!("txverify-coll-cert-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut solvers = vec![SolverChoice::Varisat];
        if cfg!(feature = "cadical") {
            solvers.push(SolverChoice::Cadical);
        }
        for solver in solvers {
            let options = CollectiveSearchOptions {
                network: "ring 6".into(),
                certificate_dir: Some(dir.clone()),
                collective: Collective::ALLGATHER,
                ports: Ports::Limit(1),
                from: 4,
                to: 6,
                time_limit: None,
                solver,
                max_variables: 1 << 24,
            };
            let found = minimise_collective(&g, &options, &mut |_| {}).unwrap();
            let refuted = &found.infeasible[0];
            assert!(refuted.certificate_checked, "{solver:?}");
            let at = refuted.certificate.clone().unwrap();
            let ok = certificate::verify(&g, &at, None, 1 << 24).unwrap();
            assert_eq!(ok.provenance.time, 4);
            // Another collective asked, another graph, a changed formula: refused.
            let other = Collective::broadcast(0);
            assert!(certificate::verify(&g, &at, Some(other), 1 << 24).is_err());
            assert!(certificate::verify(&graph("ring 7"), &at, None, 1 << 24).is_err());
            let cnf = at.join("formula.cnf");
            let text = std::fs::read_to_string(&cnf).unwrap();
            std::fs::write(&cnf, text.replacen("time 4", "time 3", 1)).unwrap();
            assert!(matches!(
                certificate::verify(&g, &at, None, 1 << 24),
                Err(certificate::CollectiveCertificateError::FormulaDiffers)
            ));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn personalised_collectives_are_refused() {
        let g = graph("ring 4");
        assert!(matches!(
            encode_copies(&g, Collective::TotalExchange, Ports::All, 3),
            Err(CollectiveSearchError::Unsupported(_))
        ));
    }

    #[test]
    fn reductions_on_a_ring_meet_their_bounds() {
        // One-way-ring figures: reduce-scatter and allgather N − 1, allreduce
        // 2(N − 1), all one-port on ring 5; reduce into node 0 of a line.
        let rs = fastest(
            "ring 5",
            Collective::ReduceScatter { chunks: 1 },
            Ports::Limit(1),
            3,
        );
        assert_eq!(times(&rs), [3]);
        assert_eq!(rs.found.unwrap().last().unwrap().step, 4);
        let ar = fastest(
            "ring 4",
            Collective::Allreduce { chunks: 1 },
            Ports::Limit(1),
            5,
        );
        assert_eq!(times(&ar), [5]);
        assert_eq!(ar.found.unwrap().last().unwrap().step, 6);
        let r = fastest("linear 4", Collective::reduce(0), Ports::All, 2);
        assert_eq!(times(&r), [2]);
        assert_eq!(r.found.unwrap().last().unwrap().step, 3);
    }
}
