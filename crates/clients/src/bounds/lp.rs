//! The LP bound's certificate (schema `txverify-lp-bound/1`, docs/json.md):
//! written by `bounds --network NET --lp-certificate FILE`, checked by
//! `verify-bound --network NET FILE`, which recomputes the bound with the
//! core's exact evaluator ([`txverify_core::bounds::lp::evaluate`]) and trusts
//! nothing in the file but the weights.
//!
//! A certificate lists `[u, v, w]` for directed links u → v of the network (its
//! node numbers; for an edge list, the numbers of the file), w a non-negative
//! integer; a link not listed weighs 0. Refused, each with a message: a file
//! over [`MAX_CERTIFICATE_BYTES`], JSON that does not parse or a weight that is
//! not a whole number in 0 … 2^64 − 1 (with the line and column), a wrong
//! schema, a pair that is not a link, a link listed twice, weights that are
//! all 0 or add up to more than 2^64 − 1. A stated `bound` above the recomputed
//! one is a rejected certificate, not bad input.

use crate::shared::failure::{ErrorReport, Failure, Status, json_line};
use serde::{Deserialize, Serialize};
use std::path::Path;
use txverify_core::bounds::lp::{self, LpBound, LpError, LpSolution};
use txverify_core::load::read::{ReadError, ReadLimits, read_text};
use txverify_core::network::Graph;

/// The certificate's schema.
pub const LP_CERTIFICATE_SCHEMA: &str = "txverify-lp-bound/1";

/// The report of `verify-bound`.
pub const VERIFY_BOUND_SCHEMA: &str = "txverify-verify-bound/1";

/// The largest certificate read (a weight per directed link of a large
/// network is a few tens of megabytes).
pub const MAX_CERTIFICATE_BYTES: u64 = 1 << 28;

/// A certificate: integer weights on the directed links, and the bound they
/// prove.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LpCertificate {
    /// [`LP_CERTIFICATE_SCHEMA`].
    pub schema: String,
    /// The network, as named when it was written (for the reader).
    #[serde(default)]
    pub network: Option<String>,
    /// The bound the weights prove, as stated by the writer.
    #[serde(default)]
    pub bound: Option<u64>,
    /// `[u, v, w]`: weight w on the directed link u → v (links not listed: 0).
    pub weights: Vec<(u32, u32, u64)>,
}

impl LpCertificate {
    /// The certificate of `solution` on `graph`, named `network`: its
    /// positive weights, by link id.
    pub fn of(network: &str, graph: &Graph, solution: &LpSolution) -> LpCertificate {
        let weights = solution
            .weights
            .iter()
            .enumerate()
            .filter(|&(_, &w)| w > 0)
            .map(|(l, &w)| {
                let (u, v) = graph.endpoints(l as u32);
                (u, v, w)
            })
            .collect();
        LpCertificate {
            schema: LP_CERTIFICATE_SCHEMA.to_string(),
            network: Some(network.to_string()),
            bound: Some(solution.bound.value),
            weights,
        }
    }
}

/// Why a certificate proves nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// The file cannot be read.
    #[error("{file}: cannot read: {reason}")]
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
    /// Larger than [`MAX_CERTIFICATE_BYTES`].
    #[error("{file}: larger than {MAX_CERTIFICATE_BYTES} bytes")]
    TooLarge {
        /// The file.
        file: String,
    },
    /// Not a certificate's JSON (a negative, fractional or too large weight
    /// included).
    #[error("{file}:{line}:{column}: {message}")]
    Json {
        /// The file.
        file: String,
        /// Line (1-based).
        line: usize,
        /// Column (1-based).
        column: usize,
        /// What the parser says.
        message: String,
    },
    /// Another schema.
    #[error("{file}: schema `{found}`, expected `{LP_CERTIFICATE_SCHEMA}`")]
    Schema {
        /// The file.
        file: String,
        /// The schema given.
        found: String,
    },
    /// A pair of nodes that is not a directed link of the network.
    #[error("{file}: weight {index} ([{u}, {v}, …]): {u} → {v} is not a link of {network}")]
    NotALink {
        /// The file.
        file: String,
        /// The entry (0-based).
        index: usize,
        /// Tail.
        u: u32,
        /// Head.
        v: u32,
        /// The network.
        network: String,
    },
    /// A link listed twice.
    #[error("{file}: weight {index} lists {u} → {v} again (first as weight {first})")]
    Duplicate {
        /// The file.
        file: String,
        /// The entry (0-based).
        index: usize,
        /// The first entry of the link.
        first: usize,
        /// Tail.
        u: u32,
        /// Head.
        v: u32,
    },
    /// The weights give no bound.
    #[error("{file}: {error}")]
    NoBound {
        /// The file.
        file: String,
        /// Why.
        #[source]
        error: LpError,
    },
}

/// What `verify-bound` found (schema [`VERIFY_BOUND_SCHEMA`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyBoundReport {
    /// [`VERIFY_BOUND_SCHEMA`].
    pub schema: &'static str,
    /// The certificate.
    pub file: String,
    /// The network checked against, as given.
    pub network: String,
    /// The network the certificate names, if any.
    pub certificate_network: Option<String>,
    /// The bound recomputed: no total exchange on the network takes fewer steps
    /// (all-port, any routing, any buffering).
    pub bound: u64,
    /// Σ_{s≠t} d_w(s, t).
    pub weighted_distance: u128,
    /// Σ_e w(e).
    pub total_weight: u128,
    /// Their ratio.
    pub ratio: f64,
    /// Links with a positive weight.
    pub weighted_links: usize,
    /// The bound the certificate states, if any.
    pub stated_bound: Option<u64>,
    /// Whether the stated bound (if any) is at most the recomputed one.
    pub accepted: bool,
}

impl VerifyBoundReport {
    /// The report in words.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{}: LP bound {} on {} (all-port, any routing, any buffering): Σ d_w = {}, Σ w = {}, ratio {:.4}, {} weighted links\n",
            self.file,
            self.bound,
            self.network,
            self.weighted_distance,
            self.total_weight,
            self.ratio,
            self.weighted_links
        );
        if let Some(stated) = self.stated_bound.filter(|_| !self.accepted) {
            out.push_str(&format!(
                "REJECTED: the certificate states {stated}, its weights prove {}\n",
                self.bound
            ));
        }
        out
    }
}

/// Reads the certificate `path`, at most [`MAX_CERTIFICATE_BYTES`].
pub fn read_certificate(path: &Path) -> Result<LpCertificate, CertificateError> {
    let text = read_certificate_text(path)?;
    parse_certificate(&path.display().to_string(), &text)
}

/// The text of the certificate at `path`, read once (a pipe gives its text
/// once), at most [`MAX_CERTIFICATE_BYTES`].
fn read_certificate_text(path: &Path) -> Result<String, CertificateError> {
    let file = path.display().to_string();
    let unreadable = |e: ReadError| CertificateError::Unreadable {
        file: file.clone(),
        reason: e.to_string(),
    };
    let limits = ReadLimits {
        bytes: MAX_CERTIFICATE_BYTES,
        what: "an LP certificate",
        ..ReadLimits::TEXT
    };
    match read_text(path, limits) {
        Ok(text) => Ok(text),
        Err(ReadError::TooLarge { .. }) => Err(CertificateError::TooLarge { file }),
        Err(e) => Err(unreadable(e)),
    }
}

/// Reads a certificate from its text, named `file` in messages, at most
/// [`MAX_CERTIFICATE_BYTES`].
pub fn parse_certificate(file: &str, text: &str) -> Result<LpCertificate, CertificateError> {
    let file = file.to_string();
    if text.len() as u64 > MAX_CERTIFICATE_BYTES {
        return Err(CertificateError::TooLarge { file });
    }
    let certificate: LpCertificate =
        serde_json::from_str(text).map_err(|e| CertificateError::Json {
            file: file.clone(),
            line: e.line(),
            column: e.column(),
            message: txverify_core::format::json_error_message(&e),
        })?;
    if certificate.schema != LP_CERTIFICATE_SCHEMA {
        return Err(CertificateError::Schema {
            file,
            found: certificate.schema,
        });
    }
    Ok(certificate)
}

/// The weights of `certificate` by link id of `graph` (named `network`).
pub fn link_weights(
    file: &str,
    network: &str,
    graph: &Graph,
    certificate: &LpCertificate,
) -> Result<Vec<u64>, CertificateError> {
    let mut weights = vec![0u64; graph.directed_links()];
    let mut listed: Vec<Option<usize>> = vec![None; graph.directed_links()];
    for (index, &(u, v, w)) in certificate.weights.iter().enumerate() {
        let link = graph.link(u, v).ok_or_else(|| CertificateError::NotALink {
            file: file.to_string(),
            index,
            u,
            v,
            network: network.to_string(),
        })? as usize;
        if let Some(first) = listed[link] {
            return Err(CertificateError::Duplicate {
                file: file.to_string(),
                index,
                first,
                u,
                v,
            });
        }
        listed[link] = Some(index);
        weights[link] = w;
    }
    Ok(weights)
}

/// `verify-bound`: the bound the certificate `path` proves on `graph`.
pub fn verify_bound(
    path: &Path,
    network: &str,
    graph: &Graph,
) -> Result<VerifyBoundReport, CertificateError> {
    let certificate = read_certificate(path)?;
    verify_certificate(&path.display().to_string(), certificate, network, graph)
}

/// The bound `certificate` (named `file`) proves on `graph`, named `network`.
pub fn verify_certificate(
    file: &str,
    certificate: LpCertificate,
    network: &str,
    graph: &Graph,
) -> Result<VerifyBoundReport, CertificateError> {
    let file = file.to_string();
    let weights = link_weights(&file, network, graph, &certificate)?;
    let bound: LpBound =
        lp::evaluate(graph, &weights).map_err(|error| CertificateError::NoBound {
            file: file.clone(),
            error,
        })?;
    Ok(VerifyBoundReport {
        schema: VERIFY_BOUND_SCHEMA,
        file,
        network: network.to_string(),
        certificate_network: certificate.network,
        bound: bound.value,
        weighted_distance: bound.weighted_distance,
        total_weight: bound.total_weight,
        ratio: bound.ratio(),
        weighted_links: weights.iter().filter(|&&w| w > 0).count(),
        stated_bound: certificate.bound,
        accepted: certificate.bound.is_none_or(|b| b <= bound.value),
    })
}

/// `bounds --network NET [--lp-certificate FILE]`: the report with the LP
/// bound ([`crate::bounds::network_report_with_lp`]), and its certificate
/// written to `certificate` when asked (a network of one node has none; the
/// command must name one network of `networks`); with `asked`
/// (`--collective`, `--chunks`) a fabric's bounds of that collective.
pub fn bounds_with_certificate(
    words: &str,
    ports: u64,
    certificate: Option<&Path>,
    networks: usize,
    asked: (Option<&str>, Option<&str>),
) -> Result<crate::bounds::BoundsReport, String> {
    if certificate.is_some() && networks != 1 {
        return Err("--lp-certificate needs exactly one --network".to_string());
    }
    let options = lp::LpOptions::default();
    let (mut report, graph, solution) =
        crate::bounds::network_report_with_lp(words, ports, &options, certificate.is_some())
            .map_err(|e| e.to_string())?;
    if let (Some(collective), chunks) = asked {
        crate::bounds::restate_fabric(&mut report, words, collective, chunks)
            .map_err(|e| e.to_string())?;
    }
    if let Some(path) = certificate {
        let s = solution.ok_or(
            "no LP bound (no links, or a fabric, where it is left out): no certificate written",
        )?;
        let json = serde_json::to_string(&LpCertificate::of(words, &graph, &s))
            .map_err(|e| e.to_string())?;
        std::fs::write(path, json + "\n")
            .map_err(|e| format!("{}: cannot write the certificate: {e}", path.display()))?;
    }
    Ok(report)
}

/// A failed run: the failure, and its JSON error object with `--format json`.
pub type RunFailure = (Failure, Option<ErrorReport>);

/// `verify-bound`'s whole run on the network `shown` (its graph, or why there
/// is none): the report as text or JSON, or the failure with its status.
pub fn verify_bound_run(
    path: &Path,
    shown: &str,
    graph: Result<Graph, String>,
    json: bool,
) -> Result<(String, Status), Box<RunFailure>> {
    let report = graph.and_then(|g| {
        // Read once: a pipe gives its text once.
        let file = path.display().to_string();
        let text = read_certificate_text(path).map_err(|e| e.to_string())?;
        // A `bounds` report of a fabric: its throughput bounds recomputed.
        if let Some(r) = crate::bounds::fabric::verify_stated(&file, &text, shown, &g) {
            return r.map(|r| (if json { json_line(&r) } else { r.text() }, r.accepted));
        }
        let certificate = parse_certificate(&file, &text).map_err(|e| e.to_string())?;
        let r = verify_certificate(&file, certificate, shown, &g).map_err(|e| e.to_string())?;
        Ok((if json { json_line(&r) } else { r.text() }, r.accepted))
    });
    match report {
        Ok((text, accepted)) => Ok((text, Status::of_validity(accepted))),
        Err(message) => {
            let failure = Failure::input(message);
            let object = json.then(|| {
                ErrorReport::new(Some(VERIFY_BOUND_SCHEMA), &failure)
                    .about("file", path.display().to_string())
                    .about("network", shown)
            });
            Err(Box::new((failure, object)))
        }
    }
}
