//! The MPI side of a cluster search (`search --mpi`): who is rank 0, the loops of rank 0 and of the workers.
//!
//! Every message is bytes ([`protocol`]). Rank 0 never blocks on one
//! worker: it probes for any message, hands cubes to idle workers, and takes
//! back a cube whose worker has been silent past the lease. A worker blocks
//! for its next order, then runs its solver in a child process
//! ([`txverify_search::cluster::task`]) while it keeps probing for a stop. At the end rank 0
//! sends every worker a stop and waits for each one's goodbye, so that no
//! worker is left in a send that nobody receives.

use mpi::datatype::Equivalence;
use mpi::point_to_point::{Message, Status};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify_core::kernel::Instance;
use txverify_search::Outcome;
use txverify_search::cluster::ClusterError;
use txverify_search::cluster::protocol::{self, ToRoot, ToWorker};
use txverify_search::cluster::root::{ClusterOptions, ClusterStats, Conductor};
use txverify_search::cluster::task::ChildSolver;
use txverify_search::cluster::walk::{self, Plan, Walked};
use txverify_search::cnf::Cnf;
use txverify_search::encode::encode;
use txverify_search::options::SearchOptions;

/// How long a loop waits when there is no message.
const IDLE: Duration = Duration::from_millis(2);
/// How long rank 0 waits for the workers' goodbyes at the end.
const FAREWELL: Duration = Duration::from_secs(30);

/// Runs the times of `plan` as an MPI job, one round of cubes per time over
/// the same workers ([`walk`]), until the plan stops or `deadline` (the whole
/// run's) passes. Rank 0 returns what was tried, each round told to `done` as
/// it ends; every other rank works and returns `None`.
pub fn run(
    instance: &Instance,
    options: &SearchOptions,
    cluster: &ClusterOptions,
    plan: &Plan,
    deadline: Option<Instant>,
    done: &mut dyn FnMut(usize, &Outcome, &ClusterStats),
) -> Result<Option<Walked>, ClusterError> {
    let universe = mpi::initialize().ok_or(ClusterError::Init)?;
    let world = universe.world();
    let solver = ChildSolver::current().map_err(|why| ClusterError::Worker {
        rank: world.rank(),
        why,
    })?;
    if world.rank() != 0 {
        work(&world, instance, options, &solver);
        return Ok(None);
    }
    let workers = (world.size() - 1).max(1) as usize;
    let mut pool = Pool {
        alive: (1..world.size()).collect(),
        idle: VecDeque::new(),
    };
    let mut round = |time: usize, step: &SearchOptions, until: Option<Instant>| {
        let mut conductor = Conductor::new(instance, time, step, cluster, workers)?;
        if world.size() == 1 {
            solve_here(&mut conductor, &solver, until)?;
        } else {
            conduct(&world, &mut conductor, cluster, until, &mut pool)?;
            pool.abandon_busy(&world);
        }
        Ok::<_, ClusterError>(conductor.finish()?)
    };
    let walked = walk::walk(instance, options, plan, deadline, &mut round, done);
    if world.size() > 1 {
        farewell(&world, &mut pool.alive);
    }
    walked.map(Some)
}

/// Rank 0's view of its workers, kept from one round to the next.
struct Pool {
    /// Workers not given up on.
    alive: BTreeSet<i32>,
    /// Workers waiting for a cube, in the order they asked.
    idle: VecDeque<i32>,
}

impl Pool {
    /// After a round: the workers still solving one of its cubes are told to
    /// drop it (each answers once, with its answer or `Ready`, and is idle again).
    fn abandon_busy(&mut self, world: &SimpleCommunicator) {
        let abandon = ToWorker::Abandon.encode();
        for &rank in self.alive.iter().filter(|r| !self.idle.contains(r)) {
            world.process_at_rank(rank).send(&abandon[..]);
        }
    }
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

/// Rank 0's loop with workers for one round: answers in, cubes out, until
/// the round is settled, its time runs out or every worker is lost. Answers
/// for another round's cubes (a worker that was still solving when its round
/// ended) only make their worker idle again.
fn conduct(
    world: &SimpleCommunicator,
    conductor: &mut Conductor,
    cluster: &ClusterOptions,
    deadline: Option<Instant>,
    pool: &mut Pool,
) -> Result<(), ClusterError> {
    let digest = conductor.encoding().cnf.digest();
    let time = conductor.time() as u32;
    while !conductor.is_settled() && deadline.is_none_or(|d| Instant::now() < d) {
        match world.any_process().immediate_matched_probe() {
            Some((message, status)) => {
                let bytes = take(message, &status);
                let rank = status.source_rank();
                if !pool.alive.contains(&rank) {
                    continue; // given up on: its late answers do not count
                }
                match ToRoot::decode(&bytes)? {
                    ToRoot::Ready => pool.idle.push_back(rank),
                    ToRoot::Done {
                        time: answered,
                        id,
                        seconds,
                        answer,
                    } => {
                        if answered == time {
                            conductor.answer(rank, id, seconds, answer)?;
                        }
                        pool.idle.push_back(rank);
                    }
                    ToRoot::Failed(why) => return Err(ClusterError::Worker { rank, why }),
                    ToRoot::Bye => {
                        pool.alive.remove(&rank);
                    }
                }
            }
            None => std::thread::sleep(IDLE),
        }
        conductor.collect_checks(0)?;
        if let Some(lease) = cluster.lease() {
            for rank in conductor.reclaim_overdue(lease) {
                pool.alive.remove(&rank);
                pool.idle.retain(|&r| r != rank);
            }
        }
        if pool.alive.is_empty() {
            return Err(ClusterError::NoWorkers);
        }
        while let Some(&rank) = pool.idle.front() {
            let Some(lease) = conductor.lease(rank) else {
                break;
            };
            let task = ToWorker::Task {
                time,
                id: lease.id,
                digest,
                budget: lease.budget,
                cube: lease.cube,
            };
            world.process_at_rank(rank).send(&task.encode()[..]);
            pool.idle.pop_front();
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

/// A worker's loop: ask, solve, answer, until rank 0 says stop. The formula
/// of a task's time is encoded when the first task of that time comes.
fn work(
    world: &SimpleCommunicator,
    instance: &Instance,
    options: &SearchOptions,
    solver: &ChildSolver,
) {
    let root = world.process_at_rank(0);
    let mut formula: Option<(u32, Cnf)> = None;
    root.send(&ToRoot::Ready.encode()[..]);
    loop {
        let (bytes, _) = root.receive_vec::<u8>();
        let reply = match ToWorker::decode(&bytes) {
            Ok(ToWorker::Stop) => break,
            Ok(ToWorker::Abandon) => continue, // answered already
            Ok(ToWorker::Task {
                time,
                id,
                digest,
                budget,
                cube,
            }) => {
                if formula.as_ref().is_none_or(|(t, _)| *t != time) {
                    formula = encode(instance, time as usize, &options.encoding)
                        .map(|e| (time, e.cnf))
                        .map_err(|e| root.send(&ToRoot::Failed(e.to_string()).encode()[..]))
                        .ok();
                }
                match &formula {
                    None => continue, // said so; rank 0 stops the run
                    Some((_, cnf)) if digest != cnf.digest() => {
                        ToRoot::Failed("its formula differs from rank 0's".to_string())
                    }
                    Some((_, cnf)) => match solve_listening(world, cnf, &cube, budget, solver) {
                        Listened::Answer(answer, seconds) => ToRoot::Done {
                            time,
                            id,
                            seconds,
                            answer,
                        },
                        Listened::Abandoned => ToRoot::Ready,
                        Listened::Stopped => break,
                    },
                }
            }
            Err(e) => ToRoot::Failed(e.to_string()),
        };
        root.send(&reply.encode()[..]);
    }
    root.send(&ToRoot::Bye.encode()[..]);
}

/// How solving a cube ended.
enum Listened {
    /// The solver's answer and its wall time.
    Answer(protocol::Answer, f64),
    /// Rank 0 said [`ToWorker::Abandon`]: the solver was stopped.
    Abandoned,
    /// Rank 0 said [`ToWorker::Stop`]: the solver was stopped, and the worker stops.
    Stopped,
}

/// Solves one cube while listening for an abandon or a stop from rank 0.
fn solve_listening(
    world: &SimpleCommunicator,
    cnf: &Cnf,
    cube: &[i32],
    budget: Option<f64>,
    solver: &ChildSolver,
) -> Listened {
    let stop = Arc::new(AtomicBool::new(false));
    let mut heard = None;
    std::thread::scope(|scope| {
        let solving = scope.spawn(|| solver.solve(cnf, cube, budget, &stop));
        while !solving.is_finished() {
            if let Some((message, status)) = world.process_at_rank(0).immediate_matched_probe() {
                let bytes = take(message, &status);
                if let Ok(order @ (ToWorker::Stop | ToWorker::Abandon)) = ToWorker::decode(&bytes) {
                    stop.store(true, Ordering::Relaxed);
                    heard = Some(order);
                }
            }
            std::thread::sleep(IDLE);
        }
        let result = solving.join();
        match (heard, result) {
            (Some(ToWorker::Abandon), _) => Listened::Abandoned,
            (Some(_), _) => Listened::Stopped,
            (None, Ok((answer, seconds))) => Listened::Answer(answer, seconds),
            (None, Err(_)) => Listened::Answer(
                protocol::Answer::Lost("the solver's thread panicked".to_string()),
                0.0,
            ),
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
