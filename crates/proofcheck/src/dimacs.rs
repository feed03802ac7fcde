//! DIMACS CNF formulas, read for the proof checker (`verify-proof --cnf`):
//! the `p cnf V C` header, comment lines, clauses ending in `0` and spread
//! over lines as they like. Errors name the line and column.
//!
//! This reader is the checker's own, not the encoder's: a bug in how the
//! search writes or reads formulas cannot hide a bug here.

use std::io::BufRead;

/// A formula read from DIMACS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formula {
    /// Variables declared by the header.
    pub vars: usize,
    /// The clauses, as signed variable numbers.
    pub clauses: Vec<Vec<i32>>,
}

/// Why a DIMACS file was not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DimacsError {
    /// The file could not be read.
    #[error("cannot read the formula: {0}")]
    Read(#[source] std::io::Error),
    /// Something in the file is not DIMACS.
    #[error("{line}:{column}: {problem}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        problem: String,
    },
}

/// The largest variable a formula may name (as the proof checker's).
const MAX_VARIABLE: i64 = 1 << 24;

/// Reads a DIMACS CNF formula.
pub fn read(input: impl BufRead) -> Result<Formula, DimacsError> {
    let mut header: Option<(usize, usize)> = None;
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    let mut last = (1, 1);
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(DimacsError::Read)?;
        let number = n + 1;
        let bad = |column: usize, problem: String| DimacsError::Syntax {
            line: number,
            column,
            problem,
        };
        let trimmed = line.trim_start();
        if trimmed.starts_with('c') || trimmed.starts_with('%') {
            continue;
        }
        if trimmed.starts_with('p') {
            if header.is_some() {
                return Err(bad(column_of(&line, trimmed), "a second `p` line".into()));
            }
            header = Some(parse_header(trimmed).ok_or_else(|| {
                bad(
                    column_of(&line, trimmed),
                    "expected `p cnf VARIABLES CLAUSES`".into(),
                )
            })?);
            continue;
        }
        for (column, word) in words(&line) {
            let Some((vars, _)) = header else {
                return Err(bad(column, "a clause before the `p cnf` header".into()));
            };
            let literal: i64 = word
                .parse()
                .map_err(|_| bad(column, format!("expected a literal, found {word:?}")))?;
            if literal.unsigned_abs() > MAX_VARIABLE.unsigned_abs()
                || literal.unsigned_abs() > vars as u64
            {
                return Err(bad(
                    column,
                    format!("literal {literal} names a variable above the header's {vars}"),
                ));
            }
            last = (number, column);
            if literal == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else {
                clause.push(literal as i32);
            }
        }
    }
    let Some((vars, count)) = header else {
        return Err(DimacsError::Syntax {
            line: 1,
            column: 1,
            problem: "no `p cnf` header".into(),
        });
    };
    if !clause.is_empty() {
        return Err(DimacsError::Syntax {
            line: last.0,
            column: last.1,
            problem: "the last clause is not ended by 0".into(),
        });
    }
    if clauses.len() != count {
        return Err(DimacsError::Syntax {
            line: last.0,
            column: last.1,
            problem: format!(
                "the header announces {count} clauses, the file has {}",
                clauses.len()
            ),
        });
    }
    Ok(Formula { vars, clauses })
}

/// The 1-based column where `part` starts in `line`.
fn column_of(line: &str, part: &str) -> usize {
    line.len() - part.len() + 1
}

/// `p cnf V C`.
fn parse_header(line: &str) -> Option<(usize, usize)> {
    let mut words = line.split_whitespace();
    (words.next()? == "p" && words.next()? == "cnf").then_some(())?;
    let vars: usize = words.next()?.parse().ok()?;
    let count = words.next()?.parse().ok()?;
    (words.next().is_none() && vars as i64 <= MAX_VARIABLE).then_some((vars, count))
}

/// The words of a line with their 1-based columns.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_ascii_whitespace()
        .map(move |w| (w.as_ptr() as usize - line.as_ptr() as usize + 1, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_may_span_lines_and_comments_are_skipped() {
        let f = read("c hello\np cnf 3 2\n1 -2\n 3 0 -1\n0\n".as_bytes()).unwrap();
        assert_eq!(f.vars, 3);
        assert_eq!(f.clauses, vec![vec![1, -2, 3], vec![-1]]);
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases = [
            ("1 2 0\n", 1, 1, "a clause before"),
            ("p cnf 2 1\n1 x 0\n", 2, 3, "expected a literal"),
            ("p cnf 2 1\n1 3 0\n", 2, 3, "above the header"),
            (
                "p cnf 2 1\n1 -9223372036854775808 0\n",
                2,
                3,
                "above the header",
            ),
            ("p cnf 2 1\n1 2\n", 2, 3, "not ended"),
            ("p cnf 2 2\n1 2 0\n", 2, 5, "announces 2"),
            ("p dnf 2 2\n", 1, 1, "expected `p cnf"),
            ("", 1, 1, "no `p cnf`"),
        ];
        for (text, line, column, what) in cases {
            match read(text.as_bytes()) {
                Err(DimacsError::Syntax {
                    line: l,
                    column: c,
                    problem,
                }) => {
                    assert_eq!((l, c), (line, column), "{text:?}");
                    assert!(problem.contains(what), "{text:?}: {problem}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }
}
