//! The entry-and-spread bound of a fabric: the items a node set S must take
//! in enter it a few a step, so the last of them first enters S late, at
//! few nodes of S; from there it still has to reach every GPU of S, which
//! takes steps of its own. The fill bound ([`super::fill`]) counts the
//! first part only; on two DGX-1s joined by a NIC (`cluster 2 1 dgx1`) it
//! states 8C where no schedule takes fewer than 8C + 2 steps.
//!
//! **The argument (allgather, broadcast).** Steps are numbered 1, 2, …, as
//! in [`super::fill`]: a link of capacity c carries at most c items a step,
//! each held by its tail at the end of the step before; a GPU holds its own
//! block from the start, a forward-only node nothing. Let S be a node set
//! with a GPU, and the items those of [`super::fill`]: the `D = C · |R|`
//! chunks of the GPUs R outside S (broadcast: the root's C chunks, the root
//! outside S). Each item is needed by every GPU of S and held by no node of
//! S at the start, so it crosses into S; call its *first entry* the step at
//! which it first does. Let `A(t)` be the fill bound's capacity at step t
//! (what can enter S at step t from tails that can hold an item of R) and
//! `P(t) = A(1) + … + A(t)`.
//!
//! 1. *Entry.* Distinct items take distinct units of the capacity entering
//!    S (a packet carries one item), so at most `P(t)` items first enter S
//!    by step t. Let t* be the latest first entry of a schedule; then
//!    `P(t*) ≥ D`: t* is at least the fill bound `T_f`. The items first
//!    entering at t* number `k ≥ max(1, D − P(t* − 1))`; each takes a unit
//!    of `A(t*)` for each node of S it enters at, so the one among them
//!    entering at the fewest nodes enters at `m ≤ A(t*) − k + 1` nodes, and
//!    at no more than the nodes of S with a link from outside (the entry
//!    nodes E).
//! 2. *Spread.* At the end of step t* that item x is held in S by those m
//!    entry nodes and by no other node of S. In each later step the nodes
//!    of S holding x grow at most by their out-neighbours in S (any node of
//!    S relays: a GPU or a switch, copying or not — not copying is only
//!    slower) and by the nodes x enters again from outside S, at most
//!    `c' = min(cap(S), |E|)` of them a step, `cap(S)` the throughput bound's
//!    capacity of S (every route that leaves S and comes back enters S
//!    again over those links, and every node outside S may hold x). Link
//!    capacities, ports and switch limits inside S are not counted (each
//!    only slows the spread). The spread `σ(m)` is the least number of steps
//!    in which some m entry nodes, so grown, cover every GPU of S; x reaches
//!    them all no sooner than step `t* + σ(m)`.
//!
//! Hence a schedule of T steps has `T ≥ min over t* ≥ T_f of t* + σ(m(t*))`,
//! `m(t*) = min(|E|, A(t*) − max(1, D − P(t* − 1)) + 1)`; σ never grows
//! with m, so the minimum is taken at the first few t* (until t* alone
//! reaches the best so far). It holds with any capacities and switch limits
//! (counted only where the throughput and fill bounds count them), with
//! multicast switches (copies are allowed in the spread), under K ports and
//! single-port, and with any buffering.
//!
//! **Computing σ.** Exactly, over the sets of holders: start from every
//! m-subset of E; a step takes a holder set H to `H ∪ N_S(H)` plus any `c'`
//! entry nodes (more holders never hurt, so only the largest choices are
//! kept); σ is the first step at which one set covers S's GPUs. When S has
//! more than [`MAX_SPREAD_NODES`] nodes or the sets tried would pass
//! [`MAX_SPREAD_STATES`], σ is the count bound instead: a holder set of h
//! nodes has at most `h + (the h largest out-degrees in S) + c'` nodes a
//! step later, and covering S's g GPUs needs g holders; it is never above
//! the exact σ, so the bound stays sound, only weaker.
//!
//! **The sets tried.** Those of the fill bound: the throughput bound's set
//! (on `cluster K B MACHINE` one machine), it without its forward-only nodes,
//! and each GPU alone (σ = 0 there: the fill bound). It is stated only where
//! the spread adds a step to the fill bound of its set. Any set proves a
//! bound; [`recheck`] recomputes the bound of a stated set from the fabric
//! alone.
//! Reduce-scatter, reduce, allreduce and the total exchange are not given
//! this bound (their items are not each needed by every GPU of S).

use super::fill::{self, FillCut, Ramp};
use super::throughput::{self, NotAProof};
use crate::network::Graph;
use crate::schedule::Collective;

/// The name of the entry-and-spread bound in every bound set of a fabric.
pub const ENTRY_SPREAD: &str = "entry-spread";

/// The most nodes of S for which the spread is computed exactly (holder
/// sets as bit sets); a larger S gets the count bound.
pub const MAX_SPREAD_NODES: usize = 64;

/// The most holder sets one exact spread may visit; beyond it, the count
/// bound is used (checked before each step's sets are made).
pub const MAX_SPREAD_STATES: u64 = 1 << 16;

/// The most holder sets of one step compared pairwise to keep the largest.
const MAX_PRUNED_SETS: usize = 2048;

/// An entry-and-spread bound and the node set that proves it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EntrySpreadCut {
    /// `last_entry + spread`, the least over the last first entries t*.
    pub steps: u64,
    /// The set S, increasing (forward-only nodes included).
    pub set: Vec<u32>,
    /// The items D that must enter S (all chunks counted).
    pub items: u64,
    /// `cap(S)`: the most that can enter S in any step.
    pub capacity: u64,
    /// The fill bound of S: no item can be the last to first enter S
    /// before this step.
    pub fill: u64,
    /// The step t* of the least `t* + σ(m(t*))`.
    pub last_entry: u64,
    /// `m(t*)`: the most nodes of S that last item first enters at.
    pub entry_nodes: u64,
    /// `σ(m(t*))`: the least steps from those nodes to every GPU of S.
    pub spread: u64,
    /// Whether σ was computed exactly (false: by the count bound).
    pub exact: bool,
}

/// S as the spread sees it, nodes numbered by their place in S.
struct Inside {
    /// By node of S, its out-neighbours in S (a bit set).
    next: Vec<u64>,
    /// The nodes of S with a link from outside S.
    entries: u64,
    /// The GPUs of S.
    gpus: u64,
    /// Entry nodes that x can enter a step after its first entry: `c'`.
    per_step: u64,
}

/// `P(t) = A(1) + … + A(t)` for the ramp of a fill bound.
fn carried(ramp: &[Ramp], t: u64) -> u64 {
    let mut total = 0u64;
    for (i, r) in ramp.iter().enumerate() {
        if r.from_step > t {
            break;
        }
        let until = ramp
            .get(i + 1)
            .map_or(t, |next| (next.from_step - 1).min(t));
        total = total.saturating_add(r.capacity.saturating_mul(until + 1 - r.from_step));
    }
    total
}

/// `A(t)`.
fn at(ramp: &[Ramp], t: u64) -> u64 {
    ramp.iter()
        .take_while(|r| r.from_step <= t)
        .last()
        .map_or(0, |r| r.capacity)
}

fn bits(set: u64) -> u64 {
    u64::from(set.count_ones())
}

/// The least steps after which some holder set grown from `m` entry nodes
/// covers S's GPUs, by the count bound of the module notes.
fn counted_spread(s: &Inside, m: u64) -> u64 {
    let n = s.next.len() as u64;
    let need = bits(s.gpus);
    let mut degrees: Vec<u64> = s.next.iter().map(|&x| bits(x)).collect();
    degrees.sort_unstable_by(|a, b| b.cmp(a));
    let (mut h, mut steps) = (m.min(n), 0u64);
    while h < need {
        let reach: u64 = degrees.iter().take(h as usize).sum();
        let grown = (h + reach + s.per_step).min(n);
        if grown <= h {
            // Never covered: no schedule exists; count no spread.
            return 0;
        }
        h = grown;
        steps += 1;
    }
    steps
}

/// The m-subsets of the bit set `from` (all of it when m ≥ its size),
/// or `None` when there would be more than `limit`.
fn subsets(from: u64, m: u64, limit: u64) -> Option<Vec<u64>> {
    let members: Vec<u64> = (0..64).filter(|&i| from >> i & 1 == 1).collect();
    let m = m.min(members.len() as u64) as usize;
    if choose(members.len() as u64, m as u64) > limit {
        return None;
    }
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..m).collect();
    loop {
        out.push(pick.iter().fold(0u64, |acc, &i| acc | 1 << members[i]));
        // The next combination in lexicographic order.
        let Some(i) = (0..m).rev().find(|&i| pick[i] < members.len() - m + i) else {
            return Some(out);
        };
        pick[i] += 1;
        for j in i + 1..m {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// n choose k, saturating.
fn choose(n: u64, k: u64) -> u64 {
    let k = k.min(n - k.min(n));
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// σ(m) exactly, or `None` when the sets would pass [`MAX_SPREAD_STATES`]
/// or never cover S's GPUs.
fn exact_spread(s: &Inside, m: u64) -> Option<u64> {
    let covers = |h: u64| h & s.gpus == s.gpus;
    let mut budget = MAX_SPREAD_STATES;
    let mut level = subsets(s.entries, m, budget)?;
    budget -= level.len() as u64;
    let mut steps = 0u64;
    loop {
        if level.iter().any(|&h| covers(h)) {
            return Some(steps);
        }
        let mut next = std::collections::BTreeSet::new();
        for &h in &level {
            let mut grown = h;
            for (x, &out) in s.next.iter().enumerate() {
                if h >> x & 1 == 1 {
                    grown |= out;
                }
            }
            if covers(grown) {
                return Some(steps + 1);
            }
            let choices = subsets(s.entries & !grown, s.per_step, budget)?;
            budget = budget.checked_sub(choices.len() as u64)?;
            next.extend(choices.into_iter().map(|z| grown | z));
        }
        // Keep only the largest sets (a subset of another never does
        // better) while comparing them all is cheap.
        let all: Vec<u64> = next.into_iter().collect();
        let kept: Vec<u64> = if all.len() <= MAX_PRUNED_SETS {
            all.iter()
                .copied()
                .filter(|&h| !all.iter().any(|&o| o != h && o & h == h))
                .collect()
        } else {
            all
        };
        if kept == level {
            return None;
        }
        level = kept;
        steps += 1;
    }
}

/// S's holders model, or `None` when S has more than [`MAX_SPREAD_NODES`].
fn inside(graph: &Graph, set: &[u32], capacity: u64) -> Option<Inside> {
    if set.len() > MAX_SPREAD_NODES {
        return None;
    }
    let mut place = vec![usize::MAX; graph.nodes()];
    for (i, &x) in set.iter().enumerate() {
        place[x as usize] = i;
    }
    let mut next = vec![0u64; set.len()];
    let mut entries = 0u64;
    for l in 0..graph.directed_links() as u32 {
        let (a, b) = graph.endpoints(l);
        let (pa, pb) = (place[a as usize], place[b as usize]);
        match (pa != usize::MAX, pb != usize::MAX) {
            (true, true) => next[pa] |= 1 << pb,
            (false, true) => entries |= 1 << pb,
            _ => {}
        }
    }
    let gpus = set
        .iter()
        .enumerate()
        .filter(|&(_, &x)| !graph.is_forward_only(x))
        .fold(0u64, |acc, (i, _)| acc | 1 << i);
    Some(Inside {
        next,
        entries,
        gpus,
        per_step: capacity.min(bits(entries)),
    })
}

/// The bound from S's fill bound `fill` and its holders model `s`.
fn bound(fill: &FillCut, s: Option<&Inside>) -> EntrySpreadCut {
    let mut best = EntrySpreadCut {
        steps: fill.steps,
        set: fill.set.clone(),
        items: fill.items,
        capacity: fill.capacity,
        fill: fill.steps,
        last_entry: fill.steps,
        entry_nodes: 0,
        spread: 0,
        exact: false,
    };
    let Some(s) = s else {
        // S too large to number: the count bound needs the same model, so
        // no spread is counted.
        return best;
    };
    let mut known: Vec<(u64, u64, bool)> = Vec::new();
    let mut sigma = |m: u64| -> (u64, bool) {
        if let Some(&(_, v, e)) = known.iter().find(|k| k.0 == m) {
            return (v, e);
        }
        let counted = counted_spread(s, m);
        let (v, e) = match exact_spread(s, m) {
            Some(v) => (v.max(counted), true),
            None => (counted, false),
        };
        known.push((m, v, e));
        (v, e)
    };
    let mut first = true;
    let mut t = fill.steps;
    // Later t* can only win while t* alone is below the best so far.
    while first || t < best.steps {
        let k = fill
            .items
            .saturating_sub(carried(&fill.ramp, t.saturating_sub(1)))
            .max(1);
        let m = (at(&fill.ramp, t) + 1)
            .saturating_sub(k)
            .min(bits(s.entries))
            .max(1);
        let (spread, exact) = sigma(m);
        if first || t + spread < best.steps {
            best.steps = t + spread;
            best.last_entry = t;
            best.entry_nodes = m;
            best.spread = spread;
            best.exact = exact;
        }
        first = false;
        t += 1;
    }
    best
}

/// The entry-and-spread bound that the node set `set` proves for
/// `collective` on `graph`, from the fabric alone: what the search states
/// and what `verify-bound` checks a stated bound against.
pub fn recheck(
    graph: &Graph,
    collective: Collective,
    set: &[u32],
) -> Result<EntrySpreadCut, NotAProof> {
    if !matches!(
        collective,
        Collective::Allgather { .. } | Collective::Broadcast { .. }
    ) {
        return Err(NotAProof::NoThroughput(format!(
            "{collective} (entry and spread)"
        )));
    }
    let fill = fill::recheck(graph, collective, set)?;
    let model = inside(graph, &fill.set, fill.capacity);
    Ok(bound(&fill, model.as_ref()))
}

/// The best entry-and-spread bound of `collective` on `graph` over the sets
/// of the module notes, given the throughput bound's set (if any); ties: the
/// first found. `None` for a collective without one or when no set adds a
/// step of spread to its fill bound (the bound is then a fill bound, stated
/// as such).
pub fn best(
    graph: &Graph,
    collective: Collective,
    throughput_set: Option<&[u32]>,
) -> Option<EntrySpreadCut> {
    let mut candidates: Vec<Vec<u32>> = throughput_set
        .map(|set| fill::set_and_its_gpus(graph, set))
        .unwrap_or_default();
    candidates.extend(throughput::gpus(graph).into_iter().map(|x| vec![x]));
    let mut best: Option<EntrySpreadCut> = None;
    for set in candidates {
        if let Ok(cut) = recheck(graph, collective, &set)
            && cut.spread > 0
            && best.as_ref().is_none_or(|b| cut.steps > b.steps)
        {
            best = Some(cut);
        }
    }
    best
}

#[cfg(test)]
mod tests;
