//! Single-node scatter (seed paper, section 3): a perfectly balanced shortest
//! path spanning tree built from the rotation classes, and furthest-first
//! sending down each subtree.
//!
//! The tree (root 00…0): the root's neighbours e_1 … e_d, numbered 1 … d. Then
//! class after class (levels 2 … d−1, in the order of the module `necklace`): for
//! class R_kn a *compatible* class R_(k−1)n' (d elements, and some element of
//! it is an element of R_kn with one unity bit cleared), its element t' with
//! m(t') = m_kn, and as first element of R_kn an element t one bit above t';
//! the j-th rotation of t hangs below the j-th rotation of t'. Last, 11…1
//! hangs below the element x of R_(d−1)1 with m(x) = m(11…1). Every node x is
//! then in the subtree of the root's neighbour e_m(x), so each subtree has at
//! most ⌈(2^d − 1)/d⌉ nodes, and every tree path is a shortest path.
//!
//! Sending: the root sends down each subtree one packet per step, to the
//! subtree's nodes furthest first; each packet is forwarded along the tree
//! without waiting, so a subtree of N_i nodes is served by step N_i.

use super::HypercubeError;
use super::necklace::{Classes, Numbering, rotl};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{Collective, Ports, Schedule, TimedSend};

/// The balanced spanning tree rooted at 00…0: `parent[x]` for x ≠ 0
/// (`parent[0] = 0`).
pub fn balanced_tree(d: u32) -> Result<Vec<u32>, HypercubeError> {
    let nodes = 1usize << d;
    let classes = Classes::new(d);
    let mut numbering = Numbering::start(d);
    let mut parent = vec![u32::MAX; nodes];
    parent[0] = 0;
    for j in 0..d {
        parent[1 << j] = 0;
    }
    for class in &classes.list {
        let first_n = numbering.next();
        if class.weight == 1 {
            // R_11: e_1, e_2, …, e_d, so that e_j is numbered j and m(e_j) = j.
            numbering.push_class(1, class.size);
            continue;
        }
        let m = numbering.m_of_number(first_n);
        let t_prime = compatible_element(d, &classes, &numbering, class.rep, m)?;
        // A first element t of this class with t' = t minus one unity bit.
        let Some(t) = (0..d)
            .filter(|&b| t_prime >> b & 1 == 0)
            .map(|b| t_prime | 1 << b)
            .find(|&t| classes.class_of[t as usize] == classes.class_of[class.rep as usize])
        else {
            return Err(construction(format!(
                "no element of the class of {:#b} lies one bit above {t_prime:#b}",
                class.rep
            )));
        };
        numbering.push_class(t, class.size);
        let (mut x, mut x_prime) = (t, t_prime);
        for _ in 0..class.size {
            parent[x as usize] = x_prime;
            x = rotl(x, d);
            x_prime = rotl(x_prime, d);
        }
    }
    let all = (1u32 << d) - 1;
    if d == 1 {
        return Ok(parent); // 11…1 = e_1
    }
    numbering.push(all);
    let m = numbering.m(all);
    // The element x of R_(d−1)1 (d elements, numbered consecutively) with m(x) = m.
    let top = classes
        .list
        .iter()
        .position(|c| c.weight == d - 1)
        .ok_or_else(|| construction("no class R_(d-1)1".to_string()))?;
    let first = first_number_of_class(&classes, &numbering, top);
    let offset = (m + d - numbering.m_of_number(first)) % d;
    let x = numbering.order[(first + offset) as usize];
    parent[all as usize] = x;
    Ok(parent)
}

/// The number of the first element of class `index`.
fn first_number_of_class(classes: &Classes, numbering: &Numbering, index: usize) -> u32 {
    let c = classes.list[index];
    let mut x = c.rep;
    let mut lowest = u32::MAX;
    for _ in 0..c.size {
        lowest = lowest.min(numbering.number[x as usize]);
        x = rotl(x, numbering.d);
    }
    lowest
}

/// For the class of `rep` (level k ≥ 2): a compatible class of level k − 1
/// (d elements, already numbered) and its element t' with m(t') = `m`.
fn compatible_element(
    d: u32,
    classes: &Classes,
    numbering: &Numbering,
    rep: u32,
    m: u32,
) -> Result<u32, HypercubeError> {
    let mut x = rep;
    loop {
        for b in (0..d).filter(|&b| x >> b & 1 == 1) {
            let below = x & !(1 << b);
            let index = classes.class_of[below as usize];
            if classes.list[index].size == d {
                let first = first_number_of_class(classes, numbering, index);
                let offset = (m + d - numbering.m_of_number(first)) % d;
                return Ok(numbering.order[(first + offset) as usize]);
            }
        }
        x = rotl(x, d);
        if x == rep {
            return Err(construction(format!(
                "the class of {rep:#b} has no compatible class"
            )));
        }
    }
}

fn construction(message: String) -> HypercubeError {
    HypercubeError::Construction {
        problem: "scatter",
        message,
    }
}

/// The sizes of the root's subtrees, indexed by the dimension of the root's
/// link to the subtree (0-based). `parent` must be a shortest path tree.
pub fn subtree_sizes(d: u32, parent: &[u32]) -> Vec<u64> {
    let mut sizes = vec![0u64; d as usize];
    for &b in &branches(parent)[1..] {
        sizes[b.trailing_zeros() as usize] += 1;
    }
    sizes
}

/// Furthest-first sending down `parent`'s tree from 00…0, translated to `root`
/// by XOR; sends in step order.
pub fn from_tree(d: u32, parent: &[u32], root: u32) -> Schedule {
    let nodes = parent.len() as u32;
    let branch = branches(parent);
    let mut sends = Vec::new();
    for j in 0..d {
        let child = 1u32 << j;
        let mut members: Vec<u32> = (1..nodes)
            .filter(|&x| branch[x as usize] == child)
            .collect();
        // Furthest first (depth = number of unity bits in a shortest path tree).
        members.sort_by_key(|&x| (std::cmp::Reverse(x.count_ones()), x));
        for (k, &v) in members.iter().enumerate() {
            let mut path = vec![v];
            let mut y = v;
            while y != 0 {
                y = parent[y as usize];
                path.push(y);
            }
            path.reverse();
            for (hop, pair) in path.windows(2).enumerate() {
                sends.push(TimedSend {
                    step: (k + hop + 1) as u32,
                    from: pair[0] ^ root,
                    to: pair[1] ^ root,
                    source: root,
                    destination: v ^ root,
                });
            }
        }
    }
    sends.sort_by_key(|s| s.step);
    Schedule {
        network: Some(NetworkName::Hypercube(d)),
        ports: Some(Ports::All),
        collective: Collective::Scatter(root),
        sends,
    }
}

/// `branch[x]`: the root's neighbour whose subtree holds x (0 for the root).
fn branches(parent: &[u32]) -> Vec<u32> {
    let mut branch = vec![0u32; parent.len()];
    // Parents have fewer unity bits: visit nodes by weight.
    let mut by_weight: Vec<u32> = (1..parent.len() as u32).collect();
    by_weight.sort_by_key(|x| x.count_ones());
    for x in by_weight {
        let p = parent[x as usize];
        branch[x as usize] = if p == 0 { x } else { branch[p as usize] };
    }
    branch
}

/// Section 3's scatter from `root`, with the subtree sizes of its tree.
pub fn build(d: u32, root: u32) -> Result<(Schedule, Vec<u64>), HypercubeError> {
    let parent = balanced_tree(d)?;
    check_tree(d, &parent)?;
    let sizes = subtree_sizes(d, &parent);
    let cap = ((1u64 << d) - 1).div_ceil(u64::from(d));
    if let Some(j) = sizes.iter().position(|&s| s > cap) {
        return Err(construction(format!(
            "the subtree below e_{} has {} nodes, more than {cap}",
            j + 1,
            sizes[j]
        )));
    }
    Ok((from_tree(d, &parent, root), sizes))
}

/// Every node has a parent one unity bit below it (so the tree is a shortest
/// path tree rooted at 00…0).
fn check_tree(d: u32, parent: &[u32]) -> Result<(), HypercubeError> {
    for x in 1..1u32 << d {
        let p = parent[x as usize];
        if p == u32::MAX || p & x != p || (x ^ p).count_ones() != 1 {
            return Err(construction(format!(
                "node {x:#b} has parent {p:#x}, not a node one unity bit below it"
            )));
        }
    }
    Ok(())
}
