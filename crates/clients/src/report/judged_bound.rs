//! The one bound a schedule search judges its schedules against.

use txverify_core::bounds::BoundSet;
use txverify_core::network::Graph;
use txverify_core::verdict::NamedBound;

/// The bound `search` judges a schedule on `graph` against: the best of the
/// core's `bounds` on a network without a fabric; on a fabric none (0 steps,
/// [`BoundSet::none`]), because the core's counting bounds take one chunk a
/// link a step and every node for a participant, so they do not hold on a
/// fabric's capacities and switch nodes. On a fabric a schedule is then
/// optimal only when every smaller number of steps is refuted (a checked
/// certificate), never by a bound. When the core's bounds weigh a fabric,
/// this is where they are called.
pub(crate) fn judged_bound(graph: &Graph, bounds: &BoundSet) -> NamedBound {
    if graph.fabric().is_plain() {
        bounds.best().clone()
    } else {
        bounds.none()
    }
}
