//! The MPI side: who is rank 0, the loops of rank 0 and of the workers.
//!
//! Every message is bytes ([`super::protocol`]). Rank 0 never blocks on one
//! worker: it probes for any message, hands cubes to idle workers, and takes
//! back a cube whose worker has been silent past the lease. A worker blocks
//! for its next order, then runs its solver in a child process
//! ([`super::task`]) while it keeps probing for a stop. At the end rank 0
//! sends every worker a stop and waits for each one's goodbye, so that no
//! worker is left in a send that nobody receives.

use super::ClusterError;
use super::protocol::{ToRoot, ToWorker};
use super::root::{ClusterOptions, ClusterStats, Conductor};
use super::task::ChildSolver;
use crate::Outcome;
use crate::cnf::Cnf;
use crate::encode::encode;
use crate::options::SearchOptions;
use mpi::datatype::Equivalence;
use mpi::point_to_point::{Message, Status};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify_core::kernel::Instance;

/// How long a loop waits when there is no message.
const IDLE: Duration = Duration::from_millis(2);
/// How long rank 0 waits for the workers' goodbyes at the end.
const FAREWELL: Duration = Duration::from_secs(30);

/// Runs the search for `time` as an MPI job. Rank 0 returns the outcome and
/// the figures; every other rank works and returns `None`.
pub fn run(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    cluster: &ClusterOptions,
) -> Result<Option<(Outcome, ClusterStats)>, ClusterError> {
    let universe = mpi::initialize().ok_or(ClusterError::Init)?;
    let world = universe.world();
    let solver = ChildSolver::current().map_err(|why| ClusterError::Worker {
        rank: world.rank(),
        why,
    })?;
    if world.rank() != 0 {
        work(&world, instance, time, options, &solver);
        return Ok(None);
    }
    let workers = (world.size() - 1).max(1) as usize;
    let deadline = options.time_limit.map(|limit| Instant::now() + limit);
    let mut conductor = Conductor::new(instance, time, options, cluster, workers)?;
    if world.size() == 1 {
        solve_here(&mut conductor, &solver, deadline)?;
    } else {
        let mut alive: BTreeSet<i32> = (1..world.size()).collect();
        let result = conduct(&world, &mut conductor, cluster, deadline, &mut alive);
        farewell(&world, &mut alive);
        result?;
    }
    Ok(Some(conductor.finish()?))
}

/// `-np 1`: rank 0 solves every cube itself, one after the other.
fn solve_here(
    conductor: &mut Conductor,
    solver: &ChildSolver,
    deadline: Option<Instant>,
) -> Result<(), ClusterError> {
    let cnf = conductor.encoding().cnf.clone();
    let stop = Arc::new(AtomicBool::new(false));
    while deadline.is_none_or(|d| Instant::now() < d) {
        let Some(lease) = conductor.lease(0) else {
            break;
        };
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());
        let budget = match (lease.budget, left) {
            (Some(b), Some(l)) => Some(b.min(l)),
            (b, l) => b.or(l),
        };
        let (answer, seconds) = solver.solve(&cnf, &lease.cube, budget, &stop);
        conductor.answer(0, lease.id, seconds, answer)?;
        conductor.collect_checks(usize::MAX)?;
    }
    Ok(())
}

/// Rank 0's loop with workers: answers in, cubes out, until the run is settled,
/// the time limit passes or every worker is lost.
fn conduct(
    world: &SimpleCommunicator,
    conductor: &mut Conductor,
    cluster: &ClusterOptions,
    deadline: Option<Instant>,
    alive: &mut BTreeSet<i32>,
) -> Result<(), ClusterError> {
    let digest = conductor.encoding().cnf.digest();
    let mut idle: VecDeque<i32> = VecDeque::new();
    while !conductor.is_settled() && deadline.is_none_or(|d| Instant::now() < d) {
        match world.any_process().immediate_matched_probe() {
            Some((message, status)) => {
                let bytes = take(message, &status);
                let rank = status.source_rank();
                if !alive.contains(&rank) {
                    continue; // given up on: its late answers do not count
                }
                match ToRoot::decode(&bytes)? {
                    ToRoot::Ready => idle.push_back(rank),
                    ToRoot::Done {
                        id,
                        seconds,
                        answer,
                    } => {
                        conductor.answer(rank, id, seconds, answer)?;
                        idle.push_back(rank);
                    }
                    ToRoot::Failed(why) => return Err(ClusterError::Worker { rank, why }),
                    ToRoot::Bye => {
                        alive.remove(&rank);
                    }
                }
            }
            None => std::thread::sleep(IDLE),
        }
        conductor.collect_checks(0)?;
        if let Some(lease) = cluster.lease() {
            for rank in conductor.reclaim_overdue(lease) {
                alive.remove(&rank);
            }
        }
        if alive.is_empty() {
            return Err(ClusterError::NoWorkers);
        }
        while let Some(&rank) = idle.front() {
            let Some(lease) = conductor.lease(rank) else {
                break;
            };
            let task = ToWorker::Task {
                id: lease.id,
                digest,
                budget: lease.budget,
                cube: lease.cube,
            };
            world.process_at_rank(rank).send(&task.encode()[..]);
            idle.pop_front();
        }
    }
    Ok(())
}

/// Tells every live worker to stop and waits for their goodbyes, taking in
/// (and dropping) the answers still on their way.
fn farewell(world: &SimpleCommunicator, alive: &mut BTreeSet<i32>) {
    let stop = ToWorker::Stop.encode();
    for &rank in alive.iter() {
        world.process_at_rank(rank).send(&stop[..]);
    }
    let until = Instant::now() + FAREWELL;
    while !alive.is_empty() && Instant::now() < until {
        match world.any_process().immediate_matched_probe() {
            Some((message, status)) => {
                let bytes = take(message, &status);
                if ToRoot::decode(&bytes) == Ok(ToRoot::Bye) {
                    alive.remove(&status.source_rank());
                }
            }
            None => std::thread::sleep(IDLE),
        }
    }
    if !alive.is_empty() {
        eprintln!("ranks {alive:?} did not stop in time");
    }
}

/// A worker's loop: ask, solve, answer, until rank 0 says stop.
fn work(
    world: &SimpleCommunicator,
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    solver: &ChildSolver,
) {
    let root = world.process_at_rank(0);
    let cnf = match encode(instance, time, &options.encoding) {
        Ok(encoding) => Some(encoding.cnf),
        Err(e) => {
            root.send(&ToRoot::Failed(e.to_string()).encode()[..]);
            None
        }
    };
    if cnf.is_some() {
        root.send(&ToRoot::Ready.encode()[..]);
    }
    loop {
        let (bytes, _) = root.receive_vec::<u8>();
        let reply = match (ToWorker::decode(&bytes), &cnf) {
            (Ok(ToWorker::Stop), _) => break,
            (Ok(ToWorker::Task { digest, .. }), Some(cnf)) if digest != cnf.digest() => {
                ToRoot::Failed("its formula differs from rank 0's".to_string())
            }
            (
                Ok(ToWorker::Task {
                    id, budget, cube, ..
                }),
                Some(cnf),
            ) => {
                match solve_listening(world, cnf, &cube, budget, solver) {
                    Some((answer, seconds)) => ToRoot::Done {
                        id,
                        seconds,
                        answer,
                    },
                    None => break, // stopped while solving
                }
            }
            (Ok(ToWorker::Task { .. }), None) => continue,
            (Err(e), _) => ToRoot::Failed(e.to_string()),
        };
        root.send(&reply.encode()[..]);
    }
    root.send(&ToRoot::Bye.encode()[..]);
}

/// Solves one cube while listening for a stop from rank 0 (`None` when it came).
fn solve_listening(
    world: &SimpleCommunicator,
    cnf: &Cnf,
    cube: &[i32],
    budget: Option<f64>,
    solver: &ChildSolver,
) -> Option<(super::protocol::Answer, f64)> {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let solving = scope.spawn(|| solver.solve(cnf, cube, budget, &stop));
        while !solving.is_finished() {
            if let Some((message, status)) = world.process_at_rank(0).immediate_matched_probe() {
                let bytes = take(message, &status);
                if ToWorker::decode(&bytes) == Ok(ToWorker::Stop) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            std::thread::sleep(IDLE);
        }
        let result = solving.join().ok();
        if stop.load(Ordering::Relaxed) {
            None
        } else {
            result
        }
    })
}

/// The bytes of a probed message.
fn take(message: Message, status: &Status) -> Vec<u8> {
    let count = status.count(u8::equivalent_datatype()).max(0) as usize;
    let mut bytes = vec![0u8; count];
    message.matched_receive_into(&mut bytes[..]);
    bytes
}
