//! Twisted tori: the shapes, the graph from coordinates, and the isomorphism
//! from a Cayley graph onto one.
//!
//! A twisted torus has the nodes of a torus, coordinates `c_i ∈ [0, N_i)`,
//! and the same links `±1` in each dimension; only the wrap-around of some
//! dimensions differs: moving `+1` past the end of a *twisted* dimension `i`
//! sets `c_i = 0` and adds a shift to other dimensions (modulo their sides),
//! moving `−1` past 0 sets `c_i = N_i − 1` and subtracts it. The shapes (the
//! ones of TPU v4/v5p slices and of the rectangular twisted torus of Cámara et
//! al.), for any k ≥ 2:
//!
//! | shape | twisted dimension | shift on wrapping |
//! | --- | --- | --- |
//! | `twisted 2k k` | 2 | dimension 1 by k |
//! | `twisted k k 2k` | 1 and 2 | dimension 3 by k |
//! | `twisted k 2k 2k` | 1 | dimensions 2 and 3 by k each |
//!
//! Each is the Cayley graph of the abelian group Z^d / L on the unit vectors,
//! where L is spanned by `N_i e_i + shift_i`: the shifted dimensions are never
//! themselves twisted, so L is triangular and the coordinate box is a
//! fundamental domain. In generators: `a^(2k) = 1, b^k = a^k` (2D);
//! `c^(2k) = 1, a^k = c^k, b^k = c^k`; `b^(2k) = c^(2k) = 1, a^k = b^k c^k`
//! (a shift of k in a dimension of side 2k is its own inverse, so the sign of
//! the shift does not matter).
//!
//! Numbering and ports are as on a torus: node `x = c1 + N1·(c2 + N2·(…))`,
//! for each dimension port `+1` then `−1`. Port `p` is the same translation at
//! every node, which is what [`find_translation_map`] uses: an isomorphism
//! from a Cayley graph is sought as a map of links to ports, extended along a
//! breadth-first tree, and [`super::Embedding::new`] verifies whatever it
//! returns edge by edge.

use crate::group::{FiniteGroup, GenLetter};

use super::NONE;
use super::{Graph, NetworkError, NetworkMismatch, Topology};

/// The valid shapes, as error messages list them.
pub const SHAPES: &str = "`twisted 2k k`, `twisted k k 2k` or `twisted k 2k 2k` with k ≥ 2 (e.g. `twisted 8 4`, `twisted 4 4 8`, `twisted 4 8 8`)";

/// The shift each dimension's forward wrap adds to every dimension, or why
/// `sides` is not a twisted-torus shape.
pub fn shifts(sides: &[u32]) -> Result<Vec<Vec<u32>>, NetworkError> {
    let bad = || NetworkError::TwistedShape(sides_text(sides));
    match *sides {
        [n1, k] if k >= 2 && Some(n1) == k.checked_mul(2) => Ok(vec![vec![0, 0], vec![k, 0]]),
        [k, k2, n3] if k >= 2 && k2 == k && Some(n3) == k.checked_mul(2) => {
            Ok(vec![vec![0, 0, k], vec![0, 0, k], vec![0, 0, 0]])
        }
        [k, n2, n3] if k >= 2 && n2 == n3 && Some(n2) == k.checked_mul(2) => {
            Ok(vec![vec![0, k, k], vec![0, 0, 0], vec![0, 0, 0]])
        }
        _ => Err(bad()),
    }
}

fn sides_text(sides: &[u32]) -> String {
    let words: Vec<String> = sides.iter().map(u32::to_string).collect();
    format!("twisted {}", words.join(" "))
}

/// The neighbour of the node with coordinates `c` one step in dimension `dim`
/// (`forward`: +1, else −1), as coordinates.
fn step(
    sides: &[usize],
    shifts: &[Vec<u32>],
    c: &[usize],
    dim: usize,
    forward: bool,
) -> Vec<usize> {
    let mut next = c.to_vec();
    let side = sides[dim];
    let wraps = if forward {
        c[dim] + 1 == side
    } else {
        c[dim] == 0
    };
    next[dim] = if forward {
        (c[dim] + 1) % side
    } else {
        (c[dim] + side - 1) % side
    };
    if wraps {
        for (j, &s) in shifts[dim].iter().enumerate() {
            let s = s as usize % sides[j];
            next[j] = if forward {
                (next[j] + s) % sides[j]
            } else {
                (next[j] + sides[j] - s) % sides[j]
            };
        }
    }
    next
}

/// The twisted torus with these sides (checked by [`shifts`]).
pub fn build(sides: &[u32]) -> Result<Graph, NetworkError> {
    let shifts = shifts(sides)?;
    let sides: Vec<usize> = sides.iter().map(|&s| s as usize).collect();
    let n: usize = sides.iter().product();
    let index = |c: &[usize]| {
        c.iter()
            .zip(&sides)
            .rev()
            .fold(0usize, |acc, (&ci, &s)| acc * s + ci)
    };
    let lists = (0..n)
        .map(|x| {
            let mut rest = x;
            let c: Vec<usize> = sides
                .iter()
                .map(|&s| {
                    let ci = rest % s;
                    rest /= s;
                    ci
                })
                .collect();
            (0..sides.len())
                .flat_map(|dim| [true, false].map(|f| step(&sides, &shifts, &c, dim, f)))
                .map(|next| index(&next) as u32)
                .collect()
        })
        .collect();
    // A twisted torus is the Cayley graph of Z^k modulo its twisted lattice:
    // translations keep every link.
    Ok(Graph::from_ports("twisted", Topology::General, lists)?
        .vertex_transitive()
        .with_radix(sides))
}

/// A map from the elements of `group` to the nodes of `net` (a graph whose
/// port `p` is the same translation at every node) that sends each link to
/// one port: every assignment of links to ports is tried, the map extended
/// along a breadth-first tree from the identity (node 0) and kept when it is
/// a bijection that sends every link to its port at every node. The caller
/// verifies the result edge by edge.
pub(super) fn find_translation_map(
    group: &FiniteGroup,
    links: &[GenLetter],
    net: &Graph,
) -> Result<Vec<u32>, NetworkMismatch> {
    let label = net.label().to_string();
    let (n, k) = (group.order(), links.len());
    if n != net.nodes() {
        return Err(NetworkMismatch::NodeCount {
            group: n,
            network: label,
            nodes: net.nodes(),
        });
    }
    if net.degree(0) != k {
        return Err(NetworkMismatch::Degree {
            links: k,
            network: label,
            degree: net.degree(0),
        });
    }
    let cay: Vec<u32> = group
        .elements()
        .flat_map(|g| links.iter().map(move |&s| group.apply(g, s).0))
        .collect();
    let mut perm: Vec<usize> = (0..k).collect();
    loop {
        if let Some(map) = extend(&cay, k, net, &perm) {
            return Ok(map);
        }
        if !next_permutation(&mut perm) {
            return Err(NetworkMismatch::NoIsomorphism { network: label });
        }
    }
}

/// The map with link `i` sent to port `perm[i]`, or `None` when it fails.
fn extend(cay: &[u32], k: usize, net: &Graph, perm: &[usize]) -> Option<Vec<u32>> {
    let n = cay.len() / k;
    let mut node_of = vec![NONE; n];
    let mut taken = vec![false; n];
    node_of[0] = 0;
    taken[0] = true;
    let mut queue = std::collections::VecDeque::from([0u32]);
    while let Some(g) = queue.pop_front() {
        let x = node_of[g as usize];
        for i in 0..k {
            let h = cay[g as usize * k + i] as usize;
            let y = net.ports(x)[perm[i]];
            if node_of[h] == NONE {
                if taken[y as usize] {
                    return None;
                }
                node_of[h] = y;
                taken[y as usize] = true;
                queue.push_back(h as u32);
            } else if node_of[h] != y {
                return None;
            }
        }
    }
    node_of.iter().all(|&x| x != NONE).then_some(node_of)
}

/// The next permutation in lexicographic order; `false` after the last (also
/// the catalogue's matching of tables to networks).
pub fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap_or(i);
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// The twisted shapes with `n` nodes and `degree` links per node, for
/// recognising a Cayley graph: `2k k` (degree 4), `k k 2k` and `k 2k 2k`
/// (degree 6).
pub(super) fn candidates(n: usize, degree: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let root = |n: usize, p: u32| {
        (2..=n)
            .take_while(|k| k.pow(p) <= n)
            .find(|k| k.pow(p) == n)
    };
    match degree {
        4 if n.is_multiple_of(2) => {
            if let Some(k) = root(n / 2, 2) {
                out.push(vec![2 * k as u32, k as u32]);
            }
        }
        6 => {
            if n.is_multiple_of(2)
                && let Some(k) = root(n / 2, 3)
            {
                out.push(vec![k as u32, k as u32, 2 * k as u32]);
            }
            if n.is_multiple_of(4)
                && let Some(k) = root(n / 4, 3)
            {
                out.push(vec![k as u32, 2 * k as u32, 2 * k as u32]);
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_checked() {
        assert!(shifts(&[8, 4]).is_ok());
        assert!(shifts(&[4, 4, 8]).is_ok());
        assert!(shifts(&[4, 8, 8]).is_ok());
        assert!(shifts(&[2, 4, 4]).is_ok());
        for bad in [
            &[4, 8][..],
            &[4, 4, 4],
            &[8, 8, 4],
            &[2, 1],
            &[1, 1, 2],
            &[4],
            &[],
        ] {
            assert!(shifts(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn wrap_around_shifts() {
        let g = build(&[8, 4]).unwrap();
        // (0, 3) + b wraps to (4, 0): node 4; (0, 0) − b is (4, 3): node 28.
        assert_eq!(g.ports(24), &[25, 31, 4, 16]);
        assert_eq!(g.ports(0)[3], 4 + 8 * 3);
        let g = build(&[4, 4, 8]).unwrap();
        // (3, 0, 0) + a wraps to (0, 0, 4) = 64.
        assert_eq!(g.ports(3)[0], 64);
        assert_eq!(g.regular_degree(), Some(6));
    }

    #[test]
    fn permutations_are_all_visited() {
        let mut p = vec![0, 1, 2, 3];
        let mut count = 1;
        while next_permutation(&mut p) {
            count += 1;
        }
        assert_eq!(count, 24);
    }

    #[test]
    fn candidate_shapes() {
        assert_eq!(candidates(32, 4), vec![vec![8, 4]]);
        assert_eq!(candidates(128, 6), vec![vec![4, 4, 8]]);
        assert_eq!(candidates(256, 6), vec![vec![4, 8, 8]]);
        assert!(candidates(100, 6).is_empty());
    }
}
