//! The one rule for optimality, for tables and schedules alike.
//!
//! An answer (a table checked by the [`kernel`](crate::kernel), a schedule
//! judged by [`judge`](super::judge)) is optimal when it is valid and
//!
//! - its time meets a lower bound that holds for every answer of its model
//!   ([`OptimalBy::LowerBound`]), or
//! - every number of steps from that bound up to its time − 1 is refuted by a
//!   checked certificate that covers every answer of the model
//!   ([`OptimalBy::Certificates`]).
//!
//! Which numbers of steps a refutation settles: its own always. Fewer steps
//! only when the refutation says so ([`Refutation::covers_fewer_steps`]): a
//! schedule that finishes within `T' < T` steps is also one within `T` steps
//! in the exchange encoding (a message stays at its destination, and the
//! nodes it may visit at step `t` only grow with `T`), so a schedule
//! refutation at `T` settles every `T' ≤ T`. The table encoding is not relied
//! on that way: a table refutation settles its own number of columns only,
//! and every number from the bound up needs its own.
//!
//! The core checks no proof (it depends on no other crate). What it is given
//! as refutations is the search crate's `CheckedRefutation`, which only that
//! crate makes, right after `txverify-proofcheck` accepted a proof of a
//! formula it regenerated and whose class covers every answer (docs/trust.md,
//! "Optimality by certificates").

use super::ScheduleVerdict;
use crate::kernel::{Checked, Verdict};

/// Why an answer is optimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptimalBy {
    /// Its time meets a lower bound that holds for every answer of the model.
    LowerBound,
    /// Every number of steps from the lower bound up to its time − 1 is
    /// refuted by a checked certificate that covers every answer of the model.
    Certificates,
}

impl OptimalBy {
    /// The name in reports (`optimal_by` in JSON): `lower_bound`, `certificates`.
    pub fn name(self) -> &'static str {
        match self {
            OptimalBy::LowerBound => "lower_bound",
            OptimalBy::Certificates => "certificates",
        }
    }
}

/// A number of steps that no answer of a model meets, proved by a certificate
/// the proof checker accepted, for a formula that covers every answer of the
/// model. The search crate's `CheckedRefutation` is the one implementation;
/// it has no public constructor.
pub trait Refutation {
    /// The number of steps (columns, for tables) refuted.
    fn steps(&self) -> u64;
    /// Whether an answer within fewer steps is also one within
    /// [`steps`](Refutation::steps), so that the refutation settles every
    /// smaller number too.
    fn covers_fewer_steps(&self) -> bool;
}

/// Whether `steps` is settled by one of `refutations`.
pub(crate) fn refuted<R: Refutation>(steps: u64, refutations: &[R]) -> bool {
    refutations.iter().any(|r| {
        let refuted = r.steps();
        refuted == steps || (refuted > steps && r.covers_fewer_steps())
    })
}

/// The rule itself: `bound` is a lower bound that holds for every answer of
/// the model (`None`: there is none), `time` the answer's.
pub(crate) fn optimal_by<R: Refutation>(
    valid: bool,
    bound: Option<u64>,
    time: u64,
    refutations: &[R],
) -> Option<OptimalBy> {
    optimal_by_settled(valid, bound, time, |t| refuted(t, refutations))
}

/// [`optimal_by`], with `settled(t)` saying whether `t` steps are refuted.
pub(crate) fn optimal_by_settled(
    valid: bool,
    bound: Option<u64>,
    time: u64,
    settled: impl Fn(u64) -> bool,
) -> Option<OptimalBy> {
    let bound = bound.filter(|_| valid)?;
    if time == bound {
        return Some(OptimalBy::LowerBound);
    }
    // Faster than a bound that holds is a bug of the bound or of the check,
    // and settles nothing.
    (time > bound && (bound..time).all(settled)).then_some(OptimalBy::Certificates)
}

/// Why the judged schedule is optimal, if it is: by the bound on time its
/// verdict was given, when that bound holds under the replayed model, or by
/// `refutations` of every number of steps from that bound up to its time − 1.
pub fn schedule_optimal_by<R: Refutation>(
    verdict: &ScheduleVerdict,
    refutations: &[R],
) -> Option<OptimalBy> {
    let bound = verdict
        .time_bound()
        .filter(|_| verdict.bound_holds())
        .map(|b| b.value());
    let by = optimal_by(
        verdict.valid(),
        bound,
        u64::from(verdict.time()),
        refutations,
    );
    debug_assert_eq!(by == Some(OptimalBy::LowerBound), verdict.optimal());
    by
}

/// Why the checked table is optimal, if it is: by the kernel's lower bound,
/// or by `refutations` of every number of columns from it up to the table's
/// time − 1.
pub fn table_optimal_by<R: Refutation>(checked: &Checked, refutations: &[R]) -> Option<OptimalBy> {
    let by = optimal_by(
        checked.verdict() != Verdict::Invalid,
        checked.bound().map(|b| b.value),
        checked.time() as u64,
        refutations,
    );
    debug_assert_eq!(
        by == Some(OptimalBy::LowerBound),
        checked.verdict() == Verdict::Optimal
    );
    by
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refutation for the rule's tests (the real one is the search crate's).
    struct Refuted(u64, bool);

    impl Refutation for Refuted {
        fn steps(&self) -> u64 {
            self.0
        }
        fn covers_fewer_steps(&self) -> bool {
            self.1
        }
    }

    #[test]
    fn the_bound_settles_its_own_time() {
        let none: [Refuted; 0] = [];
        assert_eq!(
            optimal_by(true, Some(3), 3, &none),
            Some(OptimalBy::LowerBound)
        );
        assert_eq!(optimal_by(false, Some(3), 3, &none), None);
        assert_eq!(optimal_by(true, None, 3, &none), None);
        assert_eq!(optimal_by(true, Some(3), 4, &none), None);
    }

    #[test]
    fn every_time_below_needs_a_refutation() {
        let each = [Refuted(3, false), Refuted(4, false)];
        assert_eq!(
            optimal_by(true, Some(3), 5, &each),
            Some(OptimalBy::Certificates)
        );
        assert_eq!(optimal_by(true, Some(3), 6, &each), None);
        assert_eq!(optimal_by(true, Some(2), 5, &each), None);
    }

    #[test]
    fn only_a_refutation_that_says_so_covers_fewer_steps() {
        assert_eq!(optimal_by(true, Some(3), 5, &[Refuted(4, false)]), None);
        assert_eq!(
            optimal_by(true, Some(3), 5, &[Refuted(4, true)]),
            Some(OptimalBy::Certificates)
        );
        // A refutation never covers more steps than its own.
        assert_eq!(optimal_by(true, Some(3), 5, &[Refuted(3, true)]), None);
    }

    #[test]
    fn nothing_below_the_bound_is_optimal_by_certificates() {
        assert_eq!(optimal_by(true, Some(4), 3, &[Refuted(9, true)]), None);
    }
}
