//! `fmt` keeps comments: every table under tables/ formats to a file with the
//! same syntax tree, the same comments and the same `check` verdict, and
//! formatting twice changes nothing; one file with a comment in every place
//! the format allows prints as written out by hand.

use crate::common::cli::{file, txverify};
use std::path::{Path, PathBuf};
use txverify_core::format::{self, parse, print_keeping_comments, without_spans};

/// Every `*.tbl` file under `dir`, recursively, sorted.
fn tables(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(tables(&path));
        } else if path.extension().is_some_and(|e| e == "tbl") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The comments of a text, as the format defines them (`#` to the end of the
/// line, trailing white space aside), sorted.
fn comments(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .filter_map(|l| l.find('#').map(|i| l[i..].trim_end().to_string()))
        .collect();
    out.sort();
    out
}

#[test]
fn every_table_keeps_its_meaning_and_comments_and_formats_once() {
    let files = tables(Path::new("tables"));
    assert!(files.len() >= 80, "{} files", files.len());
    for path in &files {
        let source = std::fs::read_to_string(path).unwrap();
        let parsed = parse(&source).unwrap();
        let once = print_keeping_comments(&source, &parsed);
        let again = parse(&once).unwrap_or_else(|e| panic!("{}: {e:?}\n{once}", path.display()));
        assert_eq!(
            without_spans(&again),
            without_spans(&parsed),
            "{}",
            path.display()
        );
        assert_eq!(comments(&once), comments(&source), "{}", path.display());
        let twice = print_keeping_comments(&once, &again);
        assert_eq!(twice, once, "{}", path.display());
        // Without comments it is the canonical form of `print`.
        let bare: String = format::print(&parsed);
        let stripped: String = once
            .lines()
            .map(|l| l.split('#').next().unwrap().trim_end())
            .filter(|l| !l.is_empty())
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(stripped, bare, "{}", path.display());
    }
}

/// `check --format json` of one file: its exit status and report without the
/// fields that name the file or time the run.
fn verdict(path: &Path, proofs: Option<&Path>) -> (i32, serde_json::Value) {
    let mut args = vec!["check", path.to_str().unwrap(), "--format", "json"];
    if let Some(dir) = proofs {
        args.extend(["--proofs", dir.to_str().unwrap()]);
    }
    let run = txverify(&args);
    let mut report: serde_json::Value =
        serde_json::from_str(run.stdout.lines().next().unwrap_or("null")).unwrap();
    if let Some(map) = report.as_object_mut() {
        for volatile in ["file", "seconds", "elapsed_ms", "line", "column"] {
            map.remove(volatile);
        }
    }
    (run.code, report)
}

#[test]
fn fmt_of_every_table_re_checks_to_the_same_verdict() {
    for path in tables(Path::new("tables")) {
        let run = txverify(&["fmt", path.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}: {}", path.display(), run.stderr);
        let name = path.file_name().unwrap().to_str().unwrap();
        let formatted = file(name, &run.stdout);
        // The copy is elsewhere: the certificates the table names are given
        // to it by --proofs.
        let source = std::fs::read_to_string(&path).unwrap();
        let proofs = source
            .lines()
            .find_map(|l| l.strip_prefix("certificates: "))
            .map(|dir| path.parent().unwrap().join(dir));
        let (before, after) = (verdict(&path, None), verdict(&formatted, proofs.as_deref()));
        assert_eq!(before.0, after.0, "{}", path.display());
        assert_eq!(
            before.1["verdict"],
            after.1["verdict"],
            "{}",
            path.display()
        );
        assert_eq!(before.1["time"], after.1["time"], "{}", path.display());
    }
}

#[test]
fn the_published_tables_are_formatted() {
    let run = txverify(&["fmt", "--check", "tables"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn each_place_of_a_comment_prints_as_documented() {
    let source = "\
# About this file.

  # Still the head.
group: <a | a^4>   # the cyclic group
# Says what the table is.
NAME:  ring4
# Before table:.
table:# the rows
# The first row.
  aa
a'   # a short row
   # before the last row
a'a'
end   # the end
# After end.
";
    let expected = "\
# About this file.
# Still the head.
# Says what the table is.
name: ring4
group: <a | a^4>  # the cyclic group
# Before table:.
table:  # the rows
# The first row.
aa
a'    # a short row
# before the last row
a'a'
# the end
# After end.
";
    let parsed = parse(source).unwrap();
    assert_eq!(print_keeping_comments(source, &parsed), expected);
    let path = file("placed.tbl", source);
    let run = txverify(&["fmt", path.to_str().unwrap()]);
    assert_eq!((run.code, run.stdout.as_str()), (0, expected));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Comments added anywhere the format allows — a comment line before any
    /// line, a comment after any line — survive `fmt`, which stays idempotent
    /// and keeps the syntax tree.
    #[test]
    fn comments_anywhere_survive_fmt(
        pick in 0usize..1000,
        edits in proptest::collection::vec((0usize..200, proptest::bool::ANY, 0u32..1000), 1..8),
    ) {
        let files = tables(Path::new("tables"));
        let source = std::fs::read_to_string(&files[pick % files.len()]).unwrap();
        let mut lines: Vec<String> = source.lines().map(String::from).collect();
        for (at, own_line, tag) in edits {
            let at = at % lines.len();
            if own_line {
                lines.insert(at, format!("  # note {tag}"));
            } else {
                lines[at].push_str(&format!(" # after {tag}"));
            }
        }
        let commented = lines.join("\n") + "\n";
        let parsed = parse(&commented).unwrap();
        let once = print_keeping_comments(&commented, &parsed);
        let again = parse(&once).unwrap();
        proptest::prop_assert_eq!(without_spans(&again), without_spans(&parsed));
        proptest::prop_assert_eq!(comments(&once), comments(&commented));
        proptest::prop_assert_eq!(print_keeping_comments(&once, &again), once);
    }
}
