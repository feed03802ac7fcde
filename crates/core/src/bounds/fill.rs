//! The fill bound of a fabric: the links into a node set S are idle until
//! their tails can hold something S needs, so the capacity entering S ramps
//! up over the first steps (a switch starts empty), and the items S must
//! take in need more steps than the throughput bound, which counts every
//! link busy from the first step.
//!
//! **The argument (allgather).** Steps are numbered 1, 2, …; a link of
//! capacity c carries at most c items a step, each one its tail held at the
//! end of the step before (store and forward; a GPU holds its own block from
//! the start, a forward-only node nothing). Let S be a node set with a GPU
//! and R the GPUs outside S. Each of the `C · |R|` chunks of R's blocks is
//! needed by a GPU of S, so it crosses into S at least once, over a link
//! `u → v` with u outside S and v in S, and distinct chunks take distinct
//! units of capacity (a packet carries one item). If it crosses at step t,
//! u held it at the end of step t − 1, so `d(R, u) ≤ t − 1`, d the hop
//! distance on the fabric from the nearest GPU of R (no item moves faster
//! than a hop a step, whatever the route). So at step t the chunks entering
//! S are at most `A(t) = min(cap(S), Σ c(u → v))` over the links entering S
//! whose tail has `d(R, u) ≤ t − 1`, where `cap(S)` is the throughput
//! bound's capacity of S ([`super::throughput::capacity`], links at capacity
//! and the switch limits where sound, never below what can enter): both
//! terms bound what enters at step t, so their minimum does. Hence a
//! schedule of T steps has `Σ_{t=1..T} A(t) ≥ C · |R|`, and the least such T
//! is a lower bound. It holds:
//!
//! - with any capacities (counted in `A`) and switch limits (counted in
//!   `cap(S)` as the throughput bound counts them, or left out, which only
//!   raises `A`);
//! - with multicast switches: copying lets a node send an item on several
//!   links at once, but each link still carries at most c items a step and
//!   its tail must hold them first;
//! - under K ports, single-port and any buffering (each only slows a
//!   schedule down); the distances count every node, GPUs and switches.
//!
//! **The other collectives.** The same count with, for each:
//!
//! - broadcast from root r: S without r, R = {r}, C chunks must enter S;
//! - total exchange: R the GPUs outside S; each GPU of S takes a distinct
//!   packet from each GPU of R, so `|S ∩ GPUs| · |R|` packets enter S;
//! - allreduce: S with GPUs inside and outside, R the GPUs outside; each of
//!   the `g · C` sums needs, at a GPU of S, a contribution from R, so at
//!   least one packet of each sum that carries one crosses into S, from a
//!   tail that holds a contribution of R (`d(R, u) ≤ t − 1`);
//! - reduce-scatter (reduce to r): the time-reversed count on the reversed
//!   fabric. S with a GPU, R the GPUs outside S (R = {r}, r ∉ S): S's
//!   contribution to each of the `C · |R|` chunks of R's blocks (the C
//!   chunks of r) leaves S at least once, by a distinct packet, over a link
//!   `v → u` (v in S, u outside) at some step t, and from u it still needs
//!   `d(u, R)` hops to reach its GPU: `t + d(u, R) ≤ T`. Numbering steps
//!   from the end (s = T + 1 − t) this is `d(u, R) ≤ s − 1` with d on the
//!   reversed fabric: the allgather's count on the reversed fabric.
//!
//! Scatter and gather are left out (the root's links bound them).
//!
//! **The sets tried.** Each GPU alone (its in-links: on `nvswitch N` the one
//! link from the switch, idle at step 1, so `(N − 1)·C + 1`), the
//! throughput bound's set, and that set without its forward-only nodes
//! (whose links in are then from the switches, idle longer). Any set proves
//! a bound; [`recheck`] recomputes the bound of a stated set from the
//! fabric alone.

use super::throughput::{self, Crossing, NotAProof};
use crate::network::Graph;
use crate::schedule::Collective;

/// The name of the fill bound in every bound set of a fabric.
pub const FILL: &str = "fill";

/// From a step on, the capacity entering S that tails can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Ramp {
    /// The first step at which this capacity can be used.
    pub from_step: u64,
    /// Chunks a step that can enter S from that step on (at most `cap(S)`).
    pub capacity: u64,
}

/// A fill bound and the node set that proves it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FillCut {
    /// The least steps T with `Σ_{t ≤ T} A(t) ≥ items`.
    pub steps: u64,
    /// The set S, increasing (forward-only nodes included).
    pub set: Vec<u32>,
    /// The items that must cross S (all chunks counted).
    pub items: u64,
    /// `cap(S)`: the most that can cross S in any step.
    pub capacity: u64,
    /// `A(t)`, by the step it changes at, increasing (the first entry is
    /// step 1 when a link can be used from the start).
    pub ramp: Vec<Ramp>,
}

/// What the collective asks of a set: the items that must cross it, the
/// direction, and the GPUs the distances are measured from.
struct Demand {
    items: u64,
    crossing: Crossing,
    from: Vec<u32>,
}

fn members(n: usize, set: &[u32]) -> Vec<bool> {
    let mut inside = vec![false; n];
    for &x in set {
        inside[x as usize] = true;
    }
    inside
}

/// What `collective` needs to cross the set `inside`, or why the set proves
/// no fill bound.
fn demand(graph: &Graph, collective: Collective, inside: &[bool]) -> Result<Demand, NotAProof> {
    use Collective as C;
    let gpus = throughput::gpus(graph);
    let (within, outside): (Vec<u32>, Vec<u32>) = gpus.iter().partition(|&&x| inside[x as usize]);
    if within.is_empty() {
        return Err(NotAProof::Unfit("holds no GPU"));
    }
    if outside.is_empty() {
        return Err(NotAProof::Unfit("leaves no GPU outside"));
    }
    let c = u64::from(collective.chunks());
    let r = outside.len() as u64;
    let (items, crossing, from) = match collective {
        C::Allgather { .. } => (c * r, Crossing::Into, outside),
        C::ReduceScatter { .. } => (c * r, Crossing::OutOf, outside),
        C::Allreduce { .. } => (c * gpus.len() as u64, Crossing::Into, outside),
        C::TotalExchange => (within.len() as u64 * r, Crossing::Into, outside),
        C::Broadcast { root, .. } | C::Reduce { root, .. } => {
            if root as usize >= inside.len() || graph.is_forward_only(root) {
                return Err(NotAProof::Unfit("has no GPU root outside"));
            }
            if inside[root as usize] {
                return Err(NotAProof::Unfit("holds the root"));
            }
            let crossing = if matches!(collective, C::Broadcast { .. }) {
                Crossing::Into
            } else {
                Crossing::OutOf
            };
            (c, crossing, vec![root])
        }
        other => return Err(NotAProof::NoThroughput(other.to_string())),
    };
    Ok(Demand {
        items,
        crossing,
        from,
    })
}

/// The links of `graph` as `crossing` sees them (reversed for
/// [`Crossing::OutOf`]): `(tail, head, capacity)`.
fn arcs(graph: &Graph, crossing: Crossing) -> Vec<(u32, u32, u64)> {
    (0..graph.directed_links() as u32)
        .map(|l| {
            let (a, b) = graph.endpoints(l);
            let c = u64::from(graph.capacity(l));
            match crossing {
                Crossing::Into => (a, b, c),
                Crossing::OutOf => (b, a, c),
            }
        })
        .collect()
}

/// Hops from the nearest node of `from` over `arcs` (`u64::MAX`: never).
fn distances(n: usize, arcs: &[(u32, u32, u64)], from: &[u32]) -> Vec<u64> {
    let mut out = vec![Vec::new(); n];
    for &(a, b, _) in arcs {
        out[a as usize].push(b);
    }
    let mut d = vec![u64::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for &s in from {
        if d[s as usize] != 0 {
            d[s as usize] = 0;
            queue.push_back(s);
        }
    }
    while let Some(x) = queue.pop_front() {
        for &y in &out[x as usize] {
            if d[y as usize] == u64::MAX {
                d[y as usize] = d[x as usize] + 1;
                queue.push_back(y);
            }
        }
    }
    d
}

/// The least T with `Σ_{t=1..T} A(t) ≥ items`, A given by `ramp`; `None`
/// when the ramp never carries them.
fn least_steps(items: u64, ramp: &[Ramp]) -> Option<u64> {
    if items == 0 {
        return Some(0);
    }
    let (mut done, mut t) = (0u64, 0u64);
    for (i, r) in ramp.iter().enumerate() {
        // Steps before this entry carry nothing more than before it.
        t = t.max(r.from_step - 1);
        let until = ramp.get(i + 1).map_or(u64::MAX, |next| next.from_step - 1);
        if r.capacity == 0 {
            t = until;
            continue;
        }
        let need = (items - done).div_ceil(r.capacity);
        if need <= until - t {
            return Some(t + need);
        }
        done = done.saturating_add(r.capacity.saturating_mul(until - t));
        t = until;
    }
    None
}

/// The fill bound that the node set `set` proves for `collective` on
/// `graph`, from the fabric alone: what the search states and what
/// `verify-bound` checks a stated bound against.
pub fn recheck(graph: &Graph, collective: Collective, set: &[u32]) -> Result<FillCut, NotAProof> {
    let n = graph.nodes();
    if let Some(&x) = set.iter().find(|&&x| x as usize >= n) {
        return Err(NotAProof::UnknownNode(x));
    }
    let inside = members(n, set);
    let demand = demand(graph, collective, &inside)?;
    let capacity = throughput::capacity(graph, &inside, demand.crossing);
    if capacity == 0 {
        return Err(NotAProof::Unfit("cannot be crossed"));
    }
    let arcs = arcs(graph, demand.crossing);
    let d = distances(n, &arcs, &demand.from);
    // Each link entering S adds its capacity from step d(tail) + 1 on.
    let mut opens: Vec<(u64, u64)> = arcs
        .iter()
        .filter(|&&(a, b, _)| !inside[a as usize] && inside[b as usize])
        .filter(|&&(a, _, _)| d[a as usize] != u64::MAX)
        .map(|&(a, _, c)| (d[a as usize] + 1, c))
        .collect();
    opens.sort_unstable();
    let mut ramp: Vec<Ramp> = Vec::new();
    let mut open = 0u64;
    for (step, c) in opens {
        open += c;
        let now = open.min(capacity);
        match ramp.last_mut() {
            Some(last) if last.from_step == step => last.capacity = now,
            _ => ramp.push(Ramp {
                from_step: step,
                capacity: now,
            }),
        }
    }
    ramp.dedup_by(|later, earlier| later.capacity == earlier.capacity);
    let steps = least_steps(demand.items, &ramp).ok_or(NotAProof::Unfit("cannot be crossed"))?;
    let mut set = set.to_vec();
    set.sort_unstable();
    set.dedup();
    Ok(FillCut {
        steps,
        set,
        items: demand.items,
        capacity,
        ramp,
    })
}

/// The throughput bound's `set`, and the same set without its forward-only
/// nodes when it has any: the sets the fill and entry-and-spread bounds try
/// beside each GPU alone.
pub(super) fn set_and_its_gpus(graph: &Graph, set: &[u32]) -> Vec<Vec<u32>> {
    let gpus_only: Vec<u32> = set
        .iter()
        .copied()
        .filter(|&x| (x as usize) < graph.nodes() && !graph.is_forward_only(x))
        .collect();
    if gpus_only.len() == set.len() {
        vec![set.to_vec()]
    } else {
        vec![set.to_vec(), gpus_only]
    }
}

/// The best fill bound of `collective` on `graph` over the sets of the
/// module notes, given the throughput bound's set (if any); ties: the first
/// found. `None` when no set proves one (fewer than two GPUs, or a
/// collective without one).
pub fn best(
    graph: &Graph,
    collective: Collective,
    throughput_set: Option<&[u32]>,
) -> Option<FillCut> {
    let mut candidates: Vec<Vec<u32>> = throughput::gpus(graph)
        .into_iter()
        .map(|x| vec![x])
        .collect();
    if let Some(set) = throughput_set {
        candidates.extend(set_and_its_gpus(graph, set));
    }
    let mut best: Option<FillCut> = None;
    for set in candidates {
        if let Ok(cut) = recheck(graph, collective, &set)
            && best.as_ref().is_none_or(|b| cut.steps > b.steps)
        {
            best = Some(cut);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    fn named(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn an_empty_switch_delays_every_gpu_by_one_step() {
        // nvswitch 8: a GPU's one link in is from the switch, idle at step 1.
        let g = named("nvswitch 8");
        for chunks in 1..=8u32 {
            for c in [
                Collective::Allgather { chunks },
                Collective::ReduceScatter { chunks },
            ] {
                let cut = best(&g, c, None).unwrap();
                assert_eq!(cut.steps, 7 * u64::from(chunks) + 1, "{c}");
                assert_eq!(cut.set.len(), 1);
                assert_eq!(
                    cut.ramp,
                    vec![Ramp {
                        from_step: 2,
                        capacity: 1
                    }]
                );
            }
            let ar = best(&g, Collective::Allreduce { chunks }, None).unwrap();
            assert_eq!(ar.steps, 8 * u64::from(chunks) + 1);
            let b = best(
                &g,
                Collective::broadcast(0).with_chunks(chunks).unwrap(),
                None,
            )
            .unwrap();
            assert_eq!(b.steps, u64::from(chunks) + 1);
        }
        let te = best(&g, Collective::TotalExchange, None).unwrap();
        assert_eq!(te.steps, 8);
    }

    #[test]
    fn links_from_gpus_are_busy_at_once() {
        // No switch: every tail holds data at step 1; the fill bound is the
        // throughput bound of the same set.
        let g = named("dgx1");
        for chunks in 1..=8u32 {
            let c = Collective::Allgather { chunks };
            let cut = best(&g, c, None).unwrap();
            assert_eq!(cut.steps, (7 * u64::from(chunks)).div_ceil(6));
            assert_eq!(cut.ramp[0].from_step, 1);
        }
    }

    #[test]
    fn a_ramp_is_summed_step_by_step() {
        let ramp = [
            Ramp {
                from_step: 2,
                capacity: 1,
            },
            Ramp {
                from_step: 4,
                capacity: 3,
            },
        ];
        // Steps 2, 3 carry 1 each, then 3 a step.
        assert_eq!(least_steps(1, &ramp), Some(2));
        assert_eq!(least_steps(2, &ramp), Some(3));
        assert_eq!(least_steps(3, &ramp), Some(4));
        assert_eq!(least_steps(5, &ramp), Some(4));
        assert_eq!(least_steps(6, &ramp), Some(5));
        assert_eq!(least_steps(0, &ramp), Some(0));
        assert_eq!(least_steps(1, &[]), None);
    }

    #[test]
    fn stated_sets_are_rechecked() {
        let g = named("nvswitch 8");
        let c = Collective::Allgather { chunks: 2 };
        assert_eq!(recheck(&g, c, &[3]).unwrap().steps, 15);
        assert!(matches!(
            recheck(&g, c, &[9]),
            Err(NotAProof::UnknownNode(9))
        ));
        assert!(
            recheck(&g, c, &[8]).is_err(),
            "the switch alone holds no GPU"
        );
        assert!(recheck(&g, c, &(0..9).collect::<Vec<_>>()).is_err());
        assert!(recheck(&g, Collective::Scatter(0), &[1]).is_err());
        let b = Collective::broadcast(0);
        assert!(recheck(&g, b, &[0]).is_err(), "the root inside");
    }
}
