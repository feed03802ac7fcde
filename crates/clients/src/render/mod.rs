//! Pictures: a table drawn as the paper draws it, link utilisation from the
//! simulator, and a replayed schedule's sends, as SVG text (the HTML report of
//! `check` puts them on one page).
//!
//! Pictures only draw what the kernel and the simulator found: the blocks come
//! from the loaded table, the marks from the kernel's violations, the heat map
//! from the simulator's record of link use. Nothing here decides validity.
//! Large tables are aggregated so that the size of a picture is bounded by the
//! options, not by the table (the 32×32×32 torus has 131,072 steps).

mod cut;
mod heat;
pub mod picture;
mod schedule;
mod svg;
mod table;

pub use cut::{MAX_CUT_NODES, cut_svg};
pub use heat::utilisation_svg;
pub use schedule::{ScheduleOptions, schedule_svg};
pub use svg::escape;
pub use table::{ColourBy, TableOptions, table_svg};

use crate::simulate::LinkUseShape;

/// The binning to ask the simulator for when a utilisation picture is wanted:
/// at most 400 columns of steps and 128 rows of directed links.
pub const LINK_USE_SHAPE: LinkUseShape = LinkUseShape {
    max_step_bins: 400,
    max_link_bins: 128,
};

/// Why a picture cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The simulation was run without recording link use.
    #[error("the simulation did not record link use (a bug: ask for it with LINK_USE_SHAPE)")]
    NoLinkUse,
    /// The table is empty: no step to draw.
    #[error("the table has no steps: there is no utilisation to draw")]
    NothingToDraw,
    /// The replay found the schedule invalid: it is not drawn.
    #[error("the schedule is invalid ({0} violations): it is not drawn")]
    InvalidSchedule(u64),
    /// The schedule has no sends.
    #[error("the schedule has no sends: there is nothing to draw")]
    NoSends,
    /// A cut picture of a network past [`MAX_CUT_NODES`].
    #[error("the network has {nodes} nodes: a cut is drawn for at most {limit}")]
    TooManyNodes {
        /// Its nodes.
        nodes: usize,
        /// The limit.
        limit: usize,
    },
    /// A cut naming a node the network does not have.
    #[error("node {node} of the cut is not a node of the network (0 … {nodes} − 1)")]
    UnknownNode {
        /// The node.
        node: u32,
        /// The network's nodes.
        nodes: usize,
    },
}
