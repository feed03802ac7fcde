//! The one anytime driver of every schedule search, total exchange and the
//! collectives alike: the construction first, judged and kept (written to
//! `-o` as soon as it is kept), then SAT below it. Downward, one step below
//! each schedule kept, until a time is refuted (which settles every time
//! below it), a limit runs out, the deadline passes, a signal comes or the
//! bound is met; upward, from the bound (or `--time T` alone) to the first
//! time SAT can meet.
//!
//! The order of the phases lives here alone; each collective's search says
//! how to construct, solve, judge and keep ([`AnytimeSearch`]).

use super::Status;
use txverify_core::schedule::Schedule;

/// What every schedule search returns, total exchange and collective alike:
/// its reports and the schedule its verdict was reached on.
pub struct ScheduleSearchReport {
    pub(super) text: String,
    pub(super) json: serde_json::Value,
    pub(super) status: Status,
    /// Held only: a schedule streamed to `-o` is not kept here.
    pub(super) schedule: Option<Schedule>,
}

impl ScheduleSearchReport {
    /// The report for people.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The report for programs (schema txverify-schedule-search/3, docs/json.md).
    pub fn json(&self) -> &serde_json::Value {
        &self.json
    }

    /// 0 with a schedule (also when the deadline or a signal stopped the
    /// search after one was found), 4 when a limit ran out first, 1 when
    /// every `T` tried is infeasible.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The best schedule found, the very one replayed and judged valid:
    /// what `-o` holds, for callers that keep it in memory (the Python
    /// package). `None` when nothing was found, and when the total
    /// exchange's heuristic schedule was streamed to `-o` instead of held
    /// (a request without `keep_schedule`): never a schedule whose sends
    /// were not kept.
    pub fn schedule(&self) -> Option<&Schedule> {
        self.schedule.as_ref()
    }
}

/// How far above the bound an upward search goes when neither `--max-time`
/// nor a schedule kept bounds it.
pub(crate) const UPWARD_SPAN: usize = 16;

/// What a run is asked to do, its request's rules applied.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// The construction is made first.
    pub(crate) constructs: bool,
    /// The construction alone (`--heuristic`): no SAT after it.
    pub(crate) construction_only: bool,
    /// `--time T`: SAT at this time alone.
    pub(crate) time: Option<usize>,
    /// `--max-time T`: no schedule slower than this is kept, no time above
    /// it tried.
    pub(crate) max_time: Option<usize>,
    /// The lower bound, where an upward search starts.
    pub(crate) bound: usize,
    /// Downward from the best schedule kept (or from `--max-time`).
    pub(crate) descending: bool,
}

/// How the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// After the construction: SAT was not asked for, or cannot follow.
    Construction,
    /// SAT was reached (perhaps with nothing left to try).
    Sat,
}

/// One collective's schedule search, as the driver sees it: each step
/// judges what it finds against the bound and keeps it when it is faster
/// than the best so far.
pub(crate) trait AnytimeSearch {
    /// Why the run fails (as opposed to finding nothing).
    type Error;
    /// A schedule made and judged, not yet kept.
    type Judged;

    /// Makes the construction and judges it; `None` when the run stopped
    /// while it was made.
    fn construct(&mut self) -> Result<Option<Self::Judged>, Self::Error>;

    /// The time of a judged schedule.
    fn time_of(judged: &Self::Judged) -> u32;

    /// Keeps `judged` when it is faster than the best so far, and writes it.
    fn keep(&mut self, judged: Self::Judged) -> Result<(), Self::Error>;

    /// Whether SAT may follow the construction: not when the run stopped
    /// while it was made, nor when SAT was refused before it began.
    fn sat_follows(&self) -> bool;

    /// The best schedule's time so far.
    fn best_time(&self) -> Option<u32>;

    /// SAT from `from` up to `to` steps, stopping at the first schedule
    /// found, which is judged and kept: its time. `None` when nothing was
    /// found (every time refuted, a limit ran out, a stop, or a formula over
    /// a limit after a schedule was kept).
    fn sat(&mut self, from: usize, to: usize) -> Result<Option<u32>, Self::Error>;
}

/// Runs `search` as `plan` says: construction, then SAT below it.
pub(crate) fn run<S: AnytimeSearch>(search: &mut S, plan: &Plan) -> Result<Ended, S::Error> {
    if plan.constructs
        && let Some(judged) = search.construct()?
        && plan
            .max_time
            .is_none_or(|max| S::time_of(&judged) as usize <= max)
    {
        search.keep(judged)?;
    }
    if plan.construction_only || (plan.constructs && !search.sat_follows()) {
        return Ok(Ended::Construction);
    }
    let from = plan.time.unwrap_or(plan.bound);
    // Only faster than the best so far is of use.
    let below_best = search.best_time().map(|t| (t as usize).checked_sub(1));
    let to = match (plan.time, plan.max_time, below_best) {
        (Some(t), _, _) => Some(t),
        (None, max, Some(below)) => below.map(|b| max.map_or(b, |m| m.min(b))),
        (None, max, None) => Some(max.unwrap_or(from + UPWARD_SPAN)),
    };
    let Some(to) = to.filter(|&to| to >= from) else {
        // The best meets the bound, or nothing is left to try.
        return Ok(Ended::Sat);
    };
    if plan.descending && plan.time.is_none() {
        let mut next = Some(to);
        while let Some(time) = next.filter(|&t| t >= from) {
            next = search
                .sat(time, time)?
                .and_then(|found| (found as usize).checked_sub(1));
        }
    } else {
        search.sat(from, to)?;
    }
    Ok(Ended::Sat)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search whose SAT meets every time from `optimum` up (each schedule
    /// found finishing `slack` steps early, at most down to the optimum),
    /// and refutes every time below; it records what was asked.
    struct Fake {
        construction: Option<u32>,
        optimum: usize,
        slack: usize,
        best: Option<u32>,
        asked: Vec<(usize, usize)>,
    }

    impl AnytimeSearch for Fake {
        type Error = ();
        type Judged = u32;

        fn construct(&mut self) -> Result<Option<u32>, ()> {
            Ok(self.construction)
        }

        fn time_of(judged: &u32) -> u32 {
            *judged
        }

        fn keep(&mut self, judged: u32) -> Result<(), ()> {
            if self.best.is_none_or(|b| judged < b) {
                self.best = Some(judged);
            }
            Ok(())
        }

        fn sat_follows(&self) -> bool {
            self.construction.is_some()
        }

        fn best_time(&self) -> Option<u32> {
            self.best
        }

        fn sat(&mut self, from: usize, to: usize) -> Result<Option<u32>, ()> {
            self.asked.push((from, to));
            let first = (from..=to).find(|&t| t >= self.optimum);
            let found = first.map(|t| t.saturating_sub(self.slack).max(self.optimum) as u32);
            if let Some(time) = found {
                self.keep(time)?;
            }
            Ok(found)
        }
    }

    fn fake(construction: Option<u32>, optimum: usize, slack: usize) -> Fake {
        Fake {
            construction,
            optimum,
            slack,
            best: None,
            asked: vec![],
        }
    }

    fn plan(descending: bool) -> Plan {
        Plan {
            constructs: true,
            construction_only: false,
            time: None,
            max_time: None,
            bound: 3,
            descending,
        }
    }

    #[test]
    fn downward_goes_one_step_below_each_schedule_kept_until_a_refutation() {
        let mut search = fake(Some(10), 5, 1);
        assert_eq!(run(&mut search, &plan(true)), Ok(Ended::Sat));
        // 9 finds 8, 7 finds 6, 5 finds 5, 4 is refuted: every time below it settled.
        assert_eq!(search.asked, [(9, 9), (7, 7), (5, 5), (4, 4)]);
        assert_eq!(search.best, Some(5));
    }

    #[test]
    fn upward_goes_from_the_bound_to_one_below_the_construction() {
        let mut search = fake(Some(10), 5, 0);
        assert_eq!(run(&mut search, &plan(false)), Ok(Ended::Sat));
        assert_eq!(search.asked, [(3, 9)]);
        assert_eq!(search.best, Some(5));
    }

    #[test]
    fn a_construction_over_the_max_time_is_not_kept_and_the_descent_starts_there() {
        let mut search = fake(Some(10), 5, 0);
        let plan = Plan {
            max_time: Some(7),
            ..plan(true)
        };
        run(&mut search, &plan).unwrap();
        assert_eq!(search.asked, [(7, 7), (6, 6), (5, 5), (4, 4)]);
        assert_eq!(search.best, Some(5));
    }

    #[test]
    fn nothing_follows_a_stopped_construction_nor_a_construction_alone() {
        let mut stopped = fake(None, 5, 0);
        assert_eq!(run(&mut stopped, &plan(true)), Ok(Ended::Construction));
        assert!(stopped.asked.is_empty() && stopped.best.is_none());
        let mut alone = fake(Some(10), 5, 0);
        let plan = Plan {
            construction_only: true,
            ..plan(true)
        };
        assert_eq!(run(&mut alone, &plan), Ok(Ended::Construction));
        assert!(alone.asked.is_empty());
        assert_eq!(alone.best, Some(10));
    }

    #[test]
    fn a_time_asked_for_is_tried_alone_and_no_construction_goes_upward_by_the_span() {
        let mut search = fake(None, 5, 0);
        let at = Plan {
            constructs: false,
            time: Some(4),
            ..plan(true)
        };
        run(&mut search, &at).unwrap();
        assert_eq!(search.asked, [(4, 4)]);
        let mut search = fake(None, 50, 0);
        let upward = Plan {
            constructs: false,
            ..plan(false)
        };
        run(&mut search, &upward).unwrap();
        assert_eq!(search.asked, [(3, 3 + UPWARD_SPAN)]);
        assert_eq!(search.best, None);
    }

    #[test]
    fn the_bound_met_leaves_nothing_to_try() {
        let mut search = fake(Some(3), 3, 0);
        assert_eq!(run(&mut search, &plan(true)), Ok(Ended::Sat));
        assert!(search.asked.is_empty());
    }
}
