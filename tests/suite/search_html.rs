//! `search --format html`: the page of a search holds every number of columns
//! tried in order with what its answer proves, and the found table's picture;
//! it is compared with what `search --format json` says of the same search.

use crate::common;

use common::cli::{file, txverify};
use roxmltree::Document;

/// The C6 ring: lower bound 5, optimum 6 (tests/search.rs), so a minimising
/// search logs one infeasible and one found number of columns.
const RING: &str = "tables/ring6-cyclic-total.tbl";

fn page(args: &[&str], out: &str) -> (i32, String, String) {
    let path = file(out, "");
    let mut all = vec!["search", RING, "--jobs", "1", "--format", "html", "-o"];
    all.push(path.to_str().unwrap());
    all.extend(args);
    let run = txverify(&all);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let html = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{out}: {e}; stderr {}", run.stderr));
    (run.code, html, run.stderr)
}

/// The words of a `.tbl` text's table (every token after `table:` but `.`).
fn words_in(tbl: &str) -> usize {
    let rows = tbl.split("table:\n").nth(1).expect("a table section");
    rows.split_whitespace().filter(|w| *w != ".").count()
}

#[test]
fn a_minimising_search_logs_the_infeasible_and_the_found_time_in_order() {
    let json = txverify(&["search", RING, "--jobs", "1", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let claim = json["infeasible"][0]["claim"].as_str().unwrap();
    assert_eq!(json["infeasible"][0]["time"], 5);
    assert_eq!(json["time"], 6);
    let words = words_in(json["table"].as_str().unwrap());

    let cert = file("search-html-cert", "");
    let _ = std::fs::remove_file(&cert);
    let (code, html, _) = page(
        &["--certificate", cert.to_str().unwrap()],
        "search-ring6.html",
    );
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    let t5 = html
        .find("<tr id=\"T5\"><td class=\"time\">5</td><td>infeasible</td>")
        .expect("T=5 infeasible");
    let t6 = html
        .find("<tr id=\"T6\"><td class=\"time\">6</td><td>found</td>")
        .expect("T=6 found");
    assert!(t5 < t6, "the times in the order tried");
    assert_eq!(html.matches("<tr id=\"T").count(), 2);
    assert!(html.contains(&format!("<td>{claim}</td>")), "the claim");
    assert!(html.contains("no symmetry restriction"));
    let certificate = cert.join("T5").display().to_string();
    assert!(html.contains(&certificate), "the certificate path");
    assert!(html.contains("Found a table at T = 6"));
    assert!(html.contains("<th>lower bound</th><td>5 "));

    // The picture: one word block per word of the table the JSON report printed.
    let start = html.find("<svg").expect("a picture");
    let end = html.rfind("</svg>").unwrap() + "</svg>".len();
    let svg = Document::parse(&html[start..end]).unwrap();
    let blocks = svg
        .descendants()
        .filter(|n| n.attribute("class") == Some("word"))
        .count();
    assert_eq!(blocks, words);
    assert_eq!(words, 5, "5 messages per node");

    for external in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(external), "{external}");
    }
    let addresses = html.matches("://").count();
    let namespaces = html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
    assert_eq!(addresses, namespaces);
}

#[test]
fn an_infeasible_time_alone_has_no_picture_and_exit_status_one() {
    let (code, html, _) = page(&["--time", "5"], "search-ring6-t5.html");
    assert_eq!(code, 1);
    assert!(html.contains("No table at the times tried (T = 5)"));
    assert!(html.contains("<tr id=\"T5\">"));
    assert!(!html.contains("<svg"));
}

#[test]
fn a_symmetric_search_says_its_infeasibility_covers_a_restricted_class() {
    let (code, html, _) = page(
        &["--time", "5", "--symmetry", "reverse"],
        "search-ring6-reverse.html",
    );
    assert_eq!(code, 1);
    assert!(html.contains("only a class restricted by a symmetry"));
    assert!(!html.contains("no symmetry restriction"));
}

#[test]
fn html_refuses_cubes() {
    let run = txverify(&[
        "search", RING, "--time", "6", "--cubes", "2", "--format", "html",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("text only"), "{}", run.stderr);
    let run = txverify(&["search", RING, "--time", "6", "--format", "html"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("<!DOCTYPE html>") && run.stdout.ends_with("</html>\n"));
}
