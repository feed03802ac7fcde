//! `txverify search`: the arguments checked and turned into what a run does
//! (the search options and the kind of run), without reading or writing
//! anything, so that every refusal of an argument or a combination is made in
//! one place, before the search starts.

use super::{SolverArg, SymmetryArg, search_args::SearchArgs};
use std::path::PathBuf;
use std::time::Duration;
use txverify_clients::report::search_options::{checked_solver, sigma_for, split_links};
use txverify_core::kernel::Instance;
use txverify_core::load::Loaded;
use txverify_search::seconds::Seconds;
use txverify_search::{self as search, EncodingOptions, SearchOptions, SolverChoice, WordLengths};

/// Formats of `search`: the text and JSON reports, and the HTML page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchFormat {
    /// Human-readable text: the table found on standard output, the log on standard error.
    #[default]
    Text,
    /// One JSON document, schema txverify-search/2 (docs/json.md).
    Json,
    /// One self-contained HTML page with the T-by-T log (docs/render.md).
    Html,
}

/// The kind of run the arguments ask for.
pub(super) enum Mode {
    /// `--format html`: the search, reported as one page.
    Page,
    /// `--model FILE --time T`: decode a model found elsewhere.
    Model {
        /// The model's file.
        path: PathBuf,
        /// The number of columns of its formula.
        time: usize,
    },
    /// `--merge DIR --time T`: add up the answers of cube jobs.
    Merge {
        /// The cubes' directory.
        dir: PathBuf,
        /// The number of columns.
        time: usize,
    },
    /// `--cubes K --time T`: cube-and-conquer, here or written for jobs elsewhere.
    Cubes {
        /// The number of cubes.
        count: usize,
        /// The number of columns.
        time: usize,
        /// Seconds per cube before it is split again.
        budget: Option<f64>,
    },
    /// `--mpi`: cube-and-conquer as an MPI job, minimising or at one time.
    Mpi {
        /// The number of cubes to start with (`None`: 8 per worker).
        count: Option<usize>,
        /// The number of columns (`None`: minimise).
        time: Option<usize>,
        /// Downward from the file's table (`--descending`).
        descending: bool,
        /// Seconds per cube before it is split again.
        budget: Option<f64>,
        /// The time before a silent worker's cube is handed out again.
        lease: Option<Duration>,
    },
    /// The search, reported in text or JSON.
    Search,
}

/// What a `search` run does.
pub(super) struct SearchConfig {
    /// The options of the search.
    pub options: SearchOptions,
    /// The kind of run.
    pub mode: Mode,
}

/// The run the arguments ask for on `loaded`, or why they cannot be used.
/// `notes` receives what the choices made mean (the symmetry chosen), for the
/// caller to show even when a later argument is refused.
pub(super) fn config_of(
    args: &SearchArgs,
    loaded: &Loaded,
    notes: &mut Vec<String>,
) -> Result<SearchConfig, String> {
    let options = options_of(args, &loaded.instance, notes)?;
    let mode = mode_of(args)?;
    Ok(SearchConfig { options, mode })
}

/// The kind of run, or why the combination of arguments is refused.
fn mode_of(args: &SearchArgs) -> Result<Mode, String> {
    let html = args.format == SearchFormat::Html;
    if html && (args.model.is_some() || args.dimacs.is_some()) {
        return Err("--model and --dimacs report in text only (no --format html)".to_string());
    }
    if let (Some(path), Some(time)) = (&args.model, args.time) {
        return Ok(Mode::Model {
            path: path.clone(),
            time,
        });
    }
    if args.mpi {
        return mpi_mode(args, html);
    }
    if (args.merge.is_some() || args.cubes.is_some()) && args.format != SearchFormat::Text {
        return Err(
            "--cubes and --merge report in text only (no --format json or html yet)".to_string(),
        );
    }
    if args.cube_budget.is_some() && args.cubes.is_none() {
        return Err("--cube-budget needs --cubes K or --mpi".to_string());
    }
    if html {
        return Ok(Mode::Page);
    }
    if let (Some(dir), Some(time)) = (&args.merge, args.time) {
        return Ok(Mode::Merge {
            dir: dir.clone(),
            time,
        });
    }
    if let Some(count) = args.cubes {
        let time = args.time.ok_or("--cubes K needs --time T (or --mpi)")?;
        return Ok(Mode::Cubes {
            count: count as usize,
            time,
            budget: args.cube_budget.map(Seconds::as_secs_f64),
        });
    }
    Ok(Mode::Search)
}

/// `--mpi`: the cube count, the budget and the lease (positive seconds), and
/// the times to try.
fn mpi_mode(args: &SearchArgs, html: bool) -> Result<Mode, String> {
    if html {
        return Err("--mpi reports in text or JSON (no --format html)".to_string());
    }
    if args.descending && args.time.is_some() {
        return Err("--descending starts from the file's table: no --time".to_string());
    }
    Ok(Mode::Mpi {
        count: args.cubes.map(|c| c as usize),
        time: args.time,
        descending: args.descending,
        budget: args.cube_budget.map(Seconds::as_secs_f64),
        lease: args.cube_lease.map(Seconds::duration),
    })
}

/// The search options the arguments ask for, or why they cannot be used.
fn options_of(
    args: &SearchArgs,
    instance: &Instance,
    notes: &mut Vec<String>,
) -> Result<SearchOptions, String> {
    let encoding = encoding_of(args, instance, notes)?;
    let solver = solver_of(args)?;
    Ok(SearchOptions {
        encoding,
        time_limit: args.time_limit.map(Seconds::duration),
        stop: None,
        jobs: match args.jobs {
            Some(jobs) => usize::from(jobs),
            None => std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        },
        certificate_dir: args.certificate.clone(),
        dimacs_only: args.dimacs.clone(),
        solver,
        external_command: args.solver_cmd.clone(),
    })
}

/// The encoding the arguments ask for: word lengths, symmetry restrictions
/// (with their notes), the free tail and symmetry breaking.
fn encoding_of(
    args: &SearchArgs,
    instance: &Instance,
    notes: &mut Vec<String>,
) -> Result<EncodingOptions, String> {
    let lengths = if args.any_length {
        WordLengths::Any
    } else if args.slack > 0 {
        WordLengths::Slack(args.slack)
    } else {
        WordLengths::Shortest
    };
    let mut encoding = EncodingOptions::with_redundant(lengths, args.no_redundant);
    for s in &args.symmetry {
        match s {
            SymmetryArg::Sigma => {
                let Some(p) = sigma_for(instance, args.time, args.free_tail) else {
                    return Err("no automorphism of the group permutes the links".to_string());
                };
                notes.push(format!(
                    "--symmetry sigma: {}",
                    search::symmetry::describe(instance, &p)
                ));
                encoding.automorphism = Some(p)
            }
            SymmetryArg::Reverse => encoding.time_reversal = true,
            SymmetryArg::Split => {
                let links = split_links(instance, &args.split_along, args.time)?;
                notes.push(format!(
                    "--symmetry split: {}",
                    search::split::describe(instance, &links, args.time.unwrap_or(0))
                ));
                encoding.split = links.iter().map(|e| e.index() as u16).collect()
            }
        }
    }
    if !args.split_along.is_empty() && encoding.split.is_empty() {
        return Err("--split-along needs --symmetry split".to_string());
    }
    if let Some(tail) = args.free_tail {
        if encoding.automorphism.is_none() {
            return Err("--free-tail needs --symmetry sigma".to_string());
        }
        if args.time.is_some_and(|time| tail == 0 || tail >= time) {
            return Err("--free-tail W needs 0 < W < --time".to_string());
        }
        encoding.tail = tail;
    }
    if args.break_symmetry {
        let mut breaking = search::breaking::suggested(instance, args.break_automorphisms);
        breaking.prefix = args.break_prefix;
        encoding.break_symmetry = Some(breaking);
    }
    Ok(encoding)
}

/// The solver the arguments ask for, with its command checked, or why it
/// cannot be used.
pub(super) fn solver_of(args: &SearchArgs) -> Result<SolverChoice, String> {
    let solver = match args.solver {
        SolverArg::Varisat => SolverChoice::Varisat,
        SolverArg::Cadical => SolverChoice::Cadical,
        SolverArg::Z3 => SolverChoice::Z3,
        SolverArg::External => SolverChoice::External,
    };
    checked_solver(solver, args.solver_cmd.as_deref())
}

impl SearchArgs {
    /// The table file as reports show it (empty with `--network`).
    pub(super) fn shown_file(&self) -> String {
        self.file
            .as_ref()
            .map_or_else(String::new, |f| f.display().to_string())
    }
}
