//! The `hypercube PROBLEM D` command's pipeline and report: an optimal
//! all-port collective on the d-cube built as a schedule, replayed by the
//! schedule simulator and compared with lower bounds computed from the network.
//!
//! The verdict rests on the replay (every send checked on `hypercube d`) and on
//! the core's bounds of the collective ([`txverify_core::bounds::collective()`]),
//! both independent of the constructions; the constructions' own checks are
//! reported beside them. The binary prints the report and exits with its
//! [`Status`].

use super::baselines::{HalfDuplex, SinglePort, baselines};
use super::bounds::{Bounds, all_port};
use super::buffer::{BufferCount, peak_buffer};
use super::table::{BufferFree, buffer_free};
use super::{
    Built, HypercubeError, Problem, build, exchange, exchange_checks, memory_estimate, streams,
    validate,
};
use crate::shared::failure::Status;
use crate::shared::replay_text::{ViolationEntry, replay_summary};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Instant;
use txverify_core::bounds::CollectiveBounds;
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{
    Collective, Ports, ReplayOptions, ReplayReport, Schedule, StreamReplay, replay, write_json,
    write_text,
};
use txverify_core::verdict::{ScheduleVerdict, judge};

/// What the command is asked: the problem's name, the dimension, the root,
/// where to write the schedule and the memory budget in GiB.
#[derive(Clone, Copy, Debug)]
pub struct HypercubeRequest<'a> {
    /// broadcast, scatter, gather, accumulate, mnb or exchange.
    pub problem: &'a str,
    /// The dimension d.
    pub dimension: u32,
    /// The root of a rooted problem (default 0).
    pub root: Option<u32>,
    /// Where to write the schedule, if anywhere.
    pub output: Option<&'a Path>,
    /// `--max-memory`: refuse sizes estimated above this many GiB.
    pub max_memory: Option<f64>,
}

/// Why the command stops without a report: a message and the status it exits with.
#[derive(Clone, Debug)]
pub struct HypercubeFailure {
    /// What went wrong.
    pub message: String,
    /// The exit status it maps to.
    pub status: Status,
}

impl HypercubeFailure {
    /// The failure as the JSON object the command prints with `--format json`.
    pub fn json(&self, request: &HypercubeRequest) -> serde_json::Value {
        serde_json::json!({
            "schema": SCHEMA,
            "problem": request.problem,
            "dimension": request.dimension,
            "error": { "message": self.message },
            "exit_code": self.status.code(),
        })
    }
}

type Failed = (String, Status);

impl From<Failed> for HypercubeFailure {
    fn from((message, status): Failed) -> HypercubeFailure {
        HypercubeFailure { message, status }
    }
}

/// The report of a run that got as far as a verdict.
pub struct HypercubeReport {
    findings: Findings,
    schedule_file: Option<String>,
}

impl HypercubeReport {
    /// 0 when the schedule is valid and optimal in time and transmissions, else 1.
    pub fn status(&self) -> Status {
        if self.findings.passed() {
            Status::Ok
        } else {
            Status::Rejected
        }
    }
    /// The human-readable report.
    pub fn text(&self) -> String {
        text(&self.findings)
    }
    /// The report as JSON (schema `txverify-hypercube/1`).
    pub fn json(&self) -> serde_json::Value {
        json(self.schedule_file.clone(), &self.findings, self.status())
    }
}

/// Runs the command: checks the request, builds (or streams) the schedule,
/// writes it where asked, replays it against the bounds and adds the baselines.
pub fn run(request: &HypercubeRequest) -> Result<HypercubeReport, HypercubeFailure> {
    let started = Instant::now();
    let problem = checked_request(request)?;
    let mut findings = if streams(problem) && request.output.is_none() {
        examine_streamed(request, started)?
    } else {
        build_and_examine(problem, request, started)?
    };
    add_baselines(&mut findings)?;
    Ok(HypercubeReport {
        findings,
        schedule_file: request.output.map(|p| p.display().to_string()),
    })
}

/// The JSON schema of the report.
const SCHEMA: &str = "txverify-hypercube/1";

/// The memory budget when `--max-memory` is not given and the system does not
/// say how much is available. When it does, a run may plan on 7/8 of it: the
/// rest is left to the machine's other processes and to the estimate's error
/// (under 3% where measured).
const DEFAULT_BUDGET: u128 = 8 << 30;

/// What a construction says about itself (its schedule left out, which a
/// streamed run never holds whole).
struct About {
    subtree_sizes: Option<Vec<u64>>,
    link_set_sizes: Option<Vec<usize>>,
    checks: Vec<String>,
}

impl From<&Built> for About {
    fn from(built: &Built) -> About {
        About {
            subtree_sizes: built.subtree_sizes.clone(),
            link_set_sizes: built.link_set_sizes.clone(),
            checks: built.checks.clone(),
        }
    }
}

/// What the side thread computes beside the replay.
struct Side {
    bounds: CollectiveBounds,
    peak_buffer: Option<u32>,
    table: Option<Result<BufferFree, String>>,
}

/// Everything the report says.
struct Findings {
    problem: Problem,
    d: u32,
    root: Option<u32>,
    built: About,
    replayed: ReplayReport,
    bounds: Bounds,
    /// The trusted verdict on the replay against the bounds.
    verdict: ScheduleVerdict,
    peak_buffer: Option<u32>,
    table: Option<BufferFree>,
    seconds: [f64; 3],
    /// The single-port and half-duplex baselines, once computed.
    baselines: Option<(SinglePort, HalfDuplex)>,
}

impl Findings {
    fn optimal_time(&self) -> bool {
        self.verdict.optimal()
    }
    fn optimal_transmissions(&self) -> bool {
        self.verdict.optimal_transmissions()
    }
    /// Sends over time × directed links: 1 when every link carries a packet in
    /// every direction at every step.
    fn utilisation(&self) -> f64 {
        let slots = f64::from(self.replayed.time()) * self.replayed.directed_links() as f64;
        if slots == 0.0 {
            0.0
        } else {
            self.replayed.transmissions() as f64 / slots
        }
    }
    fn passed(&self) -> bool {
        self.verdict.valid() && self.optimal_time() && self.optimal_transmissions()
    }
}

/// The exit status of a construction that failed.
fn construction_failed(e: HypercubeError) -> Failed {
    match e {
        HypercubeError::Construction { .. } | HypercubeError::LinkSets(_) => {
            (e.to_string(), Status::Rejected)
        }
        e => (e.to_string(), Status::Input),
    }
}

/// Builds every send, writes the schedule file if one is asked for, and
/// replays the schedule whole.
fn build_and_examine(
    problem: Problem,
    args: &HypercubeRequest,
    started: Instant,
) -> Result<Findings, Failed> {
    let built = build(problem, args.dimension, args.root).map_err(construction_failed)?;
    if let Some(path) = &args.output {
        write_schedule(&built.schedule, path).map_err(|e| {
            (
                format!("cannot write {}: {e}", path.display()),
                Status::Input,
            )
        })?;
    }
    examine(problem, args, built, started)
}

/// The problem asked for, once the dimension and the memory estimate pass.
fn checked_request(args: &HypercubeRequest) -> Result<Problem, Failed> {
    let problem = args
        .problem
        .parse::<Problem>()
        .map_err(|e| (e.to_string(), Status::Input))?;
    let d = args.dimension;
    validate(problem, d, args.root).map_err(|e| (e.to_string(), Status::Input))?;
    let streamed = streams(problem) && args.output.is_none();
    check_memory(problem, d, streamed, args.max_memory, available_memory())
        .map_err(|m| (m, Status::Input))?;
    Ok(problem)
}

/// Replays the schedule on this thread while another computes the bounds, the
/// buffer count and, for exchange, the kernel-checked buffer-free table.
fn examine(
    problem: Problem,
    args: &HypercubeRequest,
    built: Built,
    started: Instant,
) -> Result<Findings, Failed> {
    let built_at = started.elapsed().as_secs_f64();
    let graph = cube(args.dimension)?;
    let root = problem.has_root().then(|| args.root.unwrap_or(0));
    let (replayed, side) = std::thread::scope(|scope| {
        let side = scope.spawn(|| {
            let mut side = side_findings(problem, &graph, args.dimension, root);
            side.peak_buffer = peak_buffer(&built.schedule, graph.nodes());
            side
        });
        let replayed = replay(&built.schedule, &graph, &ReplayOptions { max_listed: 20 });
        let side = side.join().expect("the bounds thread does not panic");
        (replayed, side)
    });
    let replayed = replayed.map_err(|e| {
        let message = format!("cannot replay the schedule: {e}");
        (message, Status::Input)
    })?;
    let times = [built_at, started.elapsed().as_secs_f64()];
    conclude(problem, args, About::from(&built), replayed, side, times)
}

/// Section 4's exchange a step at a time: each step's sends are generated,
/// replayed and counted for the buffer, then dropped, so the d·2^(2d−1) sends
/// are never held together (the replay and its verdict are those of a whole
/// schedule; docs/hypercube.md gives the memory saved).
fn examine_streamed(args: &HypercubeRequest, started: Instant) -> Result<Findings, Failed> {
    let d = args.dimension;
    let hops = exchange::hops_by_step(d).map_err(construction_failed)?;
    let built_at = started.elapsed().as_secs_f64();
    let graph = cube(d)?;
    let (replayed, side) = std::thread::scope(|scope| {
        let side = scope.spawn(|| side_findings(Problem::Exchange, &graph, d, None));
        let replayed = replay_steps(&graph, d, &hops);
        let side = side.join().expect("the bounds thread does not panic");
        (replayed, side)
    });
    let (replayed, peak) = replayed.map_err(|e| {
        let message = format!("cannot replay the schedule: {e}");
        (message, Status::Input)
    })?;
    let side = Side {
        peak_buffer: Some(peak),
        ..side
    };
    let about = About {
        subtree_sizes: None,
        link_set_sizes: None,
        checks: exchange_checks(),
    };
    let times = [built_at, started.elapsed().as_secs_f64()];
    conclude(Problem::Exchange, args, about, replayed, side, times)
}

/// Replays and counts the buffer of section 4's sends, one step at a time.
fn replay_steps(
    graph: &Graph,
    d: u32,
    hops: &[Vec<exchange::RelativeHop>],
) -> Result<(ReplayReport, u32), txverify_core::schedule::ReplayError> {
    let options = ReplayOptions { max_listed: 20 };
    let mut stream = StreamReplay::start(graph, Ports::All, Collective::TotalExchange, &options)?;
    let mut count = BufferCount::new(Collective::TotalExchange, graph.nodes())
        .expect("a total exchange has personalised packets");
    let mut batch = Vec::new();
    for step in hops {
        batch.clear();
        exchange::step_sends(d, step, &mut batch);
        stream.feed(&batch)?;
        count.feed(&batch);
    }
    Ok((stream.finish()?, count.finish()))
}

fn cube(d: u32) -> Result<Graph, Failed> {
    NetworkName::Hypercube(d)
        .build()
        .map_err(|e| (e.to_string(), Status::Input))
}

/// The bounds and, for exchange, the buffer-free table (the buffer count is
/// the caller's, from the sends).
fn side_findings(problem: Problem, graph: &Graph, d: u32, root: Option<u32>) -> Side {
    Side {
        bounds: all_port(problem, graph, root.unwrap_or(0)),
        peak_buffer: None,
        table: (problem == Problem::Exchange).then(|| buffer_free(d).map_err(|e| e.to_string())),
    }
}

/// The trusted verdict on the replay against the bounds, and the report.
fn conclude(
    problem: Problem,
    args: &HypercubeRequest,
    built: About,
    replayed: ReplayReport,
    side: Side,
    [built_at, checked_at]: [f64; 2],
) -> Result<Findings, Failed> {
    let d = args.dimension;
    let table = match side.table {
        Some(Err(e)) => {
            let message = format!("the buffer-free table failed: {e}");
            return Err((message, Status::Internal));
        }
        Some(Ok(t)) if !t.valid => {
            let message = format!("the kernel rejects the table of gen hypercube {d}");
            return Err((message, Status::Internal));
        }
        Some(Ok(t)) => Some(t),
        None => None,
    };
    // The core's all-port bounds of the collective on the d-cube, each with
    // the model it is proved under.
    let verdict = judge(
        &replayed,
        Some(side.bounds.time.best().clone()),
        Some(side.bounds.transmissions.best().clone()),
    );
    let bounds = Bounds {
        time: side.bounds.time.value(),
        transmissions: side.bounds.transmissions.value(),
    };
    Ok(Findings {
        verdict,
        problem,
        d,
        root: problem.has_root().then(|| args.root.unwrap_or(0)),
        built,
        replayed,
        bounds,
        peak_buffer: side.peak_buffer,
        table,
        seconds: [built_at, checked_at - built_at, checked_at],
        baselines: None,
    })
}

/// The single-port and half-duplex baselines, computed once the all-port
/// schedule is dropped (the single-port replay holds its own sends).
fn add_baselines(f: &mut Findings) -> Result<(), Failed> {
    let graph = cube(f.d)?;
    let time = u64::from(f.replayed.time());
    let found = baselines(f.problem, f.d, f.root.unwrap_or(0), &graph, time).map_err(|e| {
        let message = format!("cannot replay the single-port schedule: {e}");
        (message, Status::Internal)
    })?;
    if found.0.checked.as_ref().is_some_and(|v| !v.valid()) {
        let message = "the single-port schedule is invalid under ports 1".to_string();
        return Err((message, Status::Internal));
    }
    f.baselines = Some(found);
    Ok(())
}

/// How many times longer `time` is than the all-port time.
fn gain(time: u64, all_port: u32) -> f64 {
    if all_port == 0 {
        1.0
    } else {
        time as f64 / f64::from(all_port)
    }
}

fn baselines_json(f: &Findings) -> serde_json::Value {
    let Some((single, half)) = &f.baselines else {
        return serde_json::Value::Null;
    };
    let checked = single.checked.as_ref();
    serde_json::json!({
        "single_port": {
            "time": single.time,
            "time_bound": single.time_bound,
            "replayed": checked.is_some(),
            "optimal_time": checked.map(ScheduleVerdict::optimal),
            "all_port_gain": gain(single.time, f.replayed.time()),
        },
        "half_duplex": {
            "time": half.time,
            "time_bound": half.time_bound,
            "all_port_gain": gain(half.time, f.replayed.time()),
        },
    })
}

fn baselines_text(f: &Findings, out: &mut String) {
    let Some((single, half)) = &f.baselines else {
        return;
    };
    let checked = match &single.checked {
        Some(v) if v.optimal() => "replayed with ports 1: valid, optimal",
        Some(_) => "replayed with ports 1: valid, NOT optimal",
        None => "not replayed at this size",
    };
    let _ = writeln!(
        out,
        "  single port   time {}, lower bound {} ({checked}): all ports {:.2}x faster",
        single.time,
        single.time_bound,
        gain(single.time, f.replayed.time())
    );
    let _ = writeln!(
        out,
        "  half duplex   time {}, lower bound {} (derived from this schedule, not replayed): all ports {:.2}x faster",
        half.time,
        half.time_bound,
        gain(half.time, f.replayed.time())
    );
}

/// Refuses a size whose estimated memory is over the budget.
fn check_memory(
    problem: Problem,
    d: u32,
    streamed: bool,
    max_gib: Option<f64>,
    available: Option<u128>,
) -> Result<(), String> {
    let need = memory_estimate(problem, d, streamed);
    let (budget, whence) = match max_gib {
        Some(g) if g.is_finite() && g >= 0.0 => {
            ((g * f64::from(1u32 << 30)) as u128, "--max-memory")
        }
        Some(g) => return Err(format!("--max-memory must be a number of GiB, not {g}")),
        None => match available {
            Some(bytes) => (bytes / 8 * 7, "7/8 of the memory available"),
            None => (DEFAULT_BUDGET, "the default budget"),
        },
    };
    if need > budget {
        let held = if streamed {
            "one step's sends".to_string()
        } else {
            format!("{} sends of 20 bytes", problem.sends(d))
        };
        return Err(format!(
            "{problem} on the {d}-cube needs about {} ({held}, plus the replay's state), more than {} ({whence}); raise it with --max-memory GIB",
            gib(need),
            gib(budget)
        ));
    }
    Ok(())
}

fn gib(bytes: u128) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// `MemAvailable` of /proc/meminfo, where there is one.
fn available_memory() -> Option<u128> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Writes the schedule as JSON when the path ends in `.json`, as text otherwise.
fn write_schedule(schedule: &Schedule, path: &std::path::Path) -> std::io::Result<()> {
    let file = std::fs::File::create(path)?;
    let mut w = std::io::BufWriter::new(file);
    if path.extension().is_some_and(|e| e == "json") {
        write_json(schedule, &mut w)?;
    } else {
        write_text(schedule, &mut w)?;
    }
    w.flush()
}

fn table_json(table: &Option<BufferFree>) -> serde_json::Value {
    match table {
        None => serde_json::Value::Null,
        Some(t) => serde_json::json!({
            "time": t.time,
            "transmissions": t.transmissions,
            "peak_queue": t.peak_queue,
            "peak_buffer": t.peak_buffer,
        }),
    }
}

fn json(schedule_file: Option<String>, f: &Findings, status: Status) -> serde_json::Value {
    let r = &f.replayed;
    serde_json::json!({
        "schema": SCHEMA,
        "problem": f.problem.name(),
        "dimension": f.d,
        "nodes": r.nodes(),
        "directed_links": r.directed_links(),
        "network": NetworkName::Hypercube(f.d).to_string(),
        "ports": "all",
        "root": f.root,
        "collective": r.collective().to_string(),
        "checked_as": r.checked_as().to_string(),
        "time": r.time(),
        "time_bound": f.bounds.time,
        "transmissions": r.transmissions(),
        "transmissions_bound": f.bounds.transmissions,
        "optimal_time": f.optimal_time(),
        "optimal_transmissions": f.optimal_transmissions(),
        "valid": f.verdict.valid(),
        "violations": f.verdict.violations(),
        "violations_listed": r.violations().iter().map(ViolationEntry::from).collect::<Vec<_>>(),
        "derouted": r.derouted(),
        "peak_queue": r.peak_queue(),
        "peak_buffer": f.peak_buffer,
        "utilisation": f.utilisation(),
        "subtree_sizes": f.built.subtree_sizes,
        "link_set_sizes": f.built.link_set_sizes,
        "construction_checks": f.built.checks,
        "buffer_free": table_json(&f.table),
        "baselines": baselines_json(f),
        "schedule_file": schedule_file,
        "seconds": { "build": f.seconds[0], "check": f.seconds[1], "total": f.seconds[2] },
        "exit_code": status.code(),
    })
}

fn verdict(ok: bool) -> &'static str {
    if ok { "optimal" } else { "NOT optimal" }
}

fn text(f: &Findings) -> String {
    let r = &f.replayed;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "hypercube {} {}: {} on hypercube {} ({} nodes, {} directed links), all ports",
        f.problem,
        f.d,
        r.collective(),
        f.d,
        r.nodes(),
        r.directed_links()
    );
    if r.checked_as() != r.collective() {
        let _ = writeln!(
            out,
            "  note          replayed as the reversal, {}",
            r.checked_as()
        );
    }
    let _ = write!(out, "  replay        {}", replay_summary(r, &f.verdict));
    if let Some(b) = f.peak_buffer {
        let _ = write!(out, ", peak buffer {b}");
    }
    let _ = writeln!(out, ", link use {:.1}%", 100.0 * f.utilisation());
    for v in r.violations() {
        let _ = writeln!(out, "  error: {v}");
    }
    let _ = writeln!(
        out,
        "  time          {}, lower bound {}: {}",
        r.time(),
        f.bounds.time,
        verdict(f.optimal_time())
    );
    let _ = writeln!(
        out,
        "  transmissions {}, lower bound {}: {}",
        r.transmissions(),
        f.bounds.transmissions,
        verdict(f.optimal_transmissions())
    );
    construction_text(f, &mut out);
    baselines_text(f, &mut out);
    let _ = writeln!(
        out,
        "  seconds       {:.3} build, {:.3} replay and bounds, {:.3} in all",
        f.seconds[0], f.seconds[1], f.seconds[2]
    );
    let summary = if f.passed() {
        "OPTIMAL in time and in transmissions".to_string()
    } else if !f.verdict.valid() {
        format!("INVALID ({} violations)", f.verdict.violations())
    } else {
        "valid, NOT optimal".to_string()
    };
    let _ = writeln!(out, "  verdict       {summary}");
    out
}

/// What the construction says about itself, and the buffer-free table beside it.
fn construction_text(f: &Findings, out: &mut String) {
    if let Some(sizes) = &f.built.subtree_sizes {
        let list: Vec<String> = sizes.iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "  subtrees      {} nodes across dimensions 1 … {} of the root",
            list.join(" "),
            f.d
        );
    }
    if let Some(sizes) = &f.built.link_set_sizes {
        let largest = sizes.iter().max().copied().unwrap_or(0);
        let _ = writeln!(
            out,
            "  link sets     {} sets A_i of at most {largest} links, each of distinct types",
            sizes.len()
        );
    }
    for check in &f.built.checks {
        let _ = writeln!(out, "  checked       {check}");
    }
    if let Some(t) = &f.table {
        let _ = writeln!(
            out,
            "  buffer-free   gen hypercube {} (kernel: valid): time {}, {} transmissions, peak queue {}, peak buffer {}",
            f.d, t.time, t.transmissions, t.peak_queue, t.peak_buffer
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u128 = 1 << 30;

    #[test]
    fn mnb_15_is_refused_on_a_machine_with_22_gib_available_and_runs_when_told_to() {
        // mnb 15: 2^15 (2^15 − 1) sends of 20 bytes are 20 GiB before the replay.
        let sends = memory_estimate(Problem::Mnb, 15, false);
        assert!(sends > 20 * GIB && sends < 21 * GIB, "{sends}");
        let refused = check_memory(Problem::Mnb, 15, false, None, Some(22 * GIB)).unwrap_err();
        assert!(refused.contains("needs about 20.") && refused.contains("--max-memory"));
        assert!(check_memory(Problem::Mnb, 15, false, Some(22.0), Some(GIB)).is_ok());
        assert!(check_memory(Problem::Mnb, 14, false, None, Some(22 * GIB)).is_ok());
    }

    #[test]
    fn a_streamed_exchange_needs_its_packet_state_not_its_sends() {
        // exchange 13: 8 bytes for each of the 2^26 packets; 436 M sends are not held.
        let streamed = memory_estimate(Problem::Exchange, 13, true);
        assert!(streamed > GIB / 2 && streamed < GIB, "{streamed}");
        assert!(memory_estimate(Problem::Exchange, 13, false) > 8 * GIB);
        assert!(check_memory(Problem::Exchange, 13, true, None, Some(2 * GIB)).is_ok());
        assert!(check_memory(Problem::Exchange, 13, false, None, Some(2 * GIB)).is_err());
    }
}
