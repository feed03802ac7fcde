//! The tables shipped in `tables/` and `tables/found/`, embedded in the binary
//! at build time, and the search for one that fits a given network.
//!
//! Users run txverify outside the repository, so the known optimal tables
//! (`tables/found/star4.tbl`, 21 steps on the star graph of 24 nodes) travel
//! inside the binary. A table is matched to a network by its graph, not by its
//! file name: the table's Cayley graph (or the network its `network:` line
//! names) and the network are both built by the network layer, and a node map
//! between them is accepted only when [`Embedding::new`] (the one isomorphism
//! check) verifies it edge by edge. A matching table is then checked by the
//! kernel before it is played out as a schedule; nothing here is trusted, and
//! callers replay the schedule on the network again.

mod entries;
mod matching;

pub use entries::ENTRIES;

use crate::check::simulation_words;
use crate::export::table_schedule;
use txverify_core::kernel::{self, MessageSpec, Verdict};
use txverify_core::load::{LoadOptions, Loaded, load};
use txverify_core::network::{Embedding, Graph, NetworkName};
use txverify_core::schedule::{Ports, TimedSend};

/// One embedded table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path in the repository (`tables/found/star4.tbl`).
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
}

/// An embedded table that fits a network: checked by the kernel and played
/// out as timed sends in the network's own node numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSchedule {
    /// The table's path in the repository.
    pub path: &'static str,
    /// The table's time (its last column), as the kernel counted it.
    pub time: u32,
    /// The ports the table uses at most per node and step (its `ports:`).
    pub ports: usize,
    /// Whether the kernel found the time equal to its lower bound.
    pub kernel_optimal: bool,
    /// The sends, on the network's nodes.
    pub sends: Vec<TimedSend>,
}

/// The fastest embedded total-exchange table for `graph` (built from
/// `network`) usable under `ports`, or `None` when no table fits.
///
/// A table fits when its group has as many elements as the graph has nodes,
/// its message set is total exchange, it uses no more ports than allowed, a
/// verified isomorphism maps its Cayley graph onto the graph, and the kernel
/// finds it valid. Ties go to the first table in [`ENTRIES`].
pub fn best_table(network: &NetworkName, graph: &Graph, ports: Ports) -> Option<TableSchedule> {
    let mut best: Option<TableSchedule> = None;
    for entry in ENTRIES {
        if let Some(found) = fit(entry, network, graph, ports)
            && best.as_ref().is_none_or(|b| found.time < b.time)
        {
            best = Some(found);
        }
    }
    best
}

/// Every embedded table loaded, with its path (for tests and listings).
pub fn loaded_entries() -> impl Iterator<Item = (&'static str, Option<Loaded>)> {
    ENTRIES
        .iter()
        .map(|e| (e.path, load(e.text, &LoadOptions::default()).ok()))
}

/// `entry` played out on `graph`, if it fits (see [`best_table`]).
fn fit(entry: &Entry, network: &NetworkName, graph: &Graph, ports: Ports) -> Option<TableSchedule> {
    let loaded = load(entry.text, &LoadOptions::default()).ok()?;
    let instance = &loaded.instance;
    let links = instance.links();
    if !matches!(instance.message_spec(), MessageSpec::Total)
        || instance.group().order() != graph.nodes()
        || graph.regular_degree() != Some(links.len())
    {
        return None;
    }
    let used_ports = instance.ports().min(links.len());
    if let Ports::Limit(k) = ports
        && used_ports > k as usize
    {
        return None;
    }
    let node_of = matching::node_map(instance, loaded.network.as_ref(), graph)?;
    let embedding = Embedding::new(
        instance.group(),
        links,
        graph.clone(),
        Some(network.clone()),
        node_of,
    )
    .ok()?;
    let checked = kernel::check(instance, &loaded.table, &[]);
    if checked.verdict() == Verdict::Invalid {
        return None;
    }
    let words = simulation_words(instance, &loaded.table).ok()?;
    let schedule = table_schedule(&words.input(instance, &embedding), instance.ports()).ok()?;
    Some(TableSchedule {
        path: entry.path,
        time: u32::try_from(checked.time()).ok()?,
        ports: used_ports,
        kernel_optimal: checked.verdict() == Verdict::Optimal,
        sends: schedule.sends,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_file_is_embedded_and_loads() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut on_disk = Vec::new();
        for dir in ["tables", "tables/found"] {
            for file in std::fs::read_dir(root.join(dir)).unwrap() {
                let name = file.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".tbl") {
                    on_disk.push(format!("{dir}/{name}"));
                }
            }
        }
        on_disk.sort();
        let mut embedded: Vec<String> = ENTRIES.iter().map(|e| e.path.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
        for (path, loaded) in loaded_entries() {
            assert!(loaded.is_some(), "{path} does not load");
        }
    }

    #[test]
    fn star_4_gets_the_optimal_table_and_a_path_gets_none() {
        let star: NetworkName = "star 4".parse().unwrap();
        let graph = star.build().unwrap();
        let found = best_table(&star, &graph, Ports::All).unwrap();
        assert_eq!(found.path, "tables/found/star4.tbl");
        assert_eq!(found.time, 21);
        assert!(found.kernel_optimal);
        // Single-port: the table uses three ports, so it does not fit.
        assert!(best_table(&star, &graph, Ports::Limit(1)).is_none());
        let path: NetworkName = "linear 6".parse().unwrap();
        assert!(best_table(&path, &path.build().unwrap(), Ports::All).is_none());
    }
}
