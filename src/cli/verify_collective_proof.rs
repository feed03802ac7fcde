//! `txverify verify-proof --network NET [--collective X [--chunks C]] DIR…`
//! for the certificates of `search --collective`: no schedule of the
//! collective finishes in T steps. The graph is built from NET; the formula
//! is regenerated from it and the recorded collective, chunks, ports and T,
//! compared byte for byte with `formula.cnf`, and the proof is checked by the
//! proof checker
//! (`txverify_search::schedule::collective_certificate::verify`).

use super::exit::Exit;
use super::{OutputFormat, VerifyProofArgs};
use std::path::Path;
use txverify_core::network::Graph;
use txverify_core::schedule::parse_collective;
use txverify_search::schedule::collective_certificate::{
    MAX_CERTIFICATE_VARIABLES, report_json, verify,
};

/// Checks one collective certificate and reports it.
pub(super) fn verify_one(
    args: &VerifyProofArgs,
    words: &str,
    graph: &Graph,
    dir: &Path,
    several: bool,
) -> Exit {
    let json = args.format == OutputFormat::Json;
    let asked = args
        .collective
        .as_deref()
        .map(|name| parse_collective(name, args.chunks.as_deref()))
        .transpose()
        .map_err(|e| format!("--collective: {e}"));
    let asked = match asked {
        Ok(c) => c,
        Err(message) => {
            errorln!("{message}");
            if json {
                let v = serde_json::json!({"network": words, "error": {"message": message}, "exit_code": 2});
                outln!("{v}");
            }
            return Exit::Input;
        }
    };
    // The time is read from a file: a formula past this size is refused.
    let checked = verify(graph, dir, asked, MAX_CERTIFICATE_VARIABLES);
    let exit = match &checked {
        Ok(_) => Exit::Ok,
        Err(e) if e.is_io() => Exit::Input,
        Err(_) => Exit::Rejected,
    };
    if let Err(e) = &checked
        && exit != Exit::Rejected
    {
        errorln!("{e}");
    }
    if json {
        let v = report_json(words, dir, &checked, exit.code());
        outln!("{v}");
        return exit;
    }
    if several {
        outln!("{}:", dir.display());
    }
    match &checked {
        Ok(c) => c.text().iter().for_each(|line| outln!("{line}")),
        Err(e) if exit == Exit::Rejected => outln!("rejected: {e}"),
        Err(_) => {}
    }
    exit
}
