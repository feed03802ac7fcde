//! The Cayley graph of a group and link set as a schedule network.
//!
//! Schedules made by algorithms that work on a group (the node-invariant FIFO
//! algorithm of `crate::fifo`, node numbers = element indices) are replayed on
//! the graph built here: node `g` is joined to `g·s` for every link `s`. The
//! graph is built from the group's multiplication by generators alone, and
//! [`Graph::from_adjacency`] checks that it is undirected and connected, so a
//! replay on it does not rest on the algorithm that made the schedule.

use super::network::{Graph, NetworkError};
use crate::group::{Elem, FiniteGroup, GenLetter};

/// The Cayley graph of `group` on `links`: node `g` (an element index) has the
/// neighbours `g·s`, one per distinct element `s` of the link set.
pub fn cayley_graph(group: &FiniteGroup, links: &[GenLetter]) -> Result<Graph, NetworkError> {
    let lists = group
        .elements()
        .map(|g| {
            let mut neighbours: Vec<u32> = links
                .iter()
                .map(|&s| group.apply(g, s).0)
                .filter(|&h| h != g.0)
                .collect();
            neighbours.sort_unstable();
            neighbours.dedup();
            neighbours
        })
        .collect();
    Graph::from_adjacency(lists)
}

/// The node number of an element in [`cayley_graph`].
pub fn node_of(element: Elem) -> u32 {
    element.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cyclic_group_of_order_five_is_the_five_ring() {
        // C5 = <a | a^5>; links a, a'. Action table: e·a = e + 1, e·a' = e − 1.
        let action = (0..5u32).flat_map(|e| [(e + 1) % 5, (e + 4) % 5]).collect();
        let group = FiniteGroup::from_action(vec!["a".into()], action).expect("a valid action");
        let a = GenLetter {
            generator: 0,
            inverse: false,
        };
        let graph = cayley_graph(&group, &[a, a.inverted()]).unwrap();
        assert_eq!(graph.nodes(), 5);
        for x in 0..5u32 {
            let mut expected = vec![(x + 1) % 5, (x + 4) % 5];
            expected.sort_unstable();
            assert_eq!(graph.neighbours(x), expected.as_slice());
        }
    }
}
