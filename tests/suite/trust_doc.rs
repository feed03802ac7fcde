//! docs/trust.md says which code every verdict rests on. It is only worth reading
//! if it is exact: every path it names must exist, and every module of the
//! library must be placed in it (trusted, re-checked, or outside every verdict).

use std::path::Path;

const TRUST: &str = include_str!("../../docs/trust.md");

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
