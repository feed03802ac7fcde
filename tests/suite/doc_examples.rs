//! Every command example of README.md and docs/*.md, run and compared
//! (common/console.rs says how a document writes them).

use crate::common::console::{self, Example, Ran};
use std::path::{Path, PathBuf};

/// README.md and every docs/*.md, in name order.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    docs
}

/// The drifts of one document, as text (empty when it holds); with
/// `overwrite`, the document is rewritten with the outputs found.
fn check_document(root: &Path, exe: &Path, path: &Path, overwrite: bool) -> String {
    let shown = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let text = std::fs::read_to_string(path).expect("readable");
    let examples = match console::examples(&text) {
        Ok(examples) => examples,
        Err(m) => return format!("{shown}:{}: {}\n", m.line, m.message),
    };
    if examples.is_empty() {
        return String::new();
    }
    let name = shown.replace(['/', '.'], "-");
    let dir = console::scratch(root, &name);
    let lines: Vec<&str> = text.lines().collect();
    let mut drifts = String::new();
    let mut fixes: Vec<(Example, Ran)> = Vec::new();
    for example in &examples {
        let ran = console::run(exe, &dir, example);
        let expected = &lines[example.output.clone()];
        let actual: Vec<&str> = ran.output.lines().collect();
        if ran.status == example.status && console::matches(expected, &actual) {
            continue;
        }
        drifts.push_str(&format!(
            "{shown}:{}: `{}` exited {} (the doc says {}) and printed:\n{}\n--- the doc says:\n{}\n\n",
            example.line,
            example.words.join(" "),
            ran.status,
            example.status,
            ran.output.trim_end(),
            expected.join("\n")
        ));
        fixes.push((example.clone(), ran));
    }
    let _ = std::fs::remove_dir_all(&dir);
    if overwrite && !fixes.is_empty() {
        std::fs::write(path, rewrite(&text, &fixes)).expect("writable");
    }
    drifts
}

/// `text` with the outputs (and statuses) of `fixes` put in.
fn rewrite(text: &str, fixes: &[(Example, Ran)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (example, ran) in fixes.iter().rev() {
        let old = &lines[example.output.clone()];
        let new: Vec<String> = ran
            .output
            .trim_end()
            .lines()
            .enumerate()
            .map(|(k, line)| match old.get(k) {
                Some(pattern) if console::line_matches(pattern, line) => pattern.clone(),
                _ => line.trim_end().to_string(),
            })
            .collect();
        lines.splice(example.output.clone(), new);
        let status_at = example.output.start - 1;
        let has_status = lines[status_at].starts_with("? ");
        match (has_status, ran.status) {
            (true, 0) => {
                lines.remove(status_at);
            }
            (true, s) => lines[status_at] = format!("? {s}"),
            (false, 0) => {}
            (false, s) => lines.insert(example.output.start, format!("? {s}")),
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn every_documented_example_prints_what_its_document_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = Path::new(env!("CARGO_BIN_EXE_txverify"));
    let overwrite = std::env::var("TXVERIFY_DOCS").is_ok_and(|v| v == "overwrite");
    let documents = documents(root);
    let drifts: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = documents
            .iter()
            .map(|path| scope.spawn(move || check_document(root, exe, path, overwrite)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    let drifts = drifts.concat();
    assert!(
        drifts.is_empty(),
        "documented examples that drifted (TXVERIFY_DOCS=overwrite cargo test --test suite doc_examples:: rewrites them; review the diff):\n\n{drifts}"
    );
}

#[test]
fn the_examples_are_found_and_each_document_is_read() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut total = 0;
    let mut malformed = String::new();
    for path in documents(root) {
        let text = std::fs::read_to_string(&path).unwrap();
        match console::examples(&text) {
            Ok(found) => total += found.len(),
            Err(m) => {
                let shown = path.strip_prefix(root).unwrap_or(&path).display();
                malformed.push_str(&format!("{shown}:{}: {}\n", m.line, m.message));
            }
        }
    }
    assert!(malformed.is_empty(), "{malformed}");
    // The README's tour alone has more than ten; a parser that found none
    // would make the test above pass on nothing.
    assert!(total >= 10, "only {total} examples found");
}

// ---- the harness itself ----

#[test]
fn wildcards_match_what_they_say_and_nothing_else() {
    assert!(console::line_matches("in [..] s", "in 0.02 s"));
    assert!(!console::line_matches("in [..] s", "in 0.02 ms"));
    assert!(console::line_matches("[..]", "anything"));
    assert!(console::line_matches("a [..] b [..] c", "a 1 b 2 c"));
    assert!(!console::line_matches("a [..] b", "a 1 c"));
    assert!(console::matches(&["x", "...", "z"], &["x", "1", "2", "z"]));
    assert!(console::matches(&["x", "...", "z"], &["x", "z"]));
    assert!(!console::matches(&["x", "z"], &["x", "y", "z"]));
    assert!(!console::matches(&["x"], &["x", "y"]));
}

#[test]
fn examples_outside_console_blocks_are_refused() {
    let text = "```sh\n$ txverify check x\n```\n";
    assert!(console::examples(text).is_err());
    let text = "$ txverify check x\n";
    assert!(console::examples(text).is_err());
    let text = "```sh\ntxverify check tables/mesh5.tbl\n```\n";
    assert!(console::examples(text).is_err());
    let text = "```sh\ntxverify check FILE  # a synopsis\n```\n";
    assert!(console::examples(text).is_ok());
    let text = "```sh,ignore\ntxverify search big.tbl\n```\n";
    assert!(console::examples(text).is_ok());
    let text = "```console\n$ ls\n```\n";
    assert!(console::examples(text).is_err());
    let text = "```console\n$ txverify check 'a b'\n? 2\nerror\n$ txverify x\n```\n";
    let found = console::examples(text).unwrap();
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].words, ["txverify", "check", "a b"]);
    assert_eq!((found[0].status, found[0].output.clone()), (2, 3..4));
    assert_eq!(found[1].output, 5..5);
}
