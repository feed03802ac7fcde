//! The published constructions of Coolsaet, Fack and De Meyer ("A tabular method for
//! verification of data exchange algorithms on networks of parallel processors",
//! section 3), generalised to every size they cover.
//!
//! Each family produces the complete text of a `.tbl` file: header (group presentation,
//! links, network, source, expected time and optimality) and table. The generators are
//! *untrusted*: the caller hands the text to the kernel, which parses and checks it like
//! any other file. They share no code with the kernel on purpose, so that one bug is
//! unlikely to slip through both.
//!
//! The families and their times (n = ring size or torus side, d = cube dimension):
//!
//! | family | group | time |
//! | --- | --- | --- |
//! | ring, n odd | C_n | (n² − 1)/8 |
//! | ring, n even | D_n (order n) | n²/8 or (n² + 4)/8 |
//! | ring, n even, cyclic group | C_n | (n² + 2n)/8 (not optimal) |
//! | hypercube d | C2^d | 2^(d − 1) |
//! | 2-D torus, n odd / even ≥ 6 | C_n² / D_n² | n(n² − 1)/8 / n³/8 |
//! | 3-D torus, n odd / even ≥ 6 | C_n³ / D_n³ | n²(n² − 1)/8 / n⁴/8 |
//!
//! Where the paper's text is wrong or incomplete the construction here says what it does
//! instead; `docs/published-errata.md` lists those places.

mod hypercube;
pub mod report;
mod ring;
mod table;
mod torus;
pub mod twisted;

use std::fmt;
use txverify_core::network::NetworkName;

/// A family of networks with a published construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The ring of `n` nodes: C_n for odd `n`, the dihedral group of order `n` for even
    /// `n` (or C_n when [`GroupChoice::Cyclic`] is asked for).
    Ring,
    /// The ring of `n` nodes with the cyclic group C_n, for any `n >= 3`.
    RingCyclic,
    /// The hypercube of dimension `d`, as C2^d.
    Hypercube,
    /// The `n × n` torus (wrap-around mesh): C_n² for odd `n`, D_n² for even `n >= 6`.
    Torus2d,
    /// The `n × n × n` torus: C_n³ for odd `n`, D_n³ for even `n >= 6`.
    Torus3d,
}

impl Family {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Family::Ring => "ring",
            Family::RingCyclic => "ring-cyclic",
            Family::Hypercube => "hypercube",
            Family::Torus2d => "torus2d",
            Family::Torus3d => "torus3d",
        }
    }

    /// The network the construction's table runs on at `size`, named by the
    /// core's one list of families (`txverify_core::network::NetworkName`):
    /// what the family is called and how small it may be is decided there.
    pub fn network(self, size: usize) -> NetworkName {
        let side = u32::try_from(size).unwrap_or(u32::MAX);
        match self {
            Family::Ring | Family::RingCyclic => NetworkName::Ring(side),
            Family::Hypercube => NetworkName::Hypercube(side),
            Family::Torus2d => NetworkName::Torus(vec![side; 2]),
            Family::Torus3d => NetworkName::Torus(vec![side; 3]),
        }
    }

    /// The smallest and largest size this family accepts.
    pub fn size_range(self) -> (usize, usize) {
        match self {
            Family::Ring | Family::RingCyclic => (3, MAX_RING),
            Family::Hypercube => (1, MAX_CUBE_DIMENSION),
            Family::Torus2d => (3, MAX_TORUS2D),
            Family::Torus3d => (3, MAX_TORUS3D),
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which group to use where a family allows a choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GroupChoice {
    /// The group the paper uses for this size (the fastest one).
    #[default]
    Default,
    /// The cyclic group (or a product of cyclic groups).
    Cyclic,
    /// The dihedral group of order `n` (or a product of them); `n` must be even.
    Dihedral,
}

/// Options of [`generate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GenOptions {
    /// The group to present the network with.
    pub group: GroupChoice,
}

/// Largest ring size accepted (the table has about n²/8 columns).
pub const MAX_RING: usize = 4096;
/// Largest hypercube dimension accepted (the table has 2^(d-1) columns of d letters;
/// beyond 16 the doubling search of [`Family::Hypercube`] may take minutes).
pub const MAX_CUBE_DIMENSION: usize = 16;
/// Largest side of a 2-D torus accepted (about n³/8 columns of 4 letters).
pub const MAX_TORUS2D: usize = 128;
/// Largest side of a 3-D torus accepted (about n⁴/8 columns of 6 letters).
pub const MAX_TORUS3D: usize = 48;

/// Why no table was produced.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConstructError {
    /// The size is outside the range the family supports.
    #[error("{family} {size}: size must be between {min} and {max}")]
    SizeOutOfRange {
        /// The family asked for.
        family: Family,
        /// The size asked for.
        size: usize,
        /// Smallest size accepted.
        min: usize,
        /// Largest size accepted.
        max: usize,
    },
    /// The paper's construction does not cover this size (with the reason).
    #[error("{family} {size}: {reason}")]
    NotCovered {
        /// The family asked for.
        family: Family,
        /// The size asked for.
        size: usize,
        /// Why, and what to use instead.
        reason: String,
    },
    /// The group option does not apply to this family and size.
    #[error("{family} {size}: {reason}")]
    BadGroupChoice {
        /// The family asked for.
        family: Family,
        /// The size asked for.
        size: usize,
        /// Why.
        reason: String,
    },
    /// Sizes that are not a shape of the family (`gen twisted`).
    #[error("{0}")]
    Shape(String),
    /// A construction step failed that should not fail (a bug, or a search that found
    /// nothing for this size).
    #[error("{family} {size}: construction failed: {reason}")]
    Failed {
        /// The family asked for.
        family: Family,
        /// The size asked for.
        size: usize,
        /// What failed.
        reason: String,
    },
}

/// Builds the table of `family` at `size` and returns the complete `.tbl` text.
///
/// The text is not checked here: pass it to the kernel before trusting it.
pub fn generate(
    family: Family,
    size: usize,
    options: GenOptions,
) -> Result<String, ConstructError> {
    let (min, max) = family.size_range();
    if size < min || size > max {
        return Err(ConstructError::SizeOutOfRange {
            family,
            size,
            min,
            max,
        });
    }
    match family {
        Family::Ring => ring::generate(size, options.group),
        Family::RingCyclic => match options.group {
            GroupChoice::Default | GroupChoice::Cyclic => ring::generate(size, GroupChoice::Cyclic),
            GroupChoice::Dihedral => Err(ConstructError::BadGroupChoice {
                family,
                size,
                reason: "the ring-cyclic family always uses the cyclic group".into(),
            }),
        },
        Family::Hypercube => match options.group {
            GroupChoice::Default => hypercube::generate(size),
            _ => Err(ConstructError::BadGroupChoice {
                family,
                size,
                reason: "the hypercube is presented as C2^d only".into(),
            }),
        },
        Family::Torus2d => torus::generate(2, size, options.group),
        Family::Torus3d => torus::generate(3, size, options.group),
    }
}

/// The citation written in every generated header.
pub(crate) const PAPER: &str = "Coolsaet, Fack, De Meyer, \"A tabular method for verification \
of data exchange algorithms on networks of parallel processors\"";

#[cfg(test)]
mod tests;
