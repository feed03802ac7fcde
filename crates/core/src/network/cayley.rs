//! The Cayley families (`star`, `pancake`, `ccc`, `butterfly`) built from
//! presentations made in code.
//!
//! Each family's group is given by the same presentation `txverify net`
//! writes in its `.tbl` header (see `crate::families`): the same generators in
//! the same order, the same relators as the format lowers them, the same links.
//! The group is computed by [`crate::group::compute`] (coset enumeration with
//! its cross-checks), so node `e` of the graph is element `e` of exactly the
//! group a user gets by loading that header, the identity being node 0; a
//! schedule written on one replays on the other. No text is printed or parsed
//! on the way.

use crate::group::{self, EnumerationLimits, FiniteGroup, GenLetter, Presentation};

use super::{Graph, MAX_NODES, NetworkError};

/// A family of Cayley graphs of permutation groups and wreath products.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CayleyFamily {
    /// The star graph: S_n on the transpositions (1 i).
    Star,
    /// The pancake graph: S_n on the prefix reversals.
    Pancake,
    /// Cube-connected cycles: C2 ≀ C_d on the shift and the flip of bit 0.
    Ccc,
    /// The wrapped butterfly: C2 ≀ C_d on the shift and the shift-then-flip.
    Butterfly,
}

/// A family's group with its links, named as the format writes them.
#[derive(Clone, Debug)]
pub struct CayleyGroup {
    /// The computed group.
    pub group: FiniteGroup,
    /// The links, with their names (`{t2}`, `s'`).
    pub links: Vec<(GenLetter, String)>,
}

impl CayleyFamily {
    /// Every family, in the order error messages list them.
    pub const ALL: [CayleyFamily; 4] = [
        CayleyFamily::Star,
        CayleyFamily::Pancake,
        CayleyFamily::Ccc,
        CayleyFamily::Butterfly,
    ];

    /// The family's name as a network name writes it.
    pub fn name(self) -> &'static str {
        match self {
            CayleyFamily::Star => "star",
            CayleyFamily::Pancake => "pancake",
            CayleyFamily::Ccc => "ccc",
            CayleyFamily::Butterfly => "butterfly",
        }
    }

    /// The family called `name`, if any.
    pub fn from_name(name: &str) -> Option<CayleyFamily> {
        CayleyFamily::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The smallest size: 2 for star and pancake, 3 for ccc and butterfly.
    pub fn minimum(self) -> u32 {
        match self {
            CayleyFamily::Star | CayleyFamily::Pancake => 2,
            CayleyFamily::Ccc | CayleyFamily::Butterfly => 3,
        }
    }

    /// How errors about the family's sizes name it.
    pub(super) fn arity_name(self) -> &'static str {
        match self {
            CayleyFamily::Star | CayleyFamily::Pancake => "star or pancake",
            CayleyFamily::Ccc | CayleyFamily::Butterfly => "ccc or butterfly",
        }
    }

    /// Number of nodes by its closed form (n! or d·2^d), or
    /// [`NetworkError::TooLarge`] above the largest group txverify computes.
    pub fn nodes(self, size: u32) -> Result<usize, NetworkError> {
        let size = u64::from(size);
        let order = match self {
            CayleyFamily::Star | CayleyFamily::Pancake => {
                (1..=size).try_fold(1u64, |p, k| p.checked_mul(k))
            }
            CayleyFamily::Ccc | CayleyFamily::Butterfly => 1u64
                .checked_shl(size as u32)
                .filter(|_| size < 64)
                .and_then(|p| p.checked_mul(size)),
        };
        order
            .filter(|&n| n <= crate::families::MAX_ORDER)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= MAX_NODES)
            .ok_or(NetworkError::TooLarge)
    }

    /// The family's presentation and its links (generator letters).
    fn presentation(self, size: u32) -> (Presentation, Vec<GenLetter>) {
        match self {
            CayleyFamily::Star => star(size),
            CayleyFamily::Pancake => pancake(size),
            CayleyFamily::Ccc => wreath(size, &[S, S.inverted(), X]),
            CayleyFamily::Butterfly => wreath(size, &[S, S.inverted(), T, T.inverted()]),
        }
    }

    /// The family's group of this size, computed, with its links.
    pub fn group(self, size: u32) -> Result<CayleyGroup, NetworkError> {
        self.nodes(size)?;
        let (presentation, links) = self.presentation(size);
        let computed =
            group::compute(&presentation, &EnumerationLimits::default()).map_err(|e| {
                NetworkError::CayleyGroup {
                    name: format!("{} {size}", self.name()),
                    reason: e.to_string(),
                }
            })?;
        let links = links
            .into_iter()
            .map(|l| {
                let name = &presentation.generators[l.generator as usize];
                (l, crate::load::letter_text(name, l.inverse))
            })
            .collect();
        Ok(CayleyGroup {
            group: computed.group,
            links,
        })
    }

    /// The family's Cayley graph of this size.
    pub fn graph(self, size: u32) -> Result<Graph, NetworkError> {
        let g = self.group(size)?;
        let links: Vec<GenLetter> = g.links.iter().map(|&(l, _)| l).collect();
        Graph::cayley(&g.group, &links)
    }
}

fn letter(generator: u32) -> GenLetter {
    GenLetter {
        generator,
        inverse: false,
    }
}

/// The inverse of a word: reversed, every letter inverted.
fn inverse(word: &[GenLetter]) -> Vec<GenLetter> {
    word.iter().rev().map(|l| l.inverted()).collect()
}

/// `word` repeated `times` times.
fn power(word: &[GenLetter], times: usize) -> Vec<GenLetter> {
    word.repeat(times)
}

/// S_n on the star transpositions t_i = (1 i), generators `t2 … tn`:
/// t_i² = (t_i t_j)³ = (t_i t_j t_i t_k)² = 1; the links are the t_i.
fn star(n: u32) -> (Presentation, Vec<GenLetter>) {
    let t = |i: u32| letter(i - 2);
    let mut relators = Vec::new();
    for i in 2..=n {
        relators.push(power(&[t(i)], 2));
        for j in i + 1..=n {
            relators.push(power(&[t(i), t(j)], 3));
        }
        for j in 2..=n {
            for k in j + 1..=n {
                if j != i && k != i {
                    relators.push(power(&[t(i), t(j), t(i), t(k)], 2));
                }
            }
        }
    }
    let generators = (2..=n).map(|i| format!("t{i}")).collect();
    let links = (2..=n).map(t).collect();
    (
        Presentation {
            generators,
            relators,
        },
        links,
    )
}

/// S_n on Coxeter generators `s1 … s(n−1)`, with the prefix reversals
/// `r2 … rn` (r_i = the longest element of S_i) as further generators and the links.
fn pancake(n: u32) -> (Presentation, Vec<GenLetter>) {
    let s = |i: u32| letter(i - 1);
    let r = |i: u32| letter(n - 1 + i - 2);
    let mut relators = Vec::new();
    for i in 1..n {
        relators.push(power(&[s(i)], 2));
        for j in i + 1..n {
            let m = if j == i + 1 { 3 } else { 2 };
            relators.push(power(&[s(i), s(j)], m));
        }
    }
    for i in 2..=n {
        // r_i = s1 (s2 s1) (s3 s2 s1) … (s(i−1) … s1), as the relator r_i·word⁻¹.
        let word: Vec<GenLetter> = (1..i).flat_map(|top| (1..=top).rev().map(s)).collect();
        let mut relator = vec![r(i)];
        relator.extend(inverse(&word));
        relators.push(relator);
    }
    let mut generators: Vec<String> = (1..n).map(|i| format!("s{i}")).collect();
    generators.extend((2..=n).map(|i| format!("r{i}")));
    let links = (2..=n).map(r).collect();
    (
        Presentation {
            generators,
            relators,
        },
        links,
    )
}

const S: GenLetter = GenLetter {
    generator: 0,
    inverse: false,
};
const X: GenLetter = GenLetter {
    generator: 1,
    inverse: false,
};
const T: GenLetter = GenLetter {
    generator: 2,
    inverse: false,
};

/// C2 ≀ C_d on generators `s` (the cyclic shift), `x` (the flip of bit 0) and
/// `t = sx`: s^d, x², t·(sx)⁻¹ and the commutators [x, s^−i x s^i] for
/// 1 ≤ i ≤ d/2 (u⁻¹v⁻¹uv, as the format writes out `[u, v]`).
fn wreath(d: u32, links: &[GenLetter]) -> (Presentation, Vec<GenLetter>) {
    let mut relators = vec![power(&[S], d as usize), power(&[X], 2)];
    relators.push(vec![T, X.inverted(), S.inverted()]);
    for i in 1..=(d / 2) as usize {
        let u = vec![X];
        let mut v = power(&[S.inverted()], i);
        v.push(X);
        v.extend(power(&[S], i));
        let mut c = inverse(&u);
        c.extend(inverse(&v));
        c.extend(u);
        c.extend(v);
        relators.push(c);
    }
    let generators = vec!["s".to_string(), "x".to_string(), "t".to_string()];
    (
        Presentation {
            generators,
            relators,
        },
        links.to_vec(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph the old way: the `txverify net` header, loaded as text.
    fn from_header(family: &str, size: u64) -> Graph {
        let header = crate::families::Family::new(family, &[size])
            .unwrap()
            .header();
        let loaded = crate::load::load(&header, &Default::default()).unwrap();
        Graph::cayley(loaded.instance.group(), loaded.instance.links()).unwrap()
    }

    #[test]
    fn families_equal_the_graphs_of_their_headers() {
        for (family, size) in [("star", 4), ("pancake", 4), ("ccc", 3), ("butterfly", 3)] {
            let direct = CayleyFamily::from_name(family)
                .unwrap()
                .graph(size)
                .unwrap();
            let header = from_header(family, u64::from(size));
            assert_eq!(direct, header, "{family} {size}");
            assert_eq!(direct.ports(0), header.ports(0), "{family} {size}");
        }
        for (family, size) in [("star", 2), ("pancake", 2), ("pancake", 5), ("ccc", 4)] {
            let direct = CayleyFamily::from_name(family)
                .unwrap()
                .graph(size)
                .unwrap();
            assert_eq!(
                direct,
                from_header(family, u64::from(size)),
                "{family} {size}"
            );
        }
    }

    #[test]
    fn link_names_are_written_as_the_header_writes_them() {
        let header = crate::families::Family::new("butterfly", &[3])
            .unwrap()
            .header();
        let loaded = crate::load::load(&header, &Default::default()).unwrap();
        let direct = CayleyFamily::Butterfly.group(3).unwrap();
        let names: Vec<String> = direct.links.iter().map(|x| x.1.clone()).collect();
        assert_eq!(names, loaded.instance.link_names());
    }

    #[test]
    fn known_neighbours_of_the_identity() {
        // star 3 = the 6-cycle; ccc 3 has degree 3; butterfly 3 has degree 4.
        let star = CayleyFamily::Star.graph(3).unwrap();
        assert_eq!((star.nodes(), star.regular_degree()), (6, Some(2)));
        assert_eq!(
            CayleyFamily::Ccc.graph(3).unwrap().regular_degree(),
            Some(3)
        );
        let butterfly = CayleyFamily::Butterfly.graph(3).unwrap();
        assert_eq!(
            (butterfly.nodes(), butterfly.regular_degree()),
            (24, Some(4))
        );
        assert_eq!(CayleyFamily::Pancake.nodes(4), Ok(24));
        assert_eq!(CayleyFamily::Star.nodes(10), Err(NetworkError::TooLarge));
    }
}
