//! `txverify search FILE`: the search run (one number of columns, or the
//! fastest table from the lower bound up), how it ended, and its report
//! (schema `txverify-search/2`, docs/json.md); the found table as a `.tbl`
//! file crediting the search; an infeasibility in words.
//!
//! Whether a table found is optimal is the search library's
//! `certificate::optimal_by` (the kernel's bound, or checked infeasibilities
//! below it); the table itself is the kernel's to accept.

use super::failure::Status;
use serde::Serialize;
use txverify_core::kernel::{self, Checked, Instance, Table};
use txverify_core::verdict::OptimalBy;
use txverify_search::{
    self as search, FoundBy, Infeasibility, Outcome, Progress, SearchError, SearchOptions,
    SolverChoice,
};

/// The JSON schema of `search --format json`.
pub const SEARCH_SCHEMA: &str = "txverify-search/2";

/// What a search tried: the table found and which run found it, the numbers
/// of columns shown infeasible, and those where a limit ran out.
#[derive(Clone, Debug, Default)]
pub struct Tried {
    /// The table found (accepted by the kernel) and the run that found it.
    pub found: Option<(Table, FoundBy)>,
    /// The numbers of columns shown infeasible.
    pub infeasible: Vec<Infeasibility>,
    /// The numbers of columns on which a limit ran out.
    pub unknown: Vec<usize>,
    /// When minimising: the kernel's lower bound, the first number of columns
    /// tried (a `--max-time` below it tries none).
    pub lower_bound: Option<u64>,
}

impl Tried {
    /// How the search ended: 0 with a table (or when it only wrote formulas,
    /// `formulas_only`), 1 when every number of columns tried is infeasible,
    /// 4 when a limit ran out first or nothing was tried (a `--max-time`
    /// below the lower bound: nothing is decided).
    pub fn status(&self, formulas_only: bool) -> Status {
        match (&self.found, formulas_only) {
            (Some(_), _) | (None, true) => Status::Ok,
            (None, false) if self.unknown.is_empty() && !self.infeasible.is_empty() => {
                Status::Rejected
            }
            (None, false) => Status::Limit,
        }
    }
}

/// The search of `time` columns, or (`None`) the fastest table up to
/// `max_time`, with its progress told to `progress`.
pub fn run_search(
    instance: &Instance,
    options: &SearchOptions,
    time: Option<usize>,
    max_time: Option<usize>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Tried, SearchError> {
    match time {
        Some(time) => {
            let options = &at_time(options, time);
            let outcome = search::solve_reporting(instance, time, options, progress)?;
            Ok(match outcome {
                Outcome::Found(table, by) => Tried {
                    found: Some((table, by)),
                    ..Tried::default()
                },
                Outcome::Infeasible(i) => Tried {
                    infeasible: vec![i],
                    ..Tried::default()
                },
                Outcome::Unknown => Tried {
                    unknown: vec![time],
                    ..Tried::default()
                },
            })
        }
        // Whatever is found, the times shown infeasible and those where a limit ran
        // out are reported: a search that finds nothing up to `--max-time` says why.
        None => search::minimise_tried(instance, options, max_time, progress).map(|tried| Tried {
            found: tried.found.map(|(table, _, by)| (table, by)),
            infeasible: tried.infeasible,
            unknown: tried.unknown,
            lower_bound: Some(tried.lower_bound),
        }),
    }
}

/// The options of a search at one `time`: its certificate goes to
/// `DIR/T<time>/`, the layout a minimising search writes.
pub fn at_time(options: &SearchOptions, time: usize) -> SearchOptions {
    let mut options = options.clone();
    if let Some(dir) = &options.certificate_dir {
        options.certificate_dir = Some(search::certificate_dir_for(dir, time));
    }
    options
}

/// The main solver's name, as JSON's `solver` gives it.
pub fn solver_name(options: &SearchOptions) -> String {
    match serde_json::to_value(options.solver) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "a SAT solver".to_string(),
    }
}

/// A table found, as a `.tbl` file, with the kernel's check and the run that found it.
#[derive(Clone, Debug)]
pub struct Found {
    /// The `.tbl` file.
    pub text: String,
    /// The kernel's check of it.
    pub checked: Checked,
    /// The run that found it.
    pub by: FoundBy,
}

impl Found {
    /// The table found in a search of `source` (the file's text), checked
    /// by the kernel and written as a file; `how` is its `source:` credit.
    pub fn new(source: &str, instance: &Instance, table: &Table, by: FoundBy, how: &str) -> Found {
        Found::certified(source, instance, table, by, how, &[], None)
    }

    /// [`Found::new`], the kernel given as evidence the refutations among
    /// `infeasible` that count for every table
    /// (`search::refutation::table_refutations`: external proofs checked
    /// during the search, or certificates checked now), so that it decides
    /// whether the table is optimal by certificates. When it is and the
    /// certificates were written to `certificates` (`--certificate DIR`, as
    /// the file will name it), the file names them and expects `optimal`, so
    /// that `check` re-verifies them.
    pub fn certified(
        source: &str,
        instance: &Instance,
        table: &Table,
        by: FoundBy,
        how: &str,
        infeasible: &[Infeasibility],
        certificates: Option<&str>,
    ) -> Found {
        let refutations = search::refutation::table_refutations(instance, infeasible);
        let checked = kernel::check_with_refutations(instance, table, &[], &refutations);
        let named = certificates.filter(|_| checked.optimal_by() == Some(OptimalBy::Certificates));
        Found {
            text: found_text(source, instance, table, &checked, how, named),
            checked,
            by,
        }
    }
}

/// One infeasibility in JSON.
#[derive(Clone, Debug, Serialize)]
pub struct InfeasibleEntry {
    /// The number of columns.
    pub time: usize,
    /// What it proves, in words.
    pub claim: String,
    /// Whether it speaks about every table.
    pub covers_all_tables: bool,
    /// Whether it speaks only about tables with a symmetry.
    pub symmetry_restricted: bool,
    /// Its certificate's directory.
    pub certificate: Option<String>,
}

/// The report of `search --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct SearchReport {
    /// The schema.
    pub schema: &'static str,
    /// The file as named.
    pub file: String,
    /// Whether a table was found.
    pub found: bool,
    /// Its time (the kernel's).
    pub time: Option<usize>,
    /// Whether it is proved optimal.
    pub optimal: Option<bool>,
    /// By what: `lower_bound` or the infeasibilities.
    pub optimal_by: Option<&'static str>,
    /// The run that found it, in words.
    pub found_by: Option<String>,
    /// The main solver.
    pub solver: SolverChoice,
    /// The table found, as a `.tbl` file.
    pub table: Option<String>,
    /// The numbers of columns shown infeasible.
    pub infeasible: Vec<InfeasibleEntry>,
    /// The numbers of columns on which a limit ran out.
    pub unknown: Vec<usize>,
    /// Whether formulas were only written.
    pub formulas_only: bool,
    /// The exit status.
    pub exit_code: u8,
    /// Where the table was written (`-o`), when one was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// With `--mpi`: per time tried, what its cubes did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubes: Option<Vec<txverify_search::cluster::CubeRound>>,
}

impl SearchReport {
    /// The report of a search of the file shown as `shown` that tried
    /// `tried` and found `found`; `output` is where `-o` wrote the table.
    pub fn new(
        shown: &str,
        options: &SearchOptions,
        tried: &Tried,
        found: Option<&Found>,
        output: Option<String>,
    ) -> SearchReport {
        let formulas_only = options.dimacs_only.is_some();
        let optimal_by = found.map(|f| f.checked.optimal_by().map(OptimalBy::name));
        SearchReport {
            schema: SEARCH_SCHEMA,
            file: shown.to_string(),
            found: found.is_some(),
            time: found.map(|f| f.checked.time()),
            optimal: optimal_by.map(|by| by.is_some()),
            optimal_by: optimal_by.flatten(),
            found_by: found.map(|f| found_by_text(&f.by)),
            solver: options.solver,
            table: found.map(|f| f.text.clone()),
            infeasible: tried
                .infeasible
                .iter()
                .map(|i| InfeasibleEntry {
                    time: i.time,
                    claim: i.claim.clone(),
                    covers_all_tables: i.covers_all_tables,
                    symmetry_restricted: !i.unrestricted,
                    certificate: i.certificate.as_ref().map(|p| p.display().to_string()),
                })
                .collect(),
            unknown: tried.unknown.clone(),
            formulas_only,
            exit_code: tried.status(formulas_only).code(),
            output: output.filter(|_| found.is_some()),
            cubes: None,
        }
    }
}

/// The last line of `search`'s text: the verdict on the table found, with
/// why it is optimal (the bound, or every time below refuted for every table
/// by a checked proof) or why it is not proved so (each time from the bound up
/// that nothing refutes for every table, and what was found there instead).
pub fn verdict_line(found: Option<&Found>, tried: &Tried) -> String {
    let Some(found) = found else {
        return no_table_verdict(tried);
    };
    let c = &found.checked;
    let Some(bound) = c.bound().map(|b| b.value) else {
        return "verdict: VALID (no lower bound: the link set is defective)".to_string();
    };
    match c.optimal_by() {
        Some(OptimalBy::LowerBound) => {
            format!(
                "verdict: OPTIMAL (time {} equals the lower bound)",
                c.time()
            )
        }
        Some(OptimalBy::Certificates) => format!(
            "verdict: OPTIMAL ({} refuted for every table: proofs checked)",
            super::times_text(bound..c.time() as u64)
        ),
        None => {
            // The times that nothing refutes for every table, grouped by why.
            let mut why: Vec<(String, Vec<u64>)> = Vec::new();
            for &t in c.unrefuted() {
                let reason = unrefuted_reason(t, tried);
                match why.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, times)) => times.push(t),
                    None => why.push((reason, vec![t])),
                }
            }
            let why: Vec<String> = why
                .into_iter()
                .map(|(reason, times)| format!("{} {reason}", super::times_text(times)))
                .collect();
            format!(
                "verdict: VALID, not proved optimal (time {} > lower bound {bound}; {})",
                c.time(),
                why.join("; ")
            )
        }
    }
}

/// The verdict of a search that found no table: every number of columns it
/// tried refuted, or what a limit left open (the times undecided; nothing
/// tried at all when `--max-time` is below the lower bound).
fn no_table_verdict(tried: &Tried) -> String {
    if tried.infeasible.is_empty() && tried.unknown.is_empty() {
        return match tried.lower_bound {
            Some(bound) => format!(
                "verdict: no table found: no number of columns was tried (the lower bound {bound} is above --max-time); T={bound} and above are open"
            ),
            None => "verdict: no table found: no number of columns was tried".to_string(),
        };
    }
    if tried.unknown.is_empty() {
        return "verdict: no table found: every number of columns tried is infeasible in the class searched".to_string();
    }
    let mut parts = vec![format!(
        "{} undecided",
        super::times_text(tried.unknown.iter().map(|&t| t as u64))
    )];
    if !tried.infeasible.is_empty() {
        parts.push(format!(
            "{} infeasible in the class searched",
            super::times_text(tried.infeasible.iter().map(|i| i.time as u64))
        ));
    }
    format!(
        "verdict: no table found (a limit ran out): {}",
        parts.join("; ")
    )
}

/// Why `time` columns are not refuted for every table (after `T=…`).
fn unrefuted_reason(time: u64, tried: &Tried) -> String {
    let at = |i: &&Infeasibility| i.time as u64 == time;
    match tried.infeasible.iter().find(at) {
        Some(i) if !i.covers_all_tables => {
            // "no valid table with 8 columns whose words are …": the class.
            let class = i.claim.split_once(" columns ").map_or(&*i.claim, |(_, c)| c);
            format!(
                "refuted only for tables {class} (`--any-length` without `--symmetry` refutes every table)"
            )
        }
        Some(_) => {
            "infeasible by the solver's word only, no proof checked (`--certificate DIR` checks one)"
                .to_string()
        }
        None if tried.unknown.iter().any(|&u| u as u64 == time) => {
            "undecided: the limit ran out".to_string()
        }
        None => "not tried".to_string(),
    }
}

/// Which solver run found a table, in words (JSON's `found_by`, the page's log).
pub fn found_by_text(by: &FoundBy) -> String {
    match by {
        FoundBy::Main => "main solver".to_string(),
        FoundBy::Helper(how) => format!("helper solver, on {how}"),
    }
}

/// An infeasibility in words: its claim, and what backs it.
pub fn describe(i: &Infeasibility) -> String {
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

/// A table the kernel accepted (`checked` is its check), under the file's
/// header with its time, as a `.tbl` file. Its `source:` line says how it was
/// found (`how`, from [`how_found`]); the input's `source:` is kept only as
/// the network's origin, so that no paper is credited for the table.
pub fn found_text(
    source: &str,
    instance: &Instance,
    table: &Table,
    checked: &Checked,
    how: &str,
    certificates: Option<&str>,
) -> String {
    let mut text = header_without_table(source, how);
    if let Some(dir) = certificates {
        text.push_str(&format!("certificates: {dir}\n"));
    }
    text.push_str(&format!("expect: time {}\n", checked.time()));
    let by = checked.optimal_by();
    if by == Some(OptimalBy::LowerBound) || (by.is_some() && certificates.is_some()) {
        text.push_str("expect: optimal\n");
    }
    text.push_str("table:\n");
    let rows = txverify_core::load::table_syntax(instance.group(), table);
    text.push_str(&txverify_core::format::print_rows(&rows));
    txverify_core::format::canonical(&text)
}

/// The file's header lines (comments included), without `expect:` and
/// `certificates:` lines (claims and evidence of another table),
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
        if key.starts_with("expect:") || key.starts_with("certificates:") {
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

/// How a table was found, for its `source:` line: the command as run
/// (`command`, its arguments after the program's name), the solver, and the
/// date (UTC).
pub fn how_found(command: &[String], solver: &str) -> String {
    format!(
        "found by `txverify {}` ({solver}, {})",
        command.join(" "),
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
    use super::*;

    #[test]
    fn utc_dates_follow_the_calendar() {
        let at = |secs: u64| utc_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(at(1_795_564_800), "2026-11-25");
    }

    #[test]
    fn a_found_table_credits_the_search_and_keeps_the_network_origin() {
        let header = "name: x\nsource: a paper\nexpect: time 9\ngroup: <a | a^4>\ntable:\na\n";
        let text = header_without_table(header, "found by us");
        assert_eq!(
            text,
            "name: x\nsource: found by us; network from a paper\ngroup: <a | a^4>\n"
        );
    }

    #[test]
    fn a_search_ends_by_what_it_tried() {
        let none = Tried::default();
        assert_eq!(none.status(false), Status::Limit);
        assert_eq!(none.status(true), Status::Ok);
        let limited = Tried {
            unknown: vec![7],
            ..Tried::default()
        };
        assert_eq!(limited.status(false), Status::Limit);
    }

    #[test]
    fn a_verdict_without_a_table_names_what_is_open() {
        let nothing = Tried {
            lower_bound: Some(76),
            ..Tried::default()
        };
        assert_eq!(nothing.status(false), Status::Limit);
        let line = verdict_line(None, &nothing);
        assert!(line.contains("no number of columns was tried"), "{line}");
        assert!(line.contains("T=76 and above are open"), "{line}");
        let limited = Tried {
            lower_bound: Some(76),
            unknown: vec![77, 78],
            ..Tried::default()
        };
        let line = verdict_line(None, &limited);
        assert!(line.contains("T=77, 78 undecided"), "{line}");
    }
}
