//! The minimising cluster run: one cube-and-conquer round per number of
//! columns, from the kernel's lower bound upward (or downward from a table
//! already known), over the same workers.
//!
//! The walk is the local search's ([`crate::minimise_tried`]) with a round
//! of cubes in place of one solver run, and it needs no MPI: the rounds are a
//! closure ([`walk`]), so that the order of the times, the stop at the first
//! table or refutation and the deadline are tested without a cluster. Every
//! round's outcome comes from [`super::root::Conductor`], which checked it; the
//! walk only chooses the next time and keeps what each round measured.

use super::root::ClusterStats;
use crate::options::{SearchError, SearchOptions};
use crate::{FoundBy, Infeasibility, Outcome, encode, step_options};
use serde::Serialize;
use std::time::Instant;
use txverify_core::kernel::{self, Instance, Table};

/// Which numbers of columns a cluster run tries, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// One number of columns (`--time T`).
    Single(usize),
    /// From `from` upward to `last`, stopping at the first table (`from` is
    /// the kernel's lower bound).
    Ascending {
        /// The first time tried.
        from: usize,
        /// The last time tried.
        last: usize,
    },
    /// From one below a known table's time downward, one below each table
    /// found, stopping at the first time refuted (or out of time) or at the
    /// lower bound.
    Descending {
        /// The known table's time.
        known: usize,
        /// The kernel's lower bound: no time below it is tried.
        bound: usize,
    },
}

impl Plan {
    /// From the kernel's lower bound upward, as the local search minimises:
    /// up to `max_time`, or to the time of the words placed one after another.
    pub fn ascending(instance: &Instance, max_time: Option<usize>) -> Result<Plan, SearchError> {
        let bound = lower_bound(instance)?;
        let serial = encode::shortest_letters(instance);
        let last = max_time.unwrap_or(serial).min(serial.max(bound));
        Ok(Plan::Ascending { from: bound, last })
    }

    /// Downward from `known`, the time of a table the kernel accepted.
    pub fn descending(instance: &Instance, known: usize) -> Result<Plan, SearchError> {
        Ok(Plan::Descending {
            known,
            bound: lower_bound(instance)?,
        })
    }

    /// The first time tried, if any.
    fn first(&self) -> Option<usize> {
        match *self {
            Plan::Single(time) => Some(time),
            Plan::Ascending { from, last } => (from <= last).then_some(from),
            Plan::Descending { known, bound } => (known > bound).then(|| known - 1),
        }
    }

    /// The time after `time`, given what its round found (`found`: the
    /// kernel's time of the table found), if the walk goes on.
    fn next(&self, time: usize, outcome: &Outcome, found: Option<usize>) -> Option<usize> {
        match (self, outcome) {
            (Plan::Single(_), _) => None,
            (Plan::Ascending { .. }, Outcome::Found(..)) => None,
            (Plan::Ascending { last, .. }, _) => (time < *last).then_some(time + 1),
            (Plan::Descending { bound, .. }, Outcome::Found(..)) => {
                let below = found.unwrap_or(time);
                (below > *bound).then(|| below - 1)
            }
            (Plan::Descending { .. }, _) => None,
        }
    }
}

fn lower_bound(instance: &Instance) -> Result<usize, SearchError> {
    kernel::lower_bound(instance)
        .map(|b| b.value as usize)
        .ok_or(SearchError::NoBound)
}

/// The least, middle and largest of some seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Spread {
    /// The least.
    pub min: f64,
    /// The median (the upper one of an even count).
    pub median: f64,
    /// The largest.
    pub max: f64,
}

impl Spread {
    /// The spread of `seconds` (zeros when there are none).
    pub fn of(seconds: &[f64]) -> Spread {
        let mut sorted = seconds.to_vec();
        sorted.sort_by(f64::total_cmp);
        match (sorted.first(), sorted.last()) {
            (Some(&min), Some(&max)) => Spread {
                min,
                median: sorted[sorted.len() / 2],
                max,
            },
            _ => Spread::default(),
        }
    }
}

/// What the cubes of one number of columns did (JSON's `cubes[]`, docs/json.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CubeRound {
    /// The number of columns.
    pub time: usize,
    /// Cubes refuted with a checked proof.
    pub refuted: usize,
    /// Cubes with a table the kernel accepted (0 or 1).
    pub satisfiable: usize,
    /// Cubes left undecided when the round ended.
    pub open: usize,
    /// Cubes split again after running past the budget.
    pub splits: usize,
    /// The solver runs' wall times.
    pub seconds: Spread,
    /// The round's wall time.
    pub wall_seconds: f64,
}

impl CubeRound {
    /// The figures of `stats`, the round of `time`.
    pub fn of(time: usize, stats: &ClusterStats) -> CubeRound {
        CubeRound {
            time,
            refuted: stats.refuted,
            satisfiable: stats.satisfiable,
            open: stats.open,
            splits: stats.splits,
            seconds: Spread::of(&stats.cube_seconds),
            wall_seconds: stats.wall_seconds,
        }
    }
}

/// Everything a cluster run tried, whether or not it found a table.
#[derive(Clone, Debug, Default)]
pub struct Walked {
    /// Every time shown infeasible, in the order tried.
    pub infeasible: Vec<Infeasibility>,
    /// Every time on which a limit (the time limit or the deadline) ran out
    /// (with the deadline, also a time it stopped before).
    pub unknown: Vec<usize>,
    /// The best table found (accepted by the kernel), its time, and the run that found it.
    pub found: Option<(Table, usize, FoundBy)>,
    /// Per time tried, what its cubes did.
    pub rounds: Vec<CubeRound>,
    /// Whether the deadline stopped the walk.
    pub deadline_reached: bool,
}

/// One round: the time, its options (certificates under `DIR/T<time>/`), and
/// when it must end; gives the checked outcome and the round's figures.
pub type Round<'a, E> =
    dyn FnMut(usize, &SearchOptions, Option<Instant>) -> Result<(Outcome, ClusterStats), E> + 'a;

/// Walks the times of `plan`, running `round` on each, until the plan says
/// stop or `deadline` (of the whole run) passes; `options.time_limit` bounds
/// each round, and the certificate of each time goes to `T<time>/` under
/// `options.certificate_dir`, as in a local search. `done` hears of each round as it ends.
pub fn walk<E: From<SearchError>>(
    instance: &Instance,
    options: &SearchOptions,
    plan: &Plan,
    deadline: Option<Instant>,
    round: &mut Round<'_, E>,
    done: &mut dyn FnMut(usize, &Outcome, &ClusterStats),
) -> Result<Walked, E> {
    let mut walked = Walked::default();
    let mut next = plan.first();
    while let Some(time) = next {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            // Not tried: the deadline ran out on it.
            walked.unknown.push(time);
            walked.deadline_reached = true;
            break;
        }
        let limit = options.time_limit.map(|l| Instant::now() + l);
        let until = match (limit, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let (outcome, stats) = round(time, &step_options(options, time), until)?;
        done(time, &outcome, &stats);
        walked.rounds.push(CubeRound::of(time, &stats));
        let found_time = match &outcome {
            Outcome::Found(table, _) => Some(kernel::check(instance, table, &[]).time()),
            _ => None,
        };
        next = plan.next(time, &outcome, found_time);
        match outcome {
            Outcome::Found(table, by) => {
                walked.found = Some((table, found_time.unwrap_or(time), by));
            }
            Outcome::Infeasible(i) => walked.infeasible.push(i),
            Outcome::Unknown => {
                walked.unknown.push(time);
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    walked.deadline_reached = true;
                    break;
                }
            }
        }
    }
    Ok(walked)
}

/// The deadline of `--deadline S`, from now.
pub fn deadline_in(seconds: Option<f64>) -> Option<Instant> {
    seconds.map(|s| Instant::now() + crate::seconds::saturating(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::claim;
    use txverify_core::load::{LoadOptions, load};

    /// The 6-ring over C_6: lower bound 5, optimum 6.
    fn ring6() -> Instance {
        let text = "group: <a | a^6>\nnetwork: ring 6\ntable:\n";
        load(text, &LoadOptions::default()).unwrap().instance
    }

    fn refuted(time: usize, options: &SearchOptions) -> Outcome {
        Outcome::Infeasible(Infeasibility {
            time,
            claim: claim(time, &options.encoding),
            covers_all_tables: false,
            unrestricted: true,
            certificate: options.certificate_dir.clone(),
            checked_proof: Some(1),
            refutation: None,
        })
    }

    /// A walk over rounds that answer as the local search does from `optimum` on.
    fn walk_with(plan: &Plan, optimum: usize, deadline: Option<Instant>) -> (Walked, Vec<usize>) {
        let instance = ring6();
        let options = SearchOptions {
            certificate_dir: Some("cert".into()),
            ..SearchOptions::default()
        };
        let mut tried = Vec::new();
        let mut round = |time: usize, step: &SearchOptions, _: Option<Instant>| {
            tried.push(time);
            let outcome = if time >= optimum {
                crate::solve(&instance, time, &SearchOptions::default())?
            } else {
                refuted(time, step)
            };
            let stats = ClusterStats {
                cube_seconds: vec![0.5, 0.1, 0.3],
                refuted: usize::from(time < optimum),
                ..ClusterStats::default()
            };
            Ok::<_, SearchError>((outcome, stats))
        };
        let mut heard = Vec::new();
        let walked = walk(
            &instance,
            &options,
            plan,
            deadline,
            &mut round,
            &mut |t, _, _| heard.push(t),
        )
        .unwrap();
        assert_eq!(heard, tried);
        (walked, tried)
    }

    #[test]
    fn ascending_stops_at_the_first_table_with_every_time_below_refuted() {
        let plan = Plan::ascending(&ring6(), None).unwrap();
        assert_eq!(plan.first(), Some(5));
        let (walked, tried) = walk_with(&plan, 6, None);
        assert_eq!(tried, [5, 6]);
        assert_eq!(walked.found.as_ref().map(|f| f.1), Some(6));
        assert_eq!(walked.infeasible.len(), 1);
        // Each time's certificate goes to its own directory.
        let dir = walked.infeasible[0].certificate.clone().unwrap();
        assert_eq!(dir, std::path::Path::new("cert").join("T5"));
        assert_eq!(walked.rounds.len(), 2);
        assert_eq!(walked.rounds[0].seconds.median, 0.3);
        assert_eq!(walked.rounds[0].refuted, 1);
        assert!(!walked.deadline_reached);
    }

    #[test]
    fn ascending_stops_at_max_time() {
        let plan = Plan::ascending(&ring6(), Some(5)).unwrap();
        let (walked, tried) = walk_with(&plan, 6, None);
        assert_eq!(tried, [5]);
        assert!(walked.found.is_none());
    }

    #[test]
    fn descending_goes_below_each_table_and_stops_at_the_first_refutation() {
        let plan = Plan::descending(&ring6(), 9).unwrap();
        let (walked, tried) = walk_with(&plan, 6, None);
        // A round may find a table faster than the time asked: the next time is below it.
        assert_eq!(tried.first(), Some(&8));
        assert_eq!(tried.last(), Some(&5));
        assert_eq!(walked.found.as_ref().map(|f| f.1), Some(6));
        assert_eq!(walked.infeasible.len(), 1);
        // At the bound there is nothing to try.
        assert_eq!(Plan::descending(&ring6(), 5).unwrap().first(), None);
    }

    #[test]
    fn a_passed_deadline_stops_the_walk_before_any_round() {
        let plan = Plan::ascending(&ring6(), None).unwrap();
        let (walked, tried) = walk_with(&plan, 6, Some(Instant::now()));
        assert!(tried.is_empty());
        assert!(walked.deadline_reached);
        assert_eq!(walked.unknown, [5]);
    }

    #[test]
    fn spreads_of_seconds() {
        let s = Spread::of(&[3.0, 1.0, 2.0, 4.0]);
        assert_eq!((s.min, s.median, s.max), (1.0, 3.0, 4.0));
        assert_eq!(Spread::of(&[]), Spread::default());
    }
}
