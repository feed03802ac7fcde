//! The rotation classes R_kn of sections 2 and 3 of Bertsekas, Özveren,
//! Stamoulis, Tseng and Tsitsiklis ("Optimal communication algorithms for
//! hypercubes"), and the numbering n(t), m(t) both constructions share.
//!
//! A node identity is a d-bit string; bit i (0-based) is the paper's "position
//! i + 1 from the right". N_k is the set of identities with k unity bits; it
//! splits into classes under a single left rotation. The classes of
//! N_1 … N_(d−1) are listed level by level, R_k1 (the class of the identity
//! whose k rightmost bits are 1) first in each level, the others by their
//! smallest element. The identities are numbered 0 for 00…0, then class after
//! class, each class from a chosen first element on by left rotations, and
//! 2^d − 1 for 11…1; m(t) = 1 + ((n(t) − 1) mod d) is the paper's m(t), here
//! 0-based as the bit index `m(t) − 1`.

/// Left rotation by one within `d` bits.
pub(crate) fn rotl(x: u32, d: u32) -> u32 {
    let mask = low_mask(d);
    ((x << 1) | (x >> (d - 1))) & mask
}

/// The `d` low bits set.
pub(crate) fn low_mask(d: u32) -> u32 {
    if d >= 32 { u32::MAX } else { (1u32 << d) - 1 }
}

/// One rotation class: its level k (number of unity bits), its smallest element
/// and its size (the period of the rotation, a divisor of d).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Class {
    /// Number of unity bits.
    pub weight: u32,
    /// Smallest element.
    pub rep: u32,
    /// Number of elements.
    pub size: u32,
}

/// The classes of N_1 … N_(d−1) in the paper's order, and the class of every
/// identity (`usize::MAX` for 00…0 and 11…1, which are in no class).
pub(crate) struct Classes {
    /// The classes, level by level, R_k1 first in each level.
    pub list: Vec<Class>,
    /// `class_of[t]`: index into `list`.
    pub class_of: Vec<usize>,
}

impl Classes {
    /// Lists the classes of the d-cube (d ≥ 1).
    pub fn new(d: u32) -> Classes {
        let n = 1usize << d;
        let mut class_of = vec![usize::MAX; n];
        let mut by_level: Vec<Vec<Class>> = vec![Vec::new(); d as usize + 1];
        for t in 1..n as u32 {
            let weight = t.count_ones();
            if weight == d || class_of[t as usize] != usize::MAX {
                continue;
            }
            // t is the smallest element of its class: elements below it were seen.
            let mut size = 1;
            let mut x = rotl(t, d);
            while x != t {
                size += 1;
                x = rotl(x, d);
            }
            by_level[weight as usize].push(Class {
                weight,
                rep: t,
                size,
            });
            let mut x = t;
            for _ in 0..size {
                class_of[x as usize] = 0; // marked; the index is set below
                x = rotl(x, d);
            }
        }
        let mut list = Vec::new();
        for (k, level) in by_level.iter_mut().enumerate().skip(1) {
            // R_k1, the class of 2^k − 1, first; then by smallest element.
            let head = (1u32 << k) - 1;
            level.sort_by_key(|c| (c.rep != head, c.rep));
            list.append(level);
        }
        for (i, c) in list.iter().enumerate() {
            let mut x = c.rep;
            for _ in 0..c.size {
                class_of[x as usize] = i;
                x = rotl(x, d);
            }
        }
        Classes { list, class_of }
    }
}

/// A numbering n(t) of the identities: `order[n]` is the identity numbered n,
/// `number[t]` is n(t).
pub(crate) struct Numbering {
    /// Identities in order of their number.
    pub order: Vec<u32>,
    /// The number of each identity.
    pub number: Vec<u32>,
    /// The dimension.
    pub d: u32,
}

impl Numbering {
    /// An empty numbering with 00…0 numbered 0.
    pub fn start(d: u32) -> Numbering {
        let n = 1usize << d;
        let mut number = vec![u32::MAX; n];
        number[0] = 0;
        Numbering {
            order: vec![0],
            number,
            d,
        }
    }

    /// The number the next identity will get.
    pub fn next(&self) -> u32 {
        self.order.len() as u32
    }

    /// Numbers `first` and its left rotations, `size` of them, consecutively.
    pub fn push_class(&mut self, first: u32, size: u32) {
        let mut x = first;
        for _ in 0..size {
            self.push(x);
            x = rotl(x, self.d);
        }
    }

    /// Numbers one identity.
    pub fn push(&mut self, t: u32) {
        self.number[t as usize] = self.order.len() as u32;
        self.order.push(t);
    }

    /// m(t) − 1 for a number n ≥ 1: the 0-based bit the paper's m(t) names.
    pub fn m_of_number(&self, n: u32) -> u32 {
        (n - 1) % self.d
    }

    /// m(t) − 1 of an identity already numbered.
    pub fn m(&self, t: u32) -> u32 {
        self.m_of_number(self.number[t as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn classes_partition_the_levels() {
        for d in 1..=10u32 {
            let classes = Classes::new(d);
            for k in 1..d {
                let total: u64 = classes
                    .list
                    .iter()
                    .filter(|c| c.weight == k)
                    .map(|c| u64::from(c.size))
                    .sum();
                assert_eq!(total, binomial(u64::from(d), u64::from(k)), "d {d} k {k}");
                let first = classes.list.iter().find(|c| c.weight == k).unwrap();
                assert_eq!(first.rep, (1 << k) - 1, "R_k1 first");
                assert_eq!(first.size, d, "R_k1 has d elements");
            }
            for (t, &c) in classes.class_of.iter().enumerate() {
                let w = (t as u32).count_ones();
                assert_eq!(c == usize::MAX, w == 0 || w == d, "d {d} t {t}");
            }
        }
    }

    #[test]
    fn rotation_is_a_bijection_of_period_dividing_d() {
        for d in 1..=8u32 {
            for t in 0..1u32 << d {
                let mut x = t;
                for _ in 0..d {
                    x = rotl(x, d);
                }
                assert_eq!(x, t);
                assert_eq!(rotl(t, d).count_ones(), t.count_ones());
            }
        }
    }
}
