//! A table search killed while its solver writes a proof (SIGTERM, which
//! stops it as its limit does, is `anytime_limits.rs`): a SIGKILL, which no
//! program can handle, leaves a T-folder without `provenance.json` and its
//! proof under a partial name, and `verify-proof` names that folder.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Pancake 5 at its bound 107 is undecided: the solver is still writing when
/// the signal comes.
const PANCAKE: &str = "campaign/networks/pancake5.tbl";

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("txverify-stopped-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Starts the minimisation with certificates into `dir`, and waits until its
/// solver writes the proof of T=107 (at most a minute).
fn start_solving(dir: &Path) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(["search", PANCAKE, "--max-time", "107", "--certificate"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let writing = || files(dir).iter().any(|f| f.contains("proof"));
    for _ in 0..600 {
        if writing() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child
}

fn signal(child: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Every file under `dir`, with its path from `dir`.
fn files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(
                files(&path)
                    .into_iter()
                    .map(|f| format!("{}/{f}", entry.file_name().to_string_lossy())),
            );
        } else {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

#[test]
fn verify_proof_names_the_folder_a_killed_search_left_incomplete() {
    let dir = fresh_dir("kill");
    let mut child = start_solving(&dir);
    signal(&child, "-KILL");
    child.wait().unwrap();
    let left = files(&dir);
    // Nothing under a final proof name: the proof is still under its partial one.
    assert!(
        left.iter()
            .all(|f| !f.ends_with("proof.lrat") && !f.ends_with("proof.drat")),
        "{left:?}"
    );
    let run = crate::common::cli::txverify(&["verify-proof", PANCAKE, dir.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let folder = dir.join("T107");
    assert!(
        run.stderr.contains(&folder.display().to_string()),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
