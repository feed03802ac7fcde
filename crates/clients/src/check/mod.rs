//! The whole verification of a loaded file: the kernel's verdict, the physical
//! network, and the exhaustive simulation, with the agreement between the two
//! independent checkers.
//!
//! The kernel decides validity from one node's point of view (the tabular
//! theorem); the simulator plays every node on the physical wiring and does not
//! use the theorem. When both run they must agree on valid versus invalid and on
//! the kinds of violation; a disagreement is a bug in one of them and is
//! reported as such ([`Outcome::Disagreement`]), never resolved in favour of either.

pub mod certified;

use crate::check::certified::{CertificateFinding, Certified};
use crate::simulate::{self, MessageSet, SimulationInput, SimulationOptions, SimulationReport};
use std::collections::BTreeSet;
use txverify_core::kernel::{
    Checked, Expectation, Instance, MessageSpec, Table, TableLetter, Violation,
    check_with_refutations,
};
use txverify_core::load::Loaded;
use txverify_core::network::{Embedding, NetworkName, embed, infer};

/// What to run besides the kernel.
#[derive(Clone, Copy, Debug)]
pub struct VerifyOptions {
    /// Run the exhaustive simulation.
    pub simulate: bool,
    /// Options of the simulator.
    pub simulation: SimulationOptions,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            simulate: true,
            simulation: SimulationOptions::default(),
        }
    }
}

/// How the Cayley graph relates to a physical network.
#[derive(Clone, Debug)]
pub enum NetworkCheck {
    /// The declared network is isomorphic to the Cayley graph (verified edge by edge).
    Matches {
        /// The declared network.
        network: NetworkName,
    },
    /// No network was declared; the Cayley graph was recognised as this one.
    Inferred {
        /// The recognised network.
        network: NetworkName,
    },
    /// No network was declared and the Cayley graph is no ring, hypercube or torus.
    CayleyGraphOnly,
    /// The declared network is not isomorphic to the Cayley graph ([`Outcome::Failed`]).
    Mismatch {
        /// The declared network.
        network: NetworkName,
        /// Why not.
        reason: String,
    },
    /// Not examined, because the link set is defective.
    Skipped {
        /// Why.
        reason: String,
    },
}

/// The simulation's outcome.
#[derive(Clone, Debug)]
pub enum SimulationOutcome {
    /// The simulation ran; its report.
    Ran {
        /// Which graph it ran on (`ring 6`, `torus 5 5`, or the Cayley graph).
        on: String,
        /// The simulator's report.
        report: Box<SimulationReport>,
    },
    /// It did not run.
    Skipped {
        /// Why.
        reason: String,
    },
    /// It was refused before it ran: it would take more message-steps than the
    /// limit ([`SimulationOptions::max_work`]).
    OverLimit {
        /// Message-steps it would take.
        work: u64,
        /// The limit.
        limit: u64,
    },
}

impl SimulationOutcome {
    /// Why it did not run, or `None` when it ran.
    pub fn not_run_reason(&self) -> Option<String> {
        match self {
            SimulationOutcome::Ran { .. } => None,
            SimulationOutcome::Skipped { reason } => Some(reason.clone()),
            SimulationOutcome::OverLimit { work, limit } => Some(format!(
                "not simulated: {work} message-steps over the limit {limit} (--max-simulation-steps)"
            )),
        }
    }
}

/// The kinds of violation both checkers can see, in a common vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ViolationKind {
    /// Two messages on one directed link at one step (a column repeating a link).
    LinkConflict,
    /// More messages leaving a node than it has ports.
    PortsExceeded,
    /// A message to the sender itself (a word spelling the identity).
    SelfMessage,
    /// A destination reached twice.
    Duplicate,
    /// A destination outside the message set.
    Unexpected,
    /// A destination of the message set never reached.
    Missing,
}

/// Whether the kernel and the simulator agree.
#[derive(Clone, Debug)]
pub enum Agreement {
    /// Both ran and agree on validity and on the kinds of violation.
    Agree,
    /// Only the kernel ran.
    KernelOnly,
    /// They disagree: a bug in one of them ([`Outcome::Disagreement`]).
    Disagree {
        /// Kinds the kernel found.
        kernel: Vec<ViolationKind>,
        /// Kinds the simulator found.
        simulator: Vec<ViolationKind>,
    },
}

/// Everything verified about one file. Only [`verify`] and [`verify_table`]
/// make one (private fields), so a `Verification` is always the kernel's,
/// the network check's and the simulator's own findings.
///
/// ```compile_fail,E0451
/// // Cannot be written down outside this module.
/// fn forge(v: txverify_clients::verify::Verification) -> txverify_clients::verify::Verification {
///     txverify_clients::verify::Verification { agreement: txverify_clients::verify::Agreement::Agree, ..v }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Verification {
    checked: Checked,
    network: NetworkCheck,
    simulation: SimulationOutcome,
    agreement: Agreement,
    certificates: Vec<CertificateFinding>,
}

/// The parts of a [`Verification`], taken apart by value (see
/// [`Verification::into_parts`]).
#[derive(Clone, Debug)]
pub struct VerificationParts {
    /// The kernel's findings.
    pub checked: Checked,
    /// The physical network.
    pub network: NetworkCheck,
    /// The simulation.
    pub simulation: SimulationOutcome,
    /// Kernel against simulator.
    pub agreement: Agreement,
    /// The certificates the table named, and what each check found.
    pub certificates: Vec<CertificateFinding>,
}

/// What a verification concludes, as a whole. Exhaustive on purpose: a new
/// conclusion must be given an exit status by every command line that maps these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The table is valid, every `expect:` claim holds and the declared network (if
    /// any) matches.
    Passed,
    /// The table is invalid, a claim fails, or the declared network does not match.
    Failed,
    /// The kernel and the simulator disagree: a bug in one of them.
    Disagreement,
}

/// The status of a verified file: passed (0), failed (1), or the kernel and
/// the simulator disagree (3, a bug). Here, beside the outcome, so that the
/// shared statuses name no feature.
impl From<Outcome> for crate::shared::failure::Status {
    fn from(outcome: Outcome) -> Self {
        use crate::shared::failure::Status;
        match outcome {
            Outcome::Passed => Status::Ok,
            Outcome::Failed => Status::Rejected,
            Outcome::Disagreement => Status::Internal,
        }
    }
}

impl Verification {
    /// The kernel's findings.
    pub fn checked(&self) -> &Checked {
        &self.checked
    }

    /// The physical network.
    pub fn network(&self) -> &NetworkCheck {
        &self.network
    }

    /// The simulation.
    pub fn simulation(&self) -> &SimulationOutcome {
        &self.simulation
    }

    /// Kernel against simulator.
    pub fn agreement(&self) -> &Agreement {
        &self.agreement
    }

    /// The certificates the table named, and what each check found (empty
    /// when it named none).
    pub fn certificates(&self) -> &[CertificateFinding] {
        &self.certificates
    }

    /// The findings by value, for a report that keeps them (a copy: changing
    /// them changes no `Verification`).
    pub fn into_parts(self) -> VerificationParts {
        VerificationParts {
            checked: self.checked,
            network: self.network,
            simulation: self.simulation,
            agreement: self.agreement,
            certificates: self.certificates,
        }
    }

    /// The conclusion: a disagreement outranks everything, then any failure
    /// (a certificate the table names that the checker rejects is one).
    pub fn outcome(&self) -> Outcome {
        if matches!(self.agreement, Agreement::Disagree { .. }) {
            Outcome::Disagreement
        } else if !self.checked.passed()
            || matches!(self.network, NetworkCheck::Mismatch { .. })
            || self
                .certificates
                .iter()
                .any(|c| matches!(c.finding, crate::check::certified::Finding::Rejected { .. }))
        {
            Outcome::Failed
        } else {
            Outcome::Passed
        }
    }
}

/// Runs the kernel, the network check and (if asked) the simulation on a loaded file.
pub fn verify(loaded: &Loaded, options: &VerifyOptions) -> Verification {
    verify_certified(loaded, options, Certified::default())
}

/// [`verify`], with the certificates the file named, checked
/// ([`crate::check::certified::check_certificates`]): their refutations are the
/// kernel's evidence of optimality above the lower bound.
pub fn verify_certified(
    loaded: &Loaded,
    options: &VerifyOptions,
    certified: Certified,
) -> Verification {
    let mut verification = verify_with_refutations(
        &loaded.instance,
        &loaded.table,
        &loaded.claims,
        loaded.network.as_ref(),
        options,
        &certified.refutations,
    );
    verification.certificates = certified.findings;
    verification
}

/// [`verify`] for an instance and table built in code.
pub fn verify_table(
    instance: &Instance,
    table: &Table,
    claims: &[Expectation],
    declared: Option<&NetworkName>,
    options: &VerifyOptions,
) -> Verification {
    verify_with_refutations(instance, table, claims, declared, options, &[])
}

/// [`verify_table`] with refutations for the kernel.
fn verify_with_refutations(
    instance: &Instance,
    table: &Table,
    claims: &[Expectation],
    declared: Option<&NetworkName>,
    options: &VerifyOptions,
    refutations: &[txverify_search::refutation::CheckedRefutation],
) -> Verification {
    let checked = check_with_refutations(instance, table, claims, refutations);
    let (network, embedding) = if !instance.defects().is_empty() {
        let reason = "the link set is defective".to_string();
        (NetworkCheck::Skipped { reason }, None)
    } else if declared.is_none() && !options.simulate {
        // Inference only serves the simulation; a declared network is always checked.
        let reason = "no network declared and no simulation asked for".to_string();
        (NetworkCheck::Skipped { reason }, None)
    } else {
        physical_network(instance, declared)
    };
    let simulation = match (&embedding, options.simulate) {
        (_, false) => SimulationOutcome::Skipped {
            reason: "not requested".to_string(),
        },
        (None, true) => SimulationOutcome::Skipped {
            reason: match &network {
                NetworkCheck::Mismatch { .. } => "the declared network does not match".to_string(),
                NetworkCheck::Skipped { reason } => reason.clone(),
                _ => "no network to simulate on".to_string(),
            },
        },
        (Some(embedding), true) => run_simulation(instance, table, embedding, &options.simulation),
    };
    let agreement = match &simulation {
        SimulationOutcome::Ran { report, .. } => compare(&checked, report),
        SimulationOutcome::Skipped { .. } | SimulationOutcome::OverLimit { .. } => {
            Agreement::KernelOnly
        }
    };
    Verification {
        checked,
        network,
        simulation,
        agreement,
        certificates: Vec::new(),
    }
}

/// Matches the declared network, or infers one, or falls back to the Cayley graph;
/// returns the embedding to simulate on, when there is one.
pub fn physical_network(
    instance: &Instance,
    declared: Option<&NetworkName>,
) -> (NetworkCheck, Option<Embedding>) {
    let group = instance.group();
    let links = instance.links();
    match declared {
        Some(spec) => match embed(group, links, spec) {
            Ok(embedding) => (
                NetworkCheck::Matches {
                    network: spec.clone(),
                },
                Some(embedding),
            ),
            Err(mismatch) => (
                NetworkCheck::Mismatch {
                    network: spec.clone(),
                    reason: mismatch.to_string(),
                },
                None,
            ),
        },
        None => match infer(group, links) {
            Some((spec, embedding)) => (NetworkCheck::Inferred { network: spec }, Some(embedding)),
            None => match Embedding::cayley(group, links) {
                Ok(embedding) => (NetworkCheck::CayleyGraphOnly, Some(embedding)),
                Err(e) => (
                    NetworkCheck::Skipped {
                        reason: e.to_string(),
                    },
                    None,
                ),
            },
        },
    }
}

/// A table in the simulator's terms: words as link indices, and the message set.
#[derive(Clone, Debug)]
pub struct SimulationTable {
    /// The words, letters as indices into the instance's links.
    pub words: Vec<simulate::PlacedWord>,
    /// The message set.
    pub messages: MessageSet,
}

impl SimulationTable {
    /// The simulator's input for this table on `embedding`.
    pub fn input<'a>(
        &'a self,
        instance: &'a Instance,
        embedding: &'a Embedding,
    ) -> SimulationInput<'a> {
        SimulationInput {
            group: instance.group(),
            links: instance.links(),
            words: &self.words,
            messages: &self.messages,
            ports: instance.ports(),
            embedding,
        }
    }
}

/// Why a table cannot be handed to the simulator.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimulationWordsError {
    /// A letter of a word is not a link (or names no generator): there is no
    /// physical link to send it over.
    #[error("row {row}, column {column}: word `{word}` has a letter that is not a link")]
    NotALink {
        /// 1-based row of the word.
        row: usize,
        /// 1-based column of its first letter.
        column: usize,
        /// The word as written.
        word: String,
    },
}

/// Translates a table for the simulator. Fails when a letter is not a link.
pub fn simulation_words(
    instance: &Instance,
    table: &Table,
) -> Result<SimulationTable, SimulationWordsError> {
    let mut words = Vec::with_capacity(table.words.len());
    for word in &table.words {
        let mut letters = Vec::with_capacity(word.letters.len());
        for letter in &word.letters {
            let link = match letter {
                TableLetter::Gen(g) => instance.link_of_letter(*g),
                TableLetter::UnknownName(_) => None,
            };
            let Some(link) = link else {
                return Err(SimulationWordsError::NotALink {
                    row: word.row,
                    column: word.column,
                    word: word.text.clone(),
                });
            };
            letters.push(link.index());
        }
        words.push(simulate::PlacedWord {
            row: word.row,
            column: word.column,
            letters,
            text: word.text.clone(),
        });
    }
    let messages = match instance.message_spec() {
        MessageSpec::Total => MessageSet::Total,
        MessageSpec::Odd => MessageSet::Odd,
        MessageSpec::Distances(d) => MessageSet::Distances(d.clone()),
        MessageSpec::To(elements) => MessageSet::To(elements.clone()),
    };
    Ok(SimulationTable { words, messages })
}

/// The graph an embedding plays on, for reports.
pub fn embedding_name(embedding: &Embedding) -> String {
    embedding
        .spec()
        .map_or_else(|| "the Cayley graph".to_string(), spec_text)
}

fn run_simulation(
    instance: &Instance,
    table: &Table,
    embedding: &Embedding,
    options: &SimulationOptions,
) -> SimulationOutcome {
    let prepared = match simulation_words(instance, table) {
        Ok(prepared) => prepared,
        Err(e) => {
            return SimulationOutcome::Skipped {
                reason: e.to_string(),
            };
        }
    };
    match simulate::simulate(&prepared.input(instance, embedding), options) {
        Ok(report) => SimulationOutcome::Ran {
            on: embedding_name(embedding),
            report: Box::new(report),
        },
        Err(simulate::SimulationError::OverLimit { work, limit }) => {
            SimulationOutcome::OverLimit { work, limit }
        }
        Err(e) => SimulationOutcome::Skipped {
            reason: e.to_string(),
        },
    }
}

/// `ring 6`, `hypercube 4`, `torus 5 5`.
pub fn spec_text(spec: &NetworkName) -> String {
    spec.to_string()
}

/// The kinds of violation the kernel found that the simulator can see too.
pub fn kernel_kinds(checked: &Checked) -> BTreeSet<ViolationKind> {
    checked
        .violations()
        .iter()
        .filter_map(|v| match v {
            Violation::ColumnConflict { .. } => Some(ViolationKind::LinkConflict),
            Violation::PortsExceeded { .. } => Some(ViolationKind::PortsExceeded),
            Violation::IdentityWord { .. } => Some(ViolationKind::SelfMessage),
            Violation::DuplicateMessage { .. } => Some(ViolationKind::Duplicate),
            Violation::UnexpectedMessage { .. } => Some(ViolationKind::Unexpected),
            Violation::MissingMessage { .. } => Some(ViolationKind::Missing),
            Violation::LinkSet { .. }
            | Violation::UnknownLetter { .. }
            | Violation::NotALink { .. } => None,
        })
        .collect()
}

/// The kinds of violation the simulator found.
pub fn simulator_kinds(report: &SimulationReport) -> BTreeSet<ViolationKind> {
    let c = &report.counts;
    [
        (c.link_conflicts, ViolationKind::LinkConflict),
        (c.ports_exceeded, ViolationKind::PortsExceeded),
        (c.self_messages, ViolationKind::SelfMessage),
        (c.duplicates, ViolationKind::Duplicate),
        (c.unexpected, ViolationKind::Unexpected),
        (c.missing, ViolationKind::Missing),
    ]
    .into_iter()
    .filter(|&(count, _)| count > 0)
    .map(|(_, kind)| kind)
    .collect()
}

fn compare(checked: &Checked, report: &SimulationReport) -> Agreement {
    let kernel = kernel_kinds(checked);
    let simulator = simulator_kinds(report);
    let kernel_valid = checked.violations().is_empty();
    if kernel_valid == report.valid && kernel == simulator {
        Agreement::Agree
    } else {
        Agreement::Disagree {
            kernel: kernel.into_iter().collect(),
            simulator: simulator.into_iter().collect(),
        }
    }
}
