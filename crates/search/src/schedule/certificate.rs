//! Certificates that no schedule of a collective (total exchange, broadcast,
//! allgather, reduce, reduce-scatter, allreduce, with C chunks, under K ports
//! or all) on a network finishes in `T` steps, in `DIR/T<t>/`:
//! `provenance.json` (the network, its graph's digest, the collective, chunks,
//! ports, `T`, for a total exchange the path class and what it restricts, the
//! formula's size and digest), `formula.cnf` (DIMACS, with the provenance in
//! comments) and the solver's proof (`proof.lrat` from CaDiCaL, `proof.drat`
//! from varisat).
//!
//! [`verify`] is the one check of every such certificate, and trusts nothing
//! the search wrote but the proof's claim: it builds the graph from the network
//! it is given, checks its digest, regenerates the formula with the documented
//! encoder of the collective the provenance names ([`super::encode`] for a
//! total exchange, [`super::collective_formula`] for the others) from the
//! recorded `T`, chunks, ports and path class, compares it byte for byte with
//! `formula.cnf`, and runs the proof checker ([`txverify_proofcheck`], no code
//! shared with the solver) on it.
//!
//! The layout has a version field, `format`: [`CERTIFICATE_FORMAT`] is written;
//! the two layouts written before it ([`EXCHANGE_FORMAT_1`],
//! [`COLLECTIVE_FORMAT_1`]) are still read, each into the one [`Provenance`]
//! with the values its kind implies (docs/proofcheck.md).

use super::collective_copies::CollectiveSearchError;
use super::encode::{EXCHANGE_ENCODING_VERSION, ExchangeEncodeError, PathClass};
use crate::certificate::{CertificateError, ProofKind, check_proof_file};
use crate::cnf::Cnf;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Items, Ports, parse_chunks};
use txverify_proofcheck::ProofReport;

/// The layout of every schedule certificate written now: its provenance names
/// the collective.
pub const CERTIFICATE_FORMAT: &str = "txverify-schedule-certificate-2";

/// The layout total-exchange certificates had before [`CERTIFICATE_FORMAT`]
/// (no `collective` nor `chunks`: a total exchange in 1 chunk); still read.
pub const EXCHANGE_FORMAT_1: &str = "txverify-schedule-certificate-1";

/// The layout the other collectives' certificates had before
/// [`CERTIFICATE_FORMAT`] (no `paths`, `covers_all_schedules` nor
/// `restrictions`: their formula restricts nothing); still read.
pub const COLLECTIVE_FORMAT_1: &str = "txverify-collective-certificate-1";

/// The largest total-exchange formula [`verify`] regenerates, in estimated
/// variables: the search's own default limit (docs/limits.md).
pub const MAX_EXCHANGE_CERTIFICATE_VARIABLES: u64 = super::encode::MAX_VARIABLES;

/// The largest formula of another collective [`verify`] regenerates, in
/// estimated variables: the time a certificate states is read from a file, so
/// a formula past this is refused before it is built (docs/limits.md).
pub const MAX_CERTIFICATE_VARIABLES: u64 = 1 << 26;

/// The varisat release the crate is built with (Cargo.toml pins 0.2).
const VARISAT_VERSION: &str = "0.2";

/// The contents of a schedule certificate's `provenance.json`, whatever its
/// collective and layout version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// [`CERTIFICATE_FORMAT`] (or a layout read from before it).
    pub format: String,
    /// The encoding's version.
    pub encoding: String,
    /// The network as it was named.
    pub network: String,
    /// Its graph (`nodes`, `directed_links`, `graph_digest` in the file).
    #[serde(flatten)]
    pub graph: GraphStamp,
    /// The collective (`total-exchange`, `broadcast R`, `allgather`, ...).
    pub collective: String,
    /// Chunks per block.
    pub chunks: u32,
    /// The port model (`all` or K).
    pub ports: String,
    /// The number of steps shown infeasible.
    pub time: usize,
    /// The paths a total exchange's messages were allowed (none for the
    /// other collectives, whose formula restricts nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<PathClass>,
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
    /// The proof's file (and format).
    pub proof: String,
}

/// `provenance.json` of [`EXCHANGE_FORMAT_1`].
#[derive(Deserialize)]
struct ExchangeProvenance1 {
    format: String,
    encoding: String,
    network: String,
    #[serde(flatten)]
    graph: GraphStamp,
    ports: String,
    time: usize,
    paths: PathClass,
    covers_all_schedules: bool,
    restrictions: Vec<String>,
    variables: usize,
    clauses: usize,
    digest: String,
    claim: String,
    solver: String,
    proof: String,
}

impl From<ExchangeProvenance1> for Provenance {
    fn from(p: ExchangeProvenance1) -> Provenance {
        Provenance {
            format: p.format,
            encoding: p.encoding,
            network: p.network,
            graph: p.graph,
            collective: Collective::TotalExchange.to_string(),
            chunks: 1,
            ports: p.ports,
            time: p.time,
            paths: Some(p.paths),
            covers_all_schedules: p.covers_all_schedules,
            restrictions: p.restrictions,
            variables: p.variables,
            clauses: p.clauses,
            digest: p.digest,
            claim: p.claim,
            solver: p.solver,
            proof: p.proof,
        }
    }
}

/// `provenance.json` of [`COLLECTIVE_FORMAT_1`].
#[derive(Deserialize)]
struct CollectiveProvenance1 {
    format: String,
    encoding: String,
    network: String,
    #[serde(flatten)]
    graph: GraphStamp,
    collective: String,
    chunks: u32,
    ports: String,
    time: usize,
    variables: usize,
    clauses: usize,
    digest: String,
    claim: String,
    solver: String,
    proof: String,
}

impl From<CollectiveProvenance1> for Provenance {
    fn from(p: CollectiveProvenance1) -> Provenance {
        Provenance {
            format: p.format,
            encoding: p.encoding,
            network: p.network,
            graph: p.graph,
            collective: p.collective,
            chunks: p.chunks,
            ports: p.ports,
            time: p.time,
            paths: None,
            covers_all_schedules: true,
            restrictions: vec![],
            variables: p.variables,
            clauses: p.clauses,
            digest: p.digest,
            claim: p.claim,
            solver: p.solver,
            proof: p.proof,
        }
    }
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
    /// `provenance.json` does not parse as a schedule certificate's, or names
    /// values that cannot be read.
    #[error("provenance.json is not a schedule certificate's: {0}")]
    Provenance(String),
    /// Another layout or encoding version.
    #[error("the certificate does not match: it names {found:?}, this build checks {checks:?}")]
    WrongVersion {
        /// What it names.
        found: String,
        /// What this build checks.
        checks: String,
    },
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
    /// The regenerated formula differs from `formula.cnf` or the recorded size or digest.
    #[error(
        "the certificate does not match: the regenerated formula differs from the one in formula.cnf (or its recorded size or digest)"
    )]
    FormulaDiffers,
    /// A total exchange's formula could not be regenerated.
    #[error("the formula cannot be regenerated: {0}")]
    Exchange(#[from] ExchangeEncodeError),
    /// Another collective's formula could not be regenerated.
    #[error("the formula cannot be regenerated: {0}")]
    Collective(#[from] CollectiveSearchError),
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
    pub provenance: Provenance,
    /// What the proof checker saw.
    pub report: ProofReport,
}

impl VerifiedSchedule {
    /// Whether it is about a total exchange.
    pub fn is_total_exchange(&self) -> bool {
        self.provenance.paths.is_some()
    }
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

/// What an unsatisfiable total-exchange formula for `time` steps on `network`
/// proves.
pub fn exchange_claim(network: &str, time: usize, paths: PathClass) -> String {
    let among = match paths {
        PathClass::Any => String::new(),
        other => format!(" among those whose packets keep to {other}"),
    };
    format!(
        "no total-exchange schedule on {network} (all-port, store-and-forward, buffering) finishes in {time} steps{among}"
    )
}

/// What an unsatisfiable formula of another collective proves.
pub fn collective_claim(
    network: &str,
    collective: Collective,
    ports: Ports,
    time: usize,
) -> String {
    let how = match collective.items() {
        Items::Sums => "partial sums combined",
        _ => "copies",
    };
    format!(
        "no schedule of {collective} in {} chunk(s) on {network} ({ports} ports, store-and-forward, buffering, {how}) finishes in {time} steps",
        collective.chunks()
    )
}

/// The restrictions of a path class, in words (none for any paths).
pub fn restrictions(paths: PathClass) -> Vec<String> {
    match paths {
        PathClass::Any => vec![],
        other => vec![format!("packets keep to {other}")],
    }
}

/// What a certificate is about: the collective, its port model and, for a
/// total exchange, the paths its messages were allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subject {
    /// The collective, with its chunks.
    pub collective: Collective,
    /// The port model (all ports for a total exchange).
    pub ports: Ports,
    /// The path class of a total exchange (ignored for the others).
    pub paths: PathClass,
}

impl Subject {
    /// A total exchange whose packets keep to `paths`.
    pub fn exchange(paths: PathClass) -> Subject {
        Subject {
            collective: Collective::TotalExchange,
            ports: Ports::All,
            paths,
        }
    }

    /// Another collective under `ports`.
    pub fn collective(collective: Collective, ports: Ports) -> Subject {
        Subject {
            collective,
            ports,
            paths: PathClass::Any,
        }
    }

    fn is_exchange(&self) -> bool {
        self.collective == Collective::TotalExchange
    }

    /// The version of the encoder of its formula.
    fn encoding(&self) -> &'static str {
        match self.is_exchange() {
            true => EXCHANGE_ENCODING_VERSION,
            false => super::collective_formula::encoding_version(self.collective),
        }
    }

    /// The largest formula [`verify`] regenerates for it.
    fn max_variables(&self) -> u64 {
        match self.is_exchange() {
            true => MAX_EXCHANGE_CERTIFICATE_VARIABLES,
            false => MAX_CERTIFICATE_VARIABLES,
        }
    }

    /// Its formula for `time` steps on `graph`, refused before it is built
    /// when estimated at more than `max_variables` variables.
    fn encode(
        &self,
        graph: &Graph,
        time: usize,
        max_variables: u64,
    ) -> Result<Cnf, ScheduleCertificateError> {
        let exchange = self.is_exchange();
        let estimate = match exchange {
            true => super::encode::estimate_variables(graph, time, self.paths),
            false => super::collective_formula::estimate(graph, self.collective, time),
        };
        let limit = max_variables;
        if estimate > limit {
            return Err(match exchange {
                true => ExchangeEncodeError::OverLimit {
                    time,
                    estimate,
                    limit,
                }
                .into(),
                false => CollectiveSearchError::OverLimit {
                    time,
                    estimate,
                    limit,
                }
                .into(),
            });
        }
        Ok(match exchange {
            true => super::encode::encode_exchange(graph, time, self.paths)?.cnf,
            false => {
                super::collective_formula::encode(graph, self.collective, self.ports, time)?.cnf
            }
        })
    }
}

/// The provenance of `cnf`, the formula of `subject` for `time` steps on
/// `graph`, refuted by a proof of `kind`.
pub(crate) fn provenance_of(
    network: &str,
    graph: &Graph,
    subject: Subject,
    time: usize,
    cnf: &Cnf,
    kind: ProofKind,
) -> Provenance {
    let exchange = subject.is_exchange();
    let (claim, solver, proof) = match (exchange, kind) {
        (true, _) => (
            exchange_claim(network, time, subject.paths),
            format!("varisat {VARISAT_VERSION}"),
            "proof.drat (binary DRAT)".to_string(),
        ),
        (false, ProofKind::Lrat) => (
            collective_claim(network, subject.collective, subject.ports, time),
            "cadical".to_string(),
            kind.file_name().to_string(),
        ),
        (false, ProofKind::Drat) => (
            collective_claim(network, subject.collective, subject.ports, time),
            "varisat".to_string(),
            kind.file_name().to_string(),
        ),
    };
    Provenance {
        format: CERTIFICATE_FORMAT.to_string(),
        encoding: subject.encoding().to_string(),
        network: network.to_string(),
        graph: GraphStamp::of(graph),
        collective: subject.collective.to_string(),
        chunks: subject.collective.chunks(),
        ports: subject.ports.to_string(),
        time,
        paths: exchange.then_some(subject.paths),
        covers_all_schedules: !exchange || subject.paths.covers_all_schedules(),
        restrictions: match exchange {
            true => restrictions(subject.paths),
            false => vec![],
        },
        variables: cnf.vars(),
        clauses: cnf.clauses().len(),
        digest: format!("{:016x}", cnf.digest()),
        claim,
        solver,
        proof,
    }
}

/// Writes the certificate of `cnf`, the formula of `subject` for `time` steps
/// on `graph` (the network named `network`), beside its proof in `dir`, then
/// checks it as `verify-proof` would (refusing a formula over
/// `max_variables`, as the search that wrote it): what the check found when it
/// passed. The one writer of both searches.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_checked(
    dir: &Path,
    network: &str,
    graph: &Graph,
    subject: Subject,
    time: usize,
    cnf: &Cnf,
    kind: ProofKind,
    max_variables: u64,
) -> std::io::Result<Option<VerifiedSchedule>> {
    let provenance = provenance_of(network, graph, subject, time, cnf, kind);
    write(dir, &provenance, cnf)?;
    let asked = Some(subject.collective);
    Ok(verify_within(graph, dir, asked, Some(max_variables)).ok())
}

/// The DIMACS text of `formula.cnf`: the provenance in comments, then the clauses.
fn formula_text(p: &Provenance, cnf: &Cnf) -> String {
    let mut comments = vec![
        format!("txverify {}", p.encoding),
        format!("network {}", p.network),
        graph_comment(&p.graph),
    ];
    match p.paths {
        Some(paths) => comments.extend([format!("time {}", p.time), format!("paths {paths}")]),
        None => comments.extend([
            format!(
                "collective {} in {} chunk(s), ports {}",
                p.collective, p.chunks, p.ports
            ),
            format!("time {}", p.time),
        ]),
    }
    comments.push(format!("unsatisfiable means: {}", p.claim));
    cnf.to_dimacs(&comments)
}

/// Writes `provenance.json` and `formula.cnf` into `dir` (the proof is
/// already there).
pub(crate) fn write(dir: &Path, provenance: &Provenance, cnf: &Cnf) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(provenance).map_err(std::io::Error::other)?;
    // Whole files only, provenance.json last: a killed run leaves an incomplete folder.
    let formula = formula_text(provenance, cnf);
    crate::certificate::write_whole(&dir.join("formula.cnf"), formula.as_bytes())?;
    crate::certificate::write_whole(&dir.join("provenance.json"), (json + "\n").as_bytes())
}

/// The `format` of `dir`'s `provenance.json`, if it has one.
fn format_of(dir: &Path) -> Option<String> {
    let bytes = std::fs::read(dir.join("provenance.json")).ok()?;
    let value = serde_json::from_slice::<serde_json::Value>(&bytes).ok()?;
    value["format"].as_str().map(str::to_string)
}

/// Whether `dir` holds a schedule certificate of any collective, in any layout
/// this build reads (its provenance names the format).
pub fn is_schedule_certificate(dir: &Path) -> bool {
    format_of(dir).is_some_and(|f| {
        [CERTIFICATE_FORMAT, EXCHANGE_FORMAT_1, COLLECTIVE_FORMAT_1].contains(&f.as_str())
    })
}

/// Whether `dir` holds a schedule certificate of a collective other than the
/// total exchange.
pub fn is_collective_certificate(dir: &Path) -> bool {
    match format_of(dir).as_deref() {
        Some(COLLECTIVE_FORMAT_1) => true,
        Some(CERTIFICATE_FORMAT) => read_provenance(dir)
            .is_ok_and(|p| p.collective != Collective::TotalExchange.to_string()),
        _ => false,
    }
}

/// `name` in the certificate's folder, read whole.
fn read_in(dir: &Path, name: &str) -> Result<Vec<u8>, ScheduleCertificateError> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| ScheduleCertificateError::Read { path, source })
}

/// `provenance.json` read in whichever layout its `format` names.
pub fn read_provenance(dir: &Path) -> Result<Provenance, ScheduleCertificateError> {
    let bad = |e: serde_json::Error| ScheduleCertificateError::Provenance(e.to_string());
    let value: serde_json::Value =
        serde_json::from_slice(&read_in(dir, "provenance.json")?).map_err(bad)?;
    match value["format"].as_str() {
        Some(CERTIFICATE_FORMAT) => serde_json::from_value(value).map_err(bad),
        Some(EXCHANGE_FORMAT_1) => serde_json::from_value::<ExchangeProvenance1>(value)
            .map(Provenance::from)
            .map_err(bad),
        Some(COLLECTIVE_FORMAT_1) => serde_json::from_value::<CollectiveProvenance1>(value)
            .map(Provenance::from)
            .map_err(bad),
        other => Err(ScheduleCertificateError::WrongVersion {
            found: other.unwrap_or("no format").to_string(),
            checks: format!("{CERTIFICATE_FORMAT} (or {EXCHANGE_FORMAT_1}, {COLLECTIVE_FORMAT_1})"),
        }),
    }
}

/// What `provenance` says its certificate is about, checked against `graph`
/// and, with `asked`, that collective (name, root and chunks).
fn subject_of(
    provenance: &Provenance,
    graph: &Graph,
    asked: Option<Collective>,
) -> Result<(Subject, ProofKind), ScheduleCertificateError> {
    let bad = |e: String| ScheduleCertificateError::Provenance(e);
    let collective = provenance
        .collective
        .parse::<Collective>()
        .and_then(|c| match c {
            Collective::TotalExchange => Ok(c),
            _ => c.with_chunks(parse_chunks(&provenance.chunks.to_string())?),
        })
        .map_err(|e| bad(e.to_string()))?;
    if let Some(asked) = asked
        && asked != collective
    {
        return Err(ScheduleCertificateError::WrongCollective {
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
    let subject = match (collective, provenance.paths) {
        (Collective::TotalExchange, Some(paths)) => Subject::exchange(paths),
        (Collective::TotalExchange, None) => {
            return Err(bad("a total exchange's certificate names no paths".into()));
        }
        _ => Subject::collective(collective, ports),
    };
    if provenance.encoding != subject.encoding() {
        return Err(ScheduleCertificateError::WrongVersion {
            found: format!("{} with {}", provenance.format, provenance.encoding),
            checks: format!("{CERTIFICATE_FORMAT} with {}", subject.encoding()),
        });
    }
    let kind = match provenance.proof.split(' ').next() {
        Some("proof.lrat") => ProofKind::Lrat,
        Some("proof.drat") => ProofKind::Drat,
        _ => return Err(bad(format!("unknown proof file `{}`", provenance.proof))),
    };
    Ok((subject, kind))
}

/// Checks the certificate in `dir` against `graph` (see the module notes);
/// with `asked`, the certificate must be about that collective.
pub fn verify(
    graph: &Graph,
    dir: &Path,
    asked: Option<Collective>,
) -> Result<VerifiedSchedule, ScheduleCertificateError> {
    verify_within(graph, dir, asked, None)
}

/// [`verify`], refusing a formula estimated to have more than `max_variables`
/// variables (by default, the limit of its collective) before it is
/// regenerated: the time a certificate states is read from a file.
pub fn verify_within(
    graph: &Graph,
    dir: &Path,
    asked: Option<Collective>,
    max_variables: Option<u64>,
) -> Result<VerifiedSchedule, ScheduleCertificateError> {
    let provenance = read_provenance(dir)?;
    provenance.graph.check(graph)?;
    let (subject, kind) = subject_of(&provenance, graph, asked)?;
    let limit = max_variables.unwrap_or(subject.max_variables());
    let cnf = subject.encode(graph, provenance.time, limit)?;
    // Everything the provenance states must be what the encoder gives; the
    // layout is the one it was read in.
    let expected = Provenance {
        format: provenance.format.clone(),
        ..provenance_of(
            &provenance.network,
            graph,
            subject,
            provenance.time,
            &cnf,
            kind,
        )
    };
    // Who wrote a total exchange's proof, and how its file is described, are
    // not checked (the proof is).
    let expected = match subject.is_exchange() {
        true => Provenance {
            solver: provenance.solver.clone(),
            proof: provenance.proof.clone(),
            ..expected
        },
        false => expected,
    };
    let same = expected == provenance;
    if !same || read_in(dir, "formula.cnf")? != formula_text(&expected, &cnf).as_bytes() {
        return Err(ScheduleCertificateError::FormulaDiffers);
    }
    let report = check_proof_file(cnf.vars(), cnf.clauses(), &dir.join(kind.file_name()), kind)?;
    Ok(VerifiedSchedule { provenance, report })
}
