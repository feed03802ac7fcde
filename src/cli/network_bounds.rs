//! `txverify bounds FILE…` and `txverify bounds --network NET`: one report
//! for both ([`txverify_clients::bounds`], schema txverify-bounds/4), printed
//! as text or JSON; a network's report has the LP bound, whose certificate
//! `--lp-certificate FILE` writes. Exit 0, 2 for a file, name or port count that gives no
//! network, 3 when a product's statuses by search and by the seed's formulas
//! differ.

use super::exit::Exit;
use super::{BoundsArgs, OutputFormat};
use txverify_clients::bounds::{
    BOUNDS_SCHEMA, BoundsReport, instance_report, network_report_with_lp,
};
use txverify_clients::lp_bound::LpCertificate;
use txverify_core::bounds::lp::LpOptions;
use txverify_core::network::infer;

/// `bounds FILE… --network NET…`: every report, the worst exit.
pub fn bounds(args: &BoundsArgs) -> Exit {
    let mut worst = Exit::Ok;
    for path in &args.files {
        worst = worst.max(file_bounds(path, args));
    }
    if args.lp_certificate.is_some() && args.network.len() != 1 {
        eprintln!("error: --lp-certificate needs exactly one --network");
        return Exit::Input;
    }
    for network in &args.network {
        let shown = network.to_string();
        let computed = network.name().map_err(|e| e.to_string()).and_then(|name| {
            network_report_with_lp(&name.to_string(), args.ports, &LpOptions::default())
                .map_err(|e| e.to_string())
        });
        let (report, certificate) = match computed {
            Ok((report, graph, solution)) => {
                let certificate = solution.map(|s| LpCertificate::of(&shown, &graph, &s));
                (Ok(report), certificate)
            }
            Err(e) => (Err(e), None),
        };
        worst = worst.max(print(report, &shown, args));
        if let Some(path) = &args.lp_certificate {
            worst = worst.max(write_certificate(path, certificate.as_ref(), &shown));
        }
    }
    worst
}

/// Writes the LP certificate (none: a network of one node has no links).
fn write_certificate(
    path: &std::path::Path,
    certificate: Option<&LpCertificate>,
    shown: &str,
) -> Exit {
    let Some(certificate) = certificate else {
        eprintln!("error: {shown}: no LP bound (no links), no certificate written");
        return Exit::Input;
    };
    let written = serde_json::to_string(certificate)
        .map_err(|e| e.to_string())
        .and_then(|json| std::fs::write(path, json + "\n").map_err(|e| e.to_string()));
    match written {
        Ok(()) => Exit::Ok,
        Err(e) => {
            eprintln!(
                "error: {}: cannot write the certificate: {e}",
                path.display()
            );
            Exit::Input
        }
    }
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
