//! The saturated-switch bound of an allgather: where every GPU hangs on one
//! switch that does not copy, and the fill bound F leaves no GPU a spare
//! unit on its one link in, a schedule of F steps would have every switch
//! pass on exactly what its GPUs upload, so nothing could cross from switch
//! to switch: with GPUs on two switches, F + 1 steps at least. On two 8-GPU
//! switches joined at capacity 2 that is 15C + 2.
//!
//! **The conditions.** Every node is a GPU or a forward-only node, the
//! forward-only nodes do not copy (each copy a switch receives is forwarded
//! at most once, and not before the step after it arrives), every GPU has
//! exactly one link, to a forward-only node, and at least two forward-only
//! nodes have GPUs. For a GPU g on switch w let `c_g` be the capacity of
//! `w → g` and `D = C · (g − 1)` the chunks g needs (g GPUs); the switches
//! start empty, so g's link in is idle at step 1 and g needs
//! `F_g = 1 + ⌈D / c_g⌉` steps (its fill bound). Let `F = max F_g`; the bound
//! is stated when `c_g · (F − 1) = D` for every GPU (each is tight at F) and
//! for every switch w the capacity from its GPUs, `I_w = Σ c(g → w)`, is at
//! most the capacity to them, `O_w = Σ c(w → g)`.
//!
//! **The argument.** Suppose a schedule of T = F steps. Every GPU's link in
//! then carries `c_g` distinct chunks at each step 2 … F, so switch w sends
//! `O_w` to its GPUs at each of those steps. Let `u_t` be what w receives
//! from its GPUs at step t (at most `I_w`), `y_t` what it receives from
//! other switches, `x_t` what it sends to them, `Y_t`, `X_t` their sums to
//! step t, and `b_t` the copies it holds unsent at the end of step t. It
//! sends nothing at step 1 (it holds nothing before), and nothing reaches
//! it from a switch then (they hold nothing either): `b_1 = u_1 ≤ I_w`. For
//! t ≥ 2, `b_t = b_{t−1} + u_t + y_t − O_w − x_t`, and what it sends at
//! step t + 1 it held at the end of step t: `O_w + x_{t+1} ≤ b_t`. As
//! `u_s ≤ I_w ≤ O_w`, `b_t ≤ I_w + Y_t − X_t`, so `x_{t+1} ≤ Y_t − X_t`:
//! `X_{t+1} ≤ Y_t` for each switch. Summed over the switches (every link
//! between switches is received the step it is sent: `Σ Y_t = Σ X_t`),
//! `Σ X_{t+1} ≤ Σ X_t`, and `Σ X_1 = 0`: nothing ever leaves a switch for
//! another. But a GPU on one switch needs the chunks of a GPU on another,
//! and its only link is to its own switch: a contradiction, so T ≥ F + 1.
//! Switch limits and ports only slow a schedule down (the argument uses
//! capacities as upper bounds and the saturation the demand forces).

use super::throughput;
use crate::network::Graph;
use crate::schedule::Collective;

/// The name of the saturated-switch bound in every bound set of a fabric.
pub const SATURATED_SWITCHES: &str = "saturated switches";

/// The saturated-switch bound of `collective` on `graph` (allgather only),
/// `F + 1` of the module notes, or `None` where its conditions fail.
pub fn allgather_bound(graph: &Graph, collective: Collective) -> Option<u64> {
    let Collective::Allgather { chunks } = collective else {
        return None;
    };
    if graph.fabric().multicast() {
        return None;
    }
    let gpus = throughput::gpus(graph);
    let g = gpus.len() as u64;
    if g < 2 {
        return None;
    }
    let need = u64::from(chunks) * (g - 1);
    // By switch: capacity from its GPUs, to them; and each GPU's c_g.
    let n = graph.nodes();
    let mut up = vec![0u64; n];
    let mut down = vec![0u64; n];
    let mut hosts = vec![false; n];
    let mut links_in: Vec<u64> = Vec::with_capacity(gpus.len());
    for &x in &gpus {
        let mut links = graph.links_of(x);
        let (Some(l), None) = (links.next(), links.next()) else {
            return None;
        };
        let (_, w) = graph.endpoints(l);
        if !graph.is_forward_only(w) {
            return None;
        }
        let back = graph.link(w, x)?;
        up[w as usize] += u64::from(graph.capacity(l));
        let c = u64::from(graph.capacity(back));
        down[w as usize] += c;
        hosts[w as usize] = true;
        links_in.push(c);
    }
    if hosts.iter().filter(|&&h| h).count() < 2 || (0..n).any(|w| up[w] > down[w]) {
        return None;
    }
    let fill = links_in.iter().map(|&c| 1 + need.div_ceil(c)).max()?;
    links_in
        .iter()
        .all(|&c| c * (fill - 1) == need)
        .then_some(fill + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::{FabricSpec, NetworkName};

    /// `machines` switches of `per` GPUs each (GPU links capacity 1), the
    /// switches on a path at capacity `between`.
    fn switches(machines: u32, per: u32, between: u64, multicast: bool) -> Graph {
        let gpus = machines * per;
        let mut lists = vec![Vec::new(); (gpus + machines) as usize];
        let mut join = |a: u32, b: u32| {
            lists[a as usize].push(b);
            lists[b as usize].push(a);
        };
        for x in 0..gpus {
            join(x, gpus + x / per);
        }
        for m in 1..machines {
            join(gpus + m - 1, gpus + m);
        }
        for l in &mut lists {
            l.sort_unstable();
        }
        let g = Graph::from_adjacency(lists).unwrap();
        let mut spec = FabricSpec {
            forward_only: (gpus..gpus + machines).collect(),
            multicast,
            ..FabricSpec::default()
        };
        for m in 1..machines {
            spec.capacities.push((gpus + m - 1, gpus + m, between));
            spec.capacities.push((gpus + m, gpus + m - 1, between));
        }
        g.with_fabric(spec).unwrap()
    }

    #[test]
    fn two_switches_that_do_not_copy_need_a_step_past_the_fill() {
        let g = switches(2, 8, 2, false);
        for chunks in 1..=8u32 {
            let c = Collective::Allgather { chunks };
            assert_eq!(
                allgather_bound(&g, c),
                Some(15 * u64::from(chunks) + 2),
                "{chunks} chunks"
            );
        }
        assert_eq!(allgather_bound(&g, Collective::broadcast(0)), None);
    }

    #[test]
    fn one_switch_or_copies_or_a_gpu_with_two_links_prove_nothing() {
        let one = "nvswitch 8"
            .parse::<NetworkName>()
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(
            allgather_bound(&one, Collective::Allgather { chunks: 1 }),
            None
        );
        let copying = switches(2, 8, 2, true);
        assert_eq!(
            allgather_bound(&copying, Collective::Allgather { chunks: 1 }),
            None
        );
        let two = "cluster 2 1 dgx1"
            .parse::<NetworkName>()
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(
            allgather_bound(&two, Collective::Allgather { chunks: 1 }),
            None
        );
        // Three switches on a path: still a GPU per link, every GPU tight.
        let three = switches(3, 2, 1, false);
        assert_eq!(
            allgather_bound(&three, Collective::Allgather { chunks: 1 }),
            Some(1 + 5 + 1)
        );
    }
}
