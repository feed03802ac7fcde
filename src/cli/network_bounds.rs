//! `bounds FILE…` / `bounds --network NET` (schema txverify-bounds/4, text or JSON; `--lp-certificate`). Exit 0, 2 for
//! no network, 3 when a product's statuses by search and by formula differ. `verify-bound`: a certificate's LP bound, recomputed.

use super::exit::Exit;
use super::{BoundsArgs, OutputFormat};
use txverify_clients::bounds::lp::bounds_with_certificate;
use txverify_clients::bounds::{BOUNDS_SCHEMA, BoundsReport, instance_report};
use txverify_clients::report::{ErrorReport, Failure};

/// `bounds FILE… --network NET…`: every report, the worst exit.
pub fn bounds(args: &BoundsArgs) -> Exit {
    let mut worst = Exit::Ok;
    for path in &args.files {
        worst = worst.max(file_bounds(path, args));
    }
    let (cert, n) = (args.lp_certificate.as_deref(), args.network.len());
    for network in &args.network {
        let shown = network.to_string();
        let asked = (args.collective.as_deref(), args.chunks.as_deref());
        let report = network.name().map_err(|e| e.to_string()).and_then(|name| {
            bounds_with_certificate(&name.to_string(), args.ports, cert, n, asked)
        });
        worst = worst.max(print(report, &shown, args));
    }
    worst
}

/// `bounds FILE`: the network the file declares (or is recognised as), else its Cayley graph.
fn file_bounds(path: &std::path::Path, args: &BoundsArgs) -> Exit {
    let shown = path.display().to_string();
    let Some(loaded) = super::check::read_and_load(path, &Default::default(), args.format) else {
        return Exit::Input;
    };
    let (instance, network) = (&loaded.instance, loaded.network.as_ref());
    let report = instance_report(&shown, instance, network, args.ports);
    print(report.map_err(|e| e.to_string()), &shown, args)
}

fn print(report: Result<BoundsReport, String>, shown: &str, args: &BoundsArgs) -> Exit {
    let json = args.format == OutputFormat::Json;
    let report = match report {
        Ok(report) => report,
        Err(message) => {
            let failure = Failure::input(&message).shown_as(format!("error: {shown}: {message}\n"));
            let object = ErrorReport::new(Some(BOUNDS_SCHEMA), &failure).about("network", shown);
            return super::output::failure(&failure, json.then_some(object));
        }
    };
    match args.format {
        OutputFormat::Json => super::output::json(&report),
        OutputFormat::Text => out!("{}", report.text()),
    }
    let status = report.exit_status();
    if status != txverify_clients::report::Status::Ok {
        errorln!("{shown}: the status by search and by the seed's formulas differ");
    }
    Exit::from(status)
}

/// The arguments of `verify-bound`.
#[derive(clap::Args, Debug)]
pub struct VerifyBoundArgs {
    /// The certificate (schema txverify-lp-bound/1, from `bounds --lp-certificate`).
    file: std::path::PathBuf,
    /// The network the weights are for.
    #[arg(long, value_name = "NET")]
    network: txverify_core::load::NetworkSpec,
    /// Report format (JSON: schema txverify-verify-bound/1).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// `verify-bound`: exit 0, 1 when it states more than it proves, 2 for bad input.
pub fn verify_bound(a: &VerifyBoundArgs) -> Exit {
    let (shown, json) = (a.network.to_string(), a.format == OutputFormat::Json);
    let graph = a.network.graph(&Default::default());
    let graph = graph.map_err(|e| format!("{shown}: {e}"));
    match txverify_clients::bounds::lp::verify_bound_run(&a.file, &shown, graph, json) {
        Ok((text, status)) => (out!("{text}"), Exit::from(status)).1,
        Err(e) => super::output::failure(&e.0, e.1),
    }
}
