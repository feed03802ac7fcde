//! `txverify simulate`: play a table out on its physical network.

use super::check::read_and_load;
use super::exit::Exit;
use super::{OutputFormat, SimulateArgs};
use std::fmt::Write;
use txverify_clients::report::json;
use txverify_clients::simulate::{SimulationOptions, SimulationReport, simulate, trace};
use txverify_clients::verify::{NetworkCheck, embedding_name, physical_network, simulation_words};
use txverify_core::load::{Reader, detect};
use txverify_core::network::Embedding;

pub fn run(args: &SimulateArgs) -> Exit {
    // A file that is not a table or a schedule is pointed to its command.
    if let Ok(source) = super::read_text(&args.file)
        && let Some(line) =
            detect(&source).refusal(Reader::Simulate, &args.file.display().to_string())
    {
        eprintln!("error: {line}");
        return Exit::Input;
    }
    if args.algorithm.is_some() {
        return super::fifo::run(args);
    }
    if let Some(exit) = super::schedule::simulate_if_schedule(args) {
        return exit;
    }
    let shown = args.file.display().to_string();
    let Some(loaded) = read_and_load(&args.file, &Default::default(), args.format) else {
        return Exit::Input;
    };
    let instance = &loaded.instance;
    if let Some(defect) = instance.defects().first() {
        eprintln!("{shown}: cannot simulate: the link set is defective ({defect})");
        return Exit::Rejected;
    }
    let (network, embedding) = physical_network(instance, loaded.network.as_ref());
    let Some(embedding) = embedding else {
        if let NetworkCheck::Mismatch { reason, .. } = &network {
            eprintln!("{shown}: the declared network does not match: {reason}");
        }
        return Exit::Rejected;
    };
    let prepared = match simulation_words(instance, &loaded.table) {
        Ok(prepared) => prepared,
        Err(reason) => {
            eprintln!("{shown}: cannot simulate: {reason}");
            return Exit::Rejected;
        }
    };
    let input = prepared.input(instance, &embedding);
    let report = match simulate(&input, &SimulationOptions::default()) {
        Ok(report) => report,
        Err(e @ txverify_clients::simulate::SimulationError::OverLimit { .. }) => {
            eprintln!("{shown}: {e}");
            return Exit::Input;
        }
        Err(e) => {
            eprintln!("{shown}: cannot simulate: {e}");
            return Exit::Rejected;
        }
    };
    let hops = if args.trace {
        match trace(&input) {
            Some(hops) => Some(hops),
            None => {
                eprintln!(
                    "{shown}: --trace lists at most {} hops; this table has more",
                    txverify_clients::simulate::MAX_TRACE_HOPS
                );
                return Exit::Input;
            }
        }
    } else {
        None
    };
    match args.format {
        OutputFormat::Json => match json::simulate(&shown, &network, &report, hops.as_deref()) {
            Ok(line) => outln!("{line}"),
            Err(e) => {
                eprintln!("error: {shown}: cannot write the JSON report (a bug): {e}");
                return Exit::Internal;
            }
        },
        OutputFormat::Text => {
            out!("{}", text(&shown, &network, &embedding, &report));
            if let Some(hops) = hops {
                let net = embedding.network();
                let mut step = 0;
                for hop in hops {
                    if hop.step != step {
                        step = hop.step;
                        outln!("step {step}:");
                    }
                    outln!(
                        "  {} -> {}  message {} -> {}  (word `{}`, row {})",
                        net.node_name(hop.from),
                        net.node_name(hop.to),
                        net.node_name(hop.source),
                        net.node_name(hop.destination),
                        hop.word,
                        hop.row
                    );
                }
            }
        }
    }
    if report.valid {
        Exit::Ok
    } else {
        Exit::Rejected
    }
}

fn text(path: &str, network: &NetworkCheck, embedding: &Embedding, r: &SimulationReport) -> String {
    let mut out = String::new();
    let how = match network {
        NetworkCheck::Matches { .. } => "declared",
        NetworkCheck::Inferred { .. } => "inferred",
        _ => "no physical network recognised",
    };
    let _ = writeln!(
        out,
        "{path}: simulated on {} ({how})",
        embedding_name(embedding)
    );
    let _ = writeln!(
        out,
        "  nodes {}, directed links {}, ports {}, words {}",
        r.nodes, r.directed_links, r.ports, r.words
    );
    let _ = writeln!(
        out,
        "  messages     {} of {} arrived, {} hops, completion time {}",
        r.arrived_messages, r.expected_messages, r.hops, r.completion_time
    );
    let _ = writeln!(
        out,
        "  utilisation  {:.1}% of (step, directed link) pairs",
        r.utilisation * 100.0
    );
    let busiest = r.per_step.iter().map(|s| s.links_used).max().unwrap_or(0);
    let _ = writeln!(
        out,
        "  per step     busiest step uses {busiest} of {} directed links",
        r.directed_links
    );
    let _ = writeln!(
        out,
        "  verdict      {}",
        if r.valid { "CLEAN" } else { "FAILED" }
    );
    let c = &r.counts;
    if !r.valid {
        let _ = writeln!(
            out,
            "  failures     {} link conflicts, {} ports exceeded, {} self-messages, {} duplicates, {} unexpected, {} missing",
            c.link_conflicts,
            c.ports_exceeded,
            c.self_messages,
            c.duplicates,
            c.unexpected,
            c.missing
        );
    }
    let net = embedding.network();
    for failure in &r.failures {
        let _ = writeln!(out, "  error: {}", describe(net, failure));
    }
    out
}

fn describe(
    net: &txverify_core::network::Graph,
    f: &txverify_clients::simulate::Failure,
) -> String {
    use txverify_clients::simulate::{Failure, MessageRef};
    let m = |m: &MessageRef| {
        format!(
            "{} -> {} (word `{}`, row {}, column {})",
            net.node_name(m.source),
            net.node_name(m.destination),
            m.word,
            m.row,
            m.column
        )
    };
    match f {
        Failure::LinkConflict {
            step,
            from,
            to,
            messages,
            first,
            second,
            ..
        } => format!(
            "step {step}: link {} -> {} carries {messages} messages: {} and {}",
            net.node_name(*from),
            net.node_name(*to),
            m(first),
            m(second)
        ),
        Failure::PortsExceeded {
            step,
            node,
            used,
            ports,
        } => format!(
            "step {step}: node {} sends {used} messages but has {ports} ports",
            net.node_name(*node)
        ),
        Failure::Unexpected { step, message } => {
            format!(
                "step {step}: message {} is not in the message set",
                m(message)
            )
        }
        Failure::Missing {
            source,
            destination,
        } => format!(
            "message {} -> {} never arrives",
            net.node_name(*source),
            net.node_name(*destination)
        ),
        Failure::Duplicate { step, message, .. } => {
            format!("step {step}: message {} arrives a second time", m(message))
        }
        Failure::SelfMessage { step, message } => {
            format!("step {step}: message {} returns to its source", m(message))
        }
    }
}
