//! `txverify check PROGRAM`: MSCCL XML programs (docs/msccl.md), reached
//! from `check` when the file's text is XML, whatever its name.

use super::OutputFormat;
use super::exit::Exit;
use txverify_clients::msccl::report;
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

/// Checks the MSCCL program `source`, shown as `shown`, on `network` if given
/// (and timed there when `timing` asks).
pub fn check_source(
    shown: &str,
    source: &str,
    format: OutputFormat,
    network: Option<&Graph>,
    timing: &TimingRequest<'_>,
) -> Checked {
    let json = format == OutputFormat::Json;
    let r = report::render(shown, source, json, network, timing);
    let exit = Exit::from(r.status);
    Checked {
        exit,
        out: r.out,
        err: r.err,
    }
}
