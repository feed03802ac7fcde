//! The trust boundary is a crate boundary (docs/trust.md, "The crates"): the
//! trusted crates name none of the untrusted ones in their manifests, and the
//! binary stays wiring: no bound, model, verdict or optimality decision in it.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `txverify-*` crates a manifest depends on (any section).
fn txverify_dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(manifest)).expect("a manifest is readable");
    text.lines()
        .filter_map(|line| line.split('=').next())
        .map(str::trim)
        .filter(|name| name.starts_with("txverify-"))
        .map(String::from)
        .collect()
}

#[test]
fn the_core_depends_on_no_other_txverify_crate() {
    assert_eq!(
        txverify_dependencies("crates/core/Cargo.toml"),
        Vec::<String>::new()
    );
}

#[test]
fn the_proof_checker_depends_on_no_other_txverify_crate() {
    assert_eq!(
        txverify_dependencies("crates/proofcheck/Cargo.toml"),
        Vec::<String>::new()
    );
}

#[test]
fn the_dependency_reader_sees_dependencies() {
    let search = txverify_dependencies("crates/search/Cargo.toml");
    assert!(search.contains(&"txverify-core".to_string()), "{search:?}");
    assert!(
        search.contains(&"txverify-proofcheck".to_string()),
        "{search:?}"
    );
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Whether `text` names `word` as a whole identifier.
fn names(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

#[test]
fn the_binary_makes_no_bound_model_or_verdict() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file is readable");
        // Code only: comments may speak of verdicts.
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        // `Mode::Model` is the search's decoding of a solver's model, not a
        // bound's model: the verdict's is named by its path.
        for word in ["NamedBound", "verdict::Model", "judge", "optimal_by"] {
            if names(&code, word) {
                offenders.push(format!("{}: {word}", file.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "the binary decides: {offenders:?}");
}

#[test]
fn the_identifier_finder_finds_whole_words_only() {
    assert!(names("let b = NamedBound::new", "NamedBound"));
    assert!(!names("let b = NamedBounds", "NamedBound"));
    assert!(!names("ModelError", "Model"));
}

/// The binary's size, so that pipelines do not creep back into it.
const BINARY_LINES: usize = 5_000;

#[test]
fn the_binary_stays_under_its_line_budget() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let lines: usize = files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .expect("readable")
                .lines()
                .count()
        })
        .sum();
    assert!(
        lines < BINARY_LINES,
        "src/ has {lines} lines, over the binary's budget of {BINARY_LINES}: move the work into a library crate"
    );
}

/// Turning z3 or MPI on must not rebuild the search crate and the crates that use it
/// (docs/ci.md, "What each step costs"): the system libraries are linked by
/// txverify-native alone.
#[test]
fn only_the_native_crate_links_z3_and_mpi() {
    for manifest in [
        "crates/core/Cargo.toml",
        "crates/proofcheck/Cargo.toml",
        "crates/search/Cargo.toml",
        "crates/clients/Cargo.toml",
    ] {
        let text = std::fs::read_to_string(root().join(manifest)).expect("a manifest is readable");
        let linked: Vec<&str> = text
            .lines()
            .map(|line| line.split('=').next().unwrap_or("").trim())
            .filter(|name| ["z3", "mpi", "z3-sys", "mpi-sys"].contains(name))
            .collect();
        assert!(linked.is_empty(), "{manifest} names {linked:?}");
    }
    let native = std::fs::read_to_string(root().join("crates/native/Cargo.toml")).unwrap();
    assert!(native.lines().any(|l| l.starts_with("z3 = {")), "{native}");
    assert!(native.lines().any(|l| l.starts_with("mpi = {")), "{native}");
}

/// Cargo makes every `benches/*.rs` a bench target, declared or not: each one
/// must be a `[[bench]]` of the manifest (a module the benches share lives in
/// `benches/shared/`).
#[test]
fn every_file_directly_in_benches_is_a_declared_bench() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("the manifest");
    let declared: Vec<&str> = manifest
        .split("[[bench]]")
        .skip(1)
        .filter_map(|entry| {
            let line = entry.lines().find(|l| l.trim_start().starts_with("name"))?;
            line.split('"').nth(1)
        })
        .collect();
    assert!(declared.len() >= 5, "{declared:?}");
    let mut undeclared = Vec::new();
    for entry in std::fs::read_dir(root().join("benches")).expect("benches/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if !declared.contains(&stem.as_str()) {
                undeclared.push(stem);
            }
        }
    }
    assert!(
        undeclared.is_empty(),
        "benches/ files that are no declared bench: {undeclared:?}"
    );
}
