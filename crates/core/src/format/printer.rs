//! The printer: a [`TblFile`] back to text, in canonical form.
//!
//! Header lines come in a fixed order (name, source, group, links, messages, ports,
//! network, certificates, expect), then `table:` and the rows with their columns aligned: every token
//! that starts in table column `c` starts at the same character position `P_c` in every
//! row. [`print`] drops comments; `print_keeping_comments` (comments.rs) puts
//! them back where they were written, around these lines.

use std::fmt::Write;

use super::syntax::{
    Atom, Expectation, GroupSyntax, Letter, MessagesSyntax, PresentationSyntax, Row, RowToken,
    Span, Spanned, TblFile, WordExpr,
};

/// Prints a file back in canonical form with the table's columns aligned.
///
/// The output parses back to the same file (spans and line numbers aside), provided the
/// free-text values (`name:`, `source:`) are non-empty, hold no `#` and no line break,
/// and every word and presentation is one the parser can produce (no empty words).
/// The `table:` line is always written, even when there are no rows.
pub fn print(file: &TblFile) -> String {
    let mut out = String::new();
    for (_, line) in header_lines(file) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("table:\n");
    out.push_str(&print_rows(&file.rows));
    out
}

/// The header lines in canonical order, each with the span it was read from
/// (so that comments can follow their line), without line breaks.
pub(super) fn header_lines(file: &TblFile) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    if let Some(name) = &file.name {
        out.push((name.span, format!("name: {}", one_line(&name.value))));
    }
    if let Some(source) = &file.source {
        out.push((source.span, format!("source: {}", one_line(&source.value))));
    }
    out.push((
        file.group.span,
        format!("group: {}", print_group(&file.group.value)),
    ));
    if let Some(links) = &file.links {
        let letters = print_separated(links.value.iter().map(|l| &l.value));
        out.push((links.span, format!("links: {letters}")));
    }
    if let Some(messages) = &file.messages {
        out.push((
            messages.span,
            format!("messages: {}", print_messages(&messages.value)),
        ));
    }
    if let Some(ports) = &file.ports {
        out.push((ports.span, format!("ports: {}", ports.value)));
    }
    if let Some(network) = &file.network {
        out.push((network.span, format!("network: {}", network.value)));
    }
    if let Some(certificates) = &file.certificates {
        let line = format!("certificates: {}", one_line(&certificates.value));
        out.push((certificates.span, line));
    }
    for claim in &file.expect {
        out.push((
            claim.span,
            format!("expect: {}", print_expectation(&claim.value)),
        ));
    }
    out
}

/// An `expect:` value in canonical form (`time 5`, `invalid row 3 column 7`).
fn print_expectation(claim: &Expectation) -> String {
    match claim {
        Expectation::Time(t) => format!("time {t}"),
        Expectation::Optimal => "optimal".to_string(),
        Expectation::NotOptimal => "not optimal".to_string(),
        Expectation::Bound(b) => format!("bound {b}"),
        Expectation::Invalid { row, column } => {
            let mut text = "invalid".to_string();
            if let Some(r) = row {
                let _ = write!(text, " row {r}");
            }
            if let Some(c) = column {
                let _ = write!(text, " column {c}");
            }
            text
        }
    }
}

fn one_line(text: &str) -> String {
    text.replace('\n', " ")
}

/// Letters separated by single spaces (`a b a'`).
fn print_separated<'a>(letters: impl IntoIterator<Item = &'a Letter>) -> String {
    let mut out = String::new();
    for (i, letter) in letters.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{letter}");
    }
    out
}

/// Letters written back to back, as a word in a table row (`bba'`, `{t1}{t2}`).
pub fn print_letters<'a>(letters: impl IntoIterator<Item = &'a Letter>) -> String {
    let mut out = String::new();
    for letter in letters {
        let _ = write!(out, "{letter}");
    }
    out
}

/// One row token: a word's letters back to back, or one `.` per blank column.
pub fn print_row_token(token: &RowToken) -> String {
    match token {
        RowToken::Word(letters) => print_letters(letters.iter().map(|l| &l.value)),
        RowToken::Blanks(count) => ".".repeat(*count),
    }
}

fn print_messages(messages: &MessagesSyntax) -> String {
    match messages {
        MessagesSyntax::Total => "total".to_string(),
        MessagesSyntax::Odd => "odd".to_string(),
        MessagesSyntax::Distances(distances) => {
            let mut out = "distance".to_string();
            for d in distances {
                let _ = write!(out, " {d}");
            }
            out
        }
        MessagesSyntax::To(words) => {
            let mut out = "to".to_string();
            for word in words {
                out.push(' ');
                out.push_str(&print_word(&word.value));
            }
            out
        }
    }
}

/// A group in presentation syntax: `<a, b | a^5 = b^5 = 1, ab = ba> x <c | c^2>`.
pub fn print_group(group: &GroupSyntax) -> String {
    let factors: Vec<String> = group
        .factors
        .iter()
        .map(|f| print_presentation(&f.value))
        .collect();
    factors.join(" x ")
}

fn print_presentation(presentation: &PresentationSyntax) -> String {
    let mut out = "<".to_string();
    for (i, generator) in presentation.generators.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}", Letter::new(generator.value.clone(), false));
    }
    if !presentation.relations.is_empty() {
        out.push_str(" | ");
        for (i, relation) in presentation.relations.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            for (j, side) in relation.sides.iter().enumerate() {
                if j > 0 {
                    out.push_str(" = ");
                }
                out.push_str(&print_word(&side.value));
            }
        }
    }
    out.push('>');
    out
}

/// A word in relation syntax, without white space between its factors (so it can
/// stand in a `to` list): `a^2b`, `(ab)^-3`, `[a, b]^{2}1`.
///
/// An exponent is written in braces (`^{k}`) when a `1` factor follows it, so the
/// digits do not run together; for the same reason a `1` followed by `1` is written
/// `1^{1}1`.
pub fn print_word(word: &WordExpr) -> String {
    let mut out = String::new();
    for (i, factor) in word.iter().enumerate() {
        let next_is_one = matches!(
            word.get(i + 1),
            Some(Spanned {
                value: super::syntax::Factor {
                    atom: Atom::One,
                    ..
                },
                ..
            })
        );
        match &factor.value.atom {
            Atom::Letter(letter) => {
                let _ = write!(out, "{letter}");
            }
            Atom::One => out.push('1'),
            Atom::Parens(inner) => {
                out.push('(');
                out.push_str(&print_word(inner));
                out.push(')');
            }
            Atom::Commutator(u, v) => {
                out.push('[');
                out.push_str(&print_word(u));
                out.push_str(", ");
                out.push_str(&print_word(v));
                out.push(']');
            }
        }
        let exponent = factor.value.exponent;
        let ends_in_digit = exponent != 1 || matches!(factor.value.atom, Atom::One);
        if next_is_one && ends_in_digit {
            let _ = write!(out, "^{{{exponent}}}");
        } else if exponent != 1 {
            let _ = write!(out, "^{exponent}");
        }
    }
    out
}

/// A cell of the printed table: a token's start column, its number of columns, its text.
struct Cell {
    column: usize,
    columns: usize,
    text: String,
}

/// The rows of a table, one line each, with aligned columns.
///
/// Blank runs are printed one `.` per column so that every column is aligned. The
/// position `P_c` of column `c` is the least one that leaves one space between tokens:
/// `P_{c+1} >= P_c + 1`, and `P_{c+k} >= P_c + w + 1` for each token of width `w`
/// spanning columns `c..c+k`.
pub fn print_rows(rows: &[Row]) -> String {
    let layouts: Vec<Vec<Cell>> = rows.iter().map(row_cells).collect();
    let width = layouts
        .iter()
        .filter_map(|cells| cells.last())
        .map(|cell| cell.column + cell.columns)
        .max()
        .unwrap_or(0);
    let mut starting: Vec<Vec<(usize, usize)>> = vec![Vec::new(); width];
    for cell in layouts.iter().flatten() {
        starting[cell.column].push((cell.columns, cell.text.chars().count()));
    }
    let mut position = vec![0usize; width + 1];
    for column in 0..width {
        let here = position[column];
        position[column + 1] = position[column + 1].max(here + 1);
        for &(columns, text_width) in &starting[column] {
            let next = column + columns;
            position[next] = position[next].max(here + text_width + 1);
        }
    }
    let mut out = String::new();
    for cells in &layouts {
        let mut line = String::new();
        let mut at = 0;
        for cell in cells {
            let target = position[cell.column];
            while at < target {
                line.push(' ');
                at += 1;
            }
            line.push_str(&cell.text);
            at += cell.text.chars().count();
        }
        let line = line.trim_end();
        if line.eq_ignore_ascii_case("end") {
            // The word e·n·d alone on a row would read as the end of the table.
            out.push('{');
            out.push_str(&line[..1]);
            out.push('}');
            out.push_str(&line[1..]);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

fn row_cells(row: &Row) -> Vec<Cell> {
    let mut cells = Vec::new();
    let mut column = 0;
    for token in &row.tokens {
        match &token.value {
            RowToken::Word(letters) => {
                if letters.is_empty() {
                    continue;
                }
                cells.push(Cell {
                    column,
                    columns: letters.len(),
                    text: print_letters(letters.iter().map(|l| &l.value)),
                });
                column += letters.len();
            }
            RowToken::Blanks(count) => {
                for _ in 0..*count {
                    cells.push(Cell {
                        column,
                        columns: 1,
                        text: ".".to_string(),
                    });
                    column += 1;
                }
            }
        }
    }
    cells
}
