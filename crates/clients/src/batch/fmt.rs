//! `fmt`: a table file in canonical form, and `fmt --check` over files and
//! the `*.tbl` files of directories, listing those whose text is not that
//! form, so a CI or a pre-commit hook can keep a collection formatted.

use super::walk::{self, Entry, plural};
use crate::report::single::Emit;
use crate::shared::failure::{Status, read_text};
use std::path::{Path, PathBuf};

/// A file's text and its canonical form, or the diagnostic to show (whole
/// lines, for standard error; exit status 2).
pub fn formatted(path: &Path) -> Result<(String, String), String> {
    let shown = path.display().to_string();
    let source = read_text(path).map_err(|e| format!("error: cannot read {shown}: {e}\n"))?;
    match txverify_core::format::parse(&source) {
        Ok(file) => {
            let printed = txverify_core::format::print_keeping_comments(&source, &file);
            Ok((source, printed))
        }
        Err(e) => Err(txverify_core::format::render_error(&shown, &source, &e)),
    }
}

/// How `fmt --check` ended: the worst status (1 when a file is not
/// formatted, 2 when one cannot be read or parsed) and its summary line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FmtChecked {
    /// The worst of the files'.
    pub status: Status,
    /// `U of N files not formatted …`, for standard error.
    pub summary: String,
}

/// `fmt --check`: each file that is not formatted, one line each for
/// standard output, and each file that cannot be read or parsed, for
/// standard error, handed to `emit` as they are found.
pub fn check_formatted(paths: &[PathBuf], mut emit: impl FnMut(Emit)) -> FmtChecked {
    let collected = walk::collect(paths);
    let mut status = Status::Ok;
    let (mut files, mut unformatted) = (0, 0);
    for entry in &collected.entries {
        match entry {
            Entry::Error { message, .. } => {
                emit(Emit::Err(format!("error: {message}\n")));
                status = status.max(Status::Input);
            }
            Entry::File(path) => {
                files += 1;
                match formatted(path) {
                    Ok((source, printed)) if source != printed => {
                        emit(Emit::Out(format!("{}\n", path.display())));
                        unformatted += 1;
                        status = status.max(Status::Rejected);
                    }
                    Ok(_) => {}
                    Err(message) => {
                        emit(Emit::Err(message));
                        status = status.max(Status::Input);
                    }
                }
            }
        }
    }
    let mut summary = format!(
        "{unformatted} of {files} file{} not formatted",
        plural(files)
    );
    if unformatted > 0 {
        summary.push_str(" (`txverify fmt FILE` prints the formatted text)");
    }
    if let Some(note) = collected.skipped_note() {
        summary.push_str(&format!("; {note}"));
    }
    FmtChecked { status, summary }
}
