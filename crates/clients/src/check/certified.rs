//! The certificates a table names, checked for `check`.
//!
//! A table names the directory of the certificates that refute the times
//! below its own with a `certificates:` header line (a path relative to the
//! table file's directory, docs/tbl-format.md); `check --proofs DIR` names one
//! instead. Every certificate in it (the directory itself, or each `T<t>/`
//! under it, as `verify-proof` reads them) is checked as `verify-proof` checks
//! it: the formula regenerated from the table's own header and compared, the
//! proof checked by txverify-proofcheck. The ones accepted whose class covers
//! every table become refutations ([`CheckedRefutation`], made only by the
//! search crate) and go to the kernel as evidence
//! ([`txverify_core::kernel::check_with_refutations`]), which alone decides
//! whether they make the table optimal. Nothing here decides a verdict.

use std::path::{Path, PathBuf};
use txverify_core::format::syntax::Span;
use txverify_core::kernel::Instance;
use txverify_core::load::Loaded;
use txverify_search::certificate_dirs_in;
use txverify_search::refutation::{CertificateCheck, CheckedRefutation, check_table_certificates};

/// Where `check` looks for a table's certificates.
#[derive(Clone, Copy, Debug, Default)]
pub struct CertificateLookup<'a> {
    /// The directory of the table file: a `certificates:` path is relative to
    /// it (`None`: to the current directory, for a table given as text).
    pub file_dir: Option<&'a Path>,
    /// `--proofs DIR`: the certificates to check instead of those the header
    /// names.
    pub proofs: Option<&'a Path>,
}

impl<'a> CertificateLookup<'a> {
    /// Certificates named by the header of the file at `path`, or `proofs`.
    pub fn for_file(path: &'a Path, proofs: Option<&'a Path>) -> CertificateLookup<'a> {
        CertificateLookup {
            file_dir: path.parent(),
            proofs,
        }
    }
}

/// Why the certificates a table names could not be read: an input error
/// (exit status 2), not a verdict on them.
#[derive(Debug, thiserror::Error)]
pub enum CertificatesError {
    /// The named directory holds no certificate.
    #[error(
        "no certificate in {dir}: it needs a provenance.json, or T<t>/ directories that hold one (write the path relative to the table file's directory)"
    )]
    NoCertificate {
        /// The directory, as resolved.
        dir: PathBuf,
        /// The header value that names it (`None` for `--proofs`).
        at: Option<Span>,
    },
    /// A file of a certificate could not be read.
    #[error("cannot read the certificate {dir}: {reason}")]
    Unreadable {
        /// The certificate's directory.
        dir: PathBuf,
        /// What went wrong.
        reason: String,
        /// The header value that names it (`None` for `--proofs`).
        at: Option<Span>,
    },
}

impl CertificatesError {
    /// The header value at fault, when the header named the certificates.
    pub fn span(&self) -> Option<Span> {
        match self {
            CertificatesError::NoCertificate { at, .. }
            | CertificatesError::Unreadable { at, .. } => *at,
        }
    }
}

/// What one certificate's check found, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Accepted; its class covers every table: no table has `time` columns.
    Refutes {
        /// The columns it refutes.
        time: usize,
    },
    /// Accepted, but its class is narrower than every table: it counts for
    /// no optimality.
    Narrower {
        /// The columns it refutes within its class.
        time: usize,
        /// The class, as its claim ("no valid table with 8 columns whose
        /// words are all shortest paths").
        claim: String,
    },
    /// Rejected: why.
    Rejected {
        /// The checker's reason.
        reason: String,
    },
}

/// One certificate and what its check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertificateFinding {
    /// Its directory, as shown.
    pub dir: String,
    /// What was found.
    pub finding: Finding,
}

/// The certificates a table named, checked.
#[derive(Clone, Debug, Default)]
pub struct Certified {
    /// The refutations the kernel takes as evidence.
    pub refutations: Vec<CheckedRefutation>,
    /// What each certificate's check found, in order of T.
    pub findings: Vec<CertificateFinding>,
}

impl Certified {
    /// Whether some named certificate was rejected.
    pub fn any_rejected(&self) -> bool {
        self.findings
            .iter()
            .any(|f| matches!(f.finding, Finding::Rejected { .. }))
    }
}

/// The directory of certificates `loaded` names (or `--proofs`), with the
/// header value naming it; `None` when there is none.
fn named(loaded: &Loaded, lookup: &CertificateLookup<'_>) -> Option<(PathBuf, Option<Span>)> {
    if let Some(proofs) = lookup.proofs {
        return Some((proofs.to_path_buf(), None));
    }
    let value = loaded.file.certificates.as_ref()?;
    let written = Path::new(&value.value);
    let dir = match lookup.file_dir {
        Some(base) if written.is_relative() => base.join(written),
        _ => written.to_path_buf(),
    };
    Some((dir, Some(value.span)))
}

/// Checks the certificates `loaded` names (nothing when it names none).
pub fn check_certificates(
    loaded: &Loaded,
    lookup: &CertificateLookup<'_>,
) -> Result<Certified, CertificatesError> {
    let Some((dir, at)) = named(loaded, lookup) else {
        return Ok(Certified::default());
    };
    check_dir(&loaded.instance, &dir, at)
}

/// Checks every certificate in `dir` against `instance`.
fn check_dir(
    instance: &Instance,
    dir: &Path,
    at: Option<Span>,
) -> Result<Certified, CertificatesError> {
    let dirs = certificate_dirs_in(dir);
    if !dirs.iter().any(|d| d.join("provenance.json").is_file()) {
        let dir = dir.to_path_buf();
        return Err(CertificatesError::NoCertificate { dir, at });
    }
    let (refutations, checks) = check_table_certificates(instance, &dirs);
    let mut findings = Vec::new();
    for check in checks {
        let shown = check.dir().display().to_string();
        let finding = match check {
            CertificateCheck::Refutes { time, .. } => Finding::Refutes { time },
            CertificateCheck::Narrower { time, claim, .. } => Finding::Narrower { time, claim },
            CertificateCheck::Rejected { error, dir } if error.is_io() => {
                let reason = error.to_string();
                return Err(CertificatesError::Unreadable { dir, reason, at });
            }
            CertificateCheck::Rejected { error, .. } => Finding::Rejected {
                reason: error.to_string(),
            },
        };
        findings.push(CertificateFinding {
            dir: shown,
            finding,
        });
    }
    Ok(Certified {
        refutations,
        findings,
    })
}
