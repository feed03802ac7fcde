//! Reports of a check, for people (text) and for programs (JSON).
//!
//! The JSON form is a stable interface: its shape is documented in
//! `docs/json.md` and versioned by the `schema` field; fields are only ever
//! added. It is written from schema types of its own ([`json`]), built from the
//! kernel's and the simulator's results, so that the kernel's types can change
//! without changing the interface. The text form is for reading and may change.

pub(crate) mod anytime;
pub mod cluster;
pub mod collective_search;
pub mod cubes;
pub mod error_object;
pub mod html;
pub mod json;
pub mod network_search;
pub mod proof;
pub mod schedule;
pub mod schedule_request;
pub mod search;
pub mod search_html;
pub mod search_options;
pub mod single;

use crate::check::{
    Agreement, NetworkCheck, Outcome, SimulationOutcome, Verification, VerificationParts, spec_text,
};
use crate::simulate::{Failure as SimulationFailure, FailureCounts, MessageRef};
use serde::Serialize;
use std::fmt::Write;
use txverify_core::kernel::{Checked, Verdict, Violation};
use txverify_core::load::Loaded;
use txverify_core::verdict::OptimalBy;

pub use crate::shared::wording::describe;
// Failures are below the commands (a feature reports one too); re-exported
// here, where every command finds them.
pub use crate::shared::failure::{self, ErrorReport, Failure, Status, json_line, read_text};
pub use anytime::ScheduleSearchReport;
pub use json::{CHECK_SCHEMA, SIMULATE_SCHEMA};

/// Summary of the group a table runs on.
#[derive(Clone, Debug, Serialize)]
pub struct GroupSummary {
    /// The presentation as written.
    pub presentation: String,
    /// Generator names.
    pub generators: Vec<String>,
    /// Number of elements.
    pub order: usize,
    /// The standard family the presentation was recognised as, if any.
    pub family: Option<String>,
    /// Independent checks of the computed group that passed.
    pub checks: Vec<String>,
}

/// Summary of the message set.
#[derive(Clone, Debug, Serialize)]
pub struct MessageSummary {
    /// `total`, `odd`, `distance`, or `to`.
    pub mode: String,
    /// Messages each node sends.
    pub count: usize,
}

/// Everything `check` reports about one file that could be loaded.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The path as given.
    pub file: String,
    /// `name:` or the file stem.
    pub name: String,
    /// The group.
    pub group: GroupSummary,
    /// The link set S, as written.
    pub links: Vec<String>,
    /// Generators left out of the default link set because they are trivial.
    pub trivial_generators: Vec<String>,
    /// Letters a node may send in one step.
    pub ports: usize,
    /// The message set.
    pub messages: MessageSummary,
    /// The kernel's findings.
    pub checked: Checked,
    /// How the Cayley graph relates to the physical network.
    pub network: NetworkCheck,
    /// The exhaustive simulation, summarised.
    pub simulation: SimulationSummary,
    /// Whether the kernel and the simulator agree.
    pub agreement: Agreement,
    /// What the verification concludes.
    pub outcome: Outcome,
    /// The simulation was refused for its size (exit status 2 with the report).
    pub simulation_over_limit: bool,
    /// The certificates the table named (`certificates:` or `--proofs`), and
    /// what each check found.
    pub certificates: Vec<crate::check::certified::CertificateFinding>,
}

impl CheckReport {
    /// The file's status: the verification's outcome (0 passed, 1 failed, 3
    /// the kernel and the simulator disagree), and at least 2 when the
    /// simulation was refused for its size.
    pub fn status(&self) -> Status {
        let status = Status::from(self.outcome);
        if self.simulation_over_limit {
            status.max(Status::Input)
        } else {
            status
        }
    }
}

/// The simulation part of a check report (the full report is `txverify simulate`'s).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum SimulationSummary {
    /// It ran.
    Ran {
        /// The graph it ran on.
        on: String,
        /// Whether every check passed.
        valid: bool,
        /// Messages delivered.
        arrived_messages: u64,
        /// Messages the message set asks for.
        expected_messages: u64,
        /// Link traversals.
        hops: u64,
        /// Last step with a message in flight.
        completion_time: usize,
        /// Distinct (step, directed link) uses over completion time × directed links.
        utilisation: f64,
        /// Failures by kind.
        counts: FailureCounts,
        /// The earliest link conflict, if any.
        first_conflict: Option<Box<SimulationFailure>>,
    },
    /// It did not run.
    Skipped {
        /// Why.
        reason: String,
    },
}

impl SimulationSummary {
    fn of(outcome: &SimulationOutcome) -> SimulationSummary {
        match outcome {
            SimulationOutcome::Ran { on, report } => SimulationSummary::Ran {
                on: on.clone(),
                valid: report.valid,
                arrived_messages: report.arrived_messages,
                expected_messages: report.expected_messages,
                hops: report.hops,
                completion_time: report.completion_time,
                utilisation: report.utilisation,
                counts: report.counts,
                first_conflict: report.first_conflict.clone().map(Box::new),
            },
            SimulationOutcome::Skipped { .. } | SimulationOutcome::OverLimit { .. } => {
                SimulationSummary::Skipped {
                    reason: outcome.not_run_reason().unwrap_or_default(),
                }
            }
        }
    }
}

impl CheckReport {
    /// Assembles a report from a loaded file and its verification.
    pub fn new(
        path: &str,
        source: &str,
        loaded: &Loaded,
        verification: Verification,
    ) -> CheckReport {
        let outcome = verification.outcome();
        let simulation_over_limit = matches!(
            verification.simulation(),
            SimulationOutcome::OverLimit { .. }
        );
        let VerificationParts {
            checked,
            network,
            simulation,
            agreement,
            certificates,
        } = verification.into_parts();
        let simulation = SimulationSummary::of(&simulation);
        use txverify_core::kernel::MessageSpec;
        let name = loaded
            .file
            .name
            .as_ref()
            .map(|n| n.value.clone())
            .unwrap_or_else(|| file_stem(path));
        let span = loaded.file.group.span;
        let presentation = source
            .get(span.start..span.end)
            .unwrap_or_default()
            .trim()
            .to_string();
        let mode = match loaded.instance.message_spec() {
            MessageSpec::Total => "total",
            MessageSpec::Odd => "odd",
            MessageSpec::Distances(_) => "distance",
            MessageSpec::To(_) => "to",
        };
        CheckReport {
            file: path.to_string(),
            name,
            group: GroupSummary {
                presentation,
                generators: loaded.presentation.generators.clone(),
                order: loaded.instance.group().order(),
                family: loaded.family.clone(),
                checks: loaded.group_checks.clone(),
            },
            links: loaded.instance.link_names().to_vec(),
            trivial_generators: loaded.trivial_generators.clone(),
            ports: loaded.instance.ports(),
            messages: MessageSummary {
                mode: mode.to_string(),
                count: checked.messages(),
            },
            checked,
            network,
            simulation,
            agreement,
            outcome,
            simulation_over_limit,
            certificates,
        }
    }

    /// The JSON report (schema [`CHECK_SCHEMA`], docs/json.md), one line without
    /// its newline; `exit_code` is the process exit status the caller gives this
    /// report's [`outcome`](CheckReport::outcome).
    pub fn to_json(&self, exit_code: u8) -> Result<String, serde_json::Error> {
        serde_json::to_string(&json::CheckDocument::new(self, exit_code))
    }

    /// [`to_json`](Self::to_json) in two parts: the object with an empty
    /// `violations` array, and that array's text. Put together they are the
    /// same object; a caller that needs the verdict first (Python) need not
    /// parse millions of violations to get it.
    pub fn to_json_parts(&self, exit_code: u8) -> Result<(String, String), serde_json::Error> {
        json::CheckDocument::new(self, exit_code).into_parts()
    }

    /// The human-readable report.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_instance(&mut out);
        self.write_bound(&mut out);
        self.write_verdict(&mut out);
        self.write_findings(&mut out);
        out
    }

    /// File, group, order checks and links.
    fn write_instance(&self, out: &mut String) {
        let _ = writeln!(out, "{}: {}", self.file, self.name);
        let _ = writeln!(
            out,
            "  group        {}  (order {})",
            abbreviated(&self.group.presentation),
            self.group.order
        );
        if !self.group.checks.is_empty() {
            let _ = writeln!(out, "  order check  {}", self.group.checks.join("; "));
        }
        let _ = writeln!(
            out,
            "  links        {}  (|S| = {}, ports {})",
            self.links.join(" "),
            self.links.len(),
            self.ports
        );
        if !self.trivial_generators.is_empty() {
            let _ = writeln!(
                out,
                "  note         generators trivial in G, left out of the links: {}",
                self.trivial_generators.join(" ")
            );
        }
    }

    /// The messages and the lower bound with where it comes from.
    fn write_bound(&self, out: &mut String) {
        let _ = writeln!(out, "  messages     {}", self.messages_text());
        let _ = writeln!(out, "  lower bound  {}", self.bound_text());
    }

    /// The message count and mode, with the distance sum and the largest distance.
    pub fn messages_text(&self) -> String {
        match self.checked.bound() {
            None => format!("{} per node ({})", self.messages.count, self.messages.mode),
            Some(b) => format!(
                "{} per node ({}), sum of distances {}, largest distance {}",
                self.messages.count, self.messages.mode, b.distance_sum, b.max_distance
            ),
        }
    }

    /// The lower bound and where it comes from.
    pub fn bound_text(&self) -> String {
        let Some(b) = self.checked.bound() else {
            return "none (the link set is defective)".to_string();
        };
        let mut why = format!(
            "largest distance {}, counting bound {}",
            b.max_distance, b.counting
        );
        if let Some(s) = &b.best_subset
            && s.columns > b.counting
        {
            let _ = write!(
                why,
                ", load of {{{}}}: {} letters / {} per column = {}",
                s.links.join(" "),
                s.letters_needed,
                s.per_column,
                s.columns
            );
        }
        let mut coverage = if b.exhaustive {
            format!("all {} link subsets tried", b.subsets_tried)
        } else {
            format!("only {} link subsets tried", b.subsets_tried)
        };
        if b.subsets_pruned > 0 {
            let _ = write!(
                coverage,
                ", {} searched, {} skipped as their ceiling could not beat the best",
                b.subsets_searched, b.subsets_pruned
            );
        }
        format!("{}  ({why}; {coverage})", b.value)
    }

    /// Time, verdict and the `expect:` claims.
    fn write_verdict(&self, out: &mut String) {
        let c = &self.checked;
        let _ = writeln!(out, "  time         {}", c.time());
        let _ = writeln!(out, "  verdict      {}", self.verdict_text());
        for f in &self.certificates {
            let _ = writeln!(out, "  certificate  {}", certificate_text(f));
        }
        for e in c.expectations() {
            let _ = writeln!(
                out,
                "  expect       {}: {}",
                e.claim,
                if e.holds { "holds" } else { "FAILS" }
            );
        }
        if c.verdict() == Verdict::Invalid && self.outcome == Outcome::Passed {
            let _ = writeln!(
                out,
                "  outcome      passes: the table is invalid, as the file expects"
            );
        }
    }

    /// The kernel's verdict in words: `OPTIMAL (…)`, `VALID, not proved optimal (…)`, `INVALID`.
    pub fn verdict_text(&self) -> String {
        let c = &self.checked;
        match (c.verdict(), c.optimal_by()) {
            (Verdict::Invalid, _) => "INVALID".to_string(),
            (_, Some(OptimalBy::Certificates)) => {
                let bound = c.bound().map_or(0, |b| b.value);
                format!(
                    "OPTIMAL ({} refuted: certificates verified)",
                    times_text(bound..c.time() as u64)
                )
            }
            (Verdict::Optimal, _) => "OPTIMAL (valid, time equals the lower bound)".to_string(),
            (Verdict::Valid, _) => match c.bound() {
                Some(b) => {
                    let mut text = format!(
                        "VALID, not proved optimal (time {} > lower bound {}",
                        c.time(),
                        b.value
                    );
                    if !self.certificates.is_empty() {
                        let _ = write!(
                            text,
                            "; no verified certificate for every table refutes {}",
                            times_text(c.unrefuted().iter().copied())
                        );
                    }
                    text.push(')');
                    text
                }
                None => "VALID".to_string(),
            },
        }
    }

    /// Network, simulation, agreement, non-shortest words and violations.
    fn write_findings(&self, out: &mut String) {
        let c = &self.checked;
        let _ = writeln!(out, "  network      {}", describe_network(&self.network));
        let _ = writeln!(
            out,
            "  simulation   {}",
            describe_simulation(&self.simulation)
        );
        if let Agreement::Disagree { kernel, simulator } = &self.agreement {
            let names = |kinds: &[crate::check::ViolationKind]| {
                let names: Vec<&str> = kinds.iter().map(|&k| json::kind(k)).collect();
                format!("[{}]", names.join(", "))
            };
            let _ = writeln!(
                out,
                "  BUG: the kernel and the simulator disagree (kernel found {}, simulator found {}); please report it",
                names(kernel),
                names(simulator)
            );
        }
        for n in c.non_shortest() {
            let _ = writeln!(
                out,
                "  note: row {}, column {}: word `{}` has length {} but its element is at distance {} (not a shortest path)",
                n.word.row, n.word.column, n.word.word, n.length, n.distance
            );
        }
        write_violations(out, c.violations());
    }
}

/// Numbers of columns as `T=8, 9` (`T=8` for one).
pub fn times_text(times: impl IntoIterator<Item = u64>) -> String {
    let times: Vec<String> = times.into_iter().map(|t| t.to_string()).collect();
    format!("T={}", times.join(", "))
}

/// One certificate's line: its directory and what its check found.
fn certificate_text(f: &crate::check::certified::CertificateFinding) -> String {
    use crate::check::certified::Finding;
    match &f.finding {
        Finding::Refutes { time } => format!("{}: verified, no table has {time} columns", f.dir),
        Finding::Narrower { claim, .. } => format!(
            "{}: verified, but it proves only \"{claim}\": it says nothing of the other tables and counts for no optimality",
            f.dir
        ),
        Finding::Rejected { reason } => format!("{}: REJECTED: {reason}", f.dir),
    }
}

/// The violations, at most [`TEXT_VIOLATIONS_PER_KIND`] of each kind, then a
/// line per kind that had more.
fn write_violations(out: &mut String, violations: &[Violation]) {
    let mut shown_of_kind: Vec<(std::mem::Discriminant<Violation>, usize)> = Vec::new();
    for v in violations {
        let kind = std::mem::discriminant(v);
        let shown = match shown_of_kind.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => n,
            None => {
                shown_of_kind.push((kind, 0));
                &mut shown_of_kind.last_mut().expect("just pushed").1
            }
        };
        *shown += 1;
        if *shown <= TEXT_VIOLATIONS_PER_KIND {
            let _ = writeln!(out, "  error: {}", describe(v));
        }
    }
    for (kind, n) in &shown_of_kind {
        if *n > TEXT_VIOLATIONS_PER_KIND {
            let example = violations
                .iter()
                .find(|v| std::mem::discriminant(*v) == *kind)
                .map(kind_name)
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  … and {} more violations of this kind ({example}); `--format json` lists all {n}",
                n - TEXT_VIOLATIONS_PER_KIND
            );
        }
    }
}

/// The text report shows at most this many violations of each kind (JSON shows all).
pub const TEXT_VIOLATIONS_PER_KIND: usize = 20;

fn kind_name(v: &Violation) -> &'static str {
    match v {
        Violation::LinkSet { .. } => "link set",
        Violation::UnknownLetter { .. } => "unknown letter",
        Violation::NotALink { .. } => "not a link",
        Violation::ColumnConflict { .. } => "column conflict",
        Violation::PortsExceeded { .. } => "ports exceeded",
        Violation::IdentityWord { .. } => "identity word",
        Violation::DuplicateMessage { .. } => "duplicate message",
        Violation::UnexpectedMessage { .. } => "unexpected message",
        Violation::MissingMessage { .. } => "missing message",
    }
}

fn describe_network(network: &NetworkCheck) -> String {
    match network {
        NetworkCheck::Matches { network } => format!(
            "{} (declared; isomorphic to the Cayley graph, verified edge by edge)",
            spec_text(network)
        ),
        NetworkCheck::Inferred { network } => format!(
            "{} (inferred; isomorphic to the Cayley graph, verified edge by edge)",
            spec_text(network)
        ),
        NetworkCheck::CayleyGraphOnly => {
            "none recognised: the Cayley graph is no ring, hypercube or torus".to_string()
        }
        NetworkCheck::Mismatch { network, reason } => format!(
            "MISMATCH: the Cayley graph is not {}: {reason}",
            spec_text(network)
        ),
        NetworkCheck::Skipped { reason } => format!("not examined ({reason})"),
    }
}

fn describe_message(m: &MessageRef) -> String {
    format!(
        "{} -> {} (word `{}`, row {}, column {})",
        m.source, m.destination, m.word, m.row, m.column
    )
}

/// One line on the simulation: figures, then the first conflict if any.
pub fn describe_simulation(simulation: &SimulationSummary) -> String {
    match simulation {
        SimulationSummary::Skipped { reason } => format!("not run ({reason})"),
        SimulationSummary::Ran {
            on,
            valid,
            arrived_messages,
            expected_messages,
            hops,
            completion_time,
            utilisation,
            counts,
            first_conflict,
        } => {
            let mut line = format!(
                "on {on}: {arrived_messages} of {expected_messages} messages arrived, {hops} hops, completion time {completion_time}, link utilisation {:.1}%",
                utilisation * 100.0
            );
            if *valid {
                line.push_str(": clean");
            } else {
                let _ = write!(
                    line,
                    ": FAILED ({} link conflicts, {} ports exceeded, {} self-messages, {} duplicates, {} unexpected, {} missing)",
                    counts.link_conflicts,
                    counts.ports_exceeded,
                    counts.self_messages,
                    counts.duplicates,
                    counts.unexpected,
                    counts.missing
                );
            }
            if let Some(SimulationFailure::LinkConflict {
                step,
                from,
                to,
                first,
                second,
                ..
            }) = first_conflict.as_deref()
            {
                let _ = write!(
                    line,
                    "\n               first conflict: step {step}, link {from} -> {to}: {} and {}",
                    describe_message(first),
                    describe_message(second)
                );
            }
            line
        }
    }
}

/// Text longer than [`SHOWN_CHARACTERS`] cut there in text reports, saying how
/// long it was (a presentation of a million letters is the file's own text, and
/// `--format json` gives it whole).
fn abbreviated(text: &str) -> String {
    let length = text.chars().count();
    if length <= SHOWN_CHARACTERS {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOWN_CHARACTERS).collect();
    format!("{head}… ({length} characters; --format json gives it whole)")
}

/// Longest text a text report shows of a presentation.
const SHOWN_CHARACTERS: usize = 400;

fn file_stem(path: &str) -> String {
    std::path::Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
}
