//! The latency–throughput curves of [`wormhole`](super::wormhole) as CSV and as
//! a small self-contained SVG picture (axes, ticks, one polyline per curve, a
//! legend), written here so that no plotting library is needed.

use super::wormhole::Point;
use std::fmt::Write;

/// One curve to draw: its name and its points (in order of offered load).
pub struct Curve<'a> {
    /// The legend entry.
    pub label: String,
    /// The points.
    pub points: &'a [Point],
    /// A throughput to mark with a dashed line (1/T: what the busiest channel allows).
    pub guide: Option<f64>,
}

/// `curve,offered,accepted,latency,measured,delivered,saturated`, one line per point.
pub fn csv(curves: &[Curve<'_>]) -> String {
    let mut out = String::from("curve,offered,accepted,latency,measured,delivered,saturated\n");
    for c in curves {
        for p in c.points {
            let _ = writeln!(
                out,
                "{},{:.4},{:.5},{:.2},{},{},{}",
                c.label.replace(',', ";"),
                p.offered,
                p.accepted,
                p.latency,
                p.measured,
                p.delivered,
                p.saturated
            );
        }
    }
    out
}

/// The smallest of 1, 2, 5 × 10^k at least `x` (for axis ends and tick steps).
fn nice_ceiling(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let scale = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * scale)
        .find(|&v| v >= x * (1.0 - 1e-12))
        .unwrap_or(10.0 * scale)
}

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

const COLOURS: [&str; 4] = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98"];
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 55.0;

/// The y axis end: the largest latency of an unsaturated point, rounded up to a
/// nice number, at most `cap`. Saturated points are drawn at the top edge.
pub fn latency_axis(curves: &[Curve<'_>], cap: f64) -> f64 {
    let top = curves
        .iter()
        .flat_map(|c| c.points)
        .filter(|p| !p.saturated)
        .map(|p| p.latency)
        .fold(0.0, f64::max);
    nice_ceiling(top.min(cap) * 1.1)
}

/// The plotting area: width and height.
const PW: f64 = WIDTH - LEFT - RIGHT;
const PH: f64 = HEIGHT - TOP - BOTTOM;

/// The picture's x of a throughput (0 to 1).
fn x_of(v: f64) -> f64 {
    LEFT + v.clamp(0.0, 1.0) * PW
}

/// The picture's y of a latency, the top edge at `y_max`.
fn y_of(v: f64, y_max: f64) -> f64 {
    TOP + PH - (v / y_max).clamp(0.0, 1.0) * PH
}

/// An SVG picture of the curves: accepted throughput (0 to 1) across, average
/// latency up, points of saturated runs hollow, each curve's guide dashed.
pub fn svg(title: &str, curves: &[Curve<'_>], y_max: f64) -> String {
    let mut s = String::new();
    frame(&mut s, title, y_max);
    for (k, c) in curves.iter().enumerate() {
        curve(&mut s, k, c, y_max);
    }
    s.push_str("</svg>\n");
    s
}

/// The header, title, grid, ticks, labels and border.
fn frame(s: &mut String, title: &str, y_max: f64) {
    let (pw, ph) = (PW, PH);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    for k in 0..=10 {
        let v = f64::from(k) / 10.0;
        let x = x_of(v);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#e5e5e5"/>"##,
            TOP + ph
        );
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{v:.1}</text>"#,
            TOP + ph + 18.0
        );
    }
    let step = nice_ceiling(y_max / 6.0);
    let mut v = 0.0;
    while v <= y_max * (1.0 + 1e-9) {
        let y = y_of(v, y_max);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e5e5e5"/>"##,
            LEFT + pw
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{v}</text>"#,
            LEFT - 6.0,
            y + 4.0
        );
        v += step;
    }
    let _ = writeln!(
        s,
        r#"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">accepted throughput (flits per cycle per sending node)</text>"#,
        LEFT + pw / 2.0,
        HEIGHT - 12.0
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">average latency (cycles)</text>"#,
        TOP + ph / 2.0
    );
}

/// Curve number k: its polyline, points, guide and legend entry.
fn curve(s: &mut String, k: usize, c: &Curve<'_>, y_max: f64) {
    let colour = COLOURS[k % COLOURS.len()];
    let line: Vec<String> = c
        .points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x_of(p.accepted), y_of(p.latency, y_max)))
        .collect();
    let _ = writeln!(
        s,
        r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
        line.join(" ")
    );
    for p in c.points {
        let fill = if p.saturated { "white" } else { colour };
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{fill}" stroke="{colour}"/>"#,
            x_of(p.accepted),
            y_of(p.latency, y_max)
        );
    }
    if let Some(g) = c.guide.filter(|g| *g > 0.0 && *g < 1.0) {
        let _ = writeln!(
            s,
            r#"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="{colour}" stroke-dasharray="5 4"/>"#,
            TOP + PH,
            x = x_of(g)
        );
    }
    let (lx, ly) = (LEFT + 0.22 * PW, TOP + 18.0 + 18.0 * k as f64);
    let _ = writeln!(
        s,
        r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"/>"#,
        lx + 25.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
        lx + 32.0,
        ly + 4.0,
        escape(&c.label)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_numbers() {
        assert_eq!(nice_ceiling(0.9), 1.0);
        assert_eq!(nice_ceiling(130.0), 200.0);
        assert_eq!(nice_ceiling(45.0), 50.0);
        assert_eq!(nice_ceiling(200.0), 200.0);
    }
}
