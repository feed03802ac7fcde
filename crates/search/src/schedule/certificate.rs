//! Certificates that no total-exchange schedule on a network finishes in `T`
//! steps: `provenance.json` (the network, its graph's digest, `T`, the path
//! class and what it restricts, the formula's size and digest), `formula.cnf`
//! (DIMACS, with the provenance in comments) and `proof.drat` (varisat's
//! binary DRAT proof), in `DIR/T<t>/` as for table certificates.
//!
//! [`verify`] trusts nothing the search wrote but the proof's claim: it builds
//! the graph from the network it is given, checks its digest, regenerates the
//! formula with the documented encoder ([`super::encode`]) from the recorded
//! `T` and path class, compares it byte for byte with `formula.cnf`, and runs
//! the proof checker ([`txverify_proofcheck`], no code shared with the
//! solver) on it.

use super::encode::{
    EXCHANGE_ENCODING_VERSION, ExchangeEncodeError, ExchangeEncoding, PathClass, encode_exchange,
};
use crate::certificate::{CertificateError, ProofKind, check_proof_file};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use txverify_core::network::Graph;
use txverify_proofcheck::ProofReport;

/// Version of the layout of a schedule certificate.
pub const SCHEDULE_CERTIFICATE_FORMAT: &str = "txverify-schedule-certificate-1";

/// The contents of a schedule certificate's `provenance.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleProvenance {
    /// [`SCHEDULE_CERTIFICATE_FORMAT`].
    pub format: String,
    /// [`EXCHANGE_ENCODING_VERSION`].
    pub encoding: String,
    /// The network as it was named.
    pub network: String,
    /// Its graph (`nodes`, `directed_links`, `graph_digest` in the file).
    #[serde(flatten)]
    pub graph: GraphStamp,
    /// The port model (`all`).
    pub ports: String,
    /// The number of steps shown infeasible.
    pub time: usize,
    /// The paths the messages were allowed.
    pub paths: PathClass,
    /// Whether the claim covers every schedule of the model.
    pub covers_all_schedules: bool,
    /// The restrictions of the encoding, in words (empty: none).
    pub restrictions: Vec<String>,
    /// Variables of the formula.
    pub variables: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// FNV-1a digest of the formula's clauses, in hex.
    pub digest: String,
    /// What the refutation proves.
    pub claim: String,
    /// The solver that wrote the proof.
    pub solver: String,
    /// The proof's file and format.
    pub proof: String,
}

/// Why a schedule certificate is not accepted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleCertificateError {
    /// A file could not be read (an input/output error).
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// `provenance.json` does not parse as a schedule certificate's.
    #[error("provenance.json is not a schedule certificate's: {0}")]
    Provenance(#[source] serde_json::Error),
    /// Another layout or encoding version.
    #[error(
        "the certificate does not match: it names {found:?}, this build checks {SCHEDULE_CERTIFICATE_FORMAT:?} with {EXCHANGE_ENCODING_VERSION:?}"
    )]
    WrongVersion {
        /// What it names.
        found: String,
    },
    /// The certificate was made for another graph.
    #[error(transparent)]
    WrongGraph(#[from] WrongGraph),
    /// The regenerated formula differs from `formula.cnf` or the recorded size or digest.
    #[error(
        "the certificate does not match: the regenerated formula differs from the one in formula.cnf (or its recorded size or digest)"
    )]
    FormulaDiffers,
    /// The formula could not be regenerated.
    #[error("the formula cannot be regenerated: {0}")]
    Encode(#[from] super::encode::ExchangeEncodeError),
    /// The proof is missing or does not refute the formula.
    #[error(transparent)]
    Proof(#[from] CertificateError),
}

impl ScheduleCertificateError {
    /// Whether the failure is a file that cannot be read rather than a
    /// certificate that does not hold.
    pub fn is_io(&self) -> bool {
        match self {
            ScheduleCertificateError::Read { .. } => true,
            ScheduleCertificateError::Proof(e) => e.is_io(),
            _ => false,
        }
    }
}

/// A schedule certificate [`verify`] accepted.
#[derive(Clone, Debug)]
pub struct VerifiedSchedule {
    /// Its provenance.
    pub provenance: ScheduleProvenance,
    /// What the proof checker saw.
    pub report: ProofReport,
}

/// The graph a certificate was made for, as its provenance states it: every
/// kind of schedule certificate is checked against the graph it is given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphStamp {
    /// Its nodes.
    pub nodes: usize,
    /// Its directed links.
    pub directed_links: usize,
    /// FNV-1a digest of its sorted adjacency lists ([`graph_digest`]), in hex.
    pub graph_digest: String,
}

impl GraphStamp {
    /// The stamp of `graph`.
    pub fn of(graph: &Graph) -> GraphStamp {
        GraphStamp {
            nodes: graph.nodes(),
            directed_links: graph.directed_links(),
            graph_digest: graph_digest(graph),
        }
    }

    /// Accepts `graph` only if it is the one stamped.
    pub fn check(&self, graph: &Graph) -> Result<(), WrongGraph> {
        match *self == GraphStamp::of(graph) {
            true => Ok(()),
            false => Err(WrongGraph(self.clone())),
        }
    }
}

/// A certificate made for another graph than the one it is checked against.
#[derive(Debug, thiserror::Error)]
#[error(
    "the certificate does not match: made for a graph of {} nodes and {} directed links with digest {}, not this network",
    .0.nodes, .0.directed_links, .0.graph_digest
)]
pub struct WrongGraph(pub GraphStamp);

/// The comment line of `formula.cnf` that names the graph.
pub(crate) fn graph_comment(stamp: &GraphStamp) -> String {
    format!(
        "graph {} nodes, {} directed links, digest {}",
        stamp.nodes, stamp.directed_links, stamp.graph_digest
    )
}

/// FNV-1a over the node count and each node's neighbours in increasing order:
/// the same for any port order or label of the same graph. On a fabric, then
/// what the formulas read of it (link capacities, switch limits, forward-only
/// nodes, multicast), so that the same links at capacity 1 are another graph;
/// without one the digest is what it always was.
pub fn graph_digest(graph: &Graph) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |x: u64| {
        for b in x.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    feed(graph.nodes() as u64);
    for x in 0..graph.nodes() as u32 {
        let mut row = graph.neighbours(x).to_vec();
        row.sort_unstable();
        feed(row.len() as u64);
        row.into_iter().for_each(|y| feed(u64::from(y)));
    }
    let fabric = graph.fabric();
    if fabric.has_capacities() || !fabric.limits().is_empty() || fabric.has_forward_only() {
        for x in 0..graph.nodes() as u32 {
            let mut row = graph.neighbours(x).to_vec();
            row.sort_unstable();
            for y in row {
                feed(graph.link(x, y).map_or(0, |l| u64::from(graph.capacity(l))));
            }
            feed(u64::from(graph.is_forward_only(x)));
        }
        feed(u64::from(fabric.multicast()));
        for limit in fabric.limits() {
            feed(u64::from(limit.sends));
            for side in [&limit.sources, &limit.destinations] {
                feed(side.len() as u64);
                side.iter().for_each(|&x| feed(u64::from(x)));
            }
        }
    }
    format!("{h:016x}")
}

/// What an unsatisfiable formula for `time` steps on `network` proves.
pub fn claim(network: &str, time: usize, paths: PathClass) -> String {
    let among = match paths {
        PathClass::Any => String::new(),
        other => format!(" among those whose packets keep to {other}"),
    };
    format!(
        "no total-exchange schedule on {network} (all-port, store-and-forward, buffering) finishes in {time} steps{among}"
    )
}

/// The restrictions of a path class, in words (none for any paths).
pub fn restrictions(paths: PathClass) -> Vec<String> {
    match paths {
        PathClass::Any => vec![],
        other => vec![format!("packets keep to {other}")],
    }
}

/// The provenance of the formula `encoding` for `time` steps on `graph`.
pub(crate) fn provenance_of(
    network: &str,
    graph: &Graph,
    time: usize,
    paths: PathClass,
    encoding: &ExchangeEncoding,
) -> ScheduleProvenance {
    ScheduleProvenance {
        format: SCHEDULE_CERTIFICATE_FORMAT.to_string(),
        encoding: EXCHANGE_ENCODING_VERSION.to_string(),
        network: network.to_string(),
        graph: GraphStamp::of(graph),
        ports: "all".to_string(),
        time,
        paths,
        covers_all_schedules: paths.covers_all_schedules(),
        restrictions: restrictions(paths),
        variables: encoding.cnf.vars(),
        clauses: encoding.cnf.clauses().len(),
        digest: format!("{:016x}", encoding.cnf.digest()),
        claim: claim(network, time, paths),
        solver: format!("varisat {}", VARISAT_VERSION),
        proof: "proof.drat (binary DRAT)".to_string(),
    }
}

/// The varisat release the crate is built with (Cargo.toml pins 0.2).
const VARISAT_VERSION: &str = "0.2";

/// The DIMACS text of `formula.cnf`: the provenance in comments, then the clauses.
pub(crate) fn formula_text(provenance: &ScheduleProvenance, encoding: &ExchangeEncoding) -> String {
    let comments = [
        format!("txverify {}", provenance.encoding),
        format!("network {}", provenance.network),
        graph_comment(&provenance.graph),
        format!("time {}", provenance.time),
        format!("paths {}", provenance.paths),
        format!("unsatisfiable means: {}", provenance.claim),
    ];
    encoding.cnf.to_dimacs(&comments)
}

/// Writes `provenance.json` and `formula.cnf` into `dir` (the proof is
/// already there).
pub(crate) fn write(
    dir: &Path,
    provenance: &ScheduleProvenance,
    encoding: &ExchangeEncoding,
) -> std::io::Result<()> {
    write_files(dir, provenance, formula_text(provenance, encoding))
}

/// Writes a certificate's `provenance.json` and `formula.cnf` into `dir`:
/// every kind of schedule certificate has the same two files beside its proof.
pub(crate) fn write_files(
    dir: &Path,
    provenance: &impl Serialize,
    formula: String,
) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(provenance).map_err(std::io::Error::other)?;
    // Whole files only, provenance.json last: a killed run leaves an incomplete folder.
    crate::certificate::write_whole(&dir.join("formula.cnf"), formula.as_bytes())?;
    crate::certificate::write_whole(&dir.join("provenance.json"), (json + "\n").as_bytes())
}

/// Whether `dir` holds a schedule certificate (its provenance names the format).
pub fn is_schedule_certificate(dir: &Path) -> bool {
    provenance_format_is(dir, SCHEDULE_CERTIFICATE_FORMAT)
}

/// Whether the `format` of `dir`'s `provenance.json` is `format`.
pub(crate) fn provenance_format_is(dir: &Path, format: &str) -> bool {
    std::fs::read(dir.join("provenance.json"))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .is_some_and(|v| v["format"] == format)
}

/// Why one of the steps every schedule certificate's check shares failed
/// ([`read_provenance`], [`check_regenerated`]); each certificate's error
/// takes it in.
#[derive(Debug)]
pub(crate) enum CertificateStepError {
    /// A file could not be read.
    Read {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// `provenance.json` does not parse as this kind's.
    Provenance(serde_json::Error),
    /// The stated provenance or `formula.cnf` is not what the encoder gives.
    FormulaDiffers,
    /// The proof is missing or does not refute the formula.
    Proof(CertificateError),
}

/// `name` in the certificate's folder, read whole.
fn read_in(dir: &Path, name: &str) -> Result<Vec<u8>, CertificateStepError> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| CertificateStepError::Read { path, source })
}

/// The first step of every schedule certificate's check, whatever its
/// collective: `provenance.json` read and parsed.
pub(crate) fn read_provenance<P: serde::de::DeserializeOwned>(
    dir: &Path,
) -> Result<P, CertificateStepError> {
    serde_json::from_slice(&read_in(dir, "provenance.json")?)
        .map_err(CertificateStepError::Provenance)
}

/// The last steps of every schedule certificate's check, once the formula is
/// regenerated from what the provenance records: the provenance must state
/// what the encoder gives (`as_regenerated`), `formula.cnf` must be the
/// regenerated `formula` byte for byte, and the proof (`kind`) must refute
/// `cnf` under the checker.
pub(crate) fn check_regenerated(
    dir: &Path,
    as_regenerated: bool,
    formula: &str,
    cnf: &crate::cnf::Cnf,
    kind: ProofKind,
) -> Result<ProofReport, CertificateStepError> {
    if !as_regenerated || read_in(dir, "formula.cnf")? != formula.as_bytes() {
        return Err(CertificateStepError::FormulaDiffers);
    }
    check_proof_file(cnf.vars(), cnf.clauses(), &dir.join(kind.file_name()), kind)
        .map_err(CertificateStepError::Proof)
}

impl From<CertificateStepError> for ScheduleCertificateError {
    fn from(e: CertificateStepError) -> Self {
        match e {
            CertificateStepError::Read { path, source } => {
                ScheduleCertificateError::Read { path, source }
            }
            CertificateStepError::Provenance(e) => ScheduleCertificateError::Provenance(e),
            CertificateStepError::FormulaDiffers => ScheduleCertificateError::FormulaDiffers,
            CertificateStepError::Proof(e) => ScheduleCertificateError::Proof(e),
        }
    }
}

/// Checks the certificate in `dir` against `graph` (see the module notes).
pub fn verify(graph: &Graph, dir: &Path) -> Result<VerifiedSchedule, ScheduleCertificateError> {
    verify_within(graph, dir, super::encode::MAX_VARIABLES)
}

/// [`verify`], refusing a formula estimated to have more than `max_variables`
/// variables before it is regenerated (the time a certificate states is read
/// from a file).
pub fn verify_within(
    graph: &Graph,
    dir: &Path,
    max_variables: u64,
) -> Result<VerifiedSchedule, ScheduleCertificateError> {
    let provenance: ScheduleProvenance = read_provenance(dir)?;
    if provenance.format != SCHEDULE_CERTIFICATE_FORMAT
        || provenance.encoding != EXCHANGE_ENCODING_VERSION
    {
        return Err(ScheduleCertificateError::WrongVersion {
            found: format!("{} with {}", provenance.format, provenance.encoding),
        });
    }
    provenance.graph.check(graph)?;
    let estimate = super::encode::estimate_variables(graph, provenance.time, provenance.paths);
    if estimate > max_variables {
        return Err(ExchangeEncodeError::OverLimit {
            time: provenance.time,
            estimate,
            limit: max_variables,
        }
        .into());
    }
    let encoding = encode_exchange(graph, provenance.time, provenance.paths)?;
    // Everything the provenance states must be what the encoder gives.
    let expected = provenance_of(
        &provenance.network,
        graph,
        provenance.time,
        provenance.paths,
        &encoding,
    );
    let same = ScheduleProvenance {
        solver: provenance.solver.clone(),
        proof: provenance.proof.clone(),
        ..expected
    };
    let formula = formula_text(&same, &encoding);
    let report = check_regenerated(
        dir,
        same == provenance,
        &formula,
        &encoding.cnf,
        ProofKind::Drat,
    )?;
    Ok(VerifiedSchedule { provenance, report })
}
