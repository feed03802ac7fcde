//! The JSON schemas of `check --format json` and `simulate --format json`.
//!
//! These types are the interface documented in `docs/json.md`: each field here is
//! a field there. They borrow from the kernel's, the network check's and the
//! simulator's results and are built only for writing, so that the checkers'
//! own types carry no serialisation that exists for the report's sake and can
//! change without changing the schema. The simulator's report (counts, failures,
//! per-step use, trace) is the simulator's own serialisable type, written as is.

use super::{CheckReport, GroupSummary, MessageSummary, SimulationSummary};
use crate::check::{Agreement, NetworkCheck, ViolationKind};
use crate::simulate::{Hop, SimulationReport};
use serde::Serialize;
use txverify_core::kernel::{
    ExpectationOutcome, InstanceError, LowerBound, NonShortestWord, SubsetBound, Verdict,
    Violation, WordRef,
};
use txverify_core::network::NetworkName;

/// The JSON schema identifier of `check --format json`.
pub const CHECK_SCHEMA: &str = "txverify-check/1";

/// The JSON schema identifier of the summary line `check --format json` ends with
/// when it checks several files or a directory.
pub const CHECK_SUMMARY_SCHEMA: &str = "txverify-check-summary/1";

/// The JSON schema identifier of `simulate --format json`.
pub const SIMULATE_SCHEMA: &str = "txverify-simulate/1";

/// One `check` object for a file that could be loaded.
#[derive(Serialize)]
pub(super) struct CheckDocument<'a> {
    schema: &'static str,
    file: &'a str,
    name: &'a str,
    group: &'a GroupSummary,
    links: &'a [String],
    trivial_generators: &'a [String],
    ports: usize,
    messages: &'a MessageSummary,
    verdict: &'static str,
    optimal_by: Option<&'static str>,
    time: usize,
    bound: Option<Bound<'a>>,
    certificates: Vec<CertificateJson<'a>>,
    unrefuted: &'a [u64],
    violations: Vec<ViolationJson<'a>>,
    non_shortest: Vec<NonShortest<'a>>,
    expectations: Vec<Expectation<'a>>,
    network: Network<'a>,
    simulation: &'a SimulationSummary,
    agreement: AgreementJson,
    exit_code: u8,
}

impl<'a> CheckDocument<'a> {
    pub(super) fn new(report: &'a CheckReport, exit_code: u8) -> CheckDocument<'a> {
        let c = &report.checked;
        CheckDocument {
            schema: CHECK_SCHEMA,
            file: &report.file,
            name: &report.name,
            group: &report.group,
            links: &report.links,
            trivial_generators: &report.trivial_generators,
            ports: report.ports,
            messages: &report.messages,
            verdict: match c.optimal_by() {
                Some(_) => "optimal",
                None => verdict(c.verdict()),
            },
            optimal_by: c.optimal_by().map(|by| by.name()),
            time: c.time(),
            bound: c.bound().map(Bound::of),
            certificates: report
                .certificates
                .iter()
                .map(CertificateJson::of)
                .collect(),
            unrefuted: c.unrefuted(),
            violations: c.violations().iter().map(ViolationJson::of).collect(),
            non_shortest: c.non_shortest().iter().map(NonShortest::of).collect(),
            expectations: c.expectations().iter().map(Expectation::of).collect(),
            network: Network::of(&report.network),
            simulation: &report.simulation,
            agreement: AgreementJson::of(&report.agreement),
            exit_code,
        }
    }

    /// The object with an empty `violations` array, and that array's text.
    pub(super) fn into_parts(mut self) -> Result<(String, String), serde_json::Error> {
        let violations = std::mem::take(&mut self.violations);
        Ok((
            serde_json::to_string(&self)?,
            serde_json::to_string(&violations)?,
        ))
    }
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Invalid => "invalid",
        Verdict::Valid => "valid",
        Verdict::Optimal => "optimal",
    }
}

/// `certificates[]`: one certificate the table named and what its check found.
#[derive(Serialize)]
struct CertificateJson<'a> {
    dir: &'a str,
    /// `refutes`, `narrower` or `rejected`.
    status: &'static str,
    time: Option<usize>,
    claim: Option<&'a str>,
    reason: Option<&'a str>,
}

impl<'a> CertificateJson<'a> {
    fn of(f: &'a crate::check::certified::CertificateFinding) -> CertificateJson<'a> {
        use crate::check::certified::Finding;
        let dir = &f.dir;
        match &f.finding {
            Finding::Refutes { time } => CertificateJson {
                dir,
                status: "refutes",
                time: Some(*time),
                claim: None,
                reason: None,
            },
            Finding::Narrower { time, claim } => CertificateJson {
                dir,
                status: "narrower",
                time: Some(*time),
                claim: Some(claim),
                reason: None,
            },
            Finding::Rejected { reason } => CertificateJson {
                dir,
                status: "rejected",
                time: None,
                claim: None,
                reason: Some(reason),
            },
        }
    }
}

/// `bound`.
#[derive(Serialize)]
struct Bound<'a> {
    value: u64,
    max_distance: u64,
    distance_sum: u64,
    counting: u64,
    best_subset: Option<Subset<'a>>,
    subsets_tried: u64,
    subsets_searched: u64,
    subsets_pruned: u64,
    exhaustive: bool,
}

impl<'a> Bound<'a> {
    fn of(b: &'a LowerBound) -> Bound<'a> {
        Bound {
            value: b.value,
            max_distance: b.max_distance,
            distance_sum: b.distance_sum,
            counting: b.counting,
            best_subset: b.best_subset.as_ref().map(Subset::of),
            subsets_tried: b.subsets_tried,
            subsets_searched: b.subsets_searched,
            subsets_pruned: b.subsets_pruned,
            exhaustive: b.exhaustive,
        }
    }
}

/// `bound.best_subset`.
#[derive(Serialize)]
struct Subset<'a> {
    links: &'a [String],
    letters_needed: u64,
    per_column: usize,
    columns: u64,
}

impl<'a> Subset<'a> {
    fn of(s: &'a SubsetBound) -> Subset<'a> {
        Subset {
            links: &s.links,
            letters_needed: s.letters_needed,
            per_column: s.per_column,
            columns: s.columns,
        }
    }
}

/// A word reference: row, first column, the word as written.
#[derive(Serialize)]
struct Word<'a> {
    row: usize,
    column: usize,
    word: &'a str,
}

impl<'a> Word<'a> {
    fn of(w: &'a WordRef) -> Word<'a> {
        Word {
            row: w.row,
            column: w.column,
            word: &w.word,
        }
    }
}

/// One entry of `violations`, tagged by `kind`.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum ViolationJson<'a> {
    LinkSet {
        defect: Defect<'a>,
    },
    UnknownLetter {
        word: Word<'a>,
        column: usize,
        letter: &'a str,
    },
    NotALink {
        word: Word<'a>,
        column: usize,
        letter: &'a str,
    },
    ColumnConflict {
        column: usize,
        link: &'a str,
        first: Word<'a>,
        second: Word<'a>,
    },
    PortsExceeded {
        column: usize,
        letters: usize,
        ports: usize,
    },
    IdentityWord {
        word: Word<'a>,
    },
    DuplicateMessage {
        word: Word<'a>,
        first: Word<'a>,
        element: String,
    },
    UnexpectedMessage {
        word: Word<'a>,
        element: String,
        distance: u32,
    },
    MissingMessage {
        element: String,
        distance: u32,
    },
}

impl<'a> ViolationJson<'a> {
    fn of(v: &'a Violation) -> ViolationJson<'a> {
        match v {
            Violation::LinkSet { defect } => ViolationJson::LinkSet {
                defect: Defect::of(defect),
            },
            Violation::UnknownLetter {
                word,
                column,
                letter,
            } => ViolationJson::UnknownLetter {
                word: Word::of(word),
                column: *column,
                letter,
            },
            Violation::NotALink {
                word,
                column,
                letter,
            } => ViolationJson::NotALink {
                word: Word::of(word),
                column: *column,
                letter,
            },
            Violation::ColumnConflict {
                column,
                link,
                first,
                second,
            } => ViolationJson::ColumnConflict {
                column: *column,
                link,
                first: Word::of(first),
                second: Word::of(second),
            },
            Violation::PortsExceeded {
                column,
                letters,
                ports,
            } => ViolationJson::PortsExceeded {
                column: *column,
                letters: *letters,
                ports: *ports,
            },
            Violation::IdentityWord { word } => ViolationJson::IdentityWord {
                word: Word::of(word),
            },
            Violation::DuplicateMessage {
                word,
                first,
                element,
            } => ViolationJson::DuplicateMessage {
                word: Word::of(word),
                first: Word::of(first),
                element: element.to_string(),
            },
            Violation::UnexpectedMessage {
                word,
                element,
                distance,
            } => ViolationJson::UnexpectedMessage {
                word: Word::of(word),
                element: element.to_string(),
                distance: *distance,
            },
            Violation::MissingMessage { element, distance } => ViolationJson::MissingMessage {
                element: element.to_string(),
                distance: *distance,
            },
        }
    }
}

/// `violations[].defect` of a `link_set` violation, tagged by `kind`.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Defect<'a> {
    IdentityLink { link: &'a str },
    InverseMissing { link: &'a str, inverse: &'a str },
    NotGenerating { reached: usize, order: usize },
    NoLinks,
}

impl<'a> Defect<'a> {
    fn of(d: &'a InstanceError) -> Defect<'a> {
        match d {
            InstanceError::IdentityLink { link } => Defect::IdentityLink { link },
            InstanceError::InverseMissing { link, inverse } => {
                Defect::InverseMissing { link, inverse }
            }
            InstanceError::NotGenerating { reached, order } => Defect::NotGenerating {
                reached: *reached,
                order: *order,
            },
            InstanceError::NoLinks => Defect::NoLinks,
        }
    }
}

/// One entry of `non_shortest`.
#[derive(Serialize)]
struct NonShortest<'a> {
    word: Word<'a>,
    length: usize,
    distance: u32,
}

impl<'a> NonShortest<'a> {
    fn of(n: &'a NonShortestWord) -> NonShortest<'a> {
        NonShortest {
            word: Word::of(&n.word),
            length: n.length,
            distance: n.distance,
        }
    }
}

/// One entry of `expectations`.
#[derive(Serialize)]
struct Expectation<'a> {
    claim: &'a str,
    holds: bool,
}

impl<'a> Expectation<'a> {
    fn of(e: &'a ExpectationOutcome) -> Expectation<'a> {
        Expectation {
            claim: &e.claim,
            holds: e.holds,
        }
    }
}

/// `network`, tagged by `status`.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Network<'a> {
    Matches { network: Spec },
    Inferred { network: Spec },
    CayleyGraphOnly,
    Mismatch { network: Spec, reason: &'a str },
    Skipped { reason: &'a str },
}

impl<'a> Network<'a> {
    fn of(n: &'a NetworkCheck) -> Network<'a> {
        match n {
            NetworkCheck::Matches { network } => Network::Matches {
                network: Spec::of(network),
            },
            NetworkCheck::Inferred { network } => Network::Inferred {
                network: Spec::of(network),
            },
            NetworkCheck::CayleyGraphOnly => Network::CayleyGraphOnly,
            NetworkCheck::Mismatch { network, reason } => Network::Mismatch {
                network: Spec::of(network),
                reason,
            },
            NetworkCheck::Skipped { reason } => Network::Skipped { reason },
        }
    }
}

/// A physical network, tagged by `kind`.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Spec {
    Ring {
        nodes: u32,
    },
    Hypercube {
        dimension: u32,
    },
    Torus {
        sides: Vec<u32>,
    },
    /// Never reached from a table (its `network:` is a ring, a hypercube or a
    /// torus); any other network by its name.
    Other {
        name: String,
    },
}

impl Spec {
    fn of(s: &NetworkName) -> Spec {
        match s {
            NetworkName::Ring(nodes) => Spec::Ring { nodes: *nodes },
            NetworkName::Hypercube(dimension) => Spec::Hypercube {
                dimension: *dimension,
            },
            NetworkName::Torus(sides) => Spec::Torus {
                sides: sides.clone(),
            },
            other => Spec::Other {
                name: other.to_string(),
            },
        }
    }
}

/// `agreement`, tagged by `status`.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum AgreementJson {
    Agree,
    KernelOnly,
    Disagree {
        kernel: Vec<&'static str>,
        simulator: Vec<&'static str>,
    },
}

impl AgreementJson {
    fn of(a: &Agreement) -> AgreementJson {
        let names = |kinds: &[ViolationKind]| kinds.iter().map(|&k| kind(k)).collect();
        match a {
            Agreement::Agree => AgreementJson::Agree,
            Agreement::KernelOnly => AgreementJson::KernelOnly,
            Agreement::Disagree { kernel, simulator } => AgreementJson::Disagree {
                kernel: names(kernel),
                simulator: names(simulator),
            },
        }
    }
}

/// A violation kind's name, as JSON writes it and the text report lists it.
pub(crate) fn kind(k: ViolationKind) -> &'static str {
    match k {
        ViolationKind::LinkConflict => "link_conflict",
        ViolationKind::PortsExceeded => "ports_exceeded",
        ViolationKind::SelfMessage => "self_message",
        ViolationKind::Duplicate => "duplicate",
        ViolationKind::Unexpected => "unexpected",
        ViolationKind::Missing => "missing",
    }
}

/// The `check` object for a file that could not be read or loaded.
#[derive(Serialize)]
struct CheckErrorDocument<'a> {
    schema: &'static str,
    file: &'a str,
    error: ErrorJson<'a>,
    exit_code: u8,
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    message: &'a str,
    line: Option<usize>,
    column: Option<usize>,
}

/// The `check` JSON line for a file that could not be read (`at` is `None`) or
/// loaded (`at` is its 1-based line and column), with the caller's exit status.
/// Keys are in alphabetical order.
pub fn check_error(
    file: &str,
    message: &str,
    at: Option<(usize, usize)>,
    exit_code: u8,
) -> Result<String, serde_json::Error> {
    let (line, column) = at.unzip();
    let document = CheckErrorDocument {
        schema: CHECK_SCHEMA,
        file,
        error: ErrorJson {
            message,
            line,
            column,
        },
        exit_code,
    };
    Ok(serde_json::to_value(document)?.to_string())
}

/// The counts of a `check` over several files or a directory.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckSummary {
    /// Files reported on (passed + failed + errors).
    pub files: usize,
    /// Files whose every expectation holds.
    pub passed: usize,
    /// Files rejected: an unexpected violation, a failed claim, a network mismatch.
    pub failed: usize,
    /// Files that could not be read or parsed, or whose checks disagreed.
    pub errors: usize,
    /// Files in the directories that were not checked (not `.tbl`).
    pub skipped: usize,
    /// Wall-clock seconds for the whole run.
    pub seconds: f64,
}

/// The summary line of a `check` over several files (schema [`CHECK_SUMMARY_SCHEMA`]).
pub fn check_summary(summary: &CheckSummary, exit_code: u8) -> Result<String, serde_json::Error> {
    #[derive(Serialize)]
    struct Document<'a> {
        schema: &'static str,
        #[serde(flatten)]
        summary: &'a CheckSummary,
        exit_code: u8,
    }
    serde_json::to_string(&Document {
        schema: CHECK_SUMMARY_SCHEMA,
        summary,
        exit_code,
    })
}

/// One `simulate` object.
#[derive(Serialize)]
struct SimulateDocument<'a> {
    schema: &'static str,
    file: &'a str,
    network: Network<'a>,
    report: &'a SimulationReport,
    trace: Option<&'a [Hop]>,
}

/// The `simulate --format json` line (schema [`SIMULATE_SCHEMA`]): the network
/// check, the simulator's report and the hops when traced. Keys are in
/// alphabetical order at every level.
pub fn simulate(
    file: &str,
    network: &NetworkCheck,
    report: &SimulationReport,
    trace: Option<&[Hop]>,
) -> Result<String, serde_json::Error> {
    let document = SimulateDocument {
        schema: SIMULATE_SCHEMA,
        file,
        network: Network::of(network),
        report,
        trace,
    };
    Ok(serde_json::to_value(document)?.to_string())
}
