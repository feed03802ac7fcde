//! The redundant counting constraints of the table formula: the letters per
//! link, the filled links, the empty cells and the excess letters near the
//! bound. Every one holds in every valid table of the class (each function
//! says why), so they only help the solver.

use super::{Occupancy, Plan, shortest_letters};
use crate::cnf::{Cnf, Lit};
use crate::routes::{Route, RouteVars};
use txverify_core::kernel::{Instance, LinkId};

/// The links whose letters every allowed word of each message fixes and whose
/// letters then total `time`: each of the `time` columns holds one of them.
pub(super) fn filled_links(
    instance: &Instance,
    time: usize,
    routes: &[RouteVars],
    by_message: &[Vec<usize>],
) -> Vec<bool> {
    let fixed_total = |link: LinkId| {
        let mut total = 0;
        for mine in by_message {
            let ranges: Vec<(usize, usize)> = (mine.iter())
                .map(|&r| routes[r].route.letter_count_range(link, instance))
                .collect();
            let (lo, _) = *ranges.first()?;
            if ranges.iter().any(|&range| range != (lo, lo)) {
                return None;
            }
            total += lo;
        }
        Some(total)
    };
    (0..instance.links().len())
        .map(|s| fixed_total(LinkId(s as u32)) == Some(time))
        .collect()
}

/// The largest slack (empty cells allowed) for which the empty-cell counts and
/// the excess letters are added: a totalizer has about `slack + 1` outputs per node, so a
/// larger slack costs more clauses than the count saves.
pub const EMPTY_CELL_SLACK_LIMIT: usize = 24;

/// Redundant counting near the bound (`empty_cells`): a variable `empty[s][c]`
/// per cell, true where no message uses the cell (clause `cell ∨ empty`), and
///
/// - at most `σ = |S|·T − Σ d(e)` of them over the whole table (all-port);
/// - at most `σ_s = T − m_s` of them in link `s`, where `m_s` is the sum over
///   the messages of the fewest `s`-letters among their allowed words (added
///   where `σ_s < σ`; when `m_s > T` no table exists and the clause is empty).
///
/// Why every valid table of the class satisfies them (`empty` set to "the
/// cell is empty"): a cell holds at most one letter, so the cells of `s`
/// that are used are the `s`-letters of the table, `n_s = Σ_e count_s(w_e)`;
/// each word `w_e` is one of `e`'s allowed routes, so `count_s(w_e)` is at
/// least that message's fewest, `n_s ≥ m_s`, and `T − n_s ≤ T − m_s`.
/// Over the table the used cells are all the letters, `Σ_e |w_e| ≥ Σ_e d(e)`,
/// and every cell is a link's (ports ≥ |S|), so at most `|S|·T − Σ d(e)` are
/// empty. This holds for words of any length, not only shortest ones.
/// A count is added only where its slack is at most
/// [`EMPTY_CELL_SLACK_LIMIT`] and below `T`, and the table's not when it
/// is full (σ = 0: the cell clauses already ask every cell to be used).
pub(super) fn empty_cell_clauses(
    cnf: &mut Cnf,
    instance: &Instance,
    time: usize,
    plan: &Plan,
    occupancy: &Occupancy,
    (routes, by_message): (&[RouteVars], &[Vec<usize>]),
) -> Vec<Vec<Lit>> {
    let link_count = instance.links().len();
    let table_slack = (instance.ports() >= link_count)
        .then(|| (link_count * time).checked_sub(shortest_letters(instance)))
        .flatten()
        .filter(|&slack| slack > 0 && slack <= EMPTY_CELL_SLACK_LIMIT && slack < time);
    let mut link_slacks = Vec::with_capacity(link_count);
    for s in 0..link_count {
        let link = LinkId(s as u32);
        let fewest: usize = by_message
            .iter()
            .map(|mine| {
                mine.iter()
                    .map(|&r| routes[r].route.letter_count_range(link, instance).0)
                    .min()
                    .unwrap_or(0)
            })
            .sum();
        let Some(slack) = time.checked_sub(fewest) else {
            // More `s`-letters than columns: counting alone rules the class out.
            cnf.add(&[]);
            return Vec::new();
        };
        let useful = slack <= EMPTY_CELL_SLACK_LIMIT && slack < time;
        link_slacks.push((useful && table_slack.is_none_or(|t| slack < t)).then_some(slack));
    }
    if table_slack.is_none() && link_slacks.iter().all(Option::is_none) {
        return Vec::new();
    }
    let mut all_empty = Vec::new();
    let mut per_link = Vec::with_capacity(link_count);
    for (s, link_slack) in link_slacks.into_iter().enumerate() {
        let mut empty_here = Vec::with_capacity(time);
        for c in 0..time {
            let empty = cnf.fresh();
            let mut clause: Vec<Lit> = (0..plan.messages.len())
                .filter_map(|m| occupancy.get(&(m, s, c)).copied())
                .collect();
            clause.push(empty);
            cnf.add(&clause);
            empty_here.push(empty);
        }
        if let Some(slack) = link_slack {
            cnf.at_most(&empty_here, slack);
        }
        all_empty.extend(&empty_here);
        per_link.push(empty_here);
    }
    if let Some(slack) = table_slack {
        cnf.at_most(&all_empty, slack);
    }
    per_link
}

/// Redundant word choice (`excess_letters`): for each link `s` whose slack
/// `σ_s = T − m_s` is at most [`EMPTY_CELL_SLACK_LIMIT`] (m_s as in
/// [`empty_cell_clauses`]), a variable `more[e]` per message that has words
/// with different numbers of `s`-letters, true when its word has more than
/// the fewest `min_e`, and at most `σ_s` of them; with `σ_s = 0` every
/// message takes a word with the fewest, which fixes much of the words.
///
/// `more[e]` is forced by the route used (`sel → more` when every word of
/// the route has more than `min_e`) and, inside a route, by each edge that
/// only words with more lie on: `node[k][v] ∧ letter[k][l] → more` when
/// `a(v) + [l = s] + b(v·l) > min_e`, `a` and `b` the fewest `s`-letters
/// from the identity to `v` and from `v·l` to `e` in the route's layers.
///
/// Why every valid table satisfies them, with `more[e]` set to "the word of
/// `e` has more than `min_e` letters `s`": a word through that edge has at
/// least `a(v) + [l = s] + b(v·l)` of them, so each clause holds; and each
/// message with `more[e]` has at least one `s`-letter beyond `min_e`, so their
/// number is at most `n_s − m_s ≤ T − m_s` (a cell holds at most one letter:
/// `n_s ≤ T`). The clauses only name words that have more, and every word
/// with more goes through such an edge: at the first depth `k + 1` where its
/// count so far exceeds `a` (it does at the end, where `a(e)` is the route's
/// fewest), `a(v_k) + [l = s] > a(v_{k+1})`, and adding `b(v_{k+1})` gives more
/// than the route's fewest, at least `min_e`.
pub(super) fn excess_letter_clauses(
    cnf: &mut Cnf,
    instance: &Instance,
    time: usize,
    routes: &[RouteVars],
    by_message: &[Vec<usize>],
) -> Vec<LinkExcess> {
    let mut per_link = vec![None; instance.links().len()];
    for (s, this_link) in per_link.iter_mut().enumerate() {
        let link = LinkId(s as u32);
        let fewest: Vec<usize> = by_message
            .iter()
            .map(|mine| {
                (mine.iter())
                    .map(|&r| routes[r].route.letter_count_range(link, instance).0)
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        let Some(slack) = time.checked_sub(fewest.iter().sum()) else {
            continue; // `empty_cell_clauses` (or the letter counts) rule it out.
        };
        if slack > EMPTY_CELL_SLACK_LIMIT {
            continue;
        }
        let mut more_vars = Vec::new();
        for (m, mine) in by_message.iter().enumerate() {
            let mut more: Option<Lit> = None;
            for &r in mine {
                let rv = &routes[r];
                let (ahead, behind) = fewest_letters_around(&rv.route, link, instance);
                let route_fewest = behind[0][0];
                if route_fewest > fewest[m] {
                    let g = *more.get_or_insert_with(|| cnf.fresh());
                    cnf.add(&[-rv.sel, g]);
                    continue;
                }
                for k in 0..rv.route.len {
                    for (i, &v) in rv.route.layers[k].iter().enumerate() {
                        for (j, &l) in rv.route.letters[k].iter().enumerate() {
                            let next = instance.step(v, l);
                            let Some(w) = rv.route.position(k + 1, next) else {
                                continue;
                            };
                            let least = ahead[k][i] + usize::from(l == link) + behind[k + 1][w];
                            if least > fewest[m] {
                                let g = *more.get_or_insert_with(|| cnf.fresh());
                                cnf.add(&[-rv.nodes[k][i], -rv.letters[k][j], g]);
                            }
                        }
                    }
                }
            }
            more_vars.extend(more);
        }
        cnf.at_most(&more_vars, slack);
        *this_link = Some((slack, more_vars));
    }
    per_link
}

/// For each layer node of `route`, the fewest `link`-letters on a walk from
/// the identity to it (`ahead`) and from it to the message (`behind`);
/// `usize::MAX / 4` where no walk passes (every layer node has one).
fn fewest_letters_around(
    route: &Route,
    link: LinkId,
    instance: &Instance,
) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    const NONE: usize = usize::MAX / 4;
    let layers = &route.layers;
    let mut ahead: Vec<Vec<usize>> = layers.iter().map(|l| vec![NONE; l.len()]).collect();
    let mut behind = ahead.clone();
    ahead[0][0] = 0;
    for k in 0..route.len {
        for (i, &v) in layers[k].iter().enumerate() {
            for &l in &route.letters[k] {
                if let Some(w) = route.position(k + 1, instance.step(v, l)) {
                    let here = ahead[k][i] + usize::from(l == link);
                    ahead[k + 1][w] = ahead[k + 1][w].min(here);
                }
            }
        }
    }
    behind[route.len][0] = 0;
    for k in (0..route.len).rev() {
        for (i, &v) in layers[k].iter().enumerate() {
            for &l in &route.letters[k] {
                if let Some(w) = route.position(k + 1, instance.step(v, l)) {
                    let here = behind[k + 1][w] + usize::from(l == link);
                    behind[k][i] = behind[k][i].min(here);
                }
            }
        }
    }
    (ahead, behind)
}

/// Redundant: at most `T` letters per link (exactly `T` when the table is
/// full), where the messages do not fix that number; with `floor` (the
/// `letter_floors` option, see [`letter_floor`]), at least that many, from
/// the same count.
pub(super) fn letter_count_clauses(
    cnf: &mut Cnf,
    instance: &Instance,
    time: usize,
    (routes, by_message): (&[RouteVars], &[Vec<usize>]),
    (full, floor): (bool, Option<usize>),
) {
    let link_count = instance.links().len();
    for s in 0..link_count {
        let link = LinkId(s as u32);
        let mut fixed = true;
        let mut fewest = 0;
        let mut lits = Vec::new();
        for mine in by_message {
            if mine.len() > 1 {
                fixed = false;
            }
            let mut least = usize::MAX;
            for &r in mine {
                let rv = &routes[r];
                let (lo, hi) = rv.route.letter_count_range(link, instance);
                fixed &= lo == hi;
                least = least.min(lo);
                for k in 0..rv.route.len {
                    lits.extend(rv.letter(k, link));
                }
            }
            fewest += least.min(time + 1);
        }
        if fixed {
            continue;
        }
        match floor.filter(|&floor| floor > fewest) {
            // The floor says more than the words do: one count for both bounds.
            Some(floor) => at_least_and_at_most(cnf, &lits, floor, time),
            None => cnf.at_most(&lits, time),
        }
        if full && instance.ports() >= link_count {
            cnf.at_least(&lits, time);
        }
    }
}

/// At least `floor` and at most `cap` of `lits` (`floor ≤ cap`), from one
/// totalizer.
fn at_least_and_at_most(cnf: &mut Cnf, lits: &[Lit], floor: usize, cap: usize) {
    if floor > lits.len() {
        cnf.add(&[]);
        return;
    }
    let out = cnf.totalizer(lits, cap + 1);
    if let Some(&over) = out.get(cap) {
        cnf.add(&[-over]);
    }
    if floor > 0 {
        cnf.add(&[out[floor - 1]]);
    }
}

/// The fewest letters of every link in a table with `time` columns when the
/// table's slack `σ = |S|·T − Σ d(e)` is small (`letter_floors`): `T − σ`,
/// where `0 < σ ≤` [`EMPTY_CELL_SLACK_LIMIT`] and ports ≥ |S|.
///
/// Why every valid table of the class has at least `T − σ` letters of each
/// link `s`: a cell holds at most one letter and every letter one cell, so
/// the table's letters fill `Σ_e |w_e| ≥ Σ d(e)` of its `|S|·T` cells (words
/// of any length are at least as long as the distance), leaving at most `σ`
/// empty in the whole table, and so at most `σ` in the `T` cells of `s`,
/// whose other cells hold `s`-letters: `n_s ≥ T − σ`. Where the messages'
/// fewest `s`-letters `m_s` already reach `T − σ` the floor is left out (it
/// says nothing the words do not), and where the messages fix the count
/// there is no count to bound.
pub(super) fn letter_floor(instance: &Instance, time: usize) -> Option<usize> {
    let link_count = instance.links().len();
    let slack = (instance.ports() >= link_count)
        .then(|| (link_count * time).checked_sub(shortest_letters(instance)))
        .flatten()?;
    (slack > 0 && slack <= EMPTY_CELL_SLACK_LIMIT && slack < time).then(|| time - slack)
}

/// Redundant, joining the two counts of a link near its bound
/// (`joint_counts`): for each link `s` that has both the empty-cell variables
/// of [`empty_cell_clauses`] and the excess variables `more[e]` of
/// [`excess_letter_clauses`], at most `σ_s = T − m_s` of them together.
///
/// Why every valid table satisfies it (`empty` set to "the cell is empty",
/// `more[e]` to "the word of `e` has more `s`-letters than the fewest of its
/// allowed words", as both functions' arguments do): the cells of `s` that
/// are used are its letters, `n_s` of them, so `T − n_s` cells of `s` are
/// empty; and `n_s = Σ_e count_s(w_e) ≥ Σ_e (min_e + [more_e]) = m_s +
/// #more`. So `#empty_s + #more_s = T − n_s + #more_s ≤ T − m_s`, for words
/// of any length. Each count alone is already in the formula; together they
/// say that an empty cell of `s` costs a message its extra `s`-letter.
pub(super) fn joint_count_clauses(cnf: &mut Cnf, empties: &[Vec<Lit>], excess: &[LinkExcess]) {
    for (empty, excess) in empties.iter().zip(excess) {
        let Some((slack, more)) = excess else {
            continue;
        };
        if empty.is_empty() || more.is_empty() {
            continue;
        }
        let joint: Vec<Lit> = empty.iter().chain(more).copied().collect();
        cnf.at_most(&joint, *slack);
    }
}

/// A link's excess variables: its slack `σ_s = T − m_s` and the `more[e]`
/// variables of [`excess_letter_clauses`] (`None` where the link gets none).
pub(super) type LinkExcess = Option<(usize, Vec<Lit>)>;
