//! Lower bounds for a collective on a network, in the program's own chunk
//! model (docs/msccl.md, "On a network", proves each):
//!
//! - chunks are of equal size; a directed link carries one chunk a step; a
//!   chunk crosses one link a step; GPUs copy and reduce chunks, links and
//!   switches only carry them (no reduction in the network);
//! - a slot holds a set of contributions, a reduction is a union, so a chunk
//!   that ends in a right output holds only contributions of that output.
//!
//! The *load* bounds limit the chunks the busiest directed link carries,
//! whatever the program: the total crossings any program needs over the L
//! links (`traffic`), and, for a cut (A, B), the chunks that must cross it
//! each way over the c(A) links that do. The *latency* bound limits the
//! longest chain of messages in hops (`Figures::depth`). A program's time in
//! steps is at least its largest link load and at least its depth, so each
//! figure sits beside its bound. For all-to-all these are txverify's bounds
//! for a total exchange (`txverify_core::bounds`: the distance and the cut bound),
//! scaled by the chunks per pair.

use super::collective::{Collective, Shape};
use super::routes::Routes;
use txverify_core::bounds::cut_search::{best_cut, every_side};
use txverify_core::bounds::distance::distance_bound;

/// The bounds of one collective on one network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Link crossings every program needs in all.
    pub traffic: u64,
    /// Directed links (L).
    pub directed_links: u64,
    /// The best cut found, if any crosses.
    pub cut: Option<CutBound>,
    /// The latency bound in hops.
    pub latency: u64,
    /// What the latency bound is (the diameter, a root's eccentricity).
    pub latency_of: String,
}

/// A cut (A, B) and what must cross it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutBound {
    /// The nodes of A, increasing (A holds node 0 or is one node).
    pub side: Vec<u32>,
    /// Chunks that must cross from A to B, and from B to A.
    pub demand: (u64, u64),
    /// c(A): the directed links from A to B (as many as from B to A).
    pub links: u64,
}

impl CutBound {
    /// max(⌈A→B / c(A)⌉, ⌈B→A / c(A)⌉).
    pub fn bound(&self) -> u64 {
        let c = self.links.max(1);
        self.demand.0.div_ceil(c).max(self.demand.1.div_ceil(c))
    }
}

impl Bounds {
    /// ⌈traffic / L⌉.
    pub fn traffic_bound(&self) -> u64 {
        distance_bound(self.traffic, self.directed_links)
    }

    /// The load bound: the larger of the traffic and the cut bound.
    pub fn load(&self) -> u64 {
        let cut = self.cut.as_ref().map_or(0, CutBound::bound);
        self.traffic_bound().max(cut)
    }
}

/// The chunks of the collective: C (per GPU) and k (per GPU and part).
fn sizes(shape: &Shape) -> (u64, u64) {
    let (c, k) = match shape.coll {
        Collective::AllGather => (shape.output, shape.input),
        Collective::ReduceScatter => (shape.input, shape.output),
        Collective::AllToAll => (shape.input, shape.input / i64::from(shape.n.max(1))),
        Collective::Reduce => (shape.input, shape.input),
        _ => (shape.output, shape.output),
    };
    (c.max(0) as u64, k.max(0) as u64)
}

/// The chunks that must cross from A (`size_a` nodes, `in_a`) to the rest and
/// back, for a program right for every root of `roots`.
fn demand(shape: &Shape, roots: &[u32], in_a: &[bool], size_a: u64) -> (u64, u64) {
    let n = u64::from(shape.n);
    let size_b = n - size_a;
    let (c, k) = sizes(shape);
    let root_in = |side_a: bool| roots.iter().any(|&r| in_a[r as usize] == side_a);
    match shape.coll {
        Collective::AllReduce => (c, c),
        Collective::AllGather => (size_a * k, size_b * k),
        Collective::ReduceScatter => (size_b * k, size_a * k),
        Collective::AllToAll => (size_a * size_b * k, size_a * size_b * k),
        Collective::Broadcast => (c * u64::from(root_in(true)), c * u64::from(root_in(false))),
        Collective::Reduce => (c * u64::from(root_in(false)), c * u64::from(root_in(true))),
    }
}

/// Link crossings every program needs in all.
fn traffic(routes: &Routes, shape: &Shape) -> u64 {
    let n = u64::from(shape.n);
    let (c, k) = sizes(shape);
    match shape.coll {
        Collective::AllReduce => 2 * (n - 1) * c,
        Collective::AllToAll => k * routes.total_distance(),
        _ => (n - 1) * c,
    }
}

/// The bounds of `shape`'s collective on `routes`' network (its order must be
/// `shape.n`), for a program right for the roots `roots` (rooted collectives).
pub fn bounds(routes: &Routes, shape: &Shape, roots: &[u32]) -> Bounds {
    let n = shape.n as usize;
    let (c, _) = sizes(shape);
    let (latency, latency_of) = if n < 2 || c == 0 {
        (0, "nothing to move".to_string())
    } else if shape.coll.rooted() {
        let worst = roots.iter().max_by_key(|&&r| (routes.eccentricity(r), r));
        match worst {
            Some(&r) => (routes.eccentricity(r), format!("eccentricity of root {r}")),
            None => (0, "no root".to_string()),
        }
    } else {
        (routes.diameter(), "diameter".to_string())
    };
    Bounds {
        traffic: if n < 2 { 0 } else { traffic(routes, shape) },
        directed_links: routes.graph().directed_links() as u64,
        cut: best_demand_cut(routes, shape, roots),
        latency,
        latency_of,
    }
}

/// The cut (A, B) with A given by `in_a`, or `None` when a side is empty.
fn cut(routes: &Routes, shape: &Shape, roots: &[u32], in_a: &[bool]) -> Option<CutBound> {
    let graph = routes.graph();
    let side: Vec<u32> = (0..in_a.len() as u32)
        .filter(|&x| in_a[x as usize])
        .collect();
    if side.is_empty() || side.len() == in_a.len() {
        return None;
    }
    let links = side
        .iter()
        .map(|&x| {
            let out = graph.neighbours(x).iter();
            out.filter(|&&y| !in_a[y as usize]).count() as u64
        })
        .sum();
    let demand = demand(shape, roots, in_a, side.len() as u64);
    Some(CutBound {
        side,
        demand,
        links,
    })
}

/// The best of the cuts tried: every cut up to
/// [`txverify_core::bounds::cut_search::EXHAUSTIVE_NODES`] nodes; above, every single node and `txverify_core::bounds`' best cut.
fn best_demand_cut(routes: &Routes, shape: &Shape, roots: &[u32]) -> Option<CutBound> {
    let n = shape.n as usize;
    if n < 2 || routes.nodes() != n {
        return None;
    }
    let mut best: Option<CutBound> = None;
    let mut keep = |found: Option<CutBound>| {
        if let Some(f) = found
            && best.as_ref().is_none_or(|b| f.bound() > b.bound())
        {
            best = Some(f);
        }
    };
    if let Some(sides) = every_side(n) {
        // Every A holding node 0 (B holds it otherwise: the same cut), by the
        // core's one enumeration of cuts.
        for (_, set) in sides {
            let in_a: Vec<bool> = (0..n).map(|x| set >> x & 1 == 1).collect();
            keep(cut(routes, shape, roots, &in_a));
        }
        return best;
    }
    for x in 0..n {
        let mut in_a = vec![false; n];
        in_a[x] = true;
        keep(cut(routes, shape, roots, &in_a));
    }
    if let Some(found) = best_cut(routes.graph(), None) {
        let mut in_a = vec![false; n];
        found.side.iter().for_each(|&x| in_a[x as usize] = true);
        keep(cut(routes, shape, roots, &in_a));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn on_path(coll: Collective, roots: &[u32]) -> Bounds {
        // linear 4: 0 - 1 - 2 - 3, six directed links; C = 8.
        let g = NetworkName::Linear(4).build().unwrap();
        let routes = Routes::new(&g).unwrap();
        let shape = Shape::new(coll, 4, 8, false).unwrap();
        bounds(&routes, &shape, roots)
    }

    #[test]
    fn a_root_at_the_end_of_a_path_sends_everything_on_one_link() {
        for coll in [Collective::Broadcast, Collective::Reduce] {
            let b = on_path(coll, &[0]);
            // 3 · 8 crossings over 6 links: 4; but every chunk crosses 0 - 1.
            assert_eq!((b.traffic, b.traffic_bound()), (24, 4));
            assert_eq!(b.load(), 8);
            assert_eq!(
                (b.latency, b.latency_of.as_str()),
                (3, "eccentricity of root 0")
            );
            // A root inside: its eccentricity is 2, and one link still
            // carries all 8 chunks (to the side that has no root).
            let b = on_path(coll, &[1]);
            assert_eq!((b.load(), b.latency), (8, 2));
        }
    }

    #[test]
    fn the_collectives_of_a_path_of_four() {
        // allgather, k = 2: the middle cut needs 2·2 = 4 chunks each way on
        // one link; node 0 takes 3·2 = 6 on its one link.
        let b = on_path(Collective::AllGather, &[]);
        assert_eq!((b.traffic, b.load(), b.latency), (24, 6, 3));
        // allreduce: 2·3·8 = 48 crossings over 6 links, 8 each way across
        // any cut: 8.
        let b = on_path(Collective::AllReduce, &[]);
        assert_eq!((b.traffic, b.traffic_bound(), b.load()), (48, 8, 8));
        // alltoall, k = 2: Σ d = 20, 40 crossings over 6 links: 7; the middle
        // cut: 2·2·2 = 8 on one link.
        let b = on_path(Collective::AllToAll, &[]);
        assert_eq!((b.traffic, b.traffic_bound(), b.load()), (40, 7, 8));
    }
}
