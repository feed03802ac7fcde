//! Printing a `.tbl` file in canonical form with its comments kept, so that
//! `fmt` can rewrite a commented collection and `fmt --check` can hold it to
//! that form.
//!
//! Where a comment goes (docs/tbl-format.md, "Canonical printing"):
//! - comment lines before the first header line stay at the top of the file;
//! - a comment line between header lines goes with the header line after it
//!   (header lines are reordered, their comments move with them); those after
//!   the last header line go before `table:`;
//! - a comment line among the rows goes before the row after it; those after
//!   the last row, on the `end` line or after it, go at the end;
//! - a comment after a header line or `table:` stays on its line, two spaces
//!   after it; those after rows stay on their rows, aligned two spaces after
//!   the widest row.
//!
//! Comment text is kept from `#` to the end of its line (trailing white space
//! dropped); blank lines are not kept. Comments are not part of the meaning, so
//! the file parses to the same syntax tree as [`super::print`]'s output.

use std::collections::BTreeMap;

use super::printer::{header_lines, print_rows};
use super::syntax::TblFile;

/// The comments of a source, placed by the line they precede or end.
#[derive(Default)]
struct Placed {
    /// Comment lines before the first header line.
    head: Vec<String>,
    /// Comment lines before a header, `table:` or row line (by line number).
    before: BTreeMap<usize, Vec<String>>,
    /// The comment at the end of a header, `table:` or row line.
    trailing: BTreeMap<usize, String>,
    /// Comment lines after the last row, and the `end` line's comment.
    tail: Vec<String>,
    /// The line number of `table:`.
    table_line: usize,
}

/// Splits a line as the parser does: its content before `#`, and the comment.
fn split(raw: &str) -> (&str, Option<String>) {
    let text = raw.strip_suffix('\r').unwrap_or(raw);
    match text.find('#') {
        Some(i) => (&text[..i], Some(text[i..].trim_end().to_string())),
        None => (text, None),
    }
}

/// Places every comment of a source that [`super::parse`] accepted.
fn place(source: &str) -> Placed {
    let mut placed = Placed::default();
    let mut pending = Vec::new();
    let (mut seen_content, mut in_table) = (false, false);
    for (index, raw) in source.split('\n').enumerate() {
        let line = index + 1;
        let (content, comment) = split(raw);
        let trimmed = content.trim();
        if trimmed.is_empty() {
            pending.extend(comment);
            continue;
        }
        let is_table = !in_table
            && trimmed
                .strip_suffix(':')
                .is_some_and(|key| key.trim_end().eq_ignore_ascii_case("table"));
        if in_table && trimmed.eq_ignore_ascii_case("end") {
            pending.extend(comment);
            continue;
        }
        if !seen_content {
            placed.head.append(&mut pending);
            seen_content = true;
        } else if !pending.is_empty() {
            placed.before.insert(line, std::mem::take(&mut pending));
        }
        if let Some(c) = comment {
            placed.trailing.insert(line, c);
        }
        if is_table {
            (in_table, placed.table_line) = (true, line);
        }
    }
    placed.tail = pending;
    placed
}

/// The line number (from 1) of a byte offset.
fn line_of(source: &str, offset: usize) -> usize {
    1 + source.as_bytes()[..offset.min(source.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Prints `file`, parsed from `source`, in canonical form with the comments of
/// `source` kept. Without comments it is exactly [`super::print`].
pub fn print_keeping_comments(source: &str, file: &TblFile) -> String {
    let mut placed = place(source);
    let mut out = String::new();
    let lines = |out: &mut String, comments: &[String]| {
        for c in comments {
            out.push_str(c);
            out.push('\n');
        }
    };
    lines(&mut out, &placed.head);
    let mut emit = |out: &mut String, line: usize, text: &str, column: usize| {
        if let Some(before) = placed.before.remove(&line) {
            lines(out, &before);
        }
        out.push_str(text);
        if let Some(c) = placed.trailing.remove(&line) {
            let pad = column.saturating_sub(text.chars().count()).max(2);
            out.push_str(&" ".repeat(pad));
            out.push_str(&c);
        }
        out.push('\n');
    };
    for (span, text) in header_lines(file) {
        emit(&mut out, line_of(source, span.start), &text, 0);
    }
    emit(&mut out, placed.table_line, "table:", 0);
    let printed = print_rows(&file.rows);
    let widest = printed
        .lines()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    for (row, text) in file.rows.iter().zip(printed.lines()) {
        emit(&mut out, row.line, text, widest + 2);
    }
    // Nothing is left over from a source the parser accepted; kept anyway,
    // in order, rather than dropped.
    let rest: Vec<String> = std::mem::take(&mut placed.before)
        .into_values()
        .flatten()
        .chain(std::mem::take(&mut placed.trailing).into_values())
        .chain(std::mem::take(&mut placed.tail))
        .collect();
    lines(&mut out, &rest);
    out
}
