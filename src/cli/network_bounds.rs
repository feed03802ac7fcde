//! `txverify bounds FILE…` and `txverify bounds --network NET`: one report
//! for both ([`txverify_clients::bounds`], schema txverify-bounds/3), printed
//! as text or JSON. Exit 0, 2 for a file, name or port count that gives no
//! network, 3 when a product's statuses by search and by the seed's formulas
//! differ.

use super::exit::Exit;
use super::{BoundsArgs, OutputFormat};
use txverify_clients::bounds::{BOUNDS_SCHEMA, BoundsReport, instance_report, network_report};
use txverify_core::network::infer;

/// `bounds FILE… --network NET…`: every report, the worst exit.
pub fn bounds(args: &BoundsArgs) -> Exit {
    let mut worst = Exit::Ok;
    for path in &args.files {
        worst = worst.max(file_bounds(path, args));
    }
    for network in &args.network {
        worst = worst.max(network_bounds_of(network, args));
    }
    worst
}

/// `bounds FILE`: the network the file declares (or is recognised as), else
/// its Cayley graph.
fn file_bounds(path: &std::path::Path, args: &BoundsArgs) -> Exit {
    let shown = path.display().to_string();
    let Some(loaded) = super::check::read_and_load(path, &Default::default(), args.format) else {
        return Exit::Input;
    };
    let instance = &loaded.instance;
    let network = loaded.network.clone().or_else(|| {
        instance
            .defects()
            .is_empty()
            .then(|| infer(instance.group(), instance.links()).map(|(kind, _)| kind))
            .flatten()
    });
    let report = instance_report(&shown, instance, network.as_ref(), args.ports);
    print(report.map_err(|e| e.to_string()), &shown, args)
}

/// `bounds --network NET`.
pub fn network_bounds_of(words: &str, args: &BoundsArgs) -> Exit {
    print(
        network_report(words, args.ports).map_err(|e| e.to_string()),
        words,
        args,
    )
}

fn print(report: Result<BoundsReport, String>, shown: &str, args: &BoundsArgs) -> Exit {
    let report = match report {
        Ok(report) => report,
        Err(message) => {
            eprintln!("error: {shown}: {message}");
            if args.format == OutputFormat::Json {
                let value = serde_json::json!({
                    "schema": BOUNDS_SCHEMA,
                    "network": shown,
                    "error": { "message": message },
                    "exit_code": Exit::Input.code(),
                });
                outln!("{value}");
            }
            return Exit::Input;
        }
    };
    match args.format {
        OutputFormat::Json => match serde_json::to_string(&report) {
            Ok(json) => outln!("{json}"),
            Err(e) => {
                eprintln!("error: {shown}: cannot write the report: {e}");
                return Exit::Internal;
            }
        },
        OutputFormat::Text => out!("{}", report.text()),
    }
    if report.statuses_agree == Some(false) {
        eprintln!("error: {shown}: the status by search and by the seed's formulas differ");
        return Exit::Internal;
    }
    Exit::Ok
}
