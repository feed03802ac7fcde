//! `txverify verify-proof --network NET DIR…`: re-checks the certificates of
//! `search --network` (no T steps suffice for a total exchange on NET).
//!
//! The graph is built from NET, not read from the certificate; the formula is
//! regenerated from it and the recorded T and path class and compared byte for
//! byte with `formula.cnf`; the DRAT proof is checked by the proof checker
//! (`txverify_search::schedule::certificate::verify`). Directories are taken
//! as for table certificates: one certificate, or the `T<t>/` certificates a
//! search wrote, in order of t; the exit status is the worst of theirs.

use super::exit::Exit;
use super::{OutputFormat, VerifyProofArgs};
use std::path::{Path, PathBuf};
use txverify_core::network::{Graph, NetworkName};
use txverify_search::proof_report::{
    ScheduleProofReport, ScheduleProofUnbuilt, schedule_proof_text,
};
use txverify_search::schedule::certificate;

/// `verify-proof --network NET DIR…` (the first DIR comes in `args.file`).
pub(super) fn verify(args: &VerifyProofArgs, words: &str) -> Exit {
    let graph = match words.parse::<NetworkName>().and_then(|n| n.build()) {
        Ok(g) => g,
        Err(e) => {
            let message = format!("`{}`: {e}", txverify_core::format::echoed(words));
            errorln!("{message}");
            if args.format == OutputFormat::Json {
                let report = ScheduleProofUnbuilt::new(words, message, Exit::Input.code());
                outln!("{}", serde_json::to_string(&report).unwrap_or_default());
            }
            return Exit::Input;
        }
    };
    let given: Vec<&PathBuf> = std::iter::once(&args.file)
        .chain(&args.certificates)
        .collect();
    let dirs: Vec<PathBuf> = given
        .iter()
        .flat_map(|d| txverify_search::certificate_dirs_in(d))
        .collect();
    let several = dirs.len() > 1;
    let given: Vec<PathBuf> = given.into_iter().cloned().collect();
    let mut worst = incomplete_certificates(&given);
    for dir in &dirs {
        let exit = verify_one(args, words, &graph, dir, several);
        if exit.code() > worst.code() {
            worst = exit;
        }
    }
    worst
}

/// Names each `T<t>/` folder of `dirs` that holds no certificate (a search
/// stopped or killed before writing it) on standard error: exit 2 when there
/// is one, else 0.
pub(super) fn incomplete_certificates(dirs: &[PathBuf]) -> Exit {
    let mut exit = Exit::Ok;
    for incomplete in dirs
        .iter()
        .flat_map(|d| txverify_search::incomplete_certificate_dirs(d))
    {
        eprintln!("error: {incomplete}");
        exit = Exit::Input;
    }
    exit
}

/// Checks one certificate and reports it.
fn verify_one(
    args: &VerifyProofArgs,
    words: &str,
    graph: &Graph,
    dir: &Path,
    several: bool,
) -> Exit {
    if args.collective.is_some()
        || txverify_search::schedule::collective_certificate::is_collective_certificate(dir)
    {
        return super::verify_collective_proof::verify_one(args, words, graph, dir, several);
    }
    let checked = certificate::verify(graph, dir);
    let exit = match &checked {
        Ok(_) => Exit::Ok,
        Err(e) => Exit::of_schedule_certificate_error(e),
    };
    if let Err(e) = &checked
        && exit != Exit::Rejected
    {
        errorln!("{e}");
    }
    if args.format == OutputFormat::Json {
        let report = ScheduleProofReport::new(words, dir, &checked, exit.code());
        outln!("{}", serde_json::to_string(&report).unwrap_or_default());
        return exit;
    }
    if several {
        outln!("{}:", dir.display());
    }
    match &checked {
        Ok(verified) => {
            for line in schedule_proof_text(verified) {
                outln!("{line}");
            }
        }
        Err(e) if exit == Exit::Rejected => outln!("rejected: {e}"),
        Err(_) => {}
    }
    exit
}
