//! Lower bounds on the time of a total exchange (and the counts they rest on),
//! one module per kind of argument, each bound stated with the model it
//! assumes. Every other part of txverify that prints a bound (`bounds`,
//! `compose`, the hypercube collectives) takes it from here; the kernel's bound
//! for tables (`kernel/bounds.rs`) is apart on purpose: it is trusted code and
//! shares nothing with this module.
//!
//! The common model: a network of N nodes whose links come in inverse pairs
//! (an undirected graph, `Graph`); time goes in steps; each directed link
//! carries at most one message a step; a message is one unit that is never
//! split, copied or combined with another (a total exchange's N(N − 1)
//! messages are all distinct); a message moves at most one hop a step. The
//! ports of a node are how many of its links it may send on in one step: all
//! of them (all-port), K of them (K-port), or one (single-port). Buffering —
//! how many messages may wait at a node — does not enter any bound below: each
//! counts hops or crossings, which no queue discipline avoids.
//!
//! | bound | module | model | holds because |
//! | --- | --- | --- | --- |
//! | ⌈Σ_{x,y} d(x, y) / Σ_x min(K, deg x)⌉ | [`distance`] | K-port (single-port: K = 1; all-port: K ≥ every degree, the divisor is then L, the directed links), any routing, any buffering | the messages need Σ d(x, y) hops in all; in one step node x sends at most min(K, deg x) messages, one hop each |
//! | ⌈s / min(K, deg)⌉, s = the status Σ_y d(x, y) of one node | [`distance`] | the row above on a vertex-transitive graph (a Cayley graph), where every node has the same status s and degree deg | N·s / (N·min(K, deg)) |
//! | ⌈(N − 1) / deg(x)⌉ | [`distance`] | all-port, any buffering | node x receives N − 1 distinct messages, at most one per link a step |
//! | ⌈|A|·|V∖A| / c(A)⌉, c(A) = directed links leaving A | [`cut`] | any ports (all-port included), any routing, any buffering | the |A|·|V∖A| messages from A to the rest each cross from A at least once, and only c(A) links cross a step |
//! | ⌈Σ_{s≠t} d_w(s, t) / Σ_e w(e)⌉ for any weights w ≥ 0 on the directed links (the LP bound; [`general::total_exchange_with_lp`] only) | [`lp`] | any ports, any routing, any buffering, copies allowed | a link carries at most T messages in T steps, so Σ_e w(e)·load(e) ≤ T·Σ w, and each message walks from s to t over links weighing at least d_w(s, t); w = 1 is the distance bound, w = 1 on a cut's links the cut bound |
//!
//! The collectives that copy or combine ([`mod@collective`]; C chunks per block,
//! k_x = min(K, deg x), k = max k_x, cap(S) what can enter a node set S in
//! a step; each proved in docs/collectives.md; model: K-port, copies,
//! buffering, and combining for the reductions):
//!
//! | collective | bounds |
//! | --- | --- |
//! | broadcast R, reduce R | e(R); e(R) + ⌈C / k_R⌉ − 1 (pipeline); ⌈log_{1+k} N⌉ + ⌈C / k_R⌉ − 1 (growth); ⌈C / cap(S)⌉ for S without R (broadcast) or with it (reduce); ⌈C·m_R(x) / k_x⌉ (cut vertex: m_R(x) components of G − x without R) |
//! | allgather | diameter; ⌈log_{1+k} N⌉; ⌈C(N − 1) / k_x⌉ (intake); ⌈C·|V∖S| / cap(S)⌉; ⌈C·Σ_j (N − |A_j|) / k_x⌉ (cut vertex: A_j the components of G − x) |
//! | reduce-scatter | diameter; ⌈log_{1+k} N⌉; ⌈C(N − 1) / k_x⌉ (outflow); ⌈C·|S| / cap(S)⌉; ⌈C·Σ_j (N − |A_j|) / k_x⌉ (cut vertex) |
//! | allreduce | diameter; ⌈log_{1+k} N⌉; ⌈N·C / cap(S)⌉; ⌈2NC(N − 1) / Σ k_x⌉ (one-way gossip); ⌈N·C·m(x) / k_x⌉ (cut vertex) |
//!
//! On a fabric (link capacities, switch limits, forward-only nodes) the
//! collectives' and the total exchange's bounds are those of
//! [`collective::fabric`]: GPUs only, links at capacity, and the throughput
//! bound of [`throughput`] with the node set that proves it; the bounds that
//! count every node or one packet a link are left out there.
//!
//! The K-port bound caps K at each node's degree: a node cannot use more ports
//! than it has links, so K above the degree is the all-port case (on a graph of
//! degree deg, ⌈s / deg⌉ = ⌈N·s / L⌉).
//!
//! The cut bound holds for every cut; which cuts are tried (every cut of a
//! small graph, the halving of one dimension of a torus or product, the
//! splits between neighbours of a larger one) only decides how strong it is.
//! The single-port model can only be slower, so every all-port bound is a
//! single-port bound too. Under K ports the crossing of a cut is also limited
//! by Σ_{x∈A} min(K, links from x out of A); that stronger K-port cut bound is
//! not computed here: the cut bounds divide by c(A), which holds for every K.
//!
//! The collectives of equal chunks of MSCCL programs ([`chunks`]: no copies
//! in the network, reductions at the nodes) have a traffic bound (the
//! crossings every program needs over the L links), a demand cut bound (the
//! chunks that must cross a cut each way over its c(A) links) and a latency
//! bound (the diameter, or the worst root's eccentricity).
//!
//! Every cut is one type, [`Cut`]: its sides, the links and crossings a step
//! between them, what must cross each way and how it was found.
//!
//! The timed (α-β) bounds of [`timed`] turn these step bounds into time: a
//! step bound T gives T·min_e(α_e + β_e) for schedules of one-chunk sends, and
//! the MSCCL load and latency bounds give ⌈L / M⌉·α + L·β and D·(α + β).
//!
//! The status of a node ([`distance::status`]) is the one count all these
//! start from; the FIFO algorithm's optimality check computes it by its own
//! search of the Cayley graph, on purpose apart.

pub mod chunks;
pub mod collective;
pub mod cut;
pub mod cut_search;
pub mod distance;
pub mod entry_spread;
pub mod fabric_intake;
pub mod fill;
pub mod general;
pub mod lp;
pub mod messages;
pub mod saturated;
mod set;
pub mod throughput;
pub mod timed;

pub use collective::{CollectiveBounds, collective, half_duplex_time};
pub use cut::{Cut, CutMethod, Ratio};
pub use general::{total_exchange, total_exchange_with_lp};
pub use messages::message_set;
pub use set::BoundSet;
