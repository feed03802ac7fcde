//! `txverify net FAMILY SIZE… [-o FILE]`: a network family, or a product of
//! families (`'star 3 x ring 4'`), as a `.tbl` header (group presentation,
//! links, `network:` where one applies) for `check`, `simulate`, `search` and
//! `bounds`.

use super::exit::Exit;
use super::{BoundsArgs, NetArgs, OutputFormat};
use std::fmt::Write;

use txverify_clients::product::header::product_header;
use txverify_core::families::Family;
use txverify_core::metrics::metrics;
use txverify_core::network::{NetworkName, infer};

pub fn run(args: &NetArgs) -> Exit {
    let header = match header_of(args) {
        Ok(header) => header,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Input;
        }
    };
    match &args.output {
        Some(path) => match std::fs::write(path, &header) {
            Ok(()) => Exit::Ok,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                Exit::Input
            }
        },
        None => {
            out!("{header}");
            Exit::Ok
        }
    }
}

/// The header of a family, or of a product of families when the words hold
/// an `x` (`net 'star 3 x ring 4'`, `net star 3 x ring 4`): the words are one
/// network name (docs/networks.md).
fn header_of(args: &NetArgs) -> Result<String, String> {
    let text = std::iter::once(args.family.as_str())
        .chain(args.sizes.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let network = NetworkName::parse_spanned(&text).map_err(|e| format!("`{text}`: {e}"))?;
    match network {
        NetworkName::Product(_) => product_header(&network).map_err(|e| e.to_string()),
        _ => Family::of_network(&network)
            .map(|f| f.header())
            .map_err(|e| e.to_string()),
    }
}

/// The JSON schema of `bounds`.
const BOUNDS_SCHEMA: &str = "txverify-bounds/2";

/// `txverify bounds FILE… [--ports K]`: the metrics of each file's Cayley graph.
pub fn bounds(args: &BoundsArgs) -> Exit {
    let mut worst = Exit::Ok;
    for path in &args.files {
        worst = worst.max(bounds_of(path, args));
    }
    for network in &args.network {
        let exit = match network.name() {
            Ok(name) => super::network_bounds::network_bounds_of(&name.to_string(), args),
            Err(e) => {
                eprintln!("error: --network {e}");
                Exit::Input
            }
        };
        worst = worst.max(exit);
    }
    worst
}

fn bounds_of(path: &std::path::Path, args: &BoundsArgs) -> Exit {
    let shown = path.display().to_string();
    let Some(loaded) = super::check::read_and_load(path, &Default::default(), args.format) else {
        return Exit::Input;
    };
    let instance = &loaded.instance;
    let network = loaded.network.clone().or_else(|| {
        instance
            .defects()
            .is_empty()
            .then(|| infer(instance.group(), instance.links()).map(|(kind, _)| kind))
            .flatten()
    });
    let m = match metrics(instance, network.as_ref(), args.ports) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            return Exit::Input;
        }
    };
    match args.format {
        OutputFormat::Json => {
            let cut = m.cut_bound.as_ref().map(|c| {
                serde_json::json!({
                    "value": c.steps(),
                    "dimension": c.dimension,
                    "smaller_side": c.side,
                    "larger_side": c.other_side,
                    "crossing_links": c.edges,
                })
            });
            let value = serde_json::json!({
                "schema": BOUNDS_SCHEMA,
                "file": shown,
                "network": network.as_ref().map(ToString::to_string),
                "order": m.order,
                "degree": m.degree,
                "diameter": m.diameter,
                "status": m.status,
                "average_distance": m.average_distance,
                "ports": m.ports,
                "single_port_bound": m.single_port_bound,
                "all_port_bound": m.all_port_bound,
                "cut_bound": cut,
            });
            outln!("{value}");
        }
        OutputFormat::Text => {
            let mut out = String::new();
            let _ = writeln!(out, "{shown}");
            if let Some(kind) = &network {
                let _ = writeln!(out, "  network            {kind}");
            }
            let _ = writeln!(
                out,
                "  order {}, degree {}, diameter {}",
                m.order, m.degree, m.diameter
            );
            let _ = writeln!(
                out,
                "  status             {} (average distance {:.4})",
                m.status, m.average_distance
            );
            let used = m.ports.min(m.degree as u64);
            let port_note = if m.ports == 1 {
                "single-port: the status".to_string()
            } else if used < m.ports {
                format!(
                    "{}-port, no more ports than the degree: ⌈status / {used}⌉",
                    m.ports
                )
            } else {
                format!("{}-port: ⌈status / {}⌉", m.ports, m.ports)
            };
            let _ = writeln!(
                out,
                "  single-port bound  {} ({port_note})",
                m.single_port_bound
            );
            match m.all_port_bound {
                Some(b) => {
                    let _ = writeln!(
                        out,
                        "  all-port bound     {b} (the kernel's bound for tables)"
                    );
                }
                None => {
                    let _ = writeln!(out, "  all-port bound     none (the link set is defective)");
                }
            }
            if let Some(c) = &m.cut_bound {
                let _ = writeln!(
                    out,
                    "  cut bound          {} (dimension {}: {} × {} / {} links)",
                    c.steps(),
                    c.dimension.unwrap_or(0),
                    c.side,
                    c.other_side,
                    c.edges
                );
            }
            out!("{out}");
        }
    }
    Exit::Ok
}
