//! The reports of `txverify lcc contention|reorder|map|simulate`: each command
//! as one function from its inputs to a typed report (JSON by serde, text by
//! `text()`), or the [`Failure`] that stopped it (docs/lcc.md, docs/json.md).
//!
//! Every figure is computed by the library twice where it can be: the rank
//! formula of Theorem 1 against the count over every e-cube path (a bug,
//! status 3, when they differ), the programme's value against its order
//! re-evaluated.

use super::contention::{self, Checked, ContentionError};
use super::lex::{self, Lexicographic};
use super::map::{self, MapError, Objective};
use super::plot::{self, Curve};
use super::reorder;
use super::saturation::{self, Sustainable};
use super::wormhole::{self, Point, SimConfig};
use super::{Lcc, Matrix, is_permutation, spec};
use crate::shared::failure::Failure;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The schema of `lcc contention --format json`.
pub const CONTENTION_SCHEMA: &str = "txverify-lcc-contention/1";
/// The schema of `lcc reorder --format json`.
pub const REORDER_SCHEMA: &str = "txverify-lcc-reorder/1";
/// The schema of `lcc map --format json`.
pub const MAP_SCHEMA: &str = "txverify-lcc-map/1";
/// The schema of `lcc simulate --format json`.
pub const SIMULATE_SCHEMA: &str = "txverify-lcc-simulate/2";

/// The largest n `lcc simulate` takes.
pub const MAX_SIM_DIM: usize = 16;

/// A SPEC that cannot be loaded: its diagnostic on standard error, its
/// message in JSON (status 2).
pub fn load(spec_text: &str) -> Result<Lcc, Failure> {
    spec::load(spec_text).map_err(|e| Failure::input(e.to_string()).shown_as(e.render()))
}

/// A contention that the two counts disagree on: a bug.
fn internal(e: impl std::fmt::Display) -> Failure {
    Failure::internal(e.to_string())
}

/// A failure about one SPEC, its message prefixed with the SPEC.
fn about(spec_text: &str, failure: Failure) -> Failure {
    Failure {
        message: format!("{spec_text}: {}", failure.message),
        ..failure
    }
}

/// `lcc contention SPEC`: the contention of every dimension and the least by
/// reordering.
#[derive(Clone, Debug, Serialize)]
pub struct ContentionReport {
    /// The schema.
    pub schema: &'static str,
    /// The SPEC as given.
    pub spec: String,
    /// n.
    pub dimensions: usize,
    /// LCP, LCG or LCS.
    pub class: &'static str,
    /// The rank of A.
    pub rank: usize,
    /// T_i, dimension 0 first.
    pub per_dimension: Vec<u64>,
    /// T(A, b).
    pub contention: u64,
    /// The least contention over every reordering.
    pub minimum: u64,
    /// Whether every e-cube path was counted too.
    pub enumerated: bool,
}

/// The report of `lcc contention SPEC` on `lcc`.
pub fn contention_report(spec_text: &str, lcc: &Lcc) -> Result<ContentionReport, Failure> {
    let checked = contention::checked(lcc).map_err(|e| about(spec_text, internal(e)))?;
    Ok(ContentionReport {
        schema: CONTENTION_SCHEMA,
        spec: spec_text.to_string(),
        dimensions: lcc.n(),
        class: lcc.class().name(),
        rank: lcc.a.rank(),
        per_dimension: checked.per_dimension,
        contention: checked.contention,
        minimum: contention::minimum(lcc),
        enumerated: checked.enumerated,
    })
}

impl ContentionReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let (s, class, rank, n) = (&self.spec, self.class, self.rank, self.dimensions);
        let mut o = format!("{s}: {class} on {n} dimensions, rank {rank}\n");
        let _ = writeln!(
            o,
            "  T_i, dimension 0 first  {}   (rank formula; {})",
            vector(&self.per_dimension),
            enumerated_note(self.enumerated)
        );
        let _ = writeln!(o, "  contention T(A, b)      {}", self.contention);
        let _ = writeln!(o, "  least by reordering     {}", self.minimum);
        o
    }
}

/// The contention before a reordering.
#[derive(Clone, Debug, Serialize)]
pub struct Before {
    /// T_i, dimension 0 first.
    pub per_dimension: Vec<u64>,
    /// T(A, b).
    pub contention: u64,
}

/// `lcc reorder SPEC`: the optimal reordering of address bits.
#[derive(Clone, Debug, Serialize)]
pub struct ReorderReport {
    /// The schema.
    pub schema: &'static str,
    /// The SPEC as given.
    pub spec: String,
    /// n.
    pub dimensions: usize,
    /// LCP, LCG or LCS.
    pub class: &'static str,
    /// `LCP_Optimizer` or Theorem 4.
    pub method: &'static str,
    /// R: `Q[i][R[i]] = 1`.
    pub order: Vec<usize>,
    /// Q.
    pub q: Vec<Vec<u8>>,
    /// QAQ⁻¹.
    pub matrix: Vec<Vec<u8>>,
    /// Qb, bit 0 first.
    pub b: Vec<u64>,
    /// T_i after, dimension 0 first.
    pub per_dimension: Vec<u64>,
    /// T after.
    pub contention: u64,
    /// The least contention over every reordering.
    pub minimum: u64,
    /// Whether every e-cube path was counted too, before and after.
    pub enumerated: bool,
    /// The contention before.
    pub before: Before,
}

/// The report of `lcc reorder SPEC` on `lcc`.
pub fn reorder_report(spec_text: &str, lcc: &Lcc) -> Result<ReorderReport, Failure> {
    let failed = |e: &dyn std::fmt::Display| about(spec_text, internal(e));
    let before = contention::checked(lcc).map_err(|e| failed(&e))?;
    let r = reorder::reorder(lcc).map_err(|e| failed(&e))?;
    let n = lcc.n();
    Ok(ReorderReport {
        schema: REORDER_SCHEMA,
        spec: spec_text.to_string(),
        dimensions: n,
        class: lcc.class().name(),
        method: r.method.name(),
        q: Matrix::permutation(&r.order).to_lists(),
        order: r.order,
        matrix: r.after.a.to_lists(),
        b: (0..n).map(|i| r.after.b >> i & 1).collect(),
        per_dimension: r.checked.per_dimension,
        contention: r.checked.contention,
        minimum: r.minimum,
        enumerated: r.checked.enumerated && before.enumerated,
        before: Before {
            per_dimension: before.per_dimension,
            contention: before.contention,
        },
    })
}

impl ReorderReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let n = self.dimensions;
        let mut o = format!(
            "{}: {} on {n} dimensions, {}\n",
            self.spec, self.class, self.method
        );
        let _ = writeln!(
            o,
            "  order R     {}   (Q[i][R[i]] = 1)",
            order_text(&self.order)
        );
        let _ = writeln!(
            o,
            "  before      T_i = {}, T = {}",
            vector(&self.before.per_dimension),
            self.before.contention
        );
        let _ = writeln!(
            o,
            "  after       T_i = {}, T = {} = the least possible ({})",
            vector(&self.per_dimension),
            self.contention,
            enumerated_note(self.enumerated)
        );
        matrix_text(&mut o, "QAQ^-1", &self.matrix);
        let b: String = self
            .b
            .iter()
            .map(|&bit| if bit == 1 { '1' } else { '0' })
            .collect();
        let _ = writeln!(o, "  Qb          {b}");
        matrix_text(&mut o, "Q", &self.q);
        o
    }
}

/// The objectives of `lcc map`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapObjective {
    /// The worst contention, then the contentions added, then the sum.
    Lex,
    /// One of the single objectives.
    Single(Objective),
}

/// One communication of `lcc map`.
#[derive(Clone, Debug, Serialize)]
pub struct Mapped {
    /// The SPEC as given.
    pub spec: String,
    /// Its weight.
    pub weight: u64,
    /// T_i after the mapping.
    pub per_dimension: Vec<u64>,
    /// T after the mapping.
    pub contention: u64,
    /// T before.
    pub before: u64,
}

/// `lcc map SPEC…`: one reordering for several communications.
#[derive(Clone, Debug, Serialize)]
pub struct MapReport {
    /// The schema.
    pub schema: &'static str,
    /// The SPECs as given.
    pub specs: Vec<String>,
    /// n.
    pub dimensions: usize,
    /// The objective's name.
    pub objective: &'static str,
    /// The weights.
    pub weights: Vec<u64>,
    /// The order found.
    pub order: Vec<usize>,
    /// Its value (for `lex`, the worst contention).
    pub value: u64,
    /// The value of the identity order.
    pub identity_value: u64,
    /// The programme's subproblems, n·2^(n−1).
    pub subproblems: usize,
    /// Every communication, after and before.
    pub communications: Vec<Mapped>,
    /// `lex`: the contentions added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contentions: Option<u64>,
    /// `lex`: the sum over dimensions.
    #[serde(rename = "sum", skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// `lex`: the contentions added at the identity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity_contentions: Option<u64>,
    /// `lex`: the sum at the identity.
    #[serde(rename = "identity_sum", skip_serializing_if = "Option::is_none")]
    pub identity_total: Option<u64>,
    /// The optimum in words.
    #[serde(skip)]
    found_text: String,
    /// The identity's value in words.
    #[serde(skip)]
    identity_text: String,
}

/// Parses `a,b,c` (parentheses and blanks allowed) into numbers.
fn numbers<T: std::str::FromStr>(text: &str) -> Option<Vec<T>> {
    text.trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect()
}

/// The report of `lcc map` on `lccs` (loaded from `specs`), under `objective`,
/// with `weights` as written (`None`: all 1).
pub fn map_report(
    specs: &[String],
    lccs: &[Lcc],
    objective: MapObjective,
    weights: Option<&str>,
) -> Result<MapReport, Failure> {
    let weights = match weights {
        None => vec![1; lccs.len()],
        Some(w) => numbers::<u64>(w)
            .ok_or_else(|| Failure::input(format!("--weights `{w}`: expected whole numbers")))?,
    };
    let found = match objective {
        MapObjective::Lex => lex::optimise(lccs, &weights).map(|(o, v)| (o, Found::Lex(v))),
        MapObjective::Single(objective) => {
            map::optimise(lccs, &weights, objective).map(|(o, v)| (o, Found::Single(objective, v)))
        }
    };
    let (order, found) = found.map_err(|e| match e {
        MapError::Inconsistent { .. } | MapError::InconsistentLex { .. } => internal(e),
        _ => Failure::input(e.to_string()),
    })?;
    let n = lccs[0].n();
    let identity: Vec<usize> = (0..n).collect();
    let identity_found = found.at(lccs, &weights, &identity);
    let mut communications = Vec::new();
    for (s, (l, w)) in specs.iter().zip(lccs.iter().zip(&weights)) {
        let after: Checked = contention::checked(&l.reordered(&order)).map_err(internal)?;
        let before = contention::checked(l).map_err(internal)?;
        communications.push(Mapped {
            spec: s.clone(),
            weight: *w,
            per_dimension: after.per_dimension,
            contention: after.contention,
            before: before.contention,
        });
    }
    let lex = match (found, identity_found) {
        (Found::Lex(at), Found::Lex(identity)) => Some((at, identity)),
        _ => None,
    };
    Ok(MapReport {
        schema: MAP_SCHEMA,
        specs: specs.to_vec(),
        dimensions: n,
        objective: found.name(),
        weights,
        order,
        value: found.value(),
        identity_value: identity_found.value(),
        subproblems: n << n.saturating_sub(1),
        communications,
        contentions: lex.map(|(at, _)| at.contentions),
        total: lex.map(|(at, _)| at.total),
        identity_contentions: lex.map(|(_, identity)| identity.contentions),
        identity_total: lex.map(|(_, identity)| identity.total),
        found_text: found.text(),
        identity_text: identity_found.text(),
    })
}

impl MapReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut o = format!(
            "{} communications on {} dimensions, objective {} (weights {})\n",
            self.communications.len(),
            self.dimensions,
            self.objective,
            vector(&self.weights)
        );
        let _ = writeln!(o, "  order R     {}", order_text(&self.order));
        let _ = writeln!(
            o,
            "  value       {} (identity order: {})",
            self.found_text, self.identity_text
        );
        for c in &self.communications {
            let (s, t, was) = (&c.spec, c.contention, c.before);
            let per = vector(&c.per_dimension);
            let _ = writeln!(o, "  {s}: T = {t} (was {was}), T_i = {per}");
        }
        o
    }
}

/// The optimum `lcc map` found, under the objective asked for.
#[derive(Clone, Copy)]
enum Found {
    /// `lex`: the worst contention, then the contentions added, then the sum.
    Lex(Lexicographic),
    /// `max`, `sum` or `simultaneous`.
    Single(Objective, u64),
}

impl Found {
    fn name(self) -> &'static str {
        match self {
            Found::Lex(_) => "lex",
            Found::Single(o, _) => o.name(),
        }
    }

    /// The value reports give first: for `lex`, the worst contention.
    fn value(self) -> u64 {
        match self {
            Found::Lex(v) => v.worst,
            Found::Single(_, v) => v,
        }
    }

    fn text(self) -> String {
        match self {
            Found::Lex(v) => format!(
                "max {}, then Σ contentions {}, then sum {}",
                v.worst, v.contentions, v.total
            ),
            Found::Single(_, v) => v.to_string(),
        }
    }

    /// The same objective evaluated at another order.
    fn at(self, lccs: &[Lcc], weights: &[u64], order: &[usize]) -> Found {
        match self {
            Found::Lex(_) => Found::Lex(lex::evaluate(lccs, weights, order)),
            Found::Single(o, _) => Found::Single(o, map::evaluate(lccs, weights, o, order)),
        }
    }
}

/// What `lcc simulate` is asked to run, as written on the command line.
#[derive(Clone, Debug)]
pub struct SimRequest {
    /// The SPEC.
    pub spec: String,
    /// `--order`: the order to compare with the identity (default: `reorder`'s).
    pub order: Option<String>,
    /// `--loads`: the offered loads, comma-separated (default: a standard sweep).
    pub loads: Option<String>,
    /// The run parameters.
    pub config: SimConfig,
    /// `--csv`: where to write the curves as CSV.
    pub csv: Option<PathBuf>,
    /// `--svg`: where to write the curves as an SVG picture.
    pub svg: Option<PathBuf>,
}

/// The cycles of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Cycles {
    /// Before measuring.
    pub warmup: u64,
    /// Measured.
    pub measure: u64,
    /// For the measured messages to arrive.
    pub drain: u64,
}

/// One point of a curve, in JSON.
#[derive(Clone, Debug, Serialize)]
pub struct CurvePoint {
    /// `before` or `after`.
    pub curve: &'static str,
    /// The point, its fields beside `curve` in the JSON.
    #[serde(flatten)]
    pub point: Point,
}

/// One curve's sustainable rate, in JSON.
#[derive(Clone, Debug, Serialize)]
pub struct SustainedRate {
    /// The largest load sustained.
    pub rate: f64,
    /// Its accepted throughput.
    pub accepted: Option<f64>,
    /// Its latency.
    pub latency: Option<f64>,
    /// The smallest load found not sustained.
    pub not_sustained: Option<f64>,
    /// Runs simulated.
    pub runs: usize,
}

impl From<&Sustainable> for SustainedRate {
    fn from(s: &Sustainable) -> SustainedRate {
        SustainedRate {
            rate: s.rate,
            accepted: s.at_rate.as_ref().map(|p| p.accepted),
            latency: s.at_rate.as_ref().map(|p| p.latency),
            not_sustained: s.above.as_ref().map(|p| p.offered),
            runs: s.runs,
        }
    }
}

/// Both curves' sustainable rates.
#[derive(Clone, Debug, Serialize)]
pub struct Sustained {
    /// The bisection's resolution.
    pub resolution: f64,
    /// Before the reordering.
    pub before: SustainedRate,
    /// After it.
    pub after: SustainedRate,
}

/// `lcc simulate SPEC`: latency against throughput before and after reordering.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    /// The schema.
    pub schema: &'static str,
    /// The SPEC as given.
    pub spec: String,
    /// n.
    pub dimensions: usize,
    /// Streams: nodes that send to another node.
    pub streams: usize,
    /// Flits per message.
    pub flits: u32,
    /// The generator's seed.
    pub seed: u64,
    /// The cycles of each run.
    pub cycles: Cycles,
    /// The order compared with the identity.
    pub order: Vec<usize>,
    /// T at the identity.
    pub contention_before: u64,
    /// T at the order.
    pub contention_after: u64,
    /// The sustainable rate at the identity.
    pub saturation_before: f64,
    /// The sustainable rate at the order.
    pub saturation_after: f64,
    /// after / before (0 when before is 0).
    pub saturation_ratio: f64,
    /// Both sustainable rates in full.
    pub sustained: Sustained,
    /// The peak accepted rate at the identity.
    pub peak_accepted_before: f64,
    /// The peak accepted rate at the order.
    pub peak_accepted_after: f64,
    /// Every point of both curves.
    pub points: Vec<CurvePoint>,
    /// The CSV written.
    pub csv: Option<String>,
    /// The SVG written.
    pub svg: Option<String>,
    /// The curves' legend entries, for the text.
    #[serde(skip)]
    labels: [String; 2],
    /// Both sustainable rates, for the text.
    #[serde(skip)]
    rates: [Sustainable; 2],
}

/// The order, the loads and the run parameters of `lcc simulate`, checked.
fn sim_inputs(request: &SimRequest, lcc: &Lcc) -> Result<(Vec<usize>, Vec<f64>), Failure> {
    let n = lcc.n();
    if n > MAX_SIM_DIM {
        return Err(Failure::input(format!(
            "the simulation takes n ≤ {MAX_SIM_DIM} (n = {n})"
        )));
    }
    if request.config.flits == 0 {
        return Err(Failure::input("--flits must be at least 1"));
    }
    let order = match &request.order {
        Some(text) => numbers::<usize>(text)
            .filter(|o| is_permutation(o, n))
            .ok_or_else(|| {
                Failure::input(format!(
                    "--order `{text}` is not an order of the bits 0 … {}",
                    n - 1
                ))
            })?,
        None => reorder::reorder(lcc).map_err(internal)?.order,
    };
    let loads = match &request.loads {
        None => wormhole::default_loads(),
        Some(text) => numbers::<f64>(text)
            .filter(|l| l.iter().all(|x| *x > 0.0 && *x <= 1.0))
            .ok_or_else(|| {
                Failure::input(format!("--loads `{text}`: expected numbers in (0, 1]"))
            })?,
    };
    Ok((order, loads))
}

/// Writes the CSV and the SVG the request asks for.
fn write_files(request: &SimRequest, curves: &[Curve<'_>]) -> Result<(), Failure> {
    let write = |path: &PathBuf, text: String| {
        std::fs::write(path, text)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))
    };
    if let Some(path) = &request.csv {
        write(path, plot::csv(curves))?;
    }
    if let Some(path) = &request.svg {
        let flits = request.config.flits;
        let title = format!(
            "{}: e-cube wormhole routing, {flits} flits per message",
            request.spec
        );
        let y_max = plot::latency_axis(curves, 25.0 * f64::from(flits));
        write(path, plot::svg(&title, curves, y_max))?;
    }
    Ok(())
}

/// `after / before`, 0 when `before` is 0.
fn ratio(before: f64, after: f64) -> f64 {
    if before > 0.0 { after / before } else { 0.0 }
}

/// Runs `lcc simulate` on `lcc` (loaded from `request.spec`), writing the
/// files it asks for.
pub fn simulate(request: &SimRequest, lcc: &Lcc) -> Result<SimReport, Failure> {
    let (order, loads) = sim_inputs(request, lcc)?;
    let config = &request.config;
    let after = lcc.reordered(&order);
    let t_before = contention::checked(lcc).map_err(internal)?.contention;
    let t_after = contention::checked(&after)
        .map_err(|e: ContentionError| internal(e))?
        .contention;
    let before_points = wormhole::sweep(lcc, &loads, config);
    let after_points = wormhole::sweep(&after, &loads, config);
    let labels = [
        format!("identity order (T = {t_before})"),
        format!("order R = {} (T = {t_after})", order_text(&order)),
    ];
    let curves = [
        Curve {
            label: labels[0].clone(),
            points: &before_points,
            guide: Some(1.0 / t_before.max(1) as f64),
        },
        Curve {
            label: labels[1].clone(),
            points: &after_points,
            guide: Some(1.0 / t_after.max(1) as f64),
        },
    ];
    let rates = [
        saturation::sustainable(lcc, config),
        saturation::sustainable(&after, config),
    ];
    write_files(request, &curves)?;
    let n = lcc.n();
    let points = [("before", &before_points), ("after", &after_points)]
        .into_iter()
        .flat_map(|(curve, points)| points.iter().map(move |p| curve_point(curve, p)))
        .collect();
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    Ok(SimReport {
        schema: SIMULATE_SCHEMA,
        spec: request.spec.clone(),
        dimensions: n,
        streams: (0..1u64 << n)
            .filter(|&v| {
                let (s, d) = lcc.message(v);
                s != d
            })
            .count(),
        flits: config.flits,
        seed: config.seed,
        cycles: Cycles {
            warmup: config.warmup,
            measure: config.measure,
            drain: config.drain,
        },
        order,
        contention_before: t_before,
        contention_after: t_after,
        saturation_before: rates[0].rate,
        saturation_after: rates[1].rate,
        saturation_ratio: ratio(rates[0].rate, rates[1].rate),
        sustained: Sustained {
            resolution: saturation::RESOLUTION,
            before: SustainedRate::from(&rates[0]),
            after: SustainedRate::from(&rates[1]),
        },
        peak_accepted_before: wormhole::peak_accepted(&before_points),
        peak_accepted_after: wormhole::peak_accepted(&after_points),
        points,
        csv: path(&request.csv),
        svg: path(&request.svg),
        labels,
        rates,
    })
}

fn curve_point(curve: &'static str, p: &Point) -> CurvePoint {
    CurvePoint {
        curve,
        point: p.clone(),
    }
}

/// One curve's sustainable rate, as a line of text.
fn sustained_text(name: &str, s: &Sustainable) -> String {
    let at = match &s.at_rate {
        Some(p) => format!("accepted {:.4}, latency {:.1}", p.accepted, p.latency),
        None => "no load sustained".into(),
    };
    let above = match &s.above {
        Some(p) => format!("; {:.4} is not", p.offered),
        None => String::new(),
    };
    format!("    {name:<7}{:.4}  ({at}{above})\n", s.rate)
}

impl SimReport {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut o = format!(
            "{}: {} streams on {} dimensions, {} flits per message, seed {}\n",
            self.spec, self.streams, self.dimensions, self.flits, self.seed
        );
        for (name, label) in ["before", "after"].iter().zip(&self.labels) {
            let _ = writeln!(o, "  {name}: {label}");
            let _ = writeln!(o, "    offered  accepted  latency");
            let curve = self.points.iter().filter(|c| c.curve == *name);
            for p in curve.map(|c| &c.point) {
                let mark = if p.saturated { "  (saturated)" } else { "" };
                let _ = writeln!(
                    o,
                    "    {:>7.3}  {:>8.4}  {:>7.1}{mark}",
                    p.offered, p.accepted, p.latency
                );
            }
        }
        let _ = writeln!(
            o,
            "  saturation throughput (sustainable rate): the largest offered load whose backlog \
             stays bounded, by bisection to {}",
            saturation::RESOLUTION
        );
        o += &sustained_text("before", &self.rates[0]);
        o += &sustained_text("after", &self.rates[1]);
        let _ = writeln!(
            o,
            "    ratio  {:.2} (contention {} → {})",
            self.saturation_ratio, self.contention_before, self.contention_after
        );
        let _ = writeln!(
            o,
            "  peak accepted rate, at an overloaded load (not sustainable)  {:.4} before, {:.4} after",
            self.peak_accepted_before, self.peak_accepted_after
        );
        o
    }
}

fn vector(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

fn order_text(order: &[usize]) -> String {
    let parts: Vec<String> = order.iter().map(usize::to_string).collect();
    format!("({})", parts.join(", "))
}

fn matrix_text(out: &mut String, label: &str, rows: &[Vec<u8>]) {
    for (i, row) in rows.iter().enumerate() {
        let digits: Vec<String> = row.iter().map(u8::to_string).collect();
        let head = if i == 0 { label } else { "" };
        let _ = writeln!(out, "  {head:<12}{}", digits.join(" "));
    }
}

fn enumerated_note(enumerated: bool) -> &'static str {
    if enumerated {
        "every e-cube path counted: agrees"
    } else {
        "n > 20: not enumerated"
    }
}

#[cfg(test)]
mod tests;
