//! Breadth-first search from the identity over a list of letters.
//!
//! Distances in the Cayley graph, shortest words naming elements, inverses read
//! off shortest words: all of these are one search from the identity, trying the
//! letters in the order given. It is written once here so that every caller sees
//! the same tree (the same tie-breaking between equally short words).

use std::collections::VecDeque;

use super::{Elem, FiniteGroup, GenLetter};

/// The breadth-first tree of a group from the identity over a list of letters.
#[derive(Clone, Debug)]
pub struct BfsTree {
    /// `parent[e] = (p, i)`: `e = p · letters[i]`; `None` for the identity and
    /// for unreachable elements.
    parent: Vec<Option<(Elem, usize)>>,
    /// Distance from the identity, `u32::MAX` when unreachable.
    distance: Vec<u32>,
    /// The reachable elements in the order the search visited them.
    visited: Vec<Elem>,
}

impl BfsTree {
    /// Searches `group` from the identity, trying `letters` in order at every element.
    pub fn new(group: &FiniteGroup, letters: &[GenLetter]) -> BfsTree {
        let order = group.order();
        let mut parent = vec![None; order];
        let mut distance = vec![u32::MAX; order];
        distance[Elem::IDENTITY.index()] = 0;
        let mut queue = VecDeque::from([Elem::IDENTITY]);
        let mut visited = Vec::with_capacity(order);
        while let Some(e) = queue.pop_front() {
            visited.push(e);
            let next_distance = distance[e.index()] + 1;
            for (i, &letter) in letters.iter().enumerate() {
                let next = group.apply(e, letter);
                if distance[next.index()] == u32::MAX {
                    distance[next.index()] = next_distance;
                    parent[next.index()] = Some((e, i));
                    queue.push_back(next);
                }
            }
        }
        BfsTree {
            parent,
            distance,
            visited,
        }
    }

    /// Distance of every element from the identity (`u32::MAX`: unreachable).
    pub fn distances(&self) -> &[u32] {
        &self.distance
    }

    /// The reachable elements in breadth-first order (the identity first).
    pub fn visit_order(&self) -> &[Elem] {
        &self.visited
    }

    /// `(p, i)` with `e = p · letters[i]` on a shortest word to `e`; `None` for
    /// the identity and for unreachable elements.
    pub fn parent(&self, e: Elem) -> Option<(Elem, usize)> {
        self.parent[e.index()]
    }

    /// Whether every element is reachable (the letters generate the group).
    pub fn spans(&self) -> bool {
        self.distance.iter().all(|&d| d != u32::MAX)
    }

    /// A shortest word (letter indices) from the identity to `e`, `None` when
    /// `e` is unreachable; the identity's word is empty.
    pub fn word(&self, e: Elem) -> Option<Vec<usize>> {
        if self.distance[e.index()] == u32::MAX {
            return None;
        }
        let mut word = Vec::with_capacity(self.distance[e.index()] as usize);
        let mut cur = e;
        while let Some((prev, i)) = self.parent[cur.index()] {
            word.push(i);
            cur = prev;
        }
        word.reverse();
        Some(word)
    }
}

impl FiniteGroup {
    /// Distance of every element from the identity in the Cayley graph on
    /// `links` (`u32::MAX`: unreachable).
    pub fn distances_from_identity(&self, links: &[GenLetter]) -> Vec<u32> {
        BfsTree::new(self, links).distance
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::testing::linked::{cyclic, dihedral};

    #[test]
    fn ring_distances_and_words() {
        let g = cyclic(7);
        let tree = BfsTree::new(&g.group, &g.links);
        assert!(tree.spans());
        assert_eq!(tree.visit_order()[0], Elem::IDENTITY);
        let visited_distances: Vec<u32> = tree
            .visit_order()
            .iter()
            .map(|e| tree.distances()[e.index()])
            .collect();
        assert!(visited_distances.is_sorted());
        // Element i is a^i: distance min(i, 7 - i).
        let expected: Vec<u32> = (0..7u32).map(|i| i.min(7 - i)).collect();
        assert_eq!(tree.distances(), &expected[..]);
        for e in g.group.elements() {
            let word = tree.word(e).unwrap();
            assert_eq!(word.len() as u32, expected[e.index()]);
            let letters: Vec<GenLetter> = word.iter().map(|&i| g.links[i]).collect();
            assert_eq!(g.group.eval(&letters), e);
        }
    }

    #[test]
    fn unreachable_elements_have_no_word() {
        // Only y in D_8: the identity and y are reachable, nothing else.
        let g = dihedral(8);
        let tree = BfsTree::new(&g.group, &g.links[..1]);
        assert!(!tree.spans());
        let reachable = tree.distances().iter().filter(|&&d| d != u32::MAX).count();
        assert_eq!(reachable, 2);
        assert_eq!(tree.word(Elem::IDENTITY), Some(Vec::new()));
        let far = g
            .group
            .elements()
            .find(|e| tree.distances()[e.index()] == u32::MAX);
        assert_eq!(tree.word(far.unwrap()), None);
    }
}
