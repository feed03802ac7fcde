//! Rank 0's cube queue: which cubes wait, which are out with a worker (and
//! since when), which are refuted, and which were split again. A local
//! `--cubes K` run with a budget keeps its cubes in the same queue, its
//! threads in the place of the workers ([`crate::conquer::solve_cubes`]).
//!
//! The cubes start as the leaves of [`cubes::make_cubes`]. A cube whose
//! solver gives up at the budget is replaced by its children on two more
//! split variables, so the refuted cubes are always the leaves of one
//! decision tree and cover every assignment (a certificate checks that again
//! with [`cubes::covers`]). No MPI here: the queue is plain data, tested apart.

use crate::cnf::Cnf;
use crate::cubes::{self, Cube};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How many more split variables a cube past its budget is split on.
const RESPLIT_DEPTH: usize = 2;

/// How many times a first cube's descendants are split again; the cubes of
/// the last generation run without a budget, so that a budget too small for
/// the formula cannot split it without end.
pub const MAX_RESPLITS: u32 = 2;

/// Where a cube is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    /// Waiting for a worker.
    Queued,
    /// With `worker` since `since`.
    Leased { worker: i32, since: Instant },
    /// Said unsatisfiable; rank 0 is checking the proof.
    Checking,
    /// Refuted with a checked proof.
    Refuted,
    /// Replaced by its children.
    Split,
}

#[derive(Clone, Debug)]
struct Entry {
    cube: Cube,
    state: State,
    /// Times a worker lost it.
    losses: u32,
    /// Solved without a budget: it cannot be split further.
    unbudgeted: bool,
    /// Splits between it and its first cube.
    generation: u32,
}

/// A cube handed to a worker.
#[derive(Clone, Debug, PartialEq)]
pub struct Lease {
    /// The cube's number.
    pub id: u32,
    /// Its literals.
    pub cube: Cube,
    /// Seconds before the worker gives up.
    pub budget: Option<f64>,
}

/// The cubes of one run.
#[derive(Clone, Debug)]
pub struct CubeQueue {
    entries: Vec<Entry>,
    waiting: VecDeque<u32>,
    budget: Option<f64>,
    /// Every free variable of the formula, the best split variables first.
    ranking: Vec<i32>,
}

impl CubeQueue {
    /// `count` cubes of `cnf`, each with `budget` seconds before it is split again.
    pub fn new(cnf: &Cnf, count: usize, budget: Option<f64>) -> CubeQueue {
        let entries: Vec<Entry> = cubes::make_cubes(cnf, count)
            .into_iter()
            .map(|cube| Entry {
                cube,
                state: State::Queued,
                losses: 0,
                unbudgeted: budget.is_none(),
                generation: 0,
            })
            .collect();
        CubeQueue {
            waiting: (0..entries.len() as u32).collect(),
            entries,
            budget,
            ranking: cubes::split_variables(cnf, cnf.vars()),
        }
    }

    /// The next waiting cube, now leased to `worker`.
    pub fn lease(&mut self, worker: i32, now: Instant) -> Option<Lease> {
        let id = self.waiting.pop_front()?;
        let entry = &mut self.entries[id as usize];
        entry.state = State::Leased { worker, since: now };
        Some(Lease {
            id,
            cube: entry.cube.clone(),
            budget: self.budget.filter(|_| !entry.unbudgeted),
        })
    }

    /// Whether cube `id` is out with `worker` (an answer for anything else is stale).
    pub fn is_leased_to(&self, id: u32, worker: i32) -> bool {
        matches!(
            self.entries.get(id as usize).map(|e| e.state),
            Some(State::Leased { worker: w, .. }) if w == worker
        )
    }

    /// The literals of cube `id`.
    pub fn cube(&self, id: u32) -> &[i32] {
        &self.entries[id as usize].cube
    }

    /// Cube `id`'s proof is being checked (no answer for it counts any more).
    pub fn checking(&mut self, id: u32) {
        self.entries[id as usize].state = State::Checking;
    }

    /// Cube `id` is refuted.
    pub fn refuted(&mut self, id: u32) {
        self.entries[id as usize].state = State::Refuted;
    }

    /// Cube `id` ran past its budget: its children on more split variables
    /// are queued, or, when every variable is already in it, the cube itself
    /// again without a budget. Returns the number of cubes queued.
    pub fn split(&mut self, id: u32) -> usize {
        let cube = self.entries[id as usize].cube.clone();
        let generation = self.entries[id as usize].generation + 1;
        let free: Vec<i32> = self
            .ranking
            .iter()
            .copied()
            .filter(|v| !cube.iter().any(|l| l.abs() == *v))
            .take(RESPLIT_DEPTH)
            .collect();
        if free.is_empty() {
            let entry = &mut self.entries[id as usize];
            entry.unbudgeted = true;
            entry.state = State::Queued;
            self.waiting.push_front(id);
            return 1;
        }
        self.entries[id as usize].state = State::Split;
        let mut children = vec![cube];
        for v in free {
            children = children
                .into_iter()
                .flat_map(|c| [v, -v].map(|l| [c.as_slice(), &[l]].concat()))
                .collect();
        }
        let n = children.len();
        for cube in children {
            // Children go first: the hard part of the tree is where the work is.
            self.waiting.push_front(self.entries.len() as u32);
            self.entries.push(Entry {
                cube,
                state: State::Queued,
                losses: 0,
                unbudgeted: generation >= MAX_RESPLITS,
                generation,
            });
        }
        n
    }

    /// Cube `id` was lost by its worker: it is queued again. Returns how
    /// many times it has been lost.
    pub fn lost(&mut self, id: u32) -> u32 {
        let entry = &mut self.entries[id as usize];
        entry.state = State::Queued;
        entry.losses += 1;
        self.waiting.push_front(id);
        entry.losses
    }

    /// The cubes out with a worker for longer than `lease`, and their workers.
    pub fn overdue(&self, now: Instant, lease: Duration) -> Vec<(u32, i32)> {
        (0..self.entries.len() as u32)
            .filter_map(|id| match self.entries[id as usize].state {
                State::Leased { worker, since } if now.duration_since(since) > lease => {
                    Some((id, worker))
                }
                _ => None,
            })
            .collect()
    }

    /// Whether every cube is refuted or split (nothing waits or is out).
    pub fn all_refuted(&self) -> bool {
        self.entries
            .iter()
            .all(|e| matches!(e.state, State::Refuted | State::Split))
    }

    /// Whether a cube waits.
    pub fn has_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// The refuted cubes, by number: the leaves of the tree.
    pub fn refuted_cubes(&self) -> Vec<(u32, &Cube)> {
        (0..self.entries.len() as u32)
            .filter(|&id| self.entries[id as usize].state == State::Refuted)
            .map(|id| (id, &self.entries[id as usize].cube))
            .collect()
    }

    /// Cubes made so far (the first ones and the children of splits).
    pub fn made(&self) -> usize {
        self.entries.len()
    }

    /// Cubes refuted with a checked proof so far.
    pub fn refuted_count(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.state == State::Refuted)
            .count()
    }

    /// Cubes neither refuted nor split: waiting, out with a worker, or
    /// being checked (at the end of a run, the cubes it left open).
    pub fn open_count(&self) -> usize {
        self.open_cubes().len()
    }

    /// The numbers of the cubes [`Self::open_count`] counts.
    pub fn open_cubes(&self) -> Vec<u32> {
        (0..self.entries.len() as u32)
            .filter(|&id| {
                !matches!(
                    self.entries[id as usize].state,
                    State::Refuted | State::Split
                )
            })
            .collect()
    }

    /// Cubes split again so far.
    pub fn splits(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.state == State::Split)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formula() -> Cnf {
        let mut cnf = Cnf::new();
        let v: Vec<i32> = (0..5).map(|_| cnf.fresh()).collect();
        cnf.add(&[v[0], v[1], v[2]]);
        cnf.add(&[-v[0], v[3]]);
        cnf.add(&[v[1], -v[4], v[2]]);
        cnf.add(&[v[3], v[4], -v[1]]);
        cnf
    }

    fn leaves(queue: &CubeQueue) -> Vec<Cube> {
        queue
            .refuted_cubes()
            .into_iter()
            .map(|(_, c)| c.clone())
            .collect()
    }

    #[test]
    fn splitting_and_losing_cubes_keeps_the_refuted_ones_covering() {
        let now = Instant::now();
        let mut queue = CubeQueue::new(&formula(), 2, Some(1.0));
        let first = queue.lease(1, now).unwrap();
        assert_eq!(first.budget, Some(1.0));
        assert!(queue.is_leased_to(first.id, 1));
        assert!(!queue.is_leased_to(first.id, 2));
        assert_eq!(queue.split(first.id), 4);
        // The children come before the other first cube, and a lost cube comes back first.
        let second = queue.lease(2, now).unwrap();
        assert_eq!(second.cube.len(), first.cube.len() + 2);
        assert_eq!(queue.lost(second.id), 1);
        assert_eq!(queue.lease(3, now).unwrap().id, second.id);
        queue.refuted(second.id);
        assert!(!queue.all_refuted());
        while let Some(lease) = queue.lease(1, now) {
            queue.refuted(lease.id);
        }
        assert!(queue.all_refuted());
        assert_eq!(queue.splits(), 1);
        assert_eq!(queue.made(), 6);
        assert_eq!((queue.refuted_count(), queue.open_count()), (5, 0));
        assert!(cubes::covers(&leaves(&queue)));
        // Without one leaf, the rest do not cover.
        assert!(!cubes::covers(&leaves(&queue)[1..]));
    }

    #[test]
    fn splitting_stops_after_the_last_generation() {
        let now = Instant::now();
        let mut queue = CubeQueue::new(&formula(), 1, Some(0.1));
        let mut runs = 0;
        while let Some(lease) = queue.lease(1, now) {
            runs += 1;
            match lease.budget {
                Some(_) => assert!(queue.split(lease.id) >= 1),
                None => queue.refuted(lease.id),
            }
        }
        // 1 first cube, 4 children, 16 grandchildren without a budget.
        assert_eq!(runs, 1 + 4 + 16);
        assert!(queue.all_refuted());
        assert!(cubes::covers(&leaves(&queue)));
    }

    #[test]
    fn a_cube_with_every_variable_is_solved_again_without_a_budget() {
        let mut cnf = Cnf::new();
        let a = cnf.fresh();
        cnf.add(&[a, a]);
        let now = Instant::now();
        let mut queue = CubeQueue::new(&cnf, 2, Some(0.5));
        let lease = queue.lease(1, now).unwrap();
        assert_eq!(queue.split(lease.id), 1);
        let again = queue.lease(1, now).unwrap();
        assert_eq!((again.id, again.budget), (lease.id, None));
    }

    #[test]
    fn only_cubes_out_too_long_are_overdue() {
        let start = Instant::now();
        let mut queue = CubeQueue::new(&formula(), 4, None);
        let a = queue.lease(1, start).unwrap();
        let b = queue.lease(2, start + Duration::from_secs(5)).unwrap();
        assert_eq!(queue.open_count(), queue.made());
        let late = start + Duration::from_secs(8);
        assert_eq!(queue.overdue(late, Duration::from_secs(6)), vec![(a.id, 1)]);
        queue.refuted(a.id);
        assert!(queue.overdue(late, Duration::from_secs(6)).is_empty());
        assert_eq!(b.budget, None);
    }
}
