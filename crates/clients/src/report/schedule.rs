//! `txverify simulate` on a schedule file: the schedule read, its network
//! found (its header, `--network`, or the Cayley graph of a `.tbl` header),
//! replayed by the core and judged by its `judge`, and the report of that
//! (schema `txverify-schedule-report/1`, docs/json.md) for people and programs.
//!
//! A schedule file states no bound: the verdict is valid or invalid, and it is
//! the core's.

use super::failure::{Failure, Status, read_text};
pub use crate::shared::replay_text::{
    PacketEntry, SHOWN_VIOLATIONS, ViolationEntry, replay_summary, violation_lines,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use txverify_core::load::NetworkSpec;
use txverify_core::network::Graph;
use txverify_core::schedule::replay::ReplayReport;
use txverify_core::schedule::{Ports, ReplayOptions, Schedule, parse, replay};
use txverify_core::verdict::{ScheduleVerdict, judge};

/// The `schema` of `simulate --format json` on a schedule.
pub const REPORT_SCHEMA: &str = "txverify-schedule-report/1";

/// Steps listed one by one in the text report; longer schedules get a summary.
const LISTED_STEPS: usize = 32;

/// What `simulate` is asked to do with a schedule file.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScheduleRequest<'a> {
    /// `--network`: a network name, or a file (a `.tbl` header's Cayley graph
    /// or an edge list, told by content).
    pub network: Option<&'a NetworkSpec>,
    /// `--ports`: `all` or K.
    pub ports: Option<&'a str>,
    /// `--trace` (refused: a schedule lists its sends already).
    pub trace: bool,
    /// `--all`: list every violation, not only the first few.
    pub all: bool,
    /// `--alpha`, `--beta`, `--link-table`: the timed replay.
    pub timing: crate::timed::TimingRequest<'a>,
}

/// The report of one replayed schedule.
#[derive(Clone, Debug, Serialize)]
pub struct ScheduleReport {
    /// The schema.
    pub schema: &'static str,
    /// The file as named.
    pub file: String,
    /// The network replayed on.
    pub network: String,
    /// Nodes of the network.
    pub nodes: usize,
    /// Directed links of the network.
    pub directed_links: usize,
    /// `"all"` or K.
    pub ports: PortsField,
    /// The collective.
    pub collective: String,
    /// Chunks per block (1 for the personalised collectives).
    pub chunks: u32,
    /// The collective replayed (its reversal for gather).
    pub checked_as: String,
    /// Why `checked_as` differs, when it does.
    pub note: Option<String>,
    /// The core's verdict: no violation.
    pub valid: bool,
    /// The last step with a send.
    pub time: u32,
    /// Sends.
    pub transmissions: u64,
    /// Sends that bring a packet no closer.
    pub derouted: u64,
    /// The most packets in transit at one node.
    pub peak_queue: u32,
    /// Busy links per step.
    pub link_use: Vec<LinkUse>,
    /// Violations of each kind.
    pub violation_counts: BTreeMap<&'static str, u64>,
    /// How many violations are listed.
    pub violations_listed: usize,
    /// The first violations.
    pub violations: Vec<ViolationEntry>,
    /// Memory of one send.
    pub bytes_per_send: usize,
    /// 0 (valid) or 1.
    pub exit_code: u8,
    /// The timed replay, when asked for (`--alpha`, `--beta`, `--link-table`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timed: Option<crate::timed::TimedReport>,
    /// The replay, for the text.
    #[serde(skip)]
    replay: ReplayReport,
    /// The verdict, for the text.
    #[serde(skip)]
    verdict: ScheduleVerdict,
    /// How many violations the text lists.
    #[serde(skip)]
    shown: usize,
}

/// The ports of a schedule report: `"all"` or a number.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(untagged)]
pub enum PortsField {
    /// Every link at once.
    All(&'static str),
    /// At most K.
    Limit(u32),
}

/// Busy links in one step.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct LinkUse {
    /// The step.
    pub step: u32,
    /// Busy directed links.
    pub busy_links: u32,
}

/// `simulate`'s options of schedule files given for a table.
#[derive(Debug, thiserror::Error)]
#[error("{shown}{options} apply to schedule files only")]
pub struct ScheduleOnly {
    /// The file as shown, with its `: `, or empty.
    shown: String,
    /// The options given, as the caller names them.
    options: &'static str,
}

/// The rule of `simulate` on a file that is not a schedule, for every front
/// end: the timing options (`timing`: their names, when given) and the
/// network and ports (`placement`) apply to schedule files only; `shown` is
/// the file with its `: `, or empty.
pub fn refuse_schedule_options(
    shown: &str,
    timing: Option<&'static str>,
    placement: Option<&'static str>,
) -> Result<(), ScheduleOnly> {
    match timing.or(placement) {
        Some(options) => Err(ScheduleOnly {
            shown: shown.to_string(),
            options,
        }),
        None => Ok(()),
    }
}

/// Replays the schedule `source` (the text of `file`, shown as `shown`) as
/// `request` asks, and reports the core's verdict on it.
pub fn simulate_schedule(
    file: &Path,
    source: &str,
    request: &ScheduleRequest<'_>,
) -> Result<ScheduleReport, Failure> {
    let shown = file.display().to_string();
    let failure = |json: String, stderr: String| Failure::input(json).shown_as(stderr + "\n");
    if request.trace {
        return Err(failure(
            "--trace is for tables".into(),
            format!("error: {shown}: --trace is for tables; a schedule lists its sends already"),
        ));
    }
    let mut schedule = parse(source).map_err(|e| {
        Failure::input(e.kind.to_string())
            .at(Some((e.line, e.column)))
            .shown_as(e.render(&shown, source))
    })?;
    // A schedule's `edges FILE` is relative to the schedule (docs/networks.md).
    let here = file.parent().unwrap_or(Path::new(""));
    schedule.network = schedule.network.map(|name| name.relative_to(here));
    // `--network FILE`: a `.tbl` header's Cayley graph or an edge list, told
    // by content; a name replaces the schedule's own (docs/schedule.md).
    let cayley = match request.network {
        Some(spec @ NetworkSpec::File(_)) => {
            let graph = spec
                .graph(&Default::default())
                .map_err(|e| failure(format!("--network: {e}"), format!("error: --network {e}")))?;
            Some((spec.to_string(), graph))
        }
        Some(NetworkSpec::Named(name)) => {
            schedule.network = Some(name.clone());
            None
        }
        None => None,
    };
    if let Some(text) = request.ports {
        let ports = text.parse::<Ports>().map_err(|e| {
            failure(
                format!("--ports: {e}"),
                format!("error: --ports {text}: {e}"),
            )
        })?;
        schedule.ports = Some(ports);
    }
    let (name, graph): (String, Graph) = match (cayley, schedule.network.clone()) {
        (Some(named_graph), _) => named_graph,
        (None, Some(name)) => match name.build() {
            Ok(g) => (name.to_string(), g),
            Err(e) => {
                let stderr = format!("error: {shown}: network {name}: {e}");
                return Err(failure(e.to_string(), stderr));
            }
        },
        (None, None) => {
            return Err(failure(
                "no network".into(),
                format!("error: {shown}: the schedule says no `network:`; give --network"),
            ));
        }
    };
    // A fabric that gives its links' α and β is timed without the flags.
    let own_times = (0..graph.directed_links() as u32).any(|l| graph.link_timing(l).is_some());
    let times = match request.timing.asked() || own_times {
        true => Some(
            crate::timed::LinkTimes::of(&request.timing, &graph)
                .map_err(|e| failure(e.to_string(), format!("error: {e}")))?,
        ),
        false => None,
    };
    let options = match request.all {
        true => ReplayOptions {
            max_listed: usize::MAX,
        },
        false => ReplayOptions::default(),
    };
    let replayed = replay(&schedule, &graph, &options)
        .map_err(|e| failure(e.to_string(), format!("error: {shown}: {e}")))?;
    // A schedule file states no bound: the verdict is valid or invalid.
    let verdict = judge(&replayed, None, None);
    let timed = times.map(|t| timed_replay(&schedule, &graph, &replayed, &verdict, &t));
    let mut report = ScheduleReport::new(&shown, &name, replayed, verdict);
    report.timed = timed;
    if request.all {
        report.shown = usize::MAX;
    }
    Ok(report)
}

/// The timed replay of a schedule the core judged (docs/schedule.md): only a
/// valid one is timed, beside the core's step bound of its collective made
/// into time.
fn timed_replay(
    schedule: &Schedule,
    graph: &Graph,
    replayed: &ReplayReport,
    verdict: &ScheduleVerdict,
    times: &crate::timed::LinkTimes,
) -> crate::timed::TimedReport {
    if !verdict.valid() {
        return crate::timed::TimedReport::not_timed(times, "not timed: the schedule is not valid");
    }
    let (nodes, links) = (graph.nodes() as u64, graph.directed_links() as u64);
    // The timed replay does not hold sends to switch limits, which a step
    // bound on such a fabric counts: no bound there.
    let limited = !graph.fabric().limits().is_empty();
    let steps = txverify_core::bounds::general::check_all_pairs(nodes, links)
        .ok()
        .filter(|()| !limited)
        .map(|()| txverify_core::bounds::collective(graph, schedule.collective, replayed.ports()));
    let mut timed = crate::timed::schedule::replay(
        &schedule.sends,
        graph,
        replayed.ports(),
        times,
        steps.as_ref().map(|b| b.time.value()),
    );
    if limited && timed.note.is_none() {
        timed.note = Some("no bound: the timed replay does not model the switch limits".into());
    } else if steps.is_none() && timed.note.is_none() {
        timed.note = Some("no bound: the network is too large for its all-pairs distances".into());
    }
    timed
}

impl ScheduleReport {
    /// The report of `replay` (of the file shown as `shown`, on `network`)
    /// with the core's `verdict` on it.
    pub fn new(
        shown: &str,
        network: &str,
        replay: ReplayReport,
        verdict: ScheduleVerdict,
    ) -> ScheduleReport {
        let r = &replay;
        ScheduleReport {
            schema: REPORT_SCHEMA,
            file: shown.to_string(),
            network: network.to_string(),
            nodes: r.nodes(),
            directed_links: r.directed_links(),
            ports: match r.ports() {
                Ports::All => PortsField::All("all"),
                Ports::Limit(k) => PortsField::Limit(k),
            },
            collective: r.collective().to_string(),
            chunks: r.collective().chunks(),
            checked_as: r.checked_as().to_string(),
            note: reversal_note(r),
            valid: verdict.valid(),
            time: r.time(),
            transmissions: r.transmissions(),
            derouted: r.derouted(),
            peak_queue: r.peak_queue(),
            link_use: r
                .link_use()
                .iter()
                .map(|u| LinkUse {
                    step: u.step,
                    busy_links: u.busy_links,
                })
                .collect(),
            violation_counts: r.counts().iter().map(|(k, &c)| (k.name(), c)).collect(),
            violations_listed: r.violations().len(),
            violations: r.violations().iter().map(ViolationEntry::from).collect(),
            bytes_per_send: Schedule::BYTES_PER_SEND,
            exit_code: Status::of_validity(verdict.valid()).code(),
            timed: None,
            replay,
            verdict,
            shown: SHOWN_VIOLATIONS,
        }
    }

    /// Valid (0) or rejected (1).
    pub fn status(&self) -> Status {
        Status::of_validity(self.verdict.valid())
    }

    /// The report for people.
    pub fn text(&self) -> String {
        let (r, v) = (&self.replay, &self.verdict);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: schedule of {}{} on {} ({} nodes, {} directed links), ports {}",
            self.file,
            r.collective(),
            match r.collective().chunks() {
                1 => String::new(),
                c => format!(" in {c} chunks"),
            },
            self.network,
            r.nodes(),
            r.directed_links(),
            r.ports()
        );
        if let Some(note) = &self.note {
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
            violation_lines(r, "  error: ", self.shown, &mut out);
        }
        if let Some(t) = &self.timed {
            out.push_str(&t.text("  timed        ", "               "));
        }
        out
    }
}

fn reversal_note(r: &ReplayReport) -> Option<String> {
    (r.checked_as() != r.collective()).then(|| {
        format!(
            "checked as the time-and-direction reversal of {}",
            r.checked_as()
        )
    })
}

/// The Cayley graph of the `.tbl` file at `path` (its header: group and links),
/// numbered as the group's elements, or what went wrong, in words.
pub fn cayley_of_header(path: &str) -> Result<Graph, String> {
    let source = read_text(Path::new(path)).map_err(|e| format!("cannot read it: {e}"))?;
    let loaded = txverify_core::load::load(&source, &Default::default())
        .map_err(|_| "it does not load (`txverify check` says why)".to_string())?;
    let instance = &loaded.instance;
    Graph::cayley(instance.group(), instance.links()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RING: &str = "network: ring 4\nports: all\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n1 0 3 0 *\n2 1 2 0 *\n";

    #[test]
    fn a_valid_schedule_reports_status_zero() {
        let dir = std::env::temp_dir();
        let report = simulate_schedule(&dir.join("ring.sched"), RING, &ScheduleRequest::default())
            .expect("it replays");
        assert!(report.valid, "{}", report.text());
        assert_eq!(report.status(), Status::Ok);
        assert_eq!(report.exit_code, 0);
    }

    #[test]
    fn trace_is_refused_for_schedules() {
        let request = ScheduleRequest {
            trace: true,
            ..ScheduleRequest::default()
        };
        let failure = simulate_schedule(Path::new("x.sched"), RING, &request)
            .expect_err("--trace is for tables");
        assert_eq!(failure.status, Status::Input);
        assert_eq!(failure.message, "--trace is for tables");
    }
}
