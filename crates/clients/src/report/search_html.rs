//! The report of a search as one self-contained HTML page: the file and its
//! network, the lower bound, the outcome, every number of columns tried with
//! what its answer proves, and the picture of the table found.
//!
//! An infeasibility is only as strong as the class of tables it covers, so the
//! log says for each one whether it speaks about every table or only about a
//! class restricted by a symmetry, and where its certificate is. The page
//! shares its shell and style with the check page ([`super::html`]) and, like
//! it, fetches nothing and runs no script. The found table is checked again
//! here by the kernel and the simulator before it is drawn.

use super::html::{
    BOUND_NOTE, PageOptions, facts_table, instance_rows, page_end, page_start, simulation_line,
    verify_options,
};
use super::{CheckReport, describe_network};
use crate::check::{VerifyOptions, physical_network, verify, verify_table};
use crate::render::{TableOptions, escape, table_svg};
use std::fmt::Write;
use txverify_core::kernel::{Table, Verdict};
use txverify_core::load::Loaded;
use txverify_search::Infeasibility;

/// What a search tried and found, in the order it tried.
#[derive(Clone, Debug, Default)]
pub struct SearchLog {
    /// The numbers of columns shown infeasible.
    pub infeasible: Vec<Infeasibility>,
    /// The numbers of columns on which the limit ran out.
    pub unknown: Vec<usize>,
    /// The table found and which solver run found it, in words.
    pub found: Option<(Table, String)>,
    /// Whether one number of columns was asked for (`--time`) rather than the
    /// fastest table from the lower bound up.
    pub fixed_time: bool,
}

/// One number of columns tried, as the page lists it.
enum Step<'a> {
    Infeasible(&'a Infeasibility),
    Unknown(usize),
    Found(usize, &'a str),
}

impl Step<'_> {
    fn time(&self) -> usize {
        match self {
            Step::Infeasible(i) => i.time,
            Step::Unknown(t) | Step::Found(t, _) => *t,
        }
    }
}

/// Builds the page of a search on the file at `path` (its text `source`,
/// loaded as `loaded`).
pub fn search_page(
    path: &str,
    source: &str,
    loaded: &Loaded,
    log: &SearchLog,
    options: &PageOptions,
) -> String {
    let instance = &loaded.instance;
    // The found table is re-checked (kernel and simulation) before it is shown;
    // without one, the file's own table only supplies the instance's facts.
    let (report, picture) = match &log.found {
        Some((table, _)) => {
            let verification = verify_table(
                instance,
                table,
                &[],
                loaded.network.as_ref(),
                &verify_options(&VerifyOptions::default()),
            );
            let report = CheckReport::new(path, source, loaded, verification);
            let picture = table_svg(
                instance,
                table,
                &report.checked,
                &TableOptions {
                    colour_by: options.colour_by,
                    max_columns: options.max_columns,
                    title: format!("{} — found by search", report.name),
                    link_marks: true,
                    ..TableOptions::default()
                },
            );
            (report, Some(picture))
        }
        None => {
            let mut report = CheckReport::new(
                path,
                source,
                loaded,
                verify(
                    loaded,
                    &VerifyOptions {
                        simulate: false,
                        ..VerifyOptions::default()
                    },
                ),
            );
            report.network = physical_network(instance, loaded.network.as_ref()).0;
            (report, None)
        }
    };
    let found_time = log.found.as_ref().map(|_| report.checked.time());
    let mut steps: Vec<Step> = log.infeasible.iter().map(Step::Infeasible).collect();
    steps.extend(log.unknown.iter().map(|&t| Step::Unknown(t)));
    if let (Some(t), Some((_, by))) = (found_time, &log.found) {
        steps.push(Step::Found(t, by));
    }
    steps.sort_by_key(Step::time);

    let mut out = page_start(&report.name, &report.file);
    outcome(&mut out, &report, log, found_time, &steps);
    let mut rows = instance_rows(&report);
    rows.push(("lower bound", report.bound_text(), ""));
    rows.push(("network", describe_network(&report.network), ""));
    if found_time.is_some() {
        rows.push((
            "found table",
            format!("time {}: {}", report.checked.time(), report.verdict_text()),
            "",
        ));
        rows.push(("simulation", simulation_line(&report.simulation), ""));
    }
    out.push_str("<section id=\"summary\">\n<h2>The instance and its lower bound</h2>\n");
    facts_table(&mut out, &rows);
    let _ = writeln!(out, "<p>{BOUND_NOTE}</p>\n</section>");
    step_table(&mut out, &steps);
    if let Some(picture) = picture {
        let _ = writeln!(
            out,
            "<section id=\"picture\">\n<h2>The table found</h2>\n<p>One row per lane, one column per step; each word is one framed block. The kernel and the simulator checked it again for this page.</p>\n<div class=\"scroll\">\n{picture}</div>\n</section>"
        );
    }
    page_end(
        &mut out,
        "An infeasibility is the solver's answer on a formula of the class of tables it names, with the certificate given (re-check it with txverify verify-proof); the found table's verdict is the checking kernel's.",
    );
    out
}

/// The outcome in one line: found at T, none at the times tried, or a limit ran out.
fn outcome(
    out: &mut String,
    report: &CheckReport,
    log: &SearchLog,
    found_time: Option<usize>,
    steps: &[Step],
) {
    let tried: Vec<String> = steps.iter().map(|s| s.time().to_string()).collect();
    let (class, text) = match found_time {
        Some(t) => {
            let optimal = report.checked.verdict() == Verdict::Optimal;
            let all_below = log.infeasible.iter().all(|i| i.unrestricted);
            let why = if optimal {
                " — optimal: its time equals the lower bound".to_string()
            } else if !log.fixed_time && log.unknown.is_empty() && all_below {
                " — fastest for the class the log names: every smaller number of columns from the lower bound up was shown infeasible"
                    .to_string()
            } else if !log.fixed_time && log.unknown.is_empty() {
                " — fastest of the tables searched (a smaller time was refuted only for a restricted class)"
                    .to_string()
            } else if !log.fixed_time {
                " — not proved fastest: the limit ran out on a smaller number of columns"
                    .to_string()
            } else {
                String::new()
            };
            let class = if optimal { "optimal" } else { "valid" };
            (class, format!("Found a table at T = {t}{why}"))
        }
        None if !log.unknown.is_empty() => (
            "limit",
            format!(
                "No table found: the limit ran out (T = {})",
                log.unknown
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        None => (
            "invalid",
            format!("No table at the times tried (T = {})", tried.join(", ")),
        ),
    };
    let _ = writeln!(
        out,
        "<p id=\"outcome\" class=\"verdict {class}\">{}</p>",
        escape(&text)
    );
}

/// The T-by-T log.
fn step_table(out: &mut String, steps: &[Step]) {
    out.push_str("<section id=\"log\">\n<h2>Every number of columns tried</h2>\n");
    if steps.is_empty() {
        out.push_str("<p>None.</p>\n</section>\n");
        return;
    }
    out.push_str("<table class=\"log\">\n<tr><th>T</th><th>answer</th><th>what it proves</th><th>covers</th><th>certificate</th></tr>\n");
    for step in steps {
        let (answer, proves, covers, certificate) = match step {
            Step::Infeasible(i) => (
                "infeasible".to_string(),
                escape(&i.claim),
                if i.covers_all_tables {
                    "every table (any word length, no symmetry restriction)".to_string()
                } else if i.unrestricted {
                    "only tables with the claim's word lengths (no symmetry restriction)"
                        .to_string()
                } else {
                    "<span class=\"restricted\">only a class restricted by a symmetry</span> (says nothing about other tables)".to_string()
                },
                match (&i.certificate, i.checked_proof) {
                    (Some(dir), _) => escape(&dir.display().to_string()),
                    (None, Some(lemmas)) => {
                        format!("none kept (the solver's proof checked, {lemmas} lemmas)")
                    }
                    (None, None) => "none (the solver's word; no proof checked)".to_string(),
                },
            ),
            Step::Unknown(_) => (
                "unknown".to_string(),
                "nothing: the limit ran out".to_string(),
                String::new(),
                String::new(),
            ),
            Step::Found(_, by) => (
                "found".to_string(),
                format!("a table exists (found by the {})", escape(by)),
                String::new(),
                String::new(),
            ),
        };
        let _ = writeln!(
            out,
            "<tr id=\"T{t}\"><td class=\"time\">{t}</td><td>{answer}</td><td>{proves}</td><td>{covers}</td><td class=\"path\">{certificate}</td></tr>",
            t = step.time()
        );
    }
    out.push_str("</table>\n</section>\n");
}
