//! The CNF encoding of "a valid table with `T` columns exists".
//!
//! Per message `e` and allowed length `L` (a *route*, see [`super::routes`]):
//!
//! - `x[r][t]`: the word starts in column `t + 1` (`t = 0..=T-L`); exactly one
//!   start over all routes of a message; `sel[r]` is "route `r` is used".
//! - `node[r][k][v]`: the walk is at `v` after `k` letters; `letter[r][k][s]`:
//!   its `k+1`-th letter is `s`. Exactly one of each per depth when the route is
//!   used, none otherwise; `node[k][v] ∧ letter[k][s] → node[k+1][v·s]` (and the
//!   backward twin), so the letters spell a walk through the layered graph.
//! - `o[e][s][c]`: message `e` sends over `s` in column `c`, defined both ways
//!   from `letter` and `x`: `o[e][s][c] ↔ ∨_k (letter[k][s] ∧ x[c-k])`.
//!
//! Constraints: at most one message per (link, column) cell; at most `ports`
//! letters per column when `ports < |S|`. Redundant constraints that only
//! help the solver (they hold in every valid table): when the shortest words
//! exactly fill the capacity (Σ d(e) = min(ports, |S|)·T) every cell (or every
//! column's `ports` slots) is used; when the number of `s`-letters of a message
//! is not fixed, Σ letters `s` ≤ T (= T when the table is full).
//!
//! Route lengths are pruned by the capacity argument: a table has
//! min(ports, |S|)·T letters at most, so a word may be longer than its
//! distance by at most min(ports, |S|)·T − Σ d(e). This is the only fact the
//! formula relies on that it does not encode itself (see docs/trust.md).

use super::cnf::{Cnf, Lit};
use super::routes::{Route, exact_step_sets, route};
use super::symmetry::Symmetries;
use crate::group::Elem;
use crate::kernel::{Instance, LinkId, Table, TableLetter};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Version of the encoding; a certificate is only valid for the version that made it.
pub const ENCODING_VERSION: &str = "txverify-cnf-1";

/// Which words a table may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "extra")]
pub enum WordLengths {
    /// Shortest paths only.
    #[default]
    Shortest,
    /// Words up to this many letters longer than the distance.
    Slack(usize),
    /// Any walk that fits in the table.
    Any,
}

/// What the formula encodes, beyond the instance and `T`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncodingOptions {
    /// Allowed word lengths.
    pub lengths: WordLengths,
    /// Restrict to tables invariant under this permutation of the links (by
    /// index), which must extend to an automorphism φ of the group: the word of
    /// φ(e) is φ(word of e), in the same columns, for every message whose orbit
    /// under φ has as many elements as φ's order (the messages of shorter orbits
    /// are left free: a power of φ fixing e would have to fix e's word).
    pub automorphism: Option<Vec<u16>>,
    /// Restrict to tables equal to their time reversal (words reversed and
    /// inverted, columns mirrored).
    pub time_reversal: bool,
    /// Restrict to tables that repeat one pattern in `2^k` blocks of columns,
    /// split along these `k` links (by index; see [`super::split`]). Empty: no split.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<u16>,
    /// Leave out the redundant constraints (full-table cells, letter counts).
    pub no_redundant: bool,
}

impl EncodingOptions {
    /// Whether an unsatisfiable formula says something about *every* table with
    /// these word lengths (no restriction to symmetric tables).
    pub fn covers_all_tables(&self) -> bool {
        self.automorphism.is_none() && !self.time_reversal && self.split.is_empty()
    }
}

/// Variables of one route.
#[derive(Clone, Debug)]
pub struct RouteVars {
    /// The layered graph.
    pub route: Route,
    /// Index of the message in [`Encoding::messages`].
    pub message: usize,
    /// "route used".
    pub sel: Lit,
    /// Start variables, `x[t]` for `t = 0..=T-L`.
    pub x: Vec<Lit>,
    /// `nodes[k][i]` for node `route.layers[k][i]`.
    pub nodes: Vec<Vec<Lit>>,
    /// `letters[k][i]` for link `route.letters[k][i]`.
    pub letters: Vec<Vec<Lit>>,
}

impl RouteVars {
    fn letter(&self, k: usize, link: LinkId) -> Option<Lit> {
        self.route.letters[k]
            .binary_search(&link)
            .ok()
            .map(|i| self.letters[k][i])
    }
}

/// Sizes of an encoding, for progress reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EncodingStats {
    /// Messages.
    pub messages: usize,
    /// Routes (message × length).
    pub routes: usize,
    /// Variables.
    pub variables: usize,
    /// Clauses.
    pub clauses: usize,
    /// Whether the shortest words exactly fill the table.
    pub full: bool,
}

/// A formula together with the meaning of its variables.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// The formula.
    pub cnf: Cnf,
    /// Columns.
    pub time: usize,
    /// The messages, in element order.
    pub messages: Vec<Elem>,
    /// Every route, grouped by message.
    pub routes: Vec<RouteVars>,
    /// Whether the shortest words exactly fill the capacity.
    pub full: bool,
}

/// Why an encoding cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The link set is defective (the kernel reports how).
    #[error("the link set does not define a connected undirected network")]
    DefectiveLinks,
    /// The link permutation asked for does not extend to an automorphism of the group.
    #[error("the link permutation does not extend to an automorphism of the group")]
    NotAnAutomorphism,
    /// The automorphism asked for does not map the message set onto itself.
    #[error("the automorphism does not map the message set onto itself")]
    AutomorphismMovesMessages,
    /// Time reversal was asked for, but the message set is not closed under inverses.
    #[error("the message set is not closed under inverses")]
    MessagesNotClosedUnderInverses,
    /// The split asked for is not along central involutions that form a direct
    /// factor, or the columns do not divide into the blocks.
    #[error(
        "the table cannot split along links {0:?}: they must be central involutions that form a direct factor C2^k, with 2^k dividing the number of columns and the messages closed under them"
    )]
    Split(Vec<u16>),
}

/// Whether the messages' shortest words exactly fill a table with `time` columns
/// (Σ d(e) = min(ports, |S|)·T, with at least one message): then every cell (or
/// every column's `ports` slots) of a valid table with shortest words is used.
pub fn fills_every_cell(instance: &Instance, time: usize) -> bool {
    let letters = shortest_letters(instance);
    letters > 0 && letters == instance.ports().min(instance.links().len()) * time
}

/// The letters of all the messages' shortest words, Σ d(e): the fewest any table
/// needs, and the columns of a table that sends the words one after the other.
pub fn shortest_letters(instance: &Instance) -> usize {
    let wanted = instance.message_set();
    let distances = instance.distances();
    (0..wanted.len())
        .filter(|&e| wanted[e])
        .map(|e| distances[e] as usize)
        .sum()
}

/// Builds the formula for tables with `time` columns.
///
/// The clauses are added in a fixed order (routes, starts, occupancy and cells,
/// letter counts, split, symmetries): certificates pin the formula by its digest,
/// so the order is part of the encoding version.
pub fn encode(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
) -> Result<Encoding, EncodeError> {
    if !instance.defects().is_empty() {
        return Err(EncodeError::DefectiveLinks);
    }
    let symmetries = Symmetries::new(instance, options)?;
    let split: Vec<LinkId> = options
        .split
        .iter()
        .map(|&l| LinkId(u32::from(l)))
        .collect();
    if !split.is_empty() && !super::split::can_split(instance, &split, time) {
        return Err(EncodeError::Split(options.split.clone()));
    }
    let mut cnf = Cnf::new();
    let distances = instance.distances();
    let wanted = instance.message_set();
    let messages: Vec<Elem> = (0..wanted.len())
        .filter(|&e| wanted[e])
        .map(|e| Elem(e as u32))
        .collect();
    let capacity = instance.ports().min(instance.links().len()) * time;
    let distance_sum = shortest_letters(instance);
    let mut encoding = Encoding {
        cnf: Cnf::new(),
        time,
        messages: messages.clone(),
        routes: Vec::new(),
        full: fills_every_cell(instance, time),
    };
    if distance_sum > capacity
        || messages
            .iter()
            .any(|e| distances[e.index()] as usize > time)
    {
        cnf.add(&[]);
        encoding.cnf = cnf;
        return Ok(encoding);
    }
    let spare = capacity - distance_sum;
    let extra = match options.lengths {
        WordLengths::Shortest => 0,
        WordLengths::Slack(k) => k.min(spare),
        WordLengths::Any => spare,
    };
    let by_message = add_routes(&mut cnf, instance, &mut encoding, extra);
    let occupancy = add_occupancy(&mut cnf, instance, &encoding, &by_message);
    add_cells(&mut cnf, instance, &encoding, &occupancy, options);
    if !options.no_redundant {
        add_letter_counts(&mut cnf, instance, &encoding, &by_message);
    }
    if !split.is_empty() {
        add_split(&mut cnf, instance, &encoding, &occupancy, &split);
    }
    add_symmetries(&mut cnf, &encoding, &symmetries);
    encoding.cnf = cnf;
    Ok(encoding)
}

/// Occupancy variables `o[m][s][c]`, keyed by (message index, link index, column).
type Occupancy = HashMap<(usize, usize, usize), Lit>;

/// Creates every route of every message with its variables (appended to
/// `encoding.routes`), ties each route's variables together and asks for exactly
/// one start per message. Returns the routes of each message, by index.
fn add_routes(
    cnf: &mut Cnf,
    instance: &Instance,
    encoding: &mut Encoding,
    extra: usize,
) -> Vec<Vec<usize>> {
    let distances = instance.distances();
    let time = encoding.time;
    let max_len = encoding
        .messages
        .iter()
        .map(|e| distances[e.index()] as usize + extra)
        .max()
        .unwrap_or(0)
        .min(time);
    let forward = exact_step_sets(instance, Elem::IDENTITY, max_len);
    let mut by_message: Vec<Vec<usize>> = vec![Vec::new(); encoding.messages.len()];
    for (m, &e) in encoding.messages.iter().enumerate() {
        let d = distances[e.index()] as usize;
        let top = (d + extra).min(time);
        let backward = exact_step_sets(instance, e, top);
        for len in d..=top {
            let Some(route) = route(instance, e, len, &forward, &backward) else {
                continue;
            };
            by_message[m].push(encoding.routes.len());
            encoding.routes.push(route_vars(cnf, route, m, time));
        }
    }
    for rv in &encoding.routes {
        route_clauses(cnf, instance, rv);
    }
    for routes in &by_message {
        let starts: Vec<Lit> = routes
            .iter()
            .flat_map(|&r| encoding.routes[r].x.iter().copied())
            .collect();
        cnf.exactly_one(&starts);
        if routes.len() == 1 {
            cnf.add(&[encoding.routes[routes[0]].sel]);
        }
    }
    by_message
}

/// Fresh variables for one route of message `m` in a table with `time` columns.
fn route_vars(cnf: &mut Cnf, route: Route, m: usize, time: usize) -> RouteVars {
    let sel = cnf.fresh();
    let x = (0..=time - route.len).map(|_| cnf.fresh()).collect();
    let nodes = route
        .layers
        .iter()
        .map(|layer| layer.iter().map(|_| cnf.fresh()).collect())
        .collect();
    let letters = route
        .letters
        .iter()
        .map(|ls| ls.iter().map(|_| cnf.fresh()).collect())
        .collect();
    RouteVars {
        route,
        message: m,
        sel,
        x,
        nodes,
        letters,
    }
}

/// Defines `o[m][s][c]` ("message m sends over link s in column c") both ways
/// from the routes' letter and start variables.
fn add_occupancy(
    cnf: &mut Cnf,
    instance: &Instance,
    encoding: &Encoding,
    by_message: &[Vec<usize>],
) -> Occupancy {
    let mut occupancy = Occupancy::new();
    for (m, routes) in by_message.iter().enumerate() {
        for s in 0..instance.links().len() {
            for c in 0..encoding.time {
                let causes = occupancy_causes(encoding, routes, LinkId(s as u32), c);
                if causes.is_empty() {
                    continue;
                }
                let o = cnf.fresh();
                occupancy.insert((m, s, c), o);
                let mut some_start = vec![-o];
                for &(l, x) in &causes {
                    cnf.add(&[-l, -x, o]);
                    cnf.add(&[-o, -x, l]);
                    some_start.push(x);
                }
                cnf.add(&some_start);
            }
        }
    }
    occupancy
}

/// The (letter, start) variable pairs of `routes` that put `link` in column `c`.
fn occupancy_causes(
    encoding: &Encoding,
    routes: &[usize],
    link: LinkId,
    c: usize,
) -> Vec<(Lit, Lit)> {
    let mut causes = Vec::new();
    for &r in routes {
        let rv = &encoding.routes[r];
        for k in 0..rv.route.len {
            if k > c || c - k >= rv.x.len() {
                continue;
            }
            if let Some(l) = rv.letter(k, link) {
                causes.push((l, rv.x[c - k]));
            }
        }
    }
    causes
}

/// At most one message per (link, column) cell, at most `ports` letters per
/// column; when the shortest words fill the table, the redundant "at least" twins.
fn add_cells(
    cnf: &mut Cnf,
    instance: &Instance,
    encoding: &Encoding,
    occupancy: &Occupancy,
    options: &EncodingOptions,
) {
    let redundant = !options.no_redundant;
    let ports = instance.ports();
    let link_count = instance.links().len();
    for c in 0..encoding.time {
        let mut column = Vec::new();
        for s in 0..link_count {
            let cell: Vec<Lit> = (0..encoding.messages.len())
                .filter_map(|m| occupancy.get(&(m, s, c)).copied())
                .collect();
            cnf.at_most_one(&cell);
            if encoding.full && redundant && ports >= link_count {
                cnf.add(&cell);
            }
            column.extend(cell);
        }
        if ports < link_count {
            cnf.at_most(&column, ports);
            if encoding.full && redundant {
                cnf.at_least(&column, ports);
            }
        }
    }
}

/// Redundant: at most `T` letters per link (exactly `T` when the table is full),
/// for the links whose letter count the messages do not fix.
fn add_letter_counts(
    cnf: &mut Cnf,
    instance: &Instance,
    encoding: &Encoding,
    by_message: &[Vec<usize>],
) {
    let link_count = instance.links().len();
    for s in 0..link_count {
        let link = LinkId(s as u32);
        let mut fixed = true;
        let mut lits = Vec::new();
        for routes in by_message {
            if routes.len() > 1 {
                fixed = false;
            }
            for &r in routes {
                let rv = &encoding.routes[r];
                let (lo, hi) = rv.route.letter_count_range(link, instance);
                fixed &= lo == hi;
                for k in 0..rv.route.len {
                    lits.extend(rv.letter(k, link));
                }
            }
        }
        if !fixed {
            cnf.at_most(&lits, encoding.time);
            if encoding.full && instance.ports() >= link_count {
                cnf.at_least(&lits, encoding.time);
            }
        }
    }
}

/// The split into blocks: each message of a coset x·⟨E⟩ takes one block
/// (`block[i][b]`), and keeps its letters outside E there, at the same offsets in
/// every block (`pattern[c']`: link s in column c' of the block).
fn add_split(
    cnf: &mut Cnf,
    instance: &Instance,
    encoding: &Encoding,
    occupancy: &Occupancy,
    split: &[LinkId],
) {
    let position: HashMap<Elem, usize> = encoding
        .messages
        .iter()
        .enumerate()
        .map(|(m, &x)| (x, m))
        .collect();
    let count = 1usize << split.len();
    let time = encoding.time;
    let width = time / count;
    for coset in super::split::blocks(instance, split) {
        let block: Vec<Vec<Lit>> = coset
            .iter()
            .map(|_| (0..count).map(|_| cnf.fresh()).collect())
            .collect();
        for vars in &block {
            cnf.exactly_one(vars);
        }
        // The blocks of x·y follow x's: block(x·y) = block(x) xor y (y in ⟨E⟩
        // read as k bits), as in the doubling construction, where each split
        // swaps the two halves of some pairs.
        for (i, vars) in block.iter().enumerate() {
            for b in 0..count {
                cnf.add(&[-block[0][b], vars[b ^ i]]);
            }
        }
        let others = (0..instance.links().len()).filter(|&s| !split.contains(&LinkId(s as u32)));
        for s in others {
            let pattern: Vec<Lit> = (0..width).map(|_| cnf.fresh()).collect();
            for (i, message) in coset.iter().enumerate() {
                let m = position[message];
                for c in 0..time {
                    let (here, offset) = (block[i][c / width], pattern[c % width]);
                    match occupancy.get(&(m, s, c)) {
                        Some(&o) => {
                            cnf.add(&[-o, here]);
                            cnf.add(&[-o, offset]);
                            cnf.add(&[-offset, -here, o]);
                        }
                        None => cnf.add(&[-offset, -here]),
                    }
                }
            }
        }
    }
}

/// Symmetry restrictions: the route of a message's image under each map is the
/// image of its route (same columns, or mirrored for the time reversal).
fn add_symmetries(cnf: &mut Cnf, encoding: &Encoding, symmetries: &Symmetries) {
    let index: HashMap<(Elem, usize), usize> = encoding
        .routes
        .iter()
        .enumerate()
        .map(|(i, rv)| ((rv.route.message, rv.route.len), i))
        .collect();
    let time = encoding.time;
    for map in symmetries.maps() {
        for rv in &encoding.routes {
            let len = rv.route.len;
            let image = map.element(rv.route.message);
            if map.orbit_len(rv.route.message) < map.order() {
                // A message fixed by a power of the map would need a word (and, for
                // the time reversal, a placement) fixed by it, often impossible; the
                // messages of such short orbits are left free.
                continue;
            }
            let Some(&j) = index.get(&(image, len)) else {
                cnf.add(&[-rv.sel]);
                continue;
            };
            let other = &encoding.routes[j];
            cnf.add(&[-rv.sel, other.sel]);
            for (t, &x) in rv.x.iter().enumerate() {
                let t2 = if map.reverses_time() {
                    time - len - t
                } else {
                    t
                };
                cnf.add(&[-x, other.x[t2]]);
            }
            for k in 0..len {
                let k2 = if map.reverses_time() { len - 1 - k } else { k };
                for (i, &link) in rv.route.letters[k].iter().enumerate() {
                    let l = rv.letters[k][i];
                    match other.letter(k2, map.link(link)) {
                        Some(l2) => cnf.add(&[-l, l2]),
                        None => cnf.add(&[-l]),
                    }
                }
            }
        }
    }
}

/// Clauses tying one route's start, node and letter variables together.
fn route_clauses(cnf: &mut Cnf, instance: &Instance, rv: &RouteVars) {
    let route = &rv.route;
    for &x in &rv.x {
        cnf.add(&[-x, rv.sel]);
    }
    let mut any_start = vec![-rv.sel];
    any_start.extend(&rv.x);
    cnf.add(&any_start);
    for group in rv.nodes.iter().chain(&rv.letters) {
        let mut clause = vec![-rv.sel];
        clause.extend(group);
        cnf.add(&clause);
        cnf.at_most_one(group);
        for &v in group {
            cnf.add(&[-v, rv.sel]);
        }
    }
    for k in 0..route.len {
        for (i, &v) in route.layers[k].iter().enumerate() {
            let node = rv.nodes[k][i];
            let mut out = vec![-node];
            for (j, &link) in route.letters[k].iter().enumerate() {
                let letter = rv.letters[k][j];
                match route.position(k + 1, instance.step(v, link)) {
                    Some(next) => {
                        cnf.add(&[-node, -letter, rv.nodes[k + 1][next]]);
                        out.push(letter);
                    }
                    None => cnf.add(&[-node, -letter]),
                }
            }
            cnf.add(&out);
        }
        // Backward: node[k+1][w] ∧ letter[k][s] → node[k][w·s⁻¹].
        for (i, &w) in route.layers[k + 1].iter().enumerate() {
            let node = rv.nodes[k + 1][i];
            for (j, &link) in route.letters[k].iter().enumerate() {
                let letter = rv.letters[k][j];
                let back = instance
                    .group()
                    .apply(w, instance.links()[link.index()].inverted());
                match route.position(k, back) {
                    Some(prev) => cnf.add(&[-node, -letter, rv.nodes[k][prev]]),
                    None => cnf.add(&[-node, -letter]),
                }
            }
        }
    }
}

impl Encoding {
    /// Sizes, for reports.
    pub fn stats(&self) -> EncodingStats {
        EncodingStats {
            messages: self.messages.len(),
            routes: self.routes.len(),
            variables: self.cnf.vars(),
            clauses: self.cnf.clauses().len(),
            full: self.full,
        }
    }

    /// Reads a table off a model (`model[v - 1]` is the value of variable `v`).
    /// Returns `None` when the model does not pick one start and one letter per
    /// depth for every message (which would be an encoder bug).
    pub fn decode(&self, instance: &Instance, model: &[bool]) -> Option<Table> {
        let value = |l: Lit| model[l.unsigned_abs() as usize - 1] == (l > 0);
        let mut placed: Vec<(usize, Vec<LinkId>)> = Vec::new();
        for m in 0..self.messages.len() {
            let mut found = None;
            for rv in self.routes.iter().filter(|rv| rv.message == m) {
                for (t, &x) in rv.x.iter().enumerate() {
                    if value(x) {
                        if found.is_some() {
                            return None;
                        }
                        found = Some((rv, t));
                    }
                }
            }
            let (rv, t) = found?;
            let mut word = Vec::with_capacity(rv.route.len);
            for k in 0..rv.route.len {
                let mut chosen = rv.route.letters[k]
                    .iter()
                    .zip(&rv.letters[k])
                    .filter(|&(_, &l)| value(l))
                    .map(|(&link, _)| link);
                word.push(chosen.next()?);
                if chosen.next().is_some() {
                    return None;
                }
            }
            placed.push((t + 1, word));
        }
        Some(crate::kernel::Table::from_placed_words(
            instance.links(),
            instance.link_names(),
            placed,
        ))
    }

    /// The literals that describe a given table, if the formula can express it
    /// (every word one of the routes, every column within `T`). Used to test
    /// that the formula excludes no valid table.
    pub fn literals_for(&self, instance: &Instance, table: &Table) -> Option<Vec<Lit>> {
        let mut lits = Vec::new();
        for word in &table.words {
            let links: Vec<LinkId> = word
                .letters
                .iter()
                .map(|l| match l {
                    TableLetter::Gen(g) => instance.link_of_letter(*g),
                    TableLetter::UnknownName(_) => None,
                })
                .collect::<Option<_>>()?;
            let element = links
                .iter()
                .fold(Elem::IDENTITY, |e, &l| instance.step(e, l));
            let rv = self
                .routes
                .iter()
                .find(|rv| rv.route.message == element && rv.route.len == links.len())?;
            lits.push(*rv.x.get(word.column.checked_sub(1)?)?);
            for (k, &link) in links.iter().enumerate() {
                lits.push(rv.letter(k, link)?);
            }
        }
        Some(lits)
    }
}
