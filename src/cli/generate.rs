//! `txverify gen`: print a published construction, after the kernel (and the
//! simulator) have accepted it.

use super::exit::Exit;
use super::{GenArgs, GroupArg, OutputFormat};
use std::time::Instant;
use txverify_clients::construct::{Family, GenOptions, GroupChoice, generate};
use txverify_clients::report::describe;
use txverify_clients::verify::{Outcome, SimulationOutcome, VerifyOptions, verify};
use txverify_core::kernel::Verdict;
use txverify_core::load::{LoadOptions, load};

/// The JSON schema of `gen --format json`.
const SCHEMA: &str = "txverify-gen/1";

pub fn run(args: &GenArgs) -> Exit {
    if args.family != "twisted" && !args.more_sizes.is_empty() {
        let message = format!("`gen {}` takes one size", args.family);
        return fail(args, &message, Exit::Input);
    }
    let started = Instant::now();
    let (label, made) = if args.family == "twisted" {
        let mut sides = vec![args.size];
        sides.extend(&args.more_sizes);
        let words: Vec<String> = sides.iter().map(usize::to_string).collect();
        (
            format!("twisted {}", words.join(" ")),
            txverify_clients::construct::twisted::generate(&sides),
        )
    } else {
        match published(args) {
            Ok(family) => (
                format!("{family} {}", args.size),
                generate(family, args.size, GenOptions { group: group(args) }),
            ),
            Err(exit) => return exit,
        }
    };
    let text = match made {
        Ok(text) => canonical(text),
        Err(e) => return fail(args, &e.to_string(), Exit::Input),
    };
    finish(args, &label, text, started)
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

fn group(args: &GenArgs) -> GroupChoice {
    match args.group {
        GroupArg::Default => GroupChoice::Default,
        GroupArg::Cyclic => GroupChoice::Cyclic,
        GroupArg::Dihedral => GroupChoice::Dihedral,
    }
}

/// The published family `args` names, or the exit status of its refusal.
fn published(args: &GenArgs) -> Result<Family, Exit> {
    Ok(match args.family.as_str() {
        "ring" => Family::Ring,
        "ring-cyclic" => Family::RingCyclic,
        "hypercube" => Family::Hypercube,
        "torus2d" => Family::Torus2d,
        "torus3d" => Family::Torus3d,
        other => {
            let message = format!(
                "unknown family `{other}`: expected ring, ring-cyclic, hypercube, torus2d, torus3d or twisted"
            );
            return Err(fail(args, &message, Exit::Input));
        }
    })
}

/// Checks and simulates the generated `text`, then writes it and the summary.
fn finish(args: &GenArgs, label: &str, text: String, started: Instant) -> Exit {
    let generated = started.elapsed();
    let loaded = match load(&text, &LoadOptions::default()) {
        Ok(loaded) => loaded,
        Err(e) => {
            let message =
                format!("the construction produced a file txverify cannot read (a bug): {e}");
            return fail(args, &message, Exit::Internal);
        }
    };
    let options = VerifyOptions {
        simulate: !args.no_simulate,
        ..VerifyOptions::default()
    };
    let verification = verify(&loaded, &options);
    let checked = started.elapsed();
    if verification.outcome() != Outcome::Passed {
        eprintln!("error: the construction of {label} was rejected (a bug); nothing written");
        for v in verification.checked().violations().iter().take(20) {
            eprintln!("  {}", describe(v));
        }
        for e in verification.checked().expectations() {
            if !e.holds {
                eprintln!("  expect {} fails", e.claim);
            }
        }
        return json_failure(
            args,
            "the construction was rejected (a bug)",
            Exit::Internal,
        );
    }
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                let message = format!("cannot write {}: {e}", path.display());
                return fail(args, &message, Exit::Input);
            }
        }
        None if args.format == OutputFormat::Text => out!("{text}"),
        None => {}
    }
    let bound = verification.checked().bound().map(|b| b.value);
    let (simulated_on, hops, skipped) = match verification.simulation() {
        SimulationOutcome::Ran { on, report } => (Some(on.to_string()), Some(report.hops), None),
        skipped => (None, None, skipped.not_run_reason()),
    };
    let seconds = (generated.as_secs_f64(), (checked - generated).as_secs_f64());
    if args.format == OutputFormat::Json {
        let value = serde_json::json!({
            "schema": SCHEMA,
            "family": args.family,
            "size": args.size,
            "time": verification.checked().time(),
            "lower_bound": bound,
            "verdict": verdict_word(verification.checked().verdict()),
            "simulation": {
                "on": simulated_on,
                "hops": hops,
                "skipped": skipped,
            },
            "seconds": { "generate": seconds.0, "check": seconds.1 },
            "output": args.output.as_ref().map(|p| p.display().to_string()),
            "table": args.output.is_none().then_some(text.as_str()),
            "exit_code": Exit::Ok.code(),
        });
        outln!("{value}");
        return Exit::Ok;
    }
    if super::global::quiet() {
        return Exit::Ok;
    }
    let simulation = match (simulated_on, hops, skipped) {
        (Some(on), Some(hops), _) => format!("simulated on {on}: clean, {hops} hops"),
        (_, _, reason) => format!("simulation skipped ({})", reason.unwrap_or_default()),
    };
    let bound = bound.map_or_else(|| "none".to_string(), |b| b.to_string());
    eprintln!(
        "{label}: {} steps, lower bound {bound}, verdict {}; {simulation}; generated in {:.3} s, checked in {:.3} s",
        verification.checked().time(),
        verdict_word(verification.checked().verdict()),
        seconds.0,
        seconds.1
    );
    Exit::Ok
}

/// A construction that could not be given: the message on standard error and,
/// in JSON, an object with it; returns `exit`.
fn fail(args: &GenArgs, message: &str, exit: Exit) -> Exit {
    eprintln!("error: {message}");
    json_failure(args, message, exit)
}

/// In JSON, the object of a failure; returns `exit`.
fn json_failure(args: &GenArgs, message: &str, exit: Exit) -> Exit {
    if args.format == OutputFormat::Json {
        let value = serde_json::json!({
            "schema": SCHEMA,
            "family": args.family,
            "size": args.size,
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}

/// The verdict as one lower-case word, in JSON and in the summary line.
fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Optimal => "optimal",
        Verdict::Valid => "valid",
        Verdict::Invalid => "invalid",
    }
}
