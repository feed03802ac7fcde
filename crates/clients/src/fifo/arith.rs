//! Group arithmetic for the FIFO run: products and inverses of any two
//! elements (the group itself tabulates only the generators' right action), and
//! the run's own breadth-first distances, kept apart from the crate's shared
//! search so that the status the run is compared with has a second source.

use txverify_core::group::{Elem, FiniteGroup, GenLetter};

/// Distances from the identity over the links (`u32::MAX` when unreachable).
pub(super) fn bfs(group: &FiniteGroup, links: &[GenLetter]) -> Vec<u32> {
    let mut distance = vec![u32::MAX; group.order()];
    let mut frontier = vec![Elem::IDENTITY];
    distance[0] = 0;
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for &e in &frontier {
            for &l in links {
                let f = group.apply(e, l);
                if distance[f.index()] == u32::MAX {
                    distance[f.index()] = d;
                    next.push(f);
                }
            }
        }
        frontier = next;
    }
    distance
}

/// Groups up to this order get a full multiplication table (4 bytes per entry).
const TABLE_LIMIT: usize = 2048;

/// Products and inverses of arbitrary elements; the group itself only tabulates
/// the right action of the generators.
pub(super) struct Arithmetic {
    /// A word over the generators for every element.
    words: Vec<Vec<GenLetter>>,
    inverses: Vec<Elem>,
    /// `table[a * order + b]` is `a·b`, for small groups.
    pub(super) table: Option<Vec<u32>>,
    order: usize,
}

impl Arithmetic {
    pub(super) fn new(group: &FiniteGroup) -> Arithmetic {
        let order = group.order();
        let words = group.shortest_words();
        let inverses = words
            .iter()
            .map(|w| {
                let inverse: Vec<GenLetter> = w.iter().rev().map(|l| l.inverted()).collect();
                group.eval(&inverse)
            })
            .collect();
        let table = (order <= TABLE_LIMIT).then(|| {
            // Elements in breadth-first order with the last letter of their word:
            // a·(b·g) = (a·b)·g fills a row in one pass over that order.
            let mut by_length: Vec<usize> = (1..order).collect();
            by_length.sort_by_key(|&b| words[b].len());
            let steps: Vec<(usize, usize, GenLetter)> = by_length
                .iter()
                .filter_map(|&b| {
                    let (&last, prefix) = words[b].split_last()?;
                    Some((b, group.eval(prefix).index(), last))
                })
                .collect();
            let mut table = vec![0; order * order];
            for (a, row) in table.chunks_exact_mut(order).enumerate() {
                row[0] = a as u32;
                for &(b, prefix, last) in &steps {
                    row[b] = group.apply(Elem(row[prefix]), last).0;
                }
            }
            table
        });
        Arithmetic {
            words,
            inverses,
            table,
            order,
        }
    }

    pub(super) fn mul(&self, group: &FiniteGroup, a: Elem, b: Elem) -> Elem {
        match &self.table {
            Some(table) => Elem(table[a.index() * self.order + b.index()]),
            None => group.apply_word(a, &self.words[b.index()]),
        }
    }

    /// `a·b` for every `b`, when there is a table.
    pub(super) fn row(&self, a: Elem) -> Option<&[u32]> {
        let start = a.index() * self.order;
        self.table.as_ref().map(|t| &t[start..start + self.order])
    }

    pub(super) fn inverse(&self, a: Elem) -> Elem {
        self.inverses[a.index()]
    }
}
