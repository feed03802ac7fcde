//! Boundary inference: from a grid of letters without word boundaries (as a table is
//! copied out of a paper or read by OCR) to every segmentation into words that makes
//! a valid table (`txverify infer`, docs/infer.md).
//!
//! The search (`walk.rs`) is untrusted, like every producer of tables: each
//! segmentation it finds is handed to the kernel, and only a table the kernel calls
//! valid is counted. A kernel that rejects one is a bug ([`InferError`]). When there
//! is none, [`NoSegmentation`] says why: a rule the grid breaks whatever the cuts, a
//! count of letters or runs that cannot work, or the end of the exhaustive search with
//! the furthest it got.

mod complete;
mod grid;
pub mod report;
mod walk;

pub use complete::{CompleteOptions, Completions, Deletion, Derived, complete, relabel};
pub use grid::{Grid, GridError, GridLetter, Run, load_grid};
pub use walk::WordSpan;

use std::fmt;
use std::ops::ControlFlow;
use txverify_core::kernel::{self, Checked, PlacedWord, Table, Verdict, Violation};

/// What to look for and when to stop.
#[derive(Clone, Debug, Default)]
pub struct InferOptions {
    /// Only segmentations whose every word is a shortest path.
    pub shortest_only: bool,
    /// Stop the search once this many valid segmentations are found.
    pub stop_after: Option<u64>,
    /// Keep (and return) at most this many of the tables found; the others are
    /// counted only.
    pub keep: usize,
    /// Stop the search after this many steps (a word's prefix grown by a letter,
    /// or a word start left); `None`: no limit.
    pub max_steps: Option<u64>,
}

/// The default step limit of `txverify infer` (`--max-steps`): 2·10^9 steps,
/// about two minutes of a release build (docs/limits.md), beyond every grid
/// docs/infer.md lists as finishing.
pub const MAX_STEPS: u64 = 2_000_000_000;

/// How far a search has got, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InferProgress {
    /// Steps taken ([`InferOptions::max_steps`]).
    pub steps: u64,
    /// Word starts entered.
    pub explored: u64,
    /// Valid segmentations found (before the kernel's re-check).
    pub found: u64,
}

/// The furthest point of the grid a partial segmentation reached whose words spell
/// distinct messages: nothing from there on completes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Furthest {
    /// 1-based row and column of the next letter, or `None` for the end of the grid.
    pub at: Option<(usize, usize)>,
    /// Messages the words before it delivered.
    pub delivered: usize,
    /// The elements still undelivered there, as shortest words over the links.
    pub undelivered: Vec<String>,
}

/// Why no segmentation of a grid is a valid table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoSegmentation {
    /// The grid breaks a rule whatever its cuts: the link set is defective, a letter is
    /// not a link, or a column repeats a link or exceeds the ports (the kernel's words).
    Grid {
        /// The kernel's violations of those kinds, on the grid cut between all letters.
        violations: Vec<Violation>,
    },
    /// Each word is at least as long as its element's distance, and the grid has too
    /// few letters for that.
    TooFewLetters {
        /// Letters in the grid.
        letters: usize,
        /// Σ of the messages' distances.
        needed: u64,
    },
    /// With shortest words only, the letters must be exactly the distances' sum.
    TooManyLetters {
        /// Letters in the grid.
        letters: usize,
        /// Σ of the messages' distances.
        needed: u64,
    },
    /// Every run of letters (between blanks or row ends) holds a word of its own, and
    /// there are more runs than messages.
    TooManyRuns {
        /// Runs in the grid.
        runs: usize,
        /// Messages each node sends.
        messages: usize,
    },
    /// Some messages are spelled by no word inside a run of the grid (of a length
    /// the letters allow).
    Unspellable {
        /// Those messages, as shortest words over the links.
        elements: Vec<String>,
        /// Messages each node sends.
        messages: usize,
    },
    /// The step limit ran out before the search found one or tried every cut:
    /// there may be one.
    OutOfSteps {
        /// The limit ([`InferOptions::max_steps`]).
        steps: u64,
        /// Word starts the search entered.
        explored: u64,
    },
    /// The search tried every cut the prunings left and none gave a valid table.
    Exhausted {
        /// Word starts the search entered.
        explored: u64,
        /// The furthest it got (absent when it could not start).
        furthest: Option<Furthest>,
        /// Messages each node sends.
        messages: usize,
    },
}

impl fmt::Display for NoSegmentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoSegmentation::Grid { violations } => write!(
                f,
                "the grid breaks {} rule{} that no choice of word boundaries changes",
                violations.len(),
                if violations.len() == 1 { "" } else { "s" }
            ),
            NoSegmentation::TooFewLetters { letters, needed } => write!(
                f,
                "the grid has {letters} letters, but the messages need at least {needed} (the sum of their distances)"
            ),
            NoSegmentation::TooManyLetters { letters, needed } => write!(
                f,
                "the grid has {letters} letters, but shortest words for the messages have {needed} (the sum of their distances)"
            ),
            NoSegmentation::TooManyRuns { runs, messages } => write!(
                f,
                "the grid has {runs} runs of letters (between blanks and row ends), each at least one word, but only {messages} messages"
            ),
            NoSegmentation::Unspellable { elements, messages } => write!(
                f,
                "{} of the {messages} messages ({}) are spelled by no run of letters in the grid",
                elements.len(),
                shown_list(elements)
            ),
            NoSegmentation::OutOfSteps { steps, explored } => write!(
                f,
                "none found before the step limit ran out ({steps} steps, {explored} word starts); the search did not finish, so there may be one (--max-steps raises the limit)"
            ),
            NoSegmentation::Exhausted {
                explored,
                furthest,
                messages,
            } => {
                write!(
                    f,
                    "the exhaustive search over the cut points ({explored} word starts) found none"
                )?;
                if let Some(at) = furthest {
                    let place = match at.at {
                        Some((row, column)) => format!("row {row}, column {column}"),
                        None => "the end of the grid".to_string(),
                    };
                    let owed = if at.undelivered.is_empty() {
                        "every message delivered and letters left over".to_string()
                    } else {
                        format!(
                            "{} of {messages} messages delivered and none of the ways on complete (undelivered there: {})",
                            at.delivered,
                            shown_list(&at.undelivered)
                        )
                    };
                    write!(
                        f,
                        "; the furthest a cut of distinct messages got is {place}, with {owed}"
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// The first few names of a list, and how many there are when not all are shown.
fn shown_list(names: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut text = names[..names.len().min(SHOWN)].join(", ");
    if names.len() > SHOWN {
        text.push_str(&format!(", … ({} in all)", names.len()));
    }
    text
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Inference {
    /// The first [`InferOptions::keep`] valid segmentations, as tables, in search order
    /// (rows top to bottom, shorter first words first).
    pub tables: Vec<Table>,
    /// How many valid segmentations were found, each accepted by the kernel.
    pub count: u64,
    /// Whether the search ran to its end, so that `count` is all of them.
    pub complete: bool,
    /// Word starts the search entered.
    pub explored: u64,
    /// Steps the search took.
    pub steps: u64,
    /// Whether the search stopped because [`InferOptions::max_steps`] ran out
    /// (then `complete` is false).
    pub out_of_steps: bool,
    /// The kernel's report on the first table found (time, verdict and the file's
    /// claims, which no choice of boundaries changes).
    pub first: Option<Checked>,
    /// Why there is none, when `count` is 0.
    pub none: Option<NoSegmentation>,
}

/// The inference failed: a bug, never the input's fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InferError {
    /// The kernel rejects a segmentation the search found.
    #[error(
        "the kernel rejects segmentation {index} the search found ({why}): a bug, please report it"
    )]
    KernelRejects {
        /// 1-based, in search order.
        index: u64,
        /// The kernel's first violation.
        why: String,
    },
}

/// The table a segmentation of the grid spells.
pub fn table_of(grid: &Grid, words: &[WordSpan]) -> Table {
    let words = words
        .iter()
        .map(|span| {
            let letters = &grid.letters[span.clone()];
            PlacedWord {
                row: letters[0].row,
                column: letters[0].column,
                letters: letters.iter().map(|l| l.letter.clone()).collect(),
                text: letters.iter().map(|l| l.text.as_str()).collect(),
            }
        })
        .collect();
    Table {
        rows: grid.rows(),
        words,
    }
}

/// Whether a violation holds for the grid whatever its word boundaries.
fn independent_of_boundaries(v: &Violation) -> bool {
    matches!(
        v,
        Violation::LinkSet { .. }
            | Violation::UnknownLetter { .. }
            | Violation::NotALink { .. }
            | Violation::ColumnConflict { .. }
            | Violation::PortsExceeded { .. }
    )
}

/// Segmentations re-checked together, on every core.
const RECHECK_BATCH: usize = 256;

/// Hands the segmentations the search finds to the kernel, in search order.
struct Recheck<'a> {
    grid: &'a Grid,
    inference: &'a mut Inference,
    keep: usize,
}

impl Recheck<'_> {
    fn batch(&mut self, batch: Vec<Vec<WordSpan>>) -> Result<(), InferError> {
        use rayon::prelude::*;
        let loaded = &self.grid.loaded;
        let checked: Vec<(Table, Checked)> = batch
            .par_iter()
            .map(|words| {
                let table = table_of(self.grid, words);
                let checked = kernel::check(&loaded.instance, &table, &loaded.claims);
                (table, checked)
            })
            .collect();
        for (table, checked) in checked {
            let inference = &mut *self.inference;
            inference.count += 1;
            if checked.verdict() == Verdict::Invalid {
                return Err(InferError::KernelRejects {
                    index: inference.count,
                    why: checked
                        .violations()
                        .first()
                        .map(crate::shared::wording::describe)
                        .unwrap_or_default(),
                });
            }
            if inference.first.is_none() {
                inference.first = Some(checked);
            }
            if inference.tables.len() < self.keep {
                inference.tables.push(table);
            }
        }
        Ok(())
    }
}

/// Finds the valid segmentations of a grid (see the module note).
pub fn infer(grid: &Grid, options: &InferOptions) -> Result<Inference, InferError> {
    infer_with_progress(grid, options, &mut |_| {})
}

/// [`infer`], calling `progress` every few million steps of the search.
pub fn infer_with_progress(
    grid: &Grid,
    options: &InferOptions,
    progress: &mut dyn FnMut(&InferProgress),
) -> Result<Inference, InferError> {
    let loaded = &grid.loaded;
    let instance = &loaded.instance;
    let mut inference = Inference {
        tables: Vec::new(),
        count: 0,
        complete: true,
        explored: 0,
        steps: 0,
        out_of_steps: false,
        first: None,
        none: None,
    };
    if let Some(why) = ruled_out_by_counting(grid, options) {
        inference.none = Some(why);
        return Ok(inference);
    }
    let wanted = instance.message_set();
    let messages = wanted.iter().filter(|&&w| w).count();

    let mut walk = walk::walk_of(grid, instance, options.shortest_only);
    walk.max_steps = options.max_steps.unwrap_or(u64::MAX);
    let never = walk.prepare();
    if !never.is_empty() {
        let namer = instance.namer();
        inference.none = Some(NoSegmentation::Unspellable {
            elements: never.iter().map(|&e| namer.name(e)).collect(),
            messages,
        });
        return Ok(inference);
    }
    let mut found: u64 = 0;
    let mut pending: Vec<Vec<WordSpan>> = Vec::new();
    let mut recheck = Recheck {
        grid,
        inference: &mut inference,
        keep: options.keep,
    };
    let stopped = walk.run(
        &mut |words| {
            found += 1;
            pending.push(words.to_vec());
            if pending.len() == RECHECK_BATCH
                && let Err(e) = recheck.batch(std::mem::take(&mut pending))
            {
                return ControlFlow::Break(Err(e));
            }
            match options.stop_after {
                Some(n) if found >= n => ControlFlow::Break(Ok(())),
                _ => ControlFlow::Continue(()),
            }
        },
        &mut |w| {
            progress(&InferProgress {
                steps: w.steps,
                explored: w.explored,
                found: w.found,
            })
        },
    );
    if let ControlFlow::Break(Err(e)) = stopped {
        return Err(e);
    }
    recheck.batch(pending)?;
    inference.complete = stopped.is_continue() && !walk.out_of_steps;
    inference.explored = walk.explored;
    inference.steps = walk.steps;
    inference.out_of_steps = walk.out_of_steps;
    if inference.count == 0 && walk.out_of_steps {
        inference.none = Some(NoSegmentation::OutOfSteps {
            steps: walk.steps,
            explored: walk.explored,
        });
    } else if inference.count == 0 {
        let namer = instance.namer();
        let furthest = walk.furthest().map(|f| Furthest {
            at: f
                .letter
                .map(|l| (grid.letters[l].row, grid.letters[l].column)),
            delivered: f.delivered,
            undelivered: f.undelivered.iter().map(|&e| namer.name(e)).collect(),
        });
        inference.none = Some(NoSegmentation::Exhausted {
            explored: inference.explored,
            furthest,
            messages,
        });
    }
    Ok(inference)
}

/// Why no segmentation can exist, found before any search: a violation the
/// kernel finds on the grid whatever the word boundaries, or counts of letters
/// and runs that no set of words can match.
fn ruled_out_by_counting(grid: &Grid, options: &InferOptions) -> Option<NoSegmentation> {
    let loaded = &grid.loaded;
    let instance = &loaded.instance;
    // The grid cut between every two letters has the grid's letters in the grid's
    // columns, so the kernel's findings on it that do not depend on words hold for
    // every segmentation.
    let on_grid = kernel::check(instance, &grid.letters_table(), &loaded.claims);
    let fixed: Vec<Violation> = on_grid
        .violations()
        .iter()
        .filter(|v| independent_of_boundaries(v))
        .cloned()
        .collect();
    if !fixed.is_empty() {
        return Some(NoSegmentation::Grid { violations: fixed });
    }
    let wanted = instance.message_set();
    let messages = wanted.iter().filter(|&&w| w).count();
    let needed: u64 = wanted
        .iter()
        .zip(instance.distances())
        .filter(|(w, _)| **w)
        .map(|(_, &d)| u64::from(d))
        .sum();
    let letters = grid.letters.len();
    if (letters as u64) < needed {
        Some(NoSegmentation::TooFewLetters { letters, needed })
    } else if options.shortest_only && letters as u64 > needed {
        Some(NoSegmentation::TooManyLetters { letters, needed })
    } else if grid.runs.len() > messages {
        Some(NoSegmentation::TooManyRuns {
            runs: grid.runs.len(),
            messages,
        })
    } else {
        None
    }
}
