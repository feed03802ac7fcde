//! `gen`: a published construction, made, put in canonical form, checked by
//! the kernel (and the simulator), written, and reported.
//!
//! Nothing is written or printed unless the checkers accept the construction;
//! a rejection is a bug of the construction (status 3).

use super::{Family, GenOptions, GroupChoice, generate};
use crate::check::{Outcome, SimulationOutcome, VerifyOptions, verify};
use crate::shared::failure::{Failure, Status};
use crate::shared::wording::describe;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;
use txverify_core::kernel::Verdict;
use txverify_core::load::{LoadOptions, load};

/// The JSON schema of `gen --format json`.
pub const GEN_SCHEMA: &str = "txverify-gen/1";

/// What `gen` was asked.
#[derive(Clone, Debug)]
pub struct GenRequest {
    /// The family as named: ring, ring-cyclic, hypercube, torus2d, torus3d or twisted.
    pub family: String,
    /// The size (the first side of a twisted torus).
    pub size: usize,
    /// The further sides of a twisted torus.
    pub more_sizes: Vec<usize>,
    /// The group the table is written over.
    pub group: GroupChoice,
    /// Simulate the table as well as check it.
    pub simulate: bool,
    /// `-o FILE`: where the table is written.
    pub output: Option<PathBuf>,
}

/// The report of `gen`: the table, its figures, text and JSON.
pub struct GenReport {
    label: String,
    text: String,
    written: bool,
    summary: String,
    json: Value,
}

impl GenReport {
    /// The table, when it was not written to `-o` (printed in text form).
    pub fn table(&self) -> Option<&str> {
        (!self.written).then_some(self.text.as_str())
    }

    /// The one-line summary standard error shows.
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// The report for programs (schema txverify-gen/1, docs/json.md).
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// The construction as named: `ring 8`, `twisted 4 4`.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Always [`Status::Ok`]: anything else is a [`Failure`].
    pub fn status(&self) -> Status {
        Status::Ok
    }
}

/// Makes, checks and writes the construction `request` names.
pub fn gen_construction(request: &GenRequest) -> Result<GenReport, Failure> {
    if request.family != "twisted" && !request.more_sizes.is_empty() {
        let message = format!("`gen {}` takes one size", request.family);
        return Err(Failure::input(message));
    }
    let started = Instant::now();
    let (label, made) = if request.family == "twisted" {
        let mut sides = vec![request.size];
        sides.extend(&request.more_sizes);
        let words: Vec<String> = sides.iter().map(usize::to_string).collect();
        (
            format!("twisted {}", words.join(" ")),
            super::twisted::generate(&sides),
        )
    } else {
        let family = published(&request.family)?;
        let options = GenOptions {
            group: request.group,
        };
        (
            format!("{family} {}", request.size),
            generate(family, request.size, options),
        )
    };
    let text = match made {
        Ok(text) => canonical(text),
        Err(e) => return Err(Failure::input(e.to_string())),
    };
    finish(request, label, text, started)
}

/// The construction's text in `fmt`'s canonical form, so that a generated file
/// passes `fmt --check` as written; the canonical text is the one checked and
/// printed. A text that does not parse is left alone for `load` to report.
fn canonical(text: String) -> String {
    match txverify_core::format::parse(&text) {
        Ok(file) => txverify_core::format::print_keeping_comments(&text, &file),
        Err(_) => text,
    }
}

/// The published family `name` names.
fn published(name: &str) -> Result<Family, Failure> {
    Ok(match name {
        "ring" => Family::Ring,
        "ring-cyclic" => Family::RingCyclic,
        "hypercube" => Family::Hypercube,
        "torus2d" => Family::Torus2d,
        "torus3d" => Family::Torus3d,
        other => {
            return Err(Failure::input(format!(
                "unknown family `{other}`: expected ring, ring-cyclic, hypercube, torus2d, torus3d or twisted"
            )));
        }
    })
}

/// Checks and simulates the generated `text`, then writes it and reports.
fn finish(
    request: &GenRequest,
    label: String,
    text: String,
    started: Instant,
) -> Result<GenReport, Failure> {
    let generated = started.elapsed();
    let loaded = load(&text, &LoadOptions::default()).map_err(|e| {
        Failure::internal(format!(
            "the construction produced a file txverify cannot read (a bug): {e}"
        ))
    })?;
    let options = VerifyOptions {
        simulate: request.simulate,
        ..VerifyOptions::default()
    };
    let verification = verify(&loaded, &options);
    let checked = started.elapsed();
    if verification.outcome() != Outcome::Passed {
        let mut shown =
            format!("error: the construction of {label} was rejected (a bug); nothing written\n");
        for v in verification.checked().violations().iter().take(20) {
            let _ = writeln!(shown, "  {}", describe(v));
        }
        for e in verification.checked().expectations() {
            if !e.holds {
                let _ = writeln!(shown, "  expect {} fails", e.claim);
            }
        }
        let failure = Failure::internal("the construction was rejected (a bug)");
        return Err(failure.shown_as(shown));
    }
    if let Some(path) = &request.output {
        std::fs::write(path, &text)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    }
    let bound = verification.checked().bound().map(|b| b.value);
    let (simulated_on, hops, skipped) = match verification.simulation() {
        SimulationOutcome::Ran { on, report } => (Some(on.to_string()), Some(report.hops), None),
        skipped => (None, None, skipped.not_run_reason()),
    };
    let seconds = (generated.as_secs_f64(), (checked - generated).as_secs_f64());
    let time = verification.checked().time();
    let verdict = verdict_word(verification.checked().verdict());
    let json = serde_json::json!({
        "schema": GEN_SCHEMA,
        "family": request.family,
        "size": request.size,
        "time": time,
        "lower_bound": bound,
        "verdict": verdict,
        "simulation": {
            "on": simulated_on,
            "hops": hops,
            "skipped": skipped,
        },
        "seconds": { "generate": seconds.0, "check": seconds.1 },
        "output": request.output.as_ref().map(|p| p.display().to_string()),
        "table": request.output.is_none().then_some(text.as_str()),
        "exit_code": Status::Ok.code(),
    });
    let simulation = match (simulated_on, hops, skipped) {
        (Some(on), Some(hops), _) => format!("simulated on {on}: clean, {hops} hops"),
        (_, _, reason) => format!("simulation skipped ({})", reason.unwrap_or_default()),
    };
    let bound = bound.map_or_else(|| "none".to_string(), |b| b.to_string());
    let summary = format!(
        "{label}: {time} steps, lower bound {bound}, verdict {verdict}; {simulation}; generated in {:.3} s, checked in {:.3} s",
        seconds.0, seconds.1
    );
    Ok(GenReport {
        label,
        text,
        written: request.output.is_some(),
        summary,
        json,
    })
}

/// The verdict as one lower-case word, in JSON and in the summary line.
fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Optimal => "optimal",
        Verdict::Valid => "valid",
        Verdict::Invalid => "invalid",
    }
}
