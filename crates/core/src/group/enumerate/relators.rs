//! Relators prepared for enumeration: free and cyclic reduction, deduplication
//! up to rotation and inversion, and the cyclic conjugates that Felsch scanning
//! walks, filed by first letter.

use super::{GenLetter, Presentation};

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
pub(super) fn invert(word: &[u32]) -> Vec<u32> {
    word.iter().rev().map(|&c| c ^ 1).collect()
}

/// The KMP prefix function: `pi[i]` is the length of the longest proper
/// border of `w[..=i]`.
pub(super) fn prefix_function(w: &[u32]) -> Vec<usize> {
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
pub(super) fn rotation_count(w: &[u32]) -> usize {
    let p = w.len() - prefix_function(w).last().copied().unwrap_or(0);
    if w.len().is_multiple_of(p) {
        p
    } else {
        w.len()
    }
}

/// Whether `v` is a rotation of `w` (same length assumed): a KMP search of `v`
/// in `w w`, linear time.
pub(super) fn is_rotation(v: &[u32], w: &[u32]) -> bool {
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
pub(super) const DEDUP_LEN: usize = 1024;

/// The least rotation of `w` or of its inverse, quadratic time (short words only).
pub(super) fn canonical(w: &[u32]) -> Vec<u32> {
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
    pub(super) doubled: Vec<Vec<u32>>,
    /// `conjugates[col]`: the distinct conjugates starting with column `col`.
    pub(super) conjugates: Vec<Vec<Conjugate>>,
    /// `tracker[g]`: index of the chain tracker of generator `g`, if it has one.
    pub(super) tracker: Vec<Option<usize>>,
    /// Number of generators with a chain tracker.
    pub(super) trackers: usize,
}

/// A cyclic conjugate of a relator, ready for Felsch scanning: the slice
/// `doubled[source][start..start + len]`.
pub(super) struct Conjugate {
    pub(super) source: usize,
    pub(super) start: usize,
    pub(super) len: usize,
    /// For a power `x^n` of a tracked generator: `(tracker, n)`.
    pub(super) power: Option<(usize, u32)>,
}

/// Shortest power relator `x^n` worth a chain tracker for `x`.
pub(super) const TRACK_POWER_FROM: usize = 8;

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
