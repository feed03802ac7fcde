//! A table under construction and its rendering as `.tbl` text.
//!
//! Letters are small integers that index a per-family list of names, so that the
//! constructions can rotate letters (the substitution sigma of the paper) by
//! arithmetic and only the renderer knows how a letter is spelled.

use std::fmt::Write as _;

/// One token of a row: a word (letters back to back) or a run of blank columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// A word; each letter indexes the family's letter names.
    Word(Vec<u8>),
    /// This many blank columns.
    Blank(usize),
}

impl Token {
    fn width(&self) -> usize {
        match self {
            Token::Word(w) => w.len(),
            Token::Blank(b) => *b,
        }
    }
}

/// Rows of tokens, written left to right from column 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Table {
    pub(crate) rows: Vec<Vec<Token>>,
}

impl Table {
    /// A table with `rows` empty rows.
    pub(crate) fn with_rows(rows: usize) -> Table {
        Table {
            rows: vec![Vec::new(); rows],
        }
    }

    /// Appends `other` to the right, row by row (the tables must have as many rows).
    /// Every row of `self` must already have the same width, so that the columns of
    /// `other` keep their alignment.
    pub(crate) fn append(&mut self, other: Table) {
        debug_assert_eq!(self.rows.len(), other.rows.len());
        let width = self.width();
        for (row, extra) in self.rows.iter_mut().zip(other.rows) {
            let have: usize = row.iter().map(Token::width).sum();
            if have < width && !extra.is_empty() {
                row.push(Token::Blank(width - have));
            }
            row.extend(extra);
        }
    }

    /// The time of the table: the last column holding a letter.
    pub(crate) fn width(&self) -> usize {
        self.rows
            .iter()
            .map(|row| {
                let mut end = 0;
                let mut col = 0;
                for t in row {
                    col += t.width();
                    if matches!(t, Token::Word(_)) {
                        end = col;
                    }
                }
                end
            })
            .max()
            .unwrap_or(0)
    }
}

/// The header lines of a generated file.
pub(crate) struct Header {
    pub(crate) name: String,
    /// Comment lines written before the header (without the `# `).
    pub(crate) notes: Vec<String>,
    pub(crate) source: String,
    pub(crate) group: String,
    pub(crate) links: String,
    pub(crate) network: String,
    pub(crate) time: usize,
    pub(crate) optimal: bool,
}

/// Renders a complete `.tbl` file. `names[l]` is how letter `l` is written.
pub(crate) fn render(header: &Header, names: &[String], table: &Table) -> String {
    let letters: usize = table
        .rows
        .iter()
        .flatten()
        .map(|t| match t {
            Token::Word(w) => w.len() + 1,
            Token::Blank(b) => b + 1,
        })
        .sum();
    let mut out = String::with_capacity(letters * 2 + 1024);
    for note in &header.notes {
        if note.is_empty() {
            out.push_str("#\n");
        } else {
            let _ = writeln!(out, "# {note}");
        }
    }
    let _ = writeln!(out, "name: {}", header.name);
    let _ = writeln!(out, "source: {}", header.source);
    let _ = writeln!(out, "group: {}", header.group);
    let _ = writeln!(out, "links: {}", header.links);
    let _ = writeln!(out, "network: {}", header.network);
    let _ = writeln!(out, "expect: time {}", header.time);
    if header.optimal {
        out.push_str("expect: optimal\n");
    }
    out.push_str("table:\n");
    for row in &table.rows {
        let mut first = true;
        for t in row {
            if !first {
                out.push(' ');
            }
            first = false;
            match t {
                Token::Word(w) => {
                    for &l in w {
                        out.push_str(&names[l as usize]);
                    }
                }
                Token::Blank(b) => {
                    for _ in 0..*b {
                        out.push('.');
                    }
                }
            }
        }
        out.push('\n');
    }
    // In the layout `fmt` prints, so that `fmt --check` accepts what `gen` writes.
    txverify_core::format::canonical(&out)
}

/// `<g | g^2 = 1>`-style relation list for commuting generators: `ab = ba, ac = ca, ...`.
pub(crate) fn commutations(gens: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in gens.iter().enumerate() {
        for b in &gens[i + 1..] {
            out.push(format!("{a}{b} = {b}{a}"));
        }
    }
    out
}
