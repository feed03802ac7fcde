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

/// Freely and cyclically reduces a relator, as a list of table columns.
pub(crate) fn reduce(word: &[GenLetter]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(word.len());
    for l in word {
        let col = 2 * l.generator + l.inverse as u32;
        if out.last() == Some(&(col ^ 1)) {
            out.pop();
        } else {
            out.push(col);
        }
    }
    // Cyclic reduction: strip inverse pairs from the two ends.
    let mut start = 0;
    let mut end = out.len();
    while end - start >= 2 && out[start] == out[end - 1] ^ 1 {
        start += 1;
        end -= 1;
    }
    out[start..end].to_vec()
}

/// The inverse of a word of columns.
fn invert(word: &[u32]) -> Vec<u32> {
    word.iter().rev().map(|&c| c ^ 1).collect()
}

/// The KMP prefix function: `pi[i]` is the length of the longest proper
/// border of `w[..=i]`.
fn prefix_function(w: &[u32]) -> Vec<usize> {
    let mut pi = vec![0; w.len()];
    for i in 1..w.len() {
        let mut k = pi[i - 1];
        while k > 0 && w[i] != w[k] {
            k = pi[k - 1];
        }
        if w[i] == w[k] {
            k += 1;
        }
        pi[i] = k;
    }
    pi
}

/// The number of distinct rotations of a non-empty word (its least period if
/// that divides the length, else the length).
fn rotation_count(w: &[u32]) -> usize {
    let p = w.len() - prefix_function(w).last().copied().unwrap_or(0);
    if w.len().is_multiple_of(p) {
        p
    } else {
        w.len()
    }
}

/// Whether `v` is a rotation of `w` (same length assumed): a KMP search of `v`
/// in `w w`, linear time.
fn is_rotation(v: &[u32], w: &[u32]) -> bool {
    if v.len() != w.len() {
        return false;
    }
    let pi = prefix_function(v);
    let mut k = 0;
    for &c in w.iter().chain(w.iter()) {
        while k > 0 && c != v[k] {
            k = pi[k - 1];
        }
        if c == v[k] {
            k += 1;
        }
        if k == v.len() {
            return true;
        }
    }
    false
}

/// Relators up to this length are deduplicated up to rotation and inversion;
/// longer ones only when equal (duplicates cost scanning time, never correctness).
const DEDUP_LEN: usize = 1024;

/// The least rotation of `w` or of its inverse, quadratic time (short words only).
fn canonical(w: &[u32]) -> Vec<u32> {
    let inverse = invert(w);
    let mut best = w.to_vec();
    for v in [w, &inverse[..]] {
        for k in 0..v.len() {
            if v[k..].iter().chain(&v[..k]).lt(best.iter()) {
                best = v[k..].iter().chain(&v[..k]).copied().collect();
            }
        }
    }
    best
}

/// The relators of a presentation prepared for enumeration: reduced, deduplicated,
/// and, for Felsch scanning, every distinct cyclic conjugate of every relator and
/// its inverse, filed under its first letter. Conjugates are slices of the word
/// written twice, so memory stays linear in the relator lengths.
pub(crate) struct PreparedRelators {
    /// One reduced representative per relator (for full scans).
    pub(crate) base: Vec<Vec<u32>>,
    /// Each relator and (unless it is a rotation of the relator) its inverse,
    /// written twice in a row.
    doubled: Vec<Vec<u32>>,
    /// `conjugates[col]`: the distinct conjugates starting with column `col`.
    conjugates: Vec<Vec<Conjugate>>,
    /// `tracker[g]`: index of the chain tracker of generator `g`, if it has one.
    tracker: Vec<Option<usize>>,
    /// Number of generators with a chain tracker.
    trackers: usize,
}

/// A cyclic conjugate of a relator, ready for Felsch scanning: the slice
/// `doubled[source][start..start + len]`.
struct Conjugate {
    source: usize,
    start: usize,
    len: usize,
    /// For a power `x^n` of a tracked generator: `(tracker, n)`.
    power: Option<(usize, u32)>,
}

/// Shortest power relator `x^n` worth a chain tracker for `x`.
const TRACK_POWER_FROM: usize = 8;

impl PreparedRelators {
    pub(crate) fn new(p: &Presentation) -> PreparedRelators {
        let width = 2 * p.generators.len();
        let mut base: Vec<Vec<u32>> = Vec::new();
        let mut doubled: Vec<Vec<u32>> = Vec::new();
        let mut conjugates: Vec<Vec<Conjugate>> = (0..width).map(|_| Vec::new()).collect();
        let mut tracker: Vec<Option<usize>> = vec![None; p.generators.len()];
        let mut trackers = 0;
        let mut seen = std::collections::HashSet::new();
        for r in &p.relators {
            let w = reduce(r);
            if w.is_empty() {
                continue;
            }
            let key = if w.len() <= DEDUP_LEN {
                canonical(&w)
            } else {
                w.clone()
            };
            if !seen.insert(key) {
                continue;
            }
            let is_power = w.iter().all(|&c| c == w[0]);
            if w.len() >= TRACK_POWER_FROM && is_power {
                let g = w[0] as usize / 2;
                if tracker[g].is_none() {
                    tracker[g] = Some(trackers);
                    trackers += 1;
                }
            }
            let rotations = rotation_count(&w);
            let inverse = invert(&w);
            let mut words = vec![w.clone()];
            if !is_rotation(&inverse, &w) {
                words.push(inverse);
            }
            for word in words {
                let source = doubled.len();
                let power = match tracker[word[0] as usize / 2] {
                    Some(t) if is_power => Some((t, word.len() as u32)),
                    _ => None,
                };
                for start in 0..rotations {
                    conjugates[word[start] as usize].push(Conjugate {
                        source,
                        start,
                        len: word.len(),
                        power,
                    });
                }
                doubled.push(word.iter().chain(&word).copied().collect());
            }
            base.push(w);
        }
        PreparedRelators {
            base,
            doubled,
            conjugates,
            tracker,
            trackers,
        }
    }
}

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
mod tests {
    use super::*;

    fn letters(s: &str) -> Vec<GenLetter> {
        let mut out: Vec<GenLetter> = Vec::new();
        for ch in s.chars() {
            if ch == '\'' {
                let last = out.last_mut().expect("prime after a letter");
                last.inverse = !last.inverse;
            } else {
                out.push(GenLetter {
                    generator: (ch as u8 - b'a') as u32,
                    inverse: false,
                });
            }
        }
        out
    }

    #[test]
    fn reduce_is_free_and_cyclic() {
        assert_eq!(reduce(&letters("aa'")), Vec::<u32>::new());
        assert_eq!(reduce(&letters("b'abb'a'b")), Vec::<u32>::new());
        assert_eq!(reduce(&letters("a'bba")), vec![2, 2]);
        assert_eq!(reduce(&letters("ab'")), vec![0, 3]);
    }

    #[test]
    fn conjugates_are_deduplicated() {
        let p = Presentation {
            generators: vec!["a".into()],
            relators: vec![letters("aaaa"), letters("aaaa"), letters("a'a'a'a'")],
        };
        let r = PreparedRelators::new(&p);
        assert_eq!(r.base.len(), 1);
        assert_eq!(r.conjugates[0].len(), 1);
        assert_eq!(r.conjugates[1].len(), 1);
        assert_eq!(r.trackers, 0);
        let p = Presentation {
            generators: vec!["a".into(), "b".into()],
            relators: vec![letters(&"a".repeat(9)), letters("bb"), letters("abab")],
        };
        let r = PreparedRelators::new(&p);
        assert_eq!(r.tracker, vec![Some(0), None]);
        assert_eq!(r.conjugates[0][0].power, Some((0, 9)));
    }

    fn pres(gens: usize, relators: &[&str]) -> Presentation {
        Presentation {
            generators: (0..gens)
                .map(|g| ((b'a' + g as u8) as char).to_string())
                .collect(),
            relators: relators.iter().map(|r| letters(r)).collect(),
        }
    }

    #[test]
    fn rotations_and_periods() {
        assert_eq!(rotation_count(&[0, 2, 0, 2, 0, 2]), 2);
        assert_eq!(rotation_count(&[0, 0, 0]), 1);
        assert_eq!(rotation_count(&[0, 2, 1, 3]), 4);
        assert_eq!(rotation_count(&[0, 0, 2, 0, 0]), 5);
        assert!(is_rotation(&[2, 1, 3, 0], &[0, 2, 1, 3]));
        assert!(!is_rotation(&[2, 0, 3, 1], &[0, 2, 1, 3]));
        assert!(!is_rotation(&[0], &[0, 0]));
    }

    #[test]
    fn conjugates_of_a_commutator_and_a_periodic_word() {
        // abAB: four rotations and four of its inverse, two under each letter.
        let r = PreparedRelators::new(&pres(2, &["aba'b'"]));
        assert!(r.conjugates.iter().all(|c| c.len() == 2));
        // (ab)^3: period 2, so two rotations each for the word and its inverse.
        let r = PreparedRelators::new(&pres(2, &["ababab", "bababa", "b'a'b'a'b'a'"]));
        assert_eq!(r.base.len(), 1);
        let total: usize = r.conjugates.iter().map(Vec::len).sum();
        assert_eq!(total, 4);
    }

    /// Order, peak cosets and the internal paths taken, for a presentation.
    fn stats_of(p: &Presentation, max_cosets: usize) -> (usize, Stats) {
        let limits = EnumerationLimits {
            max_cosets,
            ..EnumerationLimits::default()
        };
        let (g, stats) = run(p, &limits).unwrap();
        (g.order(), stats)
    }

    #[test]
    fn deduction_overflow_falls_back_to_full_scans() {
        // MAX_DEDUCTIONS is tiny under test: these enumerations overflow it.
        let cases: [(Presentation, usize); 4] = [
            (pres(2, &["aa", "bbb", "ababababab"]), 60),
            (
                pres(3, &["aa", "bb", "cc", "ababab", "bcbcbcbcbc", "acac"]),
                120,
            ),
            (
                pres(2, &["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "b'aba'a'a'"]),
                256,
            ),
            (pres(2, &["b'aba'a'", "a'bab'b'"]), 1),
        ];
        let mut overflowed = false;
        for (p, order) in cases {
            let (n, stats) = stats_of(&p, 1 << 20);
            assert_eq!(n, order, "{p}");
            overflowed |= stats.full_scans > 0;
        }
        assert!(overflowed, "no case exercised the overflow path");
    }

    #[test]
    fn compaction_keeps_the_answer() {
        // These need more cosets than their order on the way (C_16 ⋊ C_16 and the
        // Fibonacci group F(2,5)); limits between the order and the peak must
        // give the right group (after compacting) or a clean refusal.
        let cases = [
            (
                pres(2, &["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "b'aba'a'a'"]),
                256,
            ),
            (pres(5, &["abc'", "bcd'", "cde'", "dea'", "eab'"]), 11),
        ];
        let mut compacted = false;
        for (p, order) in cases {
            let (_, free) = stats_of(&p, 1 << 20);
            assert!(free.peak > order, "peak {}", free.peak);
            for cap in order..free.peak {
                let limits = EnumerationLimits {
                    max_cosets: cap,
                    ..EnumerationLimits::default()
                };
                match run(&p, &limits) {
                    Ok((g, stats)) => {
                        assert_eq!(g.order(), order);
                        assert!(stats.peak <= cap);
                        compacted |= stats.compactions > 0;
                    }
                    Err(GroupError::TooManyCosets { limit }) => assert_eq!(limit, cap),
                    Err(e) => panic!("{e}"),
                }
            }
        }
        assert!(compacted, "no limit forced a compaction");
    }

    #[test]
    fn chain_union_counts_and_flags_cycles() {
        let mut chain = vec![CHAIN_ROOT | 2; 5];
        chain_union(&mut chain, 0, 1);
        chain_union(&mut chain, 1, 2);
        let r = chain_find(&mut chain, 2);
        assert_eq!(chain[r as usize], CHAIN_ROOT | (3 << 1));
        chain_union(&mut chain, 2, 0);
        let r = chain_find(&mut chain, 0);
        assert_eq!(chain[r as usize], CHAIN_ROOT | (3 << 1) | 1);
        assert_ne!(chain_find(&mut chain, 3), r);
    }
}
