//! `txverify fmt`: a table file printed back in canonical form, and `fmt --check`,
//! which lists the files (and the `*.tbl` files of directories) whose text is not
//! that form, so a CI or a pre-commit hook can keep a collection formatted.

use super::super::FmtArgs;
use super::super::exit::Exit;
use super::walk::{self, Entry, plural};
use std::path::Path;

pub fn run(args: &FmtArgs) -> Exit {
    if args.check {
        return check(&args.files);
    }
    let [path] = args.files.as_slice() else {
        errorln!(
            "fmt prints one file ({} given); `fmt --check` takes several",
            args.files.len()
        );
        return Exit::Input;
    };
    match formatted(path) {
        Ok((_, printed)) => {
            out!("{printed}");
            Exit::Ok
        }
        Err(message) => {
            eprint!("{message}");
            Exit::Input
        }
    }
}

/// A file's text and its canonical form, or the error to print (exit status 2).
fn formatted(path: &Path) -> Result<(String, String), String> {
    let shown = path.display().to_string();
    let source =
        super::super::read_text(path).map_err(|e| format!("error: cannot read {shown}: {e}\n"))?;
    match txverify_core::format::parse(&source) {
        Ok(file) => {
            let printed = txverify_core::format::print_keeping_comments(&source, &file);
            Ok((source, printed))
        }
        Err(e) => Err(txverify_core::format::render_error(&shown, &source, &e)),
    }
}

/// `fmt --check`: the files that are not formatted, one per line; exit 1 if there is
/// one, 2 if a file cannot be read or parsed (the worst wins).
fn check(paths: &[std::path::PathBuf]) -> Exit {
    let collected = walk::collect(paths);
    let mut worst = Exit::Ok;
    let (mut files, mut unformatted) = (0, 0);
    for entry in &collected.entries {
        match entry {
            Entry::Error { message, .. } => {
                errorln!("{message}");
                worst = worst.max(Exit::Input);
            }
            Entry::File(path) => {
                files += 1;
                match formatted(path) {
                    Ok((source, printed)) if source != printed => {
                        outln!("{}", path.display());
                        unformatted += 1;
                        worst = worst.max(Exit::Rejected);
                    }
                    Ok(_) => {}
                    Err(message) => {
                        eprint!("{message}");
                        worst = worst.max(Exit::Input);
                    }
                }
            }
        }
    }
    if !super::super::global::quiet() {
        let mut line = format!(
            "{unformatted} of {files} file{} not formatted",
            plural(files)
        );
        if unformatted > 0 {
            line.push_str(" (`txverify fmt FILE` prints the formatted text)");
        }
        if let Some(note) = collected.skipped_note() {
            line.push_str(&format!("; {note}"));
        }
        eprintln!("{line}");
    }
    worst
}
