//! Diagnostics for unreadable input: `file:line:column`, the line, and a caret.

use txverify::format::{line_col, syntax::Span};

/// Renders an error at `span` of `source` as three plain lines.
pub fn render(path: &str, source: &str, span: Span, message: &str) -> String {
    let (line, column) = line_col(source, span.start);
    let text = source.lines().nth(line - 1).unwrap_or("");
    let width = if span.end > span.start {
        let (end_line, end_column) = line_col(source, span.end);
        if end_line == line {
            (end_column - column).max(1)
        } else {
            text.chars().count().saturating_sub(column - 1).max(1)
        }
    } else {
        1
    };
    let number = line.to_string();
    let pad = " ".repeat(number.len());
    format!(
        "{path}:{line}:{column}: error: {message}\n{pad} |\n{number} | {text}\n{pad} | {}{}\n",
        " ".repeat(column - 1),
        "^".repeat(width)
    )
}
