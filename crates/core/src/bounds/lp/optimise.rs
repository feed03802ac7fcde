//! The search for good weights: untrusted in spirit (whatever it returns is
//! checked by [`super::evaluate`], and any weights give a valid bound), here
//! so that the bounds of a network can include the LP bound.
//!
//! The method: Frank–Wolfe descent on the smoothed maximum link load of a
//! fractional routing of every message, (C/β)·ln Σ_e exp(β·x_e / C), where x
//! is the routing's load per directed link and C its largest load. Its
//! gradient is a weight per link (the soft maximum, w_e ∝ exp(β·x_e / C)); the
//! descent direction routes every message on a w-shortest path (one
//! shortest-path tree per source, the load of a tree link the destinations
//! below it), and a line search picks the step. Every w met is a dual
//! candidate: Σ d_w / Σ w is a lower bound on the least maximum load, and x's
//! largest load an upper bound, so their ratio says how far from the LP
//! optimum the bound can be. β grows when the descent has caught up with the
//! smoothing, so the weights concentrate on the busiest links.
//!
//! The best real weights are scaled to at most 10⁹ and rounded; the bound
//! reported is the exact evaluator's on those integers, and the distance and
//! cut weights given as candidates are evaluated too, so the result is never
//! below the distance bound or the cut bound.

use super::{LpBound, LpError, evaluate};
use crate::network::Graph;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How hard [`optimise`] works.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LpOptions {
    /// Stop when the largest load of the best routing is within this
    /// fraction of the best dual ratio (0.005: within 0.5 % of the optimum).
    pub tolerance: f64,
    /// Most descent steps.
    pub max_iterations: usize,
    /// Most work: the steps are also capped so that steps × N × L stays under
    /// this (one step is a shortest-path tree from every node).
    pub max_work: u64,
    /// When the descent stops, whatever its steps and work: an anytime
    /// search gives the LP part of its deadline. Any weights prove a bound,
    /// so stopping early gives a weaker bound, never a wrong one.
    pub until: Option<std::time::Instant>,
}

impl Default for LpOptions {
    fn default() -> LpOptions {
        LpOptions {
            tolerance: 0.005,
            max_iterations: 3000,
            max_work: 1 << 28,
            until: None,
        }
    }
}

impl LpOptions {
    /// The options of a schedule search's LP bound: a quarter of the default
    /// work (2^26), so that it takes seconds, not minutes, on a thousand
    /// nodes; on random regular graphs of up to 500 nodes it gives the same
    /// bound (docs/schedules-any.md).
    pub fn for_search() -> LpOptions {
        LpOptions {
            max_work: 1 << 26,
            ..LpOptions::default()
        }
    }

    /// The steps allowed on `graph`: at least 8, whatever the work.
    fn iterations(&self, graph: &Graph) -> usize {
        let step = (graph.nodes() as u64)
            .saturating_mul(graph.directed_links() as u64)
            .max(1);
        let by_work = usize::try_from(self.max_work / step).unwrap_or(usize::MAX);
        self.max_iterations.min(by_work.max(8))
    }
}

/// Which weights gave the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeightsFound {
    /// The descent's weights, rounded.
    Optimised,
    /// One of the candidates given (their index).
    Candidate(usize),
}

/// The weights found and their bound.
#[derive(Clone, Debug, PartialEq)]
pub struct LpSolution {
    /// The exact bound of [`LpSolution::weights`].
    pub bound: LpBound,
    /// Integer weights per directed link (by link id): the certificate.
    pub weights: Vec<u64>,
    /// Which weights they are.
    pub found: WeightsFound,
    /// The descent's best real weights per directed link (the largest is 1),
    /// for routing: a link's weight says how much it is worth avoiding.
    pub real_weights: Vec<f64>,
    /// Their unrounded ratio Σ d_w / Σ w (a lower bound on the LP optimum).
    pub dual: f64,
    /// The largest link load of the best fractional routing found (an upper
    /// bound on the LP optimum: every message routed, fractionally).
    pub primal: f64,
    /// That routing's load per directed link (by link id).
    pub link_loads: Vec<f64>,
    /// The same routing source by source (`per_source[s][link]`: the messages
    /// from s that cross the link, a flow of N − 1 units out of s and one into
    /// every other node), when the descent kept the sources apart (N × L at
    /// most [`PER_SOURCE_ENTRIES`]); `None` otherwise.
    pub per_source: Option<Vec<Vec<f64>>>,
    /// Descent steps made.
    pub iterations: usize,
}

/// Searches weights for the LP bound of `graph` and keeps the best of them and
/// of the integer `candidates` (the distance weights, a cut's weights), each
/// evaluated exactly. Errors only as [`evaluate`] does on every candidate
/// (a graph of one node, say).
pub fn optimise(
    graph: &Graph,
    options: &LpOptions,
    candidates: &[Vec<u64>],
) -> Result<LpSolution, LpError> {
    let mut best: Option<(LpBound, Vec<u64>, WeightsFound)> = None;
    let mut last_error = LpError::ZeroWeight;
    for (i, c) in candidates.iter().enumerate() {
        keep(
            graph,
            &mut best,
            &mut last_error,
            c.clone(),
            WeightsFound::Candidate(i),
        );
    }
    // The candidates' best ratio lets the descent stop as soon as its routing
    // is within the tolerance of it.
    let floor = best.as_ref().map_or(0.0, |(b, _, _)| b.ratio());
    let descent = descend(graph, options, floor);
    let rounded = round(&descent.weights);
    keep(
        graph,
        &mut best,
        &mut last_error,
        rounded,
        WeightsFound::Optimised,
    );
    let (bound, weights, found) = best.ok_or(last_error)?;
    Ok(LpSolution {
        bound,
        weights,
        found,
        real_weights: descent.weights,
        dual: descent.dual,
        primal: descent.primal,
        link_loads: descent.loads,
        per_source: descent.per_source,
        iterations: descent.iterations,
    })
}

/// Evaluates `weights` and keeps them in `best` if their bound is larger.
fn keep(
    graph: &Graph,
    best: &mut Option<(LpBound, Vec<u64>, WeightsFound)>,
    last_error: &mut LpError,
    weights: Vec<u64>,
    found: WeightsFound,
) {
    match evaluate(graph, &weights) {
        Ok(bound) => {
            if best.as_ref().is_none_or(|(b, _, _)| bound.exceeds(b)) {
                *best = Some((bound, weights, found));
            }
        }
        Err(e) => *last_error = e,
    }
}

/// What the descent found.
struct Descent {
    weights: Vec<f64>,
    dual: f64,
    primal: f64,
    loads: Vec<f64>,
    per_source: Option<Vec<Vec<f64>>>,
    iterations: usize,
}

/// Largest N × L for which every source keeps its own routing (8 bytes a
/// link a source) and the descent moves one source's routing at a time;
/// beyond, the routings are moved all together.
pub const PER_SOURCE_ENTRIES: usize = 1 << 24;

/// The Frank–Wolfe descent (the module note). Each step measures the dual of
/// the current routing's soft maximum and moves the routing: every source's
/// tree in turn (block coordinates, when the per-source routings fit in
/// [`PER_SOURCE_ENTRIES`]), or all trees together.
fn descend(graph: &Graph, options: &LpOptions, floor: f64) -> Descent {
    let (n, m) = (graph.nodes(), graph.directed_links());
    let ones = vec![1.0; m];
    let mut best = Descent {
        dual: 0.0,
        weights: ones.clone(),
        primal: f64::INFINITY,
        loads: Vec::new(),
        per_source: None,
        iterations: 0,
    };
    if m == 0 {
        best.primal = 0.0;
        return best;
    }
    let mut sources: Option<Vec<Vec<f64>>> = n
        .checked_mul(m)
        .filter(|&e| e <= PER_SOURCE_ENTRIES)
        .map(|_| {
            let mut tree = Tree::new(n);
            (0..n as u32)
                .map(|s| {
                    let mut loads = vec![0.0; m];
                    tree.grow(graph, &ones, s, &mut loads);
                    loads
                })
                .collect()
        });
    let (_, mut x) = route(graph, &ones);
    let mut beta = 4.0 * (m as f64).ln().max(1.0);
    for step in 1..=options.iterations(graph) {
        if step > 1
            && options
                .until
                .is_some_and(|t| std::time::Instant::now() >= t)
        {
            break;
        }
        let c = max(&x);
        let w = soft_max(&x, beta / c);
        let total: f64 = w.iter().sum();
        let (dw, y) = route(graph, &w);
        let dual = dw / total;
        best.iterations = step;
        if dual > best.dual {
            best.dual = dual;
            let top = max(&w);
            best.weights = w.iter().map(|&v| v / top).collect();
        }
        if c < best.primal {
            best.primal = c;
            best.loads = x.clone();
            best.per_source.clone_from(&sources);
        }
        // Done when within the tolerance, or when no weights can prove a
        // larger whole number of steps (the optimum is at most the primal).
        let known = best.dual.max(floor);
        if best.primal <= known * (1.0 + options.tolerance) || known.ceil() >= best.primal.ceil() {
            break;
        }
        // The gap splits in two: the soft maximum's average load below the
        // largest (the smoothing), and w·x above w·y (the descent). Sharpen
        // the smoothing once the descent has caught up with it.
        let wx: f64 = w.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>();
        let smoothing = c * total / wx - 1.0;
        let descent_gap = wx / dw - 1.0;
        if descent_gap < smoothing / 2.0 {
            beta *= 1.5;
        }
        match sources.as_mut() {
            Some(per_source) => sweep(graph, &mut x, per_source, beta),
            None => {
                let d: Vec<f64> = y.iter().zip(&x).map(|(a, b)| a - b).collect();
                let gamma = line_search(&x, &d, beta / c);
                x.iter_mut().zip(&d).for_each(|(xe, de)| *xe += gamma * de);
            }
        }
    }
    best
}

/// w_e = exp(b·(x_e − max x)): the soft maximum's weights (the largest is 1).
fn soft_max(x: &[f64], b: f64) -> Vec<f64> {
    let top = max(x);
    x.iter().map(|&xe| (b * (xe - top)).exp()).collect()
}

/// One block-coordinate pass: for each source in turn, its w-shortest-path
/// tree under the current soft maximum, and a line search from its routing
/// towards that tree. The scale b and the shift of the soft maximum stay those
/// of the pass's start (neither changes which paths are shortest), so a move
/// updates the weights of the links it touches only.
fn sweep(graph: &Graph, x: &mut [f64], per_source: &mut [Vec<f64>], beta: f64) {
    let n = graph.nodes();
    let m = x.len();
    let top = max(x);
    let b = beta / top;
    let mut w = soft_max(x, b);
    let mut tree = Tree::new(n);
    let mut y = vec![0.0; m];
    let mut support: Vec<(usize, f64)> = Vec::with_capacity(m);
    for (s, xs) in per_source.iter_mut().enumerate() {
        y.fill(0.0);
        tree.grow(graph, &w, s as u32, &mut y);
        support.clear();
        support.extend(
            y.iter()
                .zip(xs.iter())
                .enumerate()
                .filter(|(_, (ye, xe))| ye != xe)
                .map(|(e, (ye, xe))| (e, ye - xe)),
        );
        let gamma = sparse_line_search(x, &support, b);
        if gamma <= 0.0 {
            continue;
        }
        for &(e, de) in &support {
            x[e] += gamma * de;
            xs[e] += gamma * de;
            w[e] = (b * (x[e] - top)).exp();
        }
    }
}

/// [`line_search`] for a direction that is 0 off `support` (link, d_e): the
/// derivative's sign only depends on the links that move. Safeguarded Newton
/// steps on the derivative (it grows with γ; its own derivative comes from
/// the same exponentials), a bisection whenever a step leaves the bracket:
/// about five evaluations where bisection alone took 26, and these
/// exponentials were most of the descent's time.
fn sparse_line_search(x: &[f64], support: &[(usize, f64)], b: f64) -> f64 {
    // The derivative at g and its own derivative, both scaled by exp(−b·top).
    let slope = |g: f64| {
        let top = support
            .iter()
            .map(|&(e, de)| x[e] + g * de)
            .fold(f64::MIN, f64::max);
        support.iter().fold((0.0, 0.0), |(s, c), &(e, de)| {
            let w = (b * (x[e] + g * de - top)).exp();
            (s + w * de, c + w * b * de * de)
        })
    };
    if support.is_empty() || slope(0.0).0 >= 0.0 {
        return 0.0;
    }
    if slope(1.0).0 <= 0.0 {
        return 1.0;
    }
    let (mut lo, mut hi, mut g) = (0.0, 1.0, 0.5);
    for _ in 0..40 {
        let (s, c) = slope(g);
        if s > 0.0 {
            hi = g;
        } else {
            lo = g;
        }
        let newton = g - s / c;
        let next = if c > 0.0 && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - g).abs() < 1e-9 || hi - lo < 1e-9 {
            return next;
        }
        g = next;
    }
    g
}

/// The largest entry (0 for none).
fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(0.0, f64::max)
}

/// The step γ ∈ [0, 1] that minimises ln Σ exp(b·(x + γ·d)), by bisection
/// on its derivative (the objective is convex in γ).
fn line_search(x: &[f64], d: &[f64], b: f64) -> f64 {
    let slope = |g: f64| {
        let top = x
            .iter()
            .zip(d)
            .map(|(a, c)| a + g * c)
            .fold(f64::MIN, f64::max);
        x.iter()
            .zip(d)
            .map(|(a, c)| (b * (a + g * c - top)).exp() * c)
            .sum::<f64>()
    };
    if slope(1.0) <= 0.0 {
        return 1.0;
    }
    if slope(0.0) >= 0.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if slope(mid) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Sources per chunk of [`route`]: chunks are summed in order, so the result
/// is the same on any number of threads.
const CHUNK: usize = 16;

/// Every message routed on a `w`-shortest path: Σ_{s≠t} d_w(s, t) and the
/// load of every directed link.
fn route(graph: &Graph, w: &[f64]) -> (f64, Vec<f64>) {
    let n = graph.nodes();
    let m = graph.directed_links();
    let chunks: Vec<(f64, Vec<f64>)> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut loads = vec![0.0; m];
            let mut sum = 0.0;
            let mut tree = Tree::new(n);
            for s in c * CHUNK..((c + 1) * CHUNK).min(n) {
                sum += tree.grow(graph, w, s as u32, &mut loads);
            }
            (sum, loads)
        })
        .collect();
    let mut loads = vec![0.0; m];
    let mut sum = 0.0;
    for (s, l) in chunks {
        sum += s;
        loads.iter_mut().zip(&l).for_each(|(a, b)| *a += b);
    }
    (sum, loads)
}

/// A shortest-path tree's work space, reused from source to source.
struct Tree {
    dist: Vec<f64>,
    parent: Vec<u32>,
    order: Vec<u32>,
    below: Vec<f64>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl Tree {
    fn new(n: usize) -> Tree {
        Tree {
            dist: vec![f64::INFINITY; n],
            parent: vec![u32::MAX; n],
            order: Vec::with_capacity(n),
            below: vec![0.0; n],
            heap: BinaryHeap::new(),
        }
    }

    /// Dijkstra from `s` under `w`; adds the tree's loads (one message to
    /// every other node) to `loads` and returns Σ_t d_w(s, t). Distances are
    /// non-negative, so their bit patterns order as they do.
    fn grow(&mut self, graph: &Graph, w: &[f64], s: u32, loads: &mut [f64]) -> f64 {
        self.dist.fill(f64::INFINITY);
        self.parent.fill(u32::MAX);
        self.order.clear();
        self.dist[s as usize] = 0.0;
        self.heap.push(Reverse((0f64.to_bits(), s)));
        while let Some(Reverse((bits, x))) = self.heap.pop() {
            let d = f64::from_bits(bits);
            if d > self.dist[x as usize] || self.below[x as usize] < 0.0 {
                continue;
            }
            // Settled: marked by a negative count until the loads are added.
            self.below[x as usize] = -1.0;
            self.order.push(x);
            for link in graph.links_of(x) {
                let (_, y) = graph.endpoints(link);
                let through = d + w[link as usize];
                if through < self.dist[y as usize] {
                    self.dist[y as usize] = through;
                    self.parent[y as usize] = link;
                    self.heap.push(Reverse((through.to_bits(), y)));
                }
            }
        }
        let mut sum = 0.0;
        for &x in &self.order {
            self.below[x as usize] = 1.0;
        }
        for &x in self.order.iter().skip(1).rev() {
            let link = self.parent[x as usize];
            let count = self.below[x as usize];
            loads[link as usize] += count;
            let (tail, _) = graph.endpoints(link);
            self.below[tail as usize] += count;
            sum += self.dist[x as usize];
        }
        for &x in &self.order {
            self.below[x as usize] = 0.0;
        }
        sum
    }
}

/// Real weights scaled so the largest is 10⁹, rounded to integers.
fn round(weights: &[f64]) -> Vec<u64> {
    let top = max(weights);
    if top <= 0.0 || !top.is_finite() {
        return vec![0; weights.len()];
    }
    weights
        .iter()
        .map(|&v| (v / top * 1e9).round() as u64)
        .collect()
}

#[cfg(test)]
mod line_search_tests {
    use super::sparse_line_search;

    /// The minimiser of ln Σ exp(b·(x + γ·d)) over [0, 1] by bisection alone,
    /// as the search did before its Newton steps.
    fn bisected(x: &[f64], support: &[(usize, f64)], b: f64) -> f64 {
        let slope = |g: f64| {
            support
                .iter()
                .map(|&(e, de)| (b * (x[e] + g * de)).exp() * de)
                .sum::<f64>()
        };
        if slope(0.0) >= 0.0 {
            return 0.0;
        }
        if slope(1.0) <= 0.0 {
            return 1.0;
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if slope(mid) > 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        0.5 * (lo + hi)
    }

    #[test]
    fn newton_steps_find_the_step_bisection_finds() {
        // Loads and moves of a few links, from a fixed pseudo-random sequence.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..200 {
            let links = 2 + case % 9;
            let x: Vec<f64> = (0..links).map(|_| 10.0 * next()).collect();
            let support: Vec<(usize, f64)> = (0..links).map(|e| (e, 6.0 * next() - 3.0)).collect();
            let b = 0.1 + 3.0 * next();
            let (newton, bisection) = (
                sparse_line_search(&x, &support, b),
                bisected(&x, &support, b),
            );
            assert!(
                (newton - bisection).abs() < 1e-6,
                "case {case}: {newton} against {bisection}"
            );
        }
    }
}
