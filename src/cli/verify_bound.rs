//! `txverify verify-bound --network NET FILE`: recomputes the LP bound that
//! a certificate's link weights prove ([`txverify_clients::lp_bound`]) and
//! prints it. Exit 0, 1 when the certificate states a larger bound than its
//! weights prove, 2 for a network or certificate that gives no bound.

use super::OutputFormat;
use super::exit::Exit;
use std::path::PathBuf;
use txverify_clients::lp_bound::{VERIFY_BOUND_SCHEMA, verify_bound};
use txverify_core::load::NetworkSpec;

/// The arguments of `verify-bound`.
#[derive(clap::Args, Debug)]
pub struct VerifyBoundArgs {
    /// The certificate (schema txverify-lp-bound/1, written by `bounds --lp-certificate`).
    file: PathBuf,
    /// The network the weights are for (`torus 4 4`, `edges FILE`, a `.tbl` file).
    #[arg(long, value_name = "NET")]
    network: NetworkSpec,
    /// Report format (JSON: schema txverify-verify-bound/1).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// `verify-bound`.
pub fn run(args: &VerifyBoundArgs) -> Exit {
    let shown = args.network.to_string();
    let report = args
        .network
        .graph(&Default::default())
        .map_err(|e| format!("{shown}: {e}"))
        .and_then(|graph| verify_bound(&args.file, &shown, &graph).map_err(|e| e.to_string()));
    let report = match report {
        Ok(report) => report,
        Err(message) => {
            eprintln!("error: {message}");
            if args.format == OutputFormat::Json {
                let value = serde_json::json!({
                    "schema": VERIFY_BOUND_SCHEMA,
                    "file": args.file.display().to_string(),
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
                eprintln!("error: cannot write the report: {e}");
                return Exit::Internal;
            }
        },
        OutputFormat::Text => out!("{}", report.text()),
    }
    if report.accepted {
        Exit::Ok
    } else {
        Exit::Rejected
    }
}
