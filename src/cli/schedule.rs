//! `txverify simulate` on schedule files, and `txverify schedule convert`.
//!
//! A file given to `simulate` is a schedule when
//! [`txverify_core::schedule::format::is_schedule`] says so (JSON
//! object, or a `sends:` line); `.tbl` files keep their own path.

use super::exit::Exit;
use super::{OutputFormat, SimulateArgs};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::format::{is_schedule, write_json, write_text};
use txverify_core::schedule::replay::ReplayReport;
use txverify_core::schedule::{Ports, ReplayOptions, Schedule, parse, replay};
use txverify_core::verdict::{ScheduleVerdict, judge};

/// The `schema` of `simulate --format json` on a schedule.
const REPORT_SCHEMA: &str = "txverify-schedule-report/1";

/// Work on schedule files (docs/schedule.md).
#[derive(clap::Args, Debug)]
pub struct ScheduleArgs {
    #[command(subcommand)]
    command: ScheduleCommand,
}

#[derive(clap::Subcommand, Debug)]
enum ScheduleCommand {
    /// Convert a schedule between the text and JSON formats (without loss).
    #[command(after_help = super::examples::SCHEDULE_CONVERT)]
    Convert(ConvertArgs),
}

/// Schedule formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ScheduleFormat {
    /// `key: value` header, `sends:`, one send per line.
    Text,
    /// One JSON object, schema `txverify-schedule/1`.
    Json,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// The schedule (text or JSON).
    file: PathBuf,
    /// The format to write.
    #[arg(long, value_enum)]
    to: ScheduleFormat,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `txverify schedule …`.
pub fn run(args: &ScheduleArgs) -> Exit {
    match &args.command {
        ScheduleCommand::Convert(c) => convert(c),
    }
}

fn read(path: &std::path::Path) -> Result<String, Exit> {
    super::read_text(path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
        Exit::Input
    })
}

fn read_schedule(path: &std::path::Path) -> Result<(String, Schedule), Exit> {
    let source = read(path)?;
    match parse(&source) {
        Ok(s) => Ok((source, s)),
        Err(e) => {
            eprint!("{}", e.render(&path.display().to_string(), &source));
            Err(Exit::Input)
        }
    }
}

fn convert(args: &ConvertArgs) -> Exit {
    let schedule = match read_schedule(&args.file) {
        Ok((_, s)) => s,
        Err(code) => return code,
    };
    let result = match &args.output {
        Some(path) => std::fs::File::create(path).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            write_to(&schedule, args.to, &mut w)?;
            w.flush()
        }),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            write_to(&schedule, args.to, &mut w).and_then(|_| w.flush())
        }
    };
    match result {
        Ok(()) => Exit::Ok,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Exit::BrokenPipe,
        Err(e) => {
            eprintln!("error: cannot write the schedule: {e}");
            Exit::Input
        }
    }
}

fn write_to(s: &Schedule, to: ScheduleFormat, w: &mut impl std::io::Write) -> std::io::Result<()> {
    match to {
        ScheduleFormat::Text => write_text(s, w),
        ScheduleFormat::Json => write_json(s, w),
    }
}

/// When `args.file` is a schedule, replays it and returns the exit status;
/// `None` hands the file on to the `.tbl` path.
pub fn simulate_if_schedule(args: &SimulateArgs) -> Option<Exit> {
    let shown = args.file.display().to_string();
    // An unreadable file is reported by the `.tbl` path, as before.
    let source = super::read_text(&args.file).ok()?;
    if !is_schedule(&source) {
        if args.network.is_some() || args.ports.is_some() {
            eprintln!("error: {shown}: --network and --ports apply to schedule files only");
            return Some(Exit::Input);
        }
        return None;
    }
    let fail = |message: String, at: Option<(usize, usize)>| {
        if args.format == OutputFormat::Json {
            let (line, column) = at.unzip();
            let value = serde_json::json!({
                "schema": REPORT_SCHEMA,
                "file": shown,
                "error": { "message": message, "line": line, "column": column },
                "exit_code": Exit::Input.code(),
            });
            outln!("{value}");
        }
        Some(Exit::Input)
    };
    if args.trace {
        eprintln!("error: {shown}: --trace is for tables; a schedule lists its sends already");
        return fail("--trace is for tables".to_string(), None);
    }
    let mut schedule = match parse(&source) {
        Ok(s) => s,
        Err(e) => {
            eprint!("{}", e.render(&shown, &source));
            return fail(e.kind.to_string(), Some((e.line, e.column)));
        }
    };
    // A schedule's `edges FILE` is relative to the schedule (docs/networks.md).
    let here = args.file.parent().unwrap_or(std::path::Path::new(""));
    schedule.network = schedule.network.map(|name| name.relative_to(here));
    // `--network FILE.tbl`: the Cayley graph of a `.tbl` header (docs/schedule.md).
    let cayley = match args.network.as_deref().filter(|t| t.ends_with(".tbl")) {
        Some(path) => match cayley_of_header(path) {
            Ok(graph) => Some((path.to_string(), graph)),
            Err(message) => {
                eprintln!("error: --network {path}: {message}");
                return fail(format!("--network: {message}"), None);
            }
        },
        None => None,
    };
    if let Some(text) = args.network.as_ref().filter(|_| cayley.is_none()) {
        match text.parse::<NetworkName>() {
            Ok(name) => schedule.network = Some(name),
            Err(e) => {
                eprintln!("error: --network {text}: {e}");
                return fail(format!("--network: {e}"), None);
            }
        }
    }
    if let Some(text) = &args.ports {
        match text.parse::<Ports>() {
            Ok(p) => schedule.ports = Some(p),
            Err(e) => {
                eprintln!("error: --ports {text}: {e}");
                return fail(format!("--ports: {e}"), None);
            }
        }
    }
    let (name, graph): (String, Graph) = match (cayley, schedule.network.clone()) {
        (Some(named_graph), _) => named_graph,
        (None, Some(name)) => match name.build() {
            Ok(g) => (name.to_string(), g),
            Err(e) => {
                eprintln!("error: {shown}: network {name}: {e}");
                return fail(e.to_string(), None);
            }
        },
        (None, None) => {
            eprintln!("error: {shown}: the schedule says no `network:`; give --network");
            return fail("no network".to_string(), None);
        }
    };
    let report = match replay(&schedule, &graph, &ReplayOptions::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            return fail(e.to_string(), None);
        }
    };
    // A schedule file states no bound: the verdict is valid or invalid.
    let verdict = judge(&report, None, None);
    match args.format {
        OutputFormat::Json => outln!("{}", json(&shown, &name, &report, &verdict)),
        OutputFormat::Text => out!("{}", text(&shown, &name, &report, &verdict)),
    }
    Some(if verdict.valid() {
        Exit::Ok
    } else {
        Exit::Rejected
    })
}

fn reversal_note(r: &ReplayReport) -> Option<String> {
    (r.checked_as() != r.collective()).then(|| {
        format!(
            "checked as the time-and-direction reversal of {}",
            r.checked_as()
        )
    })
}

fn json(shown: &str, network: &str, r: &ReplayReport, v: &ScheduleVerdict) -> serde_json::Value {
    let ports = match r.ports() {
        Ports::All => serde_json::json!("all"),
        Ports::Limit(k) => serde_json::json!(k),
    };
    let counts: serde_json::Map<String, serde_json::Value> = r
        .counts()
        .iter()
        .map(|(k, &c)| (k.name().to_string(), c.into()))
        .collect();
    let violations: Vec<serde_json::Value> = r.violations().iter().map(violation_json).collect();
    let link_use: Vec<serde_json::Value> = r
        .link_use()
        .iter()
        .map(|u| serde_json::json!({ "step": u.step, "busy_links": u.busy_links }))
        .collect();
    serde_json::json!({
        "schema": REPORT_SCHEMA,
        "file": shown,
        "network": network.to_string(),
        "nodes": r.nodes(),
        "directed_links": r.directed_links(),
        "ports": ports,
        "collective": r.collective().to_string(),
        "checked_as": r.checked_as().to_string(),
        "note": reversal_note(r),
        "valid": v.valid(),
        "time": r.time(),
        "transmissions": r.transmissions(),
        "derouted": r.derouted(),
        "peak_queue": r.peak_queue(),
        "link_use": link_use,
        "violation_counts": counts,
        "violations_listed": r.violations().len(),
        "violations": violations,
        "bytes_per_send": Schedule::BYTES_PER_SEND,
        "exit_code": if v.valid() { 0 } else { 1 },
    })
}

/// Steps listed one by one in the text report; longer schedules get a summary.
const LISTED_STEPS: usize = 32;

fn text(shown: &str, network: &str, r: &ReplayReport, v: &ScheduleVerdict) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{shown}: schedule of {} on {network} ({} nodes, {} directed links), ports {}",
        r.collective(),
        r.nodes(),
        r.directed_links(),
        r.ports()
    );
    if let Some(note) = reversal_note(r) {
        let _ = writeln!(out, "  note         {note}");
    }
    let _ = writeln!(
        out,
        "  sends        {} transmissions, time {}, derouted {}, peak queue {}",
        r.transmissions(),
        r.time(),
        r.derouted(),
        r.peak_queue()
    );
    let busiest = r.link_use().iter().map(|u| u.busy_links).max().unwrap_or(0);
    let _ = write!(
        out,
        "  link use     busiest step uses {busiest} of {} directed links",
        r.directed_links()
    );
    if r.link_use().len() <= LISTED_STEPS {
        let steps: Vec<String> = r
            .link_use()
            .iter()
            .map(|u| format!("{}:{}", u.step, u.busy_links))
            .collect();
        let _ = write!(out, "; per step {}", steps.join(" "));
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  memory       {} bytes per send",
        Schedule::BYTES_PER_SEND
    );
    if v.valid() {
        let _ = writeln!(out, "  verdict      {v}");
    } else {
        let counts: Vec<String> = r.counts().iter().map(|(k, c)| format!("{c} {k}")).collect();
        let _ = writeln!(
            out,
            "  verdict      INVALID ({} violations: {})",
            v.violations(),
            counts.join(", ")
        );
        violation_lines(r, "  error: ", &mut out);
    }
    out
}

/// The violations the replay listed, one a line after `prefix`, and how many
/// more it counted.
pub(super) fn violation_lines(r: &ReplayReport, prefix: &str, out: &mut String) {
    for v in r.violations() {
        let _ = writeln!(out, "{prefix}{v}");
    }
    let more = r
        .violation_count()
        .saturating_sub(r.violations().len() as u64);
    if more > 0 {
        let _ = writeln!(out, "{prefix}… and {more} more");
    }
}

/// The Cayley graph of the `.tbl` file at `path` (its header: group and links),
/// numbered as the group's elements, or what went wrong, in words.
pub(super) fn cayley_of_header(path: &str) -> Result<Graph, String> {
    let source =
        super::read_text(std::path::Path::new(path)).map_err(|e| format!("cannot read it: {e}"))?;
    let loaded = txverify_core::load::load(&source, &Default::default())
        .map_err(|_| "it does not load (`txverify check` says why)".to_string())?;
    let instance = &loaded.instance;
    Graph::cayley(instance.group(), instance.links()).map_err(|e| e.to_string())
}

/// One violation of a replay as JSON (`destination` is `"*"` for a broadcast packet).
pub(super) fn violation_json(v: &txverify_core::schedule::Violation) -> serde_json::Value {
    let destination = if v.packet.is_broadcast() {
        serde_json::json!("*")
    } else {
        serde_json::json!(v.packet.destination)
    };
    serde_json::json!({
        "kind": v.kind.name(),
        "step": v.step,
        "node": v.node,
        "link": v.link.map(|(a, b)| [a, b]),
        "packet": { "source": v.packet.source, "destination": destination },
    })
}

/// The replay's one-line summary: validity (the verdict's), time,
/// transmissions, deroutes and peak queue, as the text reports print it after
/// their label.
pub(super) fn replay_summary(r: &ReplayReport, v: &ScheduleVerdict) -> String {
    format!(
        "{}: time {}, {} transmissions, derouted {}, peak queue {}",
        if v.valid() { "valid" } else { "INVALID" },
        r.time(),
        r.transmissions(),
        r.derouted(),
        r.peak_queue()
    )
}
