//! The formula "a total exchange on this graph finishes in T steps", in the
//! all-port schedule model of docs/schedule.md (store-and-forward, buffering).
//!
//! Per message `m = (s, d)` and time `t = 0 … T` a variable `at(m, t, v)`
//! says that after step `t` the message is at node `v`; per step `t = 1 … T`
//! and directed link `u → w` a variable `mv(m, t, u → w)` says that it crosses
//! that link at step `t`. The clauses: it starts at `s` and is at `d` after
//! step `T`; it is at one node at a time; it crosses a link only from the node
//! it is at and then is at the link's head; it leaves a node only by a link;
//! it never leaves `d` once there; each directed link carries at most one
//! message per step (on a fabric: its capacity, and the switch limits bound a
//! step's sends; a forward-only node is no message's source or destination,
//! [`super::fabric`]). A variable is made only where a schedule can put the
//! message: `d(s, v) ≤ t` and `d(v, d) ≤ T − t` (one hop per step), which
//! holds for every schedule and so restricts nothing; the path class
//! ([`PathClass`]) may restrict further, and then an unsatisfiable formula
//! speaks only about that class.
//!
//! The clause order is fixed and documented by [`EXCHANGE_ENCODING_VERSION`]: a
//! certificate is checked by regenerating the formula byte for byte.

use crate::cnf::{Cnf, Lit};
use serde::{Deserialize, Serialize};
use std::fmt;
use txverify_core::network::{DistanceTable, Graph};
use txverify_core::schedule::TimedSend;

/// The version of this encoding; a certificate names it, and a change to the
/// clauses must change it.
pub const EXCHANGE_ENCODING_VERSION: &str = "txverify-exchange-encoding-1";

/// The largest network the encoder takes (the formulas of larger ones do not
/// fit in memory anyway; use the heuristic there).
pub const MAX_NODES: usize = 4096;

/// The most variables a formula may be estimated to have before it is built
/// (`search --max-variables`): the clauses take about 150 bytes per variable,
/// so the default keeps a formula near a gigabyte and a half.
pub const MAX_VARIABLES: u64 = 1 << 23;

/// Which paths the messages may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "extra")]
pub enum PathClass {
    /// Only nodes on shortest paths from source to destination.
    #[default]
    Shortest,
    /// Only nodes `v` with `d(s, v) + d(v, d) ≤ d(s, d) + k`.
    Slack(u32),
    /// Any node: the formula speaks about every schedule of the model.
    Any,
}

impl PathClass {
    /// Whether an unsatisfiable formula of this class covers every schedule.
    pub fn covers_all_schedules(self) -> bool {
        self == PathClass::Any
    }

    /// Whether node `v` may hold a message of `total` hops that is `from` hops
    /// from its source and `to` hops from its destination.
    fn allows(self, from: u32, to: u32, total: u32) -> bool {
        match self {
            PathClass::Shortest => from + to <= total,
            PathClass::Slack(k) => {
                u64::from(from) + u64::from(to) <= u64::from(total) + u64::from(k)
            }
            PathClass::Any => true,
        }
    }
}

impl fmt::Display for PathClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathClass::Shortest => write!(f, "shortest paths"),
            PathClass::Slack(k) => write!(f, "paths at most {k} hops longer than shortest"),
            PathClass::Any => write!(f, "any paths"),
        }
    }
}

/// Why a formula cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExchangeEncodeError {
    /// The network has more nodes than [`MAX_NODES`].
    #[error("{nodes} nodes are more than the SAT search takes ({max}); try --heuristic", max = MAX_NODES)]
    TooLarge {
        /// The nodes of the network.
        nodes: usize,
    },
    /// The estimate of the formula's variables is over the limit.
    #[error(
        "the formula for T={time} would have about {estimate} variables, more than the limit of {limit}: raise it with --max-variables N, or use --heuristic"
    )]
    OverLimit {
        /// The number of steps.
        time: usize,
        /// The variables estimated ([`estimate_variables`]).
        estimate: u64,
        /// The limit.
        limit: u64,
    },
    /// The formula would have more variables than a literal can name.
    #[error("the formula for T={time} has too many variables; try --heuristic")]
    TooManyVariables {
        /// The number of steps.
        time: usize,
    },
    /// The run's stop token (deadline or signal) stopped the encoder.
    #[error("the formula was not finished: the run was stopped")]
    Stopped,
}

impl ExchangeEncodeError {
    /// Whether the run was stopped (not a limit of the encoder).
    pub fn is_stop(&self) -> bool {
        matches!(self, ExchangeEncodeError::Stopped)
    }
}

/// A move variable and the send it stands for.
#[derive(Clone, Copy, Debug)]
struct Move {
    var: Lit,
    send: TimedSend,
}

/// The formula and what its move variables mean.
#[derive(Clone, Debug)]
pub struct ExchangeEncoding {
    /// The formula.
    pub cnf: Cnf,
    moves: Vec<Move>,
}

impl ExchangeEncoding {
    /// The sends a model (`model[v − 1]`, the value of variable `v`) makes.
    pub fn decode(&self, model: &[bool]) -> Vec<TimedSend> {
        self.moves
            .iter()
            .filter(|m| model.get(m.var as usize - 1).copied().unwrap_or(false))
            .map(|m| m.send)
            .collect()
    }
}

/// The (source, destination, node) triples [`estimate_variables`] looks at
/// before it samples sources instead of taking them all: about 0.1 s.
const ESTIMATE_WORK: u64 = 1 << 26;

/// An estimate of the variables of the formula for `time` steps, from the
/// distances alone, before anything is built: exact for the `at` variables,
/// and for the moves, every link out of a node the message may be at (at
/// least as many as the encoder makes). On a network of more than about 400
/// nodes (N³ over `ESTIMATE_WORK`) the sum is taken over sources spread
/// evenly, about `ESTIMATE_WORK` / N² of them, and scaled to all N (exact
/// on a vertex-transitive network); it is never below the exact count of
/// the `at` variables every message within reach needs (`time + 1` each).
/// The estimate is the same whatever limit it is compared with.
pub fn estimate_variables(graph: &Graph, time: usize, paths: PathClass) -> u64 {
    let n = graph.nodes();
    let horizon = time as u64 + 1;
    if n > MAX_NODES {
        return u64::MAX;
    }
    let Ok(dist) = graph.distance_table(MAX_NODES) else {
        return u64::MAX;
    };
    let reachable: u64 = (0..n as u32)
        .map(|s| {
            dist.row(s)
                .iter()
                .filter(|&&d| u64::from(d) <= time as u64)
                .count() as u64
        })
        .sum::<u64>()
        .saturating_sub(n as u64);
    let lower = reachable.saturating_mul(horizon);
    let degree: Vec<u64> = (0..n as u32).map(|v| graph.degree(v) as u64).collect();
    let per_source = (n as u64 * n as u64).max(1);
    let sampled = (ESTIMATE_WORK / per_source).clamp(1, n as u64) as usize;
    let mut count = 0u64;
    for k in 0..sampled {
        let s = k * n / sampled;
        let from_s = dist.row(s as u32);
        for d in (0..n).filter(|&d| d != s) {
            let to_d = dist.row(d as u32);
            let total = to_d[s];
            for v in 0..n {
                let (a, b) = (from_s[v], to_d[v]);
                if !paths.allows(a, b, total) {
                    continue;
                }
                let window = horizon.saturating_sub(u64::from(a) + u64::from(b));
                count = count.saturating_add(window.saturating_mul(1 + degree[v]));
            }
        }
    }
    let scaled = (u128::from(count) * n as u128 / sampled.max(1) as u128).min(u128::from(u64::MAX));
    (scaled as u64).max(lower)
}

/// Builds the formula for `time` steps on `graph` with messages limited to `paths`.
pub fn encode_exchange(
    graph: &Graph,
    time: usize,
    paths: PathClass,
) -> Result<ExchangeEncoding, ExchangeEncodeError> {
    encode_exchange_until(graph, time, paths, &super::StopToken::default())
}

/// [`encode_exchange`], given up ([`ExchangeEncodeError::Stopped`]) as soon
/// as `stop` says so: it is polled before each message's clauses.
pub fn encode_exchange_until(
    graph: &Graph,
    time: usize,
    paths: PathClass,
    stop: &super::StopToken,
) -> Result<ExchangeEncoding, ExchangeEncodeError> {
    let n = graph.nodes();
    if n > MAX_NODES {
        return Err(ExchangeEncodeError::TooLarge { nodes: n });
    }
    // `dist.row(d)[v]` = d(v, d) (the graph is undirected: also d(d, v)).
    let dist = graph
        .distance_table(MAX_NODES)
        .map_err(|_| ExchangeEncodeError::TooLarge { nodes: n })?;
    let mut encoder = Encoder {
        graph,
        time,
        cnf: Cnf::new(),
        moves: Vec::new(),
        on_link: vec![Vec::new(); time * graph.directed_links()],
    };
    // A forward-only node sends and needs no message of its own.
    let endpoint = |x: u32| !graph.is_forward_only(x);
    for s in (0..n as u32).filter(|&s| endpoint(s)) {
        for d in (0..n as u32).filter(|&d| endpoint(d)) {
            if s != d {
                if stop.stopped().is_some() {
                    return Err(ExchangeEncodeError::Stopped);
                }
                encoder.message(s, d, &dist, paths)?;
            }
        }
    }
    encoder.link_capacity();
    Ok(ExchangeEncoding {
        cnf: encoder.cnf,
        moves: encoder.moves,
    })
}

/// The formula under construction.
struct Encoder<'a> {
    graph: &'a Graph,
    time: usize,
    cnf: Cnf,
    moves: Vec<Move>,
    /// `on_link[(t − 1) · L + link]`: the move variables of that link at step `t`.
    on_link: Vec<Vec<Lit>>,
}

impl Encoder<'_> {
    /// A fresh variable, or the error when literals run out.
    fn fresh(&mut self) -> Result<Lit, ExchangeEncodeError> {
        if self.cnf.vars() >= (i32::MAX as usize) / 2 {
            return Err(ExchangeEncodeError::TooManyVariables { time: self.time });
        }
        Ok(self.cnf.fresh())
    }

    /// The variables and clauses of message `(s, d)`.
    fn message(
        &mut self,
        s: u32,
        d: u32,
        dist: &DistanceTable,
        paths: PathClass,
    ) -> Result<(), ExchangeEncodeError> {
        let (from_s, to_d) = (dist.row(s), dist.row(d));
        let total = to_d[s as usize];
        let nodes: Vec<u32> = (0..self.graph.nodes() as u32)
            .filter(|&v| paths.allows(from_s[v as usize], to_d[v as usize], total))
            .collect();
        // `at[t][i]`: the message is at `nodes[i]` after step `t` (0: impossible there).
        let mut at = vec![vec![0 as Lit; nodes.len()]; self.time + 1];
        for (t, row) in at.iter_mut().enumerate() {
            for (i, &v) in nodes.iter().enumerate() {
                let (a, b) = (from_s[v as usize] as usize, to_d[v as usize] as usize);
                if a <= t && b <= self.time - t {
                    row[i] = self.fresh()?;
                }
            }
            let present: Vec<Lit> = row.iter().copied().filter(|&l| l != 0).collect();
            // At one node at a time; with no node possible, the formula is false.
            self.cnf.add(&present);
            self.cnf.at_most_one(&present);
        }
        let index = |v: u32| nodes.binary_search(&v).ok();
        if let Some(i) = index(s)
            && at[0][i] != 0
        {
            self.cnf.add(&[at[0][i]]);
        }
        if let Some(i) = index(d)
            && at[self.time][i] != 0
        {
            self.cnf.add(&[at[self.time][i]]);
        }
        for t in 1..=self.time {
            self.step(s, d, t, &nodes, &at)?;
        }
        Ok(())
    }

    /// The moves of message `(s, d)` at step `t` and the clauses tying them to
    /// where it is before and after.
    fn step(
        &mut self,
        s: u32,
        d: u32,
        t: usize,
        nodes: &[u32],
        at: &[Vec<Lit>],
    ) -> Result<(), ExchangeEncodeError> {
        let index = |v: u32| nodes.binary_search(&v).ok();
        // `arrivals[i]`: the moves into `nodes[i]` at step `t`.
        let mut arrivals: Vec<Vec<Lit>> = vec![Vec::new(); nodes.len()];
        for (i, &u) in nodes.iter().enumerate() {
            let before = at[t - 1][i];
            if before == 0 {
                continue;
            }
            let after = at[t][i];
            if u == d {
                // Delivered: it stays (a send from its destination is delivered-twice).
                self.cnf.add(&[-before, after]);
                continue;
            }
            let mut leaving = Vec::new();
            for link in self.graph.links_of(u) {
                let (_, w) = self.graph.endpoints(link);
                let Some(j) = index(w) else { continue };
                if at[t][j] == 0 {
                    continue;
                }
                let var = self.fresh()?;
                self.cnf.add(&[-var, before]);
                self.cnf.add(&[-var, at[t][j]]);
                leaving.push(var);
                arrivals[j].push(var);
                self.on_link[(t - 1) * self.graph.directed_links() + link as usize].push(var);
                let send = TimedSend {
                    step: t as u32,
                    from: u,
                    to: w,
                    source: s,
                    destination: d,
                };
                self.moves.push(Move { var, send });
            }
            // At `u` before and not after: it left by a link.
            let mut clause = vec![-before];
            if after != 0 {
                clause.push(after);
            }
            clause.extend(&leaving);
            self.cnf.add(&clause);
        }
        for (i, moves) in arrivals.into_iter().enumerate() {
            let after = at[t][i];
            if after == 0 {
                continue;
            }
            // At `v` after: it was there before or it arrived by a link.
            let mut clause = vec![-after];
            if at[t - 1][i] != 0 {
                clause.push(at[t - 1][i]);
            }
            clause.extend(moves);
            self.cnf.add(&clause);
        }
        Ok(())
    }

    /// One message per directed link per step; on a fabric its capacity and
    /// the switch limits ([`super::fabric`]).
    fn link_capacity(&mut self) {
        let on_link = std::mem::take(&mut self.on_link);
        if self.graph.fabric().is_plain() {
            for vars in &on_link {
                self.cnf.at_most_one(vars);
            }
        } else {
            super::fabric::link_capacities(&mut self.cnf, self.graph, &on_link);
            super::fabric::switch_limits(&mut self.cnf, self.graph, &on_link);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn the_same_inputs_give_the_same_formula() {
        let g = graph("mesh 2 3");
        let a = encode_exchange(&g, 3, PathClass::Any).unwrap();
        let b = encode_exchange(&g, 3, PathClass::Any).unwrap();
        assert_eq!(a.cnf, b.cnf);
    }

    #[test]
    fn shortest_paths_make_a_smaller_formula_than_any_paths() {
        let g = graph("ring 6");
        let short = encode_exchange(&g, 5, PathClass::Shortest).unwrap();
        let any = encode_exchange(&g, 5, PathClass::Any).unwrap();
        assert!(short.cnf.vars() < any.cnf.vars());
    }

    #[test]
    fn a_time_below_the_diameter_gives_an_empty_clause() {
        let g = graph("linear 4");
        let e = encode_exchange(&g, 2, PathClass::Any).unwrap();
        assert!(e.cnf.clauses().iter().any(Vec::is_empty));
    }
}
