//! `txverify verify-proof FILE DIR…`: re-checks infeasibility certificates.
//!
//! Each DIR is either one certificate (it holds `provenance.json`) or the
//! directory a search's `--certificate DIR` wrote: a search writes the
//! certificate of each infeasible T into `DIR/T<t>/`, whether it minimises or
//! runs one `--time`, so the same command checks what either wrote. The
//! certificates of such a directory are checked in order of T, each reported
//! on its own (JSON: one object per line), and the exit status is the worst
//! of theirs. A long check says how far it has read the proof on standard
//! error every few seconds (not with `--quiet`), so that a proof of hundreds
//! of megabytes does not look like a hang. `--network NET` checks the
//! certificates of `search --network` instead ([`super::verify_schedule_proof`]).

use super::OutputFormat;
use super::VerifyProofArgs;
use super::exit::Exit;
use super::search::load_file;
use std::path::{Path, PathBuf};
use txverify_core::kernel::Instance;
use txverify_search as search;
use txverify_search::certificate::ReadProgress;

/// The JSON schema of `verify-proof --format json`.
const VERIFY_PROOF_SCHEMA: &str = "txverify-verify-proof/2";

/// `txverify verify-proof FILE DIR…`.
pub fn verify_proof(args: &VerifyProofArgs) -> Exit {
    if let Some(cnf) = &args.cnf {
        return super::verify_cnf::verify(args, cnf);
    }
    if let Some(network) = &args.network {
        return super::verify_schedule_proof::verify(args, network);
    }
    let (_, loaded) = match load_file(&args.file, args.max_order) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let dirs: Vec<PathBuf> = args
        .certificates
        .iter()
        .flat_map(|d| search::certificate_dirs_in(d))
        .collect();
    if args.lrat.is_some() && dirs.len() > 1 {
        eprintln!(
            "error: --lrat writes one proof: give one certificate directory (found {})",
            dirs.len()
        );
        return Exit::Input;
    }
    let mut worst = Exit::Ok;
    for dir in &dirs {
        let exit = verify_one(args, &loaded.instance, dir);
        if exit.code() > worst.code() {
            worst = exit;
        }
    }
    worst
}

/// Checks one certificate directory and reports it.
fn verify_one(args: &VerifyProofArgs, instance: &Instance, dir: &Path) -> Exit {
    if search::schedule::certificate::is_schedule_certificate(dir) {
        eprintln!(
            "error: {} certifies a schedule search on a network: check it with `verify-proof --network NET {}`",
            dir.display(),
            dir.display()
        );
        return Exit::Input;
    }
    let checked = match &args.lrat {
        Some(path) => search::certificate::verify_writing_lrat(instance, dir, path)
            .map(|(v, steps)| (v, Some((path, steps)))),
        None => search::certificate::verify_reporting(instance, dir, &mut progress(dir))
            .map(|v| (v, None)),
    };
    if args.format == OutputFormat::Json {
        return verify_proof_json(args, dir, checked);
    }
    if args.certificates.len() > 1 || dir != args.certificates[0] {
        outln!("{}:", dir.display());
    }
    match checked {
        Ok((v, lrat)) => {
            outln!("verified: {}", v.provenance.claim);
            let proof = match v.provenance.cubes {
                Some(k) => format!(
                    "{k} cubes that cover every assignment, each refuted by its proof: {} lemmas checked",
                    v.report.lemmas
                ),
                None => format!(
                    "proof: {} lemmas, the {} of them the refutation uses checked",
                    v.report.lemmas, v.report.core_lemmas
                ),
            };
            outln!(
                "formula: {} variables, {} clauses ({}); {proof}",
                v.provenance.variables,
                v.provenance.clauses,
                v.provenance.encoding,
            );
            if let Some((path, steps)) = lrat {
                outln!(
                    "LRAT: {} ({steps} clauses added, checked by the LRAT checker)",
                    path.display()
                );
            }
            if let Some(breaking) = &v.provenance.options.break_symmetry {
                outln!(
                    "symmetry breaking: {} maps, each re-derived from the instance and checked to be a symmetry of the tables (an automorphism of the group permuting the links and fixing the messages, with or without the time reversal)",
                    breaking.maps.len()
                );
            }
            if !v.provenance.options.unrestricted() {
                outln!("note: the class is restricted by a symmetry; other tables are not covered");
            } else if !v.provenance.options.covers_all_tables() {
                outln!(
                    "note: the class is limited in word length (not --any-length); tables with longer words are not covered"
                );
            }
            Exit::Ok
        }
        Err(e) => {
            let exit = Exit::of_certificate_error(&e);
            if exit == Exit::Rejected {
                outln!("rejected: {e}");
            } else {
                // A file that cannot be read or written: a problem with a path, not a
                // verdict on the certificate.
                eprintln!("error: {e}");
            }
            exit
        }
    }
}

/// What `verify-proof` found, and the LRAT file it wrote with its added clauses.
type ProofCheck<'a> = Result<
    (
        search::certificate::Verified,
        Option<(&'a std::path::PathBuf, usize)>,
    ),
    search::certificate::CertificateError,
>;

/// `verify-proof --format json`: one object per certificate, accepted or not.
fn verify_proof_json(args: &VerifyProofArgs, dir: &Path, checked: ProofCheck<'_>) -> Exit {
    let file = args.file.display().to_string();
    let certificate = dir.display().to_string();
    let (value, exit) = match checked {
        Ok((v, lrat)) => {
            let p = &v.provenance;
            let value = serde_json::json!({
                "schema": VERIFY_PROOF_SCHEMA,
                "file": file,
                "certificate": certificate,
                "verified": true,
                "claim": p.claim,
                "covers_all_tables": p.options.covers_all_tables(),
                "variables": p.variables,
                "clauses": p.clauses,
                "encoding": p.encoding,
                "lemmas": v.report.lemmas,
                "lrat": lrat.map(|(path, steps)| serde_json::json!({
                    "path": path.display().to_string(),
                    "clauses_added": steps,
                })),
                "exit_code": Exit::Ok.code(),
            });
            (value, Exit::Ok)
        }
        Err(e) => {
            let exit = Exit::of_certificate_error(&e);
            if exit != Exit::Rejected {
                eprintln!("error: {e}");
            }
            let value = serde_json::json!({
                "schema": VERIFY_PROOF_SCHEMA,
                "file": file,
                "certificate": certificate,
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

/// Seconds between two progress lines.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// The progress report of a long proof check: a line on standard error every
/// few seconds (how much of the proof is read, the proof being read once,
/// front to back), nothing before the first interval ends, nothing with
/// `--quiet`.
fn progress(dir: &Path) -> impl FnMut(ReadProgress) + '_ {
    let start = std::time::Instant::now();
    let mut last = start;
    move |p: ReadProgress| {
        if super::global::quiet() || last.elapsed() < PROGRESS_EVERY {
            return;
        }
        last = std::time::Instant::now();
        let mb = |bytes: u64| bytes as f64 / 1e6;
        let percent = if p.total == 0 {
            100.0
        } else {
            100.0 * p.read as f64 / p.total as f64
        };
        eprintln!(
            "verify-proof: {}: {:.1} of {:.1} MB of the proof checked ({percent:.0} %), {} s",
            dir.display(),
            mb(p.read),
            mb(p.total),
            start.elapsed().as_secs()
        );
    }
}
