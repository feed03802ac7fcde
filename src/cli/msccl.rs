//! `txverify check PROGRAM.xml`: MSCCL XML programs (docs/msccl.md), reached
//! from `check` through one dispatch hook.

use super::OutputFormat;
use super::exit::Exit;
use std::path::Path;
use txverify_clients::msccl::{self, report};
use txverify_core::network::Graph;

/// What checking one file gives: its status, what goes to standard output,
/// and what goes to standard error.
pub struct Checked {
    /// The file's exit status.
    pub exit: Exit,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

/// Checks `path` as an MSCCL program if it is a `.xml` file (its root must be
/// `<algo>`). `None` leaves the file to the table checker.
pub fn check_path(path: &Path, format: OutputFormat, network: Option<&Graph>) -> Option<Checked> {
    let is_xml = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"));
    if !is_xml {
        return None;
    }
    // Tables are never `.xml`: any XML file is read as an MSCCL program, so
    // that another root element gets a message about XML, not about tables.
    let source = super::read_text(path).ok()?;
    Some(check_source(
        &path.display().to_string(),
        &source,
        format,
        network,
    ))
}

/// A program's exit status ([`Exit::of_msccl`]).
pub fn exit_of(check: &msccl::Check) -> Exit {
    Exit::of_msccl(check.verdict())
}

/// Checks the MSCCL program `source`, shown as `shown`, on `network` if given.
pub fn check_source(
    shown: &str,
    source: &str,
    format: OutputFormat,
    network: Option<&Graph>,
) -> Checked {
    match msccl::check_on(source, network) {
        Ok(check) => {
            let exit = exit_of(&check);
            let out = match format {
                OutputFormat::Text => report::text(shown, &check),
                OutputFormat::Json => format!("{}\n", report::json(shown, &check, exit.code())),
            };
            Checked {
                exit,
                out,
                err: String::new(),
            }
        }
        Err(e) => {
            let exit = Exit::Input;
            match format {
                OutputFormat::Text => Checked {
                    exit,
                    out: String::new(),
                    err: format!(
                        "error: {shown}:{}:{}: {}\n",
                        e.pos.line, e.pos.col, e.message
                    ),
                },
                OutputFormat::Json => Checked {
                    exit,
                    out: format!(
                        "{}\n",
                        report::json_unreadable(
                            shown,
                            e.pos.line,
                            e.pos.col,
                            &e.message,
                            exit.code()
                        )
                    ),
                    err: String::new(),
                },
            }
        }
    }
}
