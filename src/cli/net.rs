//! `txverify net FAMILY SIZE… [-o FILE]`: a network family as a `.tbl` header
//! (group presentation, links, `network:` where one applies) for `check`,
//! `simulate`, `search` and `bounds`.

use super::exit::Exit;
use super::{BoundsArgs, NetArgs, OutputFormat};
use std::fmt::Write;
use txverify::bounds::{Cut, distance};
use txverify::families::Family;
use txverify::metrics::metrics;
use txverify::network::infer;

pub fn run(args: &NetArgs) -> Exit {
    let family = match Family::new(&args.family, &args.sizes) {
        Ok(family) => family,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Input;
        }
    };
    let header = family.header();
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

/// The JSON schema of `bounds`.
const BOUNDS_SCHEMA: &str = "txverify-bounds/2";

/// `txverify bounds FILE… [--ports K]`: the metrics of each file's Cayley graph.
pub fn bounds(args: &BoundsArgs) -> Exit {
    let mut worst = Exit::Ok;
    for path in &args.files {
        worst = worst.max(bounds_of(path, args));
    }
    for network in &args.network {
        worst = worst.max(network_bounds_of(network, args));
    }
    worst
}

/// The JSON schema of `bounds --network`.
const NETWORK_BOUNDS_SCHEMA: &str = "txverify-network-bounds/2";

/// `bounds --network NET`: a product network's status by search and by seed
/// 000's Theorem 1 and Corollary 2 (they must agree: exit 3 if not), and its
/// cut bounds.
fn network_bounds_of(words: &str, args: &BoundsArgs) -> Exit {
    let fail = |message: String| {
        eprintln!("error: {message}");
        if args.format == OutputFormat::Json {
            let value = serde_json::json!({
                "schema": NETWORK_BOUNDS_SCHEMA,
                "network": words,
                "error": { "message": message },
                "exit_code": Exit::Input.code(),
            });
            outln!("{value}");
        }
        Exit::Input
    };
    if args.ports == 0 {
        return fail("--ports must be at least 1".to_string());
    }
    let network = match words.parse::<txverify::network::NetworkName>() {
        Ok(network) => network,
        Err(e) => return fail(format!("`{words}`: {e}")),
    };
    let b = match txverify::product::bounds::network_bounds(&network, args.ports) {
        Ok(b) => b,
        Err(e) => return fail(e.to_string()),
    };
    let agree =
        b.status_by_theorem == Some(b.status) && b.total_status_by_theorem == Some(b.total_status);
    let single_port = distance::distance_bound(b.total_status, b.port_capacity);
    let link_load = distance::distance_bound(b.total_status, b.directed_links);
    let cut_steps = b.dimension_cut.as_ref().map(Cut::steps);
    let all_port = link_load.max(cut_steps.unwrap_or(0));
    let cut_text = cut_steps.map_or("not computed".to_string(), |c| c.to_string());
    match args.format {
        OutputFormat::Json => {
            let value = serde_json::json!({
                "schema": NETWORK_BOUNDS_SCHEMA,
                "network": network.to_string(),
                "order": b.order,
                "degree": b.degree,
                "diameter": b.diameter,
                "status": b.status,
                "status_by_theorem": b.status_by_theorem,
                "total_status": b.total_status,
                "total_status_by_theorem": b.total_status_by_theorem,
                "statuses_agree": agree,
                "average_status": b.average_status.value(),
                "average_distance": b.average_distance,
                "average_distance_closed_form": b.average_distance_closed_form,
                "ports": args.ports,
                "single_port_bound": single_port,
                "all_port_bound": all_port,
                "dimension_cut": super::compose::cut_json(&b.dimension_cut),
                "exhaustive_cut": super::compose::cut_json(&b.exhaustive_cut),
            });
            outln!("{value}");
        }
        OutputFormat::Text => {
            let mut out = String::new();
            let _ = writeln!(out, "{network}");
            let _ = writeln!(
                out,
                "  order {}, degree {}, diameter {}",
                b.order, b.degree, b.diameter
            );
            let by_theorem = |x: Option<u64>| x.map_or("-".to_string(), |v| v.to_string());
            let _ = writeln!(
                out,
                "  status of node 0   {} (Theorem 1: {})",
                b.status,
                by_theorem(b.status_by_theorem)
            );
            let _ = writeln!(
                out,
                "  average status     {:.4} (Σ s(v) = {}; Corollary 2: {})",
                b.average_status.value(),
                b.total_status,
                by_theorem(b.total_status_by_theorem)
            );
            let _ = write!(out, "  average distance   {:.4}", b.average_distance);
            if let Some(closed) = b.average_distance_closed_form {
                let _ = write!(out, " (closed form, section 3.1: {closed:.4})");
            }
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "  single-port bound  {single_port} ({})",
                if args.ports == 1 {
                    "⌈AS(G) / 1⌉".to_string()
                } else {
                    format!(
                        "{}-port: ⌈Σ s(v) / Σ min({}, degree)⌉",
                        args.ports, args.ports
                    )
                }
            );
            let _ = writeln!(
                out,
                "  all-port bound     {all_port} (link load {link_load}, one-dimension cut {cut_text})"
            );
            if let Some(c) = &b.exhaustive_cut {
                let _ = writeln!(
                    out,
                    "  best bisection     {} · {} / {} = {:.4} (every bisection tried)",
                    c.side,
                    c.other_side,
                    c.edges,
                    c.ratio.value()
                );
            }
            out!("{out}");
        }
    }
    if agree {
        Exit::Ok
    } else {
        eprintln!("error: {network}: the status by search and by the seed's formulas differ");
        Exit::Internal
    }
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
