//! A schedule of timed sends drawn as steps × directed links: one mark per send
//! in the cell of its step and link, coloured by the packet's source, with the
//! send as a tooltip; the table picture's layout turned to links.
//!
//! Only a schedule the replay found valid is drawn ([`schedule_svg`] takes the
//! replay's report and the verdict on it): a picture of an invalid schedule
//! would look like a plan that works. Long schedules are aggregated like large
//! tables: each drawn column stands for a run of steps, each row for a run of
//! links, shaded by the share of its (step, link) pairs that carry a send.

use super::RenderError;
use super::svg::{category_colour, grouped, heat_colour, label_step, num, open, text};
use std::fmt::Write;
use txverify_core::network::Graph;
use txverify_core::schedule::Schedule;
use txverify_core::schedule::replay::ReplayReport;
use txverify_core::verdict::ScheduleVerdict;

/// How to draw a schedule.
#[derive(Clone, Debug)]
pub struct ScheduleOptions {
    /// Above this many steps, steps are aggregated into at most this many columns.
    pub max_columns: usize,
    /// Above this many directed links in use, they are aggregated into at most
    /// this many rows.
    pub max_rows: usize,
    /// The title line.
    pub title: String,
}

impl Default for ScheduleOptions {
    fn default() -> Self {
        ScheduleOptions {
            max_columns: 1024,
            max_rows: 256,
            title: String::new(),
        }
    }
}

const TOP: f64 = 76.0;
/// The widest a grid gets before its cells shrink.
const GRID_W: f64 = 1600.0;
/// Shades of an aggregated grid (a run of equal shades in a row is one rectangle).
const SHADES: f64 = 20.0;
/// Distinct source colours before they repeat.
const COLOURS: usize = 24;

/// The rows and columns of the picture.
struct Layout {
    steps: usize,
    steps_per_column: usize,
    columns: usize,
    /// The directed links in use, in link order: (from, to).
    links: Vec<(u32, u32)>,
    /// The row of every link id of the graph (`usize::MAX`: not in use).
    row_of_link: Vec<usize>,
    links_per_row: usize,
    rows: usize,
    cell_w: f64,
    cell_h: f64,
    /// The labelled rows and their labels (`from→to` of the row's first link).
    labels: Vec<(usize, String)>,
    /// Left of the grid: room for the longest label.
    left: f64,
}

impl Layout {
    fn new(schedule: &Schedule, graph: &Graph, steps: usize, o: &ScheduleOptions) -> Layout {
        let mut used = vec![false; graph.directed_links()];
        for s in &schedule.sends {
            if let Some(link) = graph.link(s.from, s.to) {
                used[link as usize] = true;
            }
        }
        let mut row_of_link = vec![usize::MAX; used.len()];
        let mut links = Vec::new();
        for (link, _) in used.iter().enumerate().filter(|(_, u)| **u) {
            row_of_link[link] = links.len();
            links.push(graph.endpoints(link as u32));
        }
        let steps_per_column = steps.div_ceil(o.max_columns.max(1)).max(1);
        let links_per_row = links.len().div_ceil(o.max_rows.max(1)).max(1);
        let columns = steps.div_ceil(steps_per_column);
        let rows = links.len().div_ceil(links_per_row).max(1);
        for r in row_of_link.iter_mut().filter(|r| **r != usize::MAX) {
            *r /= links_per_row;
        }
        let cell_h = (640.0 / rows as f64).clamp(3.0, 16.0);
        // A label every `every` rows, at least 10 pixels apart.
        let every = label_step(rows, 64).max((10.0 / cell_h).ceil() as usize);
        let labels: Vec<(usize, String)> = (0..rows)
            .step_by(every)
            .map(|r| {
                let (from, to) = links[r * links_per_row];
                (r, format!("{from}→{to}"))
            })
            .collect();
        let longest = labels
            .iter()
            .map(|(_, l)| l.chars().count())
            .max()
            .unwrap_or(0);
        Layout {
            steps,
            steps_per_column,
            columns,
            links,
            row_of_link,
            links_per_row,
            rows,
            cell_w: (GRID_W / columns as f64).clamp(2.0, 22.0),
            cell_h,
            labels,
            left: (6.2 * longest as f64 + 14.0).max(60.0),
        }
    }

    fn aggregated(&self) -> bool {
        self.steps_per_column > 1 || self.links_per_row > 1
    }
}

/// Draws a schedule that the replay found valid, as steps × directed links.
pub fn schedule_svg(
    schedule: &Schedule,
    graph: &Graph,
    report: &ReplayReport,
    verdict: &ScheduleVerdict,
    options: &ScheduleOptions,
) -> Result<String, RenderError> {
    if !verdict.valid() {
        return Err(RenderError::InvalidSchedule(verdict.violations()));
    }
    if report.time() == 0 || schedule.sends.is_empty() {
        return Err(RenderError::NoSends);
    }
    let layout = Layout::new(schedule, graph, report.time() as usize, options);
    let grid_w = layout.cell_w * layout.columns as f64;
    let grid_h = layout.cell_h * layout.rows as f64;
    let lines = header_lines(report, &layout, schedule.sends.len());
    let text_w = lines
        .iter()
        .map(|l| 7.3 * l.chars().count() as f64)
        .chain([8.6 * options.title.chars().count() as f64])
        .fold(0.0, f64::max);
    let width = (layout.left + grid_w + 16.0).max(text_w + 16.0).max(760.0);
    let height = TOP + grid_h + 40.0;
    let mut out = String::new();
    let attributes = format!(
        r#" class="txverify-schedule" data-steps="{}" data-sends="{}" data-links-used="{}" data-steps-per-column="{}" data-links-per-row="{}" data-aggregated="{}""#,
        layout.steps,
        schedule.sends.len(),
        layout.links.len(),
        layout.steps_per_column,
        layout.links_per_row,
        layout.aggregated()
    );
    open(&mut out, width, height, &attributes);
    header(&mut out, &options.title, &lines);
    step_numbers(&mut out, &layout);
    link_labels(&mut out, &layout);
    if layout.aggregated() {
        shaded_cells(&mut out, schedule, graph, &layout);
    } else {
        send_marks(&mut out, schedule, graph, &layout);
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// The summary line (what the schedule is, and the verdict it was drawn
/// under) and the line that says how to read the picture.
fn header_lines(r: &ReplayReport, layout: &Layout, sends: usize) -> [String; 2] {
    let summary = format!(
        "{} on {} nodes, ports {}: time {}, {} sends on {} of {} directed links — VALID (replayed)",
        r.collective(),
        grouped(r.nodes() as u64),
        r.ports(),
        r.time(),
        grouped(sends as u64),
        grouped(layout.links.len() as u64),
        grouped(r.directed_links() as u64)
    );
    let note = if layout.aggregated() {
        format!(
            "aggregated: a column is {} steps, a row {} links; darker = more of its (step, link) pairs carry a send",
            layout.steps_per_column, layout.links_per_row
        )
    } else {
        "one mark per send, coloured (and numbered, where it fits) by the packet's source; hover for the send".to_string()
    };
    [summary, note]
}

/// Title, summary and note.
fn header(out: &mut String, title: &str, lines: &[String; 2]) {
    text(
        out,
        8.0,
        18.0,
        r#" font-size="14" font-weight="bold""#,
        title,
    );
    text(out, 8.0, 36.0, r#" class="summary""#, &lines[0]);
    text(
        out,
        8.0,
        52.0,
        r##" class="note" fill="#555555""##,
        &lines[1],
    );
}

fn step_numbers(out: &mut String, layout: &Layout) {
    let every = label_step(layout.columns, (GRID_W / 36.0) as usize);
    for c in (0..layout.columns).step_by(every) {
        let first = c * layout.steps_per_column + 1;
        let x = layout.left + (c as f64 + 0.5) * layout.cell_w;
        let attributes = r#" text-anchor="middle" font-size="10" class="step""#;
        text(out, x, TOP - 6.0, attributes, &first.to_string());
    }
}

fn link_labels(out: &mut String, layout: &Layout) {
    for (r, label) in &layout.labels {
        let y = TOP + (*r as f64 + 0.5) * layout.cell_h + 4.0;
        let attributes = r#" text-anchor="end" font-size="10" class="link""#;
        text(out, layout.left - 6.0, y, attributes, label);
    }
}

/// One rectangle per send, with its number of source and its tooltip.
fn send_marks(out: &mut String, schedule: &Schedule, graph: &Graph, layout: &Layout) {
    let (w, h) = (layout.cell_w, layout.cell_h);
    for s in &schedule.sends {
        let Some(link) = graph.link(s.from, s.to) else {
            continue;
        };
        let row = layout.row_of_link[link as usize];
        let x = layout.left + f64::from(s.step.saturating_sub(1)) * w;
        let y = TOP + row as f64 * h;
        let fill = category_colour(s.source as usize % COLOURS, COLOURS);
        // The send as the schedule's text format writes it.
        let destination = if s.packet().is_broadcast() && s.chunk() > 0 {
            format!("* (chunk {})", s.chunk())
        } else if s.packet().is_broadcast() {
            "*".to_string()
        } else {
            s.destination.to_string()
        };
        let tip = format!(
            "step {}: {} → {}, packet {} → {destination}",
            s.step, s.from, s.to, s.source
        );
        let _ = writeln!(
            out,
            r##"<rect class="send" x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="#ffffff" stroke-width="0.5"><title>{}</title></rect>"##,
            num(x),
            num(y),
            num(w),
            num(h),
            super::escape(&tip)
        );
        let label = s.source.to_string();
        if w >= 7.0 * label.len() as f64 + 4.0 && h >= 11.0 {
            let attributes = r#" text-anchor="middle" font-size="10" pointer-events="none""#;
            text(out, x + w / 2.0, y + h / 2.0 + 3.5, attributes, &label);
        }
    }
}

/// Aggregated: per drawn cell the share of its (step, link) pairs with a send,
/// in [`SHADES`] shades, runs of equal shades in a row as one rectangle.
fn shaded_cells(out: &mut String, schedule: &Schedule, graph: &Graph, layout: &Layout) {
    let mut counts = vec![0u64; layout.rows * layout.columns];
    for s in &schedule.sends {
        let Some(link) = graph.link(s.from, s.to) else {
            continue;
        };
        let row = layout.row_of_link[link as usize];
        let column = (s.step as usize).saturating_sub(1) / layout.steps_per_column;
        counts[row * layout.columns + column] += 1;
    }
    let capacity = (layout.steps_per_column * layout.links_per_row) as f64;
    for row in 0..layout.rows {
        let cells = &counts[row * layout.columns..(row + 1) * layout.columns];
        let shade = |c: u64| (c as f64 / capacity * SHADES).ceil().min(SHADES) as u32;
        let mut c = 0;
        while c < cells.len() {
            let here = shade(cells[c]);
            let start = c;
            while c < cells.len() && shade(cells[c]) == here {
                c += 1;
            }
            if here == 0 {
                continue;
            }
            let sends: u64 = cells[start..c].iter().sum();
            let _ = writeln!(
                out,
                r#"<rect class="sends" data-sends="{sends}" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                num(layout.left + start as f64 * layout.cell_w),
                num(TOP + row as f64 * layout.cell_h),
                num((c - start) as f64 * layout.cell_w),
                num(layout.cell_h),
                heat_colour(f64::from(here) / SHADES)
            );
        }
    }
}
