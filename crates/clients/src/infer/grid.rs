//! The letter grid `infer` reads: a `.tbl` file whose rows hold one letter per token.
//!
//! The file is read by the ordinary loader, so the header, the letters and every
//! diagnostic are those of the format (docs/tbl-format.md). A grid row in that syntax
//! is a row of one-letter words, which is exactly the segmentation that cuts between
//! every two letters; what this module adds is the one rule of the grid syntax: a
//! token holds one letter, so that no word boundary is ever read from the input.

use std::sync::Arc;
use txverify_core::format::syntax::{RowToken, Span};
use txverify_core::kernel::{LinkId, TableLetter};
use txverify_core::load::{LoadError, LoadOptions, Loaded, load};

/// Why a grid file cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// The file does not load as a `.tbl` file (syntax, header or group).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A token of a grid row holds more than one letter.
    #[error(
        "`{token}` is {letters} letters in one token: a grid has one letter per token (write `{spaced}`); the word boundaries are what `infer` finds"
    )]
    JoinedLetters {
        /// The token as written.
        token: String,
        /// How many letters it holds.
        letters: usize,
        /// The same letters, one per token.
        spaced: String,
        /// The token's span.
        span: Span,
    },
}

impl GridError {
    /// The span the error points at.
    pub fn span(&self) -> Span {
        match self {
            GridError::Load(e) => e.span(),
            GridError::JoinedLetters { span, .. } => *span,
        }
    }
}

/// One letter of the grid: where it is and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridLetter {
    /// 1-based row.
    pub row: usize,
    /// 1-based column.
    pub column: usize,
    /// The letter resolved against the generators.
    pub letter: TableLetter,
    /// The letter as written.
    pub text: String,
}

/// A maximal run of letters in one row, between blanks or row ends: every word of a
/// segmentation lies inside one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// 1-based row.
    pub row: usize,
    /// The column of its first letter.
    pub column: usize,
    /// Indices into [`Grid::letters`], one per column.
    pub letters: std::ops::Range<usize>,
}

/// A loaded grid file: the file, its instance, and the letters with their runs.
#[derive(Debug)]
pub struct Grid {
    /// The file as loaded (its table is the printed grid cut between every two
    /// letters; a completed grid, [`Grid::filled`], shares it and adds letters).
    pub loaded: Arc<Loaded>,
    /// Every letter, row by row, left to right.
    pub letters: Vec<GridLetter>,
    /// The runs, row by row, left to right.
    pub runs: Vec<Run>,
}

impl Grid {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.loaded.table.rows
    }

    /// The last column holding a letter (the time of every segmentation).
    pub fn columns(&self) -> usize {
        self.letters.iter().map(|l| l.column).max().unwrap_or(0)
    }

    /// The same file with more letters (cells the grid leaves empty, as a completion
    /// fills them): the runs are recomputed; the header and instance are shared.
    pub fn filled(&self, extra: &[GridLetter]) -> Grid {
        let mut letters: Vec<GridLetter> = self.letters.iter().chain(extra).cloned().collect();
        letters.sort_by_key(|l| (l.row, l.column));
        let runs = runs_of(&letters);
        Grid {
            loaded: Arc::clone(&self.loaded),
            letters,
            runs,
        }
    }

    /// The grid as a table: every letter a one-letter word.
    pub(crate) fn letters_table(&self) -> txverify_core::kernel::Table {
        let words = (0..self.letters.len())
            .map(|i| i..i + 1)
            .collect::<Vec<_>>();
        super::table_of(self, &words)
    }

    /// The links of a run's letters, or `None` when one of them is not a link.
    pub(crate) fn run_links(&self, run: &Run) -> Option<Vec<LinkId>> {
        self.letters[run.letters.clone()]
            .iter()
            .map(|l| match &l.letter {
                TableLetter::Gen(g) => self.loaded.instance.link_of_letter(*g),
                TableLetter::UnknownName(_) => None,
            })
            .collect()
    }
}

/// Reads a grid file's text.
pub fn load_grid(source: &str, options: &LoadOptions) -> Result<Grid, GridError> {
    let loaded = load(source, options)?;
    for row in &loaded.file.rows {
        for token in &row.tokens {
            if let RowToken::Word(letters) = &token.value
                && letters.len() > 1
            {
                let text = |span: Span| source.get(span.start..span.end).unwrap_or("?");
                return Err(GridError::JoinedLetters {
                    token: text(token.span).to_string(),
                    letters: letters.len(),
                    spaced: letters
                        .iter()
                        .map(|l| text(l.span))
                        .collect::<Vec<_>>()
                        .join(" "),
                    span: token.span,
                });
            }
        }
    }
    // With one letter per token, the loader's words are the grid's letters, in row
    // order, left to right.
    let letters: Vec<GridLetter> = loaded
        .table
        .words
        .iter()
        .filter_map(|w| {
            let letter = w.letters.first()?.clone();
            Some(GridLetter {
                row: w.row,
                column: w.column,
                letter,
                text: w.text.clone(),
            })
        })
        .collect();
    let runs = runs_of(&letters);
    Ok(Grid {
        loaded: Arc::new(loaded),
        letters,
        runs,
    })
}

/// The maximal runs of letters, row by row (letters in row order, left to right).
fn runs_of(letters: &[GridLetter]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (i, l) in letters.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if run.row == l.row && run.column + run.letters.len() == l.column => {
                run.letters.end = i + 1;
            }
            _ => runs.push(Run {
                row: l.row,
                column: l.column,
                letters: i..i + 1,
            }),
        }
    }
    runs
}
