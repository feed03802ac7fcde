//! `search --mpi`: the lines each round of cubes leaves on standard error,
//! and what the whole run tried, for the text and JSON reports that the
//! local search writes ([`super::search`]). Rank 0 checked every answer
//! before it got here (the search library's `cluster::root`); this module
//! only words it.

use super::failure::{Failure, Status};
use super::search::{Tried, describe};
use txverify_core::kernel::{self, Instance, Table, Verdict};
use txverify_search::cluster::{ClusterStats, Plan, Walked};
use txverify_search::{Outcome, SolverChoice};

/// The times a cluster run tries: `--time T` alone, downward from the file's
/// table (`given`, with `--descending`), or from the lower bound up to `max_time`.
pub fn plan_of(
    instance: &Instance,
    (time, given): (Option<usize>, Option<&Table>),
    max_time: Option<usize>,
) -> Result<Plan, Failure> {
    let plan = match (time, given) {
        (Some(time), _) => return Ok(Plan::Single(time)),
        (None, Some(table)) => {
            let known = known_time(instance, table).map_err(Failure::input)?;
            Plan::descending(instance, known)
        }
        (None, None) => Plan::ascending(instance, max_time),
    };
    plan.map_err(|e| Failure::new(Status::of_search_error(&e), e.to_string()))
}

/// The time of the file's table, where `--descending` starts: the file must
/// have one, and the kernel must accept it.
pub fn known_time(instance: &Instance, table: &Table) -> Result<usize, String> {
    if table.words.is_empty() {
        return Err("--descending starts from the file's table, and the file has none".into());
    }
    let checked = kernel::check(instance, table, &[]);
    if checked.verdict() == Verdict::Invalid {
        return Err(format!(
            "--descending: the file's table is invalid ({} violations; `check` lists them)",
            checked.violations().len()
        ));
    }
    Ok(checked.time())
}

/// The lines of one round (the time `time`): the figures of its cubes, then
/// its answer.
pub fn round_lines(time: usize, outcome: &Outcome, stats: &ClusterStats) -> Vec<String> {
    let mut lines: Vec<String> = stats.summary().lines().map(str::to_string).collect();
    let n = stats.made;
    lines.push(match outcome {
        Outcome::Found(..) => format!(
            "found in one of {n} cubes for T={time} ({} refuted before it)",
            stats.refuted
        ),
        Outcome::Infeasible(i) => format!(
            "infeasible {} (every cube refuted with a checked proof; {} leaves of {n} cubes)",
            describe(i),
            n - stats.splits
        ),
        Outcome::Unknown => format!(
            "unknown T={time}: the limit ran out with {} cubes refuted and {} open ({} made, {} split)",
            stats.refuted, stats.open, n, stats.splits
        ),
    });
    lines
}

/// What a cluster run tried, as the local search reports it.
pub fn tried_of(walked: &Walked) -> Tried {
    Tried {
        found: walked
            .found
            .as_ref()
            .map(|(table, _, by)| (table.clone(), by.clone())),
        infeasible: walked.infeasible.clone(),
        unknown: walked.unknown.clone(),
        lower_bound: None,
    }
}

/// The line that ends a run the deadline stopped: the best it has.
pub fn deadline_line(walked: &Walked, seconds: f64) -> Option<String> {
    if !walked.deadline_reached {
        return None;
    }
    let refuted = walked.infeasible.iter().map(|i| i.time).max();
    let best = match (&walked.found, refuted) {
        (Some((_, t, _)), _) => format!("the fastest table found has {t} columns"),
        (None, Some(t)) => format!("no table found; T={t} is the highest time refuted"),
        (None, None) => "no table found and no time refuted".to_string(),
    };
    Some(format!("stopped by the deadline ({seconds} s): {best}"))
}

/// The name of the solver the workers run (`solver` of the JSON report).
pub fn workers_solver() -> SolverChoice {
    txverify_search::cluster::task::PROOF_SOLVER
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_round_says_how_far_it_got() {
        let stats = ClusterStats {
            made: 12,
            splits: 1,
            refuted: 7,
            open: 4,
            ..ClusterStats::default()
        };
        let lines = round_lines(14, &Outcome::Unknown, &stats);
        assert_eq!(
            lines.last().unwrap(),
            "unknown T=14: the limit ran out with 7 cubes refuted and 4 open (12 made, 1 split)"
        );
        assert!(lines[0].starts_with("cluster: workers="), "{lines:?}");
    }

    #[test]
    fn a_deadline_line_names_the_best_result() {
        let mut walked = Walked::default();
        assert_eq!(deadline_line(&walked, 5.0), None);
        walked.deadline_reached = true;
        assert_eq!(
            deadline_line(&walked, 5.0).unwrap(),
            "stopped by the deadline (5 s): no table found and no time refuted"
        );
    }
}
