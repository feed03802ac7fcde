//! The syntax tree of a `.tbl` file, with byte spans for diagnostics.
//!
//! These types say what was *written*; nothing here is checked against a group.
//! The loader turns them into a kernel instance, and the printer writes them back.

use std::fmt;

use serde::Serialize;

use crate::network::NetworkName;

/// A byte range `start..end` in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

/// A value with the span it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

impl<T> Spanned<T> {
    /// A value with its span.
    pub fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }

    /// A value made by a program rather than read from text (its span is empty).
    pub fn unspanned(value: T) -> Spanned<T> {
        Spanned {
            value,
            span: Span::default(),
        }
    }
}

/// A letter: a generator name and whether it is inverted (after folding `'`s and overlines).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Letter {
    /// The generator name without braces (`a`, `t12`).
    pub name: String,
    /// `true` when an odd number of `'` (or an overline) follows the name.
    pub inverse: bool,
}

impl Letter {
    /// The letter `name` (inverted when `inverse`).
    pub fn new(name: impl Into<String>, inverse: bool) -> Letter {
        Letter {
            name: name.into(),
            inverse,
        }
    }

    /// The letter that cancels this one.
    pub fn inverted(&self) -> Letter {
        Letter {
            name: self.name.clone(),
            inverse: !self.inverse,
        }
    }
}

/// Prints the letter as the `.tbl` format writes it: `a`, `a'`, `{t12}`, `{t12}'`.
impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut chars = self.name.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => write!(f, "{c}")?,
            _ => write!(f, "{{{}}}", self.name)?,
        }
        if self.inverse {
            f.write_str("'")?;
        }
        Ok(())
    }
}

/// One factor of a word in a relation or a `to` message list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// A generator letter.
    Letter(Letter),
    /// The identity, written `1`.
    One,
    /// A parenthesised word.
    Parens(WordExpr),
    /// A commutator `[u, v]` = u⁻¹v⁻¹uv.
    Commutator(WordExpr, WordExpr),
}

/// A factor with its exponent (`1` when none is written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Factor {
    /// What is raised to the power.
    pub atom: Atom,
    /// The exponent, possibly negative or zero.
    pub exponent: i64,
}

/// A word in a relation: factors written side by side.
pub type WordExpr = Vec<Spanned<Factor>>;

/// A relation chain `w1 = w2 = … = wk`; a single word means `w = 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    /// The sides, in order; at least one.
    pub sides: Vec<Spanned<WordExpr>>,
}

/// One presentation `<g1, g2, … | r1, r2, …>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresentationSyntax {
    /// Generator names as declared.
    pub generators: Vec<Spanned<String>>,
    /// Relations as written.
    pub relations: Vec<Relation>,
}

/// A group: the direct product of one or more presentations (`P x Q`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupSyntax {
    /// The factors of the direct product; at least one.
    pub factors: Vec<Spanned<PresentationSyntax>>,
}

/// The `messages:` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessagesSyntax {
    /// Every node sends to every other node.
    Total,
    /// Every node sends to each node at odd distance.
    Odd,
    /// To each node at one of these distances.
    Distances(Vec<u32>),
    /// To exactly these elements, relative to the sender.
    To(Vec<Spanned<WordExpr>>),
}

/// An `expect:` claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The table takes exactly this many steps.
    Time(usize),
    /// The table's time equals the lower bound.
    Optimal,
    /// The table is valid and its time is above the lower bound (not proved optimal).
    NotOptimal,
    /// The kernel's lower bound for this group, link set, ports and message set.
    Bound(usize),
    /// The table is invalid; with a row and/or a column, some violation is there.
    Invalid {
        /// The 1-based row a violation must name.
        row: Option<usize>,
        /// The 1-based column a violation must name.
        column: Option<usize>,
    },
}

/// A token of a table row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowToken {
    /// A word: letters written back to back, one column each.
    Word(Vec<Spanned<Letter>>),
    /// A run of `count` blank columns (`.`, `...`). The parser merges blank tokens that
    /// follow one another (`. ..` is one run of three), so a parsed row never has two
    /// `Blanks` side by side.
    Blanks(usize),
}

/// One table row (a line with something other than white space and comments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 1-based line number in the file (rows are numbered separately, by their index).
    pub line: usize,
    /// Tokens in order; the first starts in column 1.
    pub tokens: Vec<Spanned<RowToken>>,
}

/// A whole `.tbl` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TblFile {
    /// `name:` value, if given.
    pub name: Option<Spanned<String>>,
    /// `source:` value, if given.
    pub source: Option<Spanned<String>>,
    /// `group:` value (required).
    pub group: Spanned<GroupSyntax>,
    /// `links:` value, if given.
    pub links: Option<Spanned<Vec<Spanned<Letter>>>>,
    /// `messages:` value, if given.
    pub messages: Option<Spanned<MessagesSyntax>>,
    /// `ports:` value, if given.
    pub ports: Option<Spanned<usize>>,
    /// `network:` value, if given.
    pub network: Option<Spanned<NetworkName>>,
    /// `certificates:` value, if given: the directory of the certificates that
    /// refute the times below the table's, as written (relative to the file's
    /// directory). The format only carries it; `check` reads and verifies them.
    pub certificates: Option<Spanned<String>>,
    /// Every `expect:` line, in order.
    pub expect: Vec<Spanned<Expectation>>,
    /// Table rows, in order; empty when no rows follow the `table:` line (a header-only
    /// file) or no rows after it.
    pub rows: Vec<Row>,
}
