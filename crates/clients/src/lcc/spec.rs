//! Reading a communication: a file with the rows of A and an optional `b:`
//! line, or a built-in `NAME:N` (the patterns of the paper's sections 2 and 6
//! and the image operations of Example 5).
//!
//! File format: one row of A per line (row i gives y_i), its digits 0/1
//! separated by blanks (or written together); then optionally `b: …` with n
//! digits (b_0 first; 0 by default) and `direction: scatter` for x = Ay ⊕ b;
//! `#` starts a comment. Every error names its line and column (1-based).

use super::gf2::{MAX_DIM, Matrix};
use super::{Direction, Lcc};
use std::path::Path;
use thiserror::Error;
use txverify_core::load::read::{ReadError, ReadLimits, read_text};

/// What is wrong with a communication file, and where.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{line}:{column}: {fault}")]
pub struct SpecError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub fault: Fault,
}

/// The faults a communication file can have.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum Fault {
    /// A character other than 0 or 1 where a digit of A or b is expected.
    #[error("`{0}` is not a binary digit (expected 0 or 1)")]
    NotBinary(char),
    /// A row with another number of digits than the first row.
    #[error("this row has {found} entries but the first row has {expected}")]
    Ragged {
        /// Entries of the first row.
        expected: usize,
        /// Entries of this row.
        found: usize,
    },
    /// More rows than columns.
    #[error("row {rows} of a matrix with {columns} columns: A must be square")]
    TooManyRows {
        /// Rows so far, this one included.
        rows: usize,
        /// Columns of every row.
        columns: usize,
    },
    /// Fewer rows than columns.
    #[error("A has {rows} rows but {columns} columns: it must be square")]
    TooFewRows {
        /// Rows read.
        rows: usize,
        /// Columns of every row.
        columns: usize,
    },
    /// b has the wrong number of digits.
    #[error("b has {found} digits but A is {expected} × {expected}")]
    BLength {
        /// n.
        expected: usize,
        /// Digits given.
        found: usize,
    },
    /// No row at all.
    #[error("no rows of A")]
    Empty,
    /// n above 64.
    #[error("n = {0} is above the largest supported dimension, {MAX_DIM}")]
    TooLarge(usize),
    /// A row after `b:` or `direction:`.
    #[error("a row of A after the `{0}:` line")]
    RowAfterHeader(&'static str),
    /// A key given twice.
    #[error("`{0}:` is given twice")]
    Duplicate(&'static str),
    /// `direction:` other than forward or scatter.
    #[error("`{0}` is not a direction (expected `forward` or `scatter`)")]
    BadDirection(String),
    /// `key:` other than b or direction.
    #[error("unknown key `{0}:` (expected `b:` or `direction:`)")]
    UnknownKey(String),
}

/// Why a SPEC argument cannot be turned into a communication.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path as given.
        path: String,
        /// The reason.
        source: ReadError,
    },
    /// The file is malformed.
    #[error("{path}:{}:{}: {}", error.line, error.column, error.fault)]
    Spec {
        /// The path as given.
        path: String,
        /// Where and what.
        error: SpecError,
        /// The text of the line at fault (empty past the end of the file).
        line_text: String,
    },
    /// A built-in with a size it does not have.
    #[error("{0}")]
    Builtin(String),
    /// `NAME:N` with an unknown NAME, and no such file either.
    #[error("`{0}` is neither a file nor a built-in NAME:N (built-ins: {list})", list = builtin_names())]
    Unknown(String),
}

/// The names of the built-ins, comma-separated.
fn builtin_names() -> String {
    BUILTINS
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The built-in communications, `NAME:N`.
pub const BUILTINS: &[(&str, &str)] = &[
    (
        "transpose",
        "matrix transpose, y_i = x_{(i + N/2) mod N} (N even; Example 3)",
    ),
    ("bit-reverse", "y_i = x_{N−1−i} (Example 1)"),
    (
        "reverse-flip",
        "bit-reverse with every bit complemented (section 6.1)",
    ),
    ("perfect-shuffle", "y_{(i+1) mod N} = x_i"),
    (
        "reflect-diagonal",
        "image: (px, py) → (py, px), the transpose (Example 5.1)",
    ),
    (
        "reflect-antidiagonal",
        "image: transpose, b = 1…1 (Example 5.1)",
    ),
    (
        "rotate-cw",
        "image: transpose, b = 1 on the low half (Example 5.1)",
    ),
    (
        "rotate-ccw",
        "image: transpose, b = 1 on the high half (Example 5.1)",
    ),
    (
        "reflect-vertical",
        "image: (px, py) → (2^(N/2)−1−px, py) (Example 5.2)",
    ),
    (
        "reflect-horizontal",
        "image: (px, py) → (px, 2^(N/2)−1−py) (Example 5.2)",
    ),
    ("rotate-180", "image: identity, b = 1…1 (Example 5.2)"),
    (
        "scale",
        "image: scale the lower-left quarter by 2, a scatter (Example 5.3)",
    ),
    (
        "row-bit-reverse",
        "image: bit-reverse of px, for FFTs of the rows (Example 5.5)",
    ),
    (
        "column-bit-reverse",
        "image: bit-reverse of py, for FFTs of the columns (Example 5.5)",
    ),
];

/// Reads a SPEC argument: a built-in `NAME:N` when NAME is one, else a file.
pub fn load(arg: &str) -> Result<Lcc, LoadError> {
    if let Some((name, size)) = arg.split_once(':')
        && BUILTINS.iter().any(|(b, _)| *b == name)
    {
        let n: usize = size
            .trim()
            .parse()
            .map_err(|_| LoadError::Builtin(format!("{arg}: `{size}` is not a size")))?;
        return builtin(name, n).map_err(|why| LoadError::Builtin(format!("{arg}: {why}")));
    }
    let text = read_text(Path::new(arg), ReadLimits::TEXT).map_err(|source| {
        let missing =
            matches!(&source, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound);
        if arg.contains(':') && missing {
            LoadError::Unknown(arg.to_string())
        } else {
            LoadError::Read {
                path: arg.to_string(),
                source,
            }
        }
    })?;
    parse(&text).map_err(|error| LoadError::Spec {
        path: arg.to_string(),
        line_text: text.lines().nth(error.line - 1).unwrap_or("").to_string(),
        error,
    })
}

impl LoadError {
    /// The error as a diagnostic: `file:line:column: error: message`, then for
    /// a malformed file the line and a caret under the column.
    pub fn render(&self) -> String {
        match self {
            LoadError::Spec {
                path,
                error,
                line_text,
            } => {
                let number = error.line.to_string();
                let pad = " ".repeat(number.len());
                let indent: String = line_text
                    .chars()
                    .take(error.column.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                format!(
                    "{path}:{}:{}: error: {}\n {number} | {line_text}\n {pad} | {indent}^\n",
                    error.line, error.column, error.fault
                )
            }
            other => format!("error: {other}\n"),
        }
    }
}

/// The built-in `name` on n dimensions.
pub fn builtin(name: &str, n: usize) -> Result<Lcc, String> {
    if n == 0 || n > MAX_DIM {
        return Err(format!("N must be between 1 and {MAX_DIM}"));
    }
    let h = n / 2;
    let image = !matches!(name, "bit-reverse" | "reverse-flip" | "perfect-shuffle");
    if image && n % 2 == 1 {
        return Err(format!(
            "`{name}` needs an even N (a 2^(N/2) × 2^(N/2) image)"
        ));
    }
    let ones = super::gf2::low_mask(n);
    let low = super::gf2::low_mask(h);
    let (low_half, high_half) = (low, ones & !low);
    // row_of(i) = the column of the single 1 of row i, if any.
    let perm = |f: &dyn Fn(usize) -> Option<usize>| {
        Matrix::from_rows((0..n).map(|i| f(i).map_or(0, |j| 1u64 << j)).collect())
    };
    let transpose = || perm(&|i| Some((i + h) % n));
    let identity = || Matrix::identity(n);
    let forward = |a: Matrix, b: u64| Lcc {
        a,
        b,
        direction: Direction::Forward,
    };
    Ok(match name {
        "transpose" | "reflect-diagonal" => forward(transpose(), 0),
        "reflect-antidiagonal" => forward(transpose(), ones),
        "rotate-cw" => forward(transpose(), low_half),
        "rotate-ccw" => forward(transpose(), high_half),
        "bit-reverse" => forward(perm(&|i| Some(n - 1 - i)), 0),
        "reverse-flip" => forward(perm(&|i| Some(n - 1 - i)), ones),
        "perfect-shuffle" => forward(perm(&|i| Some((i + n - 1) % n)), 0),
        "reflect-vertical" => forward(identity(), low_half),
        "reflect-horizontal" => forward(identity(), high_half),
        "rotate-180" => forward(identity(), ones),
        "row-bit-reverse" => forward(perm(&|i| Some(if i < h { h - 1 - i } else { i })), 0),
        "column-bit-reverse" => {
            forward(perm(&|i| Some(if i < h { i } else { n - 1 - (i - h) })), 0)
        }
        // x = Ay: x_k = y_{k+1} inside each half, the top bit of each half 0.
        "scale" => Lcc {
            a: perm(&|i| (i % h != h - 1).then_some(i + 1)),
            b: 0,
            direction: Direction::Scatter,
        },
        _ => return Err(format!("unknown built-in `{name}`")),
    })
}

/// The digits of a run of tokens starting at `first` (0-based char column).
fn digits(text: &str, first: usize, line: usize) -> Result<Vec<bool>, SpecError> {
    let mut out = Vec::new();
    for (k, c) in text.chars().enumerate() {
        match c {
            '0' => out.push(false),
            '1' => out.push(true),
            c if c.is_whitespace() => {}
            c => {
                return Err(SpecError {
                    line,
                    column: first + k + 1,
                    fault: Fault::NotBinary(c),
                });
            }
        }
    }
    Ok(out)
}

/// What has been read of a file so far.
#[derive(Default)]
struct Reader {
    rows: Vec<u64>,
    columns: usize,
    b: Option<u64>,
    direction: Option<Direction>,
}

impl Reader {
    /// Whether a `key:` line has been read (the matrix is over).
    fn in_header(&self) -> bool {
        self.b.is_some() || self.direction.is_some()
    }

    /// A `key: value` line; `indent` is the 0-based column of the key.
    fn header(
        &mut self,
        line: usize,
        indent: usize,
        key: &str,
        value: &str,
    ) -> Result<(), SpecError> {
        let at = |column: usize, fault: Fault| SpecError {
            line,
            column,
            fault,
        };
        let after = indent + key.chars().count() + 1;
        let value_column = after + value.chars().take_while(|c| c.is_whitespace()).count() + 1;
        if !self.in_header() {
            matrix_done(self.rows.len(), self.columns, line)?;
        }
        match key.trim() {
            "b" if self.b.is_some() => Err(at(indent + 1, Fault::Duplicate("b"))),
            "b" => {
                let bits = digits(value, after, line)?;
                if bits.len() != self.columns {
                    let fault = Fault::BLength {
                        expected: self.columns,
                        found: bits.len(),
                    };
                    return Err(at(value_column, fault));
                }
                self.b = Some(pack(&bits));
                Ok(())
            }
            "direction" if self.direction.is_some() => {
                Err(at(indent + 1, Fault::Duplicate("direction")))
            }
            "direction" => {
                self.direction = Some(match value.trim() {
                    "forward" => Direction::Forward,
                    "scatter" => Direction::Scatter,
                    other => return Err(at(value_column, Fault::BadDirection(other.to_string()))),
                });
                Ok(())
            }
            other => Err(at(indent + 1, Fault::UnknownKey(other.to_string()))),
        }
    }

    /// A row of A (`content` without its comment).
    fn row(&mut self, line: usize, indent: usize, content: &str) -> Result<(), SpecError> {
        let at = |column: usize, fault: Fault| SpecError {
            line,
            column,
            fault,
        };
        if self.in_header() {
            let key = if self.b.is_some() { "b" } else { "direction" };
            return Err(at(indent + 1, Fault::RowAfterHeader(key)));
        }
        let bits = digits(content, 0, line)?;
        let columns = self.columns;
        if self.rows.is_empty() {
            if bits.len() > MAX_DIM {
                return Err(at(indent + 1, Fault::TooLarge(bits.len())));
            }
            self.columns = bits.len();
        } else if bits.len() != columns {
            let fault = Fault::Ragged {
                expected: columns,
                found: bits.len(),
            };
            return Err(at(ragged_column(content, columns), fault));
        }
        if self.rows.len() == self.columns {
            let fault = Fault::TooManyRows {
                rows: self.rows.len() + 1,
                columns: self.columns,
            };
            return Err(at(indent + 1, fault));
        }
        self.rows.push(pack(&bits));
        Ok(())
    }
}

/// Parses the text of a communication file.
pub fn parse(text: &str) -> Result<Lcc, SpecError> {
    let mut reader = Reader::default();
    let mut last_line = 0;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        last_line = line;
        let content = raw.split('#').next().unwrap_or("");
        let indent = content.chars().take_while(|c| c.is_whitespace()).count();
        let body = content.trim();
        if body.is_empty() {
            continue;
        }
        match body.split_once(':') {
            Some((key, value)) => reader.header(line, indent, key, value)?,
            None => reader.row(line, indent, content)?,
        }
    }
    if !reader.in_header() {
        matrix_done(reader.rows.len(), reader.columns, last_line + 1)?;
    }
    Ok(Lcc {
        a: Matrix::from_rows(reader.rows),
        b: reader.b.unwrap_or(0),
        direction: reader.direction.unwrap_or(Direction::Forward),
    })
}

/// The checks once the rows of A are over (at `line`): some rows, as many as columns.
fn matrix_done(rows: usize, columns: usize, line: usize) -> Result<(), SpecError> {
    let fault = if rows == 0 {
        Fault::Empty
    } else if rows < columns {
        Fault::TooFewRows { rows, columns }
    } else {
        return Ok(());
    };
    Err(SpecError {
        line,
        column: 1,
        fault,
    })
}

/// The column of the first digit beyond `columns`, or just after the last one.
fn ragged_column(content: &str, columns: usize) -> usize {
    let mut seen = 0;
    let mut end = 0;
    for (k, c) in content.chars().enumerate() {
        if c == '0' || c == '1' {
            if seen == columns {
                return k + 1;
            }
            seen += 1;
            end = k + 1;
        }
    }
    end + 1
}

/// Bit i of the result is `bits[i]`.
fn pack(bits: &[bool]) -> u64 {
    bits.iter()
        .enumerate()
        .fold(0, |acc, (i, &bit)| acc | u64::from(bit) << i)
}
