//! Planning: which words start, move and end at each step, and which slot of
//! the in-flight state each active word occupies. Slots are reused as words
//! end, so the state grows only with the number of words in flight at once.

use super::super::{PlacedWord, SimulationError};
use super::chunk::StepPlan;

/// Walks the table step by step, handing out slots of the in-flight state.
pub(super) struct Planner<'a> {
    words: &'a [PlacedWord],
    /// Nodes: one in-flight position per node per slot.
    n: usize,
    max_in_flight_bytes: usize,
    /// Word indices by start column (then table order).
    by_start: Vec<usize>,
    /// The first entry of `by_start` not yet started.
    next_start: usize,
    /// Active words as (word, slot).
    active: Vec<(usize, u32)>,
    /// Slots freed by words that ended, for reuse.
    free_slots: Vec<u32>,
    /// Slots handed out so far.
    slot_count: usize,
}

impl<'a> Planner<'a> {
    pub(super) fn new(words: &'a [PlacedWord], n: usize, max_in_flight_bytes: usize) -> Self {
        let mut by_start: Vec<usize> = (0..words.len()).collect();
        by_start.sort_by_key(|&i| (words[i].column, i));
        Planner {
            words,
            n,
            max_in_flight_bytes,
            by_start,
            next_start: 0,
            active: Vec::new(),
            free_slots: Vec::new(),
            slot_count: 0,
        }
    }

    /// Slots handed out so far: every chunk needs room for this many.
    pub(super) fn slot_count(&self) -> usize {
        self.slot_count
    }

    /// Plans the steps `first, first + 1, …`, one per entry of `plans`;
    /// returns the number of hops in the batch.
    pub(super) fn plan_batch(
        &mut self,
        plans: &mut [StepPlan],
        first: usize,
    ) -> Result<usize, SimulationError> {
        let mut batch_hops = 0usize;
        for (plan, t) in plans.iter_mut().zip(first..) {
            self.plan_step(plan, t)?;
            batch_hops += plan.moves.len() * self.n;
        }
        Ok(batch_hops)
    }

    fn plan_step(&mut self, plan: &mut StepPlan, t: usize) -> Result<(), SimulationError> {
        let words = self.words;
        plan.step = t;
        plan.starts.clear();
        plan.moves.clear();
        plan.ends.clear();
        while self.next_start < self.by_start.len()
            && words[self.by_start[self.next_start]].column == t
        {
            let w = self.by_start[self.next_start];
            self.next_start += 1;
            let slot = self.take_slot(t)?;
            self.active.push((w, slot));
            plan.starts.push(slot);
        }
        for &(w, slot) in &self.active {
            let word = &words[w];
            plan.moves
                .push((slot, word.letters[t - word.column] as u32, w));
            if word.column + word.letters.len() - 1 == t {
                plan.ends.push((slot, w));
            }
        }
        plan.ends.sort_by_key(|&(_, w)| w);
        if !plan.ends.is_empty() {
            let free_slots = &mut self.free_slots;
            self.active.retain(|&(w, slot)| {
                let word = &words[w];
                let done = word.column + word.letters.len() - 1 == t;
                if done {
                    free_slots.push(slot);
                }
                !done
            });
        }
        Ok(())
    }

    /// A free slot, or a new one if the in-flight memory bound allows it.
    fn take_slot(&mut self, t: usize) -> Result<u32, SimulationError> {
        if let Some(slot) = self.free_slots.pop() {
            return Ok(slot);
        }
        if (self.slot_count + 1)
            .saturating_mul(self.n)
            .saturating_mul(4)
            > self.max_in_flight_bytes
        {
            return Err(SimulationError::TooManyInFlight {
                step: t,
                words: self.active.len() + 1,
            });
        }
        self.slot_count += 1;
        Ok((self.slot_count - 1) as u32)
    }
}
