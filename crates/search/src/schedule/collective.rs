//! Schedules of the collectives that copy (broadcast, allgather) or combine
//! (reduce, reduce-scatter, allreduce: the formula of
//! [`super::collective_sums`]), with C chunks, under K ports or all: the
//! fewest steps by SAT, from the lower bound upward.
//!
//! Every model is decoded into sends and replayed by the core before it is
//! returned; a model the replay rejects is an encoder bug (an error). The
//! formulas: [`super::collective_copies`], [`super::collective_sums`].

use super::certificate;
pub use super::collective_copies::{
    COPIES_ENCODING_VERSION, CollectiveEncoding, CollectiveSearchError, encode_copies,
    estimate_variables,
};
use super::collective_formula::encode_translated;
pub use super::collective_formula::{encode, encode_until, encoding_version, estimate};
use super::collective_symmetry::Translations;
use super::{Phase, ScheduleInfeasibility, ScheduleSearch, StopToken, Stopped};
use crate::certificate::ProofKind;
use crate::options::SolverChoice;
use crate::refutation::CheckedRefutation;
use crate::solver::{SatAnswer, SolveControl};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use txverify_core::network::Graph;
use txverify_core::schedule::{
    Collective, Items, Ports, ReplayOptions, Schedule, TimedSend, replay,
};

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
    /// Try each `T` first with the formula of translated schedules
    /// ([`super::collective_symmetry`]) when the network has translations
    /// and the collective has a block per node.
    pub translate: bool,
    /// Stop the whole search at this instant (`--deadline S`).
    pub deadline: Option<Instant>,
    /// Stop the whole search when any of these flags is set (a signal).
    pub stop: Vec<Arc<AtomicBool>>,
}

impl CollectiveSearchOptions {
    /// Whether the whole search must stop now, and why.
    fn stopped(&self) -> Option<Stopped> {
        Stopped::now(&self.stop, self.deadline)
    }

    /// The run's stop token.
    fn token(&self) -> StopToken {
        StopToken::new(self.deadline, self.stop.clone())
    }

    /// The deadline of one solve started now: `--time-limit`'s or the
    /// run's, whichever comes first.
    fn solve_deadline(&self) -> Option<Instant> {
        let own = self.time_limit.map(|limit| Instant::now() + limit);
        own.into_iter().chain(self.deadline).min()
    }
}

/// Tries `from ..= to` steps in order and stops at the first satisfiable one.
/// `progress` hears each `T` before it is tried.
pub fn minimise_collective(
    graph: &Graph,
    options: &CollectiveSearchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<ScheduleSearch, CollectiveSearchError> {
    let mut result = ScheduleSearch::default();
    // A translation need not keep a fabric's capacities, limits or switches.
    let translations = (options.translate && graph.fabric().is_plain())
        .then(|| Translations::find(graph))
        .flatten();
    for time in options.from..=options.to {
        if let Some(why) = options.stopped() {
            result.stopped = Some(why);
            break;
        }
        progress(time);
        if collective_unsupported(options.collective) {
            return Err(CollectiveSearchError::Unsupported(options.collective));
        }
        let estimate = estimate(graph, options.collective, time);
        if let Some(translations) = &translations
            && estimate / translations.len() as u64 <= options.max_variables
        {
            match translated(graph, options, time, translations)? {
                Translated::Found(sends) => {
                    result.found = Some(sends);
                    result.translated = true;
                    break;
                }
                Translated::Stopped(why, phase) => {
                    result.unknown.push(time);
                    (result.stopped, result.stopped_in) = (Some(why), Some(phase));
                    break;
                }
                Translated::None => {}
            }
        }
        if estimate > options.max_variables {
            return Err(CollectiveSearchError::OverLimit {
                time,
                estimate,
                limit: options.max_variables,
            });
        }
        let encoding = match encode_until(
            graph,
            options.collective,
            options.ports,
            time,
            &options.token(),
        ) {
            Err(CollectiveSearchError::Stopped) => {
                result.unknown.push(time);
                result.stopped = options.stopped();
                result.stopped_in = Some(Phase::Encoding);
                break;
            }
            encoding => encoding?,
        };
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
        // Written under its partial name, renamed once finished.
        let final_path = dir.as_ref().map(|d| d.join(kind.file_name()));
        let proof_path = final_path.as_deref().map(super::partial_proof);
        let drat: Option<Box<dyn std::io::Write>> = match (&proof_path, kind) {
            (Some(path), ProofKind::Drat) => Some(Box::new(std::io::BufWriter::new(
                std::fs::File::create(path).map_err(failed(path))?,
            ))),
            _ => None,
        };
        let control = SolveControl {
            deadline: options.solve_deadline(),
            stop: options.stop.clone(),
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
                if let (Some(dir), Some(path)) = (&dir, &final_path) {
                    super::finish_proof(path).map_err(failed(dir))?;
                    checked = certificate::write_checked(
                        dir,
                        &options.network,
                        graph,
                        certificate::Subject::collective(options.collective, options.ports),
                        time,
                        &encoding.cnf,
                        kind,
                        options.max_variables,
                    )
                    .map_err(failed(dir))?;
                }
                result.infeasible.push(ScheduleInfeasibility {
                    time,
                    claim: certificate::collective_claim(
                        &options.network,
                        options.collective,
                        options.ports,
                        time,
                    ),
                    // The formula restricts nothing: it leaves out only where
                    // distances forbid an item to be.
                    covers_all_schedules: true,
                    restrictions: vec![],
                    certificate: dir,
                    certificate_checked: checked.is_some(),
                    refutation: checked
                        .as_ref()
                        .and_then(CheckedRefutation::of_schedule_certificate),
                });
            }
            SatAnswer::Unknown => {
                result.unknown.push(time);
                if let Some(why) = options.stopped() {
                    result.stopped = Some(why);
                    result.stopped_in = Some(Phase::Solving);
                    break;
                }
            }
        }
    }
    Ok(result)
}

/// A translated schedule finishing by `time`, if the restricted formula has
/// one (replayed like every model). Unsatisfiable or out of time, the
/// restricted formula says nothing: the caller goes on with the full one.
fn translated(
    graph: &Graph,
    options: &CollectiveSearchOptions,
    time: usize,
    translations: &Translations,
) -> Result<Translated, CollectiveSearchError> {
    let stop = options.token();
    let encoding = match encode_translated(
        graph,
        options.collective,
        options.ports,
        time,
        (translations, &stop),
    ) {
        Ok(Some(encoding)) => encoding,
        Ok(None) => return Ok(Translated::None),
        Err(_) => {
            let why = options.stopped().unwrap_or(Stopped::Requested);
            return Ok(Translated::Stopped(why, Phase::Encoding));
        }
    };
    // The run's deadline and signals stop this solve as they stop the full
    // formula's.
    let control = SolveControl {
        deadline: options.solve_deadline(),
        stop: options.stop.clone(),
        proof: None,
        lrat: None,
        on_progress: Box::new(|_| {}),
    };
    match crate::run_solver(options.solver, None, &encoding.cnf, control)?.0 {
        SatAnswer::Sat(model) => {
            let sends = encoding.decode(&model);
            check_model(graph, options, time, &sends)?;
            Ok(Translated::Found(sends))
        }
        _ => Ok(match options.stopped() {
            Some(why) => Translated::Stopped(why, Phase::Solving),
            None => Translated::None,
        }),
    }
}

/// What the translated formula gave.
enum Translated {
    /// A schedule.
    Found(Vec<TimedSend>),
    /// Nothing: the full formula is tried.
    None,
    /// The run was stopped, in this phase.
    Stopped(Stopped, Phase),
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

    fn times(found: &ScheduleSearch) -> Vec<usize> {
        found.infeasible.iter().map(|i| i.time).collect()
    }

    fn fastest(name: &str, collective: Collective, ports: Ports, from: usize) -> ScheduleSearch {
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
            translate: true,
            deadline: None,
            stop: vec![],
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
                translate: true,
                deadline: None,
                stop: vec![],
            };
            let found = minimise_collective(&g, &options, &mut |_| {}).unwrap();
            let refuted = &found.infeasible[0];
            assert!(refuted.certificate_checked, "{solver:?}");
            let at = refuted.certificate.clone().unwrap();
            let ok = certificate::verify_within(&g, &at, None, Some(1 << 24)).unwrap();
            assert_eq!(ok.provenance.time, 4);
            // Another collective asked, another graph, a changed formula: refused.
            let other = Collective::broadcast(0);
            assert!(certificate::verify_within(&g, &at, Some(other), Some(1 << 24)).is_err());
            assert!(
                certificate::verify_within(&graph("ring 7"), &at, None, Some(1 << 24)).is_err()
            );
            let cnf = at.join("formula.cnf");
            let text = std::fs::read_to_string(&cnf).unwrap();
            std::fs::write(&cnf, text.replacen("time 4", "time 3", 1)).unwrap();
            assert!(matches!(
                certificate::verify_within(&g, &at, None, Some(1 << 24)),
                Err(certificate::ScheduleCertificateError::FormulaDiffers)
            ));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn translated_schedules_are_found_where_the_network_has_translations() {
        // All-port allgather on the 3-cube: 3 steps (the diameter); every
        // block's items move as block 0's, XOR-translated.
        let found = fastest("hypercube 3", Collective::ALLGATHER, Ports::All, 3);
        assert!(found.translated);
        let sends = found.found.unwrap();
        assert_eq!(sends.len(), 8 * 7);
        let key = |s: &TimedSend| (s.step, s.from, s.to, s.source);
        let all: std::collections::HashSet<_> = sends.iter().map(key).collect();
        for s in sends.iter().filter(|s| s.source == 0) {
            for b in 0..8 {
                assert!(all.contains(&(s.step, s.from ^ b, s.to ^ b, b)), "{s:?}");
            }
        }
        // Reduce-scatter and allreduce on a ring, one port: the one-way ring.
        let rs = Collective::ReduceScatter { chunks: 1 };
        let found = fastest("ring 5", rs, Ports::Limit(1), 4);
        assert!(found.translated && found.infeasible.is_empty());
        assert_eq!(found.found.unwrap().last().unwrap().step, 4);
        // Asked not to, or on a line (no translations): the full formula.
        let line = fastest("linear 4", Collective::ALLGATHER, Ports::Limit(1), 5);
        assert!(!line.translated);
        let g = graph("hypercube 3");
        let options = CollectiveSearchOptions {
            network: "hypercube 3".into(),
            certificate_dir: None,
            collective: Collective::ALLGATHER,
            ports: Ports::All,
            from: 3,
            to: 3,
            time_limit: None,
            solver: SolverChoice::Varisat,
            max_variables: 1 << 24,
            translate: false,
            deadline: None,
            stop: vec![],
        };
        let full = minimise_collective(&g, &options, &mut |_| {}).unwrap();
        assert!(!full.translated && full.found.is_some());
    }

    /// One step below the core's bound the full formula is unsatisfiable
    /// (so is every fewer, a schedule of T − 1 steps being one of T), on
    /// graphs with cut vertices, where the cut vertex bound is the largest
    /// under one port.
    #[test]
    fn no_schedule_beats_the_bounds_on_graphs_with_cut_vertices() {
        let star = Graph::from_adjacency(vec![vec![1, 2, 3], vec![0], vec![0], vec![0]]).unwrap();
        // A triangle 0 1 2 with a tail 2 3 4.
        let tail = Graph::from_adjacency(vec![
            vec![1, 2],
            vec![0, 2],
            vec![0, 1, 3],
            vec![2, 4],
            vec![3],
        ])
        .unwrap();
        let one = Ports::Limit(1);
        let cases = [
            ("linear 4", graph("linear 4"), Collective::ALLGATHER, one),
            (
                "linear 4",
                graph("linear 4"),
                Collective::Allreduce { chunks: 1 },
                one,
            ),
            ("star", star.clone(), Collective::ALLGATHER, Ports::Limit(2)),
            (
                "star",
                star.clone(),
                Collective::ReduceScatter { chunks: 1 },
                one,
            ),
            (
                "star",
                star,
                Collective::broadcast(1).with_chunks(2).unwrap(),
                one,
            ),
            ("tail", tail.clone(), Collective::ALLGATHER, one),
            (
                "tail",
                tail,
                Collective::reduce(2).with_chunks(3).unwrap(),
                one,
            ),
        ];
        for (name, g, c, ports) in cases {
            let bound = txverify_core::bounds::collective(&g, c, ports).time;
            assert_eq!(bound.best().name(), "cut vertex", "{name}, {c}");
            let below = bound.value() as usize - 1;
            let options = CollectiveSearchOptions {
                network: name.to_string(),
                certificate_dir: None,
                collective: c,
                ports,
                from: below,
                to: below,
                time_limit: None,
                solver: SolverChoice::Varisat,
                max_variables: 1 << 24,
                translate: false,
                deadline: None,
                stop: vec![],
            };
            let found = minimise_collective(&g, &options, &mut |_| {}).unwrap();
            assert_eq!(times(&found), [below], "{name}, {c}, ports {ports}");
        }
    }

    #[test]
    fn a_stop_request_or_a_past_deadline_ends_the_search_before_the_next_time() {
        let g = graph("ring 6");
        let mut options = CollectiveSearchOptions {
            network: "ring 6".into(),
            certificate_dir: None,
            collective: Collective::ALLGATHER,
            ports: Ports::All,
            from: 2,
            to: 5,
            time_limit: None,
            solver: SolverChoice::Varisat,
            max_variables: 1 << 24,
            translate: true,
            deadline: None,
            stop: vec![Arc::new(AtomicBool::new(true))],
        };
        let mut tried = vec![];
        let found = minimise_collective(&g, &options, &mut |t| tried.push(t)).unwrap();
        assert_eq!(found.stopped, Some(Stopped::Requested));
        assert!(tried.is_empty() && found.found.is_none());
        options.stop.clear();
        options.deadline = Some(Instant::now());
        let found = minimise_collective(&g, &options, &mut |_| {}).unwrap();
        assert_eq!(found.stopped, Some(Stopped::Deadline));
        options.deadline = None;
        let found = minimise_collective(&g, &options, &mut |_| {}).unwrap();
        assert_eq!(found.stopped, None);
        assert!(found.found.is_some());
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
