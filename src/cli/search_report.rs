//! `txverify search`: how a search reports, shared by the text and JSON
//! reports and the HTML page: the progress on standard error, the found
//! table as a `.tbl` file (to standard output or `-o`), an infeasibility in
//! words, and a search that stopped before it ran.

use super::SearchArgs;
use super::exit::Exit;
use super::search_config::SearchFormat;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;
use txverify_core::kernel::{self, Instance, Table, Verdict};
use txverify_search::portfolio::HelperActivity;
use txverify_search::{FoundBy, Infeasibility, Phase, Progress};

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
        match &self.bar {
            Some(bar) => bar.set_message(text),
            None => {
                let due = self.last_plain.elapsed() >= Duration::from_secs(5);
                if p.phase == Phase::Done || due {
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

/// Which solver run found a table, in words (JSON's `found_by`, the page's log).
pub(super) fn found_by_text(by: &FoundBy) -> String {
    match by {
        FoundBy::Main => "main solver".to_string(),
        FoundBy::Helper(how) => format!("helper solver, on {how}"),
    }
}

/// An infeasibility in words: its claim, and what backs it.
pub(super) fn describe(i: &Infeasibility) -> String {
    let mut text = format!("T={}: {}", i.time, i.claim);
    if !i.unrestricted {
        text.push_str(" (restricted class: says nothing about other tables)");
    } else if !i.covers_all_tables {
        text.push_str(" (limited word lengths: says nothing about tables with longer words)");
    }
    match (&i.certificate, i.checked_proof) {
        (Some(dir), Some(lemmas)) => text.push_str(&format!(
            " [the solver's proof checked, {lemmas} lemmas; certificate: {}]",
            dir.display()
        )),
        (Some(dir), None) => text.push_str(&format!(" [certificate: {}]", dir.display())),
        (None, Some(lemmas)) => text.push_str(&format!(
            " [the solver's proof checked, {lemmas} lemmas; no certificate kept]"
        )),
        (None, None) => text.push_str(" [solver's word: no proof checked, no certificate]"),
    }
    text
}

/// The JSON schema of `search --format json`.
pub(super) const SEARCH_SCHEMA: &str = "txverify-search/2";

/// A search that stopped before it ran: the message on standard error and, in
/// JSON, an object with it.
pub(super) fn search_failure(args: &SearchArgs, message: &str, exit: Exit) -> Exit {
    if !message.is_empty() {
        eprintln!("error: {message}");
    }
    if args.format == SearchFormat::Json {
        let message = if message.is_empty() {
            "the file cannot be read or loaded (the diagnostic is on standard error)"
        } else {
            message
        };
        let value = serde_json::json!({
            "schema": SEARCH_SCHEMA,
            "file": args.shown_file(),
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}

/// Reports a failed cube run (`--merge`, `--mpi`): exit status 2 when the
/// input was at fault, 3 (internal) otherwise.
pub(super) fn cube_run_failed(error: &dyn std::fmt::Display, input_at_fault: bool) -> Exit {
    eprintln!("error: {error}");
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
    let checked = kernel::check(instance, table, &[]);
    let text = found_text(source, instance, table, &checked, how);
    match write_table(&text, output) {
        Ok(()) => Exit::Ok,
        Err(message) => {
            eprintln!("error: {message}");
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

/// A table the kernel accepted (`checked` is its check), under the file's
/// header with its time, as a `.tbl` file. Its `source:` line says how it was
/// found (`how`, from [`how_found`]); the input's `source:` is kept only as
/// the network's origin, so that no paper is credited for the table.
pub(super) fn found_text(
    source: &str,
    instance: &Instance,
    table: &Table,
    checked: &kernel::Checked,
    how: &str,
) -> String {
    let mut text = header_without_table(source, how);
    text.push_str(&format!("expect: time {}\n", checked.time()));
    if checked.verdict() == Verdict::Optimal {
        text.push_str("expect: optimal\n");
    }
    text.push_str("table:\n");
    let rows = txverify_core::load::table_syntax(instance.group(), table);
    text.push_str(&txverify_core::format::print_rows(&rows));
    text
}

/// The file's header lines (comments included), without `expect:` lines,
/// with `source: HOW; network from …` in place of its `source:` line (or
/// `source: HOW` added when it has none).
fn header_without_table(source: &str, how: &str) -> String {
    let mut out = String::new();
    let mut credited = false;
    for line in source.lines() {
        let key = line.trim_start().to_ascii_lowercase();
        if key.starts_with("table:") {
            break;
        }
        if key.starts_with("expect:") {
            continue;
        }
        if key.starts_with("source:") && !credited {
            let (_, credit) = line.split_once(':').unwrap_or_default();
            out.push_str(&format!("source: {how}; network from {}\n", credit.trim()));
            credited = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    if !credited {
        out.push_str(&format!("source: {how}\n"));
    }
    out
}

/// How a table was found, for its `source:` line: the command as run, the
/// solver, and the date (UTC).
pub(super) fn how_found(solver: &str) -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!(
        "found by `txverify {}` ({solver}, {})",
        args.join(" "),
        utc_date(std::time::SystemTime::now())
    )
}

/// The date of `time` in UTC, as YYYY-MM-DD (the civil calendar from days
/// since 1970-01-01, by Howard Hinnant's algorithm).
fn utc_date(time: std::time::SystemTime) -> String {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates_follow_the_calendar() {
        let at = |secs: u64| {
            super::utc_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs))
        };
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(at(1_795_564_800), "2026-11-25");
    }
}
