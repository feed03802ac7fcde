//! A replay's report read the way every verdict reads it: the report says
//! what the replay counted, and [`judge`] whether that makes the schedule
//! valid (the report has no word of its own for it).

use txverify_core::schedule::ReplayReport;
use txverify_core::verdict::judge;

/// Validity as [`judge`] decides it.
pub trait Judged {
    /// The verdict's `valid`, with no bound.
    fn valid(&self) -> bool;
}

impl Judged for ReplayReport {
    fn valid(&self) -> bool {
        judge(self, None, None).valid()
    }
}
