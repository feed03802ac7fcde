//! Completion of a printed prefix (`txverify infer --complete N`, docs/infer.md): a
//! paper that prints only the first columns of a table leaves open both the letters
//! after them and every word boundary. This enumerates the letters of the empty cells
//! up to column N (a link or a blank each), and for every such filling runs the
//! boundary search of [`super::infer`], whose segmentations the kernel re-checks.
//!
//! Optionally every completion is turned into a second table by deleting words
//! ([`Deletion`]) and reading the rest over another file's group and network (a paper's
//! "delete the right-most two words"); that table's verdict is the kernel's too. The
//! enumeration and the deletion only propose tables.

use super::{Grid, GridLetter, InferError, InferOptions, infer};
use std::ops::ControlFlow;
use txverify_core::group::GenLetter;
use txverify_core::kernel::{self, PlacedWord, Table, TableLetter, Verdict};
use txverify_core::load::{Loaded, letter_text};

/// Which words a derivation deletes from a completed table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deletion {
    /// The last word of every row.
    RowEnds,
    /// The last K words in reading order (row 1 left to right, then row 2, …).
    Last(usize),
    /// The K words that end furthest right (ties: the later row first).
    RightMost(usize),
}

impl Deletion {
    /// The words a table keeps after the deletion.
    pub fn apply(self, table: &Table) -> Table {
        let mut order: Vec<usize> = (0..table.words.len()).collect();
        order.sort_by_key(|&i| (table.words[i].row, table.words[i].column));
        let dropped: Vec<usize> = match self {
            Deletion::RowEnds => (1..=table.rows)
                .filter_map(|r| {
                    order
                        .iter()
                        .rev()
                        .copied()
                        .find(|&i| table.words[i].row == r)
                })
                .collect(),
            Deletion::Last(k) => order.iter().rev().take(k).copied().collect(),
            Deletion::RightMost(k) => {
                let mut by_end = order.clone();
                by_end.sort_by_key(|&i| {
                    let w = &table.words[i];
                    (std::cmp::Reverse(w.last_column()), std::cmp::Reverse(w.row))
                });
                by_end.into_iter().take(k).collect()
            }
        };
        Table {
            rows: table.rows,
            words: order
                .into_iter()
                .filter(|i| !dropped.contains(i))
                .map(|i| table.words[i].clone())
                .collect(),
        }
    }
}

/// What to enumerate and what to derive.
pub struct CompleteOptions<'a> {
    /// The number of columns the completed tables may use.
    pub columns: usize,
    /// Options of each filling's boundary search (`stop_after` and `keep` are set here).
    pub infer: InferOptions,
    /// Stop after this many fillings (each a boundary search).
    pub max_fillings: u64,
    /// Derive a table from every completion and check it against this file.
    pub derive: Option<(&'a Loaded, Deletion)>,
}

/// The kernel's verdicts on the derived tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derived {
    /// Derived tables the kernel calls valid.
    pub valid: u64,
    /// Derived tables the kernel calls optimal.
    pub optimal: u64,
    /// Derived tables that are valid and satisfy every `expect:` claim of the file.
    pub claims_hold: u64,
    /// The file's `expect:` claims, as the kernel words them.
    pub claims: Vec<String>,
    /// The first table that satisfies the claims, in search order.
    pub first: Option<Table>,
}

/// What the enumeration found.
#[derive(Clone, Debug, Default)]
pub struct Completions {
    /// Fillings of the empty cells that no column rule or letter count excludes.
    pub fillings: u64,
    /// Fillings with at least one valid segmentation.
    pub fillings_with_tables: u64,
    /// Valid completions (filling and segmentation), each accepted by the kernel.
    pub count: u64,
    /// The first completion found.
    pub first: Option<Table>,
    /// Whether every filling was searched to its end.
    pub complete: bool,
    /// Whether a boundary search ran out of steps.
    pub out_of_steps: bool,
    /// The derived tables' verdicts, with `derive`.
    pub derived: Option<Derived>,
}

/// Enumerates the completions of `grid` (see the module note).
pub fn complete(grid: &Grid, options: &CompleteOptions) -> Result<Completions, InferError> {
    let mut result = Completions {
        complete: true,
        derived: options.derive.map(|_| Derived::default()),
        ..Completions::default()
    };
    let cells = empty_cells(grid, options.columns);
    let choices = cell_choices(grid);
    let needed = needed_letters(grid);
    let mut infer_options = options.infer.clone();
    infer_options.stop_after = None;
    infer_options.keep = if options.derive.is_some() {
        usize::MAX
    } else {
        1
    };
    let mut filling = Vec::new();
    let mut fill = Filling {
        grid,
        cells: &cells,
        choices: &choices,
        needed,
        shortest: options.infer.shortest_only,
    };
    let walked = fill.walk(0, grid.letters.len(), &mut filling, &mut |extra| {
        if result.fillings >= options.max_fillings {
            result.complete = false;
            return ControlFlow::Break(Ok(()));
        }
        result.fillings += 1;
        match visit(&grid.filled(extra), &infer_options, options, &mut result) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(Err(e)),
        }
    });
    if let ControlFlow::Break(Err(e)) = walked {
        return Err(e);
    }
    Ok(result)
}

/// Searches one filling's segmentations and derives from each.
fn visit(
    filled: &Grid,
    infer_options: &InferOptions,
    options: &CompleteOptions,
    result: &mut Completions,
) -> Result<(), InferError> {
    let inference = infer(filled, infer_options)?;
    result.complete &= inference.complete;
    result.out_of_steps |= inference.out_of_steps;
    if inference.count == 0 {
        return Ok(());
    }
    result.fillings_with_tables += 1;
    result.count += inference.count;
    if result.first.is_none() {
        result.first = inference.tables.first().cloned();
    }
    if let (Some((target, deletion)), Some(derived)) = (options.derive, result.derived.as_mut()) {
        let from = filled.loaded.instance.group();
        for table in &inference.tables {
            let kept = relabel(&deletion.apply(table), from, target);
            let checked = kernel::check(&target.instance, &kept, &target.claims);
            if derived.claims.is_empty() {
                derived.claims = checked
                    .expectations()
                    .iter()
                    .map(|e| e.claim.clone())
                    .collect();
            }
            if checked.verdict() == Verdict::Invalid {
                continue;
            }
            derived.valid += 1;
            derived.optimal += u64::from(checked.verdict() == Verdict::Optimal);
            if checked.passed() {
                derived.claims_hold += 1;
                if derived.first.is_none() {
                    derived.first = Some(kept);
                }
            }
        }
    }
    Ok(())
}

/// A table's letters read over another file's generators, by name: the deleted
/// table is a word list, and its words mean what they spell in the target group.
pub fn relabel(table: &Table, from: &txverify_core::group::FiniteGroup, to: &Loaded) -> Table {
    let names = to.instance.group().generator_names();
    let words = table
        .words
        .iter()
        .map(|w| PlacedWord {
            letters: w
                .letters
                .iter()
                .map(|letter| match letter {
                    TableLetter::Gen(g) => {
                        let name = &from.generator_names()[g.generator as usize];
                        match names.iter().position(|n| n == name) {
                            Some(i) => TableLetter::Gen(GenLetter {
                                generator: i as u32,
                                inverse: g.inverse,
                            }),
                            None => TableLetter::UnknownName(name.clone()),
                        }
                    }
                    other => other.clone(),
                })
                .collect(),
            ..w.clone()
        })
        .collect();
    Table {
        rows: table.rows,
        words,
    }
}

/// The cells after each row's last printed letter, up to `columns`, column by column.
fn empty_cells(grid: &Grid, columns: usize) -> Vec<(usize, usize)> {
    let rows = grid.rows();
    let mut last = vec![0; rows + 1];
    for l in &grid.letters {
        last[l.row] = last[l.row].max(l.column);
    }
    let mut cells = Vec::new();
    for column in 1..=columns {
        for (row, &end) in last.iter().enumerate().skip(1) {
            if column > end {
                cells.push((row, column));
            }
        }
    }
    cells
}

/// The letters an empty cell may take: every link (besides a blank).
fn cell_choices(grid: &Grid) -> Vec<(GenLetter, String)> {
    let instance = &grid.loaded.instance;
    let names = instance.group().generator_names();
    instance
        .links()
        .iter()
        .map(|&g| (g, letter_text(&names[g.generator as usize], g.inverse)))
        .collect()
}

/// Σ of the messages' distances: no table has fewer letters.
fn needed_letters(grid: &Grid) -> usize {
    let instance = &grid.loaded.instance;
    instance
        .message_set()
        .iter()
        .zip(instance.distances())
        .filter(|(w, _)| **w)
        .map(|(_, &d)| d as usize)
        .sum()
}

/// The depth-first enumeration of fillings, pruned by the column rules (no link
/// twice, the ports) and by the letter count.
struct Filling<'a> {
    grid: &'a Grid,
    cells: &'a [(usize, usize)],
    choices: &'a [(GenLetter, String)],
    needed: usize,
    shortest: bool,
}

type Visit<'v> = dyn FnMut(&[GridLetter]) -> ControlFlow<Result<(), InferError>> + 'v;

impl Filling<'_> {
    fn walk(
        &mut self,
        at: usize,
        letters: usize,
        filling: &mut Vec<GridLetter>,
        visit: &mut Visit<'_>,
    ) -> ControlFlow<Result<(), InferError>> {
        let left = self.cells.len() - at;
        if letters + left < self.needed || (self.shortest && letters > self.needed) {
            return ControlFlow::Continue(());
        }
        let Some(&(row, column)) = self.cells.get(at) else {
            return visit(filling);
        };
        self.walk(at + 1, letters, filling, visit)?;
        for (g, text) in self.choices {
            if !self.fits(filling, column, *g) {
                continue;
            }
            filling.push(GridLetter {
                row,
                column,
                letter: TableLetter::Gen(*g),
                text: text.clone(),
            });
            let flow = self.walk(at + 1, letters + 1, filling, visit);
            filling.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Whether link letter `g` may go into `column` next to the letters already there.
    fn fits(&self, filling: &[GridLetter], column: usize, g: GenLetter) -> bool {
        let instance = &self.grid.loaded.instance;
        let link = instance.link_of_letter(g);
        let in_column = || {
            self.grid
                .letters
                .iter()
                .chain(filling)
                .filter(move |l| l.column == column)
        };
        let same = in_column().any(|l| match &l.letter {
            TableLetter::Gen(h) => instance.link_of_letter(*h) == link,
            TableLetter::UnknownName(_) => false,
        });
        !same && in_column().count() < instance.ports()
    }
}
