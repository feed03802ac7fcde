//! The files a list of paths names: files as given, directories walked for `*.tbl`.
//!
//! `check` and `fmt --check` take directories so that a CI step can name a whole
//! collection (`txverify check tables/`). The walk is recursive and deterministic
//! (entries sorted by name), follows symbolic links but walks a directory once even
//! when links lead to it again (so a link loop ends), leaves out hidden entries
//! (names starting with `.`), and never skips a file silently: every file it does
//! not take is counted with its reason, and a directory without a `.tbl` file is an
//! error, not an empty success.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One thing to report on, in the order the paths named it.
pub enum Entry {
    /// A file to check (named on the command line, or a `.tbl` file in a directory).
    File(PathBuf),
    /// A path that cannot be read, or a directory with nothing to check.
    Error {
        /// The path.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// Everything the paths name.
#[derive(Default)]
pub struct Collected {
    /// Files and errors, in order.
    pub entries: Vec<Entry>,
    /// Files in walked directories that are not `.tbl` files.
    pub not_tables: usize,
    /// Directories reached a second time through a symbolic link (walked once).
    pub revisited: usize,
}

impl Collected {
    /// The summary's note on what was not checked, if anything was left out.
    pub fn skipped_note(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.not_tables > 0 {
            parts.push(format!(
                "{} file{} skipped: neither a table (.tbl) nor an MSCCL program (.xml); `txverify simulate FILE` replays a schedule file",
                self.not_tables,
                plural(self.not_tables)
            ));
        }
        if self.revisited > 0 {
            parts.push(format!(
                "{} director{} reached again through a symbolic link, walked once",
                self.revisited,
                if self.revisited == 1 { "y" } else { "ies" }
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// `"s"` unless `n` is 1.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Collects the files `paths` name: a file as given (whatever its name), a directory
/// walked for `*.tbl` files.
pub fn collect(paths: &[PathBuf]) -> Collected {
    let mut collected = Collected::default();
    let mut visited = HashSet::new();
    for path in paths {
        match std::fs::metadata(path) {
            Err(e) => collected.entries.push(Entry::Error {
                path: path.clone(),
                message: format!("cannot read {}: {e}", path.display()),
            }),
            Ok(meta) if meta.is_dir() => {
                let before = collected.entries.len();
                walk(path, &mut visited, &mut collected);
                let found = collected.entries[before..]
                    .iter()
                    .any(|e| matches!(e, Entry::File(_)));
                if !found {
                    collected.entries.push(Entry::Error {
                        path: path.clone(),
                        message:
                            "no table (.tbl) or MSCCL program (.xml) in this directory or below it"
                                .to_string(),
                    });
                }
            }
            Ok(_) => collected.entries.push(Entry::File(path.clone())),
        }
    }
    collected
}

/// Walks one directory (once), in name order.
fn walk(dir: &Path, visited: &mut HashSet<PathBuf>, collected: &mut Collected) {
    let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !visited.insert(key) {
        collected.revisited += 1;
        return;
    }
    let read = std::fs::read_dir(dir).and_then(|it| it.collect::<Result<Vec<_>, _>>());
    let mut children = match read {
        Ok(children) => children,
        Err(e) => {
            collected.entries.push(Entry::Error {
                path: dir.to_path_buf(),
                message: format!("cannot read {}: {e}", dir.display()),
            });
            return;
        }
    };
    children.sort_by_key(|c| c.file_name());
    for child in children {
        if child.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = child.path();
        match std::fs::metadata(&path) {
            Err(e) => collected.entries.push(Entry::Error {
                message: format!("cannot read {}: {e}", path.display()),
                path,
            }),
            Ok(meta) if meta.is_dir() => walk(&path, visited, collected),
            Ok(_) if path.extension().is_some_and(|e| e == "tbl" || e == "xml") => {
                collected.entries.push(Entry::File(path));
            }
            Ok(_) => collected.not_tables += 1,
        }
    }
}
