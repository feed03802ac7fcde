//! The check report as one self-contained HTML page: verdict, bound and where
//! it comes from, the table's picture with the violations marked and linked,
//! the simulation and its link utilisation.
//!
//! The page fetches nothing and runs no script: styles are inline, pictures are
//! inline SVG, and the links between a violation and its cells are plain
//! fragment links (`#v-3` on the picture, `#violation-3` in the list), so it
//! can be mailed, archived or opened offline and shows the same thing.

use super::{
    CheckReport, SimulationSummary, abbreviated, describe, describe_network, describe_simulation,
};
use crate::check::{Outcome, SimulationOutcome, Verification, VerifyOptions};
use crate::render::{ColourBy, LINK_USE_SHAPE, TableOptions, escape, table_svg, utilisation_svg};
use crate::simulate::SimulationReport;
use std::fmt::Write;
use txverify_core::kernel::Verdict;
use txverify_core::load::Loaded;

/// At most this many violations are listed on the page (all are counted).
pub const LISTED_VIOLATIONS: usize = 500;

/// How to build the page.
#[derive(Clone, Debug)]
pub struct PageOptions {
    /// What the table picture's colours say.
    pub colour_by: ColourBy,
    /// Above this many steps the picture aggregates columns.
    pub max_columns: usize,
}

impl Default for PageOptions {
    fn default() -> Self {
        PageOptions {
            colour_by: ColourBy::Length,
            max_columns: TableOptions::default().max_columns,
        }
    }
}

/// The verification options a page needs: those given, with the simulator
/// recording link use for the utilisation plot.
pub fn verify_options(base: &VerifyOptions) -> VerifyOptions {
    let mut options = *base;
    options.simulation.link_use = Some(LINK_USE_SHAPE);
    options
}

/// Builds the report of a verified file and its page.
pub fn check_page(
    path: &str,
    source: &str,
    loaded: &Loaded,
    verification: Verification,
    options: &PageOptions,
) -> (CheckReport, String) {
    let simulation: Option<Box<SimulationReport>> = match verification.simulation() {
        SimulationOutcome::Ran { report, .. } => Some(report.clone()),
        SimulationOutcome::Skipped { .. } | SimulationOutcome::OverLimit { .. } => None,
    };
    let report = CheckReport::new(path, source, loaded, verification);
    let picture = table_svg(
        &loaded.instance,
        &loaded.table,
        &report.checked,
        &TableOptions {
            colour_by: options.colour_by,
            max_columns: options.max_columns,
            title: format!("{} — {}", report.name, report.file),
            link_marks: true,
            ..TableOptions::default()
        },
    );
    let utilisation = simulation.as_deref().map(|s| {
        utilisation_svg(s, &format!("link utilisation — {}", report.name))
            .map_err(|e| e.to_string())
    });
    let page = page(&report, &picture, simulation.as_deref(), utilisation);
    (report, page)
}

const STYLE: &str = "
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; margin-bottom: 0.1em; }
h2 { font-size: 1.15em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.6em; }
.file { color: #666; margin-top: 0; font-family: monospace; }
.verdict { font-size: 1.3em; font-weight: bold; padding: 0.5em 0.8em; border-radius: 6px; }
.verdict.optimal { background: #e3f4e8; color: #1b7f3b; }
.verdict.valid { background: #e4eef8; color: #1b5e9f; }
.verdict.invalid { background: #fde7e9; color: #b0001a; }
.verdict.limit { background: #fff3d6; color: #8a5a00; }
table.log { border-collapse: collapse; }
table.log th, table.log td { text-align: left; vertical-align: top; padding: 0.25em 0.8em; border-bottom: 1px solid #eee; }
table.log td.time { font-family: monospace; font-weight: bold; }
table.log td.path { font-family: monospace; word-break: break-all; }
.restricted { color: #8a5a00; font-weight: bold; }
.outcome { margin-top: -0.5em; color: #444; }
table.facts { border-collapse: collapse; }
table.facts th { text-align: left; vertical-align: top; padding: 0.2em 1em 0.2em 0; color: #555; font-weight: normal; white-space: nowrap; }
table.facts td { padding: 0.2em 0; font-family: monospace; white-space: pre-wrap; word-break: break-word; }
.scroll { overflow-x: auto; border: 1px solid #e5e5e5; padding: 4px; }
ol.violations li { font-family: monospace; margin: 0.15em 0; }
ol.violations li:target { background: #fff3b0; }
g.mark:target rect.mark-cell { stroke-width: 5; }
.holds { color: #1b7f3b; } .fails { color: #b0001a; font-weight: bold; }
footer { margin-top: 2em; color: #777; font-size: 0.85em; }
";

fn page(
    report: &CheckReport,
    picture: &str,
    simulation: Option<&SimulationReport>,
    utilisation: Option<Result<String, String>>,
) -> String {
    let mut out = page_start(&report.name, &report.file);
    verdict(&mut out, report);
    facts(&mut out, report);
    let _ = writeln!(
        out,
        "<section id=\"picture\">\n<h2>The table</h2>\n<p>One row per lane, one column per step; each word is one framed block{}.</p>\n<div class=\"scroll\">\n{picture}</div>\n</section>",
        if report.checked.violations().is_empty() {
            ""
        } else {
            "; the violations are marked and numbered as in the list below (select a mark or a number to go from one to the other)"
        }
    );
    violations(&mut out, report);
    simulation_section(&mut out, report, simulation, utilisation);
    page_end(
        &mut out,
        "The verdict is the checking kernel's; the simulation plays every node on the physical network without the tabular theorem, as a second opinion.",
    );
    out
}

/// The start of a page shared by the reports: doctype, title, the inline
/// style, the heading and the file.
pub(crate) fn page_start(name: &str, file: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>txverify: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(name)
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(name));
    let _ = writeln!(out, "<p class=\"file\">{}</p>", escape(file));
    out
}

/// The footer (`whose`: whose word the page reports) and the end of the page.
pub(crate) fn page_end(out: &mut String, whose: &str) {
    let _ = writeln!(
        out,
        "<footer>Written by txverify {}. {whose} This page loads nothing and runs no script.</footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
}

/// A two-column table of facts, values escaped; `class` picks a row's value class.
pub(crate) fn facts_table(out: &mut String, rows: &[(&str, String, &str)]) {
    out.push_str("<table class=\"facts\">\n");
    for (name, value, class) in rows {
        let class = if class.is_empty() {
            String::new()
        } else {
            format!(" class=\"{class}\"")
        };
        let _ = writeln!(
            out,
            "<tr><th>{name}</th><td{class}>{}</td></tr>",
            escape(value)
        );
    }
    out.push_str("</table>\n");
}

fn verdict(out: &mut String, report: &CheckReport) {
    let class = match report.checked.verdict() {
        Verdict::Optimal => "optimal",
        Verdict::Valid => "valid",
        Verdict::Invalid => "invalid",
    };
    let _ = writeln!(
        out,
        "<p id=\"verdict\" class=\"verdict {class}\">{}</p>",
        escape(&report.verdict_text())
    );
    let outcome = match report.outcome {
        Outcome::Passed => {
            "Check passed (exit status 0): the table is valid, every claim holds and the network matches."
        }
        Outcome::Failed => {
            "Check failed (exit status 1): the table is invalid, a claim fails or the declared network does not match."
        }
        Outcome::Disagreement => {
            "BUG (exit status 3): the kernel and the simulator disagree; please report it."
        }
    };
    let _ = writeln!(out, "<p class=\"outcome\">{outcome}</p>");
}

/// The rows every report shows first: group, its order check, links, messages.
pub(crate) fn instance_rows(report: &CheckReport) -> Vec<(&'static str, String, &'static str)> {
    vec![
        (
            "group",
            format!(
                "{}  (order {})",
                abbreviated(&report.group.presentation),
                report.group.order
            ),
            "",
        ),
        ("order check", report.group.checks.join("; "), ""),
        (
            "links",
            format!(
                "{}  (|S| = {}, ports {})",
                report.links.join(" "),
                report.links.len(),
                report.ports
            ),
            "",
        ),
        ("messages", report.messages_text(), ""),
    ]
}

/// The note under a lower bound: what it holds for.
pub(crate) const BOUND_NOTE: &str = "The lower bound holds for every table over this group and link set: the largest message distance, and for every set of links the columns its letters alone need. A valid table whose time equals it is optimal.";

fn facts(out: &mut String, report: &CheckReport) {
    let mut rows = instance_rows(report);
    rows.push(("time", report.checked.time().to_string(), ""));
    rows.push(("lower bound", report.bound_text(), ""));
    for e in report.checked.expectations() {
        let (value, class) = if e.holds {
            (format!("{}: holds", e.claim), "holds")
        } else {
            (format!("{}: FAILS", e.claim), "fails")
        };
        rows.push(("expect", value, class));
    }
    rows.push(("network", describe_network(&report.network), ""));
    rows.push(("simulation", simulation_line(&report.simulation), ""));
    out.push_str("<section id=\"summary\">\n<h2>Verdict, bound and where it comes from</h2>\n");
    facts_table(out, &rows);
    let _ = writeln!(out, "<p>{BOUND_NOTE}</p>\n</section>");
}

/// The simulation's summary on one line.
pub(crate) fn simulation_line(simulation: &SimulationSummary) -> String {
    let lines: Vec<String> = describe_simulation(simulation)
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    lines.join("; ")
}

fn violations(out: &mut String, report: &CheckReport) {
    let all = report.checked.violations();
    let non_shortest = report.checked.non_shortest();
    if all.is_empty() && non_shortest.is_empty() {
        return;
    }
    out.push_str("<section id=\"violations\">\n");
    if !all.is_empty() {
        let marked = TableOptions::default().max_marks;
        let _ = writeln!(
            out,
            "<h2>Violations ({})</h2>\n<ol class=\"violations\">",
            all.len()
        );
        for (i, v) in all.iter().take(LISTED_VIOLATIONS).enumerate() {
            let k = i + 1;
            let text = escape(&describe(v));
            if k <= marked {
                let _ = writeln!(
                    out,
                    "<li id=\"violation-{k}\"><a href=\"#v-{k}\">{text}</a></li>"
                );
            } else {
                let _ = writeln!(out, "<li id=\"violation-{k}\">{text}</li>");
            }
        }
        out.push_str("</ol>\n");
        if all.len() > LISTED_VIOLATIONS {
            let _ = writeln!(
                out,
                "<p>… and {} more (<code>txverify check --format json</code> lists them all).</p>",
                all.len() - LISTED_VIOLATIONS
            );
        }
        if all.len() > marked {
            let _ = writeln!(out, "<p>The first {marked} are marked on the picture.</p>");
        }
    }
    if !non_shortest.is_empty() {
        out.push_str("<h2>Words that are not shortest paths</h2>\n<ul>\n");
        for n in non_shortest.iter().take(LISTED_VIOLATIONS) {
            let _ = writeln!(
                out,
                "<li>row {}, column {}: word <code>{}</code> has length {} but its element is at distance {}</li>",
                n.word.row,
                n.word.column,
                escape(&n.word.word),
                n.length,
                n.distance
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

fn simulation_section(
    out: &mut String,
    report: &CheckReport,
    simulation: Option<&SimulationReport>,
    utilisation: Option<Result<String, String>>,
) {
    out.push_str("<section id=\"simulation\">\n<h2>Simulation on the physical network</h2>\n");
    let Some(sim) = simulation else {
        let reason = match &report.simulation {
            SimulationSummary::Skipped { reason } => reason.clone(),
            SimulationSummary::Ran { .. } => "no report".to_string(),
        };
        let _ = writeln!(out, "<p>Not run: {}.</p>\n</section>", escape(&reason));
        return;
    };
    let c = &sim.counts;
    let rows = [
        ("network", sim.network.clone()),
        ("nodes", sim.nodes.to_string()),
        ("directed links", sim.directed_links.to_string()),
        ("ports", sim.ports.to_string()),
        (
            "messages",
            format!(
                "{} of {} arrived",
                sim.arrived_messages, sim.expected_messages
            ),
        ),
        ("hops", sim.hops.to_string()),
        ("completion time", sim.completion_time.to_string()),
        (
            "link utilisation",
            format!(
                "{:.1}% of (step, directed link) pairs",
                sim.utilisation * 100.0
            ),
        ),
        (
            "result",
            if sim.valid {
                "clean: no link carries two messages in a step, no node exceeds its ports, every message arrives once".to_string()
            } else {
                format!(
                    "FAILED: {} link conflicts, {} ports exceeded, {} self-messages, {} duplicates, {} unexpected, {} missing",
                    c.link_conflicts,
                    c.ports_exceeded,
                    c.self_messages,
                    c.duplicates,
                    c.unexpected,
                    c.missing
                )
            },
        ),
    ];
    out.push_str("<table class=\"facts\">\n");
    for (name, value) in rows {
        let _ = writeln!(out, "<tr><th>{name}</th><td>{}</td></tr>", escape(&value));
    }
    out.push_str("</table>\n");
    out.push_str("<h2 id=\"utilisation\">Link utilisation</h2>\n");
    match utilisation {
        Some(Ok(svg)) => {
            let _ = writeln!(out, "<div class=\"scroll\">\n{svg}</div>");
        }
        Some(Err(reason)) => {
            let _ = writeln!(out, "<p>Not drawn: {}.</p>", escape(&reason));
        }
        None => {}
    }
    out.push_str("</section>\n");
}
