//! A second line of attack on the other core while the main solver runs.
//!
//! Solve times of these formulas are heavy-tailed: the same solver takes a
//! second or a minute depending on the order it happens to explore, and a
//! table with a symmetry is often found in a fraction of the time the full
//! formula needs. The helper therefore takes turns, with budgets doubling each
//! round (the most restrictive formulas get the larger turns), over
//!
//! restricted formulas: tables invariant under an automorphism of (G, S) that
//! counting does not rule out ([`super::symmetry::candidates`]), and tables
//! equal to their time reversal. Once every restriction is shown unsatisfiable,
//! it runs a shuffled copy of the full formula (renumbered variables, reordered
//! clauses), which explores in another order than the main solver.
//!
//! A table found by either is decoded and re-checked by the kernel like any
//! other. An unsatisfiable restricted formula only closes that restriction; an
//! unsatisfiable shuffled copy proves what the full formula proves (it is the
//! same formula), but carries no certificate.

use super::cnf::Cnf;
use super::encode::{Encoding, encode};
use super::options::{EncodingOptions, SearchError, SearchOptions, SolverChoice};
use super::solver::{SatAnswer, SolveControl};
use super::split;
use super::symmetry::{self, Candidate, inverses};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use txverify_core::kernel::{Instance, Table};

/// The first turn of the first restricted formula; doubled every round. The
/// formula in `k`-th place (from 0) among those still open gets `1 / (k + 1)` of it.
const FIRST_BUDGET: Duration = Duration::from_secs(1);
/// How many automorphism restrictions to take turns over at most.
const MAX_AUTOMORPHISMS: usize = 3;
/// How many automorphism restrictions with a free tail to take turns over at most.
const MAX_TAILED: usize = 2;
/// How many link permutations to look at when looking for automorphisms.
const PERMUTATION_BUDGET: usize = 100_000;

/// What the helper is doing, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "on")]
pub enum HelperActivity {
    /// Building its first formula.
    Starting,
    /// A turn on the `index`-th (from 1) of the `open` restrictions still open.
    Restriction {
        /// Which one.
        index: usize,
        /// How many are open.
        open: usize,
        /// The length of this turn, in milliseconds (`None`: up to the limit).
        turn_ms: Option<u64>,
    },
    /// The shuffled copy of the full formula.
    ShuffledCopy,
}

/// Where the helper writes its activity and the main thread reads it.
#[derive(Debug)]
pub struct Board(Mutex<HelperActivity>);

impl Default for Board {
    fn default() -> Board {
        Board(Mutex::new(HelperActivity::Starting))
    }
}

impl Board {
    /// The latest activity.
    pub fn read(&self) -> HelperActivity {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self, activity: HelperActivity) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = activity;
    }
}

/// What the helper found.
#[derive(Debug)]
pub enum HelperOutcome {
    /// A table (not yet checked by the kernel), and which attack found it.
    Found(Table, String),
    /// The shuffled copy of the full formula is unsatisfiable.
    Unsat,
    /// Nothing decisive before the limit or the stop.
    Unknown,
}

/// One formula the helper takes turns on.
struct Attempt {
    /// What the formula asks for, without its free tail (see [`Attempt::label`]).
    restriction: String,
    options: EncodingOptions,
    /// Built on the first turn.
    encoding: Option<Encoding>,
    /// Closed: unsatisfiable, or the formula could not be built.
    closed: bool,
    /// For a restriction with a free tail: the widest tail to try. An
    /// unsatisfiable formula then widens the tail by one column instead of
    /// closing the attempt (the narrowest tail counting allows is often too
    /// narrow by a column or two, and a refutation of a narrow tail is quick).
    widest_tail: usize,
    /// Ties every message to an image (no free letters, or only a free tail): the
    /// problem divided by the symmetry's order. Such a formula, when it comes
    /// first, gets one uninterrupted run first,
    /// since restarting it in short turns throws its progress away.
    complete: bool,
}

/// Runs the helper until it finds something decisive, the deadline passes or a
/// stop flag is set.
pub fn help(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    full: &Encoding,
    deadline: Option<Instant>,
    stop: &[Arc<AtomicBool>],
    board: &Board,
) -> Result<HelperOutcome, SearchError> {
    let mut attempts = restrictions(instance, time, full.full, &options.encoding);
    if let Some(first) = attempts.first_mut().filter(|a| a.complete) {
        board.write(HelperActivity::Restriction {
            index: 1,
            open: 1,
            turn_ms: None,
        });
        // Until it is refuted (a free tail is widened and run again) or time runs out.
        while !first.closed && !halted(stop, deadline) {
            if let Some(table) = take_turn(instance, time, options, first, None, deadline, stop)? {
                return Ok(HelperOutcome::Found(table, first.label()));
            }
        }
        first.closed = true;
    }
    let mut budget = FIRST_BUDGET;
    while attempts.iter().any(|a| !a.closed) {
        let open = attempts.iter().filter(|a| !a.closed).count();
        for (rank, attempt) in attempts.iter_mut().filter(|a| !a.closed).enumerate() {
            if halted(stop, deadline) {
                return Ok(HelperOutcome::Unknown);
            }
            // The most restrictive formulas come first and get the larger turns.
            let turn = budget / (rank as u32 + 1);
            board.write(HelperActivity::Restriction {
                index: rank + 1,
                open,
                turn_ms: Some(turn.as_millis() as u64),
            });
            if let Some(table) =
                take_turn(instance, time, options, attempt, Some(turn), deadline, stop)?
            {
                return Ok(HelperOutcome::Found(table, attempt.label()));
            }
        }
        budget *= 2;
    }
    if halted(stop, deadline) {
        return Ok(HelperOutcome::Unknown);
    }
    // Every restriction is closed: the shuffled copy for the rest of the time.
    board.write(HelperActivity::ShuffledCopy);
    let shuffled = full.cnf.shuffled(1);
    match solve(options, &shuffled.cnf, deadline, stop)? {
        SatAnswer::Sat(model) => {
            let model = shuffled.original_model(&model);
            let table = full
                .decode(instance, &model)
                .ok_or(SearchError::Undecodable)?;
            Ok(HelperOutcome::Found(
                table,
                "a shuffled copy of the formula".into(),
            ))
        }
        SatAnswer::Unsat => Ok(HelperOutcome::Unsat),
        SatAnswer::Unknown => Ok(HelperOutcome::Unknown),
    }
}

/// One turn on a restricted formula (built on its first turn), of `budget` or
/// up to the deadline: a table, or `None` with the attempt closed if the formula
/// is unsatisfiable.
fn take_turn(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    attempt: &mut Attempt,
    budget: Option<Duration>,
    deadline: Option<Instant>,
    stop: &[Arc<AtomicBool>],
) -> Result<Option<Table>, SearchError> {
    if attempt.encoding.is_none() {
        match encode(instance, time, &attempt.options) {
            Ok(e) => attempt.encoding = Some(e),
            Err(_) => {
                attempt.closed = true;
                return Ok(None);
            }
        }
    }
    let Some(encoding) = &attempt.encoding else {
        return Ok(None);
    };
    let until = match budget {
        Some(budget) => limit(deadline, budget),
        None => deadline,
    };
    match solve(options, &encoding.cnf, until, stop)? {
        SatAnswer::Sat(model) => encoding
            .decode(instance, &model)
            .map(Some)
            .ok_or(SearchError::Undecodable),
        SatAnswer::Unsat if attempt.options.tail < attempt.widest_tail => {
            attempt.widen_tail();
            Ok(None)
        }
        SatAnswer::Unsat => {
            attempt.closed = true;
            Ok(None)
        }
        SatAnswer::Unknown => Ok(None),
    }
}

impl Attempt {
    /// What the formula asks for, in words.
    fn label(&self) -> String {
        match self.options.tail {
            0 => self.restriction.clone(),
            tail => format!(
                "{} outside a free tail of the last {tail} columns",
                self.restriction
            ),
        }
    }

    /// One more column of free tail: a new formula, built on the next turn.
    fn widen_tail(&mut self) {
        self.options.tail += 1;
        self.encoding = None;
    }
}

/// What the helper will take turns on for a table with `time` columns, in
/// order, in words (the first is run alone first when the report says "until
/// the limit"); empty when the search is already restricted.
pub fn plan(instance: &Instance, time: usize, options: &SearchOptions) -> Vec<String> {
    let full = super::encode::fills_every_cell(instance, time);
    restrictions(instance, time, full, &options.encoding)
        .iter()
        .map(Attempt::label)
        .collect()
}

/// The restricted formulas to try: none when the search is already restricted.
fn restrictions(
    instance: &Instance,
    time: usize,
    full: bool,
    base: &EncodingOptions,
) -> Vec<Attempt> {
    if !base.unrestricted() {
        return Vec::new();
    }
    let per_column = instance.ports().min(instance.links().len());
    let (kept, tailed) = symmetry::all_candidates(instance, full, per_column, PERMUTATION_BUDGET);
    let mut attempts = automorphism_attempts(instance, kept, base);
    // After a complete automorphism (which divides the problem by its order):
    // the symmetries with a free tail, which divide by a larger order than the
    // rest, then a split into repeated blocks, then the other automorphisms.
    // When the table is not full, some links set the bound alone (the long ring
    // of a torus): the split, whose blocks those links fill, comes before the
    // tails. The split gets one uninterrupted run first only when nothing comes
    // before it.
    let at = usize::from(attempts.first().is_some_and(|a| a.complete));
    let tailed = tailed_attempts(instance, time, tailed, base);
    let split_first = !full;
    let split_at = if split_first { at } else { at + tailed.len() };
    let alone = at == 0 && (split_first || tailed.is_empty());
    let split = split_attempt(instance, time, base, alone);
    attempts.splice(at..at, tailed);
    if let Some(attempt) = split {
        attempts.insert(split_at, attempt);
    }
    attempts.extend(reversal_attempt(instance, base));
    attempts
}

/// Up to [`MAX_TAILED`] automorphisms with a free tail that holds what they leave
/// free (the shape of the published torus tables): on a full table those that
/// counting rules out without one, otherwise any that leaves something free.
fn tailed_attempts(
    instance: &Instance,
    time: usize,
    tailed: Vec<Candidate>,
    base: &EncodingOptions,
) -> Vec<Attempt> {
    tailed
        .into_iter()
        .filter(|c| c.tail < time)
        .take(MAX_TAILED)
        .map(|c| Attempt {
            restriction: format!(
                "the restriction to tables invariant under {}",
                symmetry::describe(instance, &c.links)
            ),
            options: EncodingOptions {
                automorphism: Some(c.links),
                tail: c.tail,
                break_symmetry: None,
                ..base.clone()
            },
            encoding: None,
            closed: false,
            widest_tail: (2 * c.tail).min(time - 1),
            // A tail that divides by an order of 4 or more is run like a complete
            // restriction when it comes first (the 7-cube: 14 s in one run).
            complete: c.order >= 4,
        })
        .collect()
}

/// The automorphism restrictions counting does not rule out, most restrictive first.
fn automorphism_attempts(
    instance: &Instance,
    kept: Vec<Candidate>,
    base: &EncodingOptions,
) -> Vec<Attempt> {
    kept.into_iter()
        .take(MAX_AUTOMORPHISMS)
        .map(|c| {
            let restriction = format!(
                "the restriction to tables invariant under {}",
                symmetry::describe(instance, &c.links)
            );
            let options = EncodingOptions {
                automorphism: Some(c.links),
                break_symmetry: None,
                ..base.clone()
            };
            Attempt {
                restriction,
                options,
                encoding: None,
                closed: false,
                widest_tail: 0,
                complete: c.free_letters == 0,
            }
        })
        .collect()
}

/// The split into repeated blocks [`split::suggested`] gives, if any.
fn split_attempt(
    instance: &Instance,
    time: usize,
    base: &EncodingOptions,
    complete: bool,
) -> Option<Attempt> {
    let links = split::suggested(instance, time)?;
    Some(Attempt {
        restriction: format!(
            "the restriction to tables that repeat one pattern in {}",
            split::describe(instance, &links, time)
        ),
        options: EncodingOptions {
            split: links.iter().map(|l| l.index() as u16).collect(),
            break_symmetry: None,
            ..base.clone()
        },
        encoding: None,
        closed: false,
        widest_tail: 0,
        complete,
    })
}

/// The time reversal, which restricts something only if some message is not an involution.
fn reversal_attempt(instance: &Instance, base: &EncodingOptions) -> Option<Attempt> {
    let wanted = instance.message_set();
    let inverse = inverses(instance);
    (0..wanted.len())
        .any(|e| wanted[e] && inverse[e].index() != e)
        .then(|| Attempt {
            restriction: "the restriction to tables equal to their time reversal".into(),
            options: EncodingOptions {
                time_reversal: true,
                break_symmetry: None,
                ..base.clone()
            },
            encoding: None,
            closed: false,
            widest_tail: 0,
            complete: false,
        })
}

fn solve(
    options: &SearchOptions,
    cnf: &Cnf,
    deadline: Option<Instant>,
    stop: &[Arc<AtomicBool>],
) -> Result<SatAnswer, SearchError> {
    let control = SolveControl {
        deadline,
        stop: stop.to_vec(),
        proof: None,
        lrat: None,
        on_progress: Box::new(|_| {}),
    };
    let (answer, _) = super::run_solver(helper_solver(options.solver), None, cnf, control)?;
    Ok(answer)
}

/// The helper writes no proofs, so it runs the fastest solver this build has:
/// CaDiCaL when it is compiled in, else the one asked for (varisat when that is
/// an external command: the helper's many short turns are no job for a process).
fn helper_solver(asked: SolverChoice) -> SolverChoice {
    if SolverChoice::Cadical.available() {
        SolverChoice::Cadical
    } else if asked == SolverChoice::External {
        SolverChoice::Varisat
    } else {
        asked
    }
}

fn limit(deadline: Option<Instant>, budget: Duration) -> Option<Instant> {
    let turn = Instant::now() + budget;
    Some(deadline.map_or(turn, |d| d.min(turn)))
}

fn halted(stop: &[Arc<AtomicBool>], deadline: Option<Instant>) -> bool {
    stop.iter().any(|s| s.load(Ordering::Relaxed)) || deadline.is_some_and(|d| Instant::now() >= d)
}
