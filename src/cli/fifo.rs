//! `txverify simulate --algorithm fifo FILE`: the node-invariant FIFO algorithm of
//! seed 004 on the Cayley graph of FILE's header, for the header's message set
//! (`messages: total`, `odd`, `distance …`, `to …`), built as an explicit
//! schedule and replayed by the schedule simulator.
//!
//! The verdict is the trusted one of [`txverify_core::verdict`]: the replay (every
//! send checked against the network, the port limit, and delivery of exactly
//! the message set's packets) against a lower bound computed here from the
//! network's distances alone (for one port, the status of the message set),
//! not from the run. The algorithm's own checks (Lemma 2, no derouting) are
//! reported beside it.

use super::check::read_and_load;
use super::exit::Exit;
use super::{OutputFormat, QueueOrder, SimulateArgs};
use std::fmt::Write;
use std::io::Write as _;
use txverify_clients::fifo::{self, FifoError, FifoOptions, FifoRun, Order, Routing};
use txverify_core::bounds::distance;
use txverify_core::group::Elem;
use txverify_core::kernel::{Instance, MessageSpec};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{
    Collective, Ports, ReplayOptions, ReplayReport, Schedule, TimedSend, replay_exchange,
    write_json, write_text,
};
use txverify_core::verdict::{Model, NamedBound, ScheduleVerdict, judge};

/// The JSON schema of the report.
const SCHEMA: &str = "txverify-fifo/2";

/// Sends listed by `--trace` at most.
const MAX_TRACE: usize = 100_000;

pub fn run(args: &SimulateArgs) -> Exit {
    let shown = args.file.display().to_string();
    let Some(loaded) = read_and_load(&args.file, &Default::default(), args.format) else {
        return Exit::Input;
    };
    let instance = &loaded.instance;
    // The FIFO schedule is single-port; it is replayed under the ports asked for
    // (`--ports`, else an explicit `ports:` of the header, else 1).
    let header_ports = loaded.file.ports.as_ref().map(|p| p.value);
    let ports = match ports_of(args.ports.as_deref(), header_ports) {
        Ok(p) => p,
        Err(message) => return fail(args, &message, Exit::Input),
    };
    let order = match args.order {
        QueueOrder::Closest => Order::Closest,
        QueueOrder::Furthest => Order::Furthest,
    };
    let options = FifoOptions {
        order,
        ..FifoOptions::default()
    };
    let outcome = Routing::shortest(instance).and_then(|w| fifo::run(instance, &w, &options));
    let run = match outcome {
        Ok(run) => run,
        Err(e) => {
            let message = format!("the FIFO algorithm failed: {e}");
            return fail(args, &message, exit_of(&e));
        }
    };
    let (network, graph) = match network_of(args, instance) {
        Ok(found) => found,
        Err((message, exit)) => return fail(args, &message, exit),
    };
    let destinations = destinations(instance);
    let schedule = Schedule {
        network: network.clone(),
        ports: Some(ports),
        collective: Collective::TotalExchange,
        sends: run.sends.clone(),
    };
    let wanted = |s: u32, d: u32| {
        destinations
            .get(s as usize)
            .is_some_and(|ds| ds.binary_search(&d).is_ok())
    };
    let replayed = match replay_exchange(&schedule, &graph, &ReplayOptions::default(), wanted) {
        Ok(report) => report,
        Err(e) => {
            let message = format!("cannot replay the schedule: {e}");
            return fail(args, &message, Exit::Input);
        }
    };
    let bound = message_set_bound(&graph, &destinations, ports);
    let verdict = judge(&replayed, Some(bound), None);
    if let Some(path) = &args.output
        && let Err(message) = write_schedule(&schedule, instance, path)
    {
        return fail(args, &message, Exit::Input);
    }
    if args.trace && run.sends.len() > MAX_TRACE {
        let message = format!("--trace lists at most {MAX_TRACE} sends; this run has more");
        return fail(args, &message, Exit::Input);
    }
    let report = Report {
        shown: &shown,
        order,
        messages: messages_name(instance.message_spec()),
        run: &run,
        replayed: &replayed,
        verdict: &verdict,
        trace: args.trace.then_some(&run.sends[..]),
    };
    match args.format {
        OutputFormat::Json => outln!("{}", report.json()),
        OutputFormat::Text => out!("{}", report.text()),
    }
    // Theorem 1 claims the status: a valid run that misses it fails the claim.
    if verdict.optimal() {
        Exit::Ok
    } else {
        Exit::Rejected
    }
}

/// The ports of the replay: `--ports`, else the header's `ports:`, else 1.
fn ports_of(given: Option<&str>, header: Option<usize>) -> Result<Ports, String> {
    match (given, header) {
        (Some(text), _) => text
            .parse::<Ports>()
            .map_err(|e| format!("--ports {text}: {e}")),
        (None, Some(k)) => u32::try_from(k)
            .ok()
            .filter(|&k| k >= 1)
            .map(Ports::Limit)
            .ok_or_else(|| format!("ports: {k} is not a port count the replay takes")),
        (None, None) => Ok(Ports::Limit(1)),
    }
}

/// The network the schedule is replayed on: `--network NAME` or
/// `--network FILE.tbl`, else the Cayley graph of the header; it must have as
/// many nodes as the group has elements (the schedule's node numbers).
fn network_of(
    args: &SimulateArgs,
    instance: &Instance,
) -> Result<(Option<NetworkName>, Graph), (String, Exit)> {
    let (name, graph) = match args.network.as_deref() {
        None => {
            let graph = Graph::cayley(instance.group(), instance.links()).map_err(|e| {
                let message = format!("the Cayley graph is not a network: {e}");
                (message, Exit::Rejected)
            })?;
            (None, graph)
        }
        Some(path) if path.ends_with(".tbl") => {
            let graph = super::schedule::cayley_of_header(path)
                .map_err(|m| (format!("--network {path}: {m}"), Exit::Input))?;
            (None, graph)
        }
        Some(text) => {
            let name = text
                .parse::<NetworkName>()
                .map_err(|e| (format!("--network {text}: {e}"), Exit::Input))?;
            let graph = name
                .build()
                .map_err(|e| (format!("--network {text}: {e}"), Exit::Input))?;
            (Some(name), graph)
        }
    };
    let order = instance.group().order();
    if graph.nodes() != order {
        let message = format!(
            "--network has {} nodes, the group has {order} elements",
            graph.nodes()
        );
        return Err((message, Exit::Input));
    }
    Ok((name, graph))
}

/// For every node `h`, the destinations `h·w` of the message set `M`, sorted.
fn destinations(instance: &Instance) -> Vec<Vec<u32>> {
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

/// A lower bound on the time of any schedule that delivers every packet
/// `(s, d)`, `d ∈ destinations[s]`, on `graph` under `ports`, from distances
/// alone (`txverify_core::bounds::distance`): the packets need `H = Σ dist(s, d)`
/// sends in all and a step makes at most `Σ_x min(k, deg x)` of them, so
/// `T ≥ ⌈H / capacity⌉`; and `T ≥` the farthest destination. For one port on
/// the Cayley graph numbered by the group this is `Σ_{w ∈ M} dist(w)`, the
/// status of the message set (docs/single-port.md).
fn message_set_bound(graph: &Graph, destinations: &[Vec<u32>], ports: Ports) -> NamedBound {
    let (hops, farthest) = distance::packet_hops(graph, destinations);
    let (port_limit, name) = match ports {
        Ports::Limit(1) => (Some(1), "status of the message set".to_string()),
        Ports::Limit(k) => (
            Some(u64::from(k)),
            format!("{k}-port counting bound (hops over sends per step)"),
        ),
        Ports::All => (
            None,
            "all-port counting bound (hops over directed links)".to_string(),
        ),
    };
    let counting = distance::distance_bound(hops, distance::port_capacity(graph, port_limit));
    let (value, name) = if farthest > counting {
        (farthest, "farthest destination".to_string())
    } else {
        (counting, name)
    };
    NamedBound::new(value, name, Model::new(ports, false, true))
}

/// `-o FILE`: the schedule, as JSON when the name ends in `.json`, as text
/// otherwise. The formats state total exchange, not another message set.
fn write_schedule(
    schedule: &Schedule,
    instance: &Instance,
    path: &std::path::Path,
) -> Result<(), String> {
    if *instance.message_spec() != MessageSpec::Total {
        return Err(format!(
            "cannot write {}: a schedule file states total exchange, not `messages: {}`",
            path.display(),
            messages_name(instance.message_spec())
        ));
    }
    let write = || -> std::io::Result<()> {
        let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
        if path.extension().is_some_and(|e| e == "json") {
            write_json(schedule, &mut w)?;
        } else {
            write_text(schedule, &mut w)?;
        }
        w.flush()
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The header's message set as the `messages:` line names it.
fn messages_name(spec: &MessageSpec) -> String {
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

/// Reports a failure on standard error and, with `--format json`, as a JSON
/// object on standard output; returns `exit`.
fn fail(args: &SimulateArgs, message: &str, exit: Exit) -> Exit {
    let shown = args.file.display().to_string();
    eprintln!("error: {shown}: {message}");
    if args.format == OutputFormat::Json {
        let value = serde_json::json!({
            "schema": SCHEMA,
            "file": shown,
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}

/// A failed check of the algorithm, or a defective link set (as `check` and
/// `simulate` judge it), is a rejection; a header the algorithm cannot run on, or
/// a run over the size limit, is an input error.
fn exit_of(error: &FifoError) -> Exit {
    match error {
        FifoError::Defective { .. }
        | FifoError::Derouted { .. }
        | FifoError::ReceiveConflict { .. }
        | FifoError::Lemma2 { .. } => Exit::Rejected,
        _ => Exit::Input,
    }
}

/// What the report says.
struct Report<'a> {
    shown: &'a str,
    order: Order,
    messages: String,
    run: &'a FifoRun,
    replayed: &'a ReplayReport,
    verdict: &'a ScheduleVerdict,
    trace: Option<&'a [TimedSend]>,
}

impl Report<'_> {
    fn bound(&self) -> (u64, &str) {
        self.verdict
            .time_bound()
            .map_or((0, ""), |b| (b.value(), b.name()))
    }

    fn json(&self) -> serde_json::Value {
        let r = self.replayed;
        let (value, name) = self.bound();
        let ports = match r.ports() {
            Ports::All => serde_json::json!("all"),
            Ports::Limit(k) => serde_json::json!(k),
        };
        let mut object = serde_json::json!({
            "schema": SCHEMA,
            "file": self.shown,
            "algorithm": "fifo",
            "order": self.order.to_string(),
            "messages": self.messages,
            "ports": ports,
            "nodes": r.nodes(),
            "completion_time": r.time(),
            "status": value,
            "bound": name,
            "optimal": self.verdict.optimal(),
            "transmissions": r.transmissions(),
            "derouted": r.derouted(),
            "peak_queue": r.peak_queue(),
            "valid": self.verdict.valid(),
            "violations": self.verdict.violations(),
            "lemma2": {
                "steps_compared": self.run.steps_compared,
                "full_comparisons": self.run.full_comparisons,
                "entries_compared": self.run.entries_compared,
            },
        });
        if let Some(sends) = self.trace {
            let list: Vec<serde_json::Value> = sends
                .iter()
                .map(|s| {
                    serde_json::json!({ "step": s.step, "from": s.from, "to": s.to,
                        "source": s.source, "destination": s.destination })
                })
                .collect();
            object["trace"] = serde_json::Value::Array(list);
        }
        object
    }

    fn text(&self) -> String {
        let r = self.replayed;
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
            self.shown,
            self.order,
            r.nodes()
        );
        let summary = super::schedule::replay_summary(r, self.verdict);
        let _ = writeln!(out, "  replay       {summary}");
        super::schedule::violation_lines(r, "  error: ", &mut out);
        let _ = writeln!(
            out,
            "  lemma 2      held at all {} steps ({} full queue comparisons)",
            self.run.steps_compared, self.run.full_comparisons
        );
        let (value, name) = self.bound();
        let _ = writeln!(out, "  bound        {value} (the {name}, a lower bound)");
        let _ = writeln!(out, "  verdict      {}", self.verdict);
        if let Some(sends) = self.trace {
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
