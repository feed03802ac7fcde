//! Certificates that no schedule of a copying collective (broadcast,
//! allgather, with C chunks, under K ports or all) on a network finishes in
//! `T` steps: `provenance.json` (the network, its graph's digest, the
//! collective, chunks, ports, `T`, the formula's size and digest),
//! `formula.cnf` (DIMACS, with the provenance in comments) and the solver's
//! proof (`proof.lrat` from CaDiCaL, `proof.drat` from varisat), in
//! `DIR/T<t>/`.
//!
//! [`verify`] trusts nothing the search wrote but the proof's claim: it builds
//! the graph from the network it is given, checks its digest, regenerates the
//! formula with the documented encoder ([`super::collective_formula`]) from the
//! recorded collective, chunks, ports and `T`, compares it byte for byte with
//! `formula.cnf`, and runs the proof checker ([`txverify_proofcheck`]) on it.
//! The encoding restricts nothing (it only leaves out where distances forbid
//! an item to be), so a refutation covers every schedule of the model.

use super::certificate::{
    CertificateStepError, GraphStamp, WrongGraph, check_regenerated, graph_comment,
    provenance_format_is, read_provenance, write_files,
};
use super::collective_copies::CollectiveEncoding;
use super::collective_formula::{encode, encoding_version};
use crate::certificate::{CertificateError, ProofKind};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Ports, parse_chunks};
use txverify_proofcheck::ProofReport;

/// The largest formula `verify-proof --network NET --collective X` regenerates,
/// in estimated variables: the time a certificate states is read from a file,
/// so a formula past this is refused before it is built (docs/limits.md).
pub const MAX_CERTIFICATE_VARIABLES: u64 = 1 << 26;

/// Version of the layout of a collective certificate.
pub const COLLECTIVE_CERTIFICATE_FORMAT: &str = "txverify-collective-certificate-1";

/// The contents of a collective certificate's `provenance.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollectiveProvenance {
    /// [`COLLECTIVE_CERTIFICATE_FORMAT`].
    pub format: String,
    /// The encoding's version ([`encoding_version`]).
    pub encoding: String,
    /// The network as it was named.
    pub network: String,
    /// Its graph (`nodes`, `directed_links`, `graph_digest` in the file).
    #[serde(flatten)]
    pub graph: GraphStamp,
    /// The collective (`broadcast R` or `allgather`).
    pub collective: String,
    /// Chunks per block.
    pub chunks: u32,
    /// The port model (`all` or K).
    pub ports: String,
    /// The number of steps shown infeasible.
    pub time: usize,
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
    /// The proof's file (`proof.lrat` or `proof.drat`).
    pub proof: String,
}

/// Why a collective certificate is not accepted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CollectiveCertificateError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// `provenance.json` is not a collective certificate's, or names values
    /// that cannot be read.
    #[error("provenance.json is not a collective certificate's: {0}")]
    Provenance(String),
    /// The certificate was made for another graph.
    #[error(transparent)]
    WrongGraph(#[from] WrongGraph),
    /// The certificate is about another collective than the one asked.
    #[error("the certificate is about {found}, not {asked}")]
    WrongCollective {
        /// What it names.
        found: String,
        /// What was asked.
        asked: String,
    },
    /// The regenerated formula differs from `formula.cnf` or the provenance.
    #[error(
        "the certificate does not match: the regenerated formula differs from the one in formula.cnf (or its recorded size or digest)"
    )]
    FormulaDiffers,
    /// The formula could not be regenerated.
    #[error("the formula cannot be regenerated: {0}")]
    Encode(#[from] super::collective_copies::CollectiveSearchError),
    /// The proof is missing or does not refute the formula.
    #[error(transparent)]
    Proof(#[from] CertificateError),
}

impl CollectiveCertificateError {
    /// Whether the failure is a file that cannot be read, or a certificate
    /// that cannot be checked here, rather than one that does not hold.
    pub fn is_io(&self) -> bool {
        match self {
            CollectiveCertificateError::Read { .. } => true,
            CollectiveCertificateError::Proof(e) => e.is_io(),
            _ => false,
        }
    }
}

impl From<CertificateStepError> for CollectiveCertificateError {
    fn from(e: CertificateStepError) -> Self {
        match e {
            CertificateStepError::Read { path, source } => {
                CollectiveCertificateError::Read { path, source }
            }
            CertificateStepError::Provenance(e) => {
                CollectiveCertificateError::Provenance(e.to_string())
            }
            CertificateStepError::FormulaDiffers => CollectiveCertificateError::FormulaDiffers,
            CertificateStepError::Proof(e) => CollectiveCertificateError::Proof(e),
        }
    }
}

/// A collective certificate [`verify`] accepted.
#[derive(Clone, Debug)]
pub struct VerifiedCollective {
    /// Its provenance.
    pub provenance: CollectiveProvenance,
    /// What the proof checker saw.
    pub report: ProofReport,
}

impl VerifiedCollective {
    /// The report for people: the claim, and what was checked.
    pub fn text(&self) -> [String; 2] {
        let p = &self.provenance;
        [
            format!("verified: {}", p.claim),
            format!(
                "  formula regenerated ({} variables, {} clauses), {} checked",
                p.variables, p.clauses, p.proof
            ),
        ]
    }
}

/// The report for programs (`txverify-verify-collective-proof/1`, docs/json.md).
pub fn report_json(
    network: &str,
    dir: &Path,
    checked: &Result<VerifiedCollective, CollectiveCertificateError>,
    exit_code: u8,
) -> serde_json::Value {
    serde_json::json!({
        "schema": "txverify-verify-collective-proof/1",
        "network": network,
        "certificate": dir.display().to_string(),
        "verified": checked.is_ok(),
        "claim": checked.as_ref().ok().map(|c| c.provenance.claim.clone()),
        "time": checked.as_ref().ok().map(|c| c.provenance.time),
        "error": checked.as_ref().err().map(|e| e.to_string()),
        "exit_code": exit_code,
    })
}

/// What an unsatisfiable formula proves.
pub fn claim(network: &str, collective: Collective, ports: Ports, time: usize) -> String {
    let how = match collective.items() {
        txverify_core::schedule::Items::Sums => "partial sums combined",
        _ => "copies",
    };
    format!(
        "no schedule of {collective} in {} chunk(s) on {network} ({ports} ports, store-and-forward, buffering, {how}) finishes in {time} steps",
        collective.chunks()
    )
}

/// The provenance of `encoding`.
pub(crate) fn provenance_of(
    network: &str,
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
    encoding: &CollectiveEncoding,
    proof: ProofKind,
) -> CollectiveProvenance {
    CollectiveProvenance {
        format: COLLECTIVE_CERTIFICATE_FORMAT.to_string(),
        encoding: encoding_version(collective).to_string(),
        network: network.to_string(),
        graph: GraphStamp::of(graph),
        collective: collective.to_string(),
        chunks: collective.chunks(),
        ports: ports.to_string(),
        time,
        variables: encoding.cnf.vars(),
        clauses: encoding.cnf.clauses().len(),
        digest: format!("{:016x}", encoding.cnf.digest()),
        claim: claim(network, collective, ports, time),
        solver: match proof {
            ProofKind::Lrat => "cadical".to_string(),
            ProofKind::Drat => "varisat".to_string(),
        },
        proof: proof.file_name().to_string(),
    }
}

fn formula_text(p: &CollectiveProvenance, encoding: &CollectiveEncoding) -> String {
    let comments = [
        format!("txverify {}", p.encoding),
        format!("network {}", p.network),
        graph_comment(&p.graph),
        format!(
            "collective {} in {} chunk(s), ports {}",
            p.collective, p.chunks, p.ports
        ),
        format!("time {}", p.time),
        format!("unsatisfiable means: {}", p.claim),
    ];
    encoding.cnf.to_dimacs(&comments)
}

/// Writes `provenance.json` and `formula.cnf` into `dir` (the proof is
/// already there).
pub(crate) fn write(
    dir: &Path,
    provenance: &CollectiveProvenance,
    encoding: &CollectiveEncoding,
) -> std::io::Result<()> {
    write_files(dir, provenance, formula_text(provenance, encoding))
}

/// Whether `dir` holds a collective certificate.
pub fn is_collective_certificate(dir: &Path) -> bool {
    provenance_format_is(dir, COLLECTIVE_CERTIFICATE_FORMAT)
}

/// Checks the certificate in `dir` against `graph`; with `asked`, the
/// certificate must be about that collective (name, root and chunks).
pub fn verify(
    graph: &Graph,
    dir: &Path,
    asked: Option<Collective>,
    max_variables: u64,
) -> Result<VerifiedCollective, CollectiveCertificateError> {
    let bad = |e: String| CollectiveCertificateError::Provenance(e);
    let provenance: CollectiveProvenance = read_provenance(dir)?;
    if provenance.format != COLLECTIVE_CERTIFICATE_FORMAT {
        return Err(bad(format!(
            "it names {}, this build checks {COLLECTIVE_CERTIFICATE_FORMAT}",
            provenance.format
        )));
    }
    provenance.graph.check(graph)?;
    let collective = provenance
        .collective
        .parse::<Collective>()
        .and_then(|c| c.with_chunks(parse_chunks(&provenance.chunks.to_string())?))
        .map_err(|e| bad(e.to_string()))?;
    if let Some(asked) = asked
        && asked != collective
    {
        return Err(CollectiveCertificateError::WrongCollective {
            found: format!("{collective} in {} chunk(s)", collective.chunks()),
            asked: format!("{asked} in {} chunk(s)", asked.chunks()),
        });
    }
    if let Some(root) = collective.root()
        && root as usize >= graph.nodes()
    {
        return Err(bad(format!("root {root} is not a node")));
    }
    let ports = provenance
        .ports
        .parse::<Ports>()
        .map_err(|e| bad(e.to_string()))?;
    let kind = match provenance.proof.as_str() {
        "proof.lrat" => ProofKind::Lrat,
        "proof.drat" => ProofKind::Drat,
        other => return Err(bad(format!("unknown proof file `{other}`"))),
    };
    let estimate = super::collective_formula::estimate(graph, collective, provenance.time);
    if estimate > max_variables {
        return Err(super::collective_copies::CollectiveSearchError::OverLimit {
            time: provenance.time,
            estimate,
            limit: max_variables,
        }
        .into());
    }
    let encoding = encode(graph, collective, ports, provenance.time)?;
    let expected = provenance_of(
        &provenance.network,
        graph,
        collective,
        ports,
        provenance.time,
        &encoding,
        kind,
    );
    let formula = formula_text(&expected, &encoding);
    let report = check_regenerated(dir, expected == provenance, &formula, &encoding.cnf, kind)?;
    Ok(VerifiedCollective { provenance, report })
}
