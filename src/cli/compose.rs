//! `txverify compose a1|a2 NET…`: seed 000's total exchange on a product
//! network, composed from its factors, replayed, and compared with the
//! theorem's time and the lower bound (docs/products.md).

use super::exit::Exit;
use super::{ComposeArgs, OutputFormat};
use std::fmt::Write as _;
use std::io::Write as _;
use txverify_clients::product::{self, Algorithm, ProductError, ProductRun};
use txverify_core::bounds::Cut;
use txverify_core::network::NetworkName;
use txverify_core::schedule::{write_json, write_text};

/// The JSON schema of the report.
const SCHEMA: &str = "txverify-compose/1";

pub fn run(args: &ComposeArgs) -> Exit {
    let algorithm = match args.algorithm {
        super::ComposeAlgorithm::A1 => Algorithm::A1,
        super::ComposeAlgorithm::A2 => Algorithm::A2,
    };
    let words = args.network.join(" ");
    let network = match words.parse::<NetworkName>() {
        Ok(network) => network,
        Err(e) => return fail(args, &words, &format!("`{words}`: {e}"), Exit::Input),
    };
    let run = match product::run(algorithm, &network) {
        Ok(run) => run,
        Err(e) => {
            let exit = match e {
                ProductError::Factor(..) | ProductError::Construction(_) => Exit::Internal,
                _ => Exit::Input,
            };
            return fail(args, &words, &e.to_string(), exit);
        }
    };
    if let Some(path) = &args.output
        && let Err(e) = write_schedule(&run, path)
    {
        let message = format!("cannot write {}: {e}", path.display());
        return fail(args, &words, &message, Exit::Input);
    }
    match args.format {
        OutputFormat::Json => outln!("{}", json(&run)),
        OutputFormat::Text => out!("{}", text(&run)),
    }
    if !run.status_by_theorem_agrees {
        eprintln!("error: the status by Corollary 2 differs from the breadth-first search");
        Exit::Internal
    } else if run.meets_theorem() {
        Exit::Ok
    } else {
        Exit::Rejected
    }
}

/// Writes the composed schedule: JSON unless the file name ends in `.txt`.
fn write_schedule(run: &ProductRun, path: &std::path::Path) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
    if path.extension().is_some_and(|e| e == "txt") {
        write_text(&run.schedule, &mut w)?;
    } else {
        write_json(&run.schedule, &mut w)?;
    }
    w.flush()
}

fn fail(args: &ComposeArgs, network: &str, message: &str, exit: Exit) -> Exit {
    eprintln!("error: {message}");
    if args.format == OutputFormat::Json {
        let value = serde_json::json!({
            "schema": SCHEMA,
            "network": network,
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}

pub(super) fn cut_json(cut: &Option<Cut>) -> serde_json::Value {
    match cut {
        None => serde_json::Value::Null,
        Some(c) => serde_json::json!({
            "value": c.ratio.value(),
            "steps": c.ratio.ceil(),
            "side": c.side,
            "other_side": c.other_side,
            "edges": c.edges,
            "dimension": c.dimension,
        }),
    }
}

fn json(run: &ProductRun) -> serde_json::Value {
    let r = &run.replay;
    let factors: Vec<serde_json::Value> = run
        .factors
        .iter()
        .map(|f| {
            serde_json::json!({
                "factor": f.part.factor.to_string(),
                "method": f.part.method,
                "source": f.part.source,
                "time": f.part.exchange.time,
                "candidates": f.part.candidates.iter().map(|c| serde_json::json!({
                    "method": c.method,
                    "source": c.source,
                    "time": c.time,
                })).collect::<Vec<_>>(),
                "lower_bound": f.lower_bound.value,
                "lower_bound_kind": f.lower_bound.kind,
            })
        })
        .collect();
    serde_json::json!({
        "schema": SCHEMA,
        "algorithm": run.algorithm.to_string(),
        "network": run.network.to_string(),
        "ports": run.ports.to_string(),
        "nodes": r.nodes(),
        "time": r.time(),
        "theorem": run.theorem.name,
        "theorem_time": run.theorem.time,
        "theorem_optimal": run.theorem.says_optimal,
        "lower_bound": { "value": run.lower_bound.value, "kind": run.lower_bound.kind },
        "optimal": run.optimal(),
        "valid": run.verdict.valid(),
        "violations": run.verdict.violations(),
        "transmissions": r.transmissions(),
        "derouted": r.derouted(),
        "peak_queue": r.peak_queue(),
        "average_status": run.average_status.value(),
        "status_by_theorem_agrees": run.status_by_theorem_agrees,
        "dimension_cut": cut_json(&run.dimension_cut),
        "exhaustive_cut": cut_json(&run.exhaustive_cut),
        "factors": factors,
    })
}

/// Where a factor's schedule comes from, when that is more than its method:
/// an embedded table's path or the generator, and the slower ones tried.
fn source_note(part: &txverify_clients::product::FactorExchange) -> String {
    let mut note = String::new();
    if part.source != part.method && part.method == "table" {
        let _ = write!(note, " from {}", part.source);
    }
    let slower: Vec<String> = part
        .candidates
        .iter()
        .filter(|c| c.source != part.source)
        .map(|c| format!("{} {}", c.source, c.time))
        .collect();
    if !slower.is_empty() {
        let _ = write!(note, "; also tried: {}", slower.join(", "));
    }
    note
}

fn text(run: &ProductRun) -> String {
    let r = &run.replay;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} on {} ({} nodes, {}-port): time {} (theorem: {})",
        run.algorithm.to_string().to_uppercase(),
        run.network,
        r.nodes(),
        run.ports,
        r.time(),
        run.theorem.time
    );
    for f in &run.factors {
        let _ = writeln!(
            s,
            "  factor {:<14} {:<7} time {:>4}  (its bound {}, {}){}",
            f.part.factor.to_string(),
            f.part.method,
            f.part.exchange.time,
            f.lower_bound.value,
            f.lower_bound.kind,
            source_note(&f.part)
        );
    }
    let _ = writeln!(
        s,
        "  {}: time {} — {}",
        run.theorem.name,
        run.theorem.time,
        if u64::from(r.time()) == run.theorem.time {
            "met"
        } else {
            "NOT met"
        }
    );
    let _ = writeln!(
        s,
        "  lower bound {} ({}, for any {}-port schedule on {}); average status {:.4}",
        run.lower_bound.value,
        run.lower_bound.kind,
        run.ports,
        run.network,
        run.average_status.value()
    );
    if let Some(c) = &run.exhaustive_cut {
        let _ = writeln!(
            s,
            "  best bisection over all cuts: {} · {} / {} = {:.4} (cut bound {}, any port model)",
            c.side,
            c.other_side,
            c.edges,
            c.ratio.value(),
            c.steps()
        );
    }
    let _ = writeln!(
        s,
        "  replay: {} ({} sends, {} violations, peak queue {})",
        if run.verdict.valid() {
            "valid"
        } else {
            "INVALID"
        },
        r.transmissions(),
        run.verdict.violations(),
        r.peak_queue()
    );
    for v in r.violations() {
        let _ = writeln!(s, "    {v}");
    }
    let verdict = match (run.optimal(), run.theorem.says_optimal) {
        (true, _) => "optimal (time = lower bound)",
        (false, true) => "NOT optimal although the theorem says it is",
        (false, false) => "not shown optimal (time above the lower bound)",
    };
    let _ = writeln!(s, "  verdict: {verdict}");
    s
}
