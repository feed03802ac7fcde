//! The report of `txverify bounds`, for a `.tbl` file and for a named network
//! alike (schema `txverify-bounds/4`, docs/json.md): the figures of the graph
//! and its total-exchange bounds, all-port and K-port, every one of them from
//! [`txverify_core::bounds::total_exchange`]'s computation, so that `bounds`
//! states the bound every other command compares with. A product of
//! families also gets its statuses by seed 000's formulas (which must agree
//! with the search) and its one-dimension cut; a file gets the kernel's bound
//! for tables beside.

pub mod fabric;
pub mod lp;

use crate::product::ProductError;
use crate::product::bounds::NetworkBounds;
use fabric::{FabricBounds, default_collectives, fabric_bounds};
use serde::Serialize;
use std::fmt::Write;
use txverify_core::bounds::general::{GraphBounds, LP_BOUNDS_NODES, graph_bounds};
use txverify_core::bounds::lp::{LpOptions, LpSolution, WeightsFound};
use txverify_core::bounds::{BoundSet, Cut, CutMethod, total_exchange_with_lp};
use txverify_core::kernel::{self, Instance};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::Ports;

/// The JSON schema of `bounds` (a file or `--network`).
pub const BOUNDS_SCHEMA: &str = "txverify-bounds/4";

/// Why no report can be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BoundsError {
    /// `--ports 0`.
    #[error("--ports must be at least 1")]
    NoPorts,
    /// The name or file gives no network.
    #[error("`{0}`: {1}")]
    Network(String, txverify_core::network::NetworkError),
    /// The header's links do not make a network.
    #[error("the Cayley graph is not a network: {0}")]
    Cayley(txverify_core::network::NetworkError),
    /// A product whose factors give no figures.
    #[error(transparent)]
    Product(#[from] ProductError),
    /// A network too large for the distances between all pairs, refused from
    /// its name before it is built.
    #[error("`{0}`: {1}")]
    TooLarge(String, txverify_core::bounds::general::TooLargeForAllPairs),
    /// A fabric, whose bounds would need its capacities and switches.
    #[error("`{0}`: {FABRIC_NOT_MODELLED}")]
    Fabric(String),
    /// A fabric whose throughput bounds would take more than
    /// [`txverify_core::bounds::throughput::MAX_CUT_WORK`].
    #[error(
        "`{0}`: the fabric's throughput bounds would take {1} units of minimum-cut work, more than {max} (docs/limits.md)",
        max = txverify_core::bounds::throughput::MAX_CUT_WORK
    )]
    FabricTooLarge(String, u64),
    /// `--collective` on a network that is not a fabric.
    #[error(
        "`{0}`: --collective states a fabric's bounds; this network is not a fabric (`search --network NET --collective X` states a collective's bound on it)"
    )]
    NotAFabric(String),
    /// A root that is no GPU of the fabric.
    #[error("`{0}`: the root {1} is not a GPU of the fabric (a node that is not forward-only)")]
    Root(String, u32),
    /// `--collective` or `--chunks` that does not parse.
    #[error("{0}")]
    Collective(txverify_core::schedule::ValueError),
}

use txverify_core::bounds::collective::fabric::is_fabric;

/// The report of the fabric `graph` (named `network`): the plain report's
/// figures, with the total-exchange bounds and the values that are not sound
/// on a fabric replaced (0 or absent), and [`FabricBounds`] for the
/// collectives of one chunk.
fn fabric_report(network: &NetworkName, graph: &Graph, ports: u64) -> BoundsReport {
    let mut r = report(None, Some(network), graph, ports, None, None);
    r.all_port = txverify_core::bounds::total_exchange(graph, Ports::All);
    r.ports_bounds = txverify_core::bounds::total_exchange(graph, ports_model(ports));
    r.all_port_bound = r.all_port.value();
    r.ports_bound = r.ports_bounds.value();
    (r.single_port_bound, r.link_load_bound, r.intake_bound) = (0, 0, 0);
    (r.cut_bound, r.ports_cut_bound) = (None, None);
    r.fabric = Some(fabric_bounds(graph, &default_collectives(1)));
    r
}

/// States in `report` (of the network `words`) the fabric bounds of
/// `collective` in `chunks` chunks instead of the default collectives.
pub fn restate_fabric(
    report: &mut BoundsReport,
    words: &str,
    collective: &str,
    chunks: Option<&str>,
) -> Result<(), BoundsError> {
    let c = txverify_core::schedule::parse_collective(collective, chunks)
        .map_err(BoundsError::Collective)?;
    let graph = words
        .parse::<NetworkName>()
        .and_then(|n| n.build())
        .map_err(|e| BoundsError::Network(words.to_string(), e))?;
    if report.fabric.is_none() || !is_fabric(&graph) {
        return Err(BoundsError::NotAFabric(words.to_string()));
    }
    if let Some(root) = c
        .root()
        .filter(|&r| r as usize >= graph.nodes() || graph.is_forward_only(r))
    {
        return Err(BoundsError::Root(words.to_string(), root));
    }
    report.fabric = Some(fabric_bounds(&graph, &[c]));
    Ok(())
}

/// Why a fabric (a network with link capacities, switch limits or
/// forward-only nodes) is refused by `compare` (its best-known schedules are
/// the plain network's) and by products: their figures would not be the
/// fabric's.
pub const FABRIC_NOT_MODELLED: &str = "a fabric (link capacities, switch limits or forward-only nodes): `compare` does not model fabrics yet; `bounds` states its bounds, `search` searches it and `simulate` replays a schedule on it (docs/networks.md, \"Fabrics\")";

/// Refuses a network whose all-pairs distances are over
/// [`txverify_core::bounds::general::MAX_ALL_PAIRS_WORK`], from its name,
/// before it is built (an edge list is read to count its links).
pub fn check_size(network: &NetworkName) -> Result<(), BoundsError> {
    let shown = network.to_string();
    let nodes = network
        .nodes()
        .map_err(|e| BoundsError::Network(shown.clone(), e))? as u64;
    let links = network
        .directed_links_bound()
        .map_err(|e| BoundsError::Network(shown.clone(), e))?;
    txverify_core::bounds::general::check_all_pairs(nodes, links)
        .map_err(|e| BoundsError::TooLarge(shown, e))
}

/// A cut found, as the report states it: a view of the core's one cut type
/// ([`Cut`]) in the shape of schema `txverify-bounds/4`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CutReport {
    /// ⌈|A|·|V∖A| / capacity⌉.
    pub value: u64,
    /// |A|·|V∖A| / capacity.
    pub ratio: f64,
    /// |A|.
    pub side_size: usize,
    /// |V∖A|.
    pub other_side: u64,
    /// Links joining the sides.
    pub edges: u64,
    /// The crossings a step (the links all-port; K-port fewer).
    pub capacity: u64,
    /// How it was found.
    pub method: String,
    /// Whether every cut was tried.
    pub exhaustive: bool,
    /// The factor or coordinate (1-based) whose cut this is, if one.
    pub dimension: Option<usize>,
    /// The nodes of A (the side of node 0).
    pub side: Vec<u32>,
}

impl CutReport {
    fn of(c: &Cut) -> CutReport {
        CutReport {
            value: c.steps(),
            ratio: c.ratio.value(),
            side_size: c.side as usize,
            other_side: c.other_side,
            edges: c.edges,
            capacity: c.capacity,
            method: c.method.to_string(),
            exhaustive: c.method == CutMethod::Exhaustive,
            dimension: c.method.dimension(),
            side: c.nodes.clone(),
        }
    }
}

/// A cut in brief (a product's one-dimension cut, a factor's), as
/// `compose` reports it too: a view of the core's [`Cut`] by its sizes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CutSummary {
    /// |A|·|V∖A| / c(A).
    pub value: f64,
    /// ⌈|A|·|V∖A| / c(A)⌉.
    pub steps: u64,
    /// |A|.
    pub side: u64,
    /// |V∖A|.
    pub other_side: u64,
    /// c(A).
    pub edges: u64,
    /// The dimension it halves, if one.
    pub dimension: Option<usize>,
}

impl CutSummary {
    /// The summary of `cut`.
    pub fn of(c: &Cut) -> CutSummary {
        CutSummary {
            value: c.ratio.value(),
            steps: c.ratio.ceil(),
            side: c.side,
            other_side: c.other_side,
            edges: c.edges,
            dimension: c.method.dimension(),
        }
    }
}

/// What `bounds` reports about one network (schema [`BOUNDS_SCHEMA`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoundsReport {
    /// [`BOUNDS_SCHEMA`].
    pub schema: &'static str,
    /// The file, for `bounds FILE`.
    pub file: Option<String>,
    /// The network's name (declared or recognised for a file).
    pub network: Option<String>,
    /// Nodes.
    pub order: u64,
    /// The largest degree.
    pub degree: u64,
    /// The least degree.
    pub degree_min: u64,
    /// The largest degree.
    pub degree_max: u64,
    /// The largest distance.
    pub diameter: u64,
    /// Directed links (twice the links).
    pub directed_links: u64,
    /// The status of node 0.
    pub status: u64,
    /// The status of node 0 by Theorem 1 (a product of families).
    pub status_by_theorem: Option<u64>,
    /// Σ over all ordered pairs of their distance.
    pub total_status: u64,
    /// The same by Corollary 2 (a product of families).
    pub total_status_by_theorem: Option<u64>,
    /// Whether search and formulas agree (a product of families).
    pub statuses_agree: Option<bool>,
    /// total_status / order.
    pub average_status: f64,
    /// total_status / (order·(order − 1)).
    pub average_distance: f64,
    /// Section 3.1's closed form (generalised hypercubes).
    pub average_distance_closed_form: Option<f64>,
    /// The K of the K-port figures.
    pub ports: u64,
    /// The K-port distance bound ⌈Σ d / Σ min(K, deg)⌉.
    pub single_port_bound: u64,
    /// The all-port distance bound ⌈Σ d / L⌉.
    pub link_load_bound: u64,
    /// ⌈(N − 1) / δ⌉.
    pub intake_bound: u64,
    /// The best all-port bound (`all_port.best`).
    pub all_port_bound: u64,
    /// The best K-port bound (`ports_bounds.best`).
    pub ports_bound: u64,
    /// The kernel's bound for tables under the file's `ports:` (files only).
    pub table_bound: Option<u64>,
    /// The best all-port cut found.
    pub cut_bound: Option<CutReport>,
    /// The best K-port cut found.
    pub ports_cut_bound: Option<CutReport>,
    /// A product's best one-dimension cut from its factors.
    pub dimension_cut: Option<CutSummary>,
    /// The best cut over every bisection (small graphs).
    pub exhaustive_cut: Option<CutSummary>,
    /// Every all-port bound, with its model.
    pub all_port: BoundSet,
    /// Every K-port bound, with its model.
    pub ports_bounds: BoundSet,
    /// The LP bound (`bounds --network` only; `None` elsewhere).
    pub lp_bound: Option<LpReport>,
    /// The all-port bounds with the LP bound among them, named `lp`
    /// (`bounds --network` only).
    pub all_port_with_lp: Option<BoundSet>,
    /// Why `bounds --network` did not compute the LP bound (more than
    /// [`LP_BOUNDS_NODES`] nodes and no certificate asked for).
    pub lp_skipped: Option<String>,
    /// On a fabric, its collectives' bounds (GPUs only, links at capacity);
    /// the plain figures above are then those the fabric keeps sound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fabric: Option<FabricBounds>,
}

/// The LP bound as `bounds --network` reports it ([`txverify_core::bounds::lp`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LpReport {
    /// ⌈Σ d_w / Σ w⌉ for the integer weights found (exact).
    pub value: u64,
    /// Σ d_w / Σ w for those weights.
    pub ratio: f64,
    /// The search's best real ratio (a lower bound on the LP optimum).
    pub dual: f64,
    /// The largest link load of its best fractional routing (an upper bound
    /// on the LP optimum).
    pub primal: f64,
    /// Which weights won: `optimised`, `distance` (w = 1) or `cut`.
    pub weights: &'static str,
    /// Links with a positive weight.
    pub weighted_links: usize,
    /// Descent steps.
    pub iterations: usize,
}

impl LpReport {
    fn of(s: &LpSolution) -> LpReport {
        LpReport {
            value: s.bound.value,
            ratio: s.bound.ratio(),
            dual: s.dual,
            primal: s.primal,
            weights: match s.found {
                WeightsFound::Optimised => "optimised",
                WeightsFound::Candidate(0) => "distance",
                WeightsFound::Candidate(_) => "cut",
            },
            weighted_links: s.weights.iter().filter(|&&w| w > 0).count(),
            iterations: s.iterations,
        }
    }
}

/// [`network_report`] with the LP bound ([`total_exchange_with_lp`]), and the
/// graph and weights that prove it (for a certificate). Apart because the
/// weights take a search: `compare` and the other reports do without. Above
/// [`LP_BOUNDS_NODES`] nodes the LP bound is skipped, with the reason in
/// `lp_skipped`, unless `certificate_asked` (its certificate needs it).
pub fn network_report_with_lp(
    words: &str,
    ports: u64,
    options: &LpOptions,
    certificate_asked: bool,
) -> Result<(BoundsReport, Graph, Option<LpSolution>), BoundsError> {
    let (mut report, graph) = network_report_and_graph(words, ports)?;
    if report.fabric.is_some() {
        report.lp_skipped = Some(crate::bounds::fabric::LEFT_OUT.to_string());
        return Ok((report, graph, None));
    }
    if graph.nodes() > LP_BOUNDS_NODES && !certificate_asked {
        report.lp_skipped = Some(format!(
            "{} nodes, more than the {LP_BOUNDS_NODES} it is computed on unless its certificate is asked for (--lp-certificate)",
            graph.nodes()
        ));
        return Ok((report, graph, None));
    }
    let (set, solution) = total_exchange_with_lp(&graph, Ports::All, options);
    report.lp_bound = solution.as_ref().map(LpReport::of);
    report.all_port_with_lp = Some(set);
    Ok((report, graph, solution))
}

/// The K-port model of `ports` (K ≥ 1).
fn ports_model(ports: u64) -> Ports {
    u32::try_from(ports).map_or(Ports::All, Ports::Limit)
}

/// The report of the named network `words` under `ports` ports.
pub fn network_report(words: &str, ports: u64) -> Result<BoundsReport, BoundsError> {
    network_report_and_graph(words, ports).map(|(report, _)| report)
}

fn network_report_and_graph(words: &str, ports: u64) -> Result<(BoundsReport, Graph), BoundsError> {
    if ports == 0 {
        return Err(BoundsError::NoPorts);
    }
    let network = words
        .parse::<NetworkName>()
        .map_err(|e| BoundsError::Network(words.to_string(), e))?;
    check_size(&network)?;
    let graph = network
        .build()
        .map_err(|e| BoundsError::Network(words.to_string(), e))?;
    if is_fabric(&graph) {
        if let Err(work) = txverify_core::bounds::throughput::check_size(&graph) {
            return Err(BoundsError::FabricTooLarge(words.to_string(), work));
        }
        return Ok((fabric_report(&network, &graph, ports), graph));
    }
    // A network that is not a product of families (an edge list, a twisted
    // torus) has the general figures only: no factor statuses to check.
    let product = match crate::product::bounds::network_bounds(&network, ports) {
        Ok(b) => Some(b),
        Err(ProductError::NotAProduct(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let report = report(None, Some(&network), &graph, ports, product, None);
    Ok((report, graph))
}

/// The report of a loaded file's network: the declared or recognised
/// network when there is one (its graph is the Cayley graph's, checked by the
/// loader), else the Cayley graph of the header; with the kernel's bound for tables.
pub fn instance_report(
    file: &str,
    instance: &Instance,
    network: Option<&NetworkName>,
    ports: u64,
) -> Result<BoundsReport, BoundsError> {
    if ports == 0 {
        return Err(BoundsError::NoPorts);
    }
    // Declared, else recognised from a sound link set.
    let inferred = instance.defects().is_empty().then(|| {
        txverify_core::network::infer(instance.group(), instance.links()).map(|(kind, _)| kind)
    });
    let network = network.cloned().or(inferred.flatten());
    let network = network.as_ref();
    let graph = match network.map(NetworkName::build) {
        Some(Ok(graph)) => graph,
        _ => Graph::cayley(instance.group(), instance.links()).map_err(BoundsError::Cayley)?,
    };
    let table_bound = kernel::lower_bound(instance).map(|b| b.value);
    let shown = network.filter(|n| n.build().is_ok());
    Ok(report(Some(file), shown, &graph, ports, None, table_bound))
}

fn report(
    file: Option<&str>,
    network: Option<&NetworkName>,
    graph: &Graph,
    ports: u64,
    product: Option<NetworkBounds>,
    table_bound: Option<u64>,
) -> BoundsReport {
    let g: GraphBounds = graph_bounds(graph, ports);
    let all_port = g.bound_set(Ports::All);
    let ports_bounds = g.bound_set(ports_model(ports));
    let p = product.as_ref();
    let n = g.order;
    BoundsReport {
        schema: BOUNDS_SCHEMA,
        file: file.map(str::to_string),
        network: network.map(ToString::to_string),
        order: n,
        degree: g.degree_max,
        degree_min: g.degree_min,
        degree_max: g.degree_max,
        diameter: g.diameter,
        directed_links: g.directed_links,
        status: g.status,
        status_by_theorem: p.and_then(|b| b.status_by_theorem),
        total_status: g.total_status,
        total_status_by_theorem: p.and_then(|b| b.total_status_by_theorem),
        statuses_agree: p.map(|b| {
            b.status_by_theorem == Some(b.status)
                && b.total_status_by_theorem == Some(b.total_status)
        }),
        average_status: g.total_status as f64 / n.max(1) as f64,
        average_distance: if n > 1 {
            g.total_status as f64 / (n * (n - 1)) as f64
        } else {
            0.0
        },
        average_distance_closed_form: p.and_then(|b| b.average_distance_closed_form),
        ports,
        single_port_bound: g.ports_distance_bound(),
        link_load_bound: g.link_load_bound(),
        intake_bound: g.intake_bound(None),
        all_port_bound: all_port.value(),
        ports_bound: ports_bounds.value(),
        table_bound,
        cut_bound: g.cut.as_ref().map(CutReport::of),
        ports_cut_bound: g.ports_cut.as_ref().map(CutReport::of),
        dimension_cut: p.and_then(|b| b.dimension_cut.as_ref()).map(CutSummary::of),
        exhaustive_cut: p
            .and_then(|b| b.exhaustive_cut.as_ref())
            .map(CutSummary::of),
        all_port,
        ports_bounds,
        lp_bound: None,
        all_port_with_lp: None,
        lp_skipped: None,
        fabric: None,
    }
}

impl BoundsReport {
    /// The status of the report, for every front end: internal when the
    /// statuses by search and by the seed's formulas differ (a bug of one of
    /// them), else ok.
    pub fn exit_status(&self) -> crate::shared::failure::Status {
        match self.statuses_agree {
            Some(false) => crate::shared::failure::Status::Internal,
            _ => crate::shared::failure::Status::Ok,
        }
    }
}

impl BoundsReport {
    /// The report in words.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}",
            self.file
                .clone()
                .or_else(|| self.network.clone())
                .unwrap_or_default()
        );
        if let (Some(_), Some(network)) = (&self.file, &self.network) {
            let _ = writeln!(out, "  network            {network}");
        }
        if let Some(fabric) = &self.fabric {
            let _ = writeln!(
                out,
                "  order {}, diameter {}; total exchange at least {} steps ({})",
                self.order,
                self.diameter,
                self.all_port_bound,
                self.all_port.best().name()
            );
            out.push_str(&fabric.text());
            return out;
        }
        let _ = writeln!(
            out,
            "  order {}, degree {} … {}, diameter {}",
            self.order, self.degree_min, self.degree_max, self.diameter
        );
        let by_theorem = |x: Option<u64>| x.map_or("-".to_string(), |v| v.to_string());
        let _ = write!(out, "  status of node 0   {}", self.status);
        if self.statuses_agree.is_some() {
            let _ = write!(out, " (Theorem 1: {})", by_theorem(self.status_by_theorem));
        }
        let _ = write!(
            out,
            "\n  total status       {} (Σ over all pairs",
            self.total_status
        );
        if self.statuses_agree.is_some() {
            let _ = write!(
                out,
                "; Corollary 2: {}",
                by_theorem(self.total_status_by_theorem)
            );
        }
        let _ = writeln!(out, ")");
        let _ = write!(out, "  average distance   {:.4}", self.average_distance);
        if let Some(closed) = self.average_distance_closed_form {
            let _ = write!(out, " (closed form, section 3.1: {closed:.4})");
        }
        let _ = writeln!(out);
        let k = self.ports;
        let used = k.min(self.degree_min.max(1));
        let note = if k == 1 {
            "single-port: ⌈Σ d / N⌉".to_string()
        } else if used < k && self.degree_min == self.degree_max {
            format!("{k}-port, no more ports than the degree: ⌈Σ d / Σ min({k}, degree)⌉")
        } else {
            format!("{k}-port: ⌈Σ d / Σ min({k}, degree)⌉")
        };
        let _ = writeln!(
            out,
            "  single-port bound  {} ({note})",
            self.single_port_bound
        );
        let dimension = match (self.statuses_agree, &self.dimension_cut) {
            (_, Some(c)) => format!(", one-dimension cut {}", c.steps),
            (Some(_), None) => ", one-dimension cut not computed".to_string(),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            out,
            "  all-port bound     {} ({}; link load {}, intake {}{dimension})",
            self.all_port_bound,
            self.all_port.best().name(),
            self.link_load_bound,
            self.intake_bound
        );
        if let Some(c) = &self.cut_bound {
            let _ = writeln!(out, "  cut bound          {}", cut_line(c, "links"));
        }
        if let Some(lp) = &self.lp_bound {
            let _ = writeln!(
                out,
                "  LP bound           {} (lp: all-port, any routing, any buffering; {} weights, ratio {:.3})",
                lp.value, lp.weights, lp.ratio
            );
        }
        if let Some(why) = &self.lp_skipped {
            let _ = writeln!(out, "  LP bound           skipped ({why})");
        }
        let _ = writeln!(
            out,
            "  {:<19}{} ({})",
            format!("{k}-port bound"),
            self.ports_bound,
            self.ports_bounds.best().name()
        );
        if k < self.degree_max
            && let Some(c) = &self.ports_cut_bound
        {
            let _ = writeln!(
                out,
                "  {:<19}{}",
                format!("{k}-port cut bound"),
                cut_line(c, &format!("{k}-port crossings"))
            );
        }
        match self.table_bound {
            Some(b) if self.file.is_some() => {
                let _ = writeln!(
                    out,
                    "  table bound        {b} (the kernel's bound for tables)"
                );
            }
            None if self.file.is_some() => {
                let _ = writeln!(out, "  table bound        none (the link set is defective)");
            }
            _ => {}
        }
        out
    }
}

/// One line about a cut: its bound, how it was found, its sides and the side
/// holding node 0 (listed up to 32 nodes).
fn cut_line(c: &CutReport, divisor: &str) -> String {
    let side = if c.side.len() <= 32 {
        let nodes: Vec<String> = c.side.iter().map(u32::to_string).collect();
        format!("A = {{{}}}", nodes.join(" "))
    } else {
        "A listed in the JSON report".to_string()
    };
    format!(
        "{} ({}: {} · {} / {} {divisor}; {side})",
        c.value, c.method, c.side_size, c.other_side, c.capacity
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Above its node limit `bounds --network` skips the LP bound and says
    /// why, in the text and the JSON; asked for a certificate, it computes it.
    #[test]
    fn the_lp_bound_is_skipped_over_its_node_limit_unless_a_certificate_is_asked() {
        let options = LpOptions::default();
        let over = format!("ring {}", LP_BOUNDS_NODES + 1);
        let (report, _, solution) = network_report_with_lp(&over, 1, &options, false).unwrap();
        assert!(solution.is_none() && report.lp_bound.is_none());
        let why = report.lp_skipped.as_deref().unwrap();
        assert!(why.contains(&LP_BOUNDS_NODES.to_string()), "{why}");
        assert!(
            report
                .text()
                .contains(&format!("LP bound           skipped ({why})"))
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["lp_skipped"], why);
        let (report, _, solution) = network_report_with_lp(&over, 1, &options, true).unwrap();
        assert!(solution.is_some() && report.lp_bound.is_some() && report.lp_skipped.is_none());
        let within = format!("ring {LP_BOUNDS_NODES}");
        let (report, _, solution) = network_report_with_lp(&within, 1, &options, false).unwrap();
        assert!(solution.is_some() && report.lp_skipped.is_none());
    }
}
