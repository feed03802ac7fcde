//! The node-invariant FIFO total exchange of Dimakopoulos and Dimopoulos
//! ("Optimal total exchange in Cayley graphs", sections 5–6), played out node by
//! node in the single-port model, with the paper's lemmas checked as it runs.
//!
//! Why it is here: a table (the kernel's object) describes buffer-free
//! algorithms; this algorithm buffers messages in queues, so it cannot be written
//! as a table. It is produced instead as an explicit list of timed sends
//! `(step, from, to, source, destination)` that any replay can check.
//!
//! The model: in one step every node sends at most one message to one
//! neighbour and receives at most one (single port), store-and-forward (a
//! message received in step `t` can leave again at step `t + 1` at the
//! earliest). Every node `v` keeps a FIFO queue of the messages it holds that
//! are not yet at their destination; initially its own messages, in the order
//! [`Order`] gives for the identity, translated by `v`. At every step every node
//! with a non-empty queue takes the head message, whose destination is `d`, and
//! sends it over the link `W(v⁻¹·d)` chosen by the routing function
//! [`Routing`] for the destination relative to itself: node `v` does at every
//! step the translate by `v` of what the identity does. A message arriving at
//! its destination is consumed there and never joins a queue; any other message
//! joins the tail of the receiver's queue.
//!
//! What is checked while the algorithm runs, as comparisons of the explicit
//! queues and sends (not as consequences of how they were built):
//! - Lemma 2: after every step, every node's queue length, the message it sent
//!   and the message that joined its tail are the translates by `v` of the
//!   identity's; initially, at the end and every [`FifoOptions::full_compare_every`]
//!   steps (by default every step), every queue is compared entry by entry with
//!   the translate of the identity's;
//! - no derouting: every send takes its message one step closer to its
//!   destination, with distances from a breadth-first search of the Cayley graph
//!   made here and used for nothing else;
//! - single port: no node receives two messages in one step (sending more than
//!   one is impossible by construction: one head per queue).
//!
//! The run returns the completion time and, separately, the status (the sum of
//! the distances from the identity to every destination of the message set,
//! which is the paper's eq. 3 lower bound). Theorem 1 says they are equal; the
//! caller compares them.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use arith::{Arithmetic, bfs};
use lemma2::{compare_changes, compare_queues};
use txverify_core::group::{Elem, FiniteGroup, GenLetter};
use txverify_core::kernel::{Instance, InstanceError, LinkId};
use txverify_core::schedule::TimedSend;

/// The order of the identity's initial queue (the head is sent first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Closest destinations first; ties by element index, lowest first.
    #[default]
    Closest,
    /// Furthest destinations first; ties by element index, lowest first.
    Furthest,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Closest => "closest",
            Order::Furthest => "furthest",
        })
    }
}

impl FromStr for Order {
    type Err = FifoError;

    fn from_str(s: &str) -> Result<Order, FifoError> {
        match s {
            "closest" => Ok(Order::Closest),
            "furthest" => Ok(Order::Furthest),
            _ => Err(FifoError::UnknownOrder {
                given: s.to_string(),
            }),
        }
    }
}

/// Why the algorithm could not run, or a check failed while it ran.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FifoError {
    /// The link set does not make a connected undirected Cayley graph.
    #[error(
        "the link set does not define a connected undirected Cayley graph: {}",
        .defects.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    Defective {
        /// The defects the kernel found in the link set.
        defects: Vec<InstanceError>,
    },
    /// An order name other than `closest` or `furthest`.
    #[error("unknown order `{given}` (expected `closest` or `furthest`)")]
    UnknownOrder {
        /// The name given.
        given: String,
    },
    /// A routing function named a link that does not exist.
    #[error(
        "the routing function sends destination {} over link number {}, but there are {links} links",
        .element.0, .link.0
    )]
    RoutingLink {
        /// The relative destination.
        element: Elem,
        /// The link it named.
        link: LinkId,
        /// How many links there are.
        links: usize,
    },
    /// The routing function was made for a group of another order.
    #[error("the routing function covers {routing} elements, the group has {order}")]
    RoutingOrder {
        /// Elements the routing function covers.
        routing: usize,
        /// Order of the group.
        order: usize,
    },
    /// A send did not bring its message one step closer to its destination.
    #[error(
        "step {step}: node {} sent the message from {} to {} to node {}, at distance {after} from the destination instead of {}",
        .from.0, .origin.0, .destination.0, .to.0, .before.saturating_sub(1)
    )]
    Derouted {
        /// The step.
        step: usize,
        /// The sending node.
        from: Elem,
        /// The receiving node.
        to: Elem,
        /// The node the message started from.
        origin: Elem,
        /// The message's destination.
        destination: Elem,
        /// Distance from the sender to the destination.
        before: u32,
        /// Distance from the receiver to the destination.
        after: u32,
    },
    /// The run would record more sends than [`MAX_SENDS`].
    #[error("the run would record {needed} sends, more than the limit of {limit}")]
    TooLarge {
        /// Nodes times the sum of the distances of the message set.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// Two messages reached one node in one step.
    #[error("step {step}: node {} received two messages", .node.0)]
    ReceiveConflict {
        /// The step.
        step: usize,
        /// The receiving node.
        node: Elem,
    },
    /// Lemma 2 failed: some node's queue is not the translate of the identity's.
    #[error("step {step}: node {}: {what} (Lemma 2 fails)", .node.0)]
    Lemma2 {
        /// The step after which the queues were compared (0: initially).
        step: usize,
        /// The node whose queue differs.
        node: Elem,
        /// What differs.
        what: Lemma2Failure,
    },
}

/// How a queue failed to be the translate of the identity's (Lemma 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Lemma2Failure {
    /// The queue's length differs from the identity's.
    #[error("it holds {found} queued messages, the identity {expected}")]
    Length {
        /// Length of the identity's queue.
        expected: usize,
        /// Length of this node's queue.
        found: usize,
    },
    /// An entry differs from the translate of the identity's entry.
    #[error("entry {position} of its queue is not the translate of the identity's")]
    Entry {
        /// 0-based position from the head.
        position: usize,
    },
    /// The head it sent is not the translate of the head the identity sent.
    #[error("the message it sent is not the translate of the identity's")]
    Sent,
    /// The message that joined its tail is not the translate of the identity's.
    #[error("the message that joined its queue is not the translate of the identity's")]
    Joined,
}

/// The most sends a run records (each takes 24 bytes). Without derouting, a run
/// makes exactly `n · Σ dist(e)` sends, so a larger network is refused up front.
pub const MAX_SENDS: u64 = 1 << 26;

/// A routing function `W`: for every destination relative to the sender, the
/// link the sender uses first. Node `v` sends a message for `d` over `W(v⁻¹·d)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routing {
    /// Indexed by element; the identity's entry is never used.
    first: Vec<LinkId>,
}

impl Routing {
    /// The first link of a shortest path to every element: the lowest-numbered link
    /// `s` with `dist(s⁻¹·r) = dist(r) - 1`, using the instance's distances.
    pub fn shortest(instance: &Instance) -> Result<Routing, FifoError> {
        ensure_sound(instance)?;
        let group = instance.group();
        let arith = Arithmetic::new(group);
        let distance = instance.distances();
        let link_elements: Vec<Elem> = instance.links().iter().map(|&l| group.eval(&[l])).collect();
        let mut first = vec![LinkId(0); group.order()];
        for r in group.elements().skip(1) {
            let wanted = distance[r.index()].saturating_sub(1);
            // A connected Cayley graph always has such a link (the first letter
            // of any shortest word); the fallback is never taken then.
            first[r.index()] = link_elements
                .iter()
                .position(|&s| distance[arith.mul(group, arith.inverse(s), r).index()] == wanted)
                .map_or(LinkId(0), |i| LinkId(i as u32));
        }
        Ok(Routing { first })
    }

    /// Any routing function, for instance one that deroutes on purpose: `f` is
    /// asked for the link for every non-identity element (relative destination).
    pub fn from_fn(
        instance: &Instance,
        mut f: impl FnMut(Elem) -> LinkId,
    ) -> Result<Routing, FifoError> {
        let links = instance.links().len();
        let mut first = vec![LinkId(0); instance.group().order()];
        for r in instance.group().elements().skip(1) {
            let link = f(r);
            if link.index() >= links {
                return Err(FifoError::RoutingLink {
                    element: r,
                    link,
                    links,
                });
            }
            first[r.index()] = link;
        }
        Ok(Routing { first })
    }

    /// The link used first towards this relative destination (the identity's entry is meaningless).
    pub fn link(&self, relative_destination: Elem) -> LinkId {
        self.first
            .get(relative_destination.index())
            .copied()
            .unwrap_or(LinkId(0))
    }
}

/// How to run the algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FifoOptions {
    /// Order of the initial queue.
    pub order: Order,
    /// Compare every queue with the identity's entry by entry (Lemma 2) after
    /// every this many steps, and always initially and after the last step; 0
    /// and 1 both mean after every step. Whatever this is, after every step the
    /// queue lengths, the heads sent and the messages that joined a tail are
    /// compared with the identity's, which with the full initial comparison
    /// carries Lemma 2 from step to step for a queue changed only at its ends.
    pub full_compare_every: usize,
}

impl Default for FifoOptions {
    fn default() -> Self {
        FifoOptions {
            order: Order::Closest,
            full_compare_every: 1,
        }
    }
}

/// The outcome of a run in which every check held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FifoRun {
    /// Every send, in step order, then by sending node, with node numbers the
    /// group's element indices (the numbering of the Cayley graph).
    pub sends: Vec<TimedSend>,
    /// The last step in which anything was sent (0 when there is nothing to send).
    pub completion_time: usize,
    /// The sum of the distances from the identity to every destination of the
    /// message set (for total exchange, the status s(1)), by a breadth-first
    /// search of the Cayley graph independent of the run.
    pub status: u64,
    /// How many times all queues were compared with the identity's entry by
    /// entry (Lemma 2).
    pub full_comparisons: usize,
    /// How many steps had their sends, arrivals and queue lengths compared with
    /// the identity's (every step, when the run succeeds).
    pub steps_compared: usize,
    /// How many queue entries the full comparisons looked at.
    pub entries_compared: u64,
}

/// A message in a queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Message {
    source: Elem,
    destination: Elem,
}

/// Runs the FIFO algorithm on the instance's network and message set (any
/// message set given relative to the sender is translation-invariant, the
/// paper's "isotropic" problems; `total` is total exchange).
pub fn run(
    instance: &Instance,
    routing: &Routing,
    options: &FifoOptions,
) -> Result<FifoRun, FifoError> {
    ensure_sound(instance)?;
    let group = instance.group();
    let distance = bfs(group, instance.links());
    check_routing(instance, routing)?;
    let destinations = initial_order(instance, &distance, options.order);
    let status: u64 = destinations
        .iter()
        .map(|e| u64::from(distance[e.index()]))
        .sum();
    let needed = status.saturating_mul(group.order() as u64);
    if needed > MAX_SENDS {
        return Err(FifoError::TooLarge {
            needed,
            limit: MAX_SENDS,
        });
    }
    let arith = Arithmetic::new(group);
    let mut state = State::new(group, &arith, &destinations, needed);
    let mut checks = Checks::default();
    compare_queues(
        group,
        &arith,
        &state.queues,
        0,
        &mut checks.entries_compared,
    )?;
    checks.full_comparisons += 1;
    let every = options.full_compare_every.max(1);
    let mut step = 0;
    while state.queued > 0 {
        step += 1;
        state.step(instance, routing, &arith, &distance, step)?;
        compare_changes(
            group,
            &arith,
            &state.queues,
            &state.sent,
            &state.joined,
            step,
        )?;
        checks.steps_compared += 1;
        if step.is_multiple_of(every) || state.queued == 0 {
            compare_queues(
                group,
                &arith,
                &state.queues,
                step,
                &mut checks.entries_compared,
            )?;
            checks.full_comparisons += 1;
        }
    }
    Ok(FifoRun {
        sends: state.sends,
        completion_time: step,
        status,
        full_comparisons: checks.full_comparisons,
        steps_compared: checks.steps_compared,
        entries_compared: checks.entries_compared,
    })
}

/// Refuses a routing function made for another group, or naming a link the
/// instance does not have.
fn check_routing(instance: &Instance, routing: &Routing) -> Result<(), FifoError> {
    let group = instance.group();
    let n = group.order();
    if routing.first.len() != n {
        return Err(FifoError::RoutingOrder {
            routing: routing.first.len(),
            order: n,
        });
    }
    let links = instance.links().len();
    for r in group.elements().skip(1) {
        let link = routing.link(r);
        if link.index() >= links {
            return Err(FifoError::RoutingLink {
                element: r,
                link,
                links,
            });
        }
    }
    Ok(())
}

/// The identity's destinations in its initial queue order (ties by element index).
fn initial_order(instance: &Instance, distance: &[u32], order: Order) -> Vec<Elem> {
    let wanted = instance.message_set();
    let mut destinations: Vec<Elem> = instance
        .group()
        .elements()
        .filter(|e| wanted[e.index()])
        .collect();
    match order {
        Order::Closest => destinations.sort_by_key(|e| (distance[e.index()], e.0)),
        Order::Furthest => {
            destinations.sort_by_key(|e| (std::cmp::Reverse(distance[e.index()]), e.0))
        }
    }
    destinations
}

/// Counts of the Lemma 2 comparisons made.
#[derive(Default)]
struct Checks {
    full_comparisons: usize,
    steps_compared: usize,
    entries_compared: u64,
}

/// The queues and what moved in the current step.
struct State {
    queues: Vec<VecDeque<Message>>,
    /// Messages still in some queue.
    queued: usize,
    sends: Vec<TimedSend>,
    /// What each node received in this step.
    arrivals: Vec<Option<Message>>,
    /// What each node sent in this step.
    sent: Vec<Option<Message>>,
    /// What joined each node's tail in this step.
    joined: Vec<Option<Message>>,
}

impl State {
    /// Every node `v` starts with its own messages `v·r`, `r` in the identity's order.
    fn new(group: &FiniteGroup, arith: &Arithmetic, destinations: &[Elem], sends: u64) -> State {
        let n = group.order();
        let queues: Vec<VecDeque<Message>> = group
            .elements()
            .map(|v| {
                destinations
                    .iter()
                    .map(|&r| Message {
                        source: v,
                        destination: arith.mul(group, v, r),
                    })
                    .collect()
            })
            .collect();
        State {
            queues,
            queued: n * destinations.len(),
            sends: Vec::with_capacity(usize::try_from(sends).unwrap_or(0)),
            arrivals: vec![None; n],
            sent: vec![None; n],
            joined: vec![None; n],
        }
    }

    /// One step: every node sends its head message over the routing function's
    /// link (checked not to deroute it, and to meet no other arrival), then the
    /// arrivals not yet at their destination join their receiver's tail.
    fn step(
        &mut self,
        instance: &Instance,
        routing: &Routing,
        arith: &Arithmetic,
        distance: &[u32],
        step: usize,
    ) -> Result<(), FifoError> {
        let group = instance.group();
        // A run records at most MAX_SENDS sends, at least one a step.
        let step_number = u32::try_from(step).map_err(|_| FifoError::TooLarge {
            needed: step as u64,
            limit: MAX_SENDS,
        })?;
        for v in group.elements() {
            let head = self.queues[v.index()].pop_front();
            self.sent[v.index()] = head;
            let Some(message) = head else {
                continue;
            };
            self.queued -= 1;
            let relative = arith.mul(group, arith.inverse(v), message.destination);
            let link = instance.links()[routing.link(relative).index()];
            let to = group.apply(v, link);
            let before = distance[relative.index()];
            let after = distance[arith
                .mul(group, arith.inverse(to), message.destination)
                .index()];
            if after.checked_add(1) != Some(before) {
                return Err(FifoError::Derouted {
                    step,
                    from: v,
                    to,
                    origin: message.source,
                    destination: message.destination,
                    before,
                    after,
                });
            }
            if self.arrivals[to.index()].is_some() {
                return Err(FifoError::ReceiveConflict { step, node: to });
            }
            self.arrivals[to.index()] = Some(message);
            self.sends.push(TimedSend {
                step: step_number,
                from: v.0,
                to: to.0,
                source: message.source.0,
                destination: message.destination.0,
            });
        }
        for v in group.elements() {
            self.joined[v.index()] = None;
            if let Some(message) = self.arrivals[v.index()].take()
                && message.destination != v
            {
                self.queues[v.index()].push_back(message);
                self.joined[v.index()] = self.queues[v.index()].back().copied();
                self.queued += 1;
            }
        }
        Ok(())
    }
}

/// The sum of the distances from the identity to every other element of the
/// Cayley graph on these links (the status s(1)), or `None` when the links do
/// not reach every element.
pub fn status(group: &FiniteGroup, links: &[GenLetter]) -> Option<u64> {
    bfs(group, links).iter().try_fold(0u64, |sum, &d| {
        (d != u32::MAX).then_some(sum + u64::from(d))
    })
}

fn ensure_sound(instance: &Instance) -> Result<(), FifoError> {
    if instance.defects().is_empty() {
        Ok(())
    } else {
        Err(FifoError::Defective {
            defects: instance.defects().to_vec(),
        })
    }
}

mod arith;
mod lemma2;
pub mod report;
#[cfg(test)]
mod tests;
