//! The `.tbl` text format: parser (text → [`syntax::TblFile`] with spans), lowering of
//! presentation syntax to [`crate::group::Presentation`], and the aligned printer.
//!
//! Placeholder: the real parser and printer replace the bodies below.

pub mod syntax;

use crate::group::{GenLetter, Presentation};
use syntax::{GroupSyntax, Span, TblFile, WordExpr};

/// What is wrong with a malformed file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Any syntax error, with a message.
    #[error("{0}")]
    Syntax(String),
}

/// A parse error: a kind and the span of the offending text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ParseError {
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// Where.
    pub span: Span,
}

/// Parses a whole `.tbl` file.
pub fn parse(source: &str) -> Result<TblFile, ParseError> {
    let _ = source;
    Err(ParseError {
        kind: ParseErrorKind::Syntax("parser not built yet".into()),
        span: Span::default(),
    })
}

/// Turns presentation syntax (possibly a direct product) into a [`Presentation`].
pub fn lower_group(group: &GroupSyntax) -> Result<Presentation, ParseError> {
    let _ = group;
    Err(ParseError {
        kind: ParseErrorKind::Syntax("lowering not built yet".into()),
        span: Span::default(),
    })
}

/// Turns a word expression into generator letters, resolving names against `generators`.
pub fn lower_word(word: &WordExpr, generators: &[String]) -> Result<Vec<GenLetter>, ParseError> {
    let _ = (word, generators);
    Err(ParseError {
        kind: ParseErrorKind::Syntax("lowering not built yet".into()),
        span: Span::default(),
    })
}

/// Prints a file back in canonical form with the table's columns aligned.
pub fn print(file: &TblFile) -> String {
    let _ = file;
    String::new()
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}
