//! Fabrics: what a network's links and nodes carry beyond one chunk a step.
//!
//! The machines collectives run on are not all idealised networks. A
//! [`Graph`] may carry, besides its links, a [`Fabric`]:
//!
//! - a **capacity** per directed link: the chunks it carries in one step
//!   (an integer from 1 to [`MAX_CAPACITY`]; the DGX-1's doubled NVLink
//!   pairs have 2). A graph without a fabric has capacity 1 everywhere;
//! - **switch limits**, as msccl-tools defines them: a set of sources, a set
//!   of destinations and a number `b`: in one step at most `b` sends go from
//!   a source of the set to a destination of the set (a NIC shared by a
//!   machine's GPUs, a hub's port);
//! - **forward-only nodes** (switches): they start with no data and need
//!   none; they only forward what they hold. By default a forward-only node
//!   does not copy: it sends each item it holds at most once (no multicast);
//!   [`FabricSpec::multicast`] lets it copy like any node;
//! - per-link **α and β** for the timed replay (the time of a message of `s`
//!   chunks is `α + s·β`), where a link does not say, the command line's.
//!
//! A fabric is made by [`Graph::with_fabric`] from a [`FabricSpec`], which
//! checks every link and node it names, so holding a graph means its fabric
//! is consistent with it.

use super::Graph;

/// The largest capacity of a directed link, in chunks per step.
pub const MAX_CAPACITY: u32 = 1 << 16;

/// The largest α or β of a link (10^15 of any unit, as the command line's).
pub const MAX_LINK_TIME: f64 = 1e15;

/// The most switch limits a fabric may have.
pub const MAX_SWITCH_LIMITS: usize = 1 << 16;

/// The most node memberships (sources plus destinations) over all switch
/// limits of a fabric: the replay indexes every one.
pub const MAX_SWITCH_MEMBERS: usize = 1 << 24;

/// At most `sends` sends a step from one of `sources` to one of `destinations`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchLimit {
    /// Its name (`node_0_out`, `copy_1_in_remote`).
    pub name: String,
    /// The nodes whose sends it counts, sorted, without repeats.
    pub sources: Vec<u32>,
    /// The nodes whose receipts it counts, sorted, without repeats.
    pub destinations: Vec<u32>,
    /// The most sends a step among them (≥ 1).
    pub sends: u32,
}

/// The time of a message of `s` chunks on one link: `alpha + s·beta`; what
/// a link does not give is the command line's (`--alpha`, `--beta`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkTiming {
    /// The start-up time α.
    pub alpha: Option<f64>,
    /// The time per chunk β.
    pub beta: Option<f64>,
}

/// A fabric as a reader states it, by node numbers; [`Graph::with_fabric`]
/// checks it against the graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FabricSpec {
    /// `(from, to, capacity)` of the directed links whose capacity is not 1.
    pub capacities: Vec<(u32, u32, u64)>,
    /// The switch limits.
    pub limits: Vec<SwitchLimit>,
    /// The forward-only nodes.
    pub forward_only: Vec<u32>,
    /// Whether forward-only nodes may copy what they hold (multicast).
    pub multicast: bool,
    /// `(from, to, timing)` of the directed links with their own α and β.
    pub timing: Vec<(u32, u32, LinkTiming)>,
}

/// A fabric as a graph keeps it: by directed link id and node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fabric {
    /// Capacity by directed link id; empty when every link has capacity 1.
    capacities: Vec<u32>,
    limits: Vec<SwitchLimit>,
    /// By node; empty when no node is forward-only.
    forward_only: Vec<bool>,
    multicast: bool,
    /// By directed link id; empty when no link has its own times.
    timing: Vec<Option<LinkTiming>>,
}

impl Fabric {
    /// Whether this is the plain model: capacity 1, no limit, no switch, no times.
    pub fn is_plain(&self) -> bool {
        self.capacities.is_empty()
            && self.limits.is_empty()
            && self.forward_only.is_empty()
            && self.timing.is_empty()
    }

    /// Whether some link has a capacity other than 1.
    pub fn has_capacities(&self) -> bool {
        !self.capacities.is_empty()
    }

    /// The switch limits.
    pub fn limits(&self) -> &[SwitchLimit] {
        &self.limits
    }

    /// Whether forward-only nodes may copy (multicast).
    pub fn multicast(&self) -> bool {
        self.multicast
    }

    /// Whether some node is forward-only.
    pub fn has_forward_only(&self) -> bool {
        !self.forward_only.is_empty()
    }
}

/// Why a fabric does not fit its graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FabricError {
    /// A capacity of 0 (a link that carries nothing is no link).
    #[error("link {from} -> {to} has capacity 0: a link carries at least 1 chunk a step")]
    ZeroCapacity {
        /// Tail.
        from: u32,
        /// Head.
        to: u32,
    },
    /// A capacity above [`MAX_CAPACITY`].
    #[error("link {from} -> {to} has capacity {capacity}, more than {MAX_CAPACITY}")]
    CapacityTooLarge {
        /// Tail.
        from: u32,
        /// Head.
        to: u32,
        /// As given.
        capacity: u64,
    },
    /// A capacity or a time on a pair of nodes that is not a link.
    #[error("{from} -> {to} is not a link of the network")]
    NotALink {
        /// Tail.
        from: u32,
        /// Head.
        to: u32,
    },
    /// A node number that is not a node.
    #[error("node {node} is not a node of a network of {nodes} nodes")]
    UnknownNode {
        /// The number.
        node: u32,
        /// Number of nodes.
        nodes: usize,
    },
    /// A switch limit of 0 sends.
    #[error("switch limit `{0}` allows 0 sends: a limit is at least 1")]
    ZeroLimit(String),
    /// A switch limit above [`MAX_CAPACITY`].
    #[error("switch limit `{name}` allows {sends} sends, more than {MAX_CAPACITY}")]
    LimitTooLarge {
        /// Its name.
        name: String,
        /// As given.
        sends: u64,
    },
    /// Too many switch limits or members.
    #[error(
        "too many switch limits (at most {MAX_SWITCH_LIMITS}, with at most {MAX_SWITCH_MEMBERS} nodes named in all)"
    )]
    TooManyLimits,
    /// Every node forward-only: no node has data.
    #[error("every node is forward-only: no node has data")]
    AllForwardOnly,
    /// A time that is negative, not finite or above [`MAX_LINK_TIME`].
    #[error("link {from} -> {to}: a time must be a number from 0 to 1e15")]
    BadTime {
        /// Tail.
        from: u32,
        /// Head.
        to: u32,
    },
}

impl Graph {
    /// The same graph with the fabric `spec` (replacing any it had), checked:
    /// every capacity from 1 to [`MAX_CAPACITY`] on a link, every node named
    /// a node, every limit at least 1, some node not forward-only.
    pub fn with_fabric(mut self, spec: FabricSpec) -> Result<Graph, FabricError> {
        let n = self.nodes();
        let node = |x: u32| {
            if (x as usize) < n {
                Ok(x)
            } else {
                Err(FabricError::UnknownNode { node: x, nodes: n })
            }
        };
        let link = |from: u32, to: u32| {
            node(from)?;
            node(to)?;
            self.link(from, to)
                .ok_or(FabricError::NotALink { from, to })
        };
        let mut fabric = Fabric {
            multicast: spec.multicast,
            ..Fabric::default()
        };
        let mut capacities = vec![1u32; self.directed_links()];
        let mut any_capacity = false;
        for &(from, to, capacity) in &spec.capacities {
            let l = link(from, to)?;
            if capacity == 0 {
                return Err(FabricError::ZeroCapacity { from, to });
            }
            if capacity > u64::from(MAX_CAPACITY) {
                return Err(FabricError::CapacityTooLarge { from, to, capacity });
            }
            capacities[l as usize] = capacity as u32;
            any_capacity |= capacity != 1;
        }
        if any_capacity {
            fabric.capacities = capacities;
        }
        if spec.limits.len() > MAX_SWITCH_LIMITS {
            return Err(FabricError::TooManyLimits);
        }
        let mut members = 0usize;
        for limit in spec.limits {
            members += limit.sources.len() + limit.destinations.len();
            if members > MAX_SWITCH_MEMBERS {
                return Err(FabricError::TooManyLimits);
            }
            if limit.sends == 0 {
                return Err(FabricError::ZeroLimit(limit.name));
            }
            let mut sources = limit.sources;
            let mut destinations = limit.destinations;
            for &x in sources.iter().chain(&destinations) {
                node(x)?;
            }
            sources.sort_unstable();
            sources.dedup();
            destinations.sort_unstable();
            destinations.dedup();
            fabric.limits.push(SwitchLimit {
                sources,
                destinations,
                ..limit
            });
        }
        if !spec.forward_only.is_empty() {
            let mut forward_only = vec![false; n];
            for &x in &spec.forward_only {
                forward_only[node(x)? as usize] = true;
            }
            if forward_only.iter().all(|&f| f) {
                return Err(FabricError::AllForwardOnly);
            }
            fabric.forward_only = forward_only;
        }
        if !spec.timing.is_empty() {
            let mut timing = vec![None; self.directed_links()];
            for &(from, to, t) in &spec.timing {
                let l = link(from, to)?;
                let fine = |x: f64| (0.0..=MAX_LINK_TIME).contains(&x);
                if !t.alpha.is_none_or(fine) || !t.beta.is_none_or(fine) {
                    return Err(FabricError::BadTime { from, to });
                }
                timing[l as usize] = Some(t);
            }
            fabric.timing = timing;
        }
        self.fabric = fabric;
        Ok(self)
    }

    /// The fabric: capacities, switch limits, forward-only nodes, link times.
    pub fn fabric(&self) -> &Fabric {
        &self.fabric
    }

    /// The chunks directed link `link` carries in one step (1 without a fabric).
    pub fn capacity(&self, link: u32) -> u32 {
        self.fabric
            .capacities
            .get(link as usize)
            .copied()
            .unwrap_or(1)
    }

    /// Whether node `x` is forward-only (a switch: no data of its own, needs none).
    pub fn is_forward_only(&self, x: u32) -> bool {
        self.fabric
            .forward_only
            .get(x as usize)
            .copied()
            .unwrap_or(false)
    }

    /// The nodes that are not forward-only: those that have and need data.
    pub fn endpoint_count(&self) -> usize {
        self.nodes() - self.fabric.forward_only.iter().filter(|&&f| f).count()
    }

    /// The α and β of directed link `link`, when the fabric gives them.
    pub fn link_timing(&self, link: u32) -> Option<LinkTiming> {
        self.fabric.timing.get(link as usize).copied().flatten()
    }

    /// The fabric as a reader would state it again (link capacities other
    /// than 1, limits, forward-only nodes, times), for writing it out.
    pub fn fabric_spec(&self) -> FabricSpec {
        let f = &self.fabric;
        let ends = |l: usize| self.endpoints(l as u32);
        FabricSpec {
            capacities: f
                .capacities
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c != 1)
                .map(|(l, &c)| {
                    let (a, b) = ends(l);
                    (a, b, u64::from(c))
                })
                .collect(),
            limits: f.limits.clone(),
            forward_only: (0..self.nodes() as u32)
                .filter(|&x| self.is_forward_only(x))
                .collect(),
            multicast: f.multicast,
            timing: f
                .timing
                .iter()
                .enumerate()
                .filter_map(|(l, t)| {
                    let (a, b) = ends(l);
                    t.map(|t| (a, b, t))
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle() -> Graph {
        Graph::from_adjacency(vec![vec![1, 2], vec![0, 2], vec![0, 1]]).unwrap()
    }

    #[test]
    fn a_plain_graph_has_capacity_one_and_no_switches() {
        let g = triangle();
        assert!(g.fabric().is_plain());
        assert_eq!(g.capacity(0), 1);
        assert!(!g.is_forward_only(0));
        assert_eq!(g.endpoint_count(), 3);
    }

    #[test]
    fn capacities_limits_and_switches_are_kept_by_link() {
        let spec = FabricSpec {
            capacities: vec![(0, 1, 2)],
            limits: vec![SwitchLimit {
                name: "out".into(),
                sources: vec![2, 0, 0],
                destinations: vec![1],
                sends: 1,
            }],
            forward_only: vec![2],
            multicast: false,
            timing: vec![(
                1,
                0,
                LinkTiming {
                    alpha: Some(1.0),
                    beta: Some(0.5),
                },
            )],
        };
        let g = triangle().with_fabric(spec.clone()).unwrap();
        assert_eq!(g.capacity(g.link(0, 1).unwrap()), 2);
        assert_eq!(g.capacity(g.link(1, 0).unwrap()), 1);
        assert_eq!(g.fabric().limits()[0].sources, vec![0, 2]);
        assert!(g.is_forward_only(2));
        assert_eq!(g.endpoint_count(), 2);
        assert_eq!(
            g.link_timing(g.link(1, 0).unwrap()),
            Some(LinkTiming {
                alpha: Some(1.0),
                beta: Some(0.5),
            })
        );
        assert_eq!(g.link_timing(g.link(0, 1).unwrap()), None);
        let again = g.fabric_spec();
        assert_eq!(again.capacities, spec.capacities);
        assert_eq!(again.forward_only, spec.forward_only);
    }

    #[test]
    fn inconsistent_fabrics_are_typed_errors() {
        let with = |spec: FabricSpec| triangle().with_fabric(spec).unwrap_err();
        let capacity = |c| FabricSpec {
            capacities: vec![(0, 1, c)],
            ..FabricSpec::default()
        };
        assert_eq!(
            with(capacity(0)),
            FabricError::ZeroCapacity { from: 0, to: 1 }
        );
        assert!(matches!(
            with(capacity(u64::MAX)),
            FabricError::CapacityTooLarge { .. }
        ));
        let limit = |sources: Vec<u32>, sends| FabricSpec {
            limits: vec![SwitchLimit {
                name: "s".into(),
                sources,
                destinations: vec![0],
                sends,
            }],
            ..FabricSpec::default()
        };
        assert_eq!(
            with(limit(vec![7], 1)),
            FabricError::UnknownNode { node: 7, nodes: 3 }
        );
        assert_eq!(with(limit(vec![1], 0)), FabricError::ZeroLimit("s".into()));
        assert_eq!(
            with(FabricSpec {
                forward_only: vec![0, 1, 2],
                ..FabricSpec::default()
            }),
            FabricError::AllForwardOnly
        );
        assert_eq!(
            with(FabricSpec {
                timing: vec![(
                    0,
                    2,
                    LinkTiming {
                        alpha: Some(-1.0),
                        beta: Some(0.0),
                    }
                )],
                ..FabricSpec::default()
            }),
            FabricError::BadTime { from: 0, to: 2 }
        );
    }
}
