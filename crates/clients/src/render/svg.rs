//! A few helpers for writing SVG as text: escaping, numbers, colours.
//!
//! Pictures are written by hand rather than through a drawing crate: the output
//! is a few element kinds (rectangles, text, lines, a polyline), and text we
//! write ourselves is deterministic, small and easy to test with an XML parser.

use std::fmt::Write;

/// `text` escaped for XML character data and attribute values. Characters XML 1.0
/// forbids (controls other than tab, newline and carriage return) become U+FFFD,
/// so a file's stray bytes cannot make the picture unreadable.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A number with thousands separators: 131,072.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A coordinate with at most two decimals and no trailing zeros (smaller files).
pub fn num(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        let mut s = format!("{rounded:.2}");
        while s.ends_with('0') {
            s.pop();
        }
        s
    }
}

/// An HSL colour as `#rrggbb` (hue in degrees, saturation and lightness in 0..=1).
pub fn hsl(hue: f64, saturation: f64, lightness: f64) -> String {
    let c = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue.rem_euclid(360.0) / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = lightness - c / 2.0;
    let byte = |v: f64| ((v + m).clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// The fill of category `i` of `count` (links): hues spread evenly round the wheel.
pub fn category_colour(i: usize, count: usize) -> String {
    // Beyond a dozen, evenly spaced hues get too close: step by the golden angle.
    let hue = if count <= 12 {
        i as f64 * 360.0 / count.max(1) as f64
    } else {
        i as f64 * 137.508
    };
    let lightness = if count > 12 && i % 2 == 1 { 0.62 } else { 0.72 };
    hsl(hue + 20.0, 0.65, lightness)
}

/// The fill of a value `t` in 0..=1 on a light-yellow → violet scale (word lengths).
pub fn sequential_colour(t: f64) -> String {
    let t = t.clamp(0.0, 1.0);
    hsl(55.0 + 215.0 * t, 0.6, 0.82 - 0.22 * t)
}

/// The fill of a use share `t` in 0..=1 (heat map): pale yellow → dark red; zero is grey-white.
pub fn heat_colour(t: f64) -> String {
    if t <= 0.0 {
        return "#f4f4f4".to_string();
    }
    let t = t.clamp(0.0, 1.0);
    hsl(55.0 - 55.0 * t, 0.85, 0.85 - 0.5 * t)
}

/// Opening tag of a picture: its size and the default text style.
pub fn open(out: &mut String, width: f64, height: f64, attributes: &str) {
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="12"{attributes}>"#,
        w = num(width),
        h = num(height),
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##,
        num(width),
        num(height)
    );
}

/// A text element with escaped content.
pub fn text(out: &mut String, x: f64, y: f64, attributes: &str, content: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\"{attributes}>{}</text>",
        num(x),
        num(y),
        escape(content)
    );
}

/// A step that gives at most `max_labels` labels over `span` values: 1, 2, 5, 10, 20, 50, …
pub fn label_step(span: usize, max_labels: usize) -> usize {
    let mut step = 1usize;
    loop {
        for m in [1, 2, 5] {
            let s = step.saturating_mul(m);
            if span.div_ceil(s) <= max_labels.max(1) {
                return s;
            }
        }
        step = step.saturating_mul(10);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup_and_no_forbidden_characters() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\u{1}y\u{0}"), "x\u{fffd}y\u{fffd}");
        assert_eq!(escape("tab\there"), "tab\there");
    }

    #[test]
    fn numbers_are_grouped_and_short() {
        assert_eq!(grouped(131_072), "131,072");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000_000), "1,000,000");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
    }

    #[test]
    fn colours_are_hex_triples() {
        for c in [hsl(0.0, 1.0, 0.5), category_colour(5, 30), heat_colour(0.3)] {
            assert_eq!(c.len(), 7);
            assert!(c.starts_with('#') && c[1..].chars().all(|d| d.is_ascii_hexdigit()));
        }
        assert_eq!(hsl(0.0, 1.0, 0.5), "#ff0000");
        assert_eq!(hsl(240.0, 1.0, 0.5), "#0000ff");
    }

    #[test]
    fn label_steps_keep_labels_few() {
        assert_eq!(label_step(10, 20), 1);
        assert_eq!(label_step(100, 20), 5);
        assert_eq!(label_step(131_072, 16), 10_000);
    }
}
