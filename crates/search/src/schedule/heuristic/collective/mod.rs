//! Schedules of the collectives that copy or combine, constructed at once on
//! any network (`search --collective X --heuristic`, and the first schedule
//! of the anytime search): candidates the caller replays and judges.
//!
//! - **Copies** (broadcast, allgather): the greedy list scheduler of
//!   `greedy.rs` (any network, any ports, any chunks: the rarest item first
//!   over every free link), and for allgather the ring, bucket (torus) and
//!   recursive doubling (hypercube) algorithms of `structured.rs` where the
//!   graph has that shape.
//! - **Combining, by time reversal.** In a valid copy schedule each node
//!   receives each item exactly once (a second copy is refused), so the sends
//!   of one item form a tree from its block, each node receiving before it
//!   sends on. Reversed (step t → T + 1 − t, every send turned round) each
//!   node sends its item once, to its parent, after every child has sent to
//!   it: it carries the combination of its subtree, disjoint from what the
//!   parent holds and from what its siblings send. So a reversed broadcast R
//!   is a reduce R, and a reversed allgather a reduce-scatter (on a
//!   hypercube, recursive doubling reversed is recursive halving); ports and
//!   links are used as often, turned round.
//! - **Allreduce**: a reduce-scatter (a reversed allgather), then the same
//!   allgather: after the first, node b holds the complete combination of
//!   its items, and each copy the second makes replaces a partial by one
//!   that contains it.
//!
//! Nothing here is trusted: the caller replays what it gets (the core's
//! replay) and judges it; the unit tests replay every construction.

mod greedy;
mod structured;

use crate::schedule::StopToken;
use greedy::{Choice, Order};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Items, Ports, TimedSend, item_destination};

/// The most sends a construction may make (it holds them whole, 20 bytes each).
pub const MAX_COLLECTIVE_SENDS: u64 = 1 << 26;

/// The greedy allgather is run in more orders while N·items · tries stays
/// below this.
const GREEDY_WORK: u64 = 4_000_000;

/// The most orders tried.
const GREEDY_TRIES: u64 = 4;

/// The most work (`greedy_work`, in 64-bit words) the greedy list
/// scheduler is given where a structured construction (ring, buckets,
/// recursive doubling) exists already: beyond, only that one is made (an
/// allgather in 4,000 chunks on the 4-cube, 2.4·10^8, took 7 s for its two
/// runs and the rest under load). The greedy is not bounded otherwise, but
/// polls the run's stop token.
pub const MAX_GREEDY_WORK_BESIDE_SHAPES: u64 = 1 << 28;

/// About the work of one greedy run: N·items/64 words a step, over at least
/// sends/L steps (every send over one of the L directed links).
fn greedy_work(graph: &Graph, items: usize) -> u64 {
    let nodes = graph.nodes() as u64;
    let states = nodes.saturating_mul(items as u64) / 64;
    let sends = (items as u64).saturating_mul(nodes.saturating_sub(1));
    let steps = sends / (graph.directed_links() as u64).max(1);
    states.saturating_mul(steps)
}

/// A schedule constructed, not yet replayed.
#[derive(Clone, Debug)]
pub struct Construction {
    /// How it was made (`greedy`, `ring`, `recursive doubling`, `reversed
    /// greedy`, …).
    pub method: String,
    /// Its sends, in step order.
    pub sends: Vec<TimedSend>,
    /// Its last step (0 without sends).
    pub time: u32,
}

impl Construction {
    fn new(method: impl Into<String>, sends: Vec<TimedSend>) -> Construction {
        let time = sends.iter().map(|s| s.step).max().unwrap_or(0);
        Construction {
            method: method.into(),
            sends,
            time,
        }
    }

    /// The same schedule backwards in time, every send turned round.
    pub(crate) fn reversed(&self, method: String) -> Construction {
        let t = self.time + 1;
        let mut sends: Vec<TimedSend> = self
            .sends
            .iter()
            .rev()
            .map(|s| TimedSend {
                step: t - s.step,
                from: s.to,
                to: s.from,
                ..*s
            })
            .collect();
        sends.sort_by_key(|s| s.step);
        Construction::new(method, sends)
    }
}

/// Why no schedule is constructed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConstructionError {
    /// A personalised collective (total exchange has its own heuristic).
    #[error("{0} has no construction here (total-exchange: search --network NET --heuristic)")]
    Unsupported(Collective),
    /// The schedule would be too large to hold.
    #[error("{collective} on {nodes} nodes makes {sends} sends, more than the limit of {limit}")]
    TooLarge {
        /// The collective.
        collective: Collective,
        /// The nodes.
        nodes: usize,
        /// The sends it makes.
        sends: u64,
        /// [`MAX_COLLECTIVE_SENDS`].
        limit: u64,
    },
    /// The run's stop token (deadline or signal) came before any
    /// construction was made.
    #[error("no construction was finished: the run was stopped")]
    Stopped,
}

/// The items of a copying collective: C chunks of the root's block
/// (broadcast), or of every node's (allgather), numbered block-major.
pub(crate) struct ItemSet {
    root: Option<u32>,
    nodes: u32,
    chunks: u32,
}

impl ItemSet {
    fn count(&self) -> usize {
        let blocks = if self.root.is_some() { 1 } else { self.nodes };
        blocks as usize * self.chunks as usize
    }

    fn chunks(&self) -> u32 {
        self.chunks
    }

    fn block_of(&self, item: usize) -> u32 {
        self.root.unwrap_or((item / self.chunks as usize) as u32)
    }

    fn packet_of(&self, item: usize) -> (u32, u32) {
        let chunk = (item % self.chunks as usize) as u32;
        self.packet(self.block_of(item), chunk)
    }

    fn packet(&self, block: u32, chunk: u32) -> (u32, u32) {
        (block, item_destination(chunk))
    }
}

/// The sends a schedule of `collective` on `nodes` nodes makes: each node
/// receives each copied item once; allreduce copies twice.
fn sends_of(collective: Collective, nodes: usize) -> u64 {
    let (n, c) = (nodes as u64, u64::from(collective.chunks()));
    let others = n.saturating_sub(1);
    match collective {
        Collective::Broadcast { .. } | Collective::Reduce { .. } => c * others,
        Collective::Allreduce { .. } => 2 * c * n * others,
        _ => c * n * others,
    }
}

/// Every construction of `collective` on `graph` under `ports` (module
/// notes), fastest first. A root must be a node of `graph`.
pub fn constructions(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
) -> Result<Vec<Construction>, ConstructionError> {
    constructions_until(graph, collective, ports, &StopToken::default())
}

/// [`constructions`], the cheap ones (the shapes of `structured.rs`) first;
/// when `stop` says so (polled at each greedy step) those made so far, and
/// [`ConstructionError::Stopped`] when none was.
pub fn constructions_until(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    stop: &StopToken,
) -> Result<Vec<Construction>, ConstructionError> {
    if collective.items() == Items::None {
        return Err(ConstructionError::Unsupported(collective));
    }
    let sends = sends_of(collective, graph.nodes());
    if sends > MAX_COLLECTIVE_SENDS {
        return Err(ConstructionError::TooLarge {
            collective,
            nodes: graph.nodes(),
            sends,
            limit: MAX_COLLECTIVE_SENDS,
        });
    }
    let chunks = collective.chunks();
    let copies = |root| copies(graph, root, chunks, ports, stop);
    let mut made: Vec<Construction> = match collective {
        Collective::Broadcast { root, .. } => copies(Some(root)),
        Collective::Allgather { .. } => copies(None),
        Collective::Reduce { root, .. } => copies(Some(root))
            .iter()
            .map(|c| c.reversed(format!("reversed {}", c.method)))
            .collect(),
        Collective::ReduceScatter { .. } => copies(None)
            .iter()
            .map(|c| c.reversed(format!("reversed {}", c.method)))
            .collect(),
        _ => copies(None).iter().map(allreduce).collect(),
    };
    if made.is_empty() {
        return Err(ConstructionError::Stopped);
    }
    made.sort_by_key(|c| (c.time, c.sends.len()));
    Ok(made)
}

/// The fastest construction (see [`constructions`]).
pub fn construct(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
) -> Result<Construction, ConstructionError> {
    construct_until(graph, collective, ports, &StopToken::default())
}

/// The fastest construction made before `stop` says so (see
/// [`constructions_until`]).
pub fn construct_until(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    stop: &StopToken,
) -> Result<Construction, ConstructionError> {
    let made = constructions_until(graph, collective, ports, stop)?;
    Ok(made
        .into_iter()
        .next()
        .unwrap_or_else(|| Construction::new("none", Vec::new())))
}

/// The copy schedules of broadcast (`root`) or allgather: the structured
/// ones first (cheap), then the greedy runs, each left out once `stop` says so.
fn copies(
    graph: &Graph,
    root: Option<u32>,
    chunks: u32,
    ports: Ports,
    stop: &StopToken,
) -> Vec<Construction> {
    let items = ItemSet {
        root,
        nodes: graph.nodes() as u32,
        chunks,
    };
    if graph.nodes() < 2 {
        return vec![Construction::new("nothing to send", Vec::new())];
    }
    // Made first, listed last (the order ties are kept in).
    let mut shaped = Vec::new();
    if root.is_none() {
        for (name, phases) in structured::shapes(graph) {
            shaped.push(Construction::new(
                name,
                structured::buckets(graph, &phases, &items, ports),
            ));
        }
    }
    let mut made = Vec::new();
    let run_greedy = |choice: Choice| greedy::copies(graph, &items, ports, choice, stop);
    // Small networks get a few orders more: a run costs about N·items/64
    // words a step.
    let work = graph.nodes() as u64 * items.count() as u64;
    let tries = (GREEDY_WORK / work.max(1)).clamp(1, GREEDY_TRIES);
    if !shaped.is_empty() && greedy_work(graph, items.count()) > MAX_GREEDY_WORK_BESIDE_SHAPES {
        return shaped;
    }
    match root {
        Some(r) => {
            made.extend(
                run_greedy(Choice {
                    order: Order::DeepestFirst(r),
                    seed: 0,
                    fewest_first: false,
                })
                .map(|sends| Construction::new("greedy, deepest subtree first", sends)),
            );
            if ports != Ports::All {
                made.extend(
                    run_greedy(Choice {
                        order: Order::Rotating,
                        seed: 0,
                        fewest_first: true,
                    })
                    .map(|sends| Construction::new("greedy", sends)),
                );
            }
        }
        None => {
            for seed in 0..tries {
                for fewest_first in [false, true] {
                    made.extend(
                        run_greedy(Choice {
                            order: Order::Rotating,
                            seed,
                            fewest_first,
                        })
                        .map(|sends| Construction::new("greedy", sends)),
                    );
                }
            }
        }
    }
    made.extend(shaped);
    made
}

/// Reduce-scatter by the reversed allgather `gather`, then `gather` itself.
pub(crate) fn allreduce(gather: &Construction) -> Construction {
    let first = gather.reversed(String::new());
    let shift = first.time;
    let mut sends = first.sends;
    sends.extend(gather.sends.iter().map(|s| TimedSend {
        step: s.step + shift,
        ..*s
    }));
    Construction::new(format!("reversed {0}, then {0}", gather.method), sends)
}

#[cfg(test)]
mod tests;
