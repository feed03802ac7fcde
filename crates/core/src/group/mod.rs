//! Finite groups given by presentations.
//!
//! A network in txverify is the Cayley graph of a finite group, and the group is
//! always computed from a presentation (coset enumeration), never assumed from a
//! name: the name a user gives a group is a claim, the presentation is the fact.
//!
//! The computed [`FiniteGroup`] stores the right action of every generator and
//! its inverse on every element, so `element × generator` is one table look-up.

pub mod abelian;
mod bfs;
pub mod check;
pub mod compute;
pub mod enumerate;
pub mod product;
pub mod recognise;

use std::fmt;

/// Closed-form groups for the unit tests; the same file serves the integration tests.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../../../tests/suite/common/groups.rs"]
pub(crate) mod testing;

pub use abelian::{Abelianisation, abelianise};
pub use bfs::BfsTree;
pub use compute::{ComputedGroup, compute};
pub use enumerate::{EnumerationLimits, enumerate};
pub use recognise::recognise;

/// An element of a [`FiniteGroup`]: an index in `0..order`; `Elem(0)` is the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Elem(pub u32);

impl Elem {
    /// The identity element of every [`FiniteGroup`].
    pub const IDENTITY: Elem = Elem(0);

    /// The index of this element, for use as a vector index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A generator or its inverse, as it appears in a relator or a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GenLetter {
    /// Index into [`Presentation::generators`].
    pub generator: u32,
    /// `true` for the inverse of the generator.
    pub inverse: bool,
}

impl GenLetter {
    /// The letter that cancels this one.
    pub fn inverted(self) -> GenLetter {
        GenLetter {
            generator: self.generator,
            inverse: !self.inverse,
        }
    }
}

/// A finitely presented group `<generators | relators>`: every relator equals 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presentation {
    /// Generator names, as written in the file (`a`, `t12`, ...).
    pub generators: Vec<String>,
    /// Relators: words over the generators that equal the identity.
    pub relators: Vec<Vec<GenLetter>>,
}

/// Why a presentation could not be turned into a finite group.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GroupError {
    /// The abelianisation has a free part, so the group is infinite.
    #[error("the group is infinite (its abelianisation has a free factor Z^{free_rank})")]
    Infinite {
        /// Rank of the free abelian part of the abelianisation.
        free_rank: usize,
    },
    /// Enumeration needed more cosets than the limit allows.
    #[error(
        "coset enumeration exceeded {limit} cosets: the group is larger than txverify's limit or infinite"
    )]
    TooManyCosets {
        /// The coset limit in force.
        limit: usize,
    },
    /// The abelianisation alone has more elements than the limit allows, and
    /// |G| ≥ |G/[G, G]|: refused before any enumeration.
    #[error(
        "the group has at least {at_least} elements (the order of its abelianisation), more than the limit of {limit}"
    )]
    AbelianisationTooLarge {
        /// The abelianisation's order.
        at_least: u128,
        /// The element limit in force.
        limit: usize,
    },
    /// The group was enumerated but has more elements than the limit allows.
    #[error("the group has {order} elements, more than the limit of {limit}")]
    TooLarge {
        /// The order found.
        order: usize,
        /// The element limit in force.
        limit: usize,
    },
    /// Enumeration ran past its time budget.
    #[error("coset enumeration ran past its time budget of {seconds} s")]
    TimeBudget {
        /// The budget in seconds.
        seconds: u64,
    },
    /// A relator names a generator the presentation does not have.
    #[error(
        "relator {relator} uses generator number {generator}, but there are only {generators} generators"
    )]
    UnknownGenerator {
        /// Index of the offending relator.
        relator: usize,
        /// The generator number it uses.
        generator: u32,
        /// How many generators the presentation has.
        generators: usize,
    },
    /// An independent check of the order disagreed with the enumeration (a bug).
    #[error("internal cross-check failed: {0}")]
    CrossCheck(String),
}

/// A finite group with the right action of every generator (and inverse) tabulated.
#[derive(Clone, Debug)]
pub struct FiniteGroup {
    generator_names: Vec<String>,
    order: usize,
    /// `action[e * 2 * ngens + 2 * g + inverse]` is `e · g^(±1)`.
    action: Vec<u32>,
}

impl FiniteGroup {
    /// Builds a group from a complete right-action table.
    ///
    /// `action[e * 2 * ngens + 2 * g + (inverse as usize)]` must be `e · g^(±1)`,
    /// element 0 must be the identity, and the table must be a permutation action
    /// (each generator column a permutation, the inverse column its inverse).
    /// Returns `None` when the table does not have that shape.
    pub fn from_action(generator_names: Vec<String>, action: Vec<u32>) -> Option<FiniteGroup> {
        let width = 2 * generator_names.len();
        if width == 0 {
            return (action.is_empty()).then_some(FiniteGroup {
                generator_names,
                order: 1,
                action,
            });
        }
        if action.is_empty() || !action.len().is_multiple_of(width) {
            return None;
        }
        let order = action.len() / width;
        if action.iter().any(|&x| x as usize >= order) {
            return None;
        }
        for e in 0..order {
            for g in 0..generator_names.len() {
                let forward = action[e * width + 2 * g] as usize;
                if action[forward * width + 2 * g + 1] as usize != e {
                    return None;
                }
            }
        }
        Some(FiniteGroup {
            generator_names,
            order,
            action,
        })
    }

    /// Number of elements.
    pub fn order(&self) -> usize {
        self.order
    }

    /// Generator names in presentation order.
    pub fn generator_names(&self) -> &[String] {
        &self.generator_names
    }

    /// `e · letter`, one table look-up.
    pub fn apply(&self, e: Elem, letter: GenLetter) -> Elem {
        let width = 2 * self.generator_names.len();
        Elem(
            self.action
                [e.index() * width + 2 * letter.generator as usize + letter.inverse as usize],
        )
    }

    /// `e · w` for a word `w` over the generators.
    pub fn apply_word(&self, e: Elem, word: &[GenLetter]) -> Elem {
        word.iter().fold(e, |acc, &l| self.apply(acc, l))
    }

    /// The element a word spells, starting from the identity.
    pub fn eval(&self, word: &[GenLetter]) -> Elem {
        self.apply_word(Elem::IDENTITY, word)
    }

    /// Iterates over all elements.
    pub fn elements(&self) -> impl Iterator<Item = Elem> + '_ {
        (0..self.order as u32).map(Elem)
    }

    /// A shortest word over the generators (and inverses) for every element, by
    /// breadth-first search from the identity; used to *name* elements in reports.
    pub fn shortest_words(&self) -> Vec<Vec<GenLetter>> {
        let letters: Vec<GenLetter> = (0..self.generator_names.len() as u32)
            .flat_map(|generator| [false, true].map(|inverse| GenLetter { generator, inverse }))
            .collect();
        let tree = BfsTree::new(self, &letters);
        self.elements()
            .map(|e| {
                tree.word(e)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|i| letters[i])
                    .collect()
            })
            .collect()
    }

    /// The element a single letter denotes (the identity times the letter).
    pub fn letter_element(&self, letter: GenLetter) -> Elem {
        self.apply(Elem::IDENTITY, letter)
    }

    /// Writes a word with this group's generator names (`a'` for inverses, `{name}` for long names).
    pub fn format_word(&self, word: &[GenLetter]) -> String {
        if word.is_empty() {
            return "1".to_string();
        }
        let mut out = String::new();
        for letter in word {
            let name = &self.generator_names[letter.generator as usize];
            if name.chars().count() == 1 && name.chars().all(|c| c.is_ascii_alphabetic()) {
                out.push_str(name);
            } else {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
            if letter.inverse {
                out.push('\'');
            }
        }
        out
    }
}

impl Presentation {
    /// Checks that every relator letter names an existing generator, so that the
    /// algorithms can index tables by generator without a possible panic.
    pub fn check_letters(&self) -> Result<(), GroupError> {
        for (relator, word) in self.relators.iter().enumerate() {
            if let Some(l) = word
                .iter()
                .find(|l| l.generator as usize >= self.generators.len())
            {
                return Err(GroupError::UnknownGenerator {
                    relator,
                    generator: l.generator,
                    generators: self.generators.len(),
                });
            }
        }
        Ok(())
    }
}

impl fmt::Display for Presentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "<{} | {} relators>",
            self.generators.join(", "),
            self.relators.len()
        )
    }
}
