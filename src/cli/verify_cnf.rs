//! `txverify verify-proof --cnf F.cnf PROOF`: checks any DRAT or LRAT proof
//! against any DIMACS formula, answering as drat-trim does; the check and its
//! report are [`txverify_clients::report::proof`]'s.
//!
//! Standard output gets `c` lines (statistics, or where and why the proof
//! fails) and one `s VERIFIED` (exit 0) or `s NOT VERIFIED` (exit 1) line; a
//! formula or proof that cannot be read is an error with its file, line and
//! column (exit 2), never a verdict. Progress goes to standard error every
//! few seconds on long checks, not with `--quiet`.

use super::exit::Exit;
use super::{OutputFormat, ProofFormatArg, VerifyProofArgs};
use std::path::Path;
use std::time::{Duration, Instant};
use txverify_clients::report::proof::{CnfProofRequest, ProofFormat, check_cnf_proof};

/// Seconds between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// `txverify verify-proof --cnf FORMULA PROOF`.
pub(super) fn verify(args: &VerifyProofArgs, cnf: &Path) -> Exit {
    let request = CnfProofRequest {
        cnf,
        proof: &args.file,
        format: args.proof_format.map(|format| match format {
            ProofFormatArg::Drat => ProofFormat::Drat,
            ProofFormatArg::Lrat => ProofFormat::Lrat,
        }),
        lrat_out: args.lrat_out.as_deref(),
    };
    let (start, mut last) = (Instant::now(), Instant::now());
    let quiet = super::global::quiet();
    let mut progress = |line: &dyn Fn() -> String| {
        if quiet || last.elapsed() < PROGRESS_EVERY {
            return;
        }
        last = Instant::now();
        let seconds = start.elapsed().as_secs();
        eprintln!("verify-proof: {}, {seconds} s", line());
    };
    let report = match check_cnf_proof(&request, &mut progress) {
        Ok(report) => report,
        Err(failure) => return super::output::failure(&failure, None),
    };
    if let Some(message) = report.unreadable() {
        errorln!("{message}");
    }
    match args.format {
        OutputFormat::Json => super::output::json(&report),
        OutputFormat::Text => out!("{}", report.text()),
    }
    Exit::from(report.status())
}
