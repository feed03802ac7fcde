//! The SVG bar chart of `compare --format svg`: for each network, its lower
//! bound and its best known time, all-port in the upper panel and single-port
//! in the lower one (each panel scaled to its own largest value, since the
//! single-port times are many times the all-port ones).
//!
//! Written by hand like the pictures of [`crate::render`]; every bar carries
//! `class` (`bound` or `best`), `data-network`, `data-ports` and `data-value`
//! so that a test, or a reader's script, can take the numbers back out.

use super::{Known, Row};
use crate::render::escape;
use std::fmt::Write as _;

const LEFT: f64 = 70.0;
const TOP: f64 = 50.0;
const PANEL: f64 = 200.0;
const GAP: f64 = 70.0;
const BAR: f64 = 26.0;
const BOUND_FILL: &str = "#b0b0b0";
const BEST_FILL: &str = "#4a78c2";

/// A row's bound and best known schedule under one port model.
type Pick = fn(&Row) -> (u64, &Option<Known>);

/// The chart as SVG text.
pub fn svg(rows: &[&Row]) -> String {
    let label = rows.iter().map(|r| r.network.len()).max().unwrap_or(0) as f64;
    let group = (label * 7.5 + 20.0).max(3.0 * BAR + 30.0);
    let width = LEFT + group * rows.len().max(1) as f64 + 30.0;
    let height = TOP + 2.0 * (PANEL + GAP) + 10.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##
    );
    text(
        &mut out,
        LEFT,
        22.0,
        r#" font-size="14""#,
        "Total exchange: lower bound (grey) and best known time (blue), in steps",
    );
    let panels: [(&str, Pick); 2] = [
        ("all-port", |r| (r.all_port_bound, &r.best_all_port)),
        ("single-port", |r| {
            (r.single_port_bound, &r.best_single_port)
        }),
    ];
    for (i, (name, pick)) in panels.into_iter().enumerate() {
        let top = TOP + i as f64 * (PANEL + GAP);
        let values: Vec<(u64, Option<u32>)> = rows
            .iter()
            .map(|r| {
                let (bound, best) = pick(r);
                (bound, best.as_ref().map(|k| k.time))
            })
            .collect();
        panel(&mut out, rows, &values, top, group, name);
    }
    out.push_str("</svg>\n");
    out
}

/// One panel: the axis, and two bars per network.
fn panel(
    out: &mut String,
    rows: &[&Row],
    values: &[(u64, Option<u32>)],
    top: f64,
    group: f64,
    ports: &str,
) {
    let max = values
        .iter()
        .map(|&(b, t)| b.max(t.map_or(0, u64::from)))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let base = top + PANEL;
    let y = |v: f64| base - v / max * (PANEL - 20.0);
    text(out, 8.0, top + 4.0, r#" font-weight="bold""#, ports);
    for k in 0..=4 {
        let v = max * f64::from(k) / 4.0;
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{y:.2}" x2="{x2:.2}" y2="{y:.2}" stroke="#e0e0e0"/>"##,
            y = y(v),
            x2 = LEFT + group * rows.len() as f64,
        );
        text(
            out,
            LEFT - 6.0,
            y(v) + 4.0,
            r#" text-anchor="end""#,
            &format!("{v:.0}"),
        );
    }
    for (j, (row, &(bound, best))) in rows.iter().zip(values).enumerate() {
        let x = LEFT + group * j as f64 + (group - 2.0 * BAR - 4.0) / 2.0;
        bar(
            out,
            &row.network,
            ports,
            "bound",
            x,
            bound,
            y(bound as f64),
            base,
        );
        match best {
            Some(t) => {
                let t = u64::from(t);
                bar(
                    out,
                    &row.network,
                    ports,
                    "best",
                    x + BAR + 4.0,
                    t,
                    y(t as f64),
                    base,
                );
            }
            None => text(
                out,
                x + 1.5 * BAR + 4.0,
                base - 4.0,
                r#" text-anchor="middle" class="none""#,
                "none",
            ),
        }
        text(
            out,
            LEFT + group * (j as f64 + 0.5),
            base + 16.0,
            r#" text-anchor="middle""#,
            &row.network,
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="{LEFT}" y1="{base}" x2="{x2:.2}" y2="{base}" stroke="#404040"/>"##,
        x2 = LEFT + group * rows.len() as f64,
    );
}

/// One bar with its value written above it.
#[allow(clippy::too_many_arguments)]
fn bar(
    out: &mut String,
    network: &str,
    ports: &str,
    class: &str,
    x: f64,
    value: u64,
    y: f64,
    base: f64,
) {
    let fill = if class == "bound" {
        BOUND_FILL
    } else {
        BEST_FILL
    };
    let _ = writeln!(
        out,
        r#"<rect class="{class}" data-network="{}" data-ports="{ports}" data-value="{value}" x="{x:.2}" y="{y:.2}" width="{BAR}" height="{h:.2}" fill="{fill}"><title>{} {ports} {class}: {value}</title></rect>"#,
        escape(network),
        escape(network),
        h = base - y,
    );
    text(
        out,
        x + BAR / 2.0,
        y - 3.0,
        r#" text-anchor="middle" font-size="10""#,
        &value.to_string(),
    );
}

fn text(out: &mut String, x: f64, y: f64, attributes: &str, content: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{x:.2}\" y=\"{y:.2}\"{attributes}>{}</text>",
        escape(content)
    );
}
