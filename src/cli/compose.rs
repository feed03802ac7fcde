//! `txverify compose a1|a2 NET…`: seed 000's total exchange on a product
//! network, composed from its factors, replayed, and compared with the
//! theorem's time and the lower bound (docs/products.md).

use super::exit::Exit;
use super::{ComposeArgs, OutputFormat};
use std::io::Write as _;
use txverify_clients::product::report::{self, COMPOSE_SCHEMA, ComposeReport};
use txverify_clients::product::{self, Algorithm, ProductError, ProductRun};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{write_json, write_text};

pub fn run(args: &ComposeArgs) -> Exit {
    let algorithm = match args.algorithm {
        super::ComposeAlgorithm::A1 => Algorithm::A1,
        super::ComposeAlgorithm::A2 => Algorithm::A2,
    };
    let words = args.network.join(" ");
    let network = match words.parse::<NetworkName>() {
        Ok(network) => network,
        Err(e) => {
            return fail(
                args,
                &words,
                &format!("`{}`: {e}", txverify_core::format::echoed(&words)),
                Exit::Input,
            );
        }
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
        OutputFormat::Json => match serde_json::to_string(&ComposeReport::of(&run)) {
            Ok(json) => outln!("{json}"),
            Err(e) => {
                return fail(
                    args,
                    &words,
                    &format!("cannot write the report: {e}"),
                    Exit::Internal,
                );
            }
        },
        OutputFormat::Text => out!("{}", report::text(&run)),
    }
    if !run.status_by_theorem_agrees {
        errorln!("the status by Corollary 2 differs from the breadth-first search");
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
    errorln!("{message}");
    if args.format == OutputFormat::Json {
        let value = serde_json::json!({
            "schema": COMPOSE_SCHEMA,
            "network": network,
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}
