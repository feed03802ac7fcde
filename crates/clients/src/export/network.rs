//! `txverify net NAME`: a network's definition, written for other tools.
//!
//! A family (or a product of families) is written as a `.tbl` header; a
//! fabric (`dgx1`, `hub-and-spoke N`, `nvswitch N`, `cluster K B MACHINE`) or
//! an edge list (`edges FILE`, an msccl-tools topology included) as
//! msccl-tools topology JSON (`links[dst][src]` capacities and switch limits,
//! `txverify_core::network::topology_json`), which SCCL reads with its
//! `custom --topology-file` and txverify reads back as `edges FILE`.

use crate::product::header::product_header;
use txverify_core::families::Family;
use txverify_core::network::{NetworkName, topology_json};

/// The definition of `network`: a `.tbl` header or, for a fabric or an edge
/// list, msccl-tools topology JSON (one line, newline-terminated); the error
/// is one line.
pub fn network_definition(network: &NetworkName) -> Result<String, String> {
    match network {
        NetworkName::Product(_) => product_header(network).map_err(|e| e.to_string()),
        NetworkName::Fabric(_) | NetworkName::Edges(_) => {
            let graph = network.build().map_err(|e| format!("`{network}`: {e}"))?;
            Ok(format!("{}\n", topology_json(&graph, &network.to_string())))
        }
        _ => Family::of_network(network)
            .map(|f| f.header())
            .map_err(|e| e.to_string()),
    }
}
