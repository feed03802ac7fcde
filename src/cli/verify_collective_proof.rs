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
use txverify_core::schedule::{Collective, parse_chunks};
use txverify_search::schedule::collective_certificate::verify;

/// The collective `--collective` and `--chunks` name, if given.
fn asked(args: &VerifyProofArgs) -> Result<Option<Collective>, String> {
    let Some(words) = &args.collective else {
        return Ok(None);
    };
    let mut c = words
        .parse::<Collective>()
        .map_err(|e| format!("--collective `{words}`: {e}"))?;
    if let Some(text) = &args.chunks {
        let chunks = parse_chunks(text).map_err(|e| format!("--chunks: {e}"))?;
        c = c
            .with_chunks(chunks)
            .map_err(|e| format!("--chunks: {e}"))?;
    }
    Ok(Some(c))
}

/// Checks one collective certificate and reports it.
pub(super) fn verify_one(
    args: &VerifyProofArgs,
    words: &str,
    graph: &Graph,
    dir: &Path,
    several: bool,
) -> Exit {
    let json = args.format == OutputFormat::Json;
    let asked = match asked(args) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("error: {message}");
            if json {
                let v = serde_json::json!({"network": words, "error": {"message": message}, "exit_code": 2});
                outln!("{v}");
            }
            return Exit::Input;
        }
    };
    // The time is read from a file: a formula past this size is refused.
    let checked = verify(graph, dir, asked, 1 << 26);
    let exit = match &checked {
        Ok(_) => Exit::Ok,
        Err(e) if e.is_io() => Exit::Input,
        Err(_) => Exit::Rejected,
    };
    if let Err(e) = &checked
        && exit != Exit::Rejected
    {
        eprintln!("error: {e}");
    }
    if json {
        let v = serde_json::json!({
            "schema": "txverify-verify-collective-proof/1",
            "network": words,
            "certificate": dir.display().to_string(),
            "verified": checked.is_ok(),
            "claim": checked.as_ref().ok().map(|c| c.provenance.claim.clone()),
            "time": checked.as_ref().ok().map(|c| c.provenance.time),
            "error": checked.as_ref().err().map(|e| e.to_string()),
            "exit_code": exit.code(),
        });
        outln!("{v}");
        return exit;
    }
    if several {
        outln!("{}:", dir.display());
    }
    match &checked {
        Ok(c) => {
            outln!("verified: {}", c.provenance.claim);
            outln!(
                "  formula regenerated ({} variables, {} clauses), {} checked",
                c.provenance.variables,
                c.provenance.clauses,
                c.provenance.proof
            );
        }
        Err(e) if exit == Exit::Rejected => outln!("rejected: {e}"),
        Err(_) => {}
    }
    exit
}
