//! Coset enumeration (Todd–Coxeter) of a presentation over the trivial subgroup.
//!
//! The strategy is Felsch's: cosets are defined strictly in order (always the
//! first empty slot of the first incomplete coset), and after every definition
//! all consequences are drawn at once by scanning every cyclic conjugate of every
//! relator (and of its inverse) through each new table entry. Felsch's strategy
//! keeps the number of cosets close to the group order, which bounds memory, and
//! its in-order definitions guarantee termination on every finite presentation.
//!
//! Design choices, all for speed and bounded memory:
//! * one flat `Vec<u32>` table, `table[c * width + col]`, `col = 2·g + inverse`,
//!   which is also the layout of [`FiniteGroup`]'s action table;
//! * coincidences are handled by the classical queue-and-merge procedure with a
//!   union–find forwarding array, and the table is compacted when it runs out of
//!   room, so dead cosets are reclaimed instead of grown past the limit;
//! * the deduction stack is bounded: on overflow it is dropped and replaced by a
//!   full pass scanning every relator at every coset, which draws the same
//!   conclusions;
//! * a generator `x` with a long power relator `x^n` gets a chain tracker (a
//!   union–find over `x`-edges with component sizes), so the scan of `x^n`,
//!   which walks the whole `x`-chain, is skipped while the chain is provably too
//!   short to close — this turns `<a, b | a^1000, b^1000, [a, b]>` from
//!   seconds into a fraction of a second;
//! * the final table is renumbered in breadth-first order from the identity
//!   (columns in generator order), so element numbering depends only on the
//!   presentation, never on the history of the enumeration.

use super::{FiniteGroup, GenLetter, GroupError, Presentation};
use std::time::{Duration, Instant};

mod relators;

use relators::PreparedRelators;
pub(crate) use relators::reduce;

/// Resource limits for coset enumeration.
///
/// With the defaults a group of up to 2,000,000 elements is accepted. Working
/// memory is at most `max_cosets` cosets of `8 · ngens + 8` bytes each (the
/// table row, a forwarding entry, a queue slot), plus 4 bytes per generator that
/// has a long power relator (its chain tracker): with the default 16 million
/// cosets that is at most 384 MiB for 2 generators and 512 MiB for 3. Whatever
/// `max_cosets` says, these per-coset arrays are never allowed past
/// [`MAX_TABLE_BYTES`] (2 GiB) in total, so memory stays bounded for any number
/// of generators; building the final standardised table briefly needs one more
/// table of the group's order.
#[derive(Clone, Debug)]
pub struct EnumerationLimits {
    /// Largest group order accepted.
    pub max_order: usize,
    /// Largest number of live cosets during enumeration (working space).
    pub max_cosets: usize,
    /// Wall-clock budget, if any.
    pub time_budget: Option<Duration>,
}

impl Default for EnumerationLimits {
    fn default() -> Self {
        EnumerationLimits {
            max_order: 2_000_000,
            max_cosets: 16_000_000,
            time_budget: Some(Duration::from_secs(120)),
        }
    }
}

/// Hard cap on the per-coset working memory in bytes, whatever `max_cosets`
/// says, so a presentation with many generators cannot exhaust the machine.
pub const MAX_TABLE_BYTES: usize = 2 << 30;

/// Marks an empty table slot.
const UNDEF: u32 = u32::MAX;

/// Deductions kept pending at most; beyond this the stack is dropped and a full
/// scan is done instead (bounded memory, same conclusions).
#[cfg(not(test))]
const MAX_DEDUCTIONS: usize = 1 << 20;
/// Tiny in unit tests, so that the overflow path is exercised.
#[cfg(test)]
const MAX_DEDUCTIONS: usize = 16;

/// How many definitions (or deductions) between two looks at the clock.
const CLOCK_EVERY: u32 = 4096;

/// Working state of one Felsch enumeration.
struct Enumerator<'a> {
    width: usize,
    /// `table[c * width + col]`, `UNDEF` when empty.
    table: Vec<u32>,
    /// Union–find forwarding: `rep[c] == c` for live cosets.
    rep: Vec<u32>,
    /// Coset limit in force (live and dead cosets together, before compaction).
    cap: usize,
    /// Pending deductions `(coset, column)`.
    deductions: Vec<(u32, u32)>,
    /// The stack overflowed and some deductions were dropped.
    overflowed: bool,
    /// Dead cosets whose rows still have to be merged into their representatives.
    queue: Vec<u32>,
    relators: &'a PreparedRelators,
    /// Chain trackers, one per generator `x` with a long power relator `x^n`:
    /// a union–find over cosets joined by `x`-edges (and by coincidences), with
    /// the component size and a "may contain a cycle" flag at the root. Every real
    /// `x`-chain lies inside one component, so a component that is acyclic and
    /// smaller than `n` proves that scanning `x^n` would find nothing — which
    /// spares walking long chains after every definition.
    chains: Vec<Vec<u32>>,
    started: Instant,
    budget: Option<Duration>,
    ticks: u32,
    stats: Stats,
}

/// What an enumeration did, for tests and tuning.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stats {
    /// Most cosets in the table at once (live and dead).
    pub(crate) peak: usize,
    /// Cosets defined in total.
    pub(crate) defined: usize,
    /// Times the table was compacted.
    pub(crate) compactions: usize,
    /// Full relator scans done after the deduction stack overflowed.
    pub(crate) full_scans: usize,
}

impl Enumerator<'_> {
    fn count(&self) -> usize {
        self.rep.len()
    }

    fn is_live(&self, c: u32) -> bool {
        self.rep[c as usize] == c
    }

    /// A fresh coset with an empty row, or `None` when the limit is reached.
    fn new_coset(&mut self) -> Option<u32> {
        let n = self.count();
        if n >= self.cap {
            return None;
        }
        if self.table.len() == self.table.capacity() {
            // Grow geometrically, but never past the limit.
            let want = n.max(1024).min(self.cap - n) * self.width;
            self.table.reserve_exact(want);
            self.rep.reserve_exact(want / self.width);
            for chain in &mut self.chains {
                chain.reserve_exact(want / self.width);
            }
        }
        self.table.extend(std::iter::repeat_n(UNDEF, self.width));
        self.rep.push(n as u32);
        for chain in &mut self.chains {
            chain.push(CHAIN_ROOT | 2);
        }
        Some(n as u32)
    }

    fn get(&self, c: u32, col: u32) -> u32 {
        self.table[c as usize * self.width + col as usize]
    }

    fn set(&mut self, c: u32, col: u32, value: u32) {
        self.table[c as usize * self.width + col as usize] = value;
    }

    /// Adds the edge `c · col = d` (and its inverse) and records it in the chain
    /// tracker of its generator.
    fn link(&mut self, c: u32, col: u32, d: u32) {
        self.set(c, col, d);
        self.set(d, col ^ 1, c);
        if let Some(t) = self.relators.tracker[col as usize / 2] {
            chain_union(&mut self.chains[t], c, d);
        }
    }

    fn push_deduction(&mut self, c: u32, col: u32) {
        if self.deductions.len() < MAX_DEDUCTIONS {
            self.deductions.push((c, col));
        } else {
            self.overflowed = true;
        }
    }

    fn tick(&mut self) -> Result<(), GroupError> {
        self.ticks += 1;
        if self.ticks >= CLOCK_EVERY {
            self.ticks = 0;
            if let Some(budget) = self.budget
                && self.started.elapsed() > budget
            {
                return Err(GroupError::TimeBudget {
                    seconds: budget.as_secs(),
                });
            }
        }
        Ok(())
    }

    /// The live representative of `c`, compressing the path on the way.
    fn find(&mut self, c: u32) -> u32 {
        let mut root = c;
        while self.rep[root as usize] != root {
            root = self.rep[root as usize];
        }
        let mut cur = c;
        while self.rep[cur as usize] != root {
            let next = self.rep[cur as usize];
            self.rep[cur as usize] = root;
            cur = next;
        }
        root
    }

    /// Records that `a` and `b` are the same coset (the larger number dies).
    fn merge(&mut self, a: u32, b: u32) {
        let a = self.find(a);
        let b = self.find(b);
        if a != b {
            let (keep, kill) = if a < b { (a, b) } else { (b, a) };
            self.rep[kill as usize] = keep;
            for chain in &mut self.chains {
                chain_union(chain, a, b);
            }
            self.queue.push(kill);
        }
    }

    /// Processes the coincidence `a = b` and everything it implies.
    fn coincidence(&mut self, a: u32, b: u32) {
        self.merge(a, b);
        let mut i = 0;
        while i < self.queue.len() {
            let dead = self.queue[i];
            i += 1;
            for col in 0..self.width as u32 {
                let delta = self.get(dead, col);
                if delta == UNDEF {
                    continue;
                }
                // Detach the edge from the far end, then re-attach it to the survivors.
                self.set(delta, col ^ 1, UNDEF);
                let mu = self.find(dead);
                let nu = self.find(delta);
                let mu_x = self.get(mu, col);
                if mu_x != UNDEF {
                    self.merge(nu, mu_x);
                    continue;
                }
                let nu_xinv = self.get(nu, col ^ 1);
                if nu_xinv != UNDEF {
                    self.merge(mu, nu_xinv);
                    continue;
                }
                self.link(mu, col, nu);
                self.push_deduction(mu, col);
            }
        }
        self.queue.clear();
    }

    /// Scans the word `w` (a relator conjugate) as a loop at coset `c`: fills the
    /// single missing entry if there is exactly one, or processes the coincidence
    /// if the loop cannot close.
    fn scan(&mut self, c: u32, w: &[u32]) {
        let width = self.width;
        let n = w.len();
        let mut f = c;
        let mut i = 0;
        // Forward from c as far as the table allows.
        while i < n {
            let next = self.table[f as usize * width + w[i] as usize];
            if next == UNDEF {
                break;
            }
            f = next;
            i += 1;
        }
        if i == n {
            if f != c {
                self.coincidence(f, c);
            }
            return;
        }
        // Backward from c (the end of the loop) down to position i.
        let mut b = c;
        let mut j = n;
        while j > i {
            let prev = self.table[b as usize * width + (w[j - 1] ^ 1) as usize];
            if prev == UNDEF {
                break;
            }
            b = prev;
            j -= 1;
        }
        if j == i {
            // The backward walk reached position i, so b · w[i] is defined
            // while f · w[i] is not: f and b are different cosets that the
            // loop says are equal.
            if f != b {
                self.coincidence(f, b);
            }
            return;
        }
        if j == i + 1 {
            // Exactly one gap: f · w[i] = b is a deduction.
            let col = w[i];
            self.link(f, col, b);
            self.push_deduction(f, col);
        }
    }

    /// Draws all consequences of the pending deductions.
    fn process_deductions(&mut self) -> Result<(), GroupError> {
        let relators = self.relators;
        loop {
            while let Some((c, col)) = self.deductions.pop() {
                self.tick()?;
                if !self.is_live(c) || self.get(c, col) == UNDEF {
                    continue;
                }
                for conj in &relators.conjugates[col as usize] {
                    if let Some((t, n)) = conj.power {
                        let root = chain_find(&mut self.chains[t], c);
                        let info = self.chains[t][root as usize];
                        if info & 1 == 0 && (info & !CHAIN_ROOT) >> 1 < n {
                            continue;
                        }
                    }
                    let word = &relators.doubled[conj.source][conj.start..conj.start + conj.len];
                    self.scan(c, word);
                    if !self.is_live(c) {
                        break;
                    }
                }
            }
            if !self.overflowed {
                return Ok(());
            }
            // Some deductions were dropped: scan every relator at every coset.
            self.overflowed = false;
            self.stats.full_scans += 1;
            for c in 0..self.count() as u32 {
                if !self.is_live(c) {
                    continue;
                }
                self.tick()?;
                for w in &relators.base {
                    self.scan(c, w);
                    if !self.is_live(c) {
                        break;
                    }
                }
            }
        }
    }

    /// Removes dead cosets and renumbers the live ones in order. Returns the new
    /// number of the coset that was `keep` (which must be live).
    fn compact(&mut self, keep: u32) -> u32 {
        let n = self.count();
        let mut map = vec![UNDEF; n];
        let mut next = 0u32;
        for (c, slot) in map.iter_mut().enumerate() {
            if self.rep[c] == c as u32 {
                *slot = next;
                next += 1;
            }
        }
        let w = self.width;
        for c in 0..n {
            let m = map[c];
            if m == UNDEF {
                continue;
            }
            for col in 0..w {
                let v = self.table[c * w + col];
                self.table[m as usize * w + col] = if v == UNDEF { UNDEF } else { map[v as usize] };
            }
        }
        self.table.truncate(next as usize * w);
        self.rep.clear();
        self.rep.extend(0..next);
        for (g, t) in self.relators.tracker.iter().enumerate() {
            let Some(t) = *t else { continue };
            let mut chain = std::mem::take(&mut self.chains[t]);
            chain.clear();
            chain.resize(next as usize, CHAIN_ROOT | 2);
            for c in 0..next {
                let d = self.table[c as usize * w + 2 * g];
                if d != UNDEF {
                    chain_union(&mut chain, c, d);
                }
            }
            self.chains[t] = chain;
        }
        debug_assert!(self.deductions.is_empty());
        map[keep as usize]
    }
}

/// Marks a root in a chain tracker; the root's other bits hold `size << 1 | cyclic`.
const CHAIN_ROOT: u32 = 1 << 31;

/// Largest component a chain tracker can count (and so the coset limit).
const MAX_CHAIN_SIZE: usize = (1 << 30) - 1;

/// The root of `c`'s component, halving paths on the way.
fn chain_find(chain: &mut [u32], mut c: u32) -> u32 {
    loop {
        let p = chain[c as usize];
        if p & CHAIN_ROOT != 0 {
            return c;
        }
        let gp = chain[p as usize];
        if gp & CHAIN_ROOT != 0 {
            return p;
        }
        chain[c as usize] = gp;
        c = gp;
    }
}

/// Joins the components of `a` and `b`; joining a component to itself may close
/// a cycle, so it sets the cyclic flag.
fn chain_union(chain: &mut [u32], a: u32, b: u32) {
    let ra = chain_find(chain, a);
    let rb = chain_find(chain, b);
    if ra == rb {
        chain[ra as usize] |= 1;
        return;
    }
    let (ia, ib) = (chain[ra as usize], chain[rb as usize]);
    let (sa, sb) = ((ia & !CHAIN_ROOT) >> 1, (ib & !CHAIN_ROOT) >> 1);
    let (big, small) = if sa >= sb { (ra, rb) } else { (rb, ra) };
    chain[small as usize] = big;
    chain[big as usize] = CHAIN_ROOT | ((sa + sb) << 1) | ((ia | ib) & 1);
}

/// Enumerates the group defined by `presentation` (cosets of the trivial subgroup).
///
/// Returns the group with its elements numbered in breadth-first order from the
/// identity (generator columns in order `g0, g0⁻¹, g1, ...`), so the numbering is
/// deterministic. A generator that occurs in no relator makes the group infinite
/// and is reported at once as [`GroupError::Infinite`]; other infinite groups run
/// into [`GroupError::TooManyCosets`] or [`GroupError::TimeBudget`].
pub fn enumerate(
    presentation: &Presentation,
    limits: &EnumerationLimits,
) -> Result<FiniteGroup, GroupError> {
    run(presentation, limits).map(|(group, _)| group)
}

/// [`enumerate`], also reporting what the enumeration did.
pub(crate) fn run(
    presentation: &Presentation,
    limits: &EnumerationLimits,
) -> Result<(FiniteGroup, Stats), GroupError> {
    presentation.check_letters()?;
    let ngens = presentation.generators.len();
    if ngens == 0 {
        let group = FiniteGroup::from_action(Vec::new(), Vec::new())
            .ok_or_else(|| GroupError::CrossCheck("trivial group rejected".into()))?;
        return Ok((group, Stats::default()));
    }
    let relators = PreparedRelators::new(presentation);
    let mut mentioned = vec![false; ngens];
    for w in &relators.base {
        for &col in w {
            mentioned[col as usize / 2] = true;
        }
    }
    let unmentioned = mentioned.iter().filter(|&&m| !m).count();
    if unmentioned > 0 {
        let free_rank =
            super::abelian::abelianise(presentation).map_or(unmentioned, |a| a.free_rank);
        return Err(GroupError::Infinite { free_rank });
    }
    let width = 2 * ngens;
    // Bytes per coset: the table row, the forwarding entry, the coincidence
    // queue slot, the chain trackers.
    let per_coset = 4 * (width + 2 + relators.trackers);
    let cap = limits
        .max_cosets
        .min(MAX_TABLE_BYTES / per_coset)
        .clamp(1, MAX_CHAIN_SIZE);
    let mut e = Enumerator {
        width,
        table: Vec::new(),
        rep: Vec::new(),
        cap,
        deductions: Vec::new(),
        overflowed: false,
        queue: Vec::new(),
        relators: &relators,
        chains: vec![Vec::new(); relators.trackers],
        started: Instant::now(),
        budget: limits.time_budget,
        ticks: 0,
        stats: Stats::default(),
    };
    e.new_coset().expect("limit is at least one coset");
    let too_many = GroupError::TooManyCosets { limit: cap };

    // The first coset (in order) that may still have an empty slot.
    let mut fill: u32 = 0;
    loop {
        e.process_deductions()?;
        // Find the first empty slot at or after `fill`.
        let mut slot = None;
        while (fill as usize) < e.count() {
            if e.is_live(fill) {
                let row = &e.table[fill as usize * width..(fill as usize + 1) * width];
                if let Some(col) = row.iter().position(|&v| v == UNDEF) {
                    slot = Some(col as u32);
                    break;
                }
            }
            fill += 1;
        }
        let Some(col) = slot else {
            // Coincidences can reopen slots behind `fill`: look once more from the start.
            match (0..e.count() as u32).find(|&c| {
                e.is_live(c)
                    && e.table[c as usize * width..(c as usize + 1) * width].contains(&UNDEF)
            }) {
                Some(c) => {
                    fill = c;
                    continue;
                }
                None => break,
            }
        };
        e.tick()?;
        let d = match e.new_coset() {
            Some(d) => d,
            None => {
                let live = e
                    .rep
                    .iter()
                    .enumerate()
                    .filter(|&(i, &r)| r as usize == i)
                    .count();
                if live == e.count() {
                    return Err(too_many);
                }
                fill = e.compact(fill);
                e.stats.compactions += 1;
                e.new_coset().ok_or(too_many.clone())?
            }
        };
        e.stats.defined += 1;
        e.stats.peak = e.stats.peak.max(e.count());
        e.link(fill, col, d);
        e.push_deduction(fill, col);
    }

    e.stats.peak = e.stats.peak.max(e.count());
    Ok((standardise(&e, presentation, limits)?, e.stats))
}

/// Renumbers the complete table breadth-first from the identity and builds the group.
fn standardise(
    e: &Enumerator<'_>,
    presentation: &Presentation,
    limits: &EnumerationLimits,
) -> Result<FiniteGroup, GroupError> {
    let width = e.width;
    let n = e.count();
    let mut map = vec![UNDEF; n];
    let mut order_list: Vec<u32> = Vec::new();
    map[0] = 0;
    order_list.push(0);
    let mut head = 0;
    while head < order_list.len() {
        let c = order_list[head] as usize;
        head += 1;
        for col in 0..width {
            let d = e.table[c * width + col] as usize;
            if d >= n || !e.is_live(d as u32) {
                return Err(GroupError::CrossCheck(
                    "the completed coset table points to a dead coset".into(),
                ));
            }
            if map[d] == UNDEF {
                map[d] = order_list.len() as u32;
                order_list.push(d as u32);
            }
        }
    }
    let order = order_list.len();
    if order > limits.max_order {
        return Err(GroupError::TooLarge {
            order,
            limit: limits.max_order,
        });
    }
    let mut action = Vec::with_capacity(order * width);
    for &c in &order_list {
        let c = c as usize;
        action.extend(
            e.table[c * width..(c + 1) * width]
                .iter()
                .map(|&d| map[d as usize]),
        );
    }
    FiniteGroup::from_action(presentation.generators.clone(), action).ok_or_else(|| {
        GroupError::CrossCheck("the completed coset table is not a permutation action".into())
    })
}

#[cfg(test)]
mod tests;
