//! `check` over collections, as docs/ci.md runs it: directories, the exit status of
//! a mix of passing, failing and unreadable files, and each report format held to
//! a parser (JUnit XML read by roxmltree; annotations by the grammar of GitHub's
//! workflow commands; JSON lines by serde_json). Also `fmt --check`.

use crate::common::cli::{file, txverify};
use std::path::{Path, PathBuf};

const HEADER: &str = "group: <b, B | b^2 = B^2 = (bB)^3 = 1>\n";
const GOOD: &str = "expect: time 5\ntable:\nbBb bB\nBb B . b\n";
/// Link b twice in column 3: file line 3 is row 1 (`bBb bB`), line 4 row 2.
const CONFLICT: &str = "table:\nbBb bB\nBb b . B\n";

/// A directory of this test holding `files` (name, text), and its path.
fn dir_with(name: &str, files: &[(&str, String)]) -> PathBuf {
    let dir = file(".keep", "").parent().unwrap().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for (n, text) in files {
        std::fs::write(dir.join(n), text).unwrap();
    }
    dir
}

/// A mix: one passing, one rejected, one with a failing claim, one unparsable.
fn mixed() -> PathBuf {
    dir_with(
        "mixed",
        &[
            ("a-good.tbl", format!("{HEADER}{GOOD}")),
            ("b-conflict.tbl", format!("{HEADER}{CONFLICT}")),
            (
                "c-claim.tbl",
                format!("{HEADER}expect: time 4\n{}", &GOOD[15..]),
            ),
            ("d-broken.tbl", format!("{HEADER}ports: x\ntable:\n")),
            ("notes.txt", "not a table".to_string()),
        ],
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every `.tbl` file below `dir`.
fn count_tables(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() {
                count_tables(&p)
            } else {
                usize::from(p.extension().is_some_and(|e| e == "tbl"))
            }
        })
        .sum()
}

#[test]
fn the_published_and_the_deliberately_wrong_tables_all_pass() {
    let run = txverify(&["check", "tables/", "--jobs", "2"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let files = count_tables(Path::new("tables"));
    assert!(
        run.stdout
            .contains("tables/invalid/wrong-word.tbl: INVALID, as expected")
    );
    let summary = run.stdout.lines().last().unwrap();
    let expected = format!("{files} files: {files} passed, 0 failed, 0 errors in ");
    assert!(summary.starts_with(&expected), "{summary}");
    assert!(
        summary.contains("1 file skipped: neither a table (.tbl) nor an MSCCL program (.xml)"),
        "{summary}"
    );
}

#[test]
fn junit_counts_every_file_and_parses() {
    let out = file("report.xml", "");
    let mixed = mixed();
    let run = txverify(&[
        "check",
        "tables/",
        s(&mixed),
        "--format",
        "junit",
        "-o",
        s(&out),
    ]);
    // An unreadable file outranks a failure: the worst status wins.
    assert_eq!(run.code, 2, "{}", run.stderr);
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("JUnit XML parses");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let total = count_tables(Path::new("tables")) + 4;
    let suite = root
        .children()
        .find(|n| n.has_tag_name("testsuite"))
        .unwrap();
    for node in [root, suite] {
        assert_eq!(node.attribute("tests"), Some(total.to_string().as_str()));
        assert_eq!(node.attribute("failures"), Some("2"));
        assert_eq!(node.attribute("errors"), Some("1"));
    }
    let cases: Vec<_> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), total);
    let case = |suffix: &str| {
        *cases
            .iter()
            .find(|c| c.attribute("name").unwrap().ends_with(suffix))
            .unwrap()
    };
    let failure = case("b-conflict.tbl")
        .children()
        .find(|n| n.has_tag_name("failure"))
        .expect("a rejected file is a failure");
    let message = failure.attribute("message").unwrap();
    assert!(message.contains("row 1 word `bBb`"), "{message}");
    assert!(
        failure
            .text()
            .unwrap()
            .contains("b-conflict.tbl:3:3: column 3")
    );
    let claim = case("c-claim.tbl").first_element_child().unwrap();
    assert_eq!(claim.tag_name().name(), "failure");
    assert!(claim.attribute("message").unwrap().contains("time 4"));
    let error = case("d-broken.tbl").first_element_child().unwrap();
    assert_eq!(error.tag_name().name(), "error");
    assert!(case("a-good.tbl").first_element_child().is_none());
}

#[test]
fn junit_escapes_what_xml_cannot_hold_as_is() {
    let dir = dir_with(
        "escape",
        &[("a&b<\"c\">'.tbl", format!("{HEADER}{CONFLICT}"))],
    );
    let run = txverify(&["check", s(&dir), "--format", "junit"]);
    assert_eq!(run.code, 1);
    let doc = roxmltree::Document::parse(&run.stdout).expect("JUnit XML parses");
    let case = doc
        .descendants()
        .find(|n| n.has_tag_name("testcase"))
        .unwrap();
    assert!(case.attribute("name").unwrap().ends_with("a&b<\"c\">'.tbl"));
}

/// One annotation, split by the grammar of a workflow command:
/// `::error` SP property (`,` property)* `::` message, each property `key=value`,
/// with `%`, CR, LF escaped in the message and also `,` and `:` in the values.
fn annotation(line: &str) -> (Vec<(String, String)>, String) {
    let rest = line.strip_prefix("::error ").expect("an ::error command");
    let (props, message) = rest.split_once("::").expect("`::` before the message");
    assert!(!message.contains(['\r', '\n']));
    let properties = props
        .split(',')
        .map(|p| {
            let (k, v) = p.split_once('=').expect("key=value");
            assert!(["file", "line", "col", "title"].contains(&k), "{k}");
            assert!(!v.contains(':'), "{v}");
            (k.to_string(), v.to_string())
        })
        .collect();
    (properties, message.to_string())
}

#[test]
fn github_annotations_point_at_the_file_line_and_column() {
    let mixed = mixed();
    let run = txverify(&["check", s(&mixed), "--format", "github"]);
    assert_eq!(run.code, 2);
    let annotations: Vec<_> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("::"))
        .map(annotation)
        .collect();
    let at = |suffix: &str| -> Vec<(String, String, String)> {
        annotations
            .iter()
            .filter(|(p, _)| p[0].1.ends_with(suffix))
            .map(|(p, m)| {
                let get = |k: &str| p.iter().find(|(key, _)| key == k).map(|x| x.1.clone());
                (
                    get("line").unwrap_or_default(),
                    get("col").unwrap_or_default(),
                    m.clone(),
                )
            })
            .collect()
    };
    let conflict = at("b-conflict.tbl");
    assert_eq!((conflict[0].0.as_str(), conflict[0].1.as_str()), ("3", "3"));
    assert!(conflict[0].2.starts_with("column 3: link `b` used twice"));
    let claim = at("c-claim.tbl");
    assert_eq!(claim[0].0, "2", "at the expect: line");
    let broken = at("d-broken.tbl");
    assert_eq!((broken[0].0.as_str(), broken[0].1.as_str()), ("2", "8"));
    assert!(at("a-good.tbl").is_empty());
    // The summary still ends the output, as plain text.
    assert!(
        run.stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("4 files: 1 passed, 2 failed, 1 error")
    );
}

#[test]
fn github_properties_escape_commas_colons_and_percent() {
    let dir = dir_with(
        "gh-escape",
        &[("a,b:c%.tbl", format!("{HEADER}{CONFLICT}"))],
    );
    let run = txverify(&["check", s(&dir), "--format", "github"]);
    let line = run.stdout.lines().find(|l| l.starts_with("::")).unwrap();
    let (props, _) = annotation(line);
    assert!(props[0].1.ends_with("a%2Cb%3Ac%25.tbl"), "{line}");
}

#[test]
fn json_lines_end_with_a_summary() {
    let mixed = mixed();
    let run = txverify(&["check", s(&mixed), "--format", "json"]);
    assert_eq!(run.code, 2);
    let docs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 5);
    assert!(docs[..4].iter().all(|d| d["schema"] == "txverify-check/1"));
    assert_eq!(docs[3]["error"]["line"], 2);
    let summary = &docs[4];
    assert_eq!(summary["schema"], "txverify-check-summary/1");
    assert_eq!(
        (
            &summary["files"],
            &summary["passed"],
            &summary["failed"],
            &summary["errors"]
        ),
        (&4.into(), &1.into(), &2.into(), &1.into())
    );
    assert_eq!(summary["skipped"], 1);
    assert_eq!(summary["exit_code"], 2);
}

#[test]
fn output_is_in_path_order_whatever_the_jobs() {
    let lines = |jobs: &str| -> Vec<String> {
        let run = txverify(&["check", "tables/", "--jobs", jobs, "--no-simulate"]);
        let mut lines: Vec<String> = run.stdout.lines().map(str::to_string).collect();
        lines.pop(); // the summary, with its time
        lines
    };
    let one = lines("1");
    assert_eq!(one, lines("2"));
    let mut sorted = one.clone();
    sorted.sort();
    assert_eq!(one, sorted, "sorted by path");
}

#[test]
fn a_directory_without_tables_is_an_error_and_links_do_not_loop() {
    let empty = dir_with("empty", &[("readme.md", "x".into())]);
    let run = txverify(&["check", s(&empty)]);
    assert_eq!(run.code, 2);
    let path = s(&empty);
    assert!(
        run.stdout.contains(&format!(
            "ERROR {path}: no table (.tbl) or MSCCL program (.xml) in this directory"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("1 file skipped: neither a table (.tbl) nor an MSCCL program"),
        "{}",
        run.stdout
    );
    // In directory mode each line names one place: the file's, then the
    // problem's, never a position inside the message again.
    let xml = dir_with(
        "xml-positions",
        &[(
            "coll_bad.xml",
            "<algo name=\"x\">\n  <gpu id=\"0\">\n</algo>\n".into(),
        )],
    );
    let run = txverify(&["check", s(&xml)]);
    assert_eq!(run.code, 2);
    let detail = run
        .stdout
        .lines()
        .find(|l| l.trim_start().contains("coll_bad.xml:3:1:"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(
        !detail.contains(" at 3:1") && !detail.contains("3:1: 3:1"),
        "{detail}"
    );
    let looped = dir_with("looped", &[("t.tbl", format!("{HEADER}{GOOD}"))]);
    let link = looped.join("again");
    if !link.exists() {
        std::os::unix::fs::symlink(&looped, &link).unwrap();
    }
    let run = txverify(&["check", s(&looped)]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("1 file: 1 passed"), "{}", run.stdout);
    assert!(run.stdout.contains("reached again through a symbolic link"));
    let run = txverify(&["check", "/nonexistent/tables/"]);
    assert_eq!(run.code, 2);
}

#[test]
fn one_file_keeps_the_full_report() {
    let run = txverify(&["check", "tables/mesh5.tbl"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("  verdict      OPTIMAL"));
    assert!(!run.stdout.contains(" passed, "));
}

#[test]
fn fmt_check_lists_the_files_fmt_would_change() {
    let good = format!("{HEADER}{GOOD}");
    let printed = txverify(&["fmt", s(&file("p.tbl", &good))]).stdout;
    let dir = dir_with(
        "fmt",
        &[
            ("a.tbl", printed.clone()),
            ("b.tbl", printed.replace("bB\n", "bB  # note\n")),
        ],
    );
    let run = txverify(&["fmt", "--check", s(&dir)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        [s(&dir.join("b.tbl"))]
    );
    assert!(
        run.stderr.contains("1 of 2 files not formatted"),
        "{}",
        run.stderr
    );
    let run = txverify(&["fmt", "--check", s(&dir.join("a.tbl"))]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    let broken = file("broken.tbl", "ports: 1\n");
    assert_eq!(txverify(&["fmt", "--check", s(&dir), s(&broken)]).code, 2);
    assert_eq!(txverify(&["fmt", s(&broken), s(&broken)]).code, 2);
}

#[test]
fn the_summary_line_has_the_documented_fields() {
    let run = txverify(&["check", "tables/invalid", "--format", "json"]);
    let last = run.stdout.lines().last().unwrap();
    let summary: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(
        crate::common::cli::field_paths(&summary),
        crate::common::cli::documented_fields("## Schema `txverify-check-summary/1`")
    );
}

#[test]
fn msccl_programs_in_a_directory_are_checked_with_the_tables() {
    let valid = crate::msccl_check::ring_allreduce(3, 1);
    // A receive that no longer reduces: the allreduce's output is wrong.
    let wrong = valid.replacen("type=\"rrs\"", "type=\"r\"", 1);
    assert_ne!(wrong, valid);
    let dir = dir_with(
        "programs",
        &[
            ("a-good.tbl", format!("{HEADER}{GOOD}")),
            ("b-ring.xml", valid),
            ("c-wrong.xml", wrong),
            (
                "d-broken.xml",
                "<algo name=\"x\">\n  <gpu id=\"0\">\n</algo>\n".to_string(),
            ),
        ],
    );
    let run = txverify(&["check", s(&dir)]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("ok") && l.contains("b-ring.xml")),
        "{}",
        run.stdout
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("FAIL") && l.contains("c-wrong.xml")),
        "{}",
        run.stdout
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("ERROR") && l.contains("d-broken.xml")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("4 files: 2 passed, 1 failed, 1 error in"),
        "{}",
        run.stdout
    );
    // In JSON, the programs' lines are their own schema, and the summary counts them.
    let run = txverify(&["check", "--format", "json", s(&dir)]);
    let docs: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 5, "{}", run.stdout);
    assert_eq!(docs[1]["schema"], "txverify-msccl/2");
    assert_eq!(docs[1]["valid"], true);
    assert_eq!(docs[2]["valid"], false);
    assert_eq!(docs[4]["files"], 4);
}
