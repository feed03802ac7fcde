//! Link utilisation from the simulator: a heat map of directed links × steps
//! (binned as [`crate::simulate::LinkUse`] was recorded) over a curve of the
//! directed links busy at each step.
//!
//! Both come from the simulation, not from the table: they show what the
//! exhaustive run saw on the physical network. Large runs are binned in
//! the simulator already, so this costs the size of the picture only.

use super::RenderError;
use super::svg::{grouped, heat_colour, label_step, num, open, text};
use crate::simulate::SimulationReport;
use std::fmt::Write;

/// Left of the plots (link labels) and top of the heat map (title, notes, steps).
const LEFT: f64 = 104.0;
const TOP: f64 = 66.0;
const PLOT_W: f64 = 800.0;
const CURVE_H: f64 = 150.0;
/// Shades of the heat map (a run of equal shades in a row is one rectangle).
const SHADES: f64 = 20.0;

/// Draws the utilisation picture of a simulation that recorded its link use.
pub fn utilisation_svg(report: &SimulationReport, title: &str) -> Result<String, RenderError> {
    let grid = report.link_use.as_ref().ok_or(RenderError::NoLinkUse)?;
    let steps = report.completion_time;
    if grid.step_bins == 0 || grid.link_bins == 0 || steps == 0 {
        return Err(RenderError::NothingToDraw);
    }
    let cell_w = (PLOT_W / grid.step_bins as f64).clamp(1.0, 24.0);
    let cell_h = (360.0 / grid.link_bins as f64).clamp(2.0, 14.0);
    let plot_w = cell_w * grid.step_bins as f64;
    let heat_h = cell_h * grid.link_bins as f64;
    let curve_top = TOP + heat_h + 56.0;
    let width = (LEFT + plot_w + 150.0).max(760.0);
    let height = curve_top + CURVE_H + 50.0;
    let links = report.directed_links;
    let aggregated = grid.steps_per_bin > 1 || grid.links_per_bin > 1;

    let mut out = String::new();
    let attributes = format!(
        r#" class="txverify-utilisation" data-steps="{steps}" data-directed-links="{links}" data-steps-per-column="{}" data-links-per-row="{}" data-aggregated="{aggregated}""#,
        grid.steps_per_bin, grid.links_per_bin
    );
    open(&mut out, width, height, &attributes);
    text(
        &mut out,
        8.0,
        18.0,
        r#" font-size="14" font-weight="bold""#,
        title,
    );
    let busiest = report
        .per_step
        .iter()
        .map(|s| s.links_used)
        .max()
        .unwrap_or(0);
    text(
        &mut out,
        8.0,
        34.0,
        r##" fill="#333333""##,
        &format!(
            "{}: {} directed links × {} steps; {:.1}% of (step, link) pairs used; busiest step {} links",
            report.network,
            grouped(links as u64),
            grouped(steps as u64),
            report.utilisation * 100.0,
            grouped(busiest)
        ),
    );
    if aggregated {
        text(
            &mut out,
            8.0,
            48.0,
            r##" class="aggregated" fill="#8a4b00""##,
            &format!(
                "aggregated: each cell is {} × {}; colour = share of its (step, link) pairs in use",
                plural(grid.steps_per_bin, "step"),
                plural(grid.links_per_bin, "directed link")
            ),
        );
    }
    step_axis(
        &mut out,
        steps,
        grid.steps_per_bin,
        cell_w,
        plot_w,
        TOP - 4.0,
    );
    link_labels(&mut out, report, grid.links_per_bin, grid.link_bins, cell_h);
    heat_cells(&mut out, report, cell_w, cell_h);
    scale(&mut out, LEFT + plot_w + 16.0, TOP, heat_h.max(60.0));
    curve(&mut out, report, cell_w, plot_w, curve_top);
    out.push_str("</svg>\n");
    Ok(out)
}

/// `1 step`, `21 steps`.
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{} {what}s", grouped(n as u64))
    }
}

/// Step numbers over a plot whose columns hold `per_column` steps each.
fn step_axis(out: &mut String, steps: usize, per_column: usize, cell_w: f64, plot_w: f64, y: f64) {
    out.push_str(r##"<g class="steps" font-size="9" fill="#555555" text-anchor="middle">"##);
    out.push('\n');
    let every = label_step(steps, (plot_w / 40.0).max(1.0) as usize);
    let mut step = 1;
    while step <= steps {
        let x = LEFT + (step as f64 - 0.5) / per_column as f64 * cell_w;
        text(out, x, y, "", &step.to_string());
        step = if step == 1 && every > 1 {
            every
        } else {
            step + every
        };
    }
    out.push_str("</g>\n");
}

/// Which links a row holds: directed links are numbered by their tail node.
fn link_labels(
    out: &mut String,
    report: &SimulationReport,
    per_row: usize,
    rows: usize,
    cell_h: f64,
) {
    out.push_str(r##"<g class="links" font-size="9" fill="#555555" text-anchor="end">"##);
    out.push('\n');
    let degree = if report.nodes > 0 && report.directed_links.is_multiple_of(report.nodes) {
        report.directed_links / report.nodes
    } else {
        0
    };
    let every = label_step(rows, ((rows as f64 * cell_h) / 12.0).max(1.0) as usize);
    for r in (0..rows).step_by(every) {
        let first = r * per_row;
        let last = ((r + 1) * per_row).min(report.directed_links) - 1;
        let label = match degree {
            0 => format!("links {first}–{last}"),
            d if per_row == 1 => format!("node {} · link {}", first / d, first % d),
            d if first / d == last / d => format!("node {}", first / d),
            d => format!("nodes {}–{}", first / d, last / d),
        };
        text(
            out,
            LEFT - 6.0,
            TOP + r as f64 * cell_h + cell_h / 2.0 + 3.0,
            "",
            &label,
        );
    }
    out.push_str("</g>\n");
}

/// The heat map, one rectangle per run of equal shades in a row.
fn heat_cells(out: &mut String, report: &SimulationReport, cell_w: f64, cell_h: f64) {
    let Some(grid) = &report.link_use else { return };
    let steps = report.completion_time;
    let links = report.directed_links;
    // Crisp edges: cells of fractional height would otherwise show seams.
    out.push_str("<g class=\"heat\" shape-rendering=\"crispEdges\">\n");
    for l in 0..grid.link_bins {
        let links_here = ((l + 1) * grid.links_per_bin).min(links) - l * grid.links_per_bin;
        let shade = |s: usize| -> u32 {
            let steps_here = ((s + 1) * grid.steps_per_bin).min(steps) - s * grid.steps_per_bin;
            let capacity = (steps_here * links_here) as f64;
            let share = grid.at(l, s) as f64 / capacity;
            if share <= 0.0 {
                0
            } else {
                ((share * SHADES).ceil() as u32).max(1)
            }
        };
        let mut s = 0;
        while s < grid.step_bins {
            let here = shade(s);
            let mut end = s + 1;
            while end < grid.step_bins && shade(end) == here {
                end += 1;
            }
            let _ = writeln!(
                out,
                r#"<rect class="cell" data-row="{l}" data-column="{s}" data-shade="{here}" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                num(LEFT + s as f64 * cell_w),
                num(TOP + l as f64 * cell_h),
                num((end - s) as f64 * cell_w),
                num(cell_h),
                heat_colour(f64::from(here) / SHADES)
            );
            s = end;
        }
    }
    out.push_str("</g>\n");
}

/// The colour scale beside the heat map.
fn scale(out: &mut String, x: f64, y: f64, h: f64) {
    out.push_str("<g class=\"scale\" font-size=\"9\">\n");
    let bands = 10;
    for i in 0..bands {
        // Top 100%, bottom the palest shade above idle; idle has its own swatch.
        let t = 1.0 - i as f64 / bands as f64 * 0.95;
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="12" height="{}" fill="{}"/>"#,
            num(x),
            num(y + h * i as f64 / bands as f64),
            num(h / bands as f64 + 0.5),
            heat_colour(t)
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{}" y="{}" width="12" height="12" fill="{}" stroke="#bbbbbb"/>"##,
        num(x),
        num(y + h + 8.0),
        heat_colour(0.0)
    );
    text(out, x + 16.0, y + 8.0, "", "100% used");
    text(out, x + 16.0, y + h, "", "a little");
    text(out, x + 16.0, y + h + 18.0, "", "idle");
    out.push_str("</g>\n");
}

/// Busy directed links per step: the mean of each column of the heat map, with
/// the least and most busy step of the column as a band.
fn curve(out: &mut String, report: &SimulationReport, cell_w: f64, plot_w: f64, top: f64) {
    let Some(grid) = &report.link_use else { return };
    let links = report.directed_links.max(1) as f64;
    let y_of = |busy: f64| top + CURVE_H * (1.0 - busy / links);
    text(
        out,
        8.0,
        top - 14.0,
        r#" font-weight="bold""#,
        "busy directed links per step",
    );
    let _ = writeln!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999999"/>"##,
        num(LEFT),
        num(top),
        num(plot_w),
        num(CURVE_H)
    );
    for (busy, label) in [
        (links, grouped(report.directed_links as u64)),
        (links / 2.0, grouped(report.directed_links as u64 / 2)),
        (0.0, "0".to_string()),
    ] {
        text(
            out,
            LEFT - 6.0,
            y_of(busy) + 3.0,
            r##" font-size="9" fill="#555555" text-anchor="end""##,
            &label,
        );
    }
    let mut mean = Vec::with_capacity(grid.step_bins);
    let mut low = Vec::with_capacity(grid.step_bins);
    let mut high = Vec::with_capacity(grid.step_bins);
    for s in 0..grid.step_bins {
        let used: Vec<u64> = report
            .per_step
            .iter()
            .skip(s * grid.steps_per_bin)
            .take(grid.steps_per_bin)
            .map(|u| u.links_used)
            .collect();
        let n = used.len().max(1) as f64;
        mean.push(used.iter().sum::<u64>() as f64 / n);
        low.push(used.iter().copied().min().unwrap_or(0) as f64);
        high.push(used.iter().copied().max().unwrap_or(0) as f64);
    }
    let x_of = |s: usize| LEFT + (s as f64 + 0.5) * cell_w;
    if grid.steps_per_bin > 1 {
        let mut band = String::new();
        for (s, h) in high.iter().enumerate() {
            let _ = write!(band, "{},{} ", num(x_of(s)), num(y_of(*h)));
        }
        for (s, l) in low.iter().enumerate().rev() {
            let _ = write!(band, "{},{} ", num(x_of(s)), num(y_of(*l)));
        }
        let _ = writeln!(
            out,
            r##"<polygon class="band" points="{}" fill="#9ecae1" fill-opacity="0.6"/>"##,
            band.trim_end()
        );
    }
    let mut points = String::new();
    for (s, m) in mean.iter().enumerate() {
        let _ = write!(points, "{},{} ", num(x_of(s)), num(y_of(*m)));
    }
    let _ = writeln!(
        out,
        r##"<polyline class="busy" points="{}" fill="none" stroke="#08519c" stroke-width="1.5"/>"##,
        points.trim_end()
    );
    let note = if grid.steps_per_bin > 1 {
        format!(
            "line: mean over each {} steps; band: least and most busy step",
            grouped(grid.steps_per_bin as u64)
        )
    } else {
        "one point per step".to_string()
    };
    text(
        out,
        LEFT,
        top + CURVE_H + 16.0,
        r##" font-size="10" fill="#555555""##,
        &note,
    );
}
