//! The backtracking search over cut points.
//!
//! Letters and columns are fixed by the grid, so column distinctness and the port
//! limit hold for every segmentation or for none (the caller checks them once); what a
//! segmentation decides is which element each word spells. The search walks the runs
//! left to right, row by row, and at each word start tries every end inside the run
//! whose word spells a message not yet delivered. Two cuts prune it:
//!
//! - the letters left must cover the distances of the messages left (each word is at
//!   least as long as its element's distance), and
//! - every run left needs a word of its own, so no more runs may be left than messages;
//! - every message left must still be spelled by some word of the letters left: each
//!   message has a last letter a word spelling it can start at (found once, before the
//!   walk), and a message still owed once the walk has passed that letter is lost.
//!
//! What happens after a word start depends only on where it is and which messages are
//! delivered, so a start whose whole subtree found nothing is remembered (exactly, up
//! to a memory budget) and not walked again when another cut reaches the same state.
//!
//! The depth is the number of words, which can be large, so the walk keeps its own
//! stack rather than recursing.

use super::grid::Grid;
use std::collections::HashSet;
use std::ops::{ControlFlow, Range};
use txverify_core::group::Elem;
use txverify_core::kernel::{Instance, LinkId};

/// Steps the search for every message's last start may take before it gives up and
/// lets every message start as late as the last letter (a weaker, still sound cut): a
/// long run with much slack would otherwise make it quadratic in the letters.
const LAST_START_STEPS: u64 = 50_000_000;

/// Memory the remembered dead states may take, roughly (each costs its bits, a vector
/// header, an allocation and a slot of the set: about 96 bytes besides its bits).
const DEAD_STATE_BYTES: usize = 128 << 20;

/// Steps between two calls of [`Walk::run`]'s progress callback.
pub(crate) const TICK_STEPS: u64 = 1 << 22;

/// A word of a segmentation: a range of [`Grid::letters`] inside one run.
pub type WordSpan = Range<usize>;

/// Where the search got furthest before it had to turn back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Furthest {
    /// The grid letter (index into [`Grid::letters`]) the walk got to with distinct
    /// messages so far, or `None` for the end of the grid.
    pub letter: Option<usize>,
    /// Messages delivered by the words before it.
    pub delivered: usize,
    /// The elements still undelivered there.
    pub undelivered: Vec<Elem>,
}

/// The walk's state: the grid as links, the message set, what is delivered.
pub(crate) struct Walk<'a> {
    instance: &'a Instance,
    /// Per run: its first letter's index in the grid and its links.
    runs: Vec<(usize, Vec<LinkId>)>,
    /// Per grid letter: its link.
    letter_links: Vec<LinkId>,
    /// Letters from the start of run `k` to the end of the grid.
    letters_from: Vec<usize>,
    wanted: Vec<bool>,
    delivered: Vec<bool>,
    distance: &'a [u32],
    shortest_only: bool,
    /// Σ distance over undelivered messages, and their number.
    owed_distance: u64,
    owed_messages: usize,
    words: Vec<WordSpan>,
    /// Per message: the last grid letter a word spelling it starts at.
    last_start: Vec<usize>,
    /// Per grid letter: undelivered messages whose last start it is.
    due: Vec<u32>,
    /// No word of a valid segmentation is longer than this.
    longest: usize,
    /// Partial segmentations entered (word starts that survived the cuts).
    pub(crate) explored: u64,
    /// Steps taken: a word's prefix grown by a letter, or a word start left.
    pub(crate) steps: u64,
    /// The most steps [`Walk::run`] may take.
    pub(crate) max_steps: u64,
    /// Whether the walk stopped because `max_steps` ran out.
    pub(crate) out_of_steps: bool,
    /// The furthest word start entered, and the words before it.
    furthest: Option<(Option<usize>, Vec<WordSpan>)>,
    /// Valid segmentations found so far.
    pub(crate) found: u64,
    /// Per element: its bit in `state`, when it is a message.
    message_bit: Vec<Option<usize>>,
    /// The delivered messages as bits, then the current word start's grid letter.
    state: Vec<u64>,
    /// States whose subtree holds no valid segmentation.
    dead: HashSet<Vec<u64>>,
    /// How many states `dead` may hold.
    dead_capacity: usize,
}

/// One word start on the walk's stack: the prefix `start..end` of run `run`, the
/// element it spells, and whether that element is delivered by this word now.
struct Frame {
    /// Valid segmentations found before this start was entered.
    found_before: u64,
    run: usize,
    start: usize,
    end: usize,
    element: Elem,
    delivering: bool,
    /// Σ `due` over the prefix's letters, as it was when the start was entered.
    due: u64,
}

impl<'a> Walk<'a> {
    /// `runs`: per run of the grid, its first letter's index and its links (the runs
    /// cover the grid's letters in order).
    pub(crate) fn new(
        instance: &'a Instance,
        runs: Vec<(usize, Vec<LinkId>)>,
        shortest_only: bool,
    ) -> Walk<'a> {
        let wanted = instance.message_set();
        let distance = instance.distances();
        let owed_distance = wanted
            .iter()
            .zip(distance)
            .filter(|(w, _)| **w)
            .map(|(_, &d)| u64::from(d))
            .sum();
        let owed_messages = wanted.iter().filter(|&&w| w).count();
        let mut letters_from = vec![0; runs.len() + 1];
        for k in (0..runs.len()).rev() {
            letters_from[k] = letters_from[k + 1] + runs[k].1.len();
        }
        let letters = letters_from[0];
        // A word longer than its element's distance uses up slack: the letters beyond
        // the sum of all distances.
        let slack = (letters as u64).saturating_sub(owed_distance);
        let farthest = wanted
            .iter()
            .zip(distance)
            .filter(|(w, _)| **w)
            .map(|(_, &d)| u64::from(d))
            .max()
            .unwrap_or(0);
        let longest = usize::try_from(farthest.saturating_add(slack)).unwrap_or(usize::MAX);
        let mut message_bit = vec![None; wanted.len()];
        let mut bits: usize = 0;
        for (e, &w) in wanted.iter().enumerate() {
            if w {
                message_bit[e] = Some(bits);
                bits += 1;
            }
        }
        let words = bits.div_ceil(64) + 1;
        Walk {
            letter_links: runs.iter().flat_map(|r| r.1.iter().copied()).collect(),
            found: 0,
            message_bit,
            state: vec![0; words],
            dead: HashSet::new(),
            dead_capacity: DEAD_STATE_BYTES / (8 * words + 96),
            instance,
            last_start: Vec::new(),
            due: vec![0; letters],
            longest,
            delivered: vec![false; wanted.len()],
            wanted,
            distance,
            shortest_only,
            owed_distance,
            owed_messages,
            letters_from,
            runs,
            words: Vec::new(),
            explored: 0,
            steps: 0,
            max_steps: u64::MAX,
            out_of_steps: false,
            furthest: None,
        }
    }

    /// Finds every message's last start; returns the messages no word of the grid
    /// spells (then no segmentation is valid, and the walk must not run).
    pub(crate) fn prepare(&mut self) -> Vec<Elem> {
        const NEVER: usize = usize::MAX;
        let mut last_start = vec![NEVER; self.wanted.len()];
        let mut steps = 0u64;
        for (first, links) in &self.runs {
            for start in 0..links.len() {
                let mut e = Elem::IDENTITY;
                for (length, &link) in links[start..].iter().enumerate().take(self.longest) {
                    steps += 1;
                    if steps > LAST_START_STEPS {
                        return self.without_last_starts();
                    }
                    e = self.instance.step(e, link);
                    if self.shortest_only && length + 1 > self.distance[e.index()] as usize {
                        break;
                    }
                    if self.wanted[e.index()] && e != Elem::IDENTITY {
                        last_start[e.index()] = first + start;
                    }
                }
            }
        }
        let mut never = Vec::new();
        for (e, &at) in last_start.iter().enumerate() {
            if !self.wanted[e] {
                continue;
            }
            match self.due.get_mut(at) {
                Some(due) => *due += 1,
                None => never.push(Elem(e as u32)),
            }
        }
        self.last_start = last_start;
        never
    }

    /// Every message may start as late as the last letter: no message is found
    /// unspellable, and the cut on last starts only acts at the end of the grid.
    fn without_last_starts(&mut self) -> Vec<Elem> {
        let last = self.due.len().saturating_sub(1);
        self.last_start = vec![last; self.wanted.len()];
        if let Some(due) = self.due.get_mut(last) {
            *due = self.owed_messages as u32;
        }
        Vec::new()
    }

    /// Where the walk got furthest, when it entered any word start.
    pub(crate) fn furthest(self) -> Option<Furthest> {
        let (letter, words) = self.furthest?;
        let mut delivered = vec![false; self.wanted.len()];
        for word in &words {
            let element = word.clone().fold(Elem::IDENTITY, |e, l| {
                self.instance.step(e, self.letter_links[l])
            });
            delivered[element.index()] = true;
        }
        let undelivered = (0..self.wanted.len())
            .filter(|&e| self.wanted[e] && !delivered[e])
            .map(|e| Elem(e as u32))
            .collect();
        Some(Furthest {
            letter,
            delivered: words.len(),
            undelivered,
        })
    }

    /// Walks every segmentation, calling `found` with the words of each valid one
    /// (as ranges of grid letters, in row order) until it says stop, or until
    /// [`Walk::max_steps`] run out (then [`Walk::out_of_steps`] is set); `tick` is
    /// called every [`TICK_STEPS`] steps.
    pub(crate) fn run<B>(
        &mut self,
        found: &mut dyn FnMut(&[WordSpan]) -> ControlFlow<B>,
        tick: &mut dyn FnMut(&Walk<'_>),
    ) -> ControlFlow<B> {
        let mut stack: Vec<Frame> = Vec::new();
        self.enter(0, 0, &mut stack, found)?;
        while let Some(top) = stack.last_mut() {
            if self.steps >= self.max_steps {
                self.out_of_steps = true;
                break;
            }
            self.steps += 1;
            if self.steps.is_multiple_of(TICK_STEPS) {
                tick(self);
            }
            if top.delivering {
                top.delivering = false;
                let e = top.element.index();
                self.delivered[e] = false;
                self.flip(e);
                self.due[self.last_start[e]] += 1;
                self.owed_distance += u64::from(self.distance[e]);
                self.owed_messages += 1;
                self.words.pop();
            }
            let links = &self.runs[top.run].1;
            if top.end == links.len() {
                let (found_before, start) = (top.found_before, self.runs[top.run].0 + top.start);
                stack.pop();
                if self.found == found_before && self.dead.len() < self.dead_capacity {
                    self.set_position(start);
                    self.dead.insert(self.state.clone());
                }
                continue;
            }
            let first = self.runs[top.run].0;
            top.due += u64::from(self.due[first + top.end]);
            top.element = self.instance.step(top.element, links[top.end]);
            top.end += 1;
            let e = top.element.index();
            let length = top.end - top.start;
            // A prefix that is no shortest path has no extension that is one.
            if length > self.longest
                || (self.shortest_only && length as u64 > u64::from(self.distance[e]))
            {
                top.end = links.len();
                continue;
            }
            if top.element == Elem::IDENTITY || !self.wanted[e] || self.delivered[e] {
                continue;
            }
            // The word's letters are behind the walk once it is placed: a message other
            // than its own whose last start is among them could no longer be delivered.
            let own = (first + top.start..first + top.end).contains(&self.last_start[e]);
            if top.due > u64::from(own) {
                continue;
            }
            top.delivering = true;
            self.delivered[e] = true;
            self.flip(e);
            self.due[self.last_start[e]] -= 1;
            self.owed_distance -= u64::from(self.distance[e]);
            self.owed_messages -= 1;
            self.words.push(first + top.start..first + top.end);
            let (run, end) = (top.run, top.end);
            self.enter(run, end, &mut stack, found)?;
        }
        ControlFlow::Continue(())
    }

    /// A word starts at letter `position` of run `run` (or the run is done): reports a
    /// finished segmentation, or pushes a frame when the cuts leave hope.
    fn enter<B>(
        &mut self,
        mut run: usize,
        mut position: usize,
        stack: &mut Vec<Frame>,
        found: &mut dyn FnMut(&[WordSpan]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        // Runs are never empty, so one step reaches the next word start.
        if run < self.runs.len() && position == self.runs[run].1.len() {
            run += 1;
            position = 0;
        }
        self.note_furthest(run, position);
        if run == self.runs.len() {
            if self.owed_messages == 0 {
                self.found += 1;
                return found(&self.words);
            }
            return ControlFlow::Continue(());
        }
        let letters_left = (self.letters_from[run] - position) as u64;
        let runs_left = self.runs.len() - run;
        if letters_left < self.owed_distance || runs_left > self.owed_messages {
            return ControlFlow::Continue(());
        }
        self.set_position(self.runs[run].0 + position);
        if self.dead.contains(&self.state) {
            return ControlFlow::Continue(());
        }
        self.explored += 1;
        stack.push(Frame {
            found_before: self.found,
            run,
            start: position,
            end: position,
            element: Elem::IDENTITY,
            delivering: false,
            due: 0,
        });
        ControlFlow::Continue(())
    }

    /// Flips message `e`'s bit in the state.
    fn flip(&mut self, e: usize) {
        if let Some(bit) = self.message_bit[e] {
            self.state[bit / 64] ^= 1 << (bit % 64);
        }
    }

    /// Sets the word start in the state's last slot.
    fn set_position(&mut self, letter: usize) {
        if let Some(last) = self.state.last_mut() {
            *last = letter as u64;
        }
    }

    /// Remembers the furthest point a partial segmentation of distinct messages reached.
    fn note_furthest(&mut self, run: usize, position: usize) {
        let letter = self.runs.get(run).map(|r| r.0 + position);
        let key = |l: Option<usize>| l.unwrap_or(usize::MAX);
        if self
            .furthest
            .as_ref()
            .is_some_and(|(at, _)| key(*at) >= key(letter))
        {
            return;
        }
        self.furthest = Some((letter, self.words.clone()));
    }
}

/// The walk over a grid whose letters are all links.
pub(crate) fn walk_of<'a>(grid: &Grid, instance: &'a Instance, shortest_only: bool) -> Walk<'a> {
    let runs = grid
        .runs
        .iter()
        .map(|run| (run.letters.start, grid.run_links(run).unwrap_or_default()))
        .collect();
    Walk::new(instance, runs, shortest_only)
}
