//! The result of checking an MSCCL program, as text and as JSON (schema
//! `txverify-msccl/2`, docs/json.md).

use super::Check;
use super::execute::Figures;
use super::execute::Finding;
use super::links::OnNetwork;
use crate::shared::failure::Status;
use crate::timed::{TimedReport, TimingRequest};
use serde::Serialize;
use serde_json::{Value, json};
use txverify_core::network::Graph;

/// The JSON schema name.
pub const SCHEMA: &str = "txverify-msccl/2";

/// One finding as a sentence: where, then why.
pub fn finding_sentence(mode: &str, f: &Finding) -> String {
    sentence(mode, f, true)
}

/// [`finding_sentence`] without the line and column, for reports that put the
/// place in front (`file:line:col: …`).
pub fn finding_sentence_unplaced(mode: &str, f: &Finding) -> String {
    sentence(mode, f, false)
}

fn sentence(mode: &str, f: &Finding, placed: bool) -> String {
    let mut at = format!("GPU {}", f.gpu);
    if let Some(tb) = f.tb {
        at.push_str(&format!(", thread block {tb}"));
    }
    if let Some(step) = f.step {
        at.push_str(&format!(", step {step}"));
    }
    if let Some(pos) = f.pos.filter(|_| placed) {
        at.push_str(&format!(" (line {}, column {})", pos.line, pos.col));
    }
    if let Some((buf, i)) = f.slot {
        at.push_str(&format!(", chunk {}[{i}]", buf.letter()));
    }
    format!("{at}, {mode}: {}", f.message)
}

/// The text report of `check` on file `path`.
pub fn text(path: &str, check: &Check) -> String {
    let mut out = String::new();
    let verdict = check.verdict().word();
    let coll = check.collective.map_or(check.coll.as_str(), |c| c.name());
    out.push_str(&format!(
        "{path}: {verdict} MSCCL {coll} on {} GPUs (\"{}\", {})\n",
        check.ngpus, check.name, check.proto
    ));
    if let Some(reason) = check.reason() {
        out.push_str(&format!("  reason: {reason}\n"));
    }
    for p in check.problems.iter().skip(1).take(9) {
        out.push_str(&format!("  also: {}: {}\n", p.pos, p.message));
    }
    if check.problems.len() > 10 {
        out.push_str(&format!(
            "  … and {} more problems\n",
            check.problems.len() - 10
        ));
    }
    if !check.problems.is_empty() {
        match &check.finding {
            Some(_) if check.modes.is_empty() => {}
            Some((mode, f)) => out.push_str(&format!(
                "  run as if accepted: {}\n",
                finding_sentence(mode, f)
            )),
            None if !check.modes.is_empty() => {
                out.push_str("  run as if accepted: the data would be right\n")
            }
            None => {}
        }
    }
    if let Some(f) = &check.figures {
        out.push_str(&format!(
            "  checked: {}; critical path {} transmissions; {} transmissions on {} thread blocks; {} chunks sent on {} connections",
            check.modes.join(" and "),
            f.critical_path,
            f.transmissions,
            check.threadblocks,
            f.connections.values().sum::<u64>(),
            f.connections.len()
        ));
        if !f.roots.is_empty() {
            let roots: Vec<String> = f.roots.iter().map(u32::to_string).collect();
            out.push_str(&format!("; right for root {}", roots.join(", ")));
        }
        out.push('\n');
        if let Some(most) = f.connections.values().max() {
            out.push_str(&format!(
                "  busiest connection: {most} chunks; at most {} chunks sent and not yet received on one connection\n",
                f.most_buffered
            ));
        }
    }
    if let Some(on) = &check.network {
        out.push_str(&network_text(on));
    }
    if check.longest_threadblock > super::lower::MAX_NUM_STEPS {
        out.push_str(&format!(
            "  note: a thread block runs {} transmissions; msccl-executor-nccl's default build takes {} (MSCCL_MAX_NUM_STEPS)\n",
            check.longest_threadblock,
            super::lower::MAX_NUM_STEPS
        ));
    }
    out
}

/// One program checked as `check` asks, worded: its status, what goes to
/// standard output and what goes to standard error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The exit status.
    pub status: Status,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

/// Checks the MSCCL program `source` (shown as `shown`) on `network` when
/// given, timed there when `timing` asks, and words the result as text or
/// (`json`) one JSON line: what `check PROGRAM.xml` prints.
pub fn render(
    shown: &str,
    source: &str,
    json: bool,
    network: Option<&Graph>,
    timing: &TimingRequest<'_>,
) -> Rendered {
    let (out, err) = (String::new(), String::new());
    let checked = match super::check_asked(source, network, timing) {
        Ok(checked) => checked,
        Err(e) => {
            let err = format!("error: {e}\n");
            return Rendered {
                status: Status::Input,
                out,
                err,
            };
        }
    };
    match checked {
        Ok((check, timed)) => {
            let status = check.verdict().status();
            let out = match json {
                false => text_timed(shown, &check, timed.as_ref()),
                true => {
                    let value = json_timed(shown, &check, status.code(), timed.as_ref());
                    format!("{value}\n")
                }
            };
            Rendered { status, out, err }
        }
        Err(e) => {
            let (line, column) = (e.pos.line, e.pos.col);
            let status = Status::Input;
            match json {
                false => Rendered {
                    status,
                    out,
                    err: format!("error: {shown}:{line}:{column}: {}\n", e.message),
                },
                true => Rendered {
                    status,
                    out: format!(
                        "{}\n",
                        json_unreadable(shown, line, column, &e.message, status.code())
                    ),
                    err,
                },
            }
        }
    }
}

/// [`text`], and the timed replay's lines when there is one.
pub fn text_timed(path: &str, check: &Check, timed: Option<&TimedReport>) -> String {
    let mut out = text(path, check);
    if let Some(t) = timed {
        out.push_str(&t.text("  timed: ", "    "));
    }
    out
}

/// [`json()`], with the timed replay as `timed` when there is one.
pub fn json_timed(path: &str, check: &Check, exit: u8, timed: Option<&TimedReport>) -> Value {
    let mut value = json(path, check, exit);
    if let (Some(t), Value::Object(map)) = (timed, &mut value) {
        map.insert(
            "timed".into(),
            serde_json::to_value(t).unwrap_or(Value::Null),
        );
    }
    value
}

/// The JSON report of `check` on file `path`, ending with exit status `exit`.
pub fn json(path: &str, check: &Check, exit: u8) -> Value {
    serde_json::to_value(ProgramReport::new(path, check, exit)).unwrap_or(Value::Null)
}

/// One object of `txverify-msccl/2` for a program that was read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProgramReport<'a> {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The file as given.
    pub file: &'a str,
    /// The verdict is valid.
    pub valid: bool,
    /// The exit status.
    pub exit: u8,
    /// The collective checked, by name.
    pub collective: Option<&'static str>,
    /// `coll` as written.
    pub coll: &'a str,
    /// `name`.
    pub name: &'a str,
    /// `proto`.
    pub proto: &'a str,
    /// `ngpus`.
    pub ngpus: i64,
    /// The ways it was run.
    pub modes: &'a [&'static str],
    /// Why it is not valid, in one sentence.
    pub reason: Option<String>,
    /// What the executor's reader refuses.
    pub problems: Vec<ProblemJson<'a>>,
    /// The first fault of a run.
    pub finding: Option<FindingJson<'a>>,
    /// What the runs say of the data alone, the reader's problems aside.
    pub semantics: Option<Semantics>,
    /// Figures of the first run that passed.
    pub figures: Option<FiguresJson<'a>>,
    /// Thread blocks, all GPUs.
    pub threadblocks: usize,
    /// Most transmissions in one thread block.
    pub longest_threadblock: usize,
    /// The program on the network asked for.
    pub network: Option<Value>,
}

impl<'a> ProgramReport<'a> {
    /// The report of `check` on `path`, with exit status `exit`.
    pub fn new(path: &'a str, check: &'a Check, exit: u8) -> Self {
        ProgramReport {
            schema: SCHEMA,
            file: path,
            valid: check.valid(),
            exit,
            collective: check.collective().map(|c| c.name()),
            coll: check.coll(),
            name: check.name(),
            proto: check.proto(),
            ngpus: check.ngpus(),
            modes: check.modes(),
            reason: check.reason(),
            problems: check
                .problems()
                .iter()
                .map(|p| ProblemJson {
                    line: p.pos.line,
                    column: p.pos.col,
                    message: &p.message,
                })
                .collect(),
            finding: check.finding().map(|(mode, f)| FindingJson::new(mode, f)),
            semantics: Semantics::of(check),
            figures: check.figures().map(FiguresJson::new),
            threadblocks: check.threadblocks(),
            longest_threadblock: check.longest_threadblock(),
            network: check.network().map(network_json),
        }
    }
}

/// The verdict on the data alone: the program run as if the executor's reader
/// had accepted it. A program the reader refuses for a missing attribute may
/// still move the right data; users fixing the attribute want to know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Semantics {
    /// Every run left the right data.
    pub valid: bool,
    /// The first fault, as a sentence (null when valid).
    pub finding: Option<String>,
}

impl Semantics {
    /// `None` when the program was not run (nothing to say of its data).
    fn of(check: &Check) -> Option<Semantics> {
        if check.modes().is_empty() {
            return None;
        }
        let finding = check.finding().map(|(mode, f)| finding_sentence(mode, f));
        Some(Semantics {
            valid: finding.is_none(),
            finding,
        })
    }
}

/// A problem of the reader, where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProblemJson<'a> {
    /// Its line.
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// What is wrong.
    pub message: &'a str,
}

/// The first fault of a run, where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FindingJson<'a> {
    /// The kind of fault.
    pub fault: &'static str,
    /// The way the program was run.
    pub mode: &'static str,
    /// The GPU.
    pub gpu: u32,
    /// The thread block.
    pub threadblock: Option<u32>,
    /// The step.
    pub step: Option<usize>,
    /// The line of the element.
    pub line: Option<u32>,
    /// Its column.
    pub column: Option<u32>,
    /// The buffer of the chunk concerned.
    pub buffer: Option<String>,
    /// The chunk.
    pub chunk: Option<i64>,
    /// What is wrong.
    pub message: &'a str,
}

impl<'a> FindingJson<'a> {
    fn new(mode: &'static str, f: &'a Finding) -> Self {
        FindingJson {
            fault: f.fault.name(),
            mode,
            gpu: f.gpu,
            threadblock: f.tb,
            step: f.step,
            line: f.pos.map(|p| p.line),
            column: f.pos.map(|p| p.col),
            buffer: f.slot.map(|(b, _)| b.letter().to_string()),
            chunk: f.slot.map(|(_, i)| i),
            message: &f.message,
        }
    }
}

/// What one connection carried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConnectionJson {
    /// The channel.
    pub channel: u32,
    /// The sending GPU.
    pub from: u32,
    /// The receiving GPU.
    pub to: u32,
    /// Chunks sent.
    pub chunks: u64,
}

/// The figures of the first run that passed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FiguresJson<'a> {
    /// Transmissions on the critical path.
    pub critical_path: u64,
    /// Transmissions in all.
    pub transmissions: u64,
    /// Chunks sent on every connection together.
    pub chunks_sent: u64,
    /// Each connection that carried something.
    pub connections: Vec<ConnectionJson>,
    /// Most chunks sent and not yet received on one connection.
    pub most_buffered: u64,
    /// The longest chain of messages.
    pub depth: u64,
    /// The roots the result is right for.
    pub roots: &'a [u32],
}

impl<'a> FiguresJson<'a> {
    fn new(f: &'a Figures) -> Self {
        FiguresJson {
            critical_path: f.critical_path,
            transmissions: f.transmissions,
            chunks_sent: f.connections.values().sum(),
            connections: f
                .connections
                .iter()
                .map(|(&(channel, from, to), &chunks)| ConnectionJson {
                    channel,
                    from,
                    to,
                    chunks,
                })
                .collect(),
            most_buffered: f.most_buffered,
            depth: f.depth,
            roots: &f.roots,
        }
    }
}

/// Links listed one by one in the text report; JSON lists them all.
const LINKS_SHOWN: usize = 24;

/// A ratio as text: `×1.50`, or `-` when the bound is 0.
fn times(ratio: Option<f64>) -> String {
    ratio.map_or("-".into(), |r| format!("×{r:.2}"))
}

/// The text lines of a program on a network.
fn network_text(on: &OnNetwork) -> String {
    let b = &on.bounds;
    let placed = if on.switches.is_empty() {
        "GPU i on node i".to_string()
    } else {
        let names: Vec<String> = on.switches.iter().map(ToString::to_string).collect();
        format!(
            "GPU i on the i-th node that is not a switch; switch{} {}",
            if names.len() == 1 { "" } else { "es" },
            names.join(", ")
        )
    };
    let mut out = format!(
        "  on {} ({} nodes, {} directed links; {placed}):\n",
        on.network, on.nodes, on.directed_links
    );
    let mut why = format!(
        "{} crossings over {} links: {}",
        b.traffic,
        b.directed_links,
        b.traffic_bound()
    );
    if let Some(c) = &b.cut {
        why.push_str(&format!(
            "; cut of {} node{} / {}: {} and {} chunks across {} links each way: {}",
            c.side,
            if c.side == 1 { "" } else { "s" },
            c.other_side,
            c.demand.0,
            c.demand.1,
            c.edges,
            c.steps()
        ));
    }
    out.push_str(&format!(
        "    busiest link: {} chunks; lower bound {} ({why}); {} the bound\n",
        on.max_load,
        b.load(),
        times(on.load_ratio())
    ));
    out.push_str(&format!(
        "    depth: {} hops; lower bound {} (the {}); {} the bound\n",
        on.depth,
        b.latency,
        b.latency_of,
        times(on.depth_ratio())
    ));
    out.push_str(&format!(
        "    connections: {}, {} of them between GPUs that are not neighbours, routed on a shortest path ({} chunks; longest route {} link{})\n",
        on.connections,
        on.routed,
        on.routed_chunks,
        on.longest_route,
        if on.longest_route == 1 { "" } else { "s" }
    ));
    let mut used: Vec<(&(u32, u32), &u64)> = on.loads.iter().filter(|(_, c)| **c > 0).collect();
    used.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = used
        .iter()
        .take(LINKS_SHOWN)
        .map(|((x, y), c)| match on.capacities.get(&(*x, *y)) {
            Some(capacity) => format!("{x}→{y} {c}/{capacity}"),
            None => format!("{x}→{y} {c}"),
        })
        .collect();
    if let Some(b) = &on.busiest_per_capacity {
        out.push_str(&format!(
            "    on capacity: {} of {} links carry more than 1 chunk a step; busiest for its capacity {}→{}: {} chunks over capacity {}, {} step{}\n",
            on.capacities.len(),
            on.directed_links,
            b.link.0,
            b.link.1,
            b.chunks,
            b.capacity,
            b.steps,
            if b.steps == 1 { "" } else { "s" }
        ));
    }
    if let Some(f) = &on.fabric {
        out.push_str(&fabric_text(f));
    }
    out.push_str(&format!(
        "    link loads ({} of {} links used{}): {}\n",
        used.len(),
        on.directed_links,
        if used.len() > LINKS_SHOWN {
            ", busiest first"
        } else {
            ""
        },
        shown.join(", ")
    ));
    out
}

/// Violations shown in the text report (JSON lists more).
const VIOLATIONS_SHOWN: usize = 4;

/// The line of a program played in steps on a fabric.
fn fabric_text(f: &super::links::FabricSteps) -> String {
    let head = format!(
        "    in steps: {} step{} (a connection moves one chunk a step); at most {} chunk{} on a link in one step",
        f.steps,
        if f.steps == 1 { "" } else { "s" },
        f.busiest_step_load,
        if f.busiest_step_load == 1 { "" } else { "s" },
    );
    if let Some(hops) = f.not_played {
        return format!(
            "    in steps: not played: {hops} chunk-hops, more than the {} the step model counts\n",
            super::links::MAX_STEP_CHUNK_HOPS
        );
    }
    if f.violation_count == 0 {
        return format!("{head}; fits every capacity and switch limit\n");
    }
    let shown: Vec<String> = f
        .violations
        .iter()
        .take(VIOLATIONS_SHOWN)
        .map(ToString::to_string)
        .collect();
    let more = f.violation_count - shown.len() as u64;
    let across = if f.limits_across_gpus.is_empty() {
        String::new()
    } else {
        format!(
            "\n    limits on several GPUs' sends: {}; a program orders only each GPU's own sends, so no dependency keeps these",
            f.limits_across_gpus
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!(
        "{head}; does NOT fit the fabric, {} violation{}: {}{}{across}\n",
        f.violation_count,
        if f.violation_count == 1 { "" } else { "s" },
        shown.join("; "),
        if more > 0 {
            format!("; and {more} more")
        } else {
            String::new()
        }
    )
}

/// The `fabric` object of the JSON report's `network`.
fn fabric_json(f: &super::links::FabricSteps) -> Value {
    use super::links::FabricViolation;
    let violations: Vec<Value> = f
        .violations
        .iter()
        .map(|v| match v {
            FabricViolation::Link {
                step,
                link,
                chunks,
                capacity,
            } => json!({"kind": v.kind(), "step": step, "from": link.0, "to": link.1,
                        "chunks": chunks, "capacity": capacity}),
            FabricViolation::Switch {
                step,
                name,
                chunks,
                sends,
            } => json!({"kind": v.kind(), "step": step, "limit": name,
                        "chunks": chunks, "sends": sends}),
        })
        .collect();
    json!({
        "steps": f.steps,
        "busiest_step_load": f.busiest_step_load,
        "fits": f.not_played.is_none().then_some(f.violation_count == 0),
        "not_played": f.not_played,
        "violation_count": f.violation_count,
        "violations": violations,
        "limits_across_gpus": f.limits_across_gpus,
    })
}

/// The `network` object of the JSON report.
fn network_json(on: &OnNetwork) -> Value {
    let b = &on.bounds;
    let links: Vec<Value> = on
        .loads
        .iter()
        .map(
            |(&(from, to), &chunks)| match on.capacities.get(&(from, to)) {
                Some(c) => json!({"from": from, "to": to, "chunks": chunks, "capacity": c}),
                None => json!({"from": from, "to": to, "chunks": chunks}),
            },
        )
        .collect();
    let cut = b.cut.as_ref().map(|c| {
        json!({
            "side": c.nodes,
            "chunks_out": c.demand.0,
            "chunks_in": c.demand.1,
            "links": c.edges,
            "bound": c.steps(),
        })
    });
    let mut network = json!({
        "name": on.network,
        "nodes": on.nodes,
        "directed_links": on.directed_links,
        "routing": "shortest path, next hop the lowest-numbered closer neighbour",
        "switches": on.switches,
        "links": links,
        "max_link_load": on.max_load,
        "connections": on.connections,
        "routed_connections": on.routed,
        "routed_chunks": on.routed_chunks,
        "longest_route": on.longest_route,
        "depth": on.depth,
        "bounds": {
            "link_load": b.load(),
            "traffic": b.traffic,
            "traffic_bound": b.traffic_bound(),
            "cut": cut,
            "latency": b.latency,
            "latency_of": b.latency_of.to_string(),
        },
        "load_ratio": on.load_ratio(),
        "depth_ratio": on.depth_ratio(),
    });
    // Only on a fabric, so that plain reports keep their keys.
    if let (Some(b), Some(object)) = (on.busiest_per_capacity, network.as_object_mut()) {
        object.insert(
            "busiest_per_capacity".into(),
            json!({"from": b.link.0, "to": b.link.1, "chunks": b.chunks,
                   "capacity": b.capacity, "steps": b.steps}),
        );
    }
    if let (Some(f), Some(object)) = (&on.fabric, network.as_object_mut()) {
        object.insert("fabric".into(), fabric_json(f));
    }
    network
}

/// The JSON report of a file that cannot be read.
pub fn json_unreadable(path: &str, line: u32, column: u32, message: &str, exit: u8) -> Value {
    let report = UnreadableReport {
        schema: SCHEMA,
        file: path,
        valid: false,
        exit,
        collective: None,
        ngpus: None,
        reason: message,
        line,
        column,
    };
    serde_json::to_value(report).unwrap_or(Value::Null)
}

/// One object of `txverify-msccl/2` for a file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnreadableReport<'a> {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The file as given.
    pub file: &'a str,
    /// Always false.
    pub valid: bool,
    /// The exit status.
    pub exit: u8,
    /// Always null: nothing was read.
    pub collective: Option<&'static str>,
    /// Always null.
    pub ngpus: Option<i64>,
    /// Why it cannot be read.
    pub reason: &'a str,
    /// Where: the line.
    pub line: u32,
    /// And the column.
    pub column: u32,
}
