//! The trusted checking kernel.
//!
//! Everything txverify says about a table — valid, invalid, optimal — is decided
//! here and only here. The kernel is deliberately small and boring: no I/O, no
//! solver crates, plain loops over vectors. Its one use of threads is the
//! lower bound's search over link subsets (`bounds.rs`), a rayon map over a
//! batch of subsets whose results are combined in the batch's fixed order, so
//! the bound does not depend on how many threads ran or in what order. It takes an
//! [`Instance`] (a computed group, the declared links, the message set and the
//! port limit) and a [`Table`] (placed words whose letters are already resolved
//! to generator letters), and returns a [`Checked`] report whose verdict can only
//! be constructed by this module.
//!
//! A [`Checked`] cannot be written down outside the kernel (private fields):
//!
//! ```compile_fail,E0451
//! use txverify_core::kernel::{Checked, Verdict};
//! fn forge(c: &Checked) -> Checked {
//!     Checked { verdict: Verdict::Optimal, ..c.clone() }
//! }
//! ```
//!
//! nor its verdict changed:
//!
//! ```compile_fail,E0616
//! use txverify_core::kernel::{Checked, Verdict};
//! fn promote(c: &mut Checked) {
//!     c.verdict = Verdict::Optimal;
//! }
//! ```
//!
//! The semantics follow Theorem 1 of Coolsaet, Fack and De Meyer: a locally
//! defined, buffer-free algorithm on the Cayley network (G, S) is valid exactly
//! when no column repeats a link and the words spell the message set.

mod bounds;
mod check;
mod instance;

pub use bounds::{LowerBound, SubsetBound};
pub use check::{
    Checked, ExpectationOutcome, NonShortestWord, Place, Verdict, Violation, WordRef, check,
    check_with_refutations,
};
pub use instance::{
    ElementName, ElementNamer, Expectation, Instance, InstanceError, LinkId, MessageSpec,
    PlacedWord, Table, TableLetter,
};

/// The lower bound that holds for every table of `instance` (what [`check`]
/// reports as `bound`), or `None` when the link set is defective.
pub fn lower_bound(instance: &Instance) -> Option<LowerBound> {
    instance
        .defects()
        .is_empty()
        .then(|| bounds::lower_bound(instance, &instance.message_set()))
}
