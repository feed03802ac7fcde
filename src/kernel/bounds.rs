//! Lower bounds on the time of every table over a network and message set.
//!
//! Two bounds, both valid for words of any length (spec, "What `check` decides"):
//! the largest message distance, and for every non-empty link subset S' the
//! number of columns the S'-letters alone need, ⌈Σ_e c_S'(e) / min(ports, |S'|)⌉,
//! where c_S'(e) is the fewest S'-letters in any word spelling e (0-1 BFS:
//! letters outside S' are free). S' = S is the counting bound; smaller subsets
//! catch unbalanced networks such as rectangular tori.

use super::instance::{Instance, LinkId, MessageSpec};
use crate::group::Elem;
use std::collections::VecDeque;

/// Subsets are tried exhaustively up to this many links.
pub const EXHAUSTIVE_SUBSET_LIMIT: usize = 12;

/// The bound given by one link subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubsetBound {
    /// The links of the subset, as written.
    pub links: Vec<String>,
    /// Σ over the message set of the fewest letters from the subset.
    pub letters_needed: u64,
    /// Letters of the subset a column can hold: min(ports, |S'|).
    pub per_column: usize,
    /// ⌈letters_needed / per_column⌉.
    pub columns: u64,
}

/// The lower bound and how it was obtained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerBound {
    /// The bound: the largest of the bounds below.
    pub value: u64,
    /// The largest distance of a message.
    pub max_distance: u64,
    /// Σ of the distances of the messages.
    pub distance_sum: u64,
    /// The counting bound ⌈Σ distances / min(ports, |S|)⌉ (the subset S' = S).
    pub counting: u64,
    /// The subset giving the largest load bound.
    pub best_subset: Option<SubsetBound>,
    /// How many non-empty subsets were tried.
    pub subsets_tried: u64,
    /// How many of them needed a search of their own (the others are the inverses of
    /// searched ones, which give the same bound when the message set is closed under
    /// inverses).
    pub subsets_searched: u64,
    /// Whether every non-empty subset was tried.
    pub exhaustive: bool,
}

/// Computes the lower bound for an instance whose link set has no defects.
pub fn lower_bound(instance: &Instance, message_set: &[bool]) -> LowerBound {
    let distances = instance.distances();
    let messages: Vec<usize> = (0..message_set.len()).filter(|&e| message_set[e]).collect();
    let max_distance = messages
        .iter()
        .map(|&e| distances[e] as u64)
        .max()
        .unwrap_or(0);
    let distance_sum: u64 = messages.iter().map(|&e| distances[e] as u64).sum();
    let link_count = instance.links().len();
    let (subsets, exhaustive) = candidate_subsets(instance);
    let counting = distance_sum.div_ceil(instance.ports().min(link_count).max(1) as u64);
    // Reversing a word and inverting its letters spells e⁻¹ with the S'⁻¹-letters in
    // place of the S'-letters, so c_{S'⁻¹}(e) = c_{S'}(e⁻¹). When the message set is
    // closed under inverses, S' and S'⁻¹ give the same bound and one BFS serves both.
    let inverse_closed = !matches!(instance.message_spec(), MessageSpec::To(_));
    let inverse_link: Vec<usize> = instance
        .links()
        .iter()
        .enumerate()
        .map(|(i, letter)| {
            let inverse = instance.group().eval(&[letter.inverted()]);
            instance.link_of(inverse).map_or(i, |l| l.index())
        })
        .collect();
    let mut computed = std::collections::HashSet::new();
    let mut best: Option<SubsetBound> = None;
    let mut bfs_runs = 0;
    for subset in &subsets {
        if inverse_closed {
            let mut inverse = vec![false; subset.len()];
            for (i, &inside) in subset.iter().enumerate() {
                inverse[inverse_link[i]] |= inside;
            }
            if computed.contains(&inverse) {
                continue;
            }
            computed.insert(subset.clone());
        }
        bfs_runs += 1;
        let bound = subset_bound(instance, subset, &messages);
        if best.as_ref().is_none_or(|b| bound.columns > b.columns) {
            best = Some(bound);
        }
    }
    let best_columns = best.as_ref().map_or(0, |b| b.columns);
    LowerBound {
        value: max_distance.max(best_columns),
        max_distance,
        distance_sum,
        counting,
        best_subset: best,
        subsets_tried: subsets.len() as u64,
        subsets_searched: bfs_runs,
        exhaustive,
    }
}

/// Every non-empty subset for small link sets; otherwise the whole set, each
/// link with and without its inverse, and their complements.
fn candidate_subsets(instance: &Instance) -> (Vec<Vec<bool>>, bool) {
    let n = instance.links().len();
    if n == 0 {
        return (Vec::new(), true);
    }
    if n <= EXHAUSTIVE_SUBSET_LIMIT {
        let subsets = (1u32..(1 << n))
            .map(|mask| (0..n).map(|i| mask >> i & 1 == 1).collect())
            .collect();
        return (subsets, true);
    }
    let mut subsets: Vec<Vec<bool>> = vec![vec![true; n]];
    for (i, &letter) in instance.links().iter().enumerate() {
        let mut single = vec![false; n];
        single[i] = true;
        let mut pair = single.clone();
        if let Some(inv) = instance.link_of_letter(letter.inverted()) {
            pair[inv.index()] = true;
        }
        for subset in [single, pair] {
            let complement: Vec<bool> = subset.iter().map(|&x| !x).collect();
            for s in [subset, complement] {
                if s.iter().any(|&x| x) && !subsets.contains(&s) {
                    subsets.push(s);
                }
            }
        }
    }
    (subsets, false)
}

fn subset_bound(instance: &Instance, subset: &[bool], messages: &[usize]) -> SubsetBound {
    let cost = zero_one_bfs(instance, subset);
    let letters_needed: u64 = messages.iter().map(|&e| cost[e] as u64).sum();
    let size = subset.iter().filter(|&&x| x).count();
    let per_column = instance.ports().min(size).max(1);
    SubsetBound {
        links: (0..subset.len())
            .filter(|&i| subset[i])
            .map(|i| instance.link_names()[i].clone())
            .collect(),
        letters_needed,
        per_column,
        columns: letters_needed.div_ceil(per_column as u64),
    }
}

/// Fewest letters from `subset` in a word from the identity to every element.
fn zero_one_bfs(instance: &Instance, subset: &[bool]) -> Vec<u32> {
    let order = instance.group().order();
    let mut cost = vec![u32::MAX; order];
    cost[0] = 0;
    let mut deque = VecDeque::from([Elem::IDENTITY]);
    while let Some(e) = deque.pop_front() {
        let here = cost[e.index()];
        for (l, &in_subset) in subset.iter().enumerate() {
            let next = instance.step(e, LinkId(l as u32));
            let through = here + in_subset as u32;
            if through < cost[next.index()] {
                cost[next.index()] = through;
                if in_subset {
                    deque.push_back(next);
                } else {
                    deque.push_front(next);
                }
            }
        }
    }
    cost
}
