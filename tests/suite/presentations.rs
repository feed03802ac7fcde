//! Writing one's own presentation: each mistake gets one line at its file,
//! line and column that names the fix, and exit status 2 (docs/tbl-format.md,
//! "Group presentations" and "Letters").

use crate::common::cli::{file, txverify};

/// `check` of a file `name` holding `text`: its exit status and the first
/// line of its standard error, with the file's path shown as `name`.
fn first_error(name: &str, text: &str) -> (i32, String) {
    let path = file(name, text);
    let shown = path.to_str().unwrap();
    let run = txverify(&["check", shown, "--no-simulate"]);
    let line = run.stderr.lines().next().unwrap_or_default();
    (run.code, line.replacen(shown, name, 1))
}

#[test]
fn a_generator_name_of_several_letters_says_to_brace_it() {
    let (code, line) = first_error("t.tbl", "group: <t1, t2 | t1^2>\ntable:\n");
    assert_eq!(code, 2);
    assert_eq!(
        line,
        "t.tbl:1:9: error: generator names are one letter: `t1` reads as `t` followed by more; write `{t1}` for a longer name"
    );
}

#[test]
fn a_braced_generator_written_without_braces_in_a_relation_says_to_keep_them() {
    let (code, line) = first_error("t.tbl", "group: <{t1}, {t2} | t1^2>\ntable:\n");
    assert_eq!(code, 2);
    assert_eq!(
        line,
        "t.tbl:1:22: error: `t` is not a generator of this presentation; a longer name keeps its braces in every word: write `{t1}`"
    );
}

#[test]
fn a_presentation_of_the_trivial_group_is_an_error() {
    let (code, line) = first_error("t.tbl", "group: <a, b | a = b, b^2 = a^3>\ntable:\n");
    assert_eq!(code, 2);
    assert_eq!(
        line,
        "t.tbl:1:8: error: the presentation defines the trivial group (order 1): its relations make every generator (a, b) equal to 1, so the network has one node and nothing to send; check the relations (write `<>` for the trivial group on purpose)"
    );
    // Written on purpose, the trivial group is a network of one node.
    let run = txverify(&[
        "check",
        file("one.tbl", "group: <>\ntable:\n").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn an_involution_listed_with_its_inverse_says_to_list_it_once() {
    let text = "group: <a, b | a^2, b^3, (ab)^2>\nlinks: a b a' b'\ntable:\n";
    let (code, line) = first_error("t.tbl", text);
    assert_eq!(code, 2);
    assert_eq!(
        line,
        "t.tbl:2:12: error: `a` is an involution (a^2 = 1), so a' = a: list it once (`a` and `a'` are one link)"
    );
    // The default link set lists it once by the same rule, without a word.
    let default = "group: <a, b | a^2, b^3, (ab)^2>\nexpect: invalid\ntable:\n";
    let run = txverify(&["check", file("d.tbl", default).to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("links        a b b'  (|S| = 3"),
        "{}",
        run.stdout
    );
}

#[test]
fn two_generators_equal_in_the_group_say_to_list_one() {
    let text = "group: <a, b | a^3, b = a>\nlinks: a a' b\ntable:\n";
    let (code, line) = first_error("t.tbl", text);
    assert_eq!(code, 2);
    assert_eq!(
        line,
        "t.tbl:2:13: error: link `b` is the same group element as link `a`: list it once (one link per element)"
    );
}

/// The presentations the table search is measured on (docs/search.md, "Groups
/// of order 21–168") define the groups their `source:` lines name: the order
/// each line states, a fact about that group, is the one coset enumeration finds.
#[test]
fn the_measured_groups_have_the_orders_their_sources_state() {
    let mut files: Vec<_> = std::fs::read_dir("examples/groups")
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "tbl"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 15, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let stated: usize = text
            .split("(order ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|digits| digits.parse().ok())
            .unwrap_or_else(|| panic!("{}: no `(order N` in its source", path.display()));
        let run = txverify(&["bounds", "--format", "json", path.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}: {}", path.display(), run.stderr);
        let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(
            report["order"].as_u64(),
            Some(stated as u64),
            "{}",
            path.display()
        );
    }
}
