//! The backward DRAT checker.
//!
//! The formula and the proof are read once into an arena ([`Store`]). A
//! forward pass replays the proof at the top level only, adding lemmas,
//! honouring deletions and propagating, until the clauses present are refuted
//! by unit propagation (or an empty lemma is met): nothing is checked yet. The
//! clauses that conflict rests on are marked core. Then the proof is walked
//! backwards: each lemma is taken out again, deleted clauses come back, the
//! top-level trail shrinks to what it was, and a lemma is checked only if it
//! is core (some later check, or the final conflict, used it). A check is RUP
//! by propagation over core clauses first; when that fails, RAT on the
//! lemma's first literal against every clause present containing its
//! negation. The clauses a check uses become core in turn. Lemmas no check
//! uses are never checked, which is what makes backward checking fast: a
//! lemma nothing needs cannot make a refutation wrong.
//!
//! Deletions. A deletion of a clause that is the reason of a top-level value
//! (unit clauses included) is ignored, as drat-trim does by default: the
//! clause stays present to the end. Keeping a clause makes the set of clauses
//! larger, never smaller, and every RAT check is made against the set the
//! checker holds, so each step still keeps that set satisfiable if it was:
//! a refutation found is a refutation of the formula.

use super::store::{Store, lit_value};
use super::watch::{Engine, NO_REASON};
use super::{ProofError, ProofReport};
use std::io::Write;

/// What the backward walk reports while it runs: lemmas walked, of all.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

/// The hints of the checked lemmas, for LRAT output: per lemma, a range of
/// `flat`; RAT groups start with `GROUP | candidate`.
struct Hints {
    flat: Vec<u32>,
    range: Vec<(usize, usize)>,
}

/// Marks the start of a RAT group in [`Hints::flat`].
const GROUP: u32 = 1 << 31;

/// The outcome of the forward pass.
struct Forward {
    /// Steps replayed (the conflict's step included).
    steps: usize,
    /// Per replayed step: the top-level trail's length before it.
    trail_before: Vec<u32>,
    /// The false clause, or `None` when the last step is an empty lemma
    /// that does not follow.
    conflict: Option<u32>,
}

/// Checks the proof in `store`, writing LRAT to `lrat` if given.
pub(super) fn check(
    mut store: Store,
    lrat: Option<&mut dyn Write>,
    progress: Option<Progress<'_>>,
) -> Result<ProofReport, ProofError> {
    let mut engine = Engine::new(store.vars, store.len());
    let forward = replay(&mut store, &mut engine)?;
    let mut report = ProofReport {
        lemmas: 0,
        core_lemmas: 0,
        rat_lemmas: 0,
        deletions: 0,
        ignored_deletions: store.ignored_deletions,
    };
    for &s in &store.steps[..forward.steps] {
        if s & 1 == 1 {
            report.deletions += 1;
        } else {
            report.lemmas += 1;
        }
    }
    let explain = lrat.is_some();
    let mut hints = Hints {
        flat: Vec::new(),
        range: vec![(0, 0); store.len() - store.formula],
    };
    let mut final_hints = Vec::new();
    match forward.conflict {
        Some(conflict) => {
            let sink = explain.then_some(&mut final_hints);
            engine.analyze(&store, conflict, &[], sink);
        }
        None => {
            let last = store.steps[forward.steps - 1] >> 1;
            return Err(failure(&store, last));
        }
    }
    walk_back(
        &mut store,
        &mut engine,
        &forward,
        &mut hints,
        &mut report,
        progress,
        explain,
    )?;
    if let Some(out) = lrat {
        write_lrat(&store, &engine, &forward, &hints, &final_hints, out)?;
    }
    Ok(report)
}

/// The error for lemma `id`, which does not follow.
fn failure(store: &Store, id: u32) -> ProofError {
    let lemma = id as usize - store.formula;
    ProofError::LemmaNotImplied {
        step: store.step_number[lemma] as usize,
        lemma: lemma + 1,
        position: store.position[lemma],
        clause: pivot_first(store, id),
    }
}

/// The literals of lemma `id` with its pivot first (the watches reorder the
/// rest).
fn pivot_first(store: &Store, id: u32) -> Vec<i64> {
    let pivot = store.pivot[id as usize - store.formula];
    let rest = store.clause(id).iter().filter(|&&l| l != pivot);
    std::iter::once(&pivot)
        .filter(|&&p| p != 0)
        .chain(rest)
        .map(|&l| lit_value(l))
        .collect()
}

/// The forward pass: the top level only, to the first conflict.
fn replay(store: &mut Store, engine: &mut Engine) -> Result<Forward, ProofError> {
    let mut trail_before = Vec::with_capacity(store.steps.len());
    for id in 0..store.formula as u32 {
        if store.tautology[id as usize] {
            continue;
        }
        if let Some(c) = engine.attach(store, id) {
            return Ok(Forward {
                steps: 0,
                trail_before,
                conflict: Some(c),
            });
        }
    }
    if let Some(c) = engine.propagate(store) {
        return Ok(Forward {
            steps: 0,
            trail_before,
            conflict: Some(c),
        });
    }
    for k in 0..store.steps.len() {
        let step = store.steps[k];
        let id = step >> 1;
        trail_before.push(engine.trail.len() as u32);
        if step & 1 == 1 {
            if store.tautology[id as usize] {
                continue;
            }
            if is_reason(store, engine, id) {
                // Kept: see the module's note on deletions.
                store.steps[k] = NO_REASON;
                continue;
            }
            engine.detach(store, id);
            continue;
        }
        if store.clause(id).is_empty() {
            return Ok(Forward {
                steps: k + 1,
                trail_before,
                conflict: None,
            });
        }
        if store.tautology[id as usize] {
            continue;
        }
        let conflict = engine.attach(store, id).or_else(|| engine.propagate(store));
        if conflict.is_some() {
            return Ok(Forward {
                steps: k + 1,
                trail_before,
                conflict,
            });
        }
    }
    Err(ProofError::NoContradiction)
}

/// Whether clause `id` gives a top-level value its reason (a unit clause
/// included), so that its deletion is ignored.
fn is_reason(store: &Store, engine: &Engine, id: u32) -> bool {
    let clause = store.clause(id);
    clause.len() <= 1
        || clause[..2]
            .iter()
            .any(|&l| engine.value[l as usize] == 1 && engine.reason[(l >> 1) as usize] == id)
}

/// Walks the replayed steps backwards, checking the core lemmas.
fn walk_back(
    store: &mut Store,
    engine: &mut Engine,
    forward: &Forward,
    hints: &mut Hints,
    report: &mut ProofReport,
    mut progress: Option<Progress<'_>>,
    explain: bool,
) -> Result<(), ProofError> {
    let total = forward.steps;
    let mut occurrences = None;
    for k in (0..total).rev() {
        if let Some(p) = progress.as_deref_mut().filter(|_| k % 4096 == 0) {
            p(total - k, total);
        }
        let step = store.steps[k];
        if step == NO_REASON {
            continue;
        }
        let id = step >> 1;
        if store.tautology[id as usize] {
            continue;
        }
        if step & 1 == 1 {
            let conflict = engine.attach(store, id);
            debug_assert!(conflict.is_none(), "a deleted clause comes back unit");
            continue;
        }
        if engine.active[id as usize] {
            engine.detach(store, id);
        }
        engine.backtrack(forward.trail_before[k] as usize);
        if !engine.core[id as usize] {
            continue;
        }
        report.core_lemmas += 1;
        let lemma = id as usize - store.formula;
        let from = hints.flat.len();
        let sink = explain.then_some(&mut hints.flat);
        if !rup_of_clause(store, engine, id, sink) {
            if !rat_any(
                store,
                engine,
                id,
                &mut occurrences,
                explain.then_some(&mut hints.flat),
            ) {
                return Err(failure(store, id));
            }
            report.rat_lemmas += 1;
        }
        hints.range[lemma] = (from, hints.flat.len());
    }
    Ok(())
}

/// Whether lemma `id` follows by unit propagation.
fn rup_of_clause(
    store: &mut Store,
    engine: &mut Engine,
    id: u32,
    hints: Option<&mut Vec<u32>>,
) -> bool {
    let lits = store.clause(id).to_vec();
    rup(store, engine, &lits, hints)
}

/// Whether the clause `lits` follows by unit propagation from the clauses
/// present; on success, marks what it used core (and pushes its hints).
fn rup(store: &mut Store, engine: &mut Engine, lits: &[u32], hints: Option<&mut Vec<u32>>) -> bool {
    let level = engine.trail.len();
    // A literal true at the top level: its reason is false under the negation.
    let earliest_true = lits
        .iter()
        .filter(|&&l| engine.value[l as usize] == 1)
        .min_by_key(|&&l| engine.place[(l >> 1) as usize]);
    let conflict = match earliest_true {
        Some(&l) => Some(engine.reason[(l >> 1) as usize]),
        None => {
            for &l in lits {
                if engine.value[l as usize] == 0 {
                    engine.assign(l ^ 1, NO_REASON);
                }
            }
            engine.propagate(store)
        }
    };
    if let Some(c) = conflict {
        engine.analyze(store, c, lits, hints);
    }
    engine.backtrack(level);
    conflict.is_some()
}

/// Whether lemma `id` is a resolution asymmetric tautology on its first
/// literal or, failing that, on another of its literals, as drat-trim
/// accepts (RAT on any literal is as sound). The pivot that works becomes the
/// lemma's pivot (LRAT writes it first).
fn rat_any(
    store: &mut Store,
    engine: &mut Engine,
    id: u32,
    occurrences: &mut Option<Occurrences>,
    mut hints: Option<&mut Vec<u32>>,
) -> bool {
    let occurrences = occurrences.get_or_insert_with(|| Occurrences::of(store));
    let lemma = id as usize - store.formula;
    let first = store.pivot[lemma];
    if first == 0 {
        return false;
    }
    let mut pivots = vec![first];
    pivots.extend(store.clause(id).iter().copied().filter(|&l| l != first));
    for pivot in pivots {
        let from = hints.as_deref().map_or(0, Vec::len);
        let candidates = occurrences.candidates(store, engine, id, pivot ^ 1);
        if rat(store, engine, id, pivot, &candidates, hints.as_deref_mut()) {
            store.pivot[lemma] = pivot;
            return true;
        }
        if let Some(h) = hints.as_deref_mut() {
            h.truncate(from);
        }
    }
    false
}

/// The clauses containing each negated first literal of a lemma (the usual
/// RAT pivots), built at the first RAT check in one pass over the clauses, so
/// that a RAT check does not scan every clause.
struct Occurrences {
    /// Per indexed literal code: the clauses containing it, in increasing
    /// order (a map: a list per code of every variable would cost 48 bytes a
    /// variable, and a proof may name variable 2^24 once).
    lists: std::collections::HashMap<u32, Vec<u32>>,
}

impl Occurrences {
    fn of(store: &Store) -> Occurrences {
        let mut indexed = vec![false; 2 * (store.vars + 1)];
        let mut lists = std::collections::HashMap::new();
        for &p in store.pivot.iter().filter(|&&p| p != 0) {
            indexed[(p ^ 1) as usize] = true;
            lists.insert(p ^ 1, Vec::new());
        }
        for id in 0..store.len() as u32 {
            for &l in store.clause(id) {
                if indexed[l as usize]
                    && let Some(list) = lists.get_mut(&l)
                {
                    list.push(id);
                }
            }
        }
        Occurrences { lists }
    }

    /// The clauses present before lemma `id` that contain `lit`.
    fn candidates(&self, store: &Store, engine: &Engine, id: u32, lit: u32) -> Vec<u32> {
        let present = |c: &u32| *c < id && engine.active[*c as usize];
        if let Some(list) = self.lists.get(&lit) {
            return list.iter().copied().filter(present).collect();
        }
        (0..id)
            .filter(present)
            .filter(|&c| store.clause(c).contains(&lit))
            .collect()
    }
}

/// Whether lemma `id` is a resolution asymmetric tautology on `pivot`: every
/// resolvent with a `candidates` clause (those present that contain the
/// pivot's negation) is a tautology or follows by unit propagation. The candidate clauses become
/// core.
fn rat(
    store: &mut Store,
    engine: &mut Engine,
    id: u32,
    pivot: u32,
    candidates: &[u32],
    mut hints: Option<&mut Vec<u32>>,
) -> bool {
    let lits = store.clause(id).to_vec();
    let mut resolvent = Vec::new();
    // The lemma's literals, sorted to look up: one RAT check costs the
    // lemma's and the candidates' lengths, not the number of variables.
    let mut sorted = lits.clone();
    sorted.sort_unstable();
    let mark = |l: u32| sorted.binary_search(&l).is_ok();
    for &candidate in candidates {
        resolvent.clear();
        resolvent.extend_from_slice(&lits);
        let mut tautology = false;
        for &l in store.clause(candidate) {
            if l == pivot ^ 1 || mark(l) {
                continue;
            }
            tautology |= mark(l ^ 1);
            resolvent.push(l);
        }
        // Every candidate is core and gets a hint group, an empty one when the
        // resolvent is a tautology: LRAT checkers such as drat-trim's want a
        // group for every clause containing the pivot's negation.
        engine.core[candidate as usize] = true;
        if let Some(h) = hints.as_deref_mut() {
            h.push(GROUP | candidate);
        }
        if tautology {
            continue;
        }
        if !rup(store, engine, &resolvent, hints.as_deref_mut()) {
            return false;
        }
    }
    true
}

/// Writes the core lemmas with their hints as LRAT, in the proof's order.
fn write_lrat(
    store: &Store,
    engine: &Engine,
    forward: &Forward,
    hints: &Hints,
    final_hints: &[u32],
    out: &mut dyn Write,
) -> Result<(), ProofError> {
    let fail = ProofError::Write;
    let mut number: Vec<u64> = (1..=store.formula as u64).collect();
    number.resize(store.len(), 0);
    let mut last = store.formula as u64;
    let mut line = String::new();
    let name = |h: u32, number: &[u64]| -> String {
        if h & GROUP != 0 {
            format!(" -{}", number[(h & !GROUP) as usize])
        } else {
            format!(" {}", number[h as usize])
        }
    };
    for &step in &store.steps[..forward.steps] {
        if step == NO_REASON {
            continue;
        }
        let id = step >> 1;
        if !engine.core[id as usize] && id as usize >= store.formula {
            continue;
        }
        line.clear();
        if step & 1 == 1 {
            line.push_str(&format!("{last} d {} 0", number[id as usize]));
        } else {
            last += 1;
            number[id as usize] = last;
            line.push_str(&last.to_string());
            for l in pivot_first(store, id) {
                line.push_str(&format!(" {l}"));
            }
            line.push_str(" 0");
            let (from, to) = hints.range[id as usize - store.formula];
            for &h in &hints.flat[from..to] {
                line.push_str(&name(h, &number));
            }
            line.push_str(" 0");
        }
        writeln!(out, "{line}").map_err(fail)?;
    }
    line.clear();
    line.push_str(&format!("{} 0", last + 1));
    for &h in final_hints {
        line.push_str(&name(h, &number));
    }
    writeln!(out, "{line} 0").map_err(fail)?;
    out.flush().map_err(fail)
}

/// Whether `lemma` is RUP or RAT on its first literal over `clauses` (for
/// tests that compare the LRAT checker with this one).
#[cfg(test)]
pub(super) fn implied(clauses: &[Vec<i64>], lemma: &[i64]) -> bool {
    let formula: Vec<Vec<i32>> = clauses
        .iter()
        .map(|c| c.iter().map(|&l| l as i32).collect())
        .collect();
    let text: String = lemma.iter().map(|l| format!("{l} ")).collect::<String>() + "0\n";
    let Ok(mut store) = Store::read(0, &formula, text.as_bytes(), super::ProofFormat::Text) else {
        return false;
    };
    let mut engine = Engine::new(store.vars, store.len());
    for id in 0..store.formula as u32 {
        if !store.tautology[id as usize] && engine.attach(&mut store, id).is_some() {
            return true;
        }
    }
    if engine.propagate(&mut store).is_some() {
        return true;
    }
    let id = store.formula as u32;
    rup_of_clause(&mut store, &mut engine, id, None)
        || rat_any(&mut store, &mut engine, id, &mut None, None)
}
