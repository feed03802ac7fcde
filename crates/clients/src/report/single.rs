//! One file's `check` (text, JSON or an HTML page) and one table's `simulate`:
//! read, load, verify and assemble the report, so that the binary only prints
//! what comes back and exits with its [`Status`].

use super::{CheckReport, Failure, Status, html, json, read_text};
use crate::check::certified::{CertificateLookup, CertificatesError, check_certificates};
use crate::check::{
    NetworkCheck, VerifyOptions, embedding_name, physical_network, simulation_words,
    verify_certified,
};
use crate::simulate::{
    Failure as SimulationFailure, MAX_TRACE_HOPS, MessageRef, SimulationError, SimulationOptions,
    SimulationReport, simulate, trace,
};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use txverify_core::format::{line_col, render_diagnostic};
use txverify_core::group::EnumerationLimits;
use txverify_core::load::{
    FileKind, LoadError, LoadOptions, Loaded, NetworkSpec, Reader, detect, load,
};
use txverify_core::network::{Embedding, Graph};

/// How a single file's report is written: text for people, one JSON line for programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text (errors on standard error).
    Text,
    /// One JSON object per line on standard output (docs/json.md).
    Json,
}

/// One piece of output, in the order it is to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Emit {
    /// For standard output.
    Out(String),
    /// For standard error.
    Err(String),
}

/// What a command printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Its exit status.
    pub status: Status,
    /// What it prints, in order.
    pub emits: Vec<Emit>,
}

impl Outcome {
    fn input(emits: Vec<Emit>) -> Outcome {
        Outcome {
            status: Status::Input,
            emits,
        }
    }
}

/// One file's `check`: an MSCCL program goes to its own checker (the caller's),
/// anything else is checked here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileCheck {
    /// An MSCCL program (told from its text), with that text.
    Msccl(String),
    /// A table's report, or why there is none.
    Done(Outcome),
}

/// Reads and loads a file, with any error (in `format`) kept in `emits`.
pub fn read_and_load(
    path: &Path,
    options: &LoadOptions,
    format: Format,
    emits: &mut Vec<Emit>,
) -> Option<(String, Loaded)> {
    let source = read_source(path, format, emits)?;
    load_source(path, source, options, format, emits)
}

/// Reads a file's text once, with a read error kept in `emits`.
pub fn read_source(path: &Path, format: Format, emits: &mut Vec<Emit>) -> Option<String> {
    read_text(path)
        .map_err(|e| {
            let shown = path.display().to_string();
            let message = format!("cannot read {shown}: {e}");
            emits.push(error_emit(&shown, format, &message, None));
        })
        .ok()
}

/// Loads text read from `path`, with a load error kept in `emits`.
pub fn load_source(
    path: &Path,
    source: String,
    options: &LoadOptions,
    format: Format,
    emits: &mut Vec<Emit>,
) -> Option<(String, Loaded)> {
    let shown = path.display().to_string();
    match load(&source, options) {
        Ok(loaded) => Some((source, loaded)),
        Err(e) => {
            emits.push(load_error_emit(&shown, &source, &e, format));
            None
        }
    }
}

/// One table's `check` before it is written: its report, an MSCCL program's
/// text (for its own checker), or the failure that stopped it.
#[derive(Clone, Debug)]
pub enum SourceCheck {
    /// The table's report.
    Report(Box<CheckReport>),
    /// An MSCCL program (told from its text), with that text.
    Msccl(String),
    /// Why there is no report: a file of another kind, or a load error
    /// (placed at its line and column, with its rendered diagnostic).
    Failed(Failure),
}

/// `check` of the text `source`, shown as `shown`: what the CLI and the
/// bindings both build their reports from. The certificates the table names
/// (or `lookup.proofs`) are checked and handed to the kernel as evidence.
pub fn check_source(
    shown: &str,
    source: String,
    load_options: &LoadOptions,
    options: &VerifyOptions,
    lookup: &CertificateLookup<'_>,
) -> SourceCheck {
    // The file's kind is told from its text, whatever its name (docs/cli.md).
    let kind = detect(&source);
    if kind == FileKind::Msccl {
        return SourceCheck::Msccl(source);
    }
    if let Some(line) = kind.refusal(Reader::Check, shown) {
        return SourceCheck::Failed(Failure::input(line));
    }
    let loaded = match load(&source, load_options) {
        Ok(loaded) => loaded,
        Err(e) => {
            let span = e.span();
            let message = e.to_string();
            let diagnostic = render_diagnostic(shown, &source, span, &message);
            let failure = Failure::input(message)
                .at(Some(line_col(&source, span.start)))
                .shown_as(diagnostic);
            return SourceCheck::Failed(failure);
        }
    };
    let certified = match check_certificates(&loaded, lookup) {
        Ok(certified) => certified,
        Err(e) => return SourceCheck::Failed(certificates_failure(shown, &source, &e)),
    };
    let verification = verify_certified(&loaded, options, certified);
    SourceCheck::Report(Box::new(CheckReport::new(
        shown,
        &source,
        &loaded,
        verification,
    )))
}

/// The input error of certificates that cannot be read, placed at the
/// `certificates:` value when the header named them.
pub fn certificates_failure(shown: &str, source: &str, e: &CertificatesError) -> Failure {
    let message = e.to_string();
    match e.span() {
        Some(span) => {
            let diagnostic = render_diagnostic(shown, source, span, &message);
            Failure::input(message)
                .at(Some(line_col(source, span.start)))
                .shown_as(diagnostic)
        }
        None => Failure::input(message),
    }
}

/// `check` of one file: its report in `format`, or the error that stopped it;
/// `proofs` (`--proofs DIR`) names its certificates instead of its header.
pub fn check_file(
    path: &Path,
    load: &LoadOptions,
    options: &VerifyOptions,
    format: Format,
    proofs: Option<&Path>,
) -> FileCheck {
    let mut emits = Vec::new();
    let Some(source) = read_source(path, format, &mut emits) else {
        return FileCheck::Done(Outcome::input(emits));
    };
    check_read(path, source, load, options, format, proofs)
}

/// [`check_file`] on the text read from `path` (read once by the caller).
pub fn check_read(
    path: &Path,
    source: String,
    load: &LoadOptions,
    options: &VerifyOptions,
    format: Format,
    proofs: Option<&Path>,
) -> FileCheck {
    let shown = path.display().to_string();
    let mut emits = Vec::new();
    let lookup = CertificateLookup::for_file(path, proofs);
    let report = match check_source(&shown, source, load, options, &lookup) {
        SourceCheck::Msccl(source) => return FileCheck::Msccl(source),
        SourceCheck::Failed(failure) => {
            let emit = match format {
                Format::Text => Emit::Err(failure.stderr_text()),
                Format::Json => error_emit(&shown, format, &failure.message, failure.at),
            };
            return FileCheck::Done(Outcome::input(vec![emit]));
        }
        SourceCheck::Report(report) => report,
    };
    let status = report.status();
    match format {
        Format::Text => emits.push(Emit::Out(report.to_text())),
        Format::Json => match report.to_json(status.code()) {
            Ok(line) => emits.push(Emit::Out(format!("{line}\n"))),
            Err(e) => {
                emits.push(Emit::Err(format!(
                    "error: {shown}: cannot write the JSON report (a bug): {e}\n"
                )));
                return FileCheck::Done(Outcome {
                    status: Status::Internal,
                    emits,
                });
            }
        },
    }
    FileCheck::Done(Outcome { status, emits })
}

/// Loading and verification for `check`: groups up to `max_order`, and the
/// simulation unless `no_simulate`, within `max_simulation_steps`.
pub fn check_options(
    max_order: usize,
    no_simulate: bool,
    max_simulation_steps: u64,
) -> (LoadOptions, VerifyOptions) {
    let load = LoadOptions {
        limits: EnumerationLimits {
            max_order,
            ..EnumerationLimits::default()
        },
    };
    let mut verify = VerifyOptions {
        simulate: !no_simulate,
        ..VerifyOptions::default()
    };
    verify.simulation.max_work = max_simulation_steps;
    (load, verify)
}

/// `check --format html` of one file: its report and its page.
pub struct HtmlCheck {
    /// The file, as shown.
    pub shown: String,
    /// The report the page shows.
    pub report: CheckReport,
    /// The self-contained page.
    pub page: String,
    /// Its exit status.
    pub status: Status,
}

/// One file's report as an HTML page, or what stopped it (printed as text):
/// a page holds one table, so `files` must name one file.
pub fn check_html(
    files: &[PathBuf],
    load: &LoadOptions,
    options: &VerifyOptions,
    proofs: Option<&Path>,
) -> Result<HtmlCheck, Outcome> {
    let refuse = |line: String| Outcome::input(vec![Emit::Err(format!("error: {line}\n"))]);
    let [path] = files else {
        let n = files.len();
        return Err(refuse(format!(
            "--format html takes one file ({n} given): its page holds one table"
        )));
    };
    if path.is_dir() {
        return Err(refuse(format!(
            "--format html takes one file, and {} is a directory: its page holds one table",
            path.display()
        )));
    }
    let mut emits = Vec::new();
    let Some((source, loaded)) = read_and_load(path, load, Format::Text, &mut emits) else {
        return Err(Outcome::input(emits));
    };
    let shown = path.display().to_string();
    let lookup = CertificateLookup::for_file(path, proofs);
    let certified = match check_certificates(&loaded, &lookup) {
        Ok(certified) => certified,
        Err(e) => {
            let failure = certificates_failure(&shown, &source, &e);
            return Err(Outcome::input(vec![Emit::Err(failure.stderr_text())]));
        }
    };
    let verification = verify_certified(&loaded, &html::verify_options(options), certified);
    let (report, page) = html::check_page(
        &shown,
        &source,
        &loaded,
        verification,
        &html::PageOptions::default(),
    );
    let status = report.status();
    Ok(HtmlCheck {
        shown,
        report,
        page,
        status,
    })
}

/// `--network`, built, for MSCCL programs; a bad name, or `--network` with one
/// table (which names its network itself), is refused with the line to show.
/// `one` is the single file given and its text, read once by the caller.
pub fn program_network(
    spec: Option<&NetworkSpec>,
    one: Option<(&Path, &str)>,
) -> Result<Option<Graph>, String> {
    let Some(spec) = spec else {
        return Ok(None);
    };
    let graph = spec
        .graph(&LoadOptions::default())
        .map_err(|e| format!("--network {e}"))?;
    if let Some((path, source)) = one
        && detect(source) != FileKind::Msccl
    {
        return Err(format!(
            "--network is for MSCCL programs; {} is {}, which names its network itself",
            path.display(),
            detect(source)
        ));
    }
    Ok(Some(graph))
}

/// Splits the output for standard output (to go to a file) from the rest.
pub fn split_file_text(emits: Vec<Emit>) -> (String, Vec<Emit>) {
    let mut text = String::new();
    let mut rest = Vec::new();
    for emit in emits {
        match emit {
            Emit::Out(t) => text.push_str(&t),
            err => rest.push(err),
        }
    }
    (text, rest)
}

fn load_error_emit(path: &str, source: &str, error: &LoadError, format: Format) -> Emit {
    let span = error.span();
    let message = error.to_string();
    match format {
        Format::Text => Emit::Err(render_diagnostic(path, source, span, &message)),
        Format::Json => error_emit(path, format, &message, Some(line_col(source, span.start))),
    }
}

fn error_emit(path: &str, format: Format, message: &str, at: Option<(usize, usize)>) -> Emit {
    match format {
        Format::Text => Emit::Err(format!("error: {message}\n")),
        Format::Json => match json::check_error(path, message, at, Status::Input.code()) {
            Ok(line) => Emit::Out(format!("{line}\n")),
            // Only the message is lost: the status is still `Status::Input`.
            Err(e) => Emit::Err(format!(
                "error: {message} (and the JSON report failed: {e})\n"
            )),
        },
    }
}

/// `simulate` of a loaded table on its physical network (`shown` names it):
/// the report in `format`, with every hop when `with_trace`.
pub fn simulate_table(shown: &str, loaded: &Loaded, with_trace: bool, format: Format) -> Outcome {
    let stop = |status, line: String| Outcome {
        status,
        emits: vec![Emit::Err(line + "\n")],
    };
    let instance = &loaded.instance;
    if let Some(defect) = instance.defects().first() {
        let line = format!("{shown}: cannot simulate: the link set is defective ({defect})");
        return stop(Status::Rejected, line);
    }
    let (network, embedding) = physical_network(instance, loaded.network.as_ref());
    let Some(embedding) = embedding else {
        let emits = match &network {
            NetworkCheck::Mismatch { reason, .. } => vec![Emit::Err(format!(
                "{shown}: the declared network does not match: {reason}\n"
            ))],
            _ => Vec::new(),
        };
        return Outcome {
            status: Status::Rejected,
            emits,
        };
    };
    let prepared = match simulation_words(instance, &loaded.table) {
        Ok(prepared) => prepared,
        Err(reason) => {
            return stop(
                Status::Rejected,
                format!("{shown}: cannot simulate: {reason}"),
            );
        }
    };
    let input = prepared.input(instance, &embedding);
    let report = match simulate(&input, &SimulationOptions::default()) {
        Ok(report) => report,
        Err(e @ SimulationError::OverLimit { .. }) => {
            return stop(Status::Input, format!("{shown}: {e}"));
        }
        Err(e) => return stop(Status::Rejected, format!("{shown}: cannot simulate: {e}")),
    };
    let hops = match with_trace.then(|| trace(&input)) {
        Some(None) => {
            let line = format!(
                "{shown}: --trace lists at most {MAX_TRACE_HOPS} hops; this table has more"
            );
            return stop(Status::Input, line);
        }
        Some(hops) => hops,
        None => None,
    };
    let out = match format {
        Format::Json => match json::simulate(shown, &network, &report, hops.as_deref()) {
            Ok(line) => line + "\n",
            Err(e) => {
                let line = format!("error: {shown}: cannot write the JSON report (a bug): {e}");
                return stop(Status::Internal, line);
            }
        },
        Format::Text => {
            let mut out = simulation_text(shown, &network, &embedding, &report);
            if let Some(hops) = hops {
                out.push_str(&trace_text(embedding.network(), &hops));
            }
            out
        }
    };
    Outcome {
        status: Status::of_validity(report.valid),
        emits: vec![Emit::Out(out)],
    }
}

/// Every hop, step by step.
fn trace_text(net: &Graph, hops: &[crate::simulate::Hop]) -> String {
    let mut out = String::new();
    let mut step = 0;
    for hop in hops {
        if hop.step != step {
            step = hop.step;
            let _ = writeln!(out, "step {step}:");
        }
        let _ = writeln!(
            out,
            "  {} -> {}  message {} -> {}  (word `{}`, row {})",
            net.node_name(hop.from),
            net.node_name(hop.to),
            net.node_name(hop.source),
            net.node_name(hop.destination),
            hop.word,
            hop.row
        );
    }
    out
}

/// The text report of a simulation.
fn simulation_text(
    path: &str,
    network: &NetworkCheck,
    embedding: &Embedding,
    r: &SimulationReport,
) -> String {
    let mut out = String::new();
    let how = match network {
        NetworkCheck::Matches { .. } => "declared",
        NetworkCheck::Inferred { .. } => "inferred",
        _ => "no physical network recognised",
    };
    let _ = writeln!(
        out,
        "{path}: simulated on {} ({how})",
        embedding_name(embedding)
    );
    let _ = writeln!(
        out,
        "  nodes {}, directed links {}, ports {}, words {}",
        r.nodes, r.directed_links, r.ports, r.words
    );
    let _ = writeln!(
        out,
        "  messages     {} of {} arrived, {} hops, completion time {}",
        r.arrived_messages, r.expected_messages, r.hops, r.completion_time
    );
    let _ = writeln!(
        out,
        "  utilisation  {:.1}% of (step, directed link) pairs",
        r.utilisation * 100.0
    );
    let busiest = r.per_step.iter().map(|s| s.links_used).max().unwrap_or(0);
    let _ = writeln!(
        out,
        "  per step     busiest step uses {busiest} of {} directed links",
        r.directed_links
    );
    let _ = writeln!(
        out,
        "  verdict      {}",
        if r.valid { "CLEAN" } else { "FAILED" }
    );
    let c = &r.counts;
    if !r.valid {
        let _ = writeln!(
            out,
            "  failures     {} link conflicts, {} ports exceeded, {} self-messages, {} duplicates, {} unexpected, {} missing",
            c.link_conflicts,
            c.ports_exceeded,
            c.self_messages,
            c.duplicates,
            c.unexpected,
            c.missing
        );
    }
    let net = embedding.network();
    for failure in &r.failures {
        let _ = writeln!(out, "  error: {}", describe(net, failure));
    }
    out
}

/// One failure, in a line, with node names.
fn describe(net: &Graph, f: &SimulationFailure) -> String {
    use SimulationFailure as Failure;
    let m = |m: &MessageRef| {
        format!(
            "{} -> {} (word `{}`, row {}, column {})",
            net.node_name(m.source),
            net.node_name(m.destination),
            m.word,
            m.row,
            m.column
        )
    };
    match f {
        Failure::LinkConflict {
            step,
            from,
            to,
            messages,
            first,
            second,
            ..
        } => format!(
            "step {step}: link {} -> {} carries {messages} messages: {} and {}",
            net.node_name(*from),
            net.node_name(*to),
            m(first),
            m(second)
        ),
        Failure::PortsExceeded {
            step,
            node,
            used,
            ports,
        } => format!(
            "step {step}: node {} sends {used} messages but has {ports} ports",
            net.node_name(*node)
        ),
        Failure::Unexpected { step, message } => {
            format!(
                "step {step}: message {} is not in the message set",
                m(message)
            )
        }
        Failure::Missing {
            source,
            destination,
        } => format!(
            "message {} -> {} never arrives",
            net.node_name(*source),
            net.node_name(*destination)
        ),
        Failure::Duplicate { step, message, .. } => {
            format!("step {step}: message {} arrives a second time", m(message))
        }
        Failure::SelfMessage { step, message } => {
            format!("step {step}: message {} returns to its source", m(message))
        }
    }
}
