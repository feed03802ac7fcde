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
//! is not fixed, Σ letters `s` ≤ T (= T when the table is full); with
//! `filled_links`, when it is fixed and the letters total T, every cell of `s`
//! is used (each column has at most one of the T letters); with `empty_cells`,
//! at most `σ` cells of the table and `T − m_s` of link `s` are empty (the
//! slack of the capacity argument, and of the fewest `s`-letters the messages
//! need; see `empty_cell_clauses`).
//!
//! Route lengths are pruned by the capacity argument: a table has
//! min(ports, |S|)·T letters at most, so a word may be longer than its
//! distance by at most min(ports, |S|)·T − Σ d(e). This is the only fact the
//! formula relies on that it does not encode itself (see docs/trust.md).

use super::cnf::{Cnf, Lit};
use super::options::{EncodeError, EncodingOptions, WordLengths};
pub use super::routes::RouteVars;
use super::routes::{Route, exact_step_sets, route};
use super::symmetry::{Symmetries, TableMap};
pub use counting::EMPTY_CELL_SLACK_LIMIT;
use counting::{
    empty_cell_clauses, excess_letter_clauses, filled_links, joint_count_clauses,
    letter_count_clauses, letter_floor,
};
use serde::Serialize;
use std::collections::HashMap;
use txverify_core::group::Elem;
use txverify_core::kernel::{Instance, LinkId, Table, TableLetter};

mod counting;

/// Version of the encoding; a certificate is only valid for the version that made it.
pub const ENCODING_VERSION: &str = "txverify-cnf-1";

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
/// The clauses come in a fixed order (a certificate names the formula by its
/// digest): the routes' own clauses, one start per message, the occupancy
/// variables, the cells and columns, the letter counts, the empty cells, the
/// excess letters, the split into blocks,
/// the symmetry restrictions, the symmetry breaking.
pub fn encode(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
) -> Result<Encoding, EncodeError> {
    let plan = Plan::new(instance, time, options)?;
    let mut cnf = Cnf::new();
    let Some(extra) = plan.extra else {
        // Counting alone rules `time` out: the formula is the empty clause.
        cnf.add(&[]);
        return Ok(plan.into_encoding(cnf, Vec::new()));
    };
    let (routes, by_message) = add_routes(&mut cnf, instance, time, &plan.messages, extra);
    for rv in &routes {
        route_clauses(&mut cnf, instance, rv);
    }
    start_clauses(&mut cnf, &routes, &by_message);
    let occupancy = occupancy_clauses(&mut cnf, instance, time, &routes, &by_message);
    let redundant = !options.no_redundant;
    let filled = match redundant && options.filled_links {
        true => filled_links(instance, time, &routes, &by_message),
        false => vec![false; instance.links().len()],
    };
    cell_clauses(
        &mut cnf,
        instance,
        time,
        &plan,
        &occupancy,
        (redundant, &filled),
    );
    let counts = (&routes[..], &by_message[..]);
    if redundant {
        let floor = match options.letter_floors {
            true => letter_floor(instance, time),
            false => None,
        };
        letter_count_clauses(&mut cnf, instance, time, counts, (plan.full, floor));
    }
    let mut empties = Vec::new();
    if redundant && options.empty_cells {
        empties = empty_cell_clauses(&mut cnf, instance, time, &plan, &occupancy, counts);
    }
    let mut excess = Vec::new();
    if redundant && options.excess_letters {
        excess = excess_letter_clauses(&mut cnf, instance, time, &routes, &by_message);
    }
    if redundant && options.joint_counts {
        joint_count_clauses(&mut cnf, &empties, &excess);
    }
    if !plan.split.is_empty() {
        split_clauses(&mut cnf, instance, time, &plan, &occupancy);
    }
    symmetry_clauses(&mut cnf, time, &routes, &plan.symmetries, options.tail);
    if let Some(breaking) = &options.break_symmetry {
        super::breaking::lex_leader_clauses(
            &mut cnf,
            time,
            &routes,
            &plan.breaking,
            breaking.prefix,
        )?;
    }
    Ok(plan.into_encoding(cnf, routes))
}

/// What the formula for one `T` will be about, worked out before any variable.
struct Plan {
    time: usize,
    /// The messages, in element order.
    messages: Vec<Elem>,
    /// Whether the shortest words exactly fill the capacity.
    full: bool,
    /// How many letters a word may have beyond its message's distance; `None`
    /// when counting alone shows that no table has `time` columns.
    extra: Option<usize>,
    /// The links to split along (empty: no split).
    split: Vec<LinkId>,
    /// The symmetry restrictions.
    symmetries: Symmetries,
    /// The symmetries whose lex-leader constraints are added.
    breaking: Vec<TableMap>,
}

impl Plan {
    /// Checks the request against the instance and works out the plan.
    fn new(
        instance: &Instance,
        time: usize,
        options: &EncodingOptions,
    ) -> Result<Plan, EncodeError> {
        if !instance.defects().is_empty() {
            return Err(EncodeError::DefectiveLinks);
        }
        let symmetries = Symmetries::new(instance, options)?;
        if options.tail > 0 && (options.automorphism.is_none() || options.tail > time) {
            return Err(EncodeError::Tail {
                tail: options.tail,
                time,
            });
        }
        let breaking = match &options.break_symmetry {
            Some(_) if !options.unrestricted() => {
                return Err(EncodeError::BreakingWithRestriction);
            }
            Some(breaking) => super::breaking::table_maps(instance, breaking)?,
            None => Vec::new(),
        };
        let split: Vec<LinkId> = options
            .split
            .iter()
            .map(|&l| LinkId(u32::from(l)))
            .collect();
        if !split.is_empty() && !super::split::can_split(instance, &split, time) {
            return Err(EncodeError::Split(options.split.clone()));
        }
        let distances = instance.distances();
        let wanted = instance.message_set();
        let messages: Vec<Elem> = (0..wanted.len())
            .filter(|&e| wanted[e])
            .map(|e| Elem(e as u32))
            .collect();
        let capacity = instance.ports().min(instance.links().len()) * time;
        let distance_sum = shortest_letters(instance);
        let too_far = messages
            .iter()
            .any(|e| distances[e.index()] as usize > time);
        let extra = (distance_sum <= capacity && !too_far).then(|| {
            let spare = capacity - distance_sum;
            match options.lengths {
                WordLengths::Shortest => 0,
                WordLengths::Slack(k) => k.min(spare),
                WordLengths::Any => spare,
            }
        });
        Ok(Plan {
            time,
            messages,
            full: fills_every_cell(instance, time),
            extra,
            split,
            symmetries,
            breaking,
        })
    }

    fn into_encoding(self, cnf: Cnf, routes: Vec<RouteVars>) -> Encoding {
        Encoding {
            cnf,
            time: self.time,
            messages: self.messages,
            routes,
            full: self.full,
        }
    }
}

/// `occupancy[(m, s, c)]`: message `m` sends over link `s` in column `c`
/// (absent where no route of `m` can).
type Occupancy = HashMap<(usize, usize, usize), Lit>;

/// The routes of every message with their variables, and the routes of each
/// message (indices into the first list).
fn add_routes(
    cnf: &mut Cnf,
    instance: &Instance,
    time: usize,
    messages: &[Elem],
    extra: usize,
) -> (Vec<RouteVars>, Vec<Vec<usize>>) {
    let distances = instance.distances();
    let max_len = messages
        .iter()
        .map(|e| distances[e.index()] as usize + extra)
        .max()
        .unwrap_or(0)
        .min(time);
    let forward = exact_step_sets(instance, Elem::IDENTITY, max_len);
    let mut routes = Vec::new();
    let mut by_message: Vec<Vec<usize>> = vec![Vec::new(); messages.len()];
    for (m, &e) in messages.iter().enumerate() {
        let d = distances[e.index()] as usize;
        let top = (d + extra).min(time);
        let backward = exact_step_sets(instance, e, top);
        for len in d..=top {
            let Some(route) = route(instance, e, len, &forward, &backward) else {
                continue;
            };
            by_message[m].push(routes.len());
            routes.push(route_vars(cnf, route, m, time));
        }
    }
    (routes, by_message)
}

/// Fresh variables for one route of message `m`.
fn route_vars(cnf: &mut Cnf, route: Route, message: usize, time: usize) -> RouteVars {
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
        message,
        sel,
        x,
        nodes,
        letters,
    }
}

/// Exactly one start over all routes of each message.
fn start_clauses(cnf: &mut Cnf, routes: &[RouteVars], by_message: &[Vec<usize>]) {
    for mine in by_message {
        let starts: Vec<Lit> = mine
            .iter()
            .flat_map(|&r| routes[r].x.iter().copied())
            .collect();
        cnf.exactly_one(&starts);
        if mine.len() == 1 {
            cnf.add(&[routes[mine[0]].sel]);
        }
    }
}

/// The occupancy variables `o[m][s][c] ↔ ∨_k (letter[k][s] ∧ x[c-k])`.
fn occupancy_clauses(
    cnf: &mut Cnf,
    instance: &Instance,
    time: usize,
    routes: &[RouteVars],
    by_message: &[Vec<usize>],
) -> Occupancy {
    let mut occupancy = Occupancy::new();
    for (m, mine) in by_message.iter().enumerate() {
        for s in 0..instance.links().len() {
            let link = LinkId(s as u32);
            for c in 0..time {
                // (letter, start) pairs that can put letter s in column c.
                let mut causes: Vec<(Lit, Lit)> = Vec::new();
                for &r in mine {
                    let rv = &routes[r];
                    for k in 0..rv.route.len {
                        if k > c || c - k >= rv.x.len() {
                            continue;
                        }
                        if let Some(l) = rv.letter(k, link) {
                            causes.push((l, rv.x[c - k]));
                        }
                    }
                }
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

/// At most one message per (link, column) cell, at most `ports` letters per
/// column, and (redundant) every cell or slot used when the table is full,
/// every cell of a filled link (`filled[s]`) otherwise.
fn cell_clauses(
    cnf: &mut Cnf,
    instance: &Instance,
    time: usize,
    plan: &Plan,
    occupancy: &Occupancy,
    (redundant, filled): (bool, &[bool]),
) {
    let link_count = instance.links().len();
    let ports = instance.ports();
    for c in 0..time {
        let mut column = Vec::new();
        for (s, &filled_link) in filled.iter().enumerate() {
            let cell: Vec<Lit> = (0..plan.messages.len())
                .filter_map(|m| occupancy.get(&(m, s, c)).copied())
                .collect();
            cnf.at_most_one(&cell);
            if (plan.full && redundant && ports >= link_count) || filled_link {
                cnf.add(&cell);
            }
            column.extend(cell);
        }
        if ports < link_count {
            cnf.at_most(&column, ports);
            if plan.full && redundant {
                cnf.at_least(&column, ports);
            }
        }
    }
}

/// The split into blocks: each message of a coset x·F (F = ⟨E⟩) takes one block
/// (`block[i][b]`), and keeps its letters outside E there, at the same offsets
/// in every block (`pattern[c']`: link s in column c' of the block).
fn split_clauses(
    cnf: &mut Cnf,
    instance: &Instance,
    time: usize,
    plan: &Plan,
    occupancy: &Occupancy,
) {
    let split = &plan.split;
    let position: HashMap<Elem, usize> = plan
        .messages
        .iter()
        .enumerate()
        .map(|(m, &x)| (x, m))
        .collect();
    let Some(factor) = super::split::direct_factor(instance, split) else {
        return;
    };
    let count = factor.elements.len();
    let width = time / count;
    for coset in super::split::blocks(instance, split) {
        let block: Vec<Vec<Lit>> = coset
            .iter()
            .map(|_| (0..count).map(|_| cnf.fresh()).collect())
            .collect();
        for vars in &block {
            cnf.exactly_one(vars);
        }
        // The blocks of x·f follow x's: block(x·f) = block(x)·f, blocks being
        // numbered by the elements of F. Along C2^k this is block(x) xor f (f
        // read as k bits), as in the doubling construction, where each split
        // swaps the two halves of some pairs.
        for (i, vars) in block.iter().enumerate() {
            for b in 0..count {
                cnf.add(&[-block[0][b], vars[factor.product[b][i]]]);
            }
        }
        let kept = (0..instance.links().len()).filter(|&s| !split.contains(&LinkId(s as u32)));
        for s in kept {
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

/// Every used route of a message of a full orbit is mapped by each symmetry
/// onto a used route of the image, start and letters included.
///
/// With a free tail of `tail` columns, an automorphism's clauses hold only for
/// the orbits outside it: one variable per full orbit says "this orbit lies in
/// the tail" (then its words are free and end there), and the messages of short
/// orbits must lie in the tail.
fn symmetry_clauses(
    cnf: &mut Cnf,
    time: usize,
    routes: &[RouteVars],
    symmetries: &Symmetries,
    tail: usize,
) {
    let index: HashMap<(Elem, usize), usize> = routes
        .iter()
        .enumerate()
        .map(|(i, rv)| ((rv.route.message, rv.route.len), i))
        .collect();
    for map in symmetries.maps() {
        let tailed = tail > 0 && !map.reverses_time();
        let mut in_tail: HashMap<Elem, Lit> = HashMap::new();
        for rv in routes {
            let message = rv.route.message;
            if map.orbit_len(message) < map.order() {
                // A message fixed by a power of the map would need a word (and, for
                // the time reversal, a placement) fixed by it, often impossible; the
                // messages of such short orbits are left free (in the tail, if any).
                if tailed {
                    keep_in_tail(cnf, time, tail, rv, None);
                }
                continue;
            }
            let guard = tailed.then(|| {
                let lit = *in_tail
                    .entry(orbit_representative(map, message))
                    .or_insert_with(|| cnf.fresh());
                keep_in_tail(cnf, time, tail, rv, Some(lit));
                lit
            });
            let image = map.element(message);
            match index.get(&(image, rv.route.len)) {
                Some(&j) => map_route(cnf, time, rv, &routes[j], map, guard),
                None => cnf.add(&[-rv.sel]),
            }
        }
    }
}

/// The least element of `e`'s orbit under `map`, which names the orbit.
fn orbit_representative(map: &TableMap, e: Elem) -> Elem {
    let mut least = e;
    let mut cur = map.element(e);
    while cur != e {
        least = least.min(cur);
        cur = map.element(cur);
    }
    least
}

/// Route `rv` starts late enough to end in the last `tail` columns: always
/// (`guard` = `None`) or when `guard` holds.
fn keep_in_tail(cnf: &mut Cnf, time: usize, tail: usize, rv: &RouteVars, guard: Option<Lit>) {
    for (t, &x) in rv.x.iter().enumerate() {
        if t < time - tail {
            match guard {
                Some(g) => cnf.add(&[-g, -x]),
                None => cnf.add(&[-x]),
            }
        }
    }
}

/// Route `rv` used implies its image `other` under `map` used, with the
/// image's start and letters.
/// With a `guard`, every clause holds only when the guard is false.
fn map_route(
    cnf: &mut Cnf,
    time: usize,
    rv: &RouteVars,
    other: &RouteVars,
    map: &TableMap,
    guard: Option<Lit>,
) {
    let len = rv.route.len;
    let mut add = |clause: &[Lit]| match guard {
        Some(g) => {
            let mut guarded = clause.to_vec();
            guarded.push(g);
            cnf.add(&guarded);
        }
        None => cnf.add(clause),
    };
    add(&[-rv.sel, other.sel]);
    for (t, &x) in rv.x.iter().enumerate() {
        let t2 = if map.reverses_time() {
            time - len - t
        } else {
            t
        };
        add(&[-x, other.x[t2]]);
    }
    for k in 0..len {
        let k2 = if map.reverses_time() { len - 1 - k } else { k };
        for (i, &link) in rv.route.letters[k].iter().enumerate() {
            let l = rv.letters[k][i];
            match other.letter(k2, map.link(link)) {
                Some(l2) => add(&[-l, l2]),
                None => add(&[-l]),
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
        Some(txverify_core::kernel::Table::from_placed_words(
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
