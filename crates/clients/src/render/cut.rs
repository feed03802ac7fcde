//! A lower bound's proving cut drawn on its network: the nodes on a circle,
//! the side A filled, the links that cross the cut thick and red. The picture
//! draws the cut a bound report names; the bound itself is the core's.

use super::RenderError;
use super::svg::{self, num};
use std::fmt::Write;
use txverify_core::network::Graph;

/// The most nodes a cut picture draws: past it the circle is a smudge.
pub const MAX_CUT_NODES: usize = 512;

/// The SVG picture of the cut (A, V∖A) of `graph`, A given by its nodes.
pub fn cut_svg(graph: &Graph, side: &[u32], title: &str) -> Result<String, RenderError> {
    let n = graph.nodes();
    if n > MAX_CUT_NODES {
        return Err(RenderError::TooManyNodes {
            nodes: n,
            limit: MAX_CUT_NODES,
        });
    }
    let mut in_side = vec![false; n];
    for &x in side {
        match in_side.get_mut(x as usize) {
            Some(slot) => *slot = true,
            None => return Err(RenderError::UnknownNode { node: x, nodes: n }),
        }
    }
    let radius = (40.0 + 6.0 * n as f64).min(360.0);
    let size = 2.0 * radius + 80.0;
    let centre = size / 2.0;
    let at = |x: u32| {
        let angle = std::f64::consts::TAU * f64::from(x) / n.max(1) as f64;
        (
            centre + radius * angle.cos(),
            centre + 20.0 + radius * angle.sin(),
        )
    };
    let mut out = String::new();
    svg::open(&mut out, size, size + 20.0, r#" class="txverify-cut""#);
    svg::text(&mut out, 10.0, 18.0, "", title);
    let mut crossing = 0;
    for link in 0..graph.directed_links() as u32 {
        let (a, b) = graph.endpoints(link);
        // Each undirected link once.
        if a > b {
            continue;
        }
        let crosses = in_side[a as usize] != in_side[b as usize];
        crossing += usize::from(crosses);
        let ((x1, y1), (x2, y2)) = (at(a), at(b));
        let style = if crosses {
            r##"stroke="#c0392b" stroke-width="2.5" class="crossing""##
        } else {
            r##"stroke="#b0b0b0" stroke-width="1""##
        };
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {style}><title>{a} – {b}</title></line>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
        );
    }
    let dot = (120.0 / n.max(1) as f64).clamp(2.5, 8.0);
    for x in 0..n as u32 {
        let (cx, cy) = at(x);
        let (fill, class) = match in_side[x as usize] {
            true => ("#2c3e50", "side"),
            false => ("#ecf0f1", "other"),
        };
        let _ = writeln!(
            out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#2c3e50" class="{class}"><title>node {x}</title></circle>"##,
            num(cx),
            num(cy),
            num(dot),
        );
    }
    let caption = format!(
        "A: {} nodes (filled), V∖A: {}, {crossing} links cross",
        side.len(),
        n - side.len()
    );
    svg::text(&mut out, 10.0, size + 10.0, "", &caption);
    out.push_str("</svg>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(n: u32) -> Graph {
        let adjacency = (0..n).map(|x| vec![(x + n - 1) % n, (x + 1) % n]).collect();
        Graph::from_adjacency(adjacency).unwrap()
    }

    #[test]
    fn the_crossing_links_are_the_cut_s() {
        let svg = cut_svg(&ring(8), &[0, 1, 2, 3], "ring 8").unwrap();
        assert_eq!(svg.matches(r#"class="crossing""#).count(), 2);
        assert_eq!(svg.matches(r#"class="side""#).count(), 4);
        assert_eq!(svg.matches(r#"class="other""#).count(), 4);
        assert_eq!(svg.matches("<line").count(), 8);
    }

    #[test]
    fn a_node_outside_the_network_or_too_many_nodes_is_refused() {
        assert!(matches!(
            cut_svg(&ring(4), &[9], ""),
            Err(RenderError::UnknownNode { node: 9, nodes: 4 })
        ));
        assert!(matches!(
            cut_svg(&ring(MAX_CUT_NODES as u32 + 1), &[0], ""),
            Err(RenderError::TooManyNodes { .. })
        ));
    }
}
