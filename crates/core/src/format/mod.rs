//! The `.tbl` text format: parser (text → [`syntax::TblFile`] with spans), lowering of
//! presentation syntax to [`crate::group::Presentation`], and the aligned printer.
//!
//! The format is specified in `docs/tbl-format.md`. The pieces:
//!
//! - [`parse`] reads a whole file into a [`TblFile`] whose every part carries its byte
//!   [`Span`]; nothing is checked against a group at this stage.
//! - [`lower_group`] and [`lower_word`] turn presentation syntax into generator letters.
//! - [`print()`] writes a file back in canonical form with the table's columns aligned.
//! - [`render_error`] shows a [`ParseError`] as `path:line:col: error: message` with the
//!   source line and a caret line under the offending text.

mod comments;
mod diagnostic;
mod lexer;
mod lower;
mod parser;
mod printer;
mod strip;
pub mod syntax;

pub use comments::print_keeping_comments;
pub use diagnostic::{SHOWN_LINE_BYTES, echoed, render_diagnostic, render_error};
pub use lower::{MAX_EXPONENT, MAX_GENERATORS, MAX_RELATOR_LETTERS, lower_group, lower_word};
pub use parser::{MAX_HYPERCUBE_DIMENSION, MAX_NESTING, parse};
pub use printer::{print, print_group, print_letters, print_row_token, print_rows, print_word};

use syntax::{Span, TblFile};

/// `text` in the layout `txverify fmt` prints it (comments kept): every `.tbl`
/// file the tool writes (`search -o`, `gen`, `net`) goes through here, so that
/// `fmt --check` accepts it and the layout has one home, the printer. A text
/// that does not parse is returned as it is, for its reader to report.
pub fn canonical(text: &str) -> String {
    match parse(text) {
        Ok(file) => print_keeping_comments(text, &file),
        Err(_) => text.to_string(),
    }
}

/// What is wrong with a malformed file.
///
/// Each variant is one kind of mistake; its `Display` text is the message shown to the
/// user (the location comes from [`ParseError::span`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A header line that is not `key: value` (for instance a table row before `table:`).
    #[error("expected a header line `key: value` (table rows must follow a `table:` line)")]
    ExpectedKey,
    /// A key the format does not define.
    #[error(
        "unknown key `{0}:` (known keys: name, source, group, links, messages, ports, network, certificates, expect, table)"
    )]
    UnknownKey(String),
    /// A key other than `expect:` given a second time.
    #[error("`{key}:` is given twice (first on line {first_line}); only `expect:` may repeat")]
    DuplicateKey {
        /// The key, in lower case.
        key: String,
        /// The line of its first occurrence.
        first_line: usize,
    },
    /// A key with nothing after its colon.
    #[error("`{0}:` needs a value")]
    EmptyValue(String),
    /// The file has no `group:` line.
    #[error("missing `group:` line: every file must give its group")]
    MissingGroup,
    /// The file ends without a `table:` line (the header must be followed by one,
    /// even when no rows follow it).
    #[error(
        "missing `table:` line: the header must be followed by `table:` (with no rows for a header-only file)"
    )]
    MissingTable,
    /// Text after `table:` on its line.
    #[error("nothing but a comment may follow `table:` on its line")]
    JunkAfterTable,
    /// A header line among the table rows.
    #[error("`{0}:` after `table:`: header lines come before the table")]
    HeaderAfterTable(String),
    /// A non-blank, non-comment line after `end`.
    #[error("only blank and comment lines may follow `end`")]
    TrailingAfterEnd,
    /// A character that cannot start (or continue) a letter.
    #[error("unexpected `{}`: expected a letter (an ASCII letter or a `{{name}}`)", .0.escape_debug())]
    BadLetter(char),
    /// A `{` without its `}`.
    #[error("unclosed `{{`: a braced name ends with `}}`")]
    UnclosedBrace,
    /// A character that may not appear in a braced name.
    #[error("`{}` may not appear in a `{{name}}`: names hold ASCII letters, digits and `_`", .0.escape_debug())]
    BadNameChar(char),
    /// `{}` with nothing inside.
    #[error("empty name `{{}}`")]
    EmptyName,
    /// A generator declared with `'` or an overline.
    #[error("a generator is declared by its name alone, without `'` or overline")]
    InvertedGenerator,
    /// A generator written as several characters without braces (`t1`, `ab`).
    #[error(
        "generator names are one letter: `{0}` reads as `{first}` followed by more; write `{{{0}}}` for a longer name",
        first = .0.chars().next().unwrap_or_default()
    )]
    LongGeneratorName(String),
    /// A table token such as `a.b` that mixes letters and blanks.
    #[error("a token mixes letters and blanks `.`; separate them with white space")]
    MixedToken,
    /// Something other than what the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the grammar allows here.
        expected: &'static str,
        /// What was found (quoted text, or `end of line`).
        found: String,
    },
    /// A word with no factors, as in `a = ` or `()`.
    #[error("empty word (write `1` for the identity)")]
    EmptyWord,
    /// A number other than `1` standing as a factor of a word.
    #[error(
        "`{0}` is not a factor: the only number allowed in a word is `1` (exponents are written `^k`)"
    )]
    NumberInWord(String),
    /// `^` not followed by an integer in one of the allowed forms.
    #[error("expected an integer exponent after `^` (`^k`, `^-k`, `^{{k}}` or `^(k)`)")]
    BadExponent,
    /// An exponent beyond [`MAX_EXPONENT`] in absolute value.
    #[error("exponent too large: at most {} in absolute value", MAX_EXPONENT)]
    ExponentTooLarge,
    /// Parentheses or commutators nested beyond [`MAX_NESTING`].
    #[error("parentheses nested too deeply (limit {})", MAX_NESTING)]
    NestingTooDeep,
    /// A value that should be a non-negative integer.
    #[error("expected a non-negative integer, found `{0}`")]
    BadNumber(String),
    /// An integer that does not fit the machine's integer type.
    #[error("number too large: `{0}`")]
    NumberTooLarge(String),
    /// An integer outside the range allowed for this value.
    #[error("{what} must be {}", range_text(*min, *max))]
    OutOfRange {
        /// What the number is (`ports`, `a ring's size`, ...).
        what: &'static str,
        /// Smallest allowed value.
        min: u64,
        /// Largest allowed value (`u64::MAX` when unbounded).
        max: u64,
    },
    /// A `messages:` value that is not one of the forms.
    #[error(
        "unknown message set `{0}`: expected `total`, `odd`, `distance d1 d2 …` or `to w1 w2 …`"
    )]
    UnknownMessages(String),
    /// A `network:` value naming a network a table cannot run on.
    #[error(
        "a table does not run on a `{0}` network: expected `ring N`, `hypercube D`, `torus N1 N2 …` or `twisted N1 N2 [N3]`"
    )]
    UnknownNetwork(String),
    /// A `network:` value that is not a network name (docs/networks.md).
    #[error("{0}")]
    Network(crate::network::NetworkError),
    /// A `network: twisted …` whose sides are not a twisted-torus shape.
    #[error("{0}")]
    TwistedShape(String),
    /// An `expect:` value that is not one of the forms.
    #[error(
        "unknown claim `{0}`: expected `time T`, `optimal`, `not optimal`, `bound B` or `invalid [row R] [column C]`"
    )]
    UnknownExpectation(String),
    /// A name used in a word that is not a generator of its presentation.
    #[error("`{0}` is not a generator of this presentation")]
    UnknownGenerator(String),
    /// A one-letter name in a word where a longer generator starting with it
    /// was meant (`t1` for the generator `{t1}`).
    #[error(
        "`{letter}` is not a generator of this presentation; a longer name keeps its braces in every word: write `{{{generator}}}`"
    )]
    UnbracedGenerator {
        /// The letter read.
        letter: String,
        /// The generator it begins.
        generator: String,
    },
    /// A generator name declared twice (in one factor or across factors).
    #[error(
        "generator `{0}` is declared twice (names of a direct product's factors must be distinct)"
    )]
    DuplicateGenerator(String),
    /// A relator or word that expands to too many letters.
    #[error("this word expands to more than {} letters", MAX_RELATOR_LETTERS)]
    WordTooLong,
    /// A presentation whose relators expand to too many letters in all.
    #[error(
        "the presentation's relators expand to more than {} letters in all",
        MAX_RELATOR_LETTERS
    )]
    PresentationTooLarge,
    /// More generators than [`MAX_GENERATORS`].
    #[error(
        "more than {} generators: a group of at most a few million elements needs far fewer, and its tables would take gigabytes",
        MAX_GENERATORS
    )]
    TooManyGenerators,
}

fn range_text(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("at least {min}")
    } else {
        format!("between {min} and {max}")
    }
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

impl ParseError {
    /// An error of this kind at this span.
    pub fn new(kind: ParseErrorKind, span: Span) -> ParseError {
        ParseError { kind, span }
    }
}

/// 1-based line and column (in characters) of a byte offset.
///
/// Offsets past the end count as the end of the text; an offset inside a multi-byte
/// character counts as the start of that character.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset);
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

/// The largest char boundary of `source` at or below `offset` (clamped to its length).
pub(crate) fn floor_char_boundary(source: &str, offset: usize) -> usize {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A copy of `file` with every span set to `Span::default()` and every row's line to 0,
/// for comparing two files by what they say rather than where they say it.
pub fn without_spans(file: &TblFile) -> TblFile {
    strip::file(file)
}

#[cfg(test)]
mod tests;

/// What serde_json says is wrong, without the " at line L column C" it appends:
/// every reader of a JSON file renders the position itself, as `file:line:col`.
pub fn json_error_message(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&position) {
        Some(bare) => bare.to_string(),
        None => message,
    }
}
