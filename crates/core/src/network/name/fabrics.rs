//! Named fabrics: the machines msccl-tools describes, built with their
//! capacities and switch limits (`fabric.rs`).
//!
//! - `dgx1`: msccl-tools' `DGX1`, the DGX-1 (V100) hybrid cube-mesh: two
//!   fully connected quads 0 1 2 3 and 4 5 6 7 joined by the links i – i + 4;
//!   the eight pairs of the ring 0 1 3 2 6 7 5 4 have two NVLinks, capacity 2;
//! - `hub-and-spoke N`: msccl-tools' `HubAndSpoke(N)`: every pair of the N
//!   GPUs linked, with the switch limits `node_i_out` (at most 1 send a step
//!   from i to the others) and `node_i_in` (at most 1 receive);
//! - `nvswitch N`: N GPUs (nodes 0 … N−1) on one switch, node N, which is
//!   forward-only and does not copy; every link capacity 1;
//! - `cluster K B MACHINE`: K copies of MACHINE (one of the above), copy c's
//!   node x numbered `c·M + x` (M the machine's nodes), as msccl-tools'
//!   `distributed_hub_and_spoke(MACHINE, K, B)`: every GPU linked to every GPU
//!   of another copy with capacity B, each copy's links and switch limits
//!   kept, and per copy two limits of B sends a step (`copy_c_out_remote`
//!   from its GPUs to the others', `copy_c_in_remote` back): its NIC. A
//!   switch of a copy (`nvswitch`) has no remote link.

use std::fmt;

use super::super::graph::fabric::{FabricSpec, SwitchLimit};
use super::super::graph::{Graph, Topology};
use super::NetworkError;

/// The most nodes a named fabric may have (a cluster's remote links grow
/// with the square of its nodes).
pub const MAX_FABRIC_NODES: usize = 4096;

/// A named fabric (see the module notes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FabricName {
    /// `dgx1`.
    Dgx1,
    /// `hub-and-spoke N`.
    HubAndSpoke(u32),
    /// `nvswitch N`.
    NvSwitch(u32),
    /// `cluster K B MACHINE`.
    Cluster {
        /// K, the copies (≥ 2).
        copies: u32,
        /// B, the NIC bandwidth (≥ 1).
        nic: u32,
        /// The machine copied (not itself a cluster).
        machine: Box<FabricName>,
    },
}

impl fmt::Display for FabricName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FabricName::Dgx1 => write!(f, "dgx1"),
            FabricName::HubAndSpoke(n) => write!(f, "hub-and-spoke {n}"),
            FabricName::NvSwitch(n) => write!(f, "nvswitch {n}"),
            FabricName::Cluster {
                copies,
                nic,
                machine,
            } => write!(f, "cluster {copies} {nic} {machine}"),
        }
    }
}

/// Whether `family` (lower case) names a fabric.
pub(super) fn is_fabric_family(family: &str) -> bool {
    matches!(family, "dgx1" | "hub-and-spoke" | "nvswitch" | "cluster")
}

impl FabricName {
    /// Reads a fabric name from its words, the first its family in lower case.
    pub(super) fn parse(words: &[&str]) -> Result<FabricName, NetworkError> {
        let family = words
            .first()
            .map(|w| w.to_ascii_lowercase())
            .unwrap_or_default();
        let size = |w: &str| {
            w.parse::<u32>()
                .map_err(|_| NetworkError::BadSize(w.to_string()))
        };
        let arity = |expected: &'static str| NetworkError::WrongArity {
            family: leak(&family),
            expected,
            given: words.len() - 1,
        };
        let at_least = |n: u32, minimum: u32| {
            if n >= minimum {
                Ok(n)
            } else {
                Err(NetworkError::TooSmall {
                    family: leak(&family),
                    size: n,
                    minimum,
                })
            }
        };
        let name = match (family.as_str(), &words[1..]) {
            ("dgx1", []) => FabricName::Dgx1,
            ("dgx1", _) => return Err(arity("no size")),
            ("hub-and-spoke", [n]) => FabricName::HubAndSpoke(at_least(size(n)?, 2)?),
            ("nvswitch", [n]) => FabricName::NvSwitch(at_least(size(n)?, 2)?),
            ("hub-and-spoke" | "nvswitch", _) => return Err(arity("one size")),
            ("cluster", [k, b, machine @ ..]) if !machine.is_empty() => {
                let copies = at_least(size(k)?, 2)?;
                let nic = at_least(size(b)?, 1)?;
                let machine = FabricName::parse(machine)?;
                if matches!(machine, FabricName::Cluster { .. }) {
                    return Err(NetworkError::WrongArity {
                        family: "cluster",
                        expected: "a machine that is not a cluster",
                        given: words.len() - 1,
                    });
                }
                FabricName::Cluster {
                    copies,
                    nic,
                    machine: Box::new(machine),
                }
            }
            ("cluster", _) => return Err(arity("copies, NIC bandwidth and a machine")),
            (other, _) => return Err(NetworkError::UnknownFamily(other.to_string())),
        };
        name.nodes()?;
        Ok(name)
    }

    /// The number of nodes, or [`NetworkError::TooLarge`] above [`MAX_FABRIC_NODES`].
    pub fn nodes(&self) -> Result<usize, NetworkError> {
        let n = match self {
            FabricName::Dgx1 => 8u64,
            FabricName::HubAndSpoke(n) => u64::from(*n),
            FabricName::NvSwitch(n) => u64::from(*n) + 1,
            FabricName::Cluster {
                copies, machine, ..
            } => u64::from(*copies) * machine.nodes()? as u64,
        };
        if n > MAX_FABRIC_NODES as u64 {
            return Err(NetworkError::TooLarge);
        }
        Ok(n as usize)
    }

    /// Builds the graph and its fabric, labelled with this name.
    pub fn build(&self) -> Result<Graph, NetworkError> {
        let (lists, spec) = self.parts()?;
        let graph = Graph::from_ports(self.to_string(), Topology::General, lists)?;
        graph.with_fabric(spec).map_err(|_| NetworkError::TooLarge)
    }

    /// Neighbour lists (by node, increasing) and the fabric.
    fn parts(&self) -> Result<(Vec<Vec<u32>>, FabricSpec), NetworkError> {
        let n = self.nodes()? as u32;
        let all_but = |x: u32| (0..n).filter(move |&y| y != x);
        Ok(match self {
            FabricName::Dgx1 => {
                let mut lists = vec![Vec::new(); 8];
                let mut spec = FabricSpec::default();
                for (x, row) in DGX1.iter().enumerate() {
                    for (y, &b) in row.iter().enumerate() {
                        if b > 0 {
                            lists[x].push(y as u32);
                            if b > 1 {
                                spec.capacities.push((x as u32, y as u32, u64::from(b)));
                            }
                        }
                    }
                }
                (lists, spec)
            }
            FabricName::HubAndSpoke(_) => {
                let lists = (0..n).map(|x| all_but(x).collect()).collect();
                let mut limits = Vec::new();
                for x in 0..n {
                    let others: Vec<u32> = all_but(x).collect();
                    limits.push(SwitchLimit {
                        name: format!("node_{x}_out"),
                        sources: vec![x],
                        destinations: others.clone(),
                        sends: 1,
                    });
                    limits.push(SwitchLimit {
                        name: format!("node_{x}_in"),
                        sources: others,
                        destinations: vec![x],
                        sends: 1,
                    });
                }
                let spec = FabricSpec {
                    limits,
                    ..FabricSpec::default()
                };
                (lists, spec)
            }
            FabricName::NvSwitch(gpus) => {
                let hub = *gpus;
                let mut lists: Vec<Vec<u32>> = (0..hub).map(|_| vec![hub]).collect();
                lists.push((0..hub).collect());
                let spec = FabricSpec {
                    forward_only: vec![hub],
                    ..FabricSpec::default()
                };
                (lists, spec)
            }
            FabricName::Cluster {
                copies,
                nic,
                machine,
            } => cluster(*copies, *nic, machine)?,
        })
    }
}

/// `cluster K B MACHINE` (see the module notes).
fn cluster(
    copies: u32,
    nic: u32,
    machine: &FabricName,
) -> Result<(Vec<Vec<u32>>, FabricSpec), NetworkError> {
    let (local, local_spec) = machine.parts()?;
    let m = local.len() as u32;
    let switch = |x: u32| local_spec.forward_only.contains(&(x % m));
    let total = copies * m;
    let mut lists = vec![Vec::new(); total as usize];
    let mut spec = FabricSpec {
        multicast: local_spec.multicast,
        ..FabricSpec::default()
    };
    for x in 0..total {
        let (c, local_x) = (x / m, x % m);
        for y in 0..total {
            if y / m == c {
                if local[local_x as usize].contains(&(y % m)) {
                    lists[x as usize].push(y);
                }
            } else if !switch(x) && !switch(y) {
                lists[x as usize].push(y);
                if nic != 1 {
                    spec.capacities.push((x, y, u64::from(nic)));
                }
            }
        }
    }
    for c in 0..copies {
        for &(a, b, cap) in &local_spec.capacities {
            spec.capacities.push((a + c * m, b + c * m, cap));
        }
        spec.forward_only
            .extend(local_spec.forward_only.iter().map(|&x| x + c * m));
    }
    // msccl-tools' order: each local limit, copy by copy.
    for limit in &local_spec.limits {
        for c in 0..copies {
            let shift = |v: &[u32]| v.iter().map(|&x| x + c * m).collect::<Vec<u32>>();
            spec.limits.push(SwitchLimit {
                name: format!("copy_{c}_{}_local", limit.name),
                sources: shift(&limit.sources),
                destinations: shift(&limit.destinations),
                sends: limit.sends,
            });
        }
    }
    for c in 0..copies {
        let gpus: Vec<u32> = (c * m..(c + 1) * m).filter(|&x| !switch(x)).collect();
        let remote: Vec<u32> = (0..total).filter(|&x| x / m != c && !switch(x)).collect();
        spec.limits.push(SwitchLimit {
            name: format!("copy_{c}_out_remote"),
            sources: gpus.clone(),
            destinations: remote.clone(),
            sends: nic,
        });
        spec.limits.push(SwitchLimit {
            name: format!("copy_{c}_in_remote"),
            sources: remote,
            destinations: gpus,
            sends: nic,
        });
    }
    Ok((lists, spec))
}

/// msccl-tools' `DGX1` bandwidths (symmetric, so `[x][y]` either way round).
const DGX1: [[u32; 8]; 8] = [
    [0, 2, 1, 1, 2, 0, 0, 0],
    [2, 0, 1, 2, 0, 1, 0, 0],
    [1, 1, 0, 2, 0, 0, 2, 0],
    [1, 2, 2, 0, 0, 0, 0, 1],
    [2, 0, 0, 0, 0, 2, 1, 1],
    [0, 1, 0, 0, 2, 0, 1, 2],
    [0, 0, 2, 0, 1, 1, 0, 2],
    [0, 0, 0, 1, 1, 2, 2, 0],
];

/// A family name with a static lifetime for [`NetworkError`]'s fields.
fn leak(family: &str) -> &'static str {
    match family {
        "dgx1" => "dgx1",
        "hub-and-spoke" => "hub-and-spoke",
        "nvswitch" => "nvswitch",
        _ => "cluster",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(words: &str) -> Graph {
        let words: Vec<&str> = words.split_whitespace().collect();
        FabricName::parse(&words).unwrap().build().unwrap()
    }

    #[test]
    fn dgx1_has_sixteen_doubled_directed_links() {
        let g = build("dgx1");
        assert_eq!((g.nodes(), g.directed_links()), (8, 32));
        let doubled: Vec<(u32, u32)> = (0..32)
            .filter(|&l| g.capacity(l) == 2)
            .map(|l| g.endpoints(l))
            .filter(|&(a, b)| a < b)
            .collect();
        assert_eq!(
            doubled,
            vec![
                (0, 1),
                (0, 4),
                (1, 3),
                (2, 3),
                (2, 6),
                (4, 5),
                (5, 7),
                (6, 7)
            ]
        );
    }

    #[test]
    fn hub_and_spoke_nvswitch_and_clusters_are_msccl_tools_shapes() {
        let hub = build("hub-and-spoke 4");
        assert_eq!((hub.nodes(), hub.directed_links()), (4, 12));
        assert_eq!(hub.fabric().limits().len(), 8);
        let nv = build("nvswitch 8");
        assert_eq!(nv.nodes(), 9);
        assert!(nv.is_forward_only(8) && !nv.fabric().multicast());
        let two = build("cluster 2 1 dgx1");
        // 32 local directed links a copy, 8 · 8 remote each way.
        assert_eq!((two.nodes(), two.directed_links()), (16, 2 * 32 + 2 * 64));
        let names: Vec<&str> = two
            .fabric()
            .limits()
            .iter()
            .map(|l| l.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "copy_0_out_remote",
                "copy_0_in_remote",
                "copy_1_out_remote",
                "copy_1_in_remote"
            ]
        );
        let switches = build("cluster 2 3 nvswitch 2");
        assert_eq!(switches.nodes(), 6);
        assert!(switches.is_forward_only(2) && switches.is_forward_only(5));
        assert!(!switches.adjacent(2, 5));
        assert_eq!(switches.capacity(switches.link(0, 3).unwrap()), 3);
    }

    #[test]
    fn bad_fabric_names_are_typed_errors() {
        let err = |w: &str| {
            let words: Vec<&str> = w.split_whitespace().collect();
            FabricName::parse(&words).unwrap_err()
        };
        assert!(matches!(err("dgx1 2"), NetworkError::WrongArity { .. }));
        assert!(matches!(err("nvswitch 1"), NetworkError::TooSmall { .. }));
        assert!(matches!(err("nvswitch x"), NetworkError::BadSize(_)));
        assert!(matches!(
            err("cluster 1 1 dgx1"),
            NetworkError::TooSmall { .. }
        ));
        assert!(matches!(
            err("cluster 2 0 dgx1"),
            NetworkError::TooSmall { .. }
        ));
        assert!(matches!(
            err("cluster 2 1"),
            NetworkError::WrongArity { .. }
        ));
        assert!(matches!(err("hub-and-spoke 5000"), NetworkError::TooLarge));
        assert!(matches!(err("cluster 600 1 dgx1"), NetworkError::TooLarge));
    }
}
