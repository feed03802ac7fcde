//! The kinds of physical network txverify builds, as the network module's own type.
//!
//! The file format has its own `network:` syntax; the loader converts it to a
//! [`NetworkKind`], so that this module depends on nothing from the format.
//! Every kind is a torus in disguise (see the module notes of [`super`]), and
//! [`NetworkKind::torus_sides`] is where a kind is checked against the limits.

use std::fmt;

use serde::Serialize;

use super::{Graph, MAX_NODES, NetworkName};

/// A physical network by kind and size: a ring, a hypercube or a torus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum NetworkKind {
    /// A cycle of `nodes` nodes.
    Ring {
        /// Number of nodes.
        nodes: usize,
    },
    /// The `dimension`-cube.
    Hypercube {
        /// Dimension.
        dimension: usize,
    },
    /// A wrap-around mesh with these side lengths.
    Torus {
        /// Side lengths, one per dimension.
        sides: Vec<usize>,
    },
}

/// `ring 6`, `hypercube 4`, `torus 5 5`: the kind as a `network:` value writes it.
impl fmt::Display for NetworkKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkKind::Ring { nodes } => write!(f, "ring {nodes}"),
            NetworkKind::Hypercube { dimension } => write!(f, "hypercube {dimension}"),
            NetworkKind::Torus { sides } => {
                f.write_str("torus")?;
                for side in sides {
                    write!(f, " {side}")?;
                }
                Ok(())
            }
        }
    }
}

/// Why a `network:` value does not describe a network txverify builds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkSpecError {
    /// `ring N` with `N < 2`.
    #[error("a ring needs at least 2 nodes, not {0}")]
    RingTooSmall(usize),
    /// `torus` with no sides.
    #[error("a torus needs at least one dimension")]
    TorusNoDimensions,
    /// `torus` with a side below 2.
    #[error("torus side {side} in dimension {dimension} is below 2")]
    TorusSideTooSmall {
        /// 1-based dimension.
        dimension: usize,
        /// The side given.
        side: usize,
    },
    /// More nodes than [`MAX_NODES`].
    #[error("the network has more than {limit} nodes")]
    TooLarge {
        /// The limit, [`MAX_NODES`].
        limit: usize,
    },
}

impl NetworkKind {
    /// The torus sides this kind stands for, validated.
    pub fn torus_sides(&self) -> Result<Vec<usize>, NetworkSpecError> {
        let sides = match self {
            NetworkKind::Ring { nodes } => {
                if *nodes < 2 {
                    return Err(NetworkSpecError::RingTooSmall(*nodes));
                }
                vec![*nodes]
            }
            NetworkKind::Hypercube { dimension } => {
                if *dimension >= usize::BITS as usize || (1usize << dimension) > MAX_NODES {
                    return Err(NetworkSpecError::TooLarge { limit: MAX_NODES });
                }
                vec![2; *dimension]
            }
            NetworkKind::Torus { sides } => {
                if sides.is_empty() {
                    return Err(NetworkSpecError::TorusNoDimensions);
                }
                if let Some((i, &side)) = sides.iter().enumerate().find(|&(_, &s)| s < 2) {
                    return Err(NetworkSpecError::TorusSideTooSmall {
                        dimension: i + 1,
                        side,
                    });
                }
                sides.clone()
            }
        };
        let mut n: usize = 1;
        for &s in &sides {
            n = n
                .checked_mul(s)
                .filter(|&n| n <= MAX_NODES)
                .ok_or(NetworkSpecError::TooLarge { limit: MAX_NODES })?;
        }
        Ok(sides)
    }

    /// The network as a [`NetworkName`] (every kind is one).
    pub fn name(&self) -> NetworkName {
        match self {
            NetworkKind::Ring { nodes } => NetworkName::Ring(*nodes as u32),
            NetworkKind::Hypercube { dimension } => NetworkName::Hypercube(*dimension as u32),
            NetworkKind::Torus { sides } => {
                NetworkName::Torus(sides.iter().map(|&s| s as u32).collect())
            }
        }
    }

    /// Builds the network: the torus of [`NetworkKind::torus_sides`], labelled
    /// as the `network:` value writes it.
    pub fn build(&self) -> Result<Graph, NetworkSpecError> {
        let sides = self.torus_sides()?;
        let graph = super::build::torus(&sides)
            .map_err(|_| NetworkSpecError::TooLarge { limit: MAX_NODES })?;
        Ok(graph.with_label(self.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_and_serialised_as_the_network_line() {
        let cases = [
            (
                NetworkKind::Ring { nodes: 6 },
                "ring 6",
                r#"{"kind":"ring","nodes":6}"#,
            ),
            (
                NetworkKind::Hypercube { dimension: 4 },
                "hypercube 4",
                r#"{"kind":"hypercube","dimension":4}"#,
            ),
            (
                NetworkKind::Torus { sides: vec![5, 3] },
                "torus 5 3",
                r#"{"kind":"torus","sides":[5,3]}"#,
            ),
        ];
        for (kind, text, json) in cases {
            assert_eq!(kind.to_string(), text);
            assert_eq!(kind.name().to_string(), text);
            assert_eq!(serde_json::to_string(&kind).unwrap(), json);
        }
    }

    #[test]
    fn invalid_specs_are_rejected() {
        for spec in [
            NetworkKind::Ring { nodes: 0 },
            NetworkKind::Ring { nodes: 1 },
            NetworkKind::Torus { sides: vec![] },
            NetworkKind::Torus { sides: vec![4, 1] },
            NetworkKind::Hypercube { dimension: 64 },
            NetworkKind::Torus {
                sides: vec![1 << 13, 1 << 13],
            },
        ] {
            assert!(spec.build().is_err(), "{spec}");
        }
        let zero = NetworkKind::Hypercube { dimension: 0 }.build().unwrap();
        assert_eq!((zero.nodes(), zero.directed_links()), (1, 0));
    }
}
