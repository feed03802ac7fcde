//! The link table of a timed replay (`--link-table FILE`): per-link α and β.
//!
//! ```text
//! # from to alpha beta     (a header line of these four words may open the file)
//! 0 1 2.5 0.1
//! 1,2,2.5,0.1              # commas or tabs separate as well as blanks
//! ```
//!
//! A line `u v α β` times the directed link u → v, and v → u as well unless
//! another line names v → u. Links not listed take `--alpha` and `--beta`.
//! Refused, each at its file, line and column: a line without four fields, a
//! node that is not a number, a time that is not a finite decimal ≥ 0, a pair
//! that is not a link of the network, a directed link listed twice.

use std::collections::HashMap;
use std::fmt;
use txverify_core::format::echoed;

/// What is wrong with a link table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableErrorKind {
    /// A line without exactly four fields.
    Fields(usize),
    /// A node field that is not a node number.
    NotANode(String),
    /// A time field that is not a decimal from 0 to [`super::MAX_TIME`].
    NotATime(String),
    /// `u v` is not a link of the network.
    NotALink(u32, u32),
    /// The directed link was listed on an earlier line.
    Repeated {
        /// Its tail.
        from: u32,
        /// Its head.
        to: u32,
        /// The earlier line.
        first_line: usize,
    },
}

/// A link table that cannot be used: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The line (1-based).
    pub line: usize,
    /// The column in characters (1-based).
    pub column: usize,
    /// What is wrong.
    pub kind: TableErrorKind,
}

impl fmt::Display for TableErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableErrorKind::Fields(n) => write!(
                f,
                "a line is `from to alpha beta`, this line has {n} field{}",
                if *n == 1 { "" } else { "s" }
            ),
            TableErrorKind::NotANode(w) => write!(f, "`{}` is not a node number", echoed(w)),
            TableErrorKind::NotATime(w) => {
                write!(
                    f,
                    "`{}` is not a time (a decimal number from 0 to 1e15)",
                    echoed(w)
                )
            }
            TableErrorKind::NotALink(u, v) => write!(f, "{u} {v} is not a link of the network"),
            TableErrorKind::Repeated {
                from,
                to,
                first_line,
            } => write!(
                f,
                "the link {from} → {to} is listed again (first on line {first_line})"
            ),
        }
    }
}

/// Reads a time: a decimal number from 0 to [`super::MAX_TIME`] (a table field).
pub fn parse_time(word: &str) -> Option<f64> {
    let ok = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    word.parse::<f64>()
        .ok()
        .filter(|t| ok && (0.0..=super::MAX_TIME).contains(t))
}

/// The most fields of a line kept: a line has four, and one more shows it has too many.
const FIELDS_KEPT: usize = 5;

/// The fields of a line (comment removed) with their 1-based columns: the
/// first [`FIELDS_KEPT`], and how many there are.
fn fields(line: &str) -> (Vec<(usize, &str)>, usize) {
    let mut out = Vec::new();
    let mut count = 0;
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    for (column, (byte, c)) in line.char_indices().enumerate() {
        let separator = c.is_whitespace() || c == ',';
        match (separator, start) {
            (true, Some((b, col))) => {
                count += 1;
                if out.len() < FIELDS_KEPT {
                    out.push((col, &line[b..byte]));
                }
                start = None;
            }
            (false, None) => start = Some((byte, column + 1)),
            _ => {}
        }
    }
    if let Some((b, col)) = start {
        count += 1;
        if out.len() < FIELDS_KEPT {
            out.push((col, &line[b..]));
        }
    }
    (out, count)
}

/// The per-link times of `text` on the links `link(u, v)` names (`None`: not
/// a link), by directed link: `(link, α, β)`, reverse directions included.
pub fn read(
    text: &str,
    link: impl Fn(u32, u32) -> Option<u32>,
) -> Result<Vec<(u32, f64, f64)>, TableError> {
    // Directed link → (α, β, line, stated).
    let mut set: HashMap<u32, (f64, f64, usize)> = HashMap::new();
    let mut pairs: Vec<(u32, u32, f64, f64)> = Vec::new();
    let mut header_allowed = true;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let body = raw.split('#').next().unwrap_or("");
        let (f, count) = fields(body);
        if f.is_empty() {
            continue;
        }
        let header = count == 4
            && f.iter()
                .zip(["from", "to", "alpha", "beta"])
                .all(|((_, w), h)| w.eq_ignore_ascii_case(h));
        if std::mem::take(&mut header_allowed) && header {
            continue;
        }
        let at = |column: usize, kind: TableErrorKind| TableError {
            line: line_no,
            column,
            kind,
        };
        if count != 4 {
            return Err(at(f[0].0, TableErrorKind::Fields(count)));
        }
        let node = |(column, w): (usize, &str)| {
            w.parse::<u32>()
                .map_err(|_| at(column, TableErrorKind::NotANode(w.to_string())))
        };
        let time = |(column, w): (usize, &str)| {
            parse_time(w).ok_or_else(|| at(column, TableErrorKind::NotATime(w.to_string())))
        };
        let (u, v) = (node(f[0])?, node(f[1])?);
        let (alpha, beta) = (time(f[2])?, time(f[3])?);
        let Some(l) = link(u, v) else {
            return Err(at(f[0].0, TableErrorKind::NotALink(u, v)));
        };
        if let Some(&(_, _, first_line)) = set.get(&l) {
            return Err(at(
                f[0].0,
                TableErrorKind::Repeated {
                    from: u,
                    to: v,
                    first_line,
                },
            ));
        }
        set.insert(l, (alpha, beta, line_no));
        pairs.push((u, v, alpha, beta));
    }
    let mut out: Vec<(u32, f64, f64)> = set.iter().map(|(&l, &(a, b, _))| (l, a, b)).collect();
    for (u, v, alpha, beta) in pairs {
        if let Some(back) = link(v, u)
            && !set.contains_key(&back)
        {
            out.push((back, alpha, beta));
        }
    }
    out.sort_by_key(|&(l, _, _)| l);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring4(u: u32, v: u32) -> Option<u32> {
        // 0 → 1 is link 0, 1 → 0 link 1, …: any injective numbering will do.
        let adjacent = u < 4 && v < 4 && (u + 1) % 4 == v || (v + 1) % 4 == u && u < 4;
        adjacent.then_some(u * 4 + v)
    }

    #[test]
    fn a_line_times_both_directions_unless_the_reverse_is_listed() {
        let t = read(
            "from to alpha beta\n0 1 2 1\n1,2,3,0.5\n2\t1\t4\t1 # reverse\n",
            ring4,
        )
        .unwrap();
        assert_eq!(
            t,
            vec![(1, 2.0, 1.0), (4, 2.0, 1.0), (6, 3.0, 0.5), (9, 4.0, 1.0)]
        );
    }

    #[test]
    fn each_fault_is_placed() {
        let err = |text: &str| {
            let e = read(text, ring4).unwrap_err();
            (e.line, e.column, e.kind.to_string())
        };
        assert_eq!(
            err("0 1 2\n"),
            (
                1,
                1,
                "a line is `from to alpha beta`, this line has 3 fields".into()
            )
        );
        assert_eq!(err("\n0 x 2 1\n").0, 2);
        assert_eq!(err("0 1 2 -1\n").1, 7);
        assert_eq!(err("0 1 2 inf\n").1, 7);
        assert_eq!(err("0 2 1 1\n").2, "0 2 is not a link of the network");
        assert_eq!(
            err("0 1 1 1\n 0 1 2 2\n"),
            (
                2,
                2,
                "the link 0 → 1 is listed again (first on line 1)".into()
            )
        );
    }
}
