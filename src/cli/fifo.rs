//! `txverify simulate --algorithm fifo FILE`: the node-invariant FIFO algorithm of
//! seed 004 on the Cayley graph of FILE's header, for the header's message set
//! (`messages: total`, `odd`, `distance …`, `to …`), built as an explicit
//! schedule and replayed by the schedule simulator.
//!
//! The command reads the header, picks the ports and the network, runs the
//! algorithm and prints; the replay against exactly the message set's packets,
//! the core's bound of the message set and the trusted verdict are
//! [`txverify_clients::fifo::report`]'s. The algorithm's own checks (Lemma 2,
//! no derouting) are reported beside it.

use super::exit::Exit;
use super::{OutputFormat, QueueOrder, SimulateArgs};
use std::io::Write as _;
use txverify_clients::fifo::report::{FIFO_SCHEMA, FifoReport, judge_run, messages_name};
use txverify_clients::fifo::{self, FifoError, FifoOptions, Order, Routing};
use txverify_core::kernel::{Instance, MessageSpec};
use txverify_core::load::{Loaded, NetworkSpec};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{Ports, Schedule, write_json, write_text};

/// Sends listed by `--trace` at most.
const MAX_TRACE: usize = 100_000;

/// Runs the FIFO algorithm on the table `args.file`, read and loaded once.
pub fn run(args: &SimulateArgs, loaded: Loaded) -> Exit {
    let shown = args.file.display().to_string();
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
    let judged = match judge_run(instance, &run, network, &graph, ports) {
        Ok(judged) => judged,
        Err(e) => {
            let message = format!("cannot replay the schedule: {e}");
            return fail(args, &message, Exit::Input);
        }
    };
    if let Some(path) = &args.output
        && let Err(message) = write_schedule(&judged.schedule, instance, path)
    {
        return fail(args, &message, Exit::Input);
    }
    if args.trace && run.sends.len() > MAX_TRACE {
        let message = format!("--trace lists at most {MAX_TRACE} sends; this run has more");
        return fail(args, &message, Exit::Input);
    }
    let report = FifoReport::of(&shown, order, instance, &run, &judged, args.trace);
    match args.format {
        OutputFormat::Json => match serde_json::to_string(&report) {
            Ok(json) => outln!("{json}"),
            Err(e) => {
                return fail(
                    args,
                    &format!("cannot write the report: {e}"),
                    Exit::Internal,
                );
            }
        },
        OutputFormat::Text => out!("{}", report.text(&judged)),
    }
    // Theorem 1 claims the status: a valid run that misses it fails the claim.
    if judged.verdict.optimal() {
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
    let (name, graph) = match &args.network {
        None => {
            let graph = Graph::cayley(instance.group(), instance.links()).map_err(|e| {
                let message = format!("the Cayley graph is not a network: {e}");
                (message, Exit::Rejected)
            })?;
            (None, graph)
        }
        Some(spec) => {
            let graph = spec
                .graph(&Default::default())
                .map_err(|e| (format!("--network {e}"), Exit::Input))?;
            let name = match spec {
                NetworkSpec::Named(name) => Some(name.clone()),
                NetworkSpec::File(_) => None,
            };
            (name, graph)
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

/// Reports a failure on standard error and, with `--format json`, as a JSON
/// object on standard output; returns `exit`.
fn fail(args: &SimulateArgs, message: &str, exit: Exit) -> Exit {
    let shown = args.file.display().to_string();
    errorln!("{shown}: {message}");
    if args.format == OutputFormat::Json {
        let value = serde_json::json!({
            "schema": FIFO_SCHEMA,
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
