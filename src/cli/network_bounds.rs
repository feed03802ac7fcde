//! `txverify bounds --network NET`: the lower bounds of a named network, any
//! network (an edge list, a mesh, a Cayley family, a product), and for a
//! product of families its statuses by seed 000's formulas as well.
//!
//! Every network gets [`txverify_core::bounds::general`]'s figures: degrees,
//! diameter, the all-pairs distance bound, the intake bound and the best cut
//! found (exhaustive or heuristic, said which, with its side named). A
//! product of families also gets the statuses by Theorem 1 and Corollary 2,
//! which must agree with the search (exit 3 if not), and its one-dimension
//! cut.

use super::exit::Exit;
use super::{BoundsArgs, OutputFormat};
use std::fmt::Write;
use txverify_clients::product::ProductError;
use txverify_clients::product::bounds::NetworkBounds;
use txverify_core::bounds::Cut;
use txverify_core::bounds::cut_search::FoundCut;
use txverify_core::bounds::general::{GraphBounds, graph_bounds};
use txverify_core::network::NetworkName;

/// The JSON schema of `bounds --network`.
const NETWORK_BOUNDS_SCHEMA: &str = "txverify-network-bounds/3";

/// What `bounds --network` reports about one network (and `compare` reuses).
pub(super) struct Figures {
    pub(super) network: NetworkName,
    pub(super) general: GraphBounds,
    /// The seed's figures, for a product of families.
    pub(super) product: Option<NetworkBounds>,
}

impl Figures {
    /// The figures of `network`, built as `graph`, under `ports` ports: the
    /// general ones, and the seed's for a product of families.
    pub(super) fn of(
        network: NetworkName,
        graph: &txverify_core::network::Graph,
        ports: u64,
    ) -> Result<Figures, ProductError> {
        // A network that is not a product of families (an edge list, a twisted
        // torus) has the general figures only: no factor statuses to check.
        let product = match txverify_clients::product::bounds::network_bounds(&network, ports) {
            Ok(b) => Some(b),
            Err(ProductError::NotAProduct(_)) => None,
            Err(e) => return Err(e),
        };
        Ok(Figures {
            general: graph_bounds(graph, ports),
            network,
            product,
        })
    }

    pub(super) fn statuses_agree(&self) -> Option<bool> {
        self.product.as_ref().map(|b| {
            b.status_by_theorem == Some(b.status)
                && b.total_status_by_theorem == Some(b.total_status)
        })
    }

    pub(super) fn all_port_bound(&self) -> u64 {
        let dimension = self.dimension_cut().map_or(0, Cut::steps);
        self.general.all_port_bound().max(dimension)
    }

    pub(super) fn ports_bound(&self) -> u64 {
        self.general.ports_bound().max(self.all_port_bound())
    }

    fn dimension_cut(&self) -> Option<&Cut> {
        self.product.as_ref()?.dimension_cut.as_ref()
    }
}

/// Refuses a network whose all-pairs distances are over
/// [`txverify_core::bounds::general::MAX_ALL_PAIRS_WORK`], from its name, before
/// it is built (an edge list is read to count its links).
pub(super) fn refuse_all_pairs_over_limit(network: &NetworkName) -> Result<(), String> {
    let nodes = network.nodes().map_err(|e| format!("`{network}`: {e}"))? as u64;
    let links = network
        .directed_links_bound()
        .map_err(|e| format!("`{network}`: {e}"))?;
    txverify_core::bounds::general::check_all_pairs(nodes, links)
        .map_err(|e| format!("`{network}`: {e}"))
}

/// `bounds --network NET`: exit 0, 2 for a name or file that gives no network,
/// 3 when the statuses by search and by formula differ.
pub fn network_bounds_of(words: &str, args: &BoundsArgs) -> Exit {
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
    let network = match words.parse::<NetworkName>() {
        Ok(network) => network,
        Err(e) => return fail(format!("`{words}`: {e}")),
    };
    if let Err(message) = refuse_all_pairs_over_limit(&network) {
        return fail(message);
    }
    let graph = match network.build() {
        Ok(graph) => graph,
        Err(e) => return fail(format!("`{words}`: {e}")),
    };
    let figures = match Figures::of(network, &graph, args.ports) {
        Ok(figures) => figures,
        Err(e) => return fail(e.to_string()),
    };
    match args.format {
        OutputFormat::Json => outln!("{}", json(&figures)),
        OutputFormat::Text => out!("{}", text(&figures)),
    }
    if figures.statuses_agree() == Some(false) {
        eprintln!(
            "error: {}: the status by search and by the seed's formulas differ",
            figures.network
        );
        return Exit::Internal;
    }
    Exit::Ok
}

fn found_cut_json(cut: &Option<FoundCut>) -> serde_json::Value {
    match cut {
        None => serde_json::Value::Null,
        Some(c) => serde_json::json!({
            "value": c.steps(),
            "ratio": c.ratio.value(),
            "side_size": c.side.len(),
            "other_side": c.other_side,
            "edges": c.edges,
            "capacity": c.capacity,
            "method": c.method.to_string(),
            "exhaustive": c.method == txverify_core::bounds::cut_search::CutMethod::Exhaustive,
            "side": c.side,
        }),
    }
}

fn json(f: &Figures) -> serde_json::Value {
    let g = &f.general;
    let p = f.product.as_ref();
    let cut = |c: Option<&Option<Cut>>| c.map_or(serde_json::Value::Null, super::compose::cut_json);
    serde_json::json!({
        "schema": NETWORK_BOUNDS_SCHEMA,
        "network": f.network.to_string(),
        "order": g.order,
        "degree": g.degree_max,
        "degree_min": g.degree_min,
        "degree_max": g.degree_max,
        "diameter": g.diameter,
        "status": g.status,
        "status_by_theorem": p.and_then(|b| b.status_by_theorem),
        "total_status": g.total_status,
        "total_status_by_theorem": p.and_then(|b| b.total_status_by_theorem),
        "statuses_agree": f.statuses_agree(),
        "average_status": g.total_status as f64 / g.order.max(1) as f64,
        "average_distance": average_distance(g),
        "average_distance_closed_form": p.and_then(|b| b.average_distance_closed_form),
        "ports": g.ports,
        "single_port_bound": g.ports_distance_bound(),
        "link_load_bound": g.link_load_bound(),
        "intake_bound": g.intake_bound(None),
        "all_port_bound": f.all_port_bound(),
        "ports_bound": f.ports_bound(),
        "cut_bound": found_cut_json(&g.cut),
        "ports_cut_bound": found_cut_json(&g.ports_cut),
        "dimension_cut": cut(p.map(|b| &b.dimension_cut)),
        "exhaustive_cut": cut(p.map(|b| &b.exhaustive_cut)),
    })
}

pub(super) fn average_distance(g: &GraphBounds) -> f64 {
    if g.order > 1 {
        g.total_status as f64 / (g.order * (g.order - 1)) as f64
    } else {
        0.0
    }
}

/// One line about a cut: its bound, how it was found, its sides and the side
/// holding node 0 (listed up to 32 nodes).
fn cut_line(c: &FoundCut, divisor: &str) -> String {
    let side = if c.side.len() <= 32 {
        let nodes: Vec<String> = c.side.iter().map(u32::to_string).collect();
        format!("A = {{{}}}", nodes.join(" "))
    } else {
        "A listed in the JSON report".to_string()
    };
    format!(
        "{} ({}: {} · {} / {} {divisor}; {side})",
        c.steps(),
        c.method,
        c.side.len(),
        c.other_side,
        c.capacity
    )
}

fn text(f: &Figures) -> String {
    let g = &f.general;
    let mut out = String::new();
    let _ = writeln!(out, "{}", f.network);
    let _ = writeln!(
        out,
        "  order {}, degree {} … {}, diameter {}",
        g.order, g.degree_min, g.degree_max, g.diameter
    );
    let by_theorem = |x: Option<u64>| x.map_or("-".to_string(), |v| v.to_string());
    let _ = write!(out, "  status of node 0   {}", g.status);
    if let Some(b) = &f.product {
        let _ = write!(out, " (Theorem 1: {})", by_theorem(b.status_by_theorem));
    }
    let _ = write!(
        out,
        "\n  total status       {} (Σ over all pairs",
        g.total_status
    );
    if let Some(b) = &f.product {
        let _ = write!(
            out,
            "; Corollary 2: {}",
            by_theorem(b.total_status_by_theorem)
        );
    }
    let _ = writeln!(out, ")");
    let _ = write!(out, "  average distance   {:.4}", average_distance(g));
    if let Some(closed) = f
        .product
        .as_ref()
        .and_then(|b| b.average_distance_closed_form)
    {
        let _ = write!(out, " (closed form, section 3.1: {closed:.4})");
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  {:<19}{} (⌈Σ d / Σ min({}, degree)⌉)",
        format!("{}-port distance", g.ports),
        g.ports_distance_bound(),
        g.ports
    );
    let dimension = match (&f.product, f.dimension_cut()) {
        (_, Some(c)) => format!(", one-dimension cut {}", c.steps()),
        (Some(_), None) => ", one-dimension cut not computed".to_string(),
        (None, None) => String::new(),
    };
    let _ = writeln!(
        out,
        "  all-port bound     {} (link load {}, intake {}{dimension})",
        f.all_port_bound(),
        g.link_load_bound(),
        g.intake_bound(None)
    );
    if let Some(c) = &g.cut {
        let _ = writeln!(out, "  cut bound          {}", cut_line(c, "links"));
    }
    let _ = writeln!(
        out,
        "  {:<19}{}",
        format!("{}-port bound", g.ports),
        f.ports_bound()
    );
    if g.ports < g.degree_max
        && let Some(c) = &g.ports_cut
    {
        let _ = writeln!(
            out,
            "  {:<19}{}",
            format!("{}-port cut bound", g.ports),
            cut_line(c, &format!("{}-port crossings", g.ports))
        );
    }
    out
}
