//! What a file is, told from its text rather than from its name.
//!
//! Files travel under any name (`sched.json`, `run.sched`, `ring.txt`,
//! `allpairs.msccl`), so the commands decide what they were given by
//! [`detect`], and a file given to the wrong command is pointed to the right
//! one ([`FileKind::redirect`]) instead of getting another format's parse
//! errors.
//!
//! The rules, tried in this order on the text (a leading byte-order mark and
//! blank lines skipped):
//!
//! 1. the first character is `<`: XML, read as an MSCCL program (whose root
//!    must be `<algo>`: the MSCCL reader says so when it is not);
//! 2. a schedule ([`crate::schedule::format::is_schedule`]): JSON (`{` first) or the
//!    text format (a `sends:` line);
//! 3. a DIMACS formula: its first line that is not a `c` comment is
//!    `p cnf …`;
//! 4. a `.tbl` table or header: a `group:` or `table:` line;
//! 5. an edge list: every line, `#` comments removed, blank or two numbers
//!    (and at least one such line);
//! 6. anything else is [`FileKind::Unknown`], which the commands read as a
//!    table so that its errors point into the text.

use std::fmt;

use crate::schedule::format::is_schedule;

/// The kinds of file txverify reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A `.tbl` table (or a header without rows).
    Table,
    /// A schedule of timed sends, JSON or text (docs/schedule.md).
    Schedule,
    /// An MSCCL program (XML, root `<algo>`).
    Msccl,
    /// An edge list or an msccl-tools topology (`edges FILE`, docs/networks.md).
    EdgeList,
    /// A DIMACS CNF formula.
    Dimacs,
    /// None of the above.
    Unknown,
}

impl FileKind {
    /// The kind in words, after "is": `a table`, `a schedule`.
    pub fn described(self) -> &'static str {
        match self {
            FileKind::Table => "a table",
            FileKind::Schedule => "a schedule",
            FileKind::Msccl => "an MSCCL program",
            FileKind::EdgeList => "an edge list",
            FileKind::Dimacs => "a DIMACS formula",
            FileKind::Unknown => "not a file txverify reads",
        }
    }

    /// One line naming the command (or argument) that reads a file of this
    /// kind, shown as `shown`: `sched.json is a schedule: run `txverify
    /// simulate sched.json``. `None` for [`FileKind::Unknown`].
    pub fn redirect(self, shown: &str) -> Option<String> {
        let what = self.described();
        let how = match self {
            FileKind::Table => format!("run `txverify check {shown}`"),
            FileKind::Schedule => format!("run `txverify simulate {shown}`"),
            FileKind::Msccl => format!("run `txverify check {shown}`"),
            FileKind::EdgeList => {
                format!("give it as a network, `--network 'edges {shown}'`")
            }
            FileKind::Dimacs => {
                format!("check a proof of it with `txverify verify-proof PROOF --cnf {shown}`")
            }
            FileKind::Unknown => return None,
        };
        Some(format!("{shown} is {what}: {how}"))
    }
}

/// The commands that read files of several kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// `txverify check`: tables and MSCCL programs.
    Check,
    /// `txverify simulate`: tables and schedules.
    Simulate,
}

impl FileKind {
    /// Whether `reader` reads files of this kind. An [`FileKind::Unknown`]
    /// file is read (as a table), so that its errors point into its text.
    pub fn read_by(self, reader: Reader) -> bool {
        match reader {
            Reader::Check => matches!(self, FileKind::Table | FileKind::Msccl | FileKind::Unknown),
            Reader::Simulate => {
                matches!(
                    self,
                    FileKind::Table | FileKind::Schedule | FileKind::Unknown
                )
            }
        }
    }

    /// `None` when `reader` reads this kind, else the one line pointing to the
    /// command that does ([`FileKind::redirect`]).
    pub fn refusal(self, reader: Reader, shown: &str) -> Option<String> {
        if self.read_by(reader) {
            None
        } else {
            self.redirect(shown)
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.described())
    }
}

/// What `source` is (see the module notes for the rules).
pub fn detect(source: &str) -> FileKind {
    let text = source.strip_prefix('\u{feff}').unwrap_or(source);
    if text.trim_start().starts_with('<') {
        return FileKind::Msccl;
    }
    // An msccl-tools topology is JSON, as a schedule may be: told first.
    if crate::network::looks_like_topology(text) {
        return FileKind::EdgeList;
    }
    if is_schedule(text) {
        return FileKind::Schedule;
    }
    if is_dimacs(text) {
        return FileKind::Dimacs;
    }
    if is_table(text) {
        return FileKind::Table;
    }
    if is_edge_list(text) {
        return FileKind::EdgeList;
    }
    FileKind::Unknown
}

/// The first line that is neither blank nor a `c` comment is `p cnf`.
fn is_dimacs(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !(l.is_empty() || *l == "c" || l.starts_with("c ") || l.starts_with("c\t")))
        .is_some_and(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some("p") && words.next() == Some("cnf")
        })
}

/// A header line `group:` or `table:` (keys are case-insensitive).
fn is_table(text: &str) -> bool {
    text.lines().any(|line| {
        let line = without_comment(line).trim_start();
        line.split_once(':').is_some_and(|(key, _)| {
            let key = key.trim();
            key.eq_ignore_ascii_case("group") || key.eq_ignore_ascii_case("table")
        })
    })
}

/// Every line blank, a link (two node numbers, then its capacity and times)
/// or a `switch:` or `multicast:` line, and at least one link.
fn is_edge_list(text: &str) -> bool {
    let mut links = 0usize;
    for line in text.lines() {
        let words: Vec<&str> = without_comment(line).split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [u, v, fields @ ..]
                if is_number(u) && is_number(v) && fields.iter().all(|f| is_link_field(f)) =>
            {
                links += 1
            }
            [key, ..]
                if key.eq_ignore_ascii_case("switch:")
                    || key.eq_ignore_ascii_case("multicast:") => {}
            _ => return false,
        }
    }
    links > 0
}

/// A capacity or a time after a link's two nodes (`2`, `alpha=0.5`).
fn is_link_field(word: &str) -> bool {
    is_number(word)
        || word.split_once('=').is_some_and(|(key, _)| {
            key.eq_ignore_ascii_case("alpha") || key.eq_ignore_ascii_case("beta")
        })
}

fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

fn without_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(before, _)| before)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_told_by_content() {
        let cases = [
            ("name: r\ngroup: <a | a^5>\ntable:\na\n", FileKind::Table),
            ("# a header\nGROUP: <a | a^5>\n", FileKind::Table),
            ("{\"schema\": \"txverify-schedule/1\"}", FileKind::Schedule),
            ("network: ring 4\nsends:\n1 0 1 0 1\n", FileKind::Schedule),
            ("\u{feff}<algo name=\"x\"></algo>", FileKind::Msccl),
            ("  <?xml version=\"1.0\"?>\n<algo/>", FileKind::Msccl),
            ("c a formula\np cnf 2 1\n1 -2 0\n", FileKind::Dimacs),
            ("# petersen\n0 1\n1 2  # a link\n\n", FileKind::EdgeList),
            ("0 1 x\n", FileKind::Unknown),
            (
                "0 1 2 alpha=1\nswitch: 1\nmulticast: yes\n",
                FileKind::EdgeList,
            ),
            (
                "{\"msccl_type\": \"topology\", \"links\": [[0]]}",
                FileKind::EdgeList,
            ),
            (
                "{\"msccl_type\": \"algorithm\", \"topology\": {\"msccl_type\": \"topology\"}}",
                FileKind::Schedule,
            ),
            ("", FileKind::Unknown),
            ("hello\n", FileKind::Unknown),
        ];
        for (text, kind) in cases {
            assert_eq!(detect(text), kind, "{text:?}");
        }
    }

    #[test]
    fn redirects_name_the_command_and_the_file() {
        assert_eq!(
            FileKind::Schedule.redirect("sched.json").unwrap(),
            "sched.json is a schedule: run `txverify simulate sched.json`"
        );
        assert!(
            FileKind::Msccl
                .redirect("p.msccl")
                .unwrap()
                .contains("check p.msccl")
        );
        assert!(
            FileKind::EdgeList
                .redirect("g.tbl")
                .unwrap()
                .contains("edges g.tbl")
        );
        assert_eq!(FileKind::Unknown.redirect("x"), None);
    }

    #[test]
    fn each_reader_refuses_the_kinds_it_does_not_read() {
        use FileKind::*;
        let check = [Table, Msccl, Unknown];
        let simulate = [Table, Schedule, Unknown];
        for kind in [Table, Schedule, Msccl, EdgeList, Dimacs, Unknown] {
            assert_eq!(
                kind.read_by(Reader::Check),
                check.contains(&kind),
                "{kind:?}"
            );
            assert_eq!(
                kind.read_by(Reader::Simulate),
                simulate.contains(&kind),
                "{kind:?}"
            );
            assert_eq!(
                kind.refusal(Reader::Check, "f").is_some(),
                !check.contains(&kind)
            );
        }
    }
}
