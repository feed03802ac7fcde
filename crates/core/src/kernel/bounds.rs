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
    /// How many subsets (one per pair S', S'⁻¹) were not searched because a
    /// ceiling on their bound, from the letters of one shortest word per
    /// message, did not exceed the best bound already found.
    pub subsets_pruned: u64,
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
    // One search per class {S', S'⁻¹}, in the order the subsets are listed.
    let mut computed = std::collections::HashSet::new();
    let mut classes: Vec<&Vec<bool>> = Vec::new();
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
        classes.push(subset);
    }
    let (best, searched, pruned) = best_subset(instance, &classes, message_set, &messages);
    let best_columns = best.as_ref().map_or(0, |b| b.columns);
    LowerBound {
        value: max_distance.max(best_columns),
        max_distance,
        distance_sum,
        counting,
        best_subset: best,
        subsets_tried: subsets.len() as u64,
        subsets_searched: searched,
        subsets_pruned: pruned,
        exhaustive,
    }
}

/// At most this many breadth-first trees (links tried in different orders) give
/// ceilings; a subset's ceiling is the least of them.
const TREES: usize = 8;

/// Subsets searched at once (in parallel). Fixed, not the number of cores, so
/// that which subsets are searched, and so the report, is the same on every
/// machine.
const BATCH: usize = 2;

/// The subset with the largest load bound, computing as few exactly as the
/// argument below allows, on every core.
///
/// The whole link set S needs no search: c_S(e) is e's distance. Fix one
/// shortest word per message (the paths of one breadth-first tree) and let n_l
/// count the letters l in them. Those words spell every message, so c_S'(e) is
/// at most the S'-letters of e's word and S' needs at most Σ_{l ∈ S'} n_l
/// letters: its bound is at most ⌈Σ_{l ∈ S'} n_l / min(ports, |S'|)⌉, and at
/// most the least such ceiling over several trees. Subsets are searched in
/// decreasing order of their ceiling, in batches of [`BATCH`] (batch by batch,
/// so the answer does not depend on timing or on the machine); a subset whose
/// ceiling does not exceed the best bound found is never searched (its bound
/// cannot be larger). While more than a batch of subsets remain above the best
/// bound, more trees (links tried in another order) tighten the ceilings.
/// Returns the best subset, how many subsets were searched and how many were
/// skipped so.
fn best_subset(
    instance: &Instance,
    classes: &[&Vec<bool>],
    message_set: &[bool],
    messages: &[usize],
) -> (Option<SubsetBound>, u64, u64) {
    use rayon::prelude::*;
    let links = instance.links().len();
    let batch = BATCH;
    let orders = tree_orders(links);
    let mut trees: Vec<Vec<u64>> = Vec::new();
    let mut searched = vec![false; classes.len()];
    let mut best: Option<SubsetBound> = None;
    if let Some(whole) = classes.iter().position(|c| c.iter().all(|&x| x)) {
        searched[whole] = true;
        best = Some(subset_bound(instance, classes[whole], messages));
    }
    loop {
        let threshold = best.as_ref().map(|b| b.columns);
        if trees.len() < orders.len() && (trees.is_empty() || threshold.is_some()) {
            let pending = (0..classes.len()).filter(|&i| !searched[i]);
            let above = pending
                .filter(|&i| {
                    let c = ceiling(instance, &trees, classes[i]);
                    threshold.is_none_or(|t| c > t)
                })
                .count();
            if above > batch || (trees.is_empty() && above > 0) {
                let more = trees.len()..(trees.len() + batch).min(orders.len());
                trees.extend(
                    orders[more]
                        .par_iter()
                        .map(|order| tree_letter_counts(instance, message_set, order))
                        .collect::<Vec<_>>(),
                );
                continue;
            }
        }
        let mut candidates: Vec<(u64, usize)> = (0..classes.len())
            .filter(|&i| !searched[i])
            .map(|i| (ceiling(instance, &trees, classes[i]), i))
            .filter(|&(c, _)| threshold.is_none_or(|t| c > t))
            .collect();
        if candidates.is_empty() {
            break;
        }
        candidates.sort_by_key(|&(c, i)| (std::cmp::Reverse(c), i));
        candidates.truncate(batch);
        let bounds: Vec<SubsetBound> = candidates
            .par_iter()
            .map(|&(_, i)| subset_bound(instance, classes[i], messages))
            .collect();
        for (&(_, i), bound) in candidates.iter().zip(bounds) {
            searched[i] = true;
            if best.as_ref().is_none_or(|b| bound.columns > b.columns) {
                best = Some(bound);
            }
        }
    }
    let count = searched.iter().filter(|&&s| s).count() as u64;
    (best, count, classes.len() as u64 - count)
}

/// The orders the trees try the links in: rotations of the links as listed and
/// of the links reversed, alternately. Ties between shortest words go to the
/// earlier link, so a subset whose links come late in some order gets few
/// letters in that order's tree (reversing helps the inverses `a'` of a list
/// `a a' b b'`).
fn tree_orders(links: usize) -> Vec<Vec<usize>> {
    let count = TREES.min(2 * links).max(1);
    let rotations = count.div_ceil(2);
    (0..count)
        .map(|k| {
            let rotation = (k / 2) * links / rotations;
            let forward = (0..links).map(|i| (i + rotation) % links);
            if k % 2 == 0 {
                forward.collect()
            } else {
                forward.rev().collect()
            }
        })
        .collect()
}

/// The least ceiling the trees give a subset's bound (no trees: no ceiling).
fn ceiling(instance: &Instance, trees: &[Vec<u64>], subset: &[bool]) -> u64 {
    let letters = trees
        .iter()
        .map(|tree| {
            (0..subset.len())
                .filter(|&i| subset[i])
                .map(|i| tree[i])
                .sum::<u64>()
        })
        .min()
        .unwrap_or(u64::MAX);
    let size = subset.iter().filter(|&&x| x).count();
    letters.div_ceil(instance.ports().min(size).max(1) as u64)
}

/// n_l: how many letters l the paths of one breadth-first tree (links tried in
/// `order`) spell in all, over the message set. Σ_l n_l is the distance sum.
fn tree_letter_counts(instance: &Instance, message_set: &[bool], order: &[usize]) -> Vec<u64> {
    let group_order = instance.group().order();
    let links = instance.links().len();
    let mut parent = vec![u32::MAX; group_order];
    let mut via = vec![0u32; group_order];
    let mut visit = Vec::with_capacity(group_order);
    parent[0] = 0;
    visit.push(Elem::IDENTITY);
    let mut head = 0;
    while head < visit.len() {
        let e = visit[head];
        head += 1;
        for &l in order {
            let next = instance.step(e, LinkId(l as u32));
            if parent[next.index()] == u32::MAX {
                parent[next.index()] = e.index() as u32;
                via[next.index()] = l as u32;
                visit.push(next);
            }
        }
    }
    let mut weight: Vec<u64> = message_set.iter().map(|&m| u64::from(m)).collect();
    let mut counts = vec![0u64; links];
    for &e in visit.iter().skip(1).rev() {
        let i = e.index();
        counts[via[i] as usize] += weight[i];
        weight[parent[i] as usize] += weight[i];
    }
    counts
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
    if subset.iter().all(|&x| x) {
        // Every letter counts: the fewest letters is the distance.
        return instance.distances().to_vec();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(header: &str) -> Instance {
        crate::load::load(&format!("{header}\ntable:\n"), &Default::default())
            .expect("a valid header")
            .instance
    }

    /// The largest load bound over every subset, each searched.
    fn every_subset_searched(instance: &Instance) -> u64 {
        let message_set = instance.message_set();
        let messages: Vec<usize> = (0..message_set.len()).filter(|&e| message_set[e]).collect();
        let n = instance.links().len();
        (1u32..1 << n)
            .map(|mask| {
                let subset: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
                subset_bound(instance, &subset, &messages).columns
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn skipping_subsets_by_their_ceiling_never_changes_the_bound() {
        for header in [
            "group: <a | a^3> x <b | b^7>",
            "group: <a | a^2> x <b | b^5> x <c | c^4>\nports: 2",
            "group: <a, b | a^2, b^2, (ab)^3> x <c | c^6>",
            "group: <a, b, c | a^2, b^2, c^2, (ab)^3, (bc)^3, (ac)^2>\nlinks: a b c",
            "group: <a | a^9> x <b | b^3>\nmessages: odd",
            "group: <a | a^6> x <b | b^6> x <c | c^6>",
            "group: <a | a^7> x <b | b^5>\nmessages: to a a^2 b a^3b'",
        ] {
            let instance = instance(header);
            let bound = lower_bound(&instance, &instance.message_set());
            let best = bound.best_subset.as_ref().map_or(0, |b| b.columns);
            assert_eq!(best, every_subset_searched(&instance), "{header}");
            assert!(bound.subsets_searched >= 1, "{header}");
        }
    }

    #[test]
    fn a_torus_needs_no_search_beyond_its_distances() {
        // Every subset's ceiling, from trees taking a, b, c first and from trees
        // taking a', b', c' first, is at most the counting bound.
        let instance = instance("group: <a | a^10> x <b | b^10> x <c | c^10>");
        let bound = lower_bound(&instance, &instance.message_set());
        assert_eq!(bound.value, bound.counting);
        assert_eq!(bound.subsets_searched, 1);
        assert_eq!(bound.best_subset.map(|b| b.links.len()), Some(6));
    }

    #[test]
    fn tree_letters_add_up_to_the_distance_sum() {
        let instance = instance("group: <a, b | a^4, b^2, (ab)^2>");
        let message_set = instance.message_set();
        let sum: u64 = (0..message_set.len())
            .filter(|&e| message_set[e])
            .map(|e| u64::from(instance.distances()[e]))
            .sum();
        for order in tree_orders(instance.links().len()) {
            let counts = tree_letter_counts(&instance, &message_set, &order);
            assert_eq!(counts.iter().sum::<u64>(), sum);
        }
    }
}
