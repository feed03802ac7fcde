//! Certificates of infeasibility: where the formula came from, and a proof.
//!
//! A certificate is a directory holding `provenance.json` (the instance
//! summary, `T`, the encoding version and options, the formula's size and
//! digest, the claim, the solver), `formula.cnf` (the formula in DIMACS, for
//! external checkers such as drat-trim) and the proof: `proof.drat` (DRAT, text
//! or binary, from varisat or an external solver) or `proof.lrat` (LRAT, from
//! an external solver). [`verify`] regenerates the formula from the instance
//! and the recorded options, checks it is the one the proof was made for, and
//! runs the independent checker in [`txverify_proofcheck`] on it, reading the
//! proof as a stream. A cube certificate (cube-and-conquer) holds instead
//! the cubes in `cubes.icnf` and one proof per cube; [`verify`] checks that
//! the cubes cover every assignment and each proof (the conquer side writes
//! such certificates and uses this module, never the reverse).

use super::cubes::{self, ICNF_FILE};
use super::encode::{ENCODING_VERSION, Encoding, encode};
use super::options::{
    EncodeError, EncodingOptions, SearchError, SearchOptions, SolverChoice, claim,
};
use serde::{Deserialize, Serialize};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use txverify_core::kernel::Instance;
use txverify_proofcheck::{self as proofcheck, ProofError, ProofReport};

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
    /// For a cube certificate (cube-and-conquer): the number of cubes in
    /// `cubes.icnf`, each refuted by its own proof `cube-NNNN.drat` or `.lrat`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubes: Option<usize>,
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
    /// `provenance.json` names a proof file that is neither `proof.drat` nor `proof.lrat`.
    #[error("provenance.json names the proof {named:?}; expected proof.drat or proof.lrat")]
    UnknownProof {
        /// What it names.
        named: String,
    },
    /// A cube certificate's cubes are malformed, do not cover, or a cube's
    /// proof is missing or rejected.
    #[error("the cube certificate is rejected: {0}")]
    Cubes(String),
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

/// The kind of a proof, and so the name of its file in a certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofKind {
    /// DRAT, text or binary (told apart by the checker): `proof.drat`.
    Drat,
    /// LRAT, text or binary: `proof.lrat`.
    Lrat,
}

impl ProofKind {
    /// The proof's file name in a certificate.
    pub fn file_name(self) -> &'static str {
        match self {
            ProofKind::Drat => "proof.drat",
            ProofKind::Lrat => "proof.lrat",
        }
    }

    /// The kind a certificate's `proof` entry names (its first word is the file).
    fn named_in(proof: &str) -> Option<ProofKind> {
        match proof.split_whitespace().next() {
            Some("proof.drat") => Some(ProofKind::Drat),
            Some("proof.lrat") => Some(ProofKind::Lrat),
            _ => None,
        }
    }
}

/// Who writes the proof of a search's certificate: the solver asked for when
/// it writes proofs (varisat: DRAT; CaDiCaL: LRAT; an external command with a
/// proof place), else varisat, which solves the formula again for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProofAuthor {
    /// varisat's binary DRAT.
    Varisat,
    /// The bundled CaDiCaL's binary LRAT.
    Cadical,
    /// The external command's proof, of this kind.
    External(ProofKind),
}

impl ProofAuthor {
    /// The author of the certificates of a search with `options`.
    pub(crate) fn of(options: &SearchOptions) -> ProofAuthor {
        match options.solver {
            SolverChoice::Cadical if cfg!(feature = "cadical") => ProofAuthor::Cadical,
            SolverChoice::External => super::external_proof_kind(options)
                .map_or(ProofAuthor::Varisat, ProofAuthor::External),
            _ => ProofAuthor::Varisat,
        }
    }

    /// The kind of proof it writes.
    pub(crate) fn kind(self) -> ProofKind {
        match self {
            ProofAuthor::Varisat => ProofKind::Drat,
            ProofAuthor::Cadical => ProofKind::Lrat,
            ProofAuthor::External(kind) => kind,
        }
    }

    /// The solver that runs to write it.
    pub(crate) fn solver(self) -> SolverChoice {
        match self {
            ProofAuthor::Varisat => SolverChoice::Varisat,
            ProofAuthor::Cadical => SolverChoice::Cadical,
            ProofAuthor::External(_) => SolverChoice::External,
        }
    }

    /// Whether the search checks the proof as soon as the solver answers
    /// (CaDiCaL's and an external solver's, whose "unsatisfiable" stands only
    /// with a proof that checks; varisat's proof is checked when the
    /// certificate is verified).
    pub(crate) fn checked_when_answered(self) -> bool {
        self != ProofAuthor::Varisat
    }

    /// The solver in words, for `provenance.json`.
    pub(crate) fn describe(self, options: &SearchOptions) -> String {
        match (self, &options.external_command) {
            (ProofAuthor::External(_), Some(command)) => format!("external: {command}"),
            (ProofAuthor::Cadical, _) => CADICAL_NAME.to_string(),
            _ => "varisat 0.2.2".to_string(),
        }
    }

    /// The proof's format in words, for `provenance.json`.
    pub(crate) fn format(self) -> &'static str {
        match self {
            ProofAuthor::Varisat => "binary DRAT",
            ProofAuthor::Cadical => "binary LRAT, checked when the solver answered",
            ProofAuthor::External(_) => "written by the external solver, checked when it answered",
        }
    }
}

/// The name of the bundled CaDiCaL (a build without it never writes its proofs).
#[cfg(feature = "cadical")]
const CADICAL_NAME: &str = super::solver::CADICAL_NAME;
#[cfg(not(feature = "cadical"))]
const CADICAL_NAME: &str = "CaDiCaL";

/// Creates the directory and returns the path a proof of this kind goes to.
pub(crate) fn prepare(dir: &Path, kind: ProofKind) -> Result<PathBuf, SearchError> {
    std::fs::create_dir_all(dir).map_err(SearchError::io(dir))?;
    Ok(dir.join(kind.file_name()))
}

/// Checks the proof in the file at `path` against `cnf`'s clauses, reading it as a stream.
pub fn check_proof_file(
    vars: usize,
    clauses: &[Vec<i32>],
    path: &Path,
    kind: ProofKind,
) -> Result<ProofReport, CertificateError> {
    check_proof_file_reporting(vars, clauses, path, kind, &mut |_| {})
}

/// How far a proof check has read: bytes of the proof read so far, of `total`.
#[derive(Clone, Copy, Debug)]
pub struct ReadProgress {
    /// Bytes read.
    pub read: u64,
    /// The proof file's size.
    pub total: u64,
}

/// A reader that tells `report` how much of the file it has read, after each read.
struct Counting<'a, R> {
    inner: R,
    progress: ReadProgress,
    report: &'a mut dyn FnMut(ReadProgress),
}

impl<R: std::io::Read> std::io::Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.read += n as u64;
        (self.report)(self.progress);
        Ok(n)
    }
}

/// Like [`check_proof_file`], telling `report` after every read how much of
/// the proof has been read (the checker reads it once, front to back).
fn check_proof_file_reporting(
    vars: usize,
    clauses: &[Vec<i32>],
    path: &Path,
    kind: ProofKind,
    report: &mut dyn FnMut(ReadProgress),
) -> Result<ProofReport, CertificateError> {
    let file = std::fs::File::open(path).map_err(|source| CertificateError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let total = file.metadata().map_or(0, |m| m.len());
    let counting = Counting {
        inner: file,
        progress: ReadProgress { read: 0, total },
        report,
    };
    let reader = BufReader::with_capacity(1 << 16, counting);
    Ok(match kind {
        ProofKind::Drat => proofcheck::check_reader(vars, clauses, reader, None)?,
        ProofKind::Lrat => {
            let lemmas = proofcheck::check_lrat_reader(clauses, reader)?;
            ProofReport {
                lemmas,
                core_lemmas: lemmas,
                rat_lemmas: 0,
                deletions: 0,
                ignored_deletions: 0,
            }
        }
    })
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

/// Who wrote a certificate's proof, and in which form.
pub(crate) struct ProofSource<'a> {
    /// The solver, in words (`varisat 0.2.2`, `external: cadical -q {cnf} {proof}`).
    pub solver: &'a str,
    /// The proof's kind.
    pub kind: ProofKind,
    /// How its format is described in `provenance.json`.
    pub format: &'a str,
    /// The number of cubes, for a cube certificate.
    pub cubes: Option<usize>,
}

/// Writes `bytes` to `path` under its partial name ([`partial_proof`])
/// and renames it once whole: a process killed on the way leaves no
/// truncated file under the final name.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = partial_proof(path);
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}

/// Writes `provenance.json` and `formula.cnf` next to the proof.
pub(crate) fn write_provenance(
    dir: &Path,
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    encoding: &Encoding,
    source: &ProofSource<'_>,
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
        solver: source.solver.to_string(),
        proof: match source.cubes {
            Some(_) => format!("cube-NNNN.drat or cube-NNNN.lrat ({})", source.format),
            None => format!("{} ({})", source.kind.file_name(), source.format),
        },
        cubes: source.cubes,
    };
    // Each file is written under its partial name and renamed once whole,
    // provenance.json last: a search killed on the way leaves a folder
    // without it, which `verify-proof` names as incomplete.
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        write_whole(&path, text.as_bytes()).map_err(SearchError::io(path))
    };
    write(
        "formula.cnf",
        encoding
            .cnf
            .to_dimacs(&provenance_comments(instance, time, options)),
    )?;
    write(
        "provenance.json",
        serde_json::to_string_pretty(&provenance).unwrap_or_default() + "\n",
    )
}

/// Regenerates the formula for `instance` and checks the certificate's proof against it.
pub fn verify(instance: &Instance, dir: &Path) -> Result<Verified, CertificateError> {
    verify_reporting(instance, dir, &mut |_| {})
}

/// Like [`verify`], telling `report` how much of the proof has been read as
/// the check goes (not for cube certificates, whose proofs are many).
pub fn verify_reporting(
    instance: &Instance,
    dir: &Path,
    report: &mut dyn FnMut(ReadProgress),
) -> Result<Verified, CertificateError> {
    let (provenance, encoding) = regenerate(instance, dir)?;
    if let Some(count) = provenance.cubes {
        let lemmas = verify_cubes(&encoding, dir, count)?;
        let report = ProofReport {
            lemmas,
            core_lemmas: lemmas,
            rat_lemmas: 0,
            deletions: 0,
            ignored_deletions: 0,
        };
        return Ok(Verified { provenance, report });
    }
    let (proof, kind) = proof_of(&provenance, dir)?;
    let (vars, clauses) = (encoding.cnf.vars(), encoding.cnf.clauses());
    let report = check_proof_file_reporting(vars, clauses, &proof, kind, report)?;
    Ok(Verified { provenance, report })
}

/// Like [`verify`], and writes the refutation as a text LRAT proof to `lrat`
/// (clauses numbered as in the regenerated formula, which is the certificate's
/// `formula.cnf`, so that other LRAT checkers can take it), then checks the
/// written file with the LRAT checker. A certificate whose proof is LRAT
/// already is checked and written out as text. Returns the number of clauses the LRAT proof adds.
pub fn verify_writing_lrat(
    instance: &Instance,
    dir: &Path,
    lrat: &Path,
) -> Result<(Verified, usize), CertificateError> {
    let (provenance, encoding) = regenerate(instance, dir)?;
    if provenance.cubes.is_some() {
        return Err(CertificateError::Cubes(
            "--lrat takes a certificate with one proof, not one per cube".to_string(),
        ));
    }
    let (proof, kind) = proof_of(&provenance, dir)?;
    let write_failed = |source: std::io::Error| CertificateError::Write {
        path: lrat.to_path_buf(),
        source,
    };
    let report = match kind {
        ProofKind::Lrat => {
            let report =
                check_proof_file(encoding.cnf.vars(), encoding.cnf.clauses(), &proof, kind)?;
            let input = std::fs::File::open(&proof).map_err(|source| CertificateError::Read {
                path: proof.clone(),
                source,
            })?;
            let output = std::fs::File::create(lrat).map_err(write_failed)?;
            super::solver::renumber::to_text(
                BufReader::with_capacity(1 << 16, input),
                std::io::BufWriter::new(output),
                encoding.cnf.clauses().len() as u64,
            )
            .map_err(write_failed)?;
            report
        }
        ProofKind::Drat => {
            let input = std::fs::File::open(&proof).map_err(|source| CertificateError::Read {
                path: proof.clone(),
                source,
            })?;
            let file = std::fs::File::create(lrat).map_err(write_failed)?;
            let mut out = std::io::BufWriter::new(file);
            let report = proofcheck::check_to_lrat(
                encoding.cnf.vars(),
                encoding.cnf.clauses(),
                BufReader::with_capacity(1 << 16, input),
                None,
                &mut out,
            )
            .map_err(|e| match e {
                ProofError::Write(source) => write_failed(source),
                other => other.into(),
            })?;
            drop(out);
            report
        }
    };
    let written = std::fs::File::open(lrat).map_err(|source| CertificateError::Read {
        path: lrat.to_path_buf(),
        source,
    })?;
    let steps = proofcheck::check_lrat_reader(
        encoding.cnf.clauses(),
        BufReader::with_capacity(1 << 16, written),
    )?;
    Ok((Verified { provenance, report }, steps))
}

/// The proof file a (one-proof) certificate names, and its kind.
fn proof_of(provenance: &Provenance, dir: &Path) -> Result<(PathBuf, ProofKind), CertificateError> {
    match ProofKind::named_in(&provenance.proof) {
        Some(kind) => Ok((dir.join(kind.file_name()), kind)),
        None => Err(CertificateError::UnknownProof {
            named: provenance.proof.clone(),
        }),
    }
}

/// The certificate's provenance, and the formula regenerated from the instance
/// (checked against the provenance).
pub(crate) fn regenerate(
    instance: &Instance,
    dir: &Path,
) -> Result<(Provenance, Encoding), CertificateError> {
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
    Ok((provenance, encoding))
}

/// The proof of a cube: `STEM.drat` or `STEM.lrat`, whichever exists.
pub(crate) fn cube_proof(dir: &Path, stem: &str) -> Option<(PathBuf, ProofKind)> {
    [("drat", ProofKind::Drat), ("lrat", ProofKind::Lrat)]
        .into_iter()
        .map(|(ext, kind)| (dir.join(format!("{stem}.{ext}")), kind))
        .find(|(path, _)| path.exists())
}

/// Checks a cube certificate: the cubes in `dir` cover every assignment, and
/// each cube's proof refutes the formula with the cube. Returns the lemmas checked.
fn verify_cubes(encoding: &Encoding, dir: &Path, count: usize) -> Result<usize, CertificateError> {
    let icnf = dir.join(ICNF_FILE);
    let text = std::fs::read_to_string(&icnf).map_err(|source| CertificateError::Read {
        path: icnf.clone(),
        source,
    })?;
    let cubes = cubes::cubes_of_icnf(&text, encoding.cnf.vars())
        .map_err(|e| CertificateError::Cubes(e.to_string()))?;
    if cubes.len() != count {
        return Err(CertificateError::Cubes(format!(
            "{} cubes, provenance.json says {count}",
            cubes.len()
        )));
    }
    if !cubes::covers(&cubes) {
        return Err(CertificateError::Cubes(
            "the cubes do not cover every assignment".to_string(),
        ));
    }
    let mut lemmas = 0;
    for (i, cube) in cubes.iter().enumerate() {
        let stem = cubes::cube_stem(i);
        let Some((path, kind)) = cube_proof(dir, &stem) else {
            return Err(CertificateError::Cubes(format!("{stem} has no proof")));
        };
        let cnf = cubes::with_cube(&encoding.cnf, cube);
        let report =
            check_proof_file(cnf.vars(), cnf.clauses(), &path, kind).map_err(|e| match e {
                CertificateError::Proof(p) => {
                    CertificateError::Cubes(format!("{stem}: the proof is rejected: {p}"))
                }
                other => other,
            })?;
        lemmas += report.lemmas;
    }
    Ok(lemmas)
}

/// The name a proof is written under until it is complete: `proof.drat`
/// becomes `proof.drat.partial`. Only a finished proof is renamed into
/// place (`finish_proof`), so that a run killed while its solver writes
/// leaves no file that looks like a proof (`verify-proof` names the folder
/// as incomplete).
pub fn partial_proof(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(PARTIAL_SUFFIX);
    PathBuf::from(name)
}

/// What [`partial_proof`] appends.
pub const PARTIAL_SUFFIX: &str = ".partial";

/// Renames the finished proof `partial_proof(path)` to `path`.
pub(crate) fn finish_proof(path: &Path) -> std::io::Result<()> {
    std::fs::rename(partial_proof(path), path)
}
