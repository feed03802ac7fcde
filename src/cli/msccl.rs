//! `txverify check PROGRAM`: MSCCL XML programs (docs/msccl.md), reached
//! from `check` when the file's text is XML, whatever its name.

use super::OutputFormat;
use super::exit::Exit;
use txverify_clients::msccl::{self, report};
use txverify_clients::timed::TimingRequest;
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
    timing: &TimingRequest<'_>,
) -> Checked {
    let checked = match msccl::check_asked(source, network, timing) {
        Ok(checked) => checked,
        Err(e) => {
            let (exit, out, err) = (Exit::Input, String::new(), format!("error: {e}\n"));
            return Checked { exit, out, err };
        }
    };
    match checked {
        Ok((check, timed)) => {
            let exit = exit_of(&check);
            let out = match format {
                OutputFormat::Text => report::text_timed(shown, &check, timed.as_ref()),
                OutputFormat::Json => {
                    let json = report::json_timed(shown, &check, exit.code(), timed.as_ref());
                    format!("{json}\n")
                }
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
