//! Plain-text rendering of parse errors.
//!
//! The shape is fixed and colourless so that it can be tested and read in logs:
//!
//! ```text
//! t.tbl:3:1: error: unknown key `colour:` (known keys: …)
//!  3 | colour: red
//!    | ^^^^^^
//! ```

use super::syntax::Span;
use super::{ParseError, floor_char_boundary, line_col};
use std::fmt::Display;

/// Renders `err` as `path:line:col: error: message`, the source line, and a caret line
/// under the span (to the end of the line when the span runs past it).
pub fn render_error(path: &str, source: &str, err: &ParseError) -> String {
    render_diagnostic(path, source, err.span, &err.kind)
}

/// Renders any error found at `span` of `source` in the shape of [`render_error`]; used
/// for errors found after parsing (unknown generators in headers, groups that cannot be
/// computed) so that every diagnostic looks the same.
pub fn render_diagnostic(path: &str, source: &str, span: Span, message: &dyn Display) -> String {
    let start = floor_char_boundary(source, span.start);
    let end = floor_char_boundary(source, span.end.max(start));
    let (line, column) = line_col(source, start);
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[start..]
        .find('\n')
        .map_or(source.len(), |i| start + i);
    let full = source[line_start..line_end].trim_end_matches('\r');
    let full_end = line_start + full.len();
    // A long line is shown as a window around the error, marked with `…`.
    let (from, to) = if full.len() <= SHOWN_LINE_BYTES {
        (line_start, full_end)
    } else {
        let from = floor_char_boundary(
            source,
            start
                .min(full_end)
                .saturating_sub(SHOWN_BEFORE_BYTES)
                .max(line_start),
        );
        let to = floor_char_boundary(source, (from + SHOWN_LINE_BYTES).min(full_end))
            .max(start.min(full_end));
        (from, to)
    };
    let before = if from > line_start { "…" } else { "" };
    let after = if to < full_end { "…" } else { "" };
    let text = format!("{before}{}{after}", &source[from..to]);
    let mut pad = " ".repeat(before.chars().count());
    for c in source[from..start.min(to)].chars() {
        match c {
            '\t' => pad.push('\t'),
            c if is_zero_width(c) => {}
            _ => pad.push(' '),
        }
    }
    let underlined = source[start.min(to)..end.min(to)]
        .chars()
        .filter(|&c| !is_zero_width(c))
        .count()
        .max(1);
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    format!(
        "{path}:{line}:{column}: error: {message}\n {number} | {text}\n {gutter} | {pad}{carets}\n",
        carets = "^".repeat(underlined),
    )
}

/// Lines longer than this many bytes are shown as a window around the error;
/// a token an error message repeats is cut to it ([`echoed`]).
pub const SHOWN_LINE_BYTES: usize = 200;

/// A token as an error message repeats it: whole up to [`SHOWN_LINE_BYTES`],
/// else its first [`SHOWN_LINE_BYTES`] bytes, `…` and its length, so that a
/// million-digit number gives a line of a few hundred bytes. Every message that
/// quotes what a user wrote (a number, a name, a value) goes through this.
pub fn echoed(token: &str) -> std::borrow::Cow<'_, str> {
    if token.len() <= SHOWN_LINE_BYTES {
        return std::borrow::Cow::Borrowed(token);
    }
    let end = floor_char_boundary(token, SHOWN_LINE_BYTES);
    std::borrow::Cow::Owned(format!("{}… ({} bytes)", &token[..end], token.len()))
}

/// How much of a long line the window shows before the error.
const SHOWN_BEFORE_BYTES: usize = 60;

/// Combining marks take no room on screen (U+0300..U+036F covers the macron).
fn is_zero_width(c: char) -> bool {
    ('\u{0300}'..='\u{036F}').contains(&c)
}

#[cfg(test)]
mod echo_tests {
    use super::*;

    #[test]
    fn a_long_token_is_cut_at_a_character_boundary_with_its_length() {
        assert_eq!(echoed("12"), "12");
        let long = "é".repeat(1000);
        let shown = echoed(&long);
        assert!(shown.len() < SHOWN_LINE_BYTES + 30, "{shown}");
        assert!(shown.ends_with("… (2000 bytes)"), "{shown}");
    }
}
