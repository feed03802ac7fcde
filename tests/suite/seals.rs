//! What the compiler cannot hold by itself about the seals (docs/trust.md):
//! the core's optimality rule takes refutations through a trait, and only the
//! search crate's checked refutation may implement it; and every exit status
//! of the binary comes from `src/cli/exit.rs`.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Every source file of the workspace, with its text, by path from the root.
fn workspace_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "benches", "examples"] {
        if root.join(dir).is_dir() {
            sources(&root.join(dir), &mut files);
        }
    }
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let shown = path.strip_prefix(root).unwrap().display().to_string();
            (shown, text)
        })
        .collect()
}

/// The places in `text` that implement the core's `Refutation` trait, outside
/// a `#[cfg(test)]` module (a test double of the rule's own tests).
fn refutation_impls(text: &str) -> usize {
    let tests_from = text.find("#[cfg(test)]").unwrap_or(text.len());
    text.match_indices("impl")
        .filter(|&(at, _)| at < tests_from)
        .filter(|&(at, _)| {
            let line = text[at..].lines().next().unwrap_or("");
            line.contains("Refutation for ")
        })
        .count()
}

#[test]
fn only_the_search_crate_implements_refutation() {
    let mut found = Vec::new();
    for (path, text) in workspace_sources() {
        if path == "tests/suite/seals.rs" {
            continue;
        }
        if refutation_impls(&text) > 0 {
            found.push(path);
        }
    }
    assert_eq!(found, ["crates/search/src/refutation.rs"]);
}

#[test]
fn the_scan_finds_an_implementation_and_skips_test_doubles() {
    assert_eq!(refutation_impls("impl Refutation for Mine {}"), 1);
    assert_eq!(
        refutation_impls("impl txverify_core::verdict::Refutation for Mine {}"),
        1
    );
    assert_eq!(
        refutation_impls("#[cfg(test)]\nmod tests { impl Refutation for Double {} }"),
        0
    );
    assert_eq!(refutation_impls("impl CheckedRefutation {}"), 0);
}

/// The ways a status can be set other than through `Exit`.
fn status_setters(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .filter(|line| {
            line.contains("process::exit(")
                || line.contains("ExitCode::SUCCESS")
                || line.contains("ExitCode::FAILURE")
                || line.split("ExitCode::from(").skip(1).any(|arg| {
                    // Only an `Exit` becomes a process status.
                    !(arg.starts_with("exit)") || arg.starts_with("Exit::"))
                })
        })
        .map(|line| line.trim().to_string())
        .collect()
}

#[test]
fn every_exit_status_comes_from_the_exit_module() {
    let mut found = Vec::new();
    for (path, text) in workspace_sources() {
        if !path.starts_with("src/") || path == "src/cli/exit.rs" {
            continue;
        }
        for line in status_setters(&text) {
            found.push(format!("{path}: {line}"));
        }
    }
    assert!(found.is_empty(), "statuses set outside exit.rs: {found:#?}");
}

#[test]
fn the_scan_finds_a_status_set_by_hand() {
    assert_eq!(status_setters("ExitCode::from(code as u8)").len(), 1);
    assert_eq!(status_setters("std::process::exit(3);").len(), 1);
    assert!(status_setters("ExitCode::from(Exit::Input)").is_empty());
    assert!(status_setters("ExitCode::from(exit)").is_empty());
    assert!(status_setters("// ExitCode::from(2)").is_empty());
}
