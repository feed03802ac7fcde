//! `txverify infer`: word boundaries recovered from letter grids. The seed's two
//! 4-cube tables (104 and 644 segmentations), a brute force over every cut of small
//! grids against the search, `--one`, `--limit`, `--count`, `--shortest`, grids with
//! no valid segmentation (exit 1, with why), malformed grids (exit 2, with line and
//! column) and the JSON fields against docs/json.md.

use crate::common;

use common::cli::{documented_fields, file, nested_field_paths, txverify};
use std::collections::BTreeSet;
use txverify_core::format::syntax::RowToken;
use txverify_core::kernel::{self, Verdict};
use txverify_core::load::{LoadOptions, load};

/// A table's file with its word boundaries stripped: the header as written, then
/// every row as its letters one per token, `.` per blank column.
fn grid_of(table_source: &str) -> String {
    let parsed = txverify_core::format::parse(table_source).expect("the table parses");
    let header_end = table_source
        .lines()
        .position(|l| l.trim().eq_ignore_ascii_case("table:"))
        .expect("a table: line");
    let certified = table_source.lines().any(|l| l.starts_with("certificates:"));
    let mut grid: String = table_source
        .lines()
        .take(header_end + 1)
        .filter(|l| !l.trim_start().starts_with('#'))
        // Optimality by the certificates a file names is `check`'s, not
        // `infer`'s, and the path is relative to the file.
        .filter(|l| !certified || !(l.starts_with("certificates:") || *l == "expect: optimal"))
        .map(|l| format!("{l}\n"))
        .collect();
    for row in &parsed.rows {
        let cells: Vec<String> = row
            .tokens
            .iter()
            .flat_map(|t| match &t.value {
                RowToken::Word(letters) => letters.iter().map(|l| l.value.to_string()).collect(),
                RowToken::Blanks(n) => vec![".".to_string(); *n],
            })
            .collect();
        grid.push_str(&cells.join(" "));
        grid.push('\n');
    }
    grid
}

/// The lines of a text that are not comments.
fn without_comments(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json_of(args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["infer", "--format", "json"];
    all.extend_from_slice(args);
    let run = txverify(&all);
    let value = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{all:?}: {e}: {} / {}", run.stdout, run.stderr));
    (run.code, value)
}

/// The rows of a table file, one string per row, tokens separated by one space.
fn rows_of(table_source: &str) -> Vec<String> {
    read_rows(
        &txverify_core::format::parse(table_source)
            .expect("parses")
            .rows,
    )
}

fn read_rows(rows: &[txverify_core::format::syntax::Row]) -> Vec<String> {
    rows.iter()
        .map(|row| {
            row.tokens
                .iter()
                .map(|t| txverify_core::format::print_row_token(&t.value))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn the_committed_grids_are_the_published_tables_without_boundaries() {
    for name in ["hypercube4-a", "hypercube4-b"] {
        let table = read(&format!("tables/{name}.tbl"));
        let grid = read(&format!("tests/infer/{name}.tbl"));
        assert_eq!(without_comments(&grid), grid_of(&table), "{name}");
    }
}

#[test]
fn the_seed_4_cube_tables_have_104_and_644_segmentations() {
    for (name, expected) in [("hypercube4-a", 104u64), ("hypercube4-b", 644)] {
        let table = read(&format!("tables/{name}.tbl"));
        let grid = file(&format!("{name}-grid.tbl"), &grid_of(&table));
        let grid = grid.to_str().unwrap();

        let run = txverify(&["infer", "--count", grid]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stdout.contains(&format!(
                ": {expected} valid segmentations (the whole search"
            )),
            "{}",
            run.stdout
        );

        // Every one listed, each a distinct table, the published one among them.
        let (code, report) = json_of(&[grid]);
        assert_eq!(code, 0);
        assert_eq!(report["count"], expected, "{name}");
        assert_eq!(report["complete"], true);
        assert_eq!(report["verdict"], "optimal");
        assert_eq!(report["time"], 8);
        let listed: BTreeSet<Vec<String>> = report["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| serde_json::from_value(t["rows"].clone()).unwrap())
            .collect();
        assert_eq!(listed.len() as u64, expected, "{name}: tables repeat");
        assert!(
            listed.contains(&rows_of(&table)),
            "{name}: published one missing"
        );

        // The text listing numbers them all.
        let run = txverify(&["infer", grid]);
        assert_eq!(run.code, 0);
        assert_eq!(
            run.stdout.matches("\n# segmentation ").count() as u64,
            expected
        );
        assert!(
            run.stdout
                .contains(&format!("# segmentation {expected} of {expected}\n"))
        );
        assert!(run.stdout.ends_with('\n'));
    }
}

/// Every way to cut a grid (each run of letters between blanks split at any subset
/// of its inner cut points), each loaded as a table and checked by the kernel: the
/// rows of the valid ones, and of those with only shortest words.
fn brute_force(grid_source: &str) -> (BTreeSet<Vec<String>>, BTreeSet<Vec<String>>) {
    let parsed = txverify_core::format::parse(grid_source).unwrap();
    let header: String = grid_source
        .split_inclusive('\n')
        .take_while(|l| !l.trim().eq_ignore_ascii_case("table:"))
        .collect();
    // Per row: its cells, letters or `.`.
    let rows: Vec<Vec<String>> = parsed
        .rows
        .iter()
        .map(|row| {
            row.tokens
                .iter()
                .flat_map(|t| match &t.value {
                    RowToken::Word(l) => vec![l[0].value.to_string()],
                    RowToken::Blanks(n) => vec![".".to_string(); *n],
                })
                .collect()
        })
        .collect();
    // Inner cut points: between two letters side by side.
    let points: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(r, cells)| {
            (1..cells.len())
                .filter(move |&c| cells[c - 1] != "." && cells[c] != ".")
                .map(move |c| (r, c))
        })
        .collect();
    assert!(points.len() <= 14, "too many cut points to brute-force");
    let (mut valid, mut shortest) = (BTreeSet::new(), BTreeSet::new());
    for mask in 0u32..1 << points.len() {
        let text_rows: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(r, cells)| {
                let mut text = String::new();
                for (c, cell) in cells.iter().enumerate() {
                    let joined = c > 0
                        && cell != "."
                        && cells[c - 1] != "."
                        && points
                            .iter()
                            .position(|&p| p == (r, c))
                            .is_some_and(|i| mask & (1 << i) == 0);
                    let blank_run = c > 0 && cell == "." && cells[c - 1] == ".";
                    if c > 0 && !joined && !blank_run {
                        text.push(' ');
                    }
                    text.push_str(cell);
                }
                text
            })
            .collect();
        let source = format!("{header}table:\n{}\n", text_rows.join("\n"));
        let loaded = load(&source, &LoadOptions::default()).unwrap();
        let checked = kernel::check(&loaded.instance, &loaded.table, &[]);
        if checked.verdict() != Verdict::Invalid {
            valid.insert(text_rows.clone());
            if checked.non_shortest().is_empty() {
                shortest.insert(text_rows);
            }
        }
    }
    (valid, shortest)
}

fn listed_rows(report: &serde_json::Value) -> BTreeSet<Vec<String>> {
    report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| serde_json::from_value(t["rows"].clone()).unwrap())
        .collect()
}

#[test]
fn the_search_finds_exactly_what_a_brute_force_over_every_cut_finds() {
    for table in [
        "tables/ring6-dihedral-total.tbl",
        "tables/ring7-cyclic.tbl",
        "tables/found/ring8-cyclic-anylength.tbl",
        "tables/found/d8-cube.tbl",
        "tables/found/d10-prism.tbl",
        "tables/found/s3-transpositions.tbl",
    ] {
        let grid = grid_of(&read(table));
        let (valid, shortest) = brute_force(&grid);
        let path = file("brute.tbl", &grid);
        let path = path.to_str().unwrap();
        let (_, report) = json_of(&[path]);
        assert_eq!(listed_rows(&report), valid, "{table}");
        assert_eq!(report["count"], valid.len(), "{table}");
        let (code, report) = json_of(&["--shortest", path]);
        assert_eq!(code, if shortest.is_empty() { 1 } else { 0 }, "{table}");
        assert_eq!(listed_rows(&report), shortest, "{table} --shortest");
    }
}

#[test]
fn one_prints_a_single_table_that_check_accepts() {
    let run = txverify(&["infer", "--one", "tests/infer/hypercube4-b.tbl"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("table:").count(), 1);
    assert!(run.stdout.contains("--one: the search stopped there"));
    let found = file("one.tbl", &run.stdout);
    let checked = txverify(&["check", found.to_str().unwrap()]);
    assert_eq!(checked.code, 0, "{}", checked.stdout);
    assert!(checked.stdout.contains("OPTIMAL"), "{}", checked.stdout);

    let (code, report) = json_of(&["--one", "tests/infer/hypercube4-b.tbl"]);
    assert_eq!(code, 0);
    assert_eq!(report["count"], 1);
    assert_eq!(report["complete"], false);
    assert_eq!(report["stopped_at"], 1);
}

#[test]
fn a_limit_says_where_it_stopped_and_only_when_it_cut_something_off() {
    let run = txverify(&["infer", "--limit", "5", "tests/infer/hypercube4-a.tbl"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .contains("stopped at 5 valid segmentations: there are more"),
        "{}",
        run.stdout
    );
    assert_eq!(run.stdout.matches("table:").count(), 5);
    let (_, report) = json_of(&["--limit", "5", "tests/infer/hypercube4-a.tbl"]);
    assert_eq!(
        (&report["count"], &report["complete"], &report["stopped_at"]),
        (&5.into(), &false.into(), &5.into())
    );
    // A limit equal to the count cuts nothing off.
    let (_, report) = json_of(&["--limit", "104", "tests/infer/hypercube4-a.tbl"]);
    assert_eq!(
        (&report["count"], &report["complete"], &report["stopped_at"]),
        (&104.into(), &true.into(), &serde_json::Value::Null)
    );
    let run = txverify(&["infer", "--limit", "0", "tests/infer/hypercube4-a.tbl"]);
    assert_eq!(run.code, 2);
}

const C2_4: &str = "group: <a, b, c, d | a^2 = b^2 = c^2 = d^2 = 1, ab = ba, ac = ca, ad = da, bc = cb, bd = db, cd = dc>\n";

#[test]
fn a_grid_without_a_valid_segmentation_is_rejected_with_the_reason() {
    // C4 with links a, a': a and a' must each be a word of their own, but each row
    // repeats one letter, so either a row is one word a^2 or it repeats a message.
    let exhausted = "group: <a | a^4 = 1>\ntable:\na a\na' a'\n";
    // A column repeating a link.
    let conflict = format!("{C2_4}table:\na d a c a b c d\na a b d b c d a\n");
    // The last letter of the 4-cube grid blanked out: 31 letters for distances 32.
    let short = read("tests/infer/hypercube4-a.tbl").replace("b c\n", "b .\n");
    // C3: a message a' written only as a a, which --shortest refuses.
    let long = "group: <a | a^3 = 1>\ntable:\na a\n. . a\n";
    for (name, text, args, kind, says) in [
        (
            "exhausted.tbl",
            exhausted.to_string(),
            vec![],
            "exhausted",
            "the furthest a cut of distinct messages got is row 1, column 2, with 1 of 3 messages delivered",
        ),
        (
            "conflict.tbl",
            conflict,
            vec![],
            "grid",
            "column 1: link `a` used twice",
        ),
        (
            "short.tbl",
            short,
            vec![],
            "too_few_letters",
            "31 letters, but the messages need at least 32",
        ),
        (
            "long.tbl",
            long.to_string(),
            vec!["--shortest"],
            "too_many_letters",
            "3 letters, but shortest words for the messages have 2",
        ),
    ] {
        let path = file(name, &text);
        let mut args = args;
        args.push(path.to_str().unwrap());
        let mut text_args = vec!["infer"];
        text_args.extend(&args);
        let run = txverify(&text_args);
        assert_eq!(run.code, 1, "{name}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("no valid segmentation"), "{name}");
        assert!(run.stdout.contains(says), "{name}: {}", run.stdout);
        let (code, report) = json_of(&args);
        assert_eq!(code, 1);
        assert_eq!(report["count"], 0, "{name}");
        assert_eq!(report["reason"]["kind"], kind, "{name}");
        assert_eq!(report["exit_code"], 1);
    }
    // The any-length grid of C3 is fine without --shortest: a a spells a'.
    let path = file("long.tbl", long);
    let (code, report) = json_of(&[path.to_str().unwrap()]);
    assert_eq!((code, &report["count"]), (0, &1.into()));
    assert_eq!(
        report["tables"][0]["rows"],
        serde_json::json!(["aa", ".. a"])
    );
}

#[test]
fn a_failing_claim_fails_every_segmentation() {
    let grid = read("tests/infer/hypercube4-a.tbl").replace("expect: time 8", "expect: time 7");
    let path = file("claim.tbl", &grid);
    let run = txverify(&["infer", "--count", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let (code, report) = json_of(&["--limit", "1", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        report["expectations"][0],
        serde_json::json!({"claim": "time 7", "holds": false})
    );
}

#[test]
fn malformed_grids_are_input_errors_with_line_and_column() {
    let joined = file("joined.tbl", &format!("{C2_4}table:\na d a c\nb ab d\n"));
    let run = txverify(&["infer", joined.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("joined.tbl:4:3: error: `ab` is 2 letters in one token"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("(write `a b`)"), "{}", run.stderr);
    let (code, report) = json_of(&[joined.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(
        (&report["error"]["line"], &report["error"]["column"]),
        (&4.into(), &3.into())
    );

    let bad = file("bad.tbl", &format!("{C2_4}table:\na d ? c\n"));
    let run = txverify(&["infer", bad.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("bad.tbl:3:5: error:"), "{}", run.stderr);
    let run = txverify(&["infer", "/nonexistent/grid.tbl"]);
    assert_eq!(run.code, 2);
}

#[test]
fn infer_json_writes_exactly_the_documented_fields() {
    let mut written = BTreeSet::new();
    let exhausted = file("fields.tbl", "group: <a | a^4 = 1>\ntable:\na a\na' a'\n");
    for args in [
        vec!["--limit", "2", "tests/infer/hypercube4-a.tbl"],
        vec![exhausted.to_str().unwrap()],
    ] {
        let (_, report) = json_of(&args);
        assert_eq!(report["schema"], "txverify-infer/2");
        nested_field_paths(&report, "", &mut written);
    }
    assert_eq!(
        written,
        documented_fields("### `infer`: a grid that was read")
    );
    let joined = file("fields-bad.tbl", &format!("{C2_4}table:\nab\n"));
    let (_, report) = json_of(&[joined.to_str().unwrap()]);
    let mut written = BTreeSet::new();
    nested_field_paths(&report, "", &mut written);
    assert_eq!(
        written,
        documented_fields("### `infer`: a file that could not be read")
    );
}

#[test]
fn the_grid_of_the_docs_is_the_committed_one() {
    // Its examples run with the others (doc_examples.rs).
    // The grid docs/infer.md shows is the committed one, header lines aside.
    let doc = read("docs/infer.md");
    let grid = read("tests/infer/hypercube4-a.tbl");
    let shown = doc
        .split("(`tests/infer/hypercube4-a.tbl`):\n\n```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/infer.md shows the grid");
    for line in shown.lines() {
        assert!(grid.lines().any(|l| l == line), "{line}");
    }
}

#[test]
fn a_long_run_with_much_slack_is_searched_without_quadratic_work() {
    // C2: one message, a, spelled by every odd run of a's. 20,001 letters in one
    // run: the search for last starts gives up (it would take 2·10^8 steps) and the
    // weaker cut still gives the one answer; 20,000 letters spell the identity.
    for (letters, code, says) in [
        (20_001, 0, "1 valid segmentation (the whole search"),
        (
            20_000,
            1,
            "with every message delivered and letters left over",
        ),
    ] {
        let row = vec!["a"; letters].join(" ");
        let path = file(
            "long.tbl",
            &format!("group: <a | a^2 = 1>\ntable:\n{row}\n"),
        );
        let run = txverify(&["infer", "--count", path.to_str().unwrap()]);
        assert_eq!(run.code, code, "{letters}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains(says), "{letters}: {}", run.stdout);
    }
}

#[test]
fn a_search_over_its_step_limit_stops_and_says_so_with_exit_4() {
    // hypercube4-b: 644 segmentations, far more than 50 steps of search.
    let (code, report) = json_of(&[
        "--count",
        "--max-steps",
        "50",
        "tests/infer/hypercube4-b.tbl",
    ]);
    assert_eq!(code, 4);
    assert_eq!(report["exit_code"], 4);
    assert_eq!(report["out_of_steps"], true);
    assert_eq!(report["complete"], false);
    assert_eq!(report["steps"], 50);
    if report["count"] == 0 {
        assert_eq!(report["reason"]["kind"], "step_limit");
    }
    let text = txverify(&["infer", "--max-steps", "50", "tests/infer/hypercube4-b.tbl"]);
    assert_eq!(text.code, 4);
    assert!(
        text.stdout.contains("step limit ran out"),
        "{}",
        text.stdout
    );
    // Under the default the whole search runs.
    let (code, report) = json_of(&["--count", "tests/infer/hypercube4-b.tbl"]);
    assert_eq!(code, 0);
    assert_eq!(report["out_of_steps"], false);
    assert_eq!(report["count"], 644);
    assert!(report["steps"].as_u64().unwrap() > 50);
}
