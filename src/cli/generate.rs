//! `txverify gen`: print a published construction, after the kernel (and the
//! simulator) have accepted it.

use super::exit::Exit;
use super::{GenArgs, GroupArg};
use std::time::Instant;
use txverify::construct::{Family, GenOptions, GroupChoice, generate};
use txverify::load::{LoadOptions, load};
use txverify::report::describe;
use txverify::verify::{Outcome, VerifyOptions, verify};

pub fn run(args: &GenArgs) -> Exit {
    let family = match args.family.as_str() {
        "ring" => Family::Ring,
        "ring-cyclic" => Family::RingCyclic,
        "hypercube" => Family::Hypercube,
        "torus2d" => Family::Torus2d,
        "torus3d" => Family::Torus3d,
        other => {
            eprintln!(
                "error: unknown family `{other}`: expected ring, ring-cyclic, hypercube, torus2d or torus3d"
            );
            return Exit::Input;
        }
    };
    let group = match args.group {
        GroupArg::Default => GroupChoice::Default,
        GroupArg::Cyclic => GroupChoice::Cyclic,
        GroupArg::Dihedral => GroupChoice::Dihedral,
    };
    let started = Instant::now();
    let text = match generate(family, args.size, GenOptions { group }) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Input;
        }
    };
    let generated = started.elapsed();
    let loaded = match load(&text, &LoadOptions::default()) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: the construction produced a file txverify cannot read (a bug): {e}");
            return Exit::Internal;
        }
    };
    let options = VerifyOptions {
        simulate: !args.no_simulate,
        ..VerifyOptions::default()
    };
    let verification = verify(&loaded, &options);
    let checked = started.elapsed();
    if verification.outcome() != Outcome::Passed {
        eprintln!(
            "error: the construction of {family} {} was rejected (a bug); nothing written",
            args.size
        );
        for v in verification.checked.violations().iter().take(20) {
            eprintln!("  {}", describe(v));
        }
        for e in verification.checked.expectations() {
            if !e.holds {
                eprintln!("  expect {} fails", e.claim);
            }
        }
        return Exit::Internal;
    }
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return Exit::Input;
            }
        }
        None => out!("{text}"),
    }
    let bound = verification
        .checked
        .bound()
        .map_or_else(|| "none".to_string(), |b| b.value.to_string());
    let simulation = match &verification.simulation {
        txverify::verify::SimulationOutcome::Ran { on, report } => {
            format!("simulated on {on}: clean, {} hops", report.hops)
        }
        txverify::verify::SimulationOutcome::Skipped { reason } => {
            format!("simulation skipped ({reason})")
        }
    };
    eprintln!(
        "{family} {}: {} steps, lower bound {bound}, verdict {:?}; {simulation}; generated in {:.3} s, checked in {:.3} s",
        args.size,
        verification.checked.time(),
        verification.checked.verdict(),
        generated.as_secs_f64(),
        (checked - generated).as_secs_f64()
    );
    Exit::Ok
}
