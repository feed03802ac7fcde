//! What `verify-proof` reports for each certificate it checks, typed: the JSON
//! objects of `txverify-verify-proof/2` (table certificates) and
//! `txverify-verify-schedule-proof/1` (total-exchange certificates of `search
//! --network`) and `txverify-verify-collective-proof/1` (those of the other
//! collectives), in docs/json.md, and the lines of the text report.
//!
//! The check itself is [`certificate::verify`] or
//! [`schedule::certificate::verify`](crate::schedule::certificate::verify);
//! this module only words its result. The exit status is the caller's: it is
//! given in, as `exit_code`, so that one place of the command line sets every
//! status.

use crate::certificate::{self, CertificateError, Verified};
use crate::schedule::certificate::{ScheduleCertificateError, VerifiedSchedule};
use serde::Serialize;
use std::path::Path;

/// The JSON schema of `verify-proof --format json`.
pub const VERIFY_PROOF_SCHEMA: &str = "txverify-verify-proof/2";

/// The JSON schema of `verify-proof --network --format json`.
pub const VERIFY_SCHEDULE_PROOF_SCHEMA: &str = "txverify-verify-schedule-proof/1";

/// The JSON schema of `verify-proof --network --format json` for a
/// certificate of another collective than the total exchange.
pub const VERIFY_COLLECTIVE_PROOF_SCHEMA: &str = "txverify-verify-collective-proof/1";

/// Why a certificate was not accepted, as the reports show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorMessage {
    /// The message.
    pub message: String,
}

/// The LRAT proof `verify-proof --lrat` wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LratWritten {
    /// Where.
    pub path: String,
    /// The clauses it adds (checked again after writing).
    pub clauses_added: usize,
}

/// What a table certificate's check found: the verified certificate, and the
/// LRAT proof written from it (path and clauses added), or why it was refused.
pub type TableProofCheck<'a> = Result<(Verified, Option<(&'a Path, usize)>), CertificateError>;

/// A table certificate that was checked, for the JSON report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableProofAccepted {
    /// What the certificate proves, in words.
    pub claim: String,
    /// The certificate speaks about every table.
    pub covers_all_tables: bool,
    /// Variables of the formula.
    pub variables: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// The encoding's name and version.
    pub encoding: String,
    /// Lemmas of the proof.
    pub lemmas: usize,
    /// The LRAT proof written, if one was asked for.
    pub lrat: Option<LratWritten>,
}

/// What a table certificate's check found, as JSON: accepted or not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum TableProofOutcome {
    /// The certificate was checked.
    Accepted(TableProofAccepted),
    /// It was not accepted.
    Refused {
        /// Why.
        error: ErrorMessage,
    },
}

/// One object of `txverify-verify-proof/2`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableProofReport {
    /// [`VERIFY_PROOF_SCHEMA`].
    pub schema: &'static str,
    /// The `.tbl` file as given.
    pub file: String,
    /// The certificate directory as given.
    pub certificate: String,
    /// The certificate was accepted.
    pub verified: bool,
    /// What was found.
    #[serde(flatten)]
    pub outcome: TableProofOutcome,
    /// The exit status of this certificate.
    pub exit_code: u8,
}

impl TableProofReport {
    /// The report on `checked`, the check of the certificate `dir` of `file`.
    pub fn new(file: &Path, dir: &Path, checked: &TableProofCheck<'_>, exit_code: u8) -> Self {
        let outcome = match checked {
            Ok((v, lrat)) => {
                let p = &v.provenance;
                TableProofOutcome::Accepted(TableProofAccepted {
                    claim: p.claim.clone(),
                    covers_all_tables: p.options.covers_all_tables(),
                    variables: p.variables,
                    clauses: p.clauses,
                    encoding: p.encoding.clone(),
                    lemmas: v.report.lemmas,
                    lrat: lrat.map(|(path, steps)| LratWritten {
                        path: path.display().to_string(),
                        clauses_added: steps,
                    }),
                })
            }
            Err(e) => TableProofOutcome::Refused {
                error: ErrorMessage {
                    message: e.to_string(),
                },
            },
        };
        TableProofReport {
            schema: VERIFY_PROOF_SCHEMA,
            file: file.display().to_string(),
            certificate: dir.display().to_string(),
            verified: checked.is_ok(),
            outcome,
            exit_code,
        }
    }
}

/// The text report of a table certificate that was checked, one line each:
/// what it proves, the formula and the proof, the LRAT proof written, the
/// symmetry breaking it relies on, and what it does not cover.
pub fn table_proof_text(verified: &Verified, lrat: Option<(&Path, usize)>) -> Vec<String> {
    let p = &verified.provenance;
    let mut lines = vec![format!("verified: {}", p.claim)];
    let proof = match p.cubes {
        Some(k) => format!(
            "{k} cubes that cover every assignment, each refuted by its proof: {} lemmas checked",
            verified.report.lemmas
        ),
        None => format!(
            "proof: {} lemmas, the {} of them the refutation uses checked",
            verified.report.lemmas, verified.report.core_lemmas
        ),
    };
    lines.push(format!(
        "formula: {} variables, {} clauses ({}); {proof}",
        p.variables, p.clauses, p.encoding,
    ));
    if let Some((path, steps)) = lrat {
        lines.push(format!(
            "LRAT: {} ({steps} clauses added, checked by the LRAT checker)",
            path.display()
        ));
    }
    if let Some(breaking) = &p.options.break_symmetry {
        lines.push(format!(
            "symmetry breaking: {} maps, each re-derived from the instance and checked to be a symmetry of the tables (an automorphism of the group permuting the links and fixing the messages, with or without the time reversal)",
            breaking.maps.len()
        ));
    }
    if !p.options.unrestricted() {
        lines.push(
            "note: the class is restricted by a symmetry; other tables are not covered".to_string(),
        );
    } else if !p.options.covers_all_tables() {
        lines.push(
            "note: the class is limited in word length (not --any-length); tables with longer words are not covered".to_string(),
        );
    }
    lines
}

/// A schedule certificate that was checked, for the JSON report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScheduleProofAccepted {
    /// The number of steps refuted.
    pub time: usize,
    /// What the certificate proves.
    pub claim: String,
    /// The certificate was made with any paths.
    pub covers_all_schedules: bool,
    /// What the claim is limited to.
    pub restrictions: Vec<String>,
    /// Variables of the formula.
    pub variables: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// The encoding's name and version.
    pub encoding: String,
    /// Lemmas of the proof.
    pub lemmas: usize,
}

/// What a schedule certificate's check found, as JSON: accepted or not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ScheduleProofOutcome {
    /// The certificate was checked.
    Accepted(ScheduleProofAccepted),
    /// It was not accepted.
    Refused {
        /// Why.
        error: ErrorMessage,
    },
}

/// One object of `txverify-verify-schedule-proof/1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScheduleProofReport {
    /// [`VERIFY_SCHEDULE_PROOF_SCHEMA`].
    pub schema: &'static str,
    /// The network as given.
    pub network: String,
    /// The certificate directory.
    pub certificate: String,
    /// The certificate was accepted.
    pub verified: bool,
    /// What was found.
    #[serde(flatten)]
    pub outcome: ScheduleProofOutcome,
    /// The exit status of this certificate.
    pub exit_code: u8,
}

impl ScheduleProofReport {
    /// The report on `checked`, the check of the certificate `dir` for the
    /// network named `words`.
    pub fn new(
        words: &str,
        dir: &Path,
        checked: &Result<VerifiedSchedule, ScheduleCertificateError>,
        exit_code: u8,
    ) -> Self {
        let outcome = match checked {
            Ok(v) => {
                let p = &v.provenance;
                ScheduleProofOutcome::Accepted(ScheduleProofAccepted {
                    time: p.time,
                    claim: p.claim.clone(),
                    covers_all_schedules: p.covers_all_schedules,
                    restrictions: p.restrictions.clone(),
                    variables: p.variables,
                    clauses: p.clauses,
                    encoding: p.encoding.clone(),
                    lemmas: v.report.lemmas,
                })
            }
            Err(e) => ScheduleProofOutcome::Refused {
                error: ErrorMessage {
                    message: e.to_string(),
                },
            },
        };
        ScheduleProofReport {
            schema: VERIFY_SCHEDULE_PROOF_SCHEMA,
            network: words.trim().to_string(),
            certificate: dir.display().to_string(),
            verified: checked.is_ok(),
            outcome,
            exit_code,
        }
    }
}

/// The JSON object of `verify-proof --network` when the network cannot be
/// built: nothing was checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScheduleProofUnbuilt {
    /// [`VERIFY_SCHEDULE_PROOF_SCHEMA`].
    pub schema: &'static str,
    /// The network as given.
    pub network: String,
    /// Why it cannot be built.
    pub error: ErrorMessage,
    /// The exit status.
    pub exit_code: u8,
}

impl ScheduleProofUnbuilt {
    /// The report for the network named `words`, refused with `message`.
    pub fn new(words: &str, message: String, exit_code: u8) -> Self {
        ScheduleProofUnbuilt {
            schema: VERIFY_SCHEDULE_PROOF_SCHEMA,
            network: words.trim().to_string(),
            error: ErrorMessage { message },
            exit_code,
        }
    }
}

/// The text report of a schedule certificate that was checked.
pub fn schedule_proof_text(verified: &VerifiedSchedule) -> Vec<String> {
    let p = &verified.provenance;
    if !verified.is_total_exchange() {
        return collective_proof_text(verified).to_vec();
    }
    if !verified.is_total_exchange() {
        return collective_proof_text(verified).to_vec();
    }
    let mut lines = vec![
        format!("verified: {}", p.claim),
        format!(
            "formula: {} variables, {} clauses ({}, regenerated from the network and identical to formula.cnf); proof: {} lemmas, the {} of them the refutation uses checked",
            p.variables, p.clauses, p.encoding, verified.report.lemmas, verified.report.core_lemmas
        ),
    ];
    if !p.covers_all_schedules {
        lines.push(format!(
            "note: restricted ({}); other schedules are not covered",
            p.restrictions.join("; ")
        ));
    }
    lines
}

/// The text report of a certificate of another collective than the total
/// exchange that was checked: the claim, and what was checked.
pub fn collective_proof_text(verified: &VerifiedSchedule) -> [String; 2] {
    let p = &verified.provenance;
    [
        format!("verified: {}", p.claim),
        format!(
            "  formula regenerated ({} variables, {} clauses), {} checked",
            p.variables, p.clauses, p.proof
        ),
    ]
}

/// The JSON report of the check of a certificate of another collective than
/// the total exchange ([`VERIFY_COLLECTIVE_PROOF_SCHEMA`], docs/json.md).
pub fn collective_proof_json(
    network: &str,
    dir: &Path,
    checked: &Result<VerifiedSchedule, ScheduleCertificateError>,
    exit_code: u8,
) -> serde_json::Value {
    serde_json::json!({
        "schema": VERIFY_COLLECTIVE_PROOF_SCHEMA,
        "network": network,
        "certificate": dir.display().to_string(),
        "verified": checked.is_ok(),
        "claim": checked.as_ref().ok().map(|c| c.provenance.claim.clone()),
        "time": checked.as_ref().ok().map(|c| c.provenance.time),
        "error": checked.as_ref().err().map(|e| e.to_string()),
        "exit_code": exit_code,
    })
}

/// Checks the table certificate `dir`, writing its proof as LRAT to `lrat`
/// when given, telling `progress` how far the check has read.
pub fn check_table_certificate<'a>(
    instance: &txverify_core::kernel::Instance,
    dir: &Path,
    lrat: Option<&'a Path>,
    progress: &mut dyn FnMut(certificate::ReadProgress),
) -> TableProofCheck<'a> {
    match lrat {
        Some(path) => certificate::verify_writing_lrat(instance, dir, path)
            .map(|(v, steps)| (v, Some((path, steps)))),
        None => certificate::verify_reporting(instance, dir, progress).map(|v| (v, None)),
    }
}
