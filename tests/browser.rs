//! The HTML report in a real browser: headless chromium loads the page of a
//! valid and of an invalid table, takes a screenshot and dumps the DOM; the
//! page must render, carry the verdict, and log nothing to the console.
//!
//! Without chromium the tests say they are skipped, unless
//! `TXVERIFY_REQUIRE_BROWSER=1` (CI sets it), when they fail.

#[path = "suite/common/mod.rs"]
mod common;

use common::cli::{file, txverify};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The browser, or `None` (after saying so) when it is missing and not required.
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        let ok = Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| PathBuf::from(name))
    });
    if found.is_none() {
        assert!(
            std::env::var("TXVERIFY_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "TXVERIFY_REQUIRE_BROWSER=1 but chromium is not installed"
        );
        eprintln!("skipped: chromium is not installed (apt-get install chromium)");
    }
    found
}

/// What the browser made of a page.
struct Loaded {
    dom: String,
    console: Vec<String>,
    screenshot_bytes: usize,
}

/// Opens `page` in headless chromium twice (screenshot, then DOM), each with a
/// fresh profile, and collects the console messages it logged.
fn open(browser: &Path, page: &Path, name: &str) -> Loaded {
    let dir = std::env::temp_dir().join(format!("txverify-browser-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("file://{}", std::fs::canonicalize(page).unwrap().display());
    let run = |profile: &str, action: &str| {
        let output = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--enable-logging=stderr",
                "--v=0",
                "--window-size=1280,1600",
            ])
            .arg(format!("--user-data-dir={}", dir.join(profile).display()))
            .arg(action)
            .arg(&url)
            .output()
            .expect("chromium runs");
        assert!(
            output.status.success(),
            "chromium failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    };
    let png = dir.join("page.png");
    let shot = run("shot", &format!("--screenshot={}", png.display()));
    let dump = run("dom", "--dump-dom");
    let console = [&shot.stderr, &dump.stderr]
        .iter()
        .flat_map(|e| {
            String::from_utf8_lossy(e)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|l| l.contains(":CONSOLE"))
        .collect();
    let screenshot_bytes = std::fs::metadata(&png).map_or(0, |m| m.len() as usize);
    if screenshot_bytes > 0 {
        let _ = std::fs::copy(&png, page.with_extension("png"));
    }
    Loaded {
        dom: String::from_utf8_lossy(&dump.stdout).into_owned(),
        console,
        screenshot_bytes,
    }
}

fn page_of(tbl: &Path, name: &str) -> (i32, PathBuf) {
    let html = file(&format!("{name}.html"), "");
    let run = txverify(&[
        "check",
        tbl.to_str().unwrap(),
        "--format",
        "html",
        "-o",
        html.to_str().unwrap(),
    ]);
    (run.code, html)
}

#[test]
fn the_report_of_a_valid_table_loads_cleanly_with_its_verdict() {
    let Some(browser) = chromium() else { return };
    let (code, page) = page_of(Path::new("tables/mesh5.tbl"), "valid");
    assert_eq!(code, 0);
    let loaded = open(&browser, &page, "valid");
    assert!(loaded.console.is_empty(), "console: {:?}", loaded.console);
    // A blank 1280×1600 screenshot compresses to a few kilobytes; a page with
    // text and pictures does not.
    assert!(
        loaded.screenshot_bytes > 20_000,
        "{} bytes",
        loaded.screenshot_bytes
    );
    assert!(
        loaded
            .dom
            .contains("<p id=\"verdict\" class=\"verdict optimal\">OPTIMAL"),
        "the DOM has the verdict"
    );
    assert!(loaded.dom.contains("class=\"txverify-table\""));
    assert!(loaded.dom.contains("class=\"txverify-utilisation\""));
}

#[test]
fn the_report_of_an_invalid_table_loads_cleanly_with_its_violations() {
    let Some(browser) = chromium() else { return };
    let tbl = file(
        "browser-broken.tbl",
        "name: ring6-broken\ngroup: <b, B | b^2 = B^2 = (bB)^3 = 1>\nnetwork: ring 6\ntable:\nbBb bB\nBb b . b\n",
    );
    let (code, page) = page_of(&tbl, "invalid");
    assert_eq!(code, 1);
    let loaded = open(&browser, &page, "invalid");
    assert!(loaded.console.is_empty(), "console: {:?}", loaded.console);
    assert!(
        loaded.screenshot_bytes > 20_000,
        "{} bytes",
        loaded.screenshot_bytes
    );
    assert!(loaded.dom.contains("class=\"verdict invalid\">INVALID<"));
    assert!(loaded.dom.contains("id=\"violation-1\""));
    assert!(loaded.dom.contains("id=\"v-1\""));
}

/// The console check can fail: a page that logs an error is caught.
#[test]
fn a_console_error_is_seen() {
    let Some(browser) = chromium() else { return };
    let page = file(
        "console-error.html",
        "<!DOCTYPE html><html><body><p>x</p><script>console.error('boom'); missing_function();</script></body></html>\n",
    );
    let loaded = open(&browser, &page, "console");
    assert!(
        loaded.console.iter().any(|l| l.contains("boom")),
        "{:?}",
        loaded.console
    );
    assert!(
        loaded
            .console
            .iter()
            .any(|l| l.contains("missing_function"))
    );
}

#[test]
fn the_report_of_a_search_loads_cleanly_with_its_log_and_table() {
    let Some(browser) = chromium() else { return };
    let page = file("search.html", "");
    let run = txverify(&[
        "search",
        "tables/ring6-cyclic-total.tbl",
        "--jobs",
        "1",
        "--format",
        "html",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let loaded = open(&browser, &page, "search");
    assert!(loaded.console.is_empty(), "console: {:?}", loaded.console);
    assert!(
        loaded.screenshot_bytes > 20_000,
        "{} bytes",
        loaded.screenshot_bytes
    );
    assert!(loaded.dom.contains("id=\"T5\""));
    assert!(loaded.dom.contains("id=\"T6\""));
    assert!(loaded.dom.contains("class=\"txverify-table\""));
}
