//! The evidence the core's optimality rule
//! ([`txverify_core::verdict::optimality`]) takes: a number of steps refuted by
//! a certificate that `txverify-proofcheck` accepted, for a formula that covers
//! every table (schedule) of the model.
//!
//! A [`CheckedRefutation`] has no public field and no public constructor: it
//! is made in this crate only, from what a proof check returned (a
//! [`Verified`] table certificate, a [`VerifiedSchedule`], or the lemmas of an
//! external proof checked against the formula during the search), and only
//! when the formula's class covers every answer. So a caller cannot turn a
//! refutation of shortest-path tables, an unchecked certificate or a solver's
//! word into one.
//!
//! ```compile_fail,E0451
//! // No struct literal outside the crate.
//! let forged = txverify_search::refutation::CheckedRefutation {
//!     steps: 3,
//!     covers_fewer_steps: true,
//! };
//! ```
//!
//! ```compile_fail,E0616
//! // No field to move to another number of steps.
//! fn stretch(r: &mut txverify_search::refutation::CheckedRefutation) {
//!     r.steps += 1;
//! }
//! ```

use crate::Infeasibility;
use crate::certificate::{Verified, verify};
use crate::schedule::certificate::VerifiedSchedule;
use txverify_core::kernel::{Checked, Instance, Verdict};
use txverify_core::verdict::{self, OptimalBy, Refutation};

/// A number of steps no answer of the model meets, by a checked certificate
/// whose class covers every answer of the model. Made only in this crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedRefutation {
    steps: u64,
    covers_fewer_steps: bool,
}

impl CheckedRefutation {
    /// From a table certificate the checker accepted: its number of columns,
    /// when its class covers every table (words of any length, no symmetry
    /// restriction), as its regenerated provenance says. A table refutation
    /// settles its own number of columns only.
    pub(crate) fn of_table_certificate(verified: &Verified) -> Option<CheckedRefutation> {
        let provenance = &verified.provenance;
        provenance
            .options
            .covers_all_tables()
            .then(|| CheckedRefutation::of_tables(provenance.time))
    }

    /// From an external proof the checker accepted against the formula for
    /// `time` columns during the search, when `covers_all_tables`
    /// ([`crate::EncodingOptions::covers_all_tables`] of that formula).
    pub(crate) fn of_checked_table_proof(
        time: usize,
        covers_all_tables: bool,
    ) -> Option<CheckedRefutation> {
        covers_all_tables.then(|| CheckedRefutation::of_tables(time))
    }

    fn of_tables(time: usize) -> CheckedRefutation {
        CheckedRefutation {
            steps: time as u64,
            covers_fewer_steps: false,
        }
    }

    /// From a schedule certificate the checker accepted, when its claim covers
    /// every schedule (a total exchange with any paths, or any other
    /// collective: their formula leaves out only where distances forbid an
    /// item to be). A schedule within fewer steps is one within its steps (a
    /// message or copy stays where it is, and where it may be only grows with
    /// the steps), so it settles fewer steps too.
    pub(crate) fn of_schedule_certificate(
        verified: &VerifiedSchedule,
    ) -> Option<CheckedRefutation> {
        let provenance = &verified.provenance;
        provenance
            .covers_all_schedules
            .then_some(CheckedRefutation {
                steps: provenance.time as u64,
                covers_fewer_steps: true,
            })
    }
}

impl Refutation for CheckedRefutation {
    fn steps(&self) -> u64 {
        self.steps
    }

    fn covers_fewer_steps(&self) -> bool {
        self.covers_fewer_steps
    }
}

/// Why a table `checked` found for `instance` is optimal among all tables, if it
/// is (`lower_bound`, `certificates`): the core's one rule
/// ([`verdict::table_optimal_by`]) on the refutations
/// [`table_refutations`] accepts. An infeasibility of shortest-path tables
/// alone, a certificate the checker rejects, or a solver's word proves nothing
/// about all tables and does not count.
pub fn table_optimal_by(
    instance: &Instance,
    checked: &Checked,
    infeasible: &[Infeasibility],
) -> Option<&'static str> {
    if checked.verdict() == Verdict::Optimal {
        // The bound settles it: no certificate need be checked.
        return verdict::table_optimal_by::<CheckedRefutation>(checked, &[]).map(OptimalBy::name);
    }
    verdict::table_optimal_by(checked, &table_refutations(instance, infeasible))
        .map(OptimalBy::name)
}

/// The checked refutations among `infeasible`, each covering every table (any
/// word length, no symmetry restriction): proved by an external proof the
/// checker accepted during the search, or by a certificate that [`verify`]
/// accepts now (its regenerated provenance, not the infeasibility's fields,
/// says what it covers).
pub fn table_refutations(
    instance: &Instance,
    infeasible: &[Infeasibility],
) -> Vec<CheckedRefutation> {
    infeasible
        .iter()
        // The flag only spares checking certificates that cannot count.
        .filter(|i| i.covers_all_tables)
        .filter_map(|i| {
            i.refutation().cloned().or_else(|| {
                let verified = verify(instance, i.certificate.as_deref()?).ok()?;
                CheckedRefutation::of_table_certificate(&verified)
            })
        })
        .collect()
}

/// What checking one table certificate found.
#[derive(Debug)]
pub enum CertificateCheck {
    /// Accepted, and its class covers every table: it refutes `time` columns.
    Refutes {
        /// The certificate's directory.
        dir: std::path::PathBuf,
        /// The number of columns it refutes.
        time: usize,
    },
    /// Accepted, but its class is narrower than every table (shortest words,
    /// a slack, a symmetry restriction): it says nothing about the tables
    /// outside that class, so it counts for no optimality.
    Narrower {
        /// The certificate's directory.
        dir: std::path::PathBuf,
        /// The number of columns it refutes within its class.
        time: usize,
        /// Its claim, said from the options its formula was regenerated
        /// with ("no valid table with 8 columns whose words are all shortest
        /// paths").
        claim: String,
    },
    /// Not accepted (a rejected proof, another instance, a formula that
    /// differs, a file that cannot be read: [`crate::certificate::CertificateError::is_io`]).
    Rejected {
        /// The certificate's directory.
        dir: std::path::PathBuf,
        /// Why.
        error: crate::certificate::CertificateError,
    },
}

impl CertificateCheck {
    /// The certificate's directory.
    pub fn dir(&self) -> &std::path::Path {
        match self {
            CertificateCheck::Refutes { dir, .. }
            | CertificateCheck::Narrower { dir, .. }
            | CertificateCheck::Rejected { dir, .. } => dir,
        }
    }
}

/// Checks every certificate in `dirs` against `instance` (each regenerated
/// and its proof checked, as `verify-proof` does): the refutations the
/// accepted ones whose class covers every table give, as evidence for the
/// core's rule ([`txverify_core::kernel::check_with_refutations`]), and what
/// each check found, in the order of `dirs`.
pub fn check_table_certificates(
    instance: &Instance,
    dirs: &[std::path::PathBuf],
) -> (Vec<CheckedRefutation>, Vec<CertificateCheck>) {
    let mut refutations = Vec::new();
    let checks = dirs
        .iter()
        .map(|dir| {
            let dir = dir.clone();
            match verify(instance, &dir) {
                Err(error) => CertificateCheck::Rejected { dir, error },
                Ok(verified) => {
                    let time = verified.provenance.time;
                    match CheckedRefutation::of_table_certificate(&verified) {
                        Some(refutation) => {
                            refutations.push(refutation);
                            CertificateCheck::Refutes { dir, time }
                        }
                        // The claim is said again from the options the
                        // formula was regenerated with, not read.
                        None => CertificateCheck::Narrower {
                            dir,
                            time,
                            claim: crate::options::claim(time, &verified.provenance.options),
                        },
                    }
                }
            }
        })
        .collect();
    (refutations, checks)
}
