//! Certificates of infeasibility: where the formula came from, and a proof.
//!
//! A certificate is a directory holding `provenance.json` (the instance
//! summary, `T`, the encoding version and options, the formula's size and
//! digest, the claim), `formula.cnf` (the formula in DIMACS, for external
//! checkers such as drat-trim) and `proof.drat` (binary DRAT, as written by the
//! solver). [`verify`] regenerates the formula from the instance and the
//! recorded options, checks it is the one the proof was made for, and runs the
//! independent checker in [`super::proofcheck`] on it.

use super::encode::{ENCODING_VERSION, Encoding, encode};
use super::options::{EncodeError, EncodingOptions, SearchError, claim};
use super::proofcheck::{self, ProofError, ProofFormat, ProofReport};
use crate::kernel::Instance;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the certificate layout.
pub const CERTIFICATE_FORMAT: &str = "txverify-certificate-1";

/// What identifies an instance well enough to catch a certificate applied to the wrong one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceSummary {
    /// Group order.
    pub order: usize,
    /// Generator names.
    pub generators: Vec<String>,
    /// Links as written.
    pub links: Vec<String>,
    /// Ports per node.
    pub ports: usize,
    /// Number of messages.
    pub messages: usize,
    /// Σ of the messages' distances.
    pub distance_sum: u64,
}

impl InstanceSummary {
    /// The summary of an instance.
    pub fn of(instance: &Instance) -> InstanceSummary {
        let wanted = instance.message_set();
        let distances = instance.distances();
        InstanceSummary {
            order: instance.group().order(),
            generators: instance.group().generator_names().to_vec(),
            links: instance.link_names().to_vec(),
            ports: instance.ports(),
            messages: wanted.iter().filter(|&&w| w).count(),
            distance_sum: (0..wanted.len())
                .filter(|&e| wanted[e])
                .map(|e| u64::from(distances[e]))
                .sum(),
        }
    }
}

/// The contents of `provenance.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// [`CERTIFICATE_FORMAT`].
    pub format: String,
    /// [`ENCODING_VERSION`] of the encoder that wrote the formula.
    pub encoding: String,
    /// The instance.
    pub instance: InstanceSummary,
    /// Columns.
    pub time: usize,
    /// Encoding options.
    pub options: EncodingOptions,
    /// Variables of the formula.
    pub variables: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// FNV-1a digest of the formula's DIMACS text, in hex.
    pub digest: String,
    /// What an unsatisfiable formula means.
    pub claim: String,
    /// The solver that wrote the proof.
    pub solver: String,
    /// The proof file and its format.
    pub proof: String,
}

/// Why a certificate was not accepted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// A file of the certificate could not be read (an input/output error: see
    /// [`CertificateError::is_io`]).
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The LRAT output could not be written (an input/output error).
    #[error("cannot write {path}: {source}")]
    Write {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// `provenance.json` does not parse.
    #[error("provenance.json: {0}")]
    Provenance(#[source] serde_json::Error),
    /// The certificate has another layout than [`CERTIFICATE_FORMAT`].
    #[error(
        "the certificate does not match: certificate format {found:?}, expected {expected:?}",
        expected = CERTIFICATE_FORMAT
    )]
    WrongFormat {
        /// The layout it names.
        found: String,
    },
    /// The certificate was made by another version of the encoding.
    #[error(
        "the certificate does not match: made by encoding {found:?}, this build has {ours:?}",
        ours = ENCODING_VERSION
    )]
    WrongEncoding {
        /// The encoding version it names.
        found: String,
    },
    /// The certificate was made for another instance.
    #[error(
        "the certificate does not match: made for a different instance (group, links, ports or messages differ)"
    )]
    WrongInstance,
    /// The regenerated formula is not the one the proof was made for.
    #[error(
        "the certificate does not match: the regenerated formula differs from the one the proof was made for"
    )]
    FormulaDiffers,
    /// The formula could not be regenerated.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The proof does not refute the formula.
    #[error("the proof is rejected: {0}")]
    Proof(#[from] ProofError),
}

impl CertificateError {
    /// Whether the failure is an input/output error (a file that could not be
    /// read or written) rather than a certificate that does not hold.
    pub fn is_io(&self) -> bool {
        matches!(
            self,
            CertificateError::Read { .. } | CertificateError::Write { .. }
        )
    }
}

/// A certificate that passed [`verify`].
#[derive(Clone, Debug)]
pub struct Verified {
    /// The recorded provenance.
    pub provenance: Provenance,
    /// What the checker saw.
    pub report: ProofReport,
}

const PROOF_FILE: &str = "proof.drat";

/// Creates the directory and returns the path the proof goes to.
pub(crate) fn prepare(dir: &Path) -> Result<PathBuf, SearchError> {
    std::fs::create_dir_all(dir).map_err(SearchError::io(dir))?;
    Ok(dir.join(PROOF_FILE))
}

/// The provenance of a formula, as DIMACS comment lines.
pub fn provenance_comments(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
) -> Vec<String> {
    vec![
        format!("txverify {ENCODING_VERSION}"),
        format!(
            "instance {}",
            serde_json::to_string(&InstanceSummary::of(instance)).unwrap_or_default()
        ),
        format!("time {time}"),
        format!(
            "options {}",
            serde_json::to_string(options).unwrap_or_default()
        ),
        format!("unsatisfiable means: {}", claim(time, options)),
    ]
}

/// Writes `provenance.json` and `formula.cnf` next to the proof.
pub(crate) fn write_provenance(
    dir: &Path,
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    encoding: &Encoding,
) -> Result<(), SearchError> {
    let provenance = Provenance {
        format: CERTIFICATE_FORMAT.to_string(),
        encoding: ENCODING_VERSION.to_string(),
        instance: InstanceSummary::of(instance),
        time,
        options: options.clone(),
        variables: encoding.cnf.vars(),
        clauses: encoding.cnf.clauses().len(),
        digest: format!("{:016x}", encoding.cnf.digest()),
        claim: claim(time, options),
        solver: "varisat 0.2.2".to_string(),
        proof: format!("{PROOF_FILE} (binary DRAT)"),
    };
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(SearchError::io(path))
    };
    write(
        "provenance.json",
        serde_json::to_string_pretty(&provenance).unwrap_or_default() + "\n",
    )?;
    write(
        "formula.cnf",
        encoding
            .cnf
            .to_dimacs(&provenance_comments(instance, time, options)),
    )
}

/// Regenerates the formula for `instance` and checks the certificate's proof against it.
pub fn verify(instance: &Instance, dir: &Path) -> Result<Verified, CertificateError> {
    let (provenance, encoding, proof) = regenerate(instance, dir)?;
    let report = proofcheck::check(
        encoding.cnf.vars(),
        encoding.cnf.clauses(),
        &proof,
        ProofFormat::Binary,
    )?;
    Ok(Verified { provenance, report })
}

/// Like [`verify`], and writes the refutation as a text LRAT proof to `lrat`
/// (clauses numbered as in the regenerated formula, which is the certificate's
/// `formula.cnf`, so that other LRAT checkers can take it), then checks the written file with the LRAT checker. Returns the
/// number of clauses the LRAT proof adds.
pub fn verify_writing_lrat(
    instance: &Instance,
    dir: &Path,
    lrat: &Path,
) -> Result<(Verified, usize), CertificateError> {
    let (provenance, encoding, proof) = regenerate(instance, dir)?;
    let write_failed = |source: std::io::Error| CertificateError::Write {
        path: lrat.to_path_buf(),
        source,
    };
    let file = std::fs::File::create(lrat).map_err(write_failed)?;
    let mut out = std::io::BufWriter::new(file);
    let report = proofcheck::check_to_lrat(
        encoding.cnf.vars(),
        encoding.cnf.clauses(),
        &proof,
        ProofFormat::Binary,
        &mut out,
    )
    .map_err(|e| match e {
        ProofError::Write(source) => write_failed(source),
        other => other.into(),
    })?;
    drop(out);
    let written = std::fs::read(lrat).map_err(|source| CertificateError::Read {
        path: lrat.to_path_buf(),
        source,
    })?;
    let steps = proofcheck::check_lrat(encoding.cnf.clauses(), &written)?;
    Ok((Verified { provenance, report }, steps))
}

/// The certificate's provenance, the formula regenerated from the instance
/// (checked against the provenance), and the proof's bytes.
fn regenerate(
    instance: &Instance,
    dir: &Path,
) -> Result<(Provenance, Encoding, Vec<u8>), CertificateError> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|source| CertificateError::Read { path, source })
    };
    let provenance: Provenance =
        serde_json::from_slice(&read("provenance.json")?).map_err(CertificateError::Provenance)?;
    if provenance.format != CERTIFICATE_FORMAT {
        return Err(CertificateError::WrongFormat {
            found: provenance.format,
        });
    }
    if provenance.encoding != ENCODING_VERSION {
        return Err(CertificateError::WrongEncoding {
            found: provenance.encoding,
        });
    }
    if provenance.instance != InstanceSummary::of(instance) {
        return Err(CertificateError::WrongInstance);
    }
    let encoding = encode(instance, provenance.time, &provenance.options)?;
    let digest = format!("{:016x}", encoding.cnf.digest());
    if digest != provenance.digest
        || encoding.cnf.vars() != provenance.variables
        || encoding.cnf.clauses().len() != provenance.clauses
    {
        return Err(CertificateError::FormulaDiffers);
    }
    let proof = read(PROOF_FILE)?;
    Ok((provenance, encoding, proof))
}
