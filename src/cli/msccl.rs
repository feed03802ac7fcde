//! `txverify check PROGRAM`: MSCCL XML programs (docs/msccl.md), reached
//! from `check` when the file's text is XML, whatever its name.

use super::OutputFormat;
use super::exit::Exit;
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
