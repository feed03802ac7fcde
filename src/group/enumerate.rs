//! Coset enumeration (Todd–Coxeter) of a presentation over the trivial subgroup.
//!
//! Placeholder: the real enumerator replaces this file.

use super::{FiniteGroup, GroupError, Presentation};
use std::time::Duration;

/// Resource limits for coset enumeration.
#[derive(Clone, Debug)]
pub struct EnumerationLimits {
    /// Largest group order accepted.
    pub max_order: usize,
    /// Largest number of live cosets during enumeration (working space).
    pub max_cosets: usize,
    /// Wall-clock budget, if any.
    pub time_budget: Option<Duration>,
}

impl Default for EnumerationLimits {
    fn default() -> Self {
        EnumerationLimits {
            max_order: 2_000_000,
            max_cosets: 16_000_000,
            time_budget: Some(Duration::from_secs(120)),
        }
    }
}

/// Enumerates the group defined by `presentation`.
pub fn enumerate(
    presentation: &Presentation,
    limits: &EnumerationLimits,
) -> Result<FiniteGroup, GroupError> {
    let _ = (presentation, limits);
    Err(GroupError::CrossCheck(
        "coset enumeration not built yet".into(),
    ))
}
