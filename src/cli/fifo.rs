//! `txverify simulate --algorithm fifo FILE`: the node-invariant FIFO algorithm of
//! seed 004 on the Cayley graph of FILE's header, single-port, built as an
//! explicit schedule and replayed by the schedule simulator.
//!
//! The verdict rests on the replay (every send checked against the Cayley graph,
//! one send and one receive per node per step, every packet delivered once) and
//! on comparing the replayed time with the status, computed apart from the run;
//! the algorithm's own checks (Lemma 2, no derouting) are reported beside it.

use super::check::read_and_load;
use super::exit::Exit;
use super::{OutputFormat, QueueOrder, SimulateArgs};
use std::fmt::Write;
use txverify::fifo::{self, FifoError, FifoOptions, FifoRun, Order, Routing};
use txverify::schedule::cayley::cayley_graph;
use txverify::schedule::{
    Collective, Ports, ReplayOptions, ReplayReport, Schedule, replay,
};

/// The JSON schema of the report.
const SCHEMA: &str = "txverify-fifo/1";

pub fn run(args: &SimulateArgs) -> Exit {
    let shown = args.file.display().to_string();
    let Some(loaded) = read_and_load(&args.file, &Default::default(), args.format) else {
        return Exit::Input;
    };
    let instance = &loaded.instance;
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
            return fail(
                args,
                &format!("the FIFO algorithm failed: {e}"),
                exit_of(&e),
            );
        }
    };
    let graph = match cayley_graph(instance.group(), instance.links()) {
        Ok(graph) => graph,
        Err(e) => {
            return fail(
                args,
                &format!("the Cayley graph is not a network: {e}"),
                Exit::Rejected,
            );
        }
    };
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::Limit(1)),
        collective: Collective::TotalExchange,
        sends: run.sends.clone(),
    };
    let replayed = match replay(&schedule, &graph, &ReplayOptions::default()) {
        Ok(report) => report,
        Err(e) => {
            return fail(
                args,
                &format!("cannot replay the schedule: {e}"),
                Exit::Input,
            );
        }
    };
    let optimal = replayed.valid && u64::from(replayed.time) == run.status;
    match args.format {
        OutputFormat::Json => outln!("{}", json(&shown, order, &run, &replayed, optimal)),
        OutputFormat::Text => out!("{}", text(&shown, order, &run, &replayed, optimal)),
    }
    if optimal { Exit::Ok } else { Exit::Rejected }
}

/// Reports a failure on standard error and, with `--format json`, as a JSON
/// object on standard output; returns `exit`.
fn fail(args: &SimulateArgs, message: &str, exit: Exit) -> Exit {
    let shown = args.file.display().to_string();
    eprintln!("{shown}: {message}");
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

/// A failed check of the algorithm is a rejection; a header the algorithm cannot
/// run on, or a run over the size limit, is an input error.
fn exit_of(error: &FifoError) -> Exit {
    match error {
        FifoError::Derouted { .. }
        | FifoError::ReceiveConflict { .. }
        | FifoError::Lemma2 { .. } => Exit::Rejected,
        _ => Exit::Input,
    }
}

fn json(
    shown: &str,
    order: Order,
    run: &FifoRun,
    r: &ReplayReport,
    optimal: bool,
) -> serde_json::Value {
    serde_json::json!({
        "schema": SCHEMA,
        "file": shown,
        "algorithm": "fifo",
        "order": order.to_string(),
        "ports": 1,
        "nodes": r.nodes,
        "completion_time": r.time,
        "status": run.status,
        "optimal": optimal,
        "transmissions": r.transmissions,
        "derouted": r.derouted,
        "peak_queue": r.peak_queue,
        "valid": r.valid,
        "violations": r.violation_count(),
        "lemma2": {
            "steps_compared": run.steps_compared,
            "full_comparisons": run.full_comparisons,
            "entries_compared": run.entries_compared,
        },
    })
}

fn text(shown: &str, order: Order, run: &FifoRun, r: &ReplayReport, optimal: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{shown}: FIFO node-invariant total exchange ({order} first), single-port, {} nodes",
        r.nodes
    );
    let _ = writeln!(out, "  replay       {}", super::schedule::replay_summary(r));
    for v in r.violations.iter().take(20) {
        let _ = writeln!(out, "  error: {v:?}");
    }
    let _ = writeln!(
        out,
        "  lemma 2      held at all {} steps ({} full queue comparisons)",
        run.steps_compared, run.full_comparisons
    );
    let _ = writeln!(
        out,
        "  status       {} (the single-port lower bound)",
        run.status
    );
    let verdict = if optimal {
        "OPTIMAL (completion time equals the status)".to_string()
    } else {
        format!(
            "NOT OPTIMAL (completion time {} differs from the status {})",
            r.time, run.status
        )
    };
    let _ = writeln!(out, "  verdict      {verdict}");
    out
}
