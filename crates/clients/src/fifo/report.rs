//! `simulate --algorithm fifo`'s pipeline after the run: the schedule of the
//! run replayed against exactly the packets of the header's message set, the
//! core's bound of that message set ([`txverify_core::bounds::message_set`]),
//! the trusted verdict, and the report (schema `txverify-fifo/2`,
//! docs/json.md) as a typed serde object and in words.

use super::{FifoRun, Order};
use serde::Serialize;
use std::fmt::Write as _;
use txverify_core::bounds;
use txverify_core::group::Elem;
use txverify_core::kernel::{Instance, MessageSpec};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{
    Collective, Ports, ReplayError, ReplayOptions, ReplayReport, Schedule, TimedSend,
    replay_exchange,
};
use txverify_core::verdict::{ScheduleVerdict, judge};

/// The JSON schema of the report.
pub const FIFO_SCHEMA: &str = "txverify-fifo/2";

/// A run's schedule, its replay and the verdict on it.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The run's sends as a schedule on the network replayed on.
    pub schedule: Schedule,
    /// The replay against the message set's packets.
    pub replayed: ReplayReport,
    /// The verdict against the core's bound of the message set.
    pub verdict: ScheduleVerdict,
}

/// Replays `run` on `graph` (named `network`, if it has a name) under `ports`
/// against exactly the packets of `instance`'s message set, and judges it
/// against the core's bound of that message set on `graph`.
pub fn judge_run(
    instance: &Instance,
    run: &FifoRun,
    network: Option<NetworkName>,
    graph: &Graph,
    ports: Ports,
) -> Result<Judged, ReplayError> {
    let destinations = destinations(instance);
    let schedule = Schedule {
        network,
        ports: Some(ports),
        collective: Collective::TotalExchange,
        sends: run.sends.clone(),
    };
    let wanted = |s: u32, d: u32| {
        destinations
            .get(s as usize)
            .is_some_and(|ds| ds.binary_search(&d).is_ok())
    };
    let replayed = replay_exchange(&schedule, graph, &ReplayOptions::default(), wanted)?;
    // The bound of the message set (a total exchange's for every pair), from the core.
    let bound = bounds::message_set(graph, &destinations, ports)
        .best()
        .clone();
    let verdict = judge(&replayed, Some(bound), None);
    Ok(Judged {
        schedule,
        replayed,
        verdict,
    })
}

/// For every node `h`, the destinations `h·w` of the message set `M`, sorted.
pub fn destinations(instance: &Instance) -> Vec<Vec<u32>> {
    let group = instance.group();
    let words = group.shortest_words();
    let wanted = instance.message_set();
    let set: Vec<usize> = (1..group.order()).filter(|&w| wanted[w]).collect();
    group
        .elements()
        .map(|h| {
            let mut ds: Vec<u32> = set
                .iter()
                .map(|&w| group.apply_word(h, &words[w]).0)
                .filter(|&d| d != h.0)
                .collect();
            ds.sort_unstable();
            ds.dedup();
            ds
        })
        .collect()
}

/// The header's message set as the `messages:` line names it.
pub fn messages_name(spec: &MessageSpec) -> String {
    match spec {
        MessageSpec::Total => "total".to_string(),
        MessageSpec::Odd => "odd".to_string(),
        MessageSpec::Distances(ds) => {
            let list: Vec<String> = ds.iter().map(u32::to_string).collect();
            format!("distance {}", list.join(" "))
        }
        MessageSpec::To(elements) => {
            let list: Vec<String> = elements.iter().map(|e: &Elem| e.0.to_string()).collect();
            format!("to {} elements ({})", elements.len(), list.join(" "))
        }
    }
}

/// Lemma 2's counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lemma2 {
    /// Steps whose queues were compared with the identity's.
    pub steps_compared: usize,
    /// Full queue comparisons.
    pub full_comparisons: usize,
    /// Queue entries compared.
    pub entries_compared: u64,
}

/// One send of `--trace`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceSend {
    /// The step.
    pub step: u32,
    /// The sending node.
    pub from: u32,
    /// The receiving node.
    pub to: u32,
    /// The packet's source.
    pub source: u32,
    /// The packet's destination.
    pub destination: u32,
}

/// The port model as the report states it: `"all"` or K.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PortsReport {
    /// All ports.
    All(&'static str),
    /// K ports.
    Limit(u32),
}

/// What `simulate --algorithm fifo --format json` prints (schema [`FIFO_SCHEMA`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FifoReport {
    /// [`FIFO_SCHEMA`].
    pub schema: &'static str,
    /// The file as given.
    pub file: String,
    /// `fifo`.
    pub algorithm: &'static str,
    /// The queue order.
    pub order: String,
    /// The message set.
    pub messages: String,
    /// The ports of the replay.
    pub ports: PortsReport,
    /// Nodes.
    pub nodes: usize,
    /// The replayed completion time.
    pub completion_time: u32,
    /// The bound the time is compared with.
    pub status: u64,
    /// Which bound it is.
    pub bound: String,
    /// The verdict: valid and the time equals the bound.
    pub optimal: bool,
    /// Sends.
    pub transmissions: u64,
    /// Derouted sends.
    pub derouted: u64,
    /// The largest queue.
    pub peak_queue: u32,
    /// No violation.
    pub valid: bool,
    /// Violations the replay counted.
    pub violations: u64,
    /// Lemma 2's counts.
    pub lemma2: Lemma2,
    /// The sends, with `--trace`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<TraceSend>>,
}

impl FifoReport {
    /// The report of `judged`, the run of `file` in queue order `order`.
    pub fn of(
        file: &str,
        order: Order,
        instance: &Instance,
        run: &FifoRun,
        judged: &Judged,
        trace: bool,
    ) -> FifoReport {
        let r = &judged.replayed;
        let (status, bound) = judged
            .verdict
            .time_bound()
            .map_or((0, String::new()), |b| (b.value(), b.name().to_string()));
        FifoReport {
            schema: FIFO_SCHEMA,
            file: file.to_string(),
            algorithm: "fifo",
            order: order.to_string(),
            messages: messages_name(instance.message_spec()),
            ports: match r.ports() {
                Ports::All => PortsReport::All("all"),
                Ports::Limit(k) => PortsReport::Limit(k),
            },
            nodes: r.nodes(),
            completion_time: r.time(),
            status,
            bound,
            optimal: judged.verdict.optimal(),
            transmissions: r.transmissions(),
            derouted: r.derouted(),
            peak_queue: r.peak_queue(),
            valid: judged.verdict.valid(),
            violations: judged.verdict.violations(),
            lemma2: Lemma2 {
                steps_compared: run.steps_compared,
                full_comparisons: run.full_comparisons,
                entries_compared: run.entries_compared,
            },
            trace: trace.then(|| run.sends.iter().map(trace_send).collect()),
        }
    }

    /// The report in words, the replay's violations listed.
    pub fn text(&self, judged: &Judged) -> String {
        let r = &judged.replayed;
        let mut out = String::new();
        let what = if self.messages == "total" {
            "total exchange".to_string()
        } else {
            format!("exchange of `messages: {}`", self.messages)
        };
        let ports = match r.ports() {
            Ports::Limit(1) => "single-port".to_string(),
            p => format!("replayed with ports {p}"),
        };
        let _ = writeln!(
            out,
            "{}: FIFO node-invariant {what} ({} first), {ports}, {} nodes",
            self.file,
            self.order,
            r.nodes()
        );
        let _ = writeln!(
            out,
            "  replay       {}: time {}, {} transmissions, derouted {}, peak queue {}",
            if self.valid { "valid" } else { "INVALID" },
            r.time(),
            r.transmissions(),
            r.derouted(),
            r.peak_queue()
        );
        for v in r.violations() {
            let _ = writeln!(out, "  error: {v}");
        }
        let _ = writeln!(
            out,
            "  lemma 2      held at all {} steps ({} full queue comparisons)",
            self.lemma2.steps_compared, self.lemma2.full_comparisons
        );
        let _ = writeln!(
            out,
            "  bound        {} (the {}, a lower bound)",
            self.status, self.bound
        );
        let _ = writeln!(out, "  verdict      {}", judged.verdict);
        if let Some(sends) = &self.trace {
            let mut step = 0;
            for s in sends {
                if s.step != step {
                    step = s.step;
                    let _ = writeln!(out, "step {step}:");
                }
                let _ = writeln!(
                    out,
                    "  {} -> {}  message {} -> {}",
                    s.from, s.to, s.source, s.destination
                );
            }
        }
        out
    }
}

fn trace_send(s: &TimedSend) -> TraceSend {
    TraceSend {
        step: s.step,
        from: s.from,
        to: s.to,
        source: s.source,
        destination: s.destination,
    }
}
