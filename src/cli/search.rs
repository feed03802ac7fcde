//! `txverify search`: the command line over `search` (`verify-proof` is in
//! [`super::verify_proof`]).
//!
//! A search run goes in stages: the file is loaded, the arguments become a
//! checked configuration ([`super::search_config`], no input or output), the
//! search runs, and its report is written ([`super::search_report`]; the page
//! of `--format html` is [`super::search_page`]).

use super::OutputFormat;
use super::check::read_and_load_with_source;
use super::exit::Exit;
use super::search_args::SearchArgs;
pub use super::search_config::SearchFormat;
use super::search_config::{Mode, config_of};
use super::search_network::stoppable;
use super::search_report::{Reporter, how_found, search_failure, write_found};
use std::path::Path;
use txverify_clients::report::search::{Tried, run_search, solver_name};
use txverify_clients::report::{Failure, Status, cubes};
use txverify_core::group::EnumerationLimits;
use txverify_core::kernel::Instance;
use txverify_core::load::{LoadOptions, Loaded};
use txverify_search::{self as search, Progress, SearchError, SearchOptions};

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
        (Some(network), _) => {
            return match network.name() {
                Ok(name) => super::search_network::run(args, name.clone()),
                Err(e) => search_failure(args, &e.to_string(), Exit::Input),
            };
        }
        (None, _)
            if args.heuristic
                || args.ascending
                || (!args.mpi && (args.descending || args.deadline.is_some())) =>
        {
            return search_failure(
                args,
                "--heuristic, --descending, --ascending and --deadline need --network NET (--descending and --deadline: or --mpi)",
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
            let decoded = cubes::decode_model(instance, time, &options.encoding, &path);
            let run = decoded.map(|table| cubes::Run {
                log: Vec::new(),
                found: Some(table),
                status: Status::Ok,
            });
            show_run(run, &source, instance, output, "a model read from a file")
        }
        Mode::Page => {
            let mut reporter = Reporter::new(super::global::quiet());
            match search_here(args, options, &loaded.instance, &mut reporter) {
                Ok(tried) => super::search_page::write(args, &source, &loaded, tried),
                Err(e) => search_failure(args, &e.to_string(), Exit::of_search_error(&e)),
            }
        }
        Mode::Merge { dir, time } => {
            let run = cubes::merge(instance, time, &options.encoding, &dir);
            show_run(run, &source, instance, output, "cube jobs merged")
        }
        Mode::Cubes {
            count,
            time,
            budget,
        } => {
            let quiet = super::global::quiet();
            let on_cube = |p: &txverify_search::conquer::CubeProgress| {
                if !quiet {
                    eprintln!("{}", cubes::cube_line(time, p));
                }
            };
            // SIGINT and SIGTERM stop a run of hours as its limit does: with
            // the count of refuted cubes and the open ones.
            let options = &stoppable(options, output.is_none());
            let run = cubes::cubes(instance, (time, count, budget), options, output, &on_cube);
            // `-o` names the cubes' directory here: a table goes to standard output.
            let how = solver_name(options);
            show_run(run, &source, instance, None, &how)
        }
        Mode::Mpi {
            count,
            time,
            descending,
            budget,
            lease,
        } => {
            let cluster = txverify_search::cluster::ClusterOptions {
                cubes: count,
                budget,
                lease,
            };
            let given = descending.then_some(&loaded.table);
            super::search_mpi::run(args, &cluster, (time, given), options, &source, instance)
        }
        // A signal stops it as its limit does: no partial proof is left behind.
        Mode::Search => search_and_report(args, &stoppable(options, true), &source, instance),
    }
}

/// The search of `--time T`, or the minimisation, with its progress shown on
/// `reporter` (finished when the search ends).
pub(super) fn search_here(
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
    let result = run_search(instance, options, args.time, args.max_time, &mut show);
    reporter.finish();
    result
}

/// The search, reported in text or JSON; a table found is written to `-o`
/// when it is given.
fn search_and_report(
    args: &SearchArgs,
    options: &SearchOptions,
    source: &str,
    instance: &Instance,
) -> Exit {
    let mut reporter = Reporter::new(super::global::quiet());
    match search_here(args, options, instance, &mut reporter) {
        Ok(tried) => {
            super::search_report::report(args, options, (source, instance), &tried, None, &reporter)
        }
        Err(e) => search_failure(args, &e.to_string(), Exit::of_search_error(&e)),
    }
}

/// Shows a cube run (or a decoded model): its lines on standard error, the
/// table found written to `output` or standard output (`how` found it).
fn show_run(
    run: Result<cubes::Run, Failure>,
    source: &str,
    instance: &Instance,
    output: Option<&Path>,
    how: &str,
) -> Exit {
    let run = match run {
        Ok(run) => run,
        Err(failure) => return super::output::failure(&failure, None),
    };
    for line in &run.log {
        eprintln!("{line}");
    }
    match &run.found {
        Some(table) => write_found(source, instance, table, output, &how_found(how)),
        None => Exit::from(run.status),
    }
}
