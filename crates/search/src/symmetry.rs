//! Symmetries a table may be asked to have: automorphisms of (G, S) and time reversal.
//!
//! An automorphism φ of G with φ(S) = S maps a valid table to a valid table
//! (word w for e becomes φ(w) for φ(e), same columns). Time reversal maps word
//! `s1…sk` for `e`, starting in column `c`, to `sk⁻¹…s1⁻¹` for `e⁻¹`, ending
//! in column `T + 1 − c`. Restricting the search to tables fixed by such maps
//! shrinks it a lot, but an unsatisfiable restricted formula only says that no
//! *symmetric* table exists.

use super::options::{EncodeError, EncodingOptions};
use std::collections::VecDeque;
use txverify_core::group::{BfsTree, Elem};
use txverify_core::kernel::{Instance, LinkId};

/// One map of the table onto itself.
#[derive(Clone, Debug)]
pub struct TableMap {
    elements: Vec<Elem>,
    links: Vec<LinkId>,
    reverses_time: bool,
}

impl TableMap {
    /// The automorphism φ of (G, S) with φ(s) = `links[s]`, checked: `None` when
    /// the permutation does not extend to one or moves the message set.
    pub fn automorphism(instance: &Instance, links: &[u16]) -> Option<TableMap> {
        let links: Vec<LinkId> = links.iter().map(|&l| LinkId(u32::from(l))).collect();
        let elements = extend_to_automorphism(instance, &links)?;
        let wanted = instance.message_set();
        if (0..wanted.len()).any(|e| wanted[e] != wanted[elements[e].index()]) {
            return None;
        }
        Some(TableMap {
            elements,
            links,
            reverses_time: false,
        })
    }

    /// The time reversal, or `None` when the message set is not closed under inverses.
    pub fn time_reversal(instance: &Instance) -> Option<TableMap> {
        let elements = inverses(instance);
        let wanted = instance.message_set();
        if (0..wanted.len()).any(|e| wanted[e] != wanted[elements[e].index()]) {
            return None;
        }
        let links = (0..instance.links().len())
            .map(|l| inverse_link(instance, LinkId(l as u32)))
            .collect();
        Some(TableMap {
            elements,
            links,
            reverses_time: true,
        })
    }

    /// This map followed by `then`.
    pub fn then(&self, then: &TableMap) -> TableMap {
        TableMap {
            elements: self.elements.iter().map(|&e| then.element(e)).collect(),
            links: self.links.iter().map(|&l| then.link(l)).collect(),
            reverses_time: self.reverses_time != then.reverses_time,
        }
    }

    /// Image of a message.
    pub fn element(&self, e: Elem) -> Elem {
        self.elements[e.index()]
    }
    /// Image of a link (at the mirrored position when time is reversed).
    pub fn link(&self, l: LinkId) -> LinkId {
        self.links[l.index()]
    }
    /// Whether columns are mirrored and words reversed.
    pub fn reverses_time(&self) -> bool {
        self.reverses_time
    }
    /// The number of distinct images of `e` under the powers of the map.
    pub fn orbit_len(&self, e: Elem) -> usize {
        let mut len = 1;
        let mut cur = self.element(e);
        while cur != e {
            cur = self.element(cur);
            len += 1;
        }
        len
    }
    /// The order of the map on tables: the order of its action on the elements,
    /// and at least 2 for the time reversal (which moves the columns).
    pub fn order(&self) -> usize {
        let mut seen = vec![false; self.elements.len()];
        let mut order = if self.reverses_time { 2 } else { 1 };
        for e in 0..self.elements.len() {
            if !seen[e] {
                let mut cur = Elem(e as u32);
                let mut len = 0;
                while !seen[cur.index()] {
                    seen[cur.index()] = true;
                    cur = self.element(cur);
                    len += 1;
                }
                order = lcm(order, len);
            }
        }
        order
    }
}

/// The maps a table must be invariant under.
#[derive(Clone, Debug, Default)]
pub struct Symmetries {
    maps: Vec<TableMap>,
}

impl Symmetries {
    /// The maps the options ask for, checked against the instance.
    pub fn new(instance: &Instance, options: &EncodingOptions) -> Result<Symmetries, EncodeError> {
        let mut maps = Vec::new();
        let wanted = instance.message_set();
        if let Some(perm) = &options.automorphism {
            let links: Vec<LinkId> = perm.iter().map(|&l| LinkId(l as u32)).collect();
            let elements =
                extend_to_automorphism(instance, &links).ok_or(EncodeError::NotAnAutomorphism)?;
            if (0..wanted.len()).any(|e| wanted[e] != wanted[elements[e].index()]) {
                return Err(EncodeError::AutomorphismMovesMessages);
            }
            maps.push(TableMap {
                elements,
                links,
                reverses_time: false,
            });
        }
        if options.time_reversal {
            let elements = inverses(instance);
            if (0..wanted.len()).any(|e| wanted[e] != wanted[elements[e].index()]) {
                return Err(EncodeError::MessagesNotInverseClosed);
            }
            let links = (0..instance.links().len())
                .map(|l| inverse_link(instance, LinkId(l as u32)))
                .collect();
            maps.push(TableMap {
                elements,
                links,
                reverses_time: true,
            });
        }
        Ok(Symmetries { maps })
    }

    /// The maps.
    pub fn maps(&self) -> &[TableMap] {
        &self.maps
    }
}

/// The link that is the inverse of `l`.
pub fn inverse_link(instance: &Instance, l: LinkId) -> LinkId {
    let letter = instance.links()[l.index()].inverted();
    instance
        .link_of_letter(letter)
        .expect("a defect-free link set is closed under inverses")
}

/// The inverse of every element.
pub fn inverses(instance: &Instance) -> Vec<Elem> {
    // Walk a BFS tree: if v = u·s then v⁻¹ = s⁻¹·u⁻¹, i.e. reading the word backwards.
    let tree = BfsTree::new(instance.group(), instance.links());
    let word: Vec<Option<Vec<LinkId>>> = instance
        .group()
        .elements()
        .map(|e| {
            let word = tree.word(e)?;
            Some(word.into_iter().map(|l| LinkId(l as u32)).collect())
        })
        .collect();
    word.iter()
        .map(|w| {
            w.as_ref()
                .map(|w| {
                    w.iter().rev().fold(Elem::IDENTITY, |e, &l| {
                        instance.step(e, inverse_link(instance, l))
                    })
                })
                .unwrap_or(Elem::IDENTITY)
        })
        .collect()
}

/// The automorphism φ with φ(s) = `links[s]` for every link, if there is one.
pub fn extend_to_automorphism(instance: &Instance, links: &[LinkId]) -> Option<Vec<Elem>> {
    let n = instance.links().len();
    if links.len() != n || links.iter().any(|l| l.index() >= n) {
        return None;
    }
    let order = instance.group().order();
    let mut image: Vec<Option<Elem>> = vec![None; order];
    image[0] = Some(Elem::IDENTITY);
    let mut queue = VecDeque::from([Elem::IDENTITY]);
    while let Some(u) = queue.pop_front() {
        let fu = image[u.index()]?;
        for l in 0..n {
            let l = LinkId(l as u32);
            let v = instance.step(u, l);
            let fv = instance.step(fu, links[l.index()]);
            match image[v.index()] {
                None => {
                    image[v.index()] = Some(fv);
                    queue.push_back(v);
                }
                Some(existing) if existing != fv => return None,
                Some(_) => {}
            }
        }
    }
    let image: Vec<Elem> = image.into_iter().collect::<Option<_>>()?;
    let mut hit = vec![false; order];
    for e in &image {
        if std::mem::replace(&mut hit[e.index()], true) {
            return None;
        }
    }
    Some(image)
}

/// A link permutation that extends to an automorphism, chosen to have the largest
/// order (a single cycle through all links when there is one, like the torus
/// rotation a → b → a⁻¹ → b⁻¹). Tries at most `budget` permutations.
pub fn find_rotation(instance: &Instance, budget: usize) -> Option<Vec<u16>> {
    let mut best: Option<(usize, Vec<u16>)> = None;
    for_each_permutation(instance.links().len(), budget, |p| {
        let order = permutation_order(p);
        if order > 1 && best.as_ref().is_none_or(|(o, _)| order > *o) {
            let links: Vec<LinkId> = p.iter().map(|&l| LinkId(l as u32)).collect();
            if extend_to_automorphism(instance, &links).is_some() {
                best = Some((order, p.to_vec()));
            }
        }
    });
    best.map(|(_, p)| p)
}

fn permutation_order(p: &[u16]) -> usize {
    cycle_lengths(p).into_iter().fold(1, lcm)
}

fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// A link permutation in words: the links it moves and its order, e.g.
/// `the automorphism a→b, b→a' (order 4)`.
pub fn describe(instance: &Instance, links: &[u16]) -> String {
    let names = instance.link_names();
    let moved: Vec<String> = links
        .iter()
        .enumerate()
        .filter(|&(from, &to)| from != to as usize)
        .map(|(from, &to)| format!("{}→{}", names[from], names[to as usize]))
        .collect();
    format!(
        "the automorphism {} (order {})",
        moved.join(", "),
        permutation_order(links)
    )
}

/// A symmetry worth trying as a restriction: tables invariant under it may
/// exist, as far as counting can tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The link permutation (extends to an automorphism fixing the message set).
    pub links: Vec<u16>,
    /// Its order.
    pub order: usize,
    /// Letters of the messages it leaves free (those of orbits shorter than the order).
    pub free_letters: usize,
    /// The free tail the restriction needs (0: none; see
    /// [`EncodingOptions::tail`](super::options::EncodingOptions::tail)).
    pub tail: usize,
}

/// Automorphism restrictions worth trying in a portfolio, most restrictive first.
///
/// Only permutations whose link orbits all have the full length (the order) are
/// kept: a message of a full orbit using a link of a shorter orbit would share
/// its cell with one of its images. When the shortest words exactly fill the
/// table, every column's cells used by full-orbit messages form whole link
/// orbits, so the free messages' letters fill whole orbits too: their number is
/// a multiple of the order, and the longest free word needs that many columns
/// with at least `order` free letters each. Permutations failing these counts
/// are left out, and of several with the same cycle type and the same free
/// letters only one is kept (conjugate symmetries give isomorphic problems).
/// Tries at most `budget` link permutations.
pub fn candidates(instance: &Instance, full: bool, budget: usize) -> Vec<Candidate> {
    kept(equal_cycle_automorphisms(instance, budget), full)
}

fn kept(automorphisms: Vec<(Candidate, usize)>, full: bool) -> Vec<Candidate> {
    let mut found: Vec<Candidate> = automorphisms
        .into_iter()
        .filter(|(c, longest)| {
            !full || (c.free_letters.is_multiple_of(c.order) && c.free_letters >= c.order * longest)
        })
        .map(|(c, _)| c)
        .collect();
    found.sort_by_key(|c| (c.free_letters, std::cmp::Reverse(c.order)));
    found
}

/// [`candidates`] and [`tailed_candidates`] together, from one pass over the
/// link permutations.
pub fn all_candidates(
    instance: &Instance,
    full: bool,
    per_column: usize,
    budget: usize,
) -> (Vec<Candidate>, Vec<Candidate>) {
    let automorphisms = equal_cycle_automorphisms(instance, budget);
    (
        kept(automorphisms.clone(), full),
        tailed(automorphisms, full, per_column),
    )
}

/// Automorphism restrictions with a free tail that holds what they leave free.
/// On a full table (`full`), those that leave a message free with a number of
/// free letters that is a multiple of the order: the ones [`candidates`] leaves
/// out only because the longest free word does not fit, and the ones it keeps
/// but cannot use to tie every message (the 8-cube's rotation of order 8, whose
/// free messages are not only the antipode); otherwise every one that leaves a
/// message free.
/// Each gets the narrowest tail counting allows: the longest free word, or
/// more when the free letters need more columns of `per_column` letters.
/// Largest order first: the tail holds what a symmetry of large order leaves
/// free, and the rest is divided by the order.
pub fn tailed_candidates(
    instance: &Instance,
    full: bool,
    per_column: usize,
    budget: usize,
) -> Vec<Candidate> {
    tailed(
        equal_cycle_automorphisms(instance, budget),
        full,
        per_column,
    )
}

fn tailed(automorphisms: Vec<(Candidate, usize)>, full: bool, per_column: usize) -> Vec<Candidate> {
    let mut found: Vec<Candidate> = automorphisms
        .into_iter()
        .filter(|(c, _)| c.free_letters > 0 && (!full || c.free_letters.is_multiple_of(c.order)))
        .map(|(c, longest)| Candidate {
            tail: longest.max(c.free_letters.div_ceil(per_column.max(1))),
            ..c
        })
        .collect();
    found.sort_by_key(|c| (std::cmp::Reverse(c.order), c.free_letters));
    found
}

/// Every link permutation of one cycle length that extends to an automorphism
/// fixing the message set, one per cycle type and number of free letters, with
/// the length of its longest free word.
fn equal_cycle_automorphisms(instance: &Instance, budget: usize) -> Vec<(Candidate, usize)> {
    let n = instance.links().len();
    let wanted = instance.message_set();
    let distances = instance.distances();
    let mut found = Vec::new();
    let mut seen_shapes: Vec<(Vec<usize>, usize)> = Vec::new();
    for_each_permutation(n, budget, |p| {
        let order = permutation_order(p);
        if order < 2 || cycle_lengths(p).iter().any(|&len| len != order) {
            return;
        }
        let links: Vec<LinkId> = p.iter().map(|&l| LinkId(l as u32)).collect();
        let Some(elements) = extend_to_automorphism(instance, &links) else {
            return;
        };
        if (0..wanted.len()).any(|e| wanted[e] != wanted[elements[e].index()]) {
            return;
        }
        let map = TableMap {
            elements,
            links,
            reverses_time: false,
        };
        let free: Vec<usize> = (0..wanted.len())
            .filter(|&e| wanted[e] && map.orbit_len(Elem(e as u32)) < order)
            .map(|e| distances[e] as usize)
            .collect();
        let free_letters: usize = free.iter().sum();
        let longest = free.iter().copied().max().unwrap_or(0);
        let shape = (cycle_lengths(p), free_letters);
        if seen_shapes.contains(&shape) {
            return;
        }
        seen_shapes.push(shape);
        let candidate = Candidate {
            links: p.to_vec(),
            order,
            free_letters,
            tail: 0,
        };
        found.push((candidate, longest));
    });
    found
}

/// Calls `f` on permutations of `0..n` (Heap's algorithm), at most `budget + 1` of them.
pub(crate) fn for_each_permutation(n: usize, budget: usize, mut f: impl FnMut(&[u16])) {
    let mut perm: Vec<u16> = (0..n as u16).collect();
    let mut c = vec![0usize; n];
    f(&perm);
    let (mut i, mut tried) = (0, 0);
    while i < n && tried < budget {
        if c[i] < i {
            if i % 2 == 0 {
                perm.swap(0, i);
            } else {
                perm.swap(c[i], i);
            }
            tried += 1;
            f(&perm);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

/// The lengths of the cycles of `p`, sorted.
fn cycle_lengths(p: &[u16]) -> Vec<usize> {
    let mut seen = vec![false; p.len()];
    let mut lengths = Vec::new();
    for start in 0..p.len() {
        let mut len = 0;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = p[i] as usize;
            len += 1;
        }
        if len > 0 {
            lengths.push(len);
        }
    }
    lengths.sort_unstable();
    lengths
}
