//! Pictures and the HTML report: the SVG is parsed with an XML parser and
//! checked for the blocks and marks it must hold, against what the `.tbl` file
//! says (words counted from its text, not from the picture's code).

use crate::common;

use common::cli::{file, txverify};
use roxmltree::{Document, Node};
use std::path::{Path, PathBuf};

/// Runs `render ARGS… -o OUT` and returns the exit status and the SVG.
fn render(args: &[&str], out: &str) -> (i32, String) {
    let path = out_path(out);
    let mut all: Vec<&str> = args.to_vec();
    let shown = path.to_str().unwrap().to_string();
    all.extend(["-o", &shown]);
    let mut full = vec!["render"];
    full.extend(all);
    let run = txverify(&full);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let svg = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{out} not written ({e}); stderr: {}", run.stderr));
    (run.code, svg)
}

fn out_path(name: &str) -> PathBuf {
    file(name, "").parent().unwrap().join(name)
}

fn with_class<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

fn number(node: Node<'_, '_>, attribute: &str) -> f64 {
    node.attribute(attribute)
        .unwrap_or_else(|| panic!("no {attribute} on {node:?}"))
        .parse()
        .unwrap()
}

/// The words of a `.tbl` file as (row, column, letters), read from its text:
/// one row per line after `table:`, `.` a blank column, letters as the format
/// spells them (a name, then any number of `'`).
fn words_of(path: &Path) -> Vec<(usize, usize, usize)> {
    let text = std::fs::read_to_string(path).unwrap();
    let rows = text
        .lines()
        .skip_while(|l| l.trim() != "table:")
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let mut words = Vec::new();
    for (r, line) in rows.enumerate() {
        let mut column = 1;
        for token in line.split_whitespace() {
            if token == "." {
                column += 1;
                continue;
            }
            let letters = token.chars().filter(|c| c.is_ascii_alphabetic()).count();
            words.push((r + 1, column, letters));
            column += letters;
        }
    }
    words
}

/// Asserts that word blocks sit on a grid: x linear in the column, y in the row,
/// width proportional to the length.
fn assert_blocks_on_grid(blocks: &[Node<'_, '_>], words: &[(usize, usize, usize)]) {
    let mut drawn: Vec<(usize, usize, usize)> = blocks
        .iter()
        .map(|b| {
            (
                number(*b, "data-row") as usize,
                number(*b, "data-column") as usize,
                number(*b, "data-length") as usize,
            )
        })
        .collect();
    drawn.sort();
    let mut expected = words.to_vec();
    expected.sort();
    assert_eq!(drawn, expected, "one block per word, at its row and column");
    let first = blocks[0];
    let (x1, y1) = (number(first, "x"), number(first, "y"));
    let (c1, r1) = (number(first, "data-column"), number(first, "data-row"));
    let cell = (number(first, "width") + 2.0) / number(first, "data-length");
    let height = number(first, "height");
    for b in blocks {
        let (c, r) = (number(*b, "data-column"), number(*b, "data-row"));
        assert!(
            (number(*b, "x") - (x1 + (c - c1) * cell)).abs() < 0.01,
            "{b:?}"
        );
        assert!((number(*b, "width") + 2.0 - number(*b, "data-length") * cell).abs() < 0.01);
        let row_height = height + 4.0;
        assert!(
            (number(*b, "y") - (y1 + (r - r1) * row_height)).abs() < 0.01,
            "{b:?}"
        );
    }
}

#[test]
fn a_valid_table_has_one_block_per_word_on_its_columns_and_no_marks() {
    let (code, svg) = render(&["tables/mesh5.tbl"], "mesh5.svg");
    assert_eq!(code, 0);
    let doc = Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("data-aggregated"), Some("false"));
    assert_eq!(root.attribute("data-steps"), Some("15"));
    let words = words_of(Path::new("tables/mesh5.tbl"));
    assert_eq!(words.len(), 24);
    assert_blocks_on_grid(&with_class(&doc, "word"), &words);
    assert!(with_class(&doc, "mark").is_empty());
    let verdict = with_class(&doc, "verdict");
    assert_eq!(verdict[0].text(), Some("OPTIMAL"));
    // Step numbers on top: 1 and the last step are among them.
    let steps: Vec<&str> = with_class(&doc, "steps")[0]
        .children()
        .filter_map(|n| n.text())
        .filter(|t| !t.trim().is_empty())
        .collect();
    assert!(steps.contains(&"1") && steps.contains(&"14"), "{steps:?}");
}

#[test]
fn colour_by_link_gives_every_letter_a_cell_of_its_link() {
    let (code, svg) = render(&["tables/mesh5.tbl", "--by", "link"], "mesh5-link.svg");
    assert_eq!(code, 0);
    let doc = Document::parse(&svg).unwrap();
    let letters = with_class(&doc, "letter");
    let words = words_of(Path::new("tables/mesh5.tbl"));
    let total: usize = words.iter().map(|w| w.2).sum();
    assert_eq!(letters.len(), total);
    // mesh5 is optimal with 4 links and 4 lanes: every column holds each link once.
    let mut per_link = [0usize; 4];
    for l in &letters {
        per_link[number(*l, "data-link") as usize] += 1;
    }
    assert_eq!(per_link, [15; 4]);
    // Each link keeps its colour.
    let mut colours = std::collections::BTreeMap::new();
    for l in &letters {
        colours
            .entry(l.attribute("data-link").unwrap())
            .or_insert_with(std::collections::BTreeSet::new)
            .insert(l.attribute("fill").unwrap());
    }
    assert!(colours.values().all(|c| c.len() == 1), "{colours:?}");
    assert_eq!(with_class(&doc, "word").len(), words.len());
}

const BROKEN: &str = "name: ring6-broken
group: <b, B | b^2 = B^2 = (bB)^3 = 1>
network: ring 6
table:
bBb bB
Bb b . b
";

#[test]
fn an_invalid_table_has_its_cells_marked_and_the_reasons_written() {
    let tbl = file("broken.tbl", BROKEN);
    let (code, svg) = render(&[tbl.to_str().unwrap()], "broken.svg");
    assert_eq!(code, 1, "an invalid table: exit 1, picture written");
    let doc = Document::parse(&svg).unwrap();
    let words = words_of(&tbl);
    assert_blocks_on_grid(&with_class(&doc, "word"), &words);
    let marks = with_class(&doc, "mark");
    let ids: Vec<&str> = marks.iter().map(|m| m.attribute("id").unwrap()).collect();
    // The kernel finds: column 3 uses `b` twice; row 2 column 5 repeats `b`; `B` is missing.
    assert_eq!(ids, ["v-1", "v-2", "v-3"]);
    let cells = |k: &str| -> Vec<(String, String)> {
        with_class(&doc, "mark-cell")
            .iter()
            .filter(|c| c.attribute("data-violation") == Some(k))
            .map(|c| {
                (
                    c.attribute("data-lane").unwrap().to_string(),
                    c.attribute("data-column").unwrap().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        cells("1"),
        [("1".into(), "3".into()), ("2".into(), "3".into())]
    );
    assert_eq!(cells("2"), [("2".into(), "5".into())]);
    assert!(cells("3").is_empty(), "a missing message has no cell");
    // A mark sits over its cell: the block of the word `b` at row 2, column 3.
    let block = with_class(&doc, "word")
        .into_iter()
        .find(|b| b.attribute("id") == Some("w-2-3"))
        .unwrap();
    let cell = with_class(&doc, "mark-cell")
        .into_iter()
        .find(|c| {
            c.attribute("data-violation") == Some("1") && c.attribute("data-lane") == Some("2")
        })
        .unwrap();
    assert!((number(cell, "x") + 1.0 - number(block, "x")).abs() < 0.01);
    let notes: Vec<&str> = with_class(&doc, "note")
        .iter()
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(notes.len(), 3);
    assert!(
        notes[0].starts_with("1. column 3: link `b` used twice"),
        "{notes:?}"
    );
    assert!(notes[2].contains("missing message"), "{notes:?}");
    // Each mark carries its reason as a tooltip too.
    let title = marks[1]
        .children()
        .find(|n| n.has_tag_name("title"))
        .unwrap();
    assert!(title.text().unwrap().contains("duplicate"));
    assert!(
        with_class(&doc, "verdict")[0]
            .text()
            .unwrap()
            .starts_with("INVALID")
    );
}

#[test]
fn text_from_the_file_is_escaped() {
    let tbl = file(
        "escape.tbl",
        "name: <a href=\"x\"> & 'b' </svg>\ngroup: <a | a^3 = 1>\ntable:\na\na'\n",
    );
    let (code, svg) = render(&[tbl.to_str().unwrap()], "escape.svg");
    assert_eq!(code, 0);
    let doc = Document::parse(&svg).expect("still well-formed");
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("text"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(title.starts_with("<a href=\"x\"> & 'b' </svg>"), "{title}");
    assert!(doc.descendants().all(|n| !n.has_tag_name("a")));
}

#[test]
fn a_wide_table_is_aggregated_and_says_so() {
    let (code, svg) = render(&["tables/mesh5.tbl", "--max-columns", "4"], "mesh5-agg.svg");
    assert_eq!(code, 0);
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("data-aggregated"), Some("true"));
    assert_eq!(root.attribute("data-steps-per-column"), Some("4"));
    let note = with_class(&doc, "aggregated");
    assert!(
        note[0]
            .text()
            .unwrap()
            .contains("each drawn column is 4 steps")
    );
    assert!(with_class(&doc, "word").is_empty());
    // 15 steps in columns of 4: every lane is full, so each lane is drawn as one
    // run covering the 4 drawn columns, or as several runs adding up to them.
    let bins = with_class(&doc, "bin");
    let total: f64 = bins.iter().map(|b| number(*b, "width")).sum();
    let one = bins
        .iter()
        .map(|b| number(*b, "width"))
        .fold(f64::MAX, f64::min);
    assert!(one > 0.0);
    let lanes = 4.0;
    let column_width = total / lanes / 4.0;
    for b in &bins {
        let columns = number(*b, "width") / column_width;
        assert!((columns - columns.round()).abs() < 0.01, "{b:?}");
    }
}

#[test]
fn the_32_cube_torus_renders_aggregated_in_bounded_size() {
    let table = out_path("t32.tbl");
    let run = txverify(&[
        "gen",
        "torus3d",
        "32",
        "--no-simulate",
        "-o",
        table.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (code, svg) = render(&[table.to_str().unwrap()], "t32.svg");
    assert_eq!(code, 0);
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("data-steps"), Some("131072"));
    assert_eq!(root.attribute("data-aggregated"), Some("true"));
    assert_eq!(root.attribute("data-steps-per-column"), Some("128"));
    let note = with_class(&doc, "aggregated")[0].text().unwrap();
    assert!(
        note.starts_with("aggregated: each drawn column is 128 steps"),
        "{note}"
    );
    let verdict = with_class(&doc, "verdict")[0].text().unwrap();
    assert_eq!(verdict, "OPTIMAL");
}

#[test]
fn utilisation_is_a_heat_map_of_links_by_steps_and_a_curve() {
    let (code, svg) = render(&["tables/mesh5.tbl", "--utilisation"], "mesh5-use.svg");
    assert_eq!(code, 0);
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("data-aggregated"), Some("false"));
    assert_eq!(root.attribute("data-directed-links"), Some("100"));
    // The optimal 5×5 table uses every directed link at every step: each of the
    // 100 rows is one run of the darkest shade across the 15 steps.
    let cells = with_class(&doc, "cell");
    assert_eq!(cells.len(), 100);
    assert!(
        cells
            .iter()
            .all(|c| c.attribute("data-shade") == Some("20"))
    );
    let curve = with_class(&doc, "busy");
    let points = curve[0].attribute("points").unwrap().split(' ').count();
    assert_eq!(points, 15, "one point per step");
}

#[test]
fn utilisation_of_an_invalid_table_shows_idle_links() {
    let tbl = file("broken-use.tbl", BROKEN);
    let (code, svg) = render(&[tbl.to_str().unwrap(), "--utilisation"], "broken-use.svg");
    assert_eq!(code, 1);
    let doc = Document::parse(&svg).unwrap();
    // Ring 6: 12 directed links, 5 steps; the simulator found 80% in use.
    let cells = with_class(&doc, "cell");
    let idle: f64 = cells
        .iter()
        .filter(|c| c.attribute("data-shade") == Some("0"))
        .map(|c| number(*c, "width"))
        .sum();
    let all: f64 = cells.iter().map(|c| number(*c, "width")).sum();
    assert!((idle / all - 0.2).abs() < 1e-9, "{idle} of {all}");
}

#[test]
fn large_utilisation_is_binned_by_the_simulator() {
    let table = out_path("t8.tbl");
    let run = txverify(&[
        "gen",
        "torus3d",
        "8",
        "--no-simulate",
        "-o",
        table.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (code, svg) = render(&[table.to_str().unwrap(), "--utilisation"], "t8-use.svg");
    assert_eq!(code, 0);
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("data-aggregated"), Some("true"));
    // 512 steps in at most 400 columns; 3,072 directed links in at most 128 rows.
    assert_eq!(root.attribute("data-steps"), Some("512"));
    assert_eq!(root.attribute("data-steps-per-column"), Some("2"));
    assert_eq!(root.attribute("data-links-per-row"), Some("24"));
    assert!(
        with_class(&doc, "aggregated")[0]
            .text()
            .unwrap()
            .starts_with("aggregated: each cell is 2 steps × 24 directed links")
    );
}

#[test]
fn render_errors_have_their_exit_statuses() {
    let run = txverify(&["render", "no/such/file.tbl"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    let run = txverify(&["render", "tables/mesh5.tbl", "-o", "no/such/dir/x.svg"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
    let run = txverify(&["render", "tables/mesh5.tbl"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("<svg") && run.stdout.ends_with("</svg>\n"));
}

/// Every `href="#x"` of a page points at an `id="x"` on it.
fn assert_links_resolve(html: &str) {
    let mut rest = html;
    let mut links = 0;
    while let Some(at) = rest.find("href=\"#") {
        rest = &rest[at + 7..];
        let target = &rest[..rest.find('"').unwrap()];
        assert!(
            html.contains(&format!("id=\"{target}\"")),
            "#{target} has no target"
        );
        links += 1;
    }
    assert!(links > 0);
}

fn check_html(tbl: &str, out: &str) -> (i32, String) {
    let path = out_path(out);
    let run = txverify(&[
        "check",
        tbl,
        "--format",
        "html",
        "-o",
        path.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{out}: {e}; stderr {}", run.stderr));
    (run.code, html)
}

#[test]
fn the_html_report_of_an_invalid_table_links_violations_to_their_cells() {
    let tbl = file("broken-page.tbl", BROKEN);
    let (code, html) = check_html(tbl.to_str().unwrap(), "broken.html");
    assert_eq!(code, 1);
    assert!(html.contains("<p id=\"verdict\" class=\"verdict invalid\">INVALID</p>"));
    for k in 1..=3 {
        assert!(html.contains(&format!("<li id=\"violation-{k}\"><a href=\"#v-{k}\">")));
        assert!(html.contains(&format!("<g class=\"mark\" id=\"v-{k}\">")));
        assert!(html.contains(&format!("<a href=\"#violation-{k}\">")));
    }
    assert_links_resolve(&html);
    assert!(html.contains("6 link conflicts"), "the simulation summary");
    assert!(html.contains("class=\"txverify-utilisation\""));
}

#[test]
fn the_html_report_is_self_contained() {
    let (code, html) = check_html("tables/mesh6.tbl", "mesh6.html");
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert!(html.contains("class=\"verdict optimal\">OPTIMAL"));
    assert!(html.contains("<th>lower bound</th><td>"));
    assert!(html.contains("class=\"txverify-table\""));
    for external in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(external), "{external}");
    }
    // The only address on the page is the SVG namespace name, which is never fetched.
    let addresses = html.matches("://").count();
    let namespaces = html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
    assert_eq!(addresses, namespaces);
}

#[test]
fn html_takes_one_file_and_o_writes_the_report() {
    let run = txverify(&[
        "check",
        "tables/mesh5.tbl",
        "tables/mesh6.tbl",
        "--format",
        "html",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("takes one file"), "{}", run.stderr);
    // `-o` now writes any format; an unwritable output is an input/output error.
    let run = txverify(&["check", "tables/mesh5.tbl", "-o", "/nonexistent/x.txt"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
    let run = txverify(&["check", "tables/mesh5.tbl", "--format", "html"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("<!DOCTYPE html>") && run.stdout.ends_with("</html>\n"));
}

#[test]
fn marks_stay_on_their_drawn_columns_when_aggregated() {
    let tbl = file("broken-agg.tbl", BROKEN);
    let (code, svg) = render(
        &[tbl.to_str().unwrap(), "--max-columns", "2"],
        "broken-agg.svg",
    );
    assert_eq!(code, 1);
    let doc = Document::parse(&svg).unwrap();
    // 5 steps in 2 drawn columns of 3: step 3 is in the first, step 5 in the second.
    assert_eq!(
        doc.root_element().attribute("data-steps-per-column"),
        Some("3")
    );
    assert_eq!(with_class(&doc, "mark").len(), 3);
    let cell = |k: &str| {
        with_class(&doc, "mark-cell")
            .into_iter()
            .find(|c| c.attribute("data-violation") == Some(k))
            .unwrap()
    };
    let (first, second) = (cell("1"), cell("2"));
    assert_eq!(first.attribute("data-column"), Some("3"));
    assert_eq!(second.attribute("data-column"), Some("5"));
    let drawn_column = number(first, "width");
    assert!((number(second, "x") - number(first, "x") - drawn_column).abs() < 0.01);
}

/// The sends of a schedule file as (step, from, to), read from its text: the
/// lines after `sends:` of the text format, or the `sends` array of the JSON one.
fn sends_of(path: &Path) -> Vec<(u64, u64, u64)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut sends: Vec<(u64, u64, u64)> = if text.trim_start().starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["sends"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let n = |k: &str| s[k].as_u64().unwrap();
                (n("step"), n("from"), n("to"))
            })
            .collect()
    } else {
        text.lines()
            .skip_while(|l| l.trim() != "sends:")
            .skip(1)
            .map(|l| l.split('#').next().unwrap())
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let f: Vec<u64> = l
                    .split_whitespace()
                    .take(3)
                    .map(|x| x.parse().unwrap())
                    .collect();
                (f[0], f[1], f[2])
            })
            .collect()
    };
    sends.sort_unstable();
    sends
}

/// The (step, from, to) of every mark of a schedule picture, from its tooltip.
fn marks_of(doc: &Document<'_>) -> Vec<(u64, u64, u64)> {
    let mut marks: Vec<(u64, u64, u64)> = with_class(doc, "send")
        .iter()
        .map(|m| {
            assert_eq!(m.tag_name().name(), "rect");
            let title = m
                .children()
                .find(|c| c.tag_name().name() == "title")
                .and_then(|t| t.text())
                .unwrap();
            // "step S: F → T, packet …"
            let numbers: Vec<u64> = title
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .take(3)
                .map(|t| t.parse().unwrap())
                .collect();
            (numbers[0], numbers[1], numbers[2])
        })
        .collect();
    marks.sort_unstable();
    marks
}

#[test]
fn a_schedule_is_drawn_with_one_mark_per_send() {
    let dir = Path::new("examples/schedules");
    let mut drawn = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let (code, svg) = render(&[path.to_str().unwrap()], &format!("{name}.svg"));
        assert_eq!(code, 0, "{name}");
        let doc = Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.attribute("class"), Some("txverify-schedule"));
        assert_eq!(root.attribute("data-aggregated"), Some("false"));
        let sends = sends_of(&path);
        assert!(!sends.is_empty(), "{name}");
        assert_eq!(marks_of(&doc), sends, "{name}");
        // Marks of one step share a column, of one link a row: distinct cells.
        let mut cells: Vec<(String, String)> = with_class(&doc, "send")
            .iter()
            .map(|m| {
                (
                    m.attribute("x").unwrap().into(),
                    m.attribute("y").unwrap().into(),
                )
            })
            .collect();
        cells.sort();
        cells.dedup();
        // A link of capacity 2 or more (a fabric's) carries several sends a
        // step: they share its cell, one mark each.
        let mut link_steps = sends.clone();
        link_steps.dedup();
        assert_eq!(cells.len(), link_steps.len(), "{name}");
        drawn += 1;
    }
    assert!(drawn >= 5, "{drawn} schedules");
}

#[test]
fn an_invalid_schedule_is_not_drawn() {
    // Single-port: node 0 sends twice in step 1, and nodes 3 … 7 never receive.
    let bad = file(
        "two-sends.sched",
        "network: hypercube 3\nports: 1\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n1 0 2 0 *\n",
    );
    let out = out_path("two-sends.svg");
    let run = txverify(&["render", bad.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("INVALID"), "{}", run.stderr);
    assert!(run.stderr.contains("send-ports"), "{}", run.stderr);
    assert!(run.stderr.contains("never-delivered"), "{}", run.stderr);
    // `out_path` made the file empty; nothing was written to it.
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
    let valid = "examples/schedules/ring4-total.sched";
    let run = txverify(&["render", valid, "--utilisation"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--utilisation is for tables"),
        "{}",
        run.stderr
    );
    let malformed = file(
        "malformed.sched",
        "network: hypercube 3\nsends:\n1 0 x 0 *\n",
    );
    let run = txverify(&["render", malformed.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("malformed.sched:3:"), "{}", run.stderr);
}

#[test]
fn a_long_schedule_is_aggregated_and_every_send_counted() {
    let schedule = out_path("exchange5.sched");
    let run = txverify(&[
        "hypercube",
        "exchange",
        "5",
        "-q",
        "-o",
        schedule.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sends = sends_of(&schedule).len();
    let (code, svg) = render(
        &[schedule.to_str().unwrap(), "--max-columns", "5"],
        "exchange5.svg",
    );
    assert_eq!(code, 0);
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("data-aggregated"), Some("true"));
    let cells = with_class(&doc, "sends");
    let counted: f64 = cells.iter().map(|c| number(*c, "data-sends")).sum();
    assert_eq!(counted as usize, sends);
    assert!(with_class(&doc, "send").is_empty());
    // At most 5 drawn columns of steps.
    let steps = number(root, "data-steps");
    assert_eq!(number(root, "data-steps-per-column"), (steps / 5.0).ceil());
}
