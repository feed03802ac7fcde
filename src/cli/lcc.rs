//! `txverify lcc contention|reorder|map|simulate`: channel contention of
//! linear-complement communications on wormhole hypercubes (docs/lcc.md).
//!
//! Every figure printed is computed by the library twice where it can be: the
//! rank formula of Theorem 1 against the count over every e-cube path (exit 3
//! when they differ), the programme's value against its order re-evaluated.

use super::OutputFormat;
use super::exit::Exit;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;
use txverify_clients::lcc::contention::{self, Checked, ContentionError};
use txverify_clients::lcc::lex::{self, Lexicographic};
use txverify_clients::lcc::map::{self, MapError, Objective};
use txverify_clients::lcc::plot::{self, Curve};
use txverify_clients::lcc::reorder::{self, Reordering};
use txverify_clients::lcc::saturation::{self, Sustainable};
use txverify_clients::lcc::wormhole::{self, SimConfig};
use txverify_clients::lcc::{Lcc, Matrix, is_permutation, spec};

/// Linear-complement communication on wormhole hypercubes (seed 002).
#[derive(clap::Args, Debug)]
pub struct LccArgs {
    #[command(subcommand)]
    command: LccCommand,
}

#[derive(clap::Subcommand, Debug)]
enum LccCommand {
    /// T_i of every dimension by the rank formula (Theorem 1), checked by counting every e-cube path.
    #[command(after_help = super::examples::LCC_CONTENTION)]
    Contention(SpecsArgs),
    /// The optimal reordering of address bits of each communication (LCP_Optimizer, Theorem 4).
    #[command(after_help = super::examples::LCC_REORDER)]
    Reorder(SpecsArgs),
    /// One reordering for several communications (section 5's dynamic programme).
    #[command(after_help = super::examples::LCC_MAP)]
    Map(MapArgs),
    /// Flit-level wormhole simulation: latency against throughput before and after reordering.
    #[command(after_help = super::examples::LCC_SIMULATE)]
    Simulate(SimArgs),
}

#[derive(clap::Args, Debug)]
struct SpecsArgs {
    /// Communications: files (rows of A, `b: …`) or built-ins `NAME:N` (docs/lcc.md).
    #[arg(required = true)]
    specs: Vec<String>,
    /// Report format (JSON: one object per communication).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// The objectives of `lcc map`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
enum ObjectiveArg {
    /// The largest contention of any communication; among the orders reaching its least
    /// value, the sum of the communications' contentions; then the sum over dimensions and
    /// communications of T_i.
    #[default]
    Lex,
    /// The largest contention of any communication.
    Max,
    /// The sum over dimensions and communications of T_i.
    Sum,
    /// The largest over dimensions of the sum over communications of T_i.
    Simultaneous,
}

#[derive(clap::Args, Debug)]
struct MapArgs {
    /// The communications, all on the same n.
    #[arg(required = true)]
    specs: Vec<String>,
    /// What to minimise.
    #[arg(long, value_enum, default_value_t)]
    objective: ObjectiveArg,
    /// Weights of the communications, comma-separated (default: all 1).
    #[arg(long)]
    weights: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

#[derive(clap::Args, Debug)]
struct SimArgs {
    /// The communication.
    spec: String,
    /// The address-bit order to compare with the identity (default: `lcc reorder`'s).
    #[arg(long)]
    order: Option<String>,
    /// Flits per message.
    #[arg(long, default_value_t = 20)]
    flits: u32,
    /// Offered loads (flits per cycle per sending node), comma-separated.
    #[arg(long)]
    loads: Option<String>,
    /// Cycles before measuring.
    #[arg(long, default_value_t = 2_000)]
    warmup: u64,
    /// Cycles of measurement (at least 1: a run that measures nothing has no rate).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    measure: u64,
    /// Extra cycles for the measured messages to arrive.
    #[arg(long, default_value_t = 20_000)]
    drain: u64,
    /// Seed of the pseudo-random generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the curves as CSV here.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Write the curves as an SVG picture here.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// The largest n `lcc simulate` takes.
const MAX_SIM_DIM: usize = 16;

/// Runs `txverify lcc …`.
pub fn run(args: &LccArgs) -> Exit {
    match &args.command {
        LccCommand::Contention(a) => each(a, "txverify-lcc-contention/1", contention_one),
        LccCommand::Reorder(a) => each(a, "txverify-lcc-reorder/1", reorder_one),
        LccCommand::Map(a) => map_cmd(a),
        LccCommand::Simulate(a) => simulate_cmd(a),
    }
}

/// A failure: the message on standard error and, in JSON, an object with it.
fn fail(format: OutputFormat, schema: &str, spec: Value, message: &str, exit: Exit) -> Exit {
    eprintln!("error: {message}");
    json_failure(format, schema, spec, message, exit)
}

/// A SPEC that cannot be loaded: its diagnostic, and in JSON an object.
fn load_failure(format: OutputFormat, schema: &str, spec: Value, error: &spec::LoadError) -> Exit {
    eprint!("{}", error.render());
    json_failure(format, schema, spec, &error.to_string(), Exit::Input)
}

/// In JSON, the object of a failure; returns `exit`.
fn json_failure(
    format: OutputFormat,
    schema: &str,
    spec: Value,
    message: &str,
    exit: Exit,
) -> Exit {
    if format == OutputFormat::Json {
        let v = json!({"schema": schema, "spec": spec, "error": {"message": message},
                       "exit_code": exit.code()});
        outln!("{v}");
    }
    exit
}

/// Prints the report of one communication, or says what went wrong and the status.
type Report = fn(&str, &Lcc, OutputFormat) -> Result<(), (String, Exit)>;

/// One report per SPEC; the worst status.
fn each(args: &SpecsArgs, schema: &str, one: Report) -> Exit {
    let mut worst = Exit::Ok;
    for s in &args.specs {
        let status = match spec::load(s) {
            Err(e) => load_failure(args.format, schema, json!(s), &e),
            Ok(lcc) => match one(s, &lcc, args.format) {
                Ok(()) => Exit::Ok,
                Err((m, exit)) => fail(args.format, schema, json!(s), &format!("{s}: {m}"), exit),
            },
        };
        worst = worst.max(status);
    }
    worst
}

fn vector(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

fn bits(v: u64, n: usize) -> String {
    (0..n)
        .map(|i| if v >> i & 1 == 1 { '1' } else { '0' })
        .collect()
}

fn order_text(order: &[usize]) -> String {
    let parts: Vec<String> = order.iter().map(usize::to_string).collect();
    format!("({})", parts.join(", "))
}

fn matrix_text(out: &mut String, label: &str, m: &Matrix) {
    for (i, row) in m.to_lists().iter().enumerate() {
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

fn contention_one(s: &str, lcc: &Lcc, format: OutputFormat) -> Result<(), (String, Exit)> {
    let checked = contention::checked(lcc).map_err(|e| (e.to_string(), Exit::Internal))?;
    let minimum = contention::minimum(lcc);
    let (class, rank, n) = (lcc.class().name(), lcc.a.rank(), lcc.n());
    if format == OutputFormat::Json {
        let v = json!({
            "schema": "txverify-lcc-contention/1", "spec": s, "dimensions": n,
            "class": class, "rank": rank, "per_dimension": checked.per_dimension,
            "contention": checked.contention, "minimum": minimum,
            "enumerated": checked.enumerated,
        });
        outln!("{v}");
    } else {
        let mut o = format!("{s}: {class} on {n} dimensions, rank {rank}\n");
        let _ = writeln!(
            o,
            "  T_i, dimension 0 first  {}   (rank formula; {})",
            vector(&checked.per_dimension),
            enumerated_note(checked.enumerated)
        );
        let _ = writeln!(o, "  contention T(A, b)      {}", checked.contention);
        let _ = writeln!(o, "  least by reordering     {minimum}");
        out!("{o}");
    }
    Ok(())
}

fn reorder_one(s: &str, lcc: &Lcc, format: OutputFormat) -> Result<(), (String, Exit)> {
    let before = contention::checked(lcc).map_err(|e| (e.to_string(), Exit::Internal))?;
    let r: Reordering = reorder::reorder(lcc).map_err(|e| (e.to_string(), Exit::Internal))?;
    let n = lcc.n();
    let q = Matrix::permutation(&r.order);
    if format == OutputFormat::Json {
        let v = json!({
            "schema": "txverify-lcc-reorder/1", "spec": s, "dimensions": n,
            "class": lcc.class().name(), "method": r.method.name(), "order": r.order,
            "q": q.to_lists(), "matrix": r.after.a.to_lists(),
            "b": (0..n).map(|i| r.after.b >> i & 1).collect::<Vec<_>>(),
            "per_dimension": r.checked.per_dimension, "contention": r.checked.contention,
            "minimum": r.minimum, "enumerated": r.checked.enumerated && before.enumerated,
            "before": {"per_dimension": before.per_dimension, "contention": before.contention},
        });
        outln!("{v}");
        return Ok(());
    }
    let mut o = format!(
        "{s}: {} on {n} dimensions, {}\n",
        lcc.class().name(),
        r.method.name()
    );
    let _ = writeln!(
        o,
        "  order R     {}   (Q[i][R[i]] = 1)",
        order_text(&r.order)
    );
    let _ = writeln!(
        o,
        "  before      T_i = {}, T = {}",
        vector(&before.per_dimension),
        before.contention
    );
    let _ = writeln!(
        o,
        "  after       T_i = {}, T = {} = the least possible ({})",
        vector(&r.checked.per_dimension),
        r.checked.contention,
        enumerated_note(r.checked.enumerated)
    );
    matrix_text(&mut o, "QAQ^-1", &r.after.a);
    let _ = writeln!(o, "  Qb          {}", bits(r.after.b, n));
    matrix_text(&mut o, "Q", &q);
    out!("{o}");
    Ok(())
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

/// What went wrong, and the exit status it gives.
type Failure = (String, Exit);

fn map_cmd(args: &MapArgs) -> Exit {
    const SCHEMA: &str = "txverify-lcc-map/1";
    let mut lccs = Vec::new();
    for s in &args.specs {
        match spec::load(s) {
            Ok(l) => lccs.push(l),
            Err(e) => return load_failure(args.format, SCHEMA, json!(args.specs), &e),
        }
    }
    match map_run(args, &lccs) {
        Ok(()) => Exit::Ok,
        Err((m, exit)) => fail(args.format, SCHEMA, json!(args.specs), &m, exit),
    }
}

/// One communication of `lcc map`: SPEC, weight, after and before the mapping.
type Mapped<'a> = (&'a String, u64, Checked, Checked);

fn map_run(args: &MapArgs, lccs: &[Lcc]) -> Result<(), Failure> {
    let weights = match &args.weights {
        None => vec![1; lccs.len()],
        Some(w) => numbers::<u64>(w).ok_or_else(|| {
            (
                format!("--weights `{w}`: expected whole numbers"),
                Exit::Input,
            )
        })?,
    };
    let found = match args.objective {
        ObjectiveArg::Lex => lex::optimise(lccs, &weights).map(|(o, v)| (o, Found::Lex(v))),
        single => {
            let objective = match single {
                ObjectiveArg::Sum => Objective::Sum,
                ObjectiveArg::Simultaneous => Objective::Simultaneous,
                _ => Objective::Max,
            };
            map::optimise(lccs, &weights, objective).map(|(o, v)| (o, Found::Single(objective, v)))
        }
    };
    let (order, found) = found.map_err(|e| match e {
        MapError::Inconsistent { .. } | MapError::InconsistentLex { .. } => {
            (e.to_string(), Exit::Internal)
        }
        _ => (e.to_string(), Exit::Input),
    })?;
    let n = lccs[0].n();
    let identity: Vec<usize> = (0..n).collect();
    let identity_found = found.at(lccs, &weights, &identity);
    let internal = |e: ContentionError| (e.to_string(), Exit::Internal);
    let mut comms: Vec<Mapped> = Vec::new();
    for (s, (l, w)) in args.specs.iter().zip(lccs.iter().zip(&weights)) {
        let after = contention::checked(&l.reordered(&order)).map_err(internal)?;
        let before = contention::checked(l).map_err(internal)?;
        comms.push((s, *w, after, before));
    }
    if args.format == OutputFormat::Json {
        let list: Vec<Value> = comms
            .iter()
            .map(|(s, w, a, b)| {
                json!({"spec": s, "weight": w, "per_dimension": a.per_dimension,
                       "contention": a.contention, "before": b.contention})
            })
            .collect();
        let mut v = json!({
            "schema": "txverify-lcc-map/1", "specs": args.specs, "dimensions": n,
            "objective": found.name(), "weights": weights, "order": order,
            "value": found.value(), "identity_value": identity_found.value(),
            "subproblems": n << n.saturating_sub(1),
            "communications": list,
        });
        if let (Found::Lex(at), Found::Lex(identity)) = (found, identity_found) {
            v["contentions"] = json!(at.contentions);
            v["sum"] = json!(at.total);
            v["identity_contentions"] = json!(identity.contentions);
            v["identity_sum"] = json!(identity.total);
        }
        outln!("{v}");
        return Ok(());
    }
    let mut o = format!(
        "{} communications on {n} dimensions, objective {} (weights {})\n",
        lccs.len(),
        found.name(),
        vector(&weights)
    );
    let _ = writeln!(o, "  order R     {}", order_text(&order));
    let _ = writeln!(
        o,
        "  value       {} (identity order: {})",
        found.text(),
        identity_found.text()
    );
    for (s, _, a, b) in &comms {
        let (t, was, per) = (a.contention, b.contention, vector(&a.per_dimension));
        let _ = writeln!(o, "  {s}: T = {t} (was {was}), T_i = {per}");
    }
    out!("{o}");
    Ok(())
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

fn simulate_cmd(args: &SimArgs) -> Exit {
    const SCHEMA: &str = "txverify-lcc-simulate/2";
    let lcc = match spec::load(&args.spec) {
        Ok(l) => l,
        Err(e) => return load_failure(args.format, SCHEMA, json!(args.spec), &e),
    };
    match simulate_run(args, &lcc) {
        Ok(()) => Exit::Ok,
        Err((m, exit)) => fail(args.format, SCHEMA, json!(args.spec), &m, exit),
    }
}

/// The order, the loads and the run parameters of `lcc simulate`, checked.
fn sim_inputs(args: &SimArgs, lcc: &Lcc) -> Result<(Vec<usize>, Vec<f64>, SimConfig), Failure> {
    let n = lcc.n();
    let input = |m: String| (m, Exit::Input);
    if n > MAX_SIM_DIM {
        return Err(input(format!(
            "the simulation takes n ≤ {MAX_SIM_DIM} (n = {n})"
        )));
    }
    if args.flits == 0 {
        return Err(input("--flits must be at least 1".into()));
    }
    let order = match &args.order {
        Some(text) => numbers::<usize>(text)
            .filter(|o| is_permutation(o, n))
            .ok_or_else(|| {
                input(format!(
                    "--order `{text}` is not an order of the bits 0 … {}",
                    n - 1
                ))
            })?,
        None => {
            reorder::reorder(lcc)
                .map_err(|e| (e.to_string(), Exit::Internal))?
                .order
        }
    };
    let loads = match &args.loads {
        None => wormhole::default_loads(),
        Some(text) => numbers::<f64>(text)
            .filter(|l| l.iter().all(|x| *x > 0.0 && *x <= 1.0))
            .ok_or_else(|| input(format!("--loads `{text}`: expected numbers in (0, 1]")))?,
    };
    let config = SimConfig {
        flits: args.flits,
        warmup: args.warmup,
        measure: args.measure,
        drain: args.drain,
        seed: args.seed,
    };
    Ok((order, loads, config))
}

/// Writes the CSV and the SVG the options ask for.
fn write_files(args: &SimArgs, curves: &[Curve<'_>], config: &SimConfig) -> Result<(), Failure> {
    let write = |path: &PathBuf, text: String| {
        std::fs::write(path, text)
            .map_err(|e| (format!("cannot write {}: {e}", path.display()), Exit::Input))
    };
    if let Some(path) = &args.csv {
        write(path, plot::csv(curves))?;
    }
    if let Some(path) = &args.svg {
        let title = format!(
            "{}: e-cube wormhole routing, {} flits per message",
            args.spec, config.flits
        );
        let y_max = plot::latency_axis(curves, 25.0 * f64::from(config.flits));
        write(path, plot::svg(&title, curves, y_max))?;
    }
    Ok(())
}

fn simulate_run(args: &SimArgs, lcc: &Lcc) -> Result<(), Failure> {
    let (order, loads, config) = sim_inputs(args, lcc)?;
    let after = lcc.reordered(&order);
    let internal = |e: ContentionError| (e.to_string(), Exit::Internal);
    let t_before = contention::checked(lcc).map_err(internal)?.contention;
    let t_after = contention::checked(&after).map_err(internal)?.contention;
    let before_points = wormhole::sweep(lcc, &loads, &config);
    let after_points = wormhole::sweep(&after, &loads, &config);
    let curves = [
        Curve {
            label: format!("identity order (T = {t_before})"),
            points: &before_points,
            guide: Some(1.0 / t_before.max(1) as f64),
        },
        Curve {
            label: format!("order R = {} (T = {t_after})", order_text(&order)),
            points: &after_points,
            guide: Some(1.0 / t_after.max(1) as f64),
        },
    ];
    let sustained = [
        saturation::sustainable(lcc, &config),
        saturation::sustainable(&after, &config),
    ];
    let peak = [
        wormhole::peak_accepted(&before_points),
        wormhole::peak_accepted(&after_points),
    ];
    write_files(args, &curves, &config)?;
    let n = lcc.n();
    let summary = SimSummary {
        spec: &args.spec,
        n,
        streams: (0..1u64 << n)
            .filter(|&v| {
                let (s, d) = lcc.message(v);
                s != d
            })
            .count(),
        config: &config,
        order: &order,
        contention: (t_before, t_after),
        sustained: &sustained,
        peak,
        curves: &curves,
        files: (args.csv.as_ref(), args.svg.as_ref()),
    };
    match args.format {
        OutputFormat::Json => outln!("{}", summary.json()),
        OutputFormat::Text => out!("{}", summary.text()),
    }
    Ok(())
}

/// What `lcc simulate` reports.
struct SimSummary<'a> {
    spec: &'a str,
    n: usize,
    streams: usize,
    config: &'a SimConfig,
    order: &'a [usize],
    contention: (u64, u64),
    sustained: &'a [Sustainable; 2],
    peak: [f64; 2],
    curves: &'a [Curve<'a>; 2],
    files: (Option<&'a PathBuf>, Option<&'a PathBuf>),
}

/// `after / before`, 0 when `before` is 0.
fn ratio(before: f64, after: f64) -> f64 {
    if before > 0.0 { after / before } else { 0.0 }
}

/// One curve's sustainable rate, in JSON.
fn sustained_json(s: &Sustainable) -> Value {
    json!({"rate": s.rate, "accepted": s.at_rate.as_ref().map(|p| p.accepted),
           "latency": s.at_rate.as_ref().map(|p| p.latency),
           "not_sustained": s.above.as_ref().map(|p| p.offered), "runs": s.runs})
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

impl SimSummary<'_> {
    fn json(&self) -> Value {
        let mut points = Vec::new();
        for (name, c) in ["before", "after"].iter().zip(self.curves) {
            for p in c.points {
                points.push(
                    json!({"curve": name, "offered": p.offered, "accepted": p.accepted,
                    "latency": p.latency, "measured": p.measured, "delivered": p.delivered,
                    "backlog_first": p.backlog_first, "backlog_second": p.backlog_second,
                    "saturated": p.saturated}),
                );
            }
        }
        let path = |p: Option<&PathBuf>| p.map(|p| p.display().to_string());
        json!({
            "schema": "txverify-lcc-simulate/2", "spec": self.spec, "dimensions": self.n,
            "streams": self.streams, "flits": self.config.flits, "seed": self.config.seed,
            "cycles": {"warmup": self.config.warmup, "measure": self.config.measure,
                       "drain": self.config.drain},
            "order": self.order, "contention_before": self.contention.0,
            "contention_after": self.contention.1,
            "saturation_before": self.sustained[0].rate,
            "saturation_after": self.sustained[1].rate,
            "saturation_ratio": ratio(self.sustained[0].rate, self.sustained[1].rate),
            "sustained": {"resolution": saturation::RESOLUTION,
                          "before": sustained_json(&self.sustained[0]),
                          "after": sustained_json(&self.sustained[1])},
            "peak_accepted_before": self.peak[0], "peak_accepted_after": self.peak[1],
            "points": points, "csv": path(self.files.0), "svg": path(self.files.1),
        })
    }

    fn text(&self) -> String {
        let mut o = format!(
            "{}: {} streams on {} dimensions, {} flits per message, seed {}\n",
            self.spec, self.streams, self.n, self.config.flits, self.config.seed
        );
        for (name, c) in ["before", "after"].iter().zip(self.curves) {
            let _ = writeln!(o, "  {name}: {}", c.label);
            let _ = writeln!(o, "    offered  accepted  latency");
            for p in c.points {
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
        o += &sustained_text("before", &self.sustained[0]);
        o += &sustained_text("after", &self.sustained[1]);
        let (b, a) = (self.sustained[0].rate, self.sustained[1].rate);
        let _ = writeln!(
            o,
            "    ratio  {:.2} (contention {} → {})",
            ratio(b, a),
            self.contention.0,
            self.contention.1
        );
        let _ = writeln!(
            o,
            "  peak accepted rate, at an overloaded load (not sustainable)  {:.4} before, {:.4} after",
            self.peak[0], self.peak[1]
        );
        o
    }
}
