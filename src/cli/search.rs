//! `txverify search`: the command line over `search` (`verify-proof` is in
//! [`super::verify_proof`]).
//!
//! A search run goes in stages: the file is loaded, the arguments become a
//! checked configuration ([`super::search_config`], no input or output), the
//! search runs, and its report is written ([`super::search_report`]; the page
//! of `--format html` is [`super::search_page`]).

use super::OutputFormat;
use super::SearchArgs;
use super::check::read_and_load_with_source;
use super::exit::Exit;
pub use super::search_config::SearchFormat;
use super::search_config::{Mode, config_of};
use super::search_report::{
    Reporter, SEARCH_SCHEMA, describe, found_by_text, found_text, how_found, search_failure,
    write_found, write_table,
};
use std::path::Path;
use txverify_core::group::EnumerationLimits;
use txverify_core::kernel::{self, Checked, Instance, Table};
use txverify_core::load::{LoadOptions, Loaded};
use txverify_search::{
    self as search, EncodingOptions, FoundBy, Infeasibility, Outcome, Progress, SearchError,
    SearchOptions,
};

pub(super) fn load_file(path: &Path, max_order: usize) -> Result<(String, Loaded), Exit> {
    let options = LoadOptions {
        limits: EnumerationLimits {
            max_order,
            ..EnumerationLimits::default()
        },
    };
    read_and_load_with_source(path, &options, OutputFormat::Text).ok_or(Exit::Input)
}

/// `txverify search`: loads the file, checks the arguments, and runs what
/// they ask for.
pub fn run(args: &SearchArgs) -> Exit {
    let file = match (&args.network, &args.file) {
        (Some(network), _) => return super::search_network::run(args, network),
        (None, _) if args.heuristic || args.descending => {
            return search_failure(
                args,
                "--heuristic and --descending need --network NET",
                Exit::Input,
            );
        }
        (None, Some(file)) => file,
        // clap asks for one of the two.
        (None, None) => return search_failure(args, "give a FILE or --network NET", Exit::Input),
    };
    let (source, loaded) = match load_file(file, args.max_order) {
        Ok(l) => l,
        Err(code) => return search_failure(args, "", code),
    };
    if !loaded.instance.defects().is_empty() {
        let message = "the link set does not define a connected undirected network";
        return search_failure(args, message, Exit::Rejected);
    }
    let mut notes = Vec::new();
    let config = config_of(args, &loaded, &mut notes);
    if !super::global::quiet() {
        for note in &notes {
            eprintln!("{note}");
        }
    }
    let config = match config {
        Ok(c) => c,
        Err(message) => return search_failure(args, &message, Exit::Input),
    };
    let (options, instance) = (&config.options, &loaded.instance);
    let output = args.output.as_deref();
    match config.mode {
        Mode::Model { path, time } => {
            decode_model_file(&path, time, &options.encoding, &source, instance, output)
        }
        Mode::Page => super::search_page::run(args, &source, &loaded, options),
        Mode::Merge { dir, time } => {
            merge_cubes(&dir, time, &options.encoding, &source, instance, output)
        }
        Mode::Cubes { count, time } => cubes(args, count, time, options, &source, instance),
        Mode::Mpi {
            count,
            time,
            budget,
            lease,
        } => {
            let cluster = txverify_search::cluster::ClusterOptions {
                cubes: count,
                budget,
                lease: lease.map(std::time::Duration::from_secs_f64),
            };
            let options = at_time(options, time);
            super::search_mpi::run(&cluster, time, &options, &source, instance, output)
        }
        Mode::Search => search_and_report(args, options, &source, instance),
    }
}

/// What a search tried: the table found and which run found it, the numbers
/// of columns shown infeasible, and those where a limit ran out.
type Tried = (Option<(Table, FoundBy)>, Vec<Infeasibility>, Vec<usize>);

/// The search of `--time T`, or the minimisation, with its progress shown on
/// `reporter` (finished when the search ends).
fn search_here(
    args: &SearchArgs,
    options: &SearchOptions,
    instance: &Instance,
    reporter: &mut Reporter,
) -> Result<Tried, SearchError> {
    let mut planned = None;
    let mut show = |p: &Progress| {
        // Once per T, when the helper starts: what it will try, in order.
        if p.helper.is_some() && planned != Some(p.time) {
            planned = Some(p.time);
            reporter.show_plan(p.time, &search::portfolio::plan(instance, p.time, options));
        }
        reporter.show(p)
    };
    let result = match args.time {
        Some(time) => {
            let options = &at_time(options, time);
            search::solve_reporting(instance, time, options, &mut show).map(|outcome| match outcome
            {
                Outcome::Found(table, by) => (Some((table, by)), vec![], vec![]),
                Outcome::Infeasible(i) => (None, vec![i], vec![]),
                Outcome::Unknown => (None, vec![], vec![time]),
            })
        }
        // Whatever is found, the times shown infeasible and those where a limit ran
        // out are reported: a search that finds nothing up to `--max-time` says why.
        None => search::minimise_tried(instance, options, args.max_time, &mut show).map(|tried| {
            let found = tried.found.map(|(table, _, by)| (table, by));
            (found, tried.infeasible, tried.unknown)
        }),
    };
    reporter.finish();
    result
}

/// A table found, as a `.tbl` file, with the kernel's check and the run that found it.
type Found = (String, Checked, FoundBy);

/// The search, reported in text or JSON; a table found is written to `-o`
/// when it is given.
fn search_and_report(
    args: &SearchArgs,
    options: &SearchOptions,
    source: &str,
    instance: &Instance,
) -> Exit {
    let mut reporter = Reporter::new(super::global::quiet());
    let (table, infeasible, unknown) = match search_here(args, options, instance, &mut reporter) {
        Ok(r) => r,
        Err(e) => return search_failure(args, &e.to_string(), Exit::of_search_error(&e)),
    };
    let exit = match (&table, options.dimacs_only.is_some()) {
        (Some(_), _) | (None, true) => Exit::Ok,
        (None, false) if unknown.is_empty() => Exit::Rejected,
        (None, false) => Exit::Limit,
    };
    let found: Option<Found> = table.map(|(table, by)| {
        let checked = kernel::check(instance, &table, &[]);
        let text = found_text(
            source,
            instance,
            &table,
            &checked,
            &how_found(&solver_name(options)),
        );
        (text, checked, by)
    });
    if let (Some(path), Some((text, ..))) = (&args.output, &found)
        && let Err(message) = write_table(text, Some(path))
    {
        return search_failure(args, &message, Exit::Input);
    }
    if args.format == SearchFormat::Json {
        let value = search_json(args, options, instance, &found, &infeasible, &unknown, exit);
        outln!("{value}");
        return exit;
    }
    for i in &infeasible {
        reporter.say(&format!("infeasible {}", describe(i)));
    }
    if options.dimacs_only.is_some() {
        reporter.say("formulas written; nothing solved");
        return exit;
    }
    for t in &unknown {
        reporter.say(&format!("unknown T={t}: the limit ran out"));
    }
    if let Some((text, _, by)) = found {
        if let FoundBy::Helper(how) = &by {
            reporter.say(&format!("found by the helper solver, on {how}"));
        }
        if args.output.is_none() {
            out!("{text}");
        }
    }
    exit
}

/// The report of `search --format json` (schema txverify-search/2).
fn search_json(
    args: &SearchArgs,
    options: &SearchOptions,
    instance: &Instance,
    found: &Option<Found>,
    infeasible: &[Infeasibility],
    unknown: &[usize],
    exit: Exit,
) -> serde_json::Value {
    let optimal_by = found
        .as_ref()
        .map(|(_, checked, _)| search::refutation::table_optimal_by(instance, checked, infeasible));
    let infeasible: Vec<serde_json::Value> = infeasible
        .iter()
        .map(|i| {
            serde_json::json!({
                "time": i.time,
                "claim": i.claim,
                "covers_all_tables": i.covers_all_tables,
                "symmetry_restricted": !i.unrestricted,
                "certificate": i.certificate.as_ref().map(|p| p.display().to_string()),
            })
        })
        .collect();
    let (table, time, found_by) = match found {
        Some((text, checked, by)) => (
            Some(text.as_str()),
            Some(checked.time()),
            Some(found_by_text(by)),
        ),
        None => (None, None, None),
    };
    let optimal = optimal_by.map(|by| by.is_some());
    let optimal_by = optimal_by.flatten();
    let mut value = serde_json::json!({
        "schema": SEARCH_SCHEMA,
        "file": args.shown_file(),
        "found": found.is_some(),
        "time": time,
        "optimal": optimal,
        "optimal_by": optimal_by,
        "found_by": found_by,
        "solver": options.solver,
        "table": table,
        "infeasible": infeasible,
        "unknown": unknown,
        "formulas_only": options.dimacs_only.is_some(),
        "exit_code": exit.code(),
    });
    if let (Some(path), Some(_)) = (&args.output, found) {
        value["output"] = serde_json::Value::from(path.display().to_string());
    }
    value
}

/// `--cubes K`: the cubes written for jobs elsewhere, or solved here.
fn cubes(
    args: &SearchArgs,
    count: usize,
    time: usize,
    options: &SearchOptions,
    source: &str,
    instance: &Instance,
) -> Exit {
    use txverify_search::conquer;
    let written = match (&args.output, &options.dimacs_only) {
        (Some(dir), _) => Some(
            conquer::write_cubes(instance, time, &options.encoding, count, dir)
                .map(|n| format!("{n} cubes for T={time} written to {}", dir.display())),
        ),
        (None, Some(path)) => Some(
            conquer::write_icnf_file(instance, time, &options.encoding, count, path).map(|n| {
                format!(
                    "{n} cubes for T={time} written to {} (iCNF)",
                    path.display()
                )
            }),
        ),
        (None, None) => None,
    };
    if let Some(written) = written {
        return match written {
            Ok(message) => {
                eprintln!("{message}");
                Exit::Ok
            }
            Err(e) => {
                eprintln!("error: {e}");
                Exit::of_search_error(&e)
            }
        };
    }
    match conquer::solve_cubes(instance, time, &at_time(options, time), count) {
        Ok((Outcome::Found(table, _), n)) => {
            eprintln!("found in one of {n} cubes");
            // `-o` names the cubes' directory here: the table goes to standard output.
            write_found(
                source,
                instance,
                &table,
                None,
                &how_found(&solver_name(options)),
            )
        }
        Ok((Outcome::Infeasible(i), n)) => {
            eprintln!("infeasible {} (all {n} cubes refuted)", describe(&i));
            Exit::Rejected
        }
        Ok((Outcome::Unknown, n)) => {
            eprintln!("unknown T={time}: the limit ran out before all {n} cubes were solved");
            Exit::Limit
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::of_search_error(&e)
        }
    }
}

/// `--merge DIR --time T`: what the cube jobs' answers add up to; a table
/// found is written to `output` (`-o`) or standard output.
fn merge_cubes(
    dir: &Path,
    time: usize,
    encoding: &EncodingOptions,
    source: &str,
    instance: &Instance,
    output: Option<&Path>,
) -> Exit {
    use txverify_search::conquer::{self, Merged};
    match conquer::merge(instance, time, encoding, dir) {
        Ok(Merged::Found(table, cube)) => {
            eprintln!("found by cube {}", cube + 1);
            write_found(
                source,
                instance,
                &table,
                output,
                &how_found("cube jobs merged"),
            )
        }
        Ok(Merged::Infeasible(i)) => {
            eprintln!(
                "infeasible {} (every cube refuted with a checked proof; the cubes cover)",
                describe(&i)
            );
            Exit::Rejected
        }
        Ok(Merged::Open {
            missing,
            unproved,
            proved,
        }) => {
            let list = |cubes: &[usize]| {
                cubes
                    .iter()
                    .map(|c| (c + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            eprintln!("open T={time}: {proved} cubes refuted with a checked proof");
            if !missing.is_empty() {
                eprintln!("  no answer from cubes {}", list(&missing));
            }
            if !unproved.is_empty() {
                eprintln!(
                    "  unsatisfiable without a proof (the solver's word, not counted): cubes {}",
                    list(&unproved)
                );
            }
            Exit::Limit
        }
        Err(e) => super::search_report::cube_run_failed(&e, e.is_input()),
    }
}

/// `--model FILE --time T`: the table a model found elsewhere describes,
/// written to `output` (`-o`) or standard output.
fn decode_model_file(
    path: &Path,
    time: usize,
    encoding: &EncodingOptions,
    source: &str,
    instance: &Instance,
    output: Option<&Path>,
) -> Exit {
    let text = match super::read_text(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return Exit::Input;
        }
    };
    match search::decode_model(instance, time, encoding, &text) {
        Ok(table) => write_found(
            source,
            instance,
            &table,
            output,
            &how_found("a model read from a file"),
        ),
        Err(e @ search::SearchError::Solver(_)) => {
            eprintln!("error: {}: {e}", path.display());
            Exit::Input
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::of_search_error(&e)
        }
    }
}

/// The options of a search at one `time`: its certificate goes to
/// `DIR/T<time>/`, the layout a minimising search writes.
fn at_time(options: &SearchOptions, time: usize) -> SearchOptions {
    let mut options = options.clone();
    if let Some(dir) = &options.certificate_dir {
        options.certificate_dir = Some(search::certificate_dir_for(dir, time));
    }
    options
}

/// The main solver's name, as JSON's `solver` gives it.
fn solver_name(options: &SearchOptions) -> String {
    match serde_json::to_value(options.solver) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "a SAT solver".to_string(),
    }
}
