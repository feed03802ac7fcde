//! The one network layer: names, graphs, builders and the isomorphism check.
//!
//! Every network txverify uses is named, built and compared here, and nowhere
//! else:
//!
//! - [`NetworkName`] (`name.rs`) is every spelling a `network:` line or a
//!   `--network` flag takes (`ring 8`, `mesh 4 4`, `star 5`, `A x B`), with
//!   typed errors and a printed form that parses back to itself;
//! - `edges.rs` reads any connected simple graph from an edge list, named
//!   `edges FILE` (machines are not all rings, tori and Cayley graphs), and
//!   `edges/msccl_topology.rs` msccl-tools' topology JSON under the same name;
//! - `fabric.rs` is what a graph's links and nodes carry beyond one chunk a
//!   step: capacities, switch limits, forward-only nodes, link times;
//! - [`Graph`] (`graph.rs`) is the one graph type: nodes, directed links with
//!   dense ids and ports, sorted neighbours for fast link lookup, distances;
//! - `build.rs` has one builder per family (grids, complete graphs and their
//!   products, cartesian products of any graphs, the Cayley graph of any
//!   computed group on a link list) and `cayley.rs` the Cayley families
//!   (star, pancake, CCC, butterfly) from presentations made in code, so no
//!   graph is built by printing and re-parsing text;
//! - [`embed`] and [`infer`] (`embed.rs`) are the one isomorphism check: a
//!   table is written over a Cayley graph, but the machine it runs on is a
//!   physical network with its own numbering and ports, and a `network:`
//!   claim holds only with an explicit bijection checked edge by edge.
//!
//! A `.tbl` table's `network:` names a ring, a hypercube, a torus (the
//! networks the embedding search and the table simulator handle; see
//! [`NetworkName::torus_sides`]) or a twisted torus (`twisted.rs`: embedded
//! by a map of links to its translations); schedules may run on any network
//! here.

mod build;
mod cayley;
mod edges;
mod embed;
mod graph;
mod name;
mod twisted;

pub use cayley::{CayleyFamily, CayleyGroup};
pub use edges::msccl_topology::{looks_like_topology, parse_topology, topology_json};
pub use edges::{EdgesError, EdgesErrorKind, parse_edges, read_edges};
pub use embed::{Embedding, NetworkMismatch, embed, infer, validate_links};
pub use graph::fabric::{
    Fabric, FabricError, FabricSpec, LinkTiming, MAX_CAPACITY, MAX_LINK_TIME, MAX_SWITCH_LIMITS,
    MAX_SWITCH_MEMBERS, SwitchLimit,
};
pub use graph::{
    DistanceSums, DistanceTable, Graph, Topology, UNREACHABLE, torus_distance, torus_distances_from,
};
pub use name::fabrics::{FabricName, MAX_FABRIC_NODES};
pub use name::{NameError, NetworkError, NetworkName};
pub use twisted::SHAPES as TWISTED_SHAPES;
pub use twisted::next_permutation;

/// The largest number of nodes a network may have.
///
/// Node and directed-link ids are `u32`; this bound keeps both far from overflow
/// and keeps per-node tables of the simulator and the replay within memory.
pub const MAX_NODES: usize = 1 << 24;

/// A node or element not mapped yet, in the maps the embeddings build.
const NONE: u32 = u32::MAX;

/// The largest number of directed links a network may have.
pub const MAX_DIRECTED_LINKS: usize = 1 << 30;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_print_as_they_parse() {
        for text in [
            "ring 4",
            "linear 7",
            "torus 4 5",
            "mesh 2 3 4",
            "hypercube 3",
            "complete 6",
            "genhypercube 2 3",
            "star 4",
            "pancake 5",
            "ccc 3",
            "butterfly 4",
            "ring 4 x ring 3",
            "star 3 x linear 2 x complete 3",
        ] {
            let name: NetworkName = text.parse().unwrap();
            assert_eq!(name.to_string(), text);
            assert_eq!(name.to_string().parse::<NetworkName>(), Ok(name));
        }
        assert_eq!(
            "  mesh  2   2 ".parse::<NetworkName>().unwrap().to_string(),
            "mesh 2 2"
        );
        assert_eq!(
            "kary 3 2".parse::<NetworkName>().unwrap(),
            NetworkName::Torus(vec![3, 3])
        );
    }

    #[test]
    fn bad_names_are_typed_errors() {
        let err = |s: &str| s.parse::<NetworkName>().unwrap_err();
        assert_eq!(err(""), NetworkError::Empty);
        assert!(matches!(err("moebius 4"), NetworkError::UnknownFamily(_)));
        assert!(matches!(err("ring x"), NetworkError::BadSize(_)));
        assert!(matches!(err("ring 1"), NetworkError::TooSmall { .. }));
        assert!(matches!(err("ring 3 3"), NetworkError::WrongArity { .. }));
        assert!(matches!(err("torus"), NetworkError::WrongArity { .. }));
        assert!(matches!(err("kary 1 3"), NetworkError::TooSmall { .. }));
        assert!(matches!(err("ccc 2"), NetworkError::TooSmall { .. }));
        assert!(matches!(err("star 12"), NetworkError::TooLarge));
        assert!(matches!(err("hypercube 40"), NetworkError::TooLarge));
        assert!(matches!(err("mesh 65536 65536"), NetworkError::TooLarge));
        assert!(matches!(err("complete 100000"), NetworkError::TooLarge));
        assert!("ring 4 x".parse::<NetworkName>().is_err());
        assert!("x ring 4".parse::<NetworkName>().is_err());
    }

    #[test]
    fn errors_point_at_the_word_at_fault() {
        let at = |s: &str| {
            let e = NetworkName::parse_spanned(s).unwrap_err();
            (s[e.span.clone()].to_string(), e.error)
        };
        assert_eq!(
            at("ring four"),
            ("four".into(), NetworkError::BadSize("four".into()))
        );
        assert_eq!(at("moebius 4").0, "moebius");
        assert_eq!(at("torus 4 1").0, "1");
        assert_eq!(at("ring 4 x torus 3 1").0, "1");
        assert_eq!(at("ring 4 x star three").0, "three");
        assert_eq!(at("ring 3 3").0, "3 3");
        assert_eq!(at("ring 4 x ring 3 x").0, "x");
        assert_eq!(at("star 12").0, "star 12");
        let e = NetworkName::parse_spanned("  ring 1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`ring` needs sizes of at least 2, not 1 (at column 8)"
        );
    }

    #[test]
    fn family_names_are_read_in_any_case() {
        assert_eq!("Ring 5".parse(), Ok(NetworkName::Ring(5)));
        assert_eq!("TORUS 3 4".parse(), Ok(NetworkName::Torus(vec![3, 4])));
        assert_eq!(
            "ring 3 X Star 3"
                .parse::<NetworkName>()
                .unwrap()
                .to_string(),
            "ring 3 x star 3"
        );
    }

    #[test]
    fn table_networks_are_tori() {
        for (name, sides) in [
            ("ring 6", vec![6]),
            ("hypercube 3", vec![2, 2, 2]),
            ("hypercube 0", vec![]),
            ("torus 3 4", vec![3, 4]),
        ] {
            let name: NetworkName = name.parse().unwrap();
            assert_eq!(name.torus_sides(), Ok(sides));
            let graph = name.build().unwrap();
            assert_eq!(graph.label(), name.to_string());
            assert!(matches!(graph.topology(), Topology::Torus { .. }));
        }
        for name in [
            NetworkName::Ring(0),
            NetworkName::Ring(1),
            NetworkName::Torus(vec![]),
            NetworkName::Torus(vec![4, 1]),
            NetworkName::Hypercube(64),
            NetworkName::Torus(vec![1 << 13, 1 << 13]),
            NetworkName::Mesh(vec![3, 3]),
        ] {
            assert!(name.torus_sides().is_err(), "{name}");
        }
        assert_eq!(
            NetworkName::Mesh(vec![3, 3]).torus_sides(),
            Err(NetworkError::NotATorus("mesh 3 3".into()))
        );
    }
}
