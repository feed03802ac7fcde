//! docs/trust.md says which code every verdict rests on. It is only worth reading
//! if it is exact: every path it names must exist, and every module of the
//! library must be placed in it (trusted, re-checked, or outside every verdict).
//! The same holds for the other documents a reader navigates by: every test
//! docs/limits.md names exists (its file, and the test function where it names
//! one), and README.md's "Layout" names every top-level folder.

use std::path::Path;

const TRUST: &str = include_str!("../../docs/trust.md");
const LIMITS: &str = include_str!("../../docs/limits.md");
const README: &str = include_str!("../../README.md");

/// Every back-quoted repository path in the document (`crates/…`, `src/…`, `tests/…`, `docs/…`).
fn named_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|quoted| {
            [
                "crates/", "src/", "tests/", "docs/", "benches/", "proofs/", "tables/",
            ]
            .iter()
            .any(|root| quoted.starts_with(root))
        })
        .map(|quoted| {
            // `src/verify.rs (Verification::outcome)` or `path: test_name` name a path and more.
            quoted
                .split([' ', ':'])
                .next()
                .unwrap_or(quoted)
                .to_string()
        })
        .collect()
}

#[test]
fn every_path_the_trust_document_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let paths = named_paths(TRUST);
    assert!(
        paths.len() > 20,
        "the document names too few paths: {paths:?}"
    );
    let missing: Vec<&String> = paths.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "docs/trust.md names paths that do not exist: {missing:?}"
    );
}

/// The source folders whose modules the document must place: each crate's and
/// the binary's.
fn source_roots(root: &Path) -> Vec<String> {
    let mut roots = vec!["src".to_string()];
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/ is readable") {
        let name = entry.expect("a directory entry").file_name();
        roots.push(format!("crates/{}/src", name.to_string_lossy()));
    }
    roots.sort();
    roots
}

#[test]
fn every_library_module_is_placed_in_the_trust_document() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let named = named_paths(TRUST);
    let mut unplaced = Vec::new();
    for source in source_roots(root) {
        for entry in std::fs::read_dir(root.join(&source)).expect("a source folder is readable") {
            let name = entry.expect("a directory entry").file_name();
            let name = name.to_string_lossy();
            if name == "main.rs" {
                continue;
            }
            let module = format!("{source}/{}", name.trim_end_matches(".rs"));
            // A module is placed when the document names it, a file inside it,
            // or its whole crate.
            let crate_dir = source.trim_end_matches("/src");
            let placed = named.iter().any(|p| {
                let p = p.trim_end_matches('/');
                p == module
                    || p.starts_with(&format!("{module}/"))
                    || p.trim_end_matches(".rs") == module
                    || p == source
                    || p == crate_dir
            });
            if !placed {
                unplaced.push(module);
            }
        }
    }
    unplaced.sort();
    assert!(
        unplaced.is_empty(),
        "docs/trust.md does not place these modules: {unplaced:?}"
    );
}

#[test]
fn the_path_reader_finds_paths_and_only_paths() {
    let text = "the `src/kernel/check.rs` and `src/verify.rs (Verification::outcome)`, not `kernel::check`";
    assert_eq!(
        named_paths(text),
        vec!["src/kernel/check.rs", "src/verify.rs"]
    );
}

/// The test functions a line names: back-quoted snake-case words of four or
/// more parts (`a_word_over_ten_million_letters_is_refused_at_the_word`).
fn named_tests(line: &str) -> Vec<&str> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .filter(|q| q.matches('_').count() >= 3)
        .filter(|q| {
            q.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .collect()
}

/// What is wrong with the tests `text` names: paths that do not exist, and
/// test functions found in none of the files their line names.
fn missing_tests(root: &Path, text: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for line in text.lines() {
        let paths = named_paths(line);
        missing.extend(paths.iter().filter(|p| !root.join(p).exists()).cloned());
        let sources: Vec<String> = paths
            .iter()
            .filter(|p| p.ends_with(".rs"))
            .filter_map(|p| std::fs::read_to_string(root.join(p)).ok())
            .collect();
        for test in named_tests(line) {
            let defined = format!("fn {test}(");
            if !sources.iter().any(|s| s.contains(&defined)) {
                missing.push(format!("{test} (in {paths:?})"));
            }
        }
    }
    missing
}

#[test]
fn every_test_the_limits_document_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tests = LIMITS.lines().flat_map(named_tests).count();
    assert!(tests >= 5, "the document names too few tests: {tests}");
    let missing = missing_tests(root, LIMITS);
    assert!(
        missing.is_empty(),
        "docs/limits.md names tests that do not exist: {missing:?}"
    );
}

#[test]
fn a_test_named_where_it_is_not_is_missing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = "| x | `tests/limits.rs` |\n\
                | y | `tests/suite/limits.rs` (`a_large_group_is_not_simulated_by_default`) |\n\
                | z | `tests/suite/infer.rs` (`a_large_group_is_not_simulated_by_default`) |";
    assert_eq!(
        missing_tests(root, text),
        [
            "tests/limits.rs".to_string(),
            "a_large_group_is_not_simulated_by_default (in [\"tests/suite/infer.rs\"])".to_string()
        ]
    );
}

#[test]
fn the_readme_layout_names_every_top_level_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let layout = README
        .split("\n## Layout")
        .nth(1)
        .expect("README.md has a Layout section");
    let layout = layout.split("\n## ").next().unwrap_or(layout);
    let mut unnamed = Vec::new();
    for entry in std::fs::read_dir(root).expect("the repository is readable") {
        let entry = entry.expect("a directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        // The build's output and git's own folder are no part of the sources.
        if !entry.path().is_dir() || name == "target" || name == ".git" {
            continue;
        }
        if !layout.contains(&format!("`{name}/")) {
            unnamed.push(name);
        }
    }
    unnamed.sort();
    assert!(
        unnamed.is_empty(),
        "README.md's Layout does not name these folders: {unnamed:?}"
    );
}

/// Every schema name (`txverify-NAME/VERSION`) in `text`; a version that is
/// not a number (`…`) is kept as written, so that it shows as unknown, and a
/// word after the slash (`txverify-networks/HASH.edges`) names a path.
fn schema_names(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("txverify-") {
        let rest = &text[at + "txverify-".len()..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(rest.len());
        let Some(after) = rest[name_len..].strip_prefix('/') else {
            continue;
        };
        let version: String = after
            .chars()
            .take_while(|c| !(c.is_whitespace() || "`'\")].,;:".contains(*c)))
            .collect();
        let a_path = version.starts_with(|c: char| c.is_ascii_alphabetic());
        if name_len > 0 && !version.is_empty() && !a_path {
            found.push(format!("txverify-{}/{version}", &rest[..name_len]));
        }
    }
    found
}

/// The files under `dir` (recursively) whose name ends with one of `endings`.
fn files_ending(dir: &Path, endings: &[&str], found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder is readable") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files_ending(&path, endings, found);
            }
        } else if endings.iter().any(|e| name.ends_with(e)) {
            found.push(path);
        }
    }
}

/// The documents and the Python package name only the schema versions the
/// code writes; docs/json.md alone keeps the older ones, in the history of
/// each schema.
#[test]
fn the_docs_and_the_python_package_name_the_schemas_the_code_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    for dir in ["src", "crates", "python/src"] {
        files_ending(&root.join(dir), &[".rs"], &mut sources);
    }
    let written: std::collections::BTreeSet<String> = sources
        .iter()
        .flat_map(|f| schema_names(&std::fs::read_to_string(f).expect("readable")))
        .collect();
    assert!(written.contains("txverify-bounds/4"), "{written:?}");
    let mut readers = vec![root.join("README.md")];
    files_ending(&root.join("docs"), &[".md"], &mut readers);
    files_ending(&root.join("python"), &[".py", ".pyi", ".md"], &mut readers);
    readers.retain(|f| !f.ends_with("docs/json.md"));
    let mut unknown = Vec::new();
    for file in &readers {
        let text = std::fs::read_to_string(file).expect("readable");
        for name in schema_names(&text) {
            if !written.contains(&name) {
                unknown.push(format!(
                    "{}: {name}",
                    file.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "schemas the code does not write: {unknown:?}"
    );
}

#[test]
fn schema_names_are_read_with_their_version() {
    assert_eq!(
        schema_names(
            "(schema ``txverify-msccl/…``) and `txverify-bounds/4`; txverify-x, txverify-networks/HASH.edges"
        ),
        ["txverify-msccl/…", "txverify-bounds/4"]
    );
}
