//! The lower bounds of a program's collective on a network: the program's
//! chunk counts, read from its shape, handed to the core, which makes the
//! bounds ([`txverify_core::bounds::chunks`]: traffic, demand cut, latency;
//! docs/msccl.md, "On a network", proves each).

use super::collective::{Collective, Shape};
use super::routes::Routes;
use txverify_core::bounds::chunks::{self, ChunkBounds, ChunkDemand, LatencyOf};

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

/// What `shape`'s collective moves, in the core's terms.
pub fn demand(shape: &Shape) -> ChunkDemand {
    let (chunks, part) = sizes(shape);
    ChunkDemand {
        collective: shape.coll,
        nodes: shape.n,
        chunks,
        part,
    }
}

/// The bounds of `shape`'s collective on `routes`' network (its GPUs must be
/// `shape.n`), for a program right for the roots `roots` (rooted collectives).
///
/// On a network with switches the core's bounds, which count every node as
/// a GPU, do not apply; there only the traffic bound (the same crossings,
/// each at least one link, over every link, switch links included) and the
/// latency bound over GPU pairs are given, without a cut: weaker, never wrong.
pub fn bounds(routes: &Routes, shape: &Shape, roots: &[u32]) -> ChunkBounds {
    let demand = demand(shape);
    if !routes.graph().fabric().has_forward_only() {
        return chunks::bounds(routes.graph(), routes.distances(), &demand, roots);
    }
    let n = u64::from(demand.nodes);
    let moving = n >= 2 && demand.chunks > 0;
    let traffic = match demand.collective {
        _ if !moving => 0,
        Collective::AllReduce => 2 * (n - 1) * demand.chunks,
        Collective::AllToAll => demand.part * routes.total_distance(),
        _ => (n - 1) * demand.chunks,
    };
    let (latency, latency_of) = if !moving {
        (0, LatencyOf::NothingToMove)
    } else if demand.collective.rooted() {
        let worst = roots.iter().max_by_key(|&&r| (routes.eccentricity(r), r));
        match worst {
            Some(&r) => (routes.eccentricity(r), LatencyOf::Eccentricity(r)),
            None => (0, LatencyOf::NoRoot),
        }
    } else {
        (routes.diameter(), LatencyOf::Diameter)
    };
    ChunkBounds {
        traffic,
        directed_links: routes.graph().directed_links() as u64,
        cut: None,
        latency,
        latency_of,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    #[test]
    fn a_program_shape_gives_its_chunk_counts_to_the_core() {
        // linear 4, C = 8: allgather's part is 8 / 4; the rooted collectives
        // move all 8.
        for (coll, part) in [
            (Collective::AllGather, 2),
            (Collective::ReduceScatter, 2),
            (Collective::AllToAll, 2),
            (Collective::AllReduce, 8),
            (Collective::Broadcast, 8),
            (Collective::Reduce, 8),
        ] {
            let shape = Shape::new(coll, 4, 8, false).unwrap();
            let d = demand(&shape);
            assert_eq!((d.nodes, d.chunks, d.part), (4, 8, part), "{coll:?}");
        }
        // Through the routes: a broadcast from the end of the path sends all
        // 8 chunks over the link 0 - 1.
        let g = NetworkName::Linear(4).build().unwrap();
        let routes = Routes::new(&g).unwrap();
        let shape = Shape::new(Collective::Broadcast, 4, 8, false).unwrap();
        assert_eq!(bounds(&routes, &shape, &[0]).load(), 8);
    }
}
