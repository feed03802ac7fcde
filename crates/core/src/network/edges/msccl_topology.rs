//! msccl-tools' topology JSON, read and written.
//!
//! msccl-tools (SCCL) serialises a topology as
//! `{"msccl_type": "topology", "name": …, "switches": [[srcs, dsts, b, name], …],
//! "links": [[…], …]}`: `links[dst][src]` is the bandwidth of the link from `src`
//! to `dst` in chunks a step (0: no link), a square matrix; a switch says that
//! at most `b` sends a step go from one of `srcs` to one of `dsts`. txverify
//! reads it as a [`Graph`] with a fabric (`fabric.rs`): a link with bandwidth
//! `b > 0` has capacity `b`. txverify's networks are undirected, so a link must
//! go both ways (its two capacities may differ). Two keys of txverify's own,
//! which msccl-tools ignores, keep what its topologies cannot say:
//! `"forward_only": [nodes]` and `"multicast": true|false`.
//!
//! Every fault is refused with the line and column where the reader met it
//! (the end of the value at fault): a bandwidth that is negative, not a whole
//! number or above [`MAX_CAPACITY`], a matrix that is not square, a node
//! linked to itself, a link one way only, a switch naming a node that is not
//! one, a limit of 0.

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use std::cell::Cell;
use std::fmt;

use super::super::MAX_NODES;
use super::super::graph::fabric::{FabricSpec, MAX_CAPACITY, SwitchLimit};
use super::super::graph::{Graph, Topology};
use super::{EdgesError, EdgesErrorKind};

thread_local! {
    /// The node count of the topology being read (its number of rows), for
    /// the checks made while its values are read.
    static NODES: Cell<usize> = const { Cell::new(0) };
}

/// Whether `text` is an msccl-tools topology: a JSON object whose first
/// `"msccl_type"` is `"topology"` (an algorithm's is `"algorithm"`, and comes first).
pub fn looks_like_topology(text: &str) -> bool {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text).trim_start();
    if !body.starts_with('{') {
        return false;
    }
    body.find("\"msccl_type\"").is_some_and(|at| {
        let rest = body[at + "\"msccl_type\"".len()..].trim_start();
        rest.strip_prefix(':')
            .is_some_and(|r| r.trim_start().starts_with("\"topology\""))
    })
}

#[derive(serde::Deserialize)]
struct RawTopology {
    #[allow(dead_code)]
    msccl_type: String,
    links: Links,
    #[serde(default)]
    switches: Vec<RawSwitch>,
    #[serde(default)]
    forward_only: Vec<Node>,
    #[serde(default)]
    multicast: bool,
}

#[derive(serde::Deserialize)]
struct RawSwitch(Vec<Node>, Vec<Node>, Limit, String);

/// The rows of `links`, checked as they are read.
struct Links(Vec<Vec<u32>>);

struct Node(u32);
struct Limit(u32);
struct Bandwidth(u32);

fn nodes() -> usize {
    NODES.with(Cell::get)
}

impl<'de> Deserialize<'de> for Links {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Links, D::Error> {
        struct Rows;
        impl<'de> Visitor<'de> for Rows {
            type Value = Links;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a square matrix of bandwidths, links[dst][src]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Links, A::Error> {
                let n = nodes();
                let mut rows: Vec<Vec<u32>> = Vec::new();
                while let Some(row) = seq.next_element::<Vec<Bandwidth>>()? {
                    let dst = rows.len();
                    if row.len() != n {
                        return Err(de::Error::custom(format!(
                            "links[{dst}] has {} entries: the matrix is not square ({n} rows, links[dst][src])",
                            row.len()
                        )));
                    }
                    let row: Vec<u32> = row.into_iter().map(|b| b.0).collect();
                    if row[dst] != 0 {
                        return Err(de::Error::custom(format!(
                            "links[{dst}][{dst}] is {}: a node linked to itself",
                            row[dst]
                        )));
                    }
                    for (src, earlier) in rows.iter().enumerate() {
                        if (row[src] > 0) != (earlier[dst] > 0) {
                            let (a, b) = (row[src], earlier[dst]);
                            return Err(de::Error::custom(format!(
                                "links[{dst}][{src}] is {a} but links[{src}][{dst}] is {b}: a link goes both ways (its bandwidths may differ)"
                            )));
                        }
                    }
                    rows.push(row);
                }
                Ok(Links(rows))
            }
        }
        d.deserialize_seq(Rows)
    }
}

/// A whole number from `least` to `most`, or the error `what` says.
fn whole<E: de::Error>(v: u64, least: u64, what: &str) -> Result<u32, E> {
    if v < least {
        return Err(E::custom(format!("{what} {v}: at least {least}")));
    }
    if v > u64::from(MAX_CAPACITY) {
        return Err(E::custom(format!("{what} {v} is more than {MAX_CAPACITY}")));
    }
    Ok(v as u32)
}

macro_rules! whole_number {
    ($type:ident, $least:expr, $what:expr) => {
        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$type, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $type;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        write!(f, "a {} (a whole number ≥ {})", $what, $least)
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$type, E> {
                        whole(v, $least, $what).map($type)
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$type, E> {
                        match u64::try_from(v) {
                            Ok(v) => self.visit_u64(v),
                            Err(_) => Err(E::custom(format!(
                                "{} {v}: a {} is not negative",
                                $what, $what
                            ))),
                        }
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$type, E> {
                        Err(E::custom(format!(
                            "{} {v}: a {} is a whole number from {} to {MAX_CAPACITY}",
                            $what, $what, $least
                        )))
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

whole_number!(Bandwidth, 0, "bandwidth");
whole_number!(Limit, 1, "switch bandwidth");

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        let v = u64::deserialize(d)?;
        let n = nodes();
        if v >= n as u64 {
            return Err(de::Error::custom(format!(
                "node {v} is not a node of the topology (0 … {})",
                n.saturating_sub(1)
            )));
        }
        Ok(Node(v as u32))
    }
}

/// Reads an msccl-tools topology; `shown` names the file in errors.
pub fn parse_topology(text: &str, shown: &str) -> Result<Graph, EdgesError> {
    let fail = |line: usize, column: usize, message: String| EdgesError {
        path: shown.to_string(),
        line,
        column,
        kind: EdgesErrorKind::Topology(message),
    };
    let json = |e: serde_json::Error| {
        fail(
            e.line().max(1),
            e.column().max(1),
            crate::format::json_error_message(&e),
        )
    };
    // First the syntax, and the node count (the rows of `links`).
    let value: serde_json::Value = serde_json::from_str(text).map_err(json)?;
    let n = value
        .get("links")
        .and_then(serde_json::Value::as_array)
        .map_or(0, Vec::len);
    if n == 0 {
        return Err(fail(1, 1, "the topology has no `links` rows".into()));
    }
    if n > MAX_NODES {
        return Err(fail(1, 1, EdgesErrorKind::TooLarge.to_string()));
    }
    NODES.with(|c| c.set(n));
    let raw: Result<RawTopology, _> = serde_json::from_str(text);
    NODES.with(|c| c.set(0));
    let raw = raw.map_err(json)?;
    let rows = raw.links.0;
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut fabric = FabricSpec {
        multicast: raw.multicast,
        forward_only: raw.forward_only.iter().map(|x| x.0).collect(),
        ..FabricSpec::default()
    };
    for (dst, row) in rows.iter().enumerate() {
        for (src, &b) in row.iter().enumerate() {
            if b > 0 {
                lists[src].push(dst as u32);
                if b != 1 {
                    fabric
                        .capacities
                        .push((src as u32, dst as u32, u64::from(b)));
                }
            }
        }
    }
    fabric.limits = raw
        .switches
        .into_iter()
        .map(
            |RawSwitch(sources, destinations, limit, name)| SwitchLimit {
                name,
                sources: sources.into_iter().map(|x| x.0).collect(),
                destinations: destinations.into_iter().map(|x| x.0).collect(),
                sends: limit.0,
            },
        )
        .collect();
    let graph = Graph::from_ports(shown, Topology::General, lists)
        .map_err(|e| fail(1, 1, format!("the links do not give a network: {e}")))?;
    graph
        .with_fabric(fabric)
        .map_err(|e| fail(1, 1, e.to_string()))
}

/// `graph` and its fabric as msccl-tools topology JSON named `name`:
/// `links[dst][src]` the capacity of each link (0 for none), the switch
/// limits, and txverify's `forward_only` and `multicast` when there are
/// switches. One switch and one row of `links` a line, so that no line is
/// longer than the edge-list reader takes.
pub fn topology_json(graph: &Graph, name: &str) -> String {
    let n = graph.nodes();
    let mut links = vec![vec![0u32; n]; n];
    for l in 0..graph.directed_links() as u32 {
        let (src, dst) = graph.endpoints(l);
        links[dst as usize][src as usize] = graph.capacity(l);
    }
    let text = |v: serde_json::Value| v.to_string();
    let lines = |items: Vec<String>| match items.is_empty() {
        true => "[]".to_string(),
        false => format!("[\n{}\n]", items.join(",\n")),
    };
    let switches: Vec<String> = graph
        .fabric()
        .limits()
        .iter()
        .map(|s| {
            text(serde_json::json!([
                s.sources,
                s.destinations,
                s.sends,
                s.name
            ]))
        })
        .collect();
    let rows: Vec<String> = links.iter().map(|r| text(serde_json::json!(r))).collect();
    let mut out = format!(
        "{{\"msccl_type\": \"topology\", \"name\": {},\n\"switches\": {},\n",
        text(serde_json::json!(name)),
        lines(switches)
    );
    if graph.fabric().has_forward_only() {
        let switches: Vec<u32> = (0..n as u32)
            .filter(|&x| graph.is_forward_only(x))
            .collect();
        out.push_str(&format!(
            "\"forward_only\": {}, \"multicast\": {},\n",
            text(serde_json::json!(switches)),
            graph.fabric().multicast()
        ));
    }
    out.push_str(&format!("\"links\": {}}}", lines(rows)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DGX1: &str = r#"{"msccl_type": "topology", "name": "DGX1", "switches": [], "links": [
[0, 2, 1, 1, 2, 0, 0, 0],
[2, 0, 1, 2, 0, 1, 0, 0],
[1, 1, 0, 2, 0, 0, 2, 0],
[1, 2, 2, 0, 0, 0, 0, 1],
[2, 0, 0, 0, 0, 2, 1, 1],
[0, 1, 0, 0, 2, 0, 1, 2],
[0, 0, 2, 0, 1, 1, 0, 2],
[0, 0, 0, 1, 1, 2, 2, 0]]}"#;

    #[test]
    fn the_dgx1_topology_reads_with_its_doubled_pairs() {
        assert!(looks_like_topology(DGX1));
        let g = parse_topology(DGX1, "dgx1.json").unwrap();
        assert_eq!((g.nodes(), g.directed_links()), (8, 32));
        let doubled = (0..32).filter(|&l| g.capacity(l) == 2).count();
        assert_eq!(doubled, 16);
        assert_eq!(g.capacity(g.link(0, 1).unwrap()), 2);
        assert_eq!(g.capacity(g.link(0, 2).unwrap()), 1);
        // Written out and read back: the same links and capacities.
        let again = parse_topology(&topology_json(&g, "DGX1"), "again").unwrap();
        assert_eq!(again, g);
        assert_eq!(again.fabric_spec(), g.fabric_spec());
        let value: serde_json::Value = serde_json::from_str(&topology_json(&g, "DGX1")).unwrap();
        assert_eq!(value["links"][0][1], 2);
        assert_eq!(value["msccl_type"], "topology");
    }

    #[test]
    fn hostile_topologies_are_refused_where_the_fault_is() {
        let err = |text: &str| parse_topology(text, "t.json").unwrap_err();
        let head = r#"{"msccl_type": "topology", "links": "#;
        for (links, words) in [
            ("[[0, 0], [1, 0]]", "both ways"),
            ("[[0, 1], [1, 0, 1]]", "not square"),
            ("[[0, -1], [1, 0]]", "not negative"),
            ("[[0, 18446744073709551616], [1, 0]]", "whole number"),
            ("[[0, 70000], [1, 0]]", "more than 65536"),
            ("[[1, 1], [1, 0]]", "linked to itself"),
            ("[[0, 1.5], [1, 0]]", "whole number"),
        ] {
            let e = err(&format!("{head}{links}}}"));
            assert_eq!(e.line, 1, "{links}: {e}");
            assert!(e.column > head.len(), "{links}: {e}");
            assert!(e.to_string().contains(words), "{links}: {e}");
        }
        let e = err(&format!(
            "{head}[[0, 1],\n [1, 0]], \"switches\": [[[0], [9], 1, \"s\"]]}}"
        ));
        assert_eq!(e.line, 2, "{e}");
        assert!(e.to_string().contains("node 9 is not a node"), "{e}");
        let e = err(&format!(
            "{head}[[0, 1], [1, 0]], \"switches\": [[[0], [1], 0, \"s\"]]}}"
        ));
        assert!(e.to_string().contains("at least 1"), "{e}");
        let e = err(&format!("{head}[[0, 1], [1, 0]"));
        assert!(e.to_string().contains("EOF"), "{e}");
    }
}
