//! `txverify search`: how a search reports, shared by the text and JSON
//! reports and the HTML page: the progress on standard error, the found
//! table (to standard output or `-o`), and a search that stopped before it
//! ran. The reports themselves are [`txverify_clients::report::search`]'s.

use super::exit::Exit;
use super::search_args::SearchArgs;
use super::search_config::SearchFormat;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;
use txverify_clients::report::search::{Found, SearchReport, Tried, solver_name, verdict_line};
pub(super) use txverify_clients::report::search::{describe, found_by_text};
use txverify_clients::report::search_options::certificates_as_named;
use txverify_core::kernel::{Instance, Table};
use txverify_search::portfolio::HelperActivity;
use txverify_search::{FoundBy, Phase, Progress, SearchOptions};

/// Draws progress: a spinner on a terminal, plain lines otherwise.
pub(super) struct Reporter {
    bar: Option<indicatif::ProgressBar>,
    quiet: bool,
    last_plain: std::time::Instant,
}

impl Reporter {
    pub(super) fn new(quiet: bool) -> Reporter {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Reporter {
            bar,
            quiet,
            last_plain: std::time::Instant::now(),
        }
    }

    pub(super) fn show(&mut self, p: &Progress) {
        if self.quiet {
            return;
        }
        let mut text = format!(
            "T={} {:?}: {} vars, {} clauses, {} learned, {:.1} s",
            p.time,
            p.phase,
            p.stats.variables,
            p.stats.clauses,
            p.learned,
            p.elapsed.as_secs_f64()
        )
        .to_lowercase();
        match p.helper {
            Some(HelperActivity::Starting) => text.push_str("; helper: starting"),
            Some(HelperActivity::Restriction {
                index,
                open,
                turn_ms,
            }) => text.push_str(&match turn_ms {
                Some(ms) => format!(
                    "; helper: restriction {index} of {open}, {:.1} s turn",
                    ms as f64 / 1000.0
                ),
                None => format!("; helper: restriction {index} of {open}, until the limit"),
            }),
            Some(HelperActivity::ShuffledCopy) => text.push_str("; helper: shuffled copy"),
            None => {}
        }
        self.show_text(text, p.phase == Phase::Done);
    }

    /// Shows a progress line: on the spinner, or on a line of its own every
    /// 5 seconds (at once when `done`).
    pub(super) fn show_text(&mut self, text: String, done: bool) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => bar.set_message(text),
            None => {
                let due = self.last_plain.elapsed() >= Duration::from_secs(5);
                if done || due {
                    self.last_plain = std::time::Instant::now();
                    eprintln!("{text}");
                }
            }
        }
    }

    /// The helper's restrictions for `time` columns, one line each.
    pub(super) fn show_plan(&self, time: usize, plan: &[String]) {
        if self.quiet {
            return;
        }
        for (k, label) in plan.iter().enumerate() {
            self.say(&format!("T={time} helper plan {}: {label}", k + 1));
        }
    }

    /// Shows one line of the log, above the spinner if there is one.
    pub(super) fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A search that stopped before it ran: the message on standard error (an
/// empty one: the diagnostic is already there). With `--format json` the
/// binary writes the error object (`failure_object`).
pub(super) fn search_failure(_args: &SearchArgs, message: &str, exit: Exit) -> Exit {
    if !message.is_empty() {
        errorln!("{message}");
    }
    exit
}

/// Reports a failed cube run (`--merge`, `--mpi`): exit status 2 when the
/// input was at fault, 3 (internal) otherwise.
#[cfg(feature = "mpi")]
pub(super) fn cube_run_failed(error: &dyn std::fmt::Display, input_at_fault: bool) -> Exit {
    errorln!("{error}");
    if input_at_fault {
        Exit::Input
    } else {
        Exit::Internal
    }
}

/// Writes a table the search found (`--model`, `--merge`, `--cubes`) after
/// the kernel's check: to `output` (`-o`) or else to standard output.
pub(super) fn write_found(
    source: &str,
    instance: &Instance,
    table: &Table,
    output: Option<&Path>,
    how: &str,
) -> Exit {
    let found = Found::new(source, instance, table, FoundBy::Main, how);
    match write_table(&found.text, output) {
        Ok(()) => Exit::Ok,
        Err(message) => {
            errorln!("{message}");
            Exit::Input
        }
    }
}

/// Writes a found table's text to `output` (`-o`, saying so on standard error
/// unless quiet), or else to standard output; why the file cannot be written.
pub(super) fn write_table(text: &str, output: Option<&Path>) -> Result<(), String> {
    match output {
        Some(path) => {
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            if !super::global::quiet() {
                eprintln!("table written to {}", path.display());
            }
        }
        None => out!("{text}"),
    }
    Ok(())
}

/// How a table was found, for its `source:` line: the command as run, the
/// solver, and the date (UTC).
pub(super) fn how_found(solver: &str) -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    txverify_clients::report::search::how_found(&args, solver)
}

/// What a search (`cubes`: over MPI, which showed each time as it ended)
/// tried, reported in text or JSON; a table found is written to `-o` when it is given.
pub(super) fn report(
    args: &SearchArgs,
    options: &SearchOptions,
    (source, instance): (&str, &Instance),
    tried: &Tried,
    cubes: Option<Vec<txverify_search::cluster::CubeRound>>,
    reporter: &Reporter,
) -> Exit {
    let exit = Exit::from(tried.status(options.dimacs_only.is_some()));
    let over_mpi = cubes.is_some();
    let solver = solver_name(options) + if over_mpi { " over MPI" } else { "" };
    let how = how_found(&solver);
    let named = certificates_as_named(options, args.output.as_deref());
    let found = (tried.found.as_ref()).map(|(t, by)| {
        let by = by.clone();
        let infeasible = &tried.infeasible;
        Found::certified(source, instance, t, by, &how, infeasible, named.as_deref())
    });
    if let (Some(path), Some(found)) = (&args.output, &found)
        && let Err(message) = write_table(&found.text, Some(path))
    {
        return search_failure(args, &message, Exit::Input);
    }
    if args.format == SearchFormat::Json {
        let output = args.output.as_ref().map(|p| p.display().to_string());
        let shown = args.shown_file();
        let mut report = SearchReport::new(&shown, options, tried, found.as_ref(), output);
        report.cubes = cubes;
        super::output::json(&report);
        return exit;
    }
    for i in tried.infeasible.iter().filter(|_| !over_mpi) {
        reporter.say(&format!("infeasible {}", describe(i)));
    }
    if options.dimacs_only.is_some() {
        reporter.say("formulas written; nothing solved");
        return exit;
    }
    for t in tried.unknown.iter().filter(|_| !over_mpi) {
        reporter.say(&format!("unknown T={t}: the limit ran out"));
    }
    if let Some(found) = &found {
        if let FoundBy::Helper(how) = &found.by {
            reporter.say(&format!("found by the helper solver, on {how}"));
        }
        if args.output.is_none() {
            out!("{}", found.text);
        }
    }
    reporter.say(&verdict_line(found.as_ref(), tried));
    exit
}
