//! `txverify verify-proof --network NET [--collective X [--chunks C]] DIR…`:
//! re-checks the certificates of `search --network` (no T steps suffice for
//! the collective on NET, a total exchange by default).
//!
//! The graph is built from NET, not read from the certificate; the formula is
//! regenerated from it and the recorded collective, chunks, ports, T and path
//! class and compared byte for byte with `formula.cnf`; the proof is checked
//! by the proof checker (`txverify_search::schedule::certificate::verify`, one
//! check for every collective). Directories are taken
//! as for table certificates: one certificate, or the `T<t>/` certificates a
//! search wrote, in order of t; the exit status is the worst of theirs.

use super::exit::Exit;
use super::{OutputFormat, VerifyProofArgs};
use std::path::{Path, PathBuf};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::parse_collective;
use txverify_search::proof_report::{
    ScheduleProofReport, ScheduleProofUnbuilt, collective_proof_json, schedule_proof_text,
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

/// Checks one certificate, of any collective, and reports it (a collective
/// other than the total exchange in its own JSON schema).
fn verify_one(
    args: &VerifyProofArgs,
    words: &str,
    graph: &Graph,
    dir: &Path,
    several: bool,
) -> Exit {
    let json = args.format == OutputFormat::Json;
    let asked = args
        .collective
        .as_deref()
        .map(|name| parse_collective(name, args.chunks.as_deref()))
        .transpose();
    let asked = match asked {
        Ok(c) => c,
        Err(e) => {
            let message = format!("--collective: {e}");
            errorln!("{message}");
            if json {
                let v = serde_json::json!({"network": words, "error": {"message": message}, "exit_code": 2});
                outln!("{v}");
            }
            return Exit::Input;
        }
    };
    let collective_schema = asked.is_some() || certificate::is_collective_certificate(dir);
    let checked = certificate::verify(graph, dir, asked);
    let exit = match &checked {
        Ok(_) => Exit::Ok,
        Err(e) => Exit::of_schedule_certificate_error(e),
    };
    if let Err(e) = &checked
        && exit != Exit::Rejected
    {
        errorln!("{e}");
    }
    if json && collective_schema {
        outln!(
            "{}",
            collective_proof_json(words, dir, &checked, exit.code())
        );
        return exit;
    } else if json {
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
