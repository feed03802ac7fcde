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
use txverify_search::schedule::certificate::{self, ScheduleCertificateError, VerifiedSchedule};

/// The JSON schema of `verify-proof --network --format json`.
const VERIFY_SCHEDULE_PROOF_SCHEMA: &str = "txverify-verify-schedule-proof/1";

/// `verify-proof --network NET DIR…` (the first DIR comes in `args.file`).
pub(super) fn verify(args: &VerifyProofArgs, words: &str) -> Exit {
    let graph = match words.parse::<NetworkName>().and_then(|n| n.build()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: `{words}`: {e}");
            if args.format == OutputFormat::Json {
                let value = serde_json::json!({
                    "schema": VERIFY_SCHEDULE_PROOF_SCHEMA,
                    "network": words.trim(),
                    "error": { "message": format!("`{words}`: {e}") },
                    "exit_code": Exit::Input.code(),
                });
                outln!("{value}");
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
    let mut worst = Exit::Ok;
    for dir in &dirs {
        let exit = verify_one(args, words, &graph, dir, several);
        if exit.code() > worst.code() {
            worst = exit;
        }
    }
    worst
}

/// Exit 2 for a file that cannot be read, 1 for a certificate that does not hold.
fn exit_of(e: &ScheduleCertificateError) -> Exit {
    if e.is_io() {
        Exit::Input
    } else {
        Exit::Rejected
    }
}

/// Checks one certificate and reports it.
fn verify_one(
    args: &VerifyProofArgs,
    words: &str,
    graph: &Graph,
    dir: &Path,
    several: bool,
) -> Exit {
    let checked = certificate::verify(graph, dir);
    if args.format == OutputFormat::Json {
        return report_json(words, dir, checked);
    }
    if several {
        outln!("{}:", dir.display());
    }
    match checked {
        Ok(v) => {
            let p = &v.provenance;
            outln!("verified: {}", p.claim);
            outln!(
                "formula: {} variables, {} clauses ({}, regenerated from the network and identical to formula.cnf); proof: {} lemmas, the {} of them the refutation uses checked",
                p.variables,
                p.clauses,
                p.encoding,
                v.report.lemmas,
                v.report.core_lemmas
            );
            if !p.covers_all_schedules {
                outln!(
                    "note: restricted ({}); other schedules are not covered",
                    p.restrictions.join("; ")
                );
            }
            Exit::Ok
        }
        Err(e) => {
            let exit = exit_of(&e);
            if exit == Exit::Rejected {
                outln!("rejected: {e}");
            } else {
                eprintln!("error: {e}");
            }
            exit
        }
    }
}

/// One JSON object per certificate, accepted or not.
fn report_json(
    words: &str,
    dir: &Path,
    checked: Result<VerifiedSchedule, ScheduleCertificateError>,
) -> Exit {
    let (value, exit) = match checked {
        Ok(v) => {
            let p = &v.provenance;
            let value = serde_json::json!({
                "schema": VERIFY_SCHEDULE_PROOF_SCHEMA,
                "network": words.trim(),
                "certificate": dir.display().to_string(),
                "verified": true,
                "time": p.time,
                "claim": p.claim,
                "covers_all_schedules": p.covers_all_schedules,
                "restrictions": p.restrictions,
                "variables": p.variables,
                "clauses": p.clauses,
                "encoding": p.encoding,
                "lemmas": v.report.lemmas,
                "exit_code": Exit::Ok.code(),
            });
            (value, Exit::Ok)
        }
        Err(e) => {
            let exit = exit_of(&e);
            if exit != Exit::Rejected {
                eprintln!("error: {e}");
            }
            let value = serde_json::json!({
                "schema": VERIFY_SCHEDULE_PROOF_SCHEMA,
                "network": words.trim(),
                "certificate": dir.display().to_string(),
                "verified": false,
                "error": { "message": e.to_string() },
                "exit_code": exit.code(),
            });
            (value, exit)
        }
    };
    outln!("{value}");
    exit
}
