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
use txverify_search::proof_report::{TableProofReport, check_table_certificate, table_proof_text};

/// `txverify verify-proof FILE DIR…`.
pub fn verify_proof(args: &VerifyProofArgs) -> Exit {
    if let Some(cnf) = &args.cnf {
        return super::verify_cnf::verify(args, cnf);
    }
    if let Some(network) = &args.network {
        return match network.name() {
            Ok(name) => super::verify_schedule_proof::verify(args, &name.to_string()),
            Err(e) => {
                errorln!("--network {e}");
                Exit::Input
            }
        };
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
    let incomplete = super::verify_schedule_proof::incomplete_certificates(&args.certificates);
    if args.lrat.is_some() && dirs.len() > 1 {
        errorln!(
            "--lrat writes one proof: give one certificate directory (found {})",
            dirs.len()
        );
        return Exit::Input;
    }
    let mut worst = incomplete;
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
        errorln!(
            "{} certifies a schedule search on a network: check it with `verify-proof --network NET {}`",
            dir.display(),
            dir.display()
        );
        return Exit::Input;
    }
    let lrat = args.lrat.as_deref();
    let checked = check_table_certificate(instance, dir, lrat, &mut progress(dir));
    let exit = match &checked {
        Ok(_) => Exit::Ok,
        Err(e) => Exit::of_certificate_error(e),
    };
    if let Err(e) = &checked
        && exit != Exit::Rejected
    {
        // A file that cannot be read or written: a problem with a path, not a
        // verdict on the certificate.
        errorln!("{e}");
    }
    if args.format == OutputFormat::Json {
        let report = TableProofReport::new(&args.file, dir, &checked, exit.code());
        outln!("{}", serde_json::to_string(&report).unwrap_or_default());
        return exit;
    }
    if args.certificates.len() > 1 || dir != args.certificates[0] {
        outln!("{}:", dir.display());
    }
    match &checked {
        Ok((verified, lrat)) => {
            for line in table_proof_text(verified, *lrat) {
                outln!("{line}");
            }
        }
        Err(e) if exit == Exit::Rejected => outln!("rejected: {e}"),
        Err(_) => {}
    }
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
