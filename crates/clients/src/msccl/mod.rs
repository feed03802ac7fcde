//! MSCCL XML in, and its symbolic executor: the verdict for MSCCL programs
//! that others write (docs/msccl.md).
//!
//! `check` reads a program ([`parse`], [`program`]), lowers each thread block
//! to what msccl-executor-nccl's reader makes of it ([`lower`]), and runs it
//! symbolically ([`execute`]) in each way the runtime may call it (in place,
//! out of place), checking the collective's postcondition ([`collective`]).
//! [`execute`] and [`collective`] are the trusted part: they share no code
//! with the exporter (src/export/msccl*), which writes programs.
//! [`report`] words the result as text and JSON. Given a network
//! ([`check_on`]), [`links`] routes the connections on it and counts the
//! chunks each link carries, and [`bounds`] says how few any program of the
//! collective could make do with.

pub mod bounds;
pub mod collective;
pub mod crosscheck;
pub mod execute;
pub mod links;
pub mod lower;
pub mod parse;
pub mod program;
pub mod report;
pub mod routes;

use collective::{CollKind, Collective, Shape};
use execute::{Figures, Finding, Options};
use links::{OnNetwork, Routes};
pub use parse::{ReadError, looks_like_msccl};
use program::Problem;
use txverify_core::network::Graph;

/// At most this many chunks of memory, all GPUs together, are simulated.
pub const MAX_SLOTS: i64 = 1 << 28;

/// The verdict on one MSCCL program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MscclVerdict {
    /// Read without problems, and every run passed.
    Valid,
    /// The executor's reader refuses it, or a run faulted or missed the
    /// collective's postcondition.
    Invalid,
    /// Nothing could be decided (an unknown collective, buffers beyond what
    /// is simulated).
    NotChecked,
}

impl MscclVerdict {
    /// The exit status of a checked program: 0 valid, 1 invalid, 2 when
    /// nothing could be decided.
    pub fn status(self) -> crate::shared::failure::Status {
        use crate::shared::failure::Status;
        match self {
            MscclVerdict::Valid => Status::Ok,
            MscclVerdict::Invalid => Status::Rejected,
            MscclVerdict::NotChecked => Status::Input,
        }
    }

    /// The word of the text report: `VALID`, `INVALID`, `NOT CHECKED`.
    pub fn word(self) -> &'static str {
        match self {
            MscclVerdict::Valid => "VALID",
            MscclVerdict::Invalid => "INVALID",
            MscclVerdict::NotChecked => "NOT CHECKED",
        }
    }
}

/// The result of checking one program. Only [`check`] and its siblings make
/// one, and its verdict is decided in one place, after the runs; the fields
/// are private and read through getters, so nothing outside this module can
/// write down or change a check:
///
/// ```compile_fail,E0451
/// fn forge(c: &txverify_clients::msccl::Check) -> txverify_clients::msccl::Check {
///     txverify_clients::msccl::Check { problems: Vec::new(), ..c.clone() }
/// }
/// ```
///
/// ```compile_fail,E0616
/// fn launder(c: &mut txverify_clients::msccl::Check) {
///     c.finding = None;
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// `name`.
    name: String,
    /// `coll` as written.
    coll: String,
    /// The collective checked, when the executor accepts `coll` and txverify
    /// knows its postcondition.
    collective: Option<Collective>,
    /// `ngpus`.
    ngpus: i64,
    /// `proto`.
    proto: String,
    /// What the executor's reader refuses.
    problems: Vec<Problem>,
    /// The ways it was run: `out-of-place`, `in-place`.
    modes: Vec<&'static str>,
    /// The first fault of a run, and the way it was run.
    finding: Option<(&'static str, Finding)>,
    /// Figures of the first run that passed.
    figures: Option<Figures>,
    /// `nchunksperloop`.
    chunks: i64,
    /// Most transmissions in one thread block.
    longest_threadblock: usize,
    /// Thread blocks, all GPUs.
    threadblocks: usize,
    /// Why nothing could be decided (exit 2), if so.
    undecided: Option<String>,
    /// The program on the network asked for, when its run passed.
    network: Option<OnNetwork>,
    /// Decided by [`Check::decided`], once everything above is known.
    verdict: MscclVerdict,
}

impl Check {
    /// `name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `coll` as written.
    pub fn coll(&self) -> &str {
        &self.coll
    }

    /// The collective checked, when the executor accepts `coll` and txverify
    /// knows its postcondition.
    pub fn collective(&self) -> Option<Collective> {
        self.collective
    }

    /// `ngpus`.
    pub fn ngpus(&self) -> i64 {
        self.ngpus
    }

    /// `proto`.
    pub fn proto(&self) -> &str {
        &self.proto
    }

    /// What the executor's reader refuses.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The ways it was run: `out-of-place`, `in-place`.
    pub fn modes(&self) -> &[&'static str] {
        &self.modes
    }

    /// The first fault of a run, and the way it was run.
    pub fn finding(&self) -> Option<&(&'static str, Finding)> {
        self.finding.as_ref()
    }

    /// Figures of the first run that passed.
    pub fn figures(&self) -> Option<&Figures> {
        self.figures.as_ref()
    }

    /// `nchunksperloop`.
    pub fn chunks(&self) -> i64 {
        self.chunks
    }

    /// Most transmissions in one thread block.
    pub fn longest_threadblock(&self) -> usize {
        self.longest_threadblock
    }

    /// Thread blocks, all GPUs.
    pub fn threadblocks(&self) -> usize {
        self.threadblocks
    }

    /// Why nothing could be decided (exit 2), if so.
    pub fn undecided(&self) -> Option<&str> {
        self.undecided.as_deref()
    }

    /// The program on the network asked for, when its run passed.
    pub fn network(&self) -> Option<&OnNetwork> {
        self.network.as_ref()
    }

    /// The verdict.
    pub fn verdict(&self) -> MscclVerdict {
        self.verdict
    }

    /// Whether the program is valid: read without problems, and every run
    /// passed.
    pub fn valid(&self) -> bool {
        self.verdict == MscclVerdict::Valid
    }

    /// The one place the verdict is decided: nothing undecided, no problem of
    /// the reader, no fault, and at least one run.
    fn decided(mut self) -> Check {
        self.verdict = if self.undecided.is_some() {
            MscclVerdict::NotChecked
        } else if self.problems.is_empty() && self.finding.is_none() && !self.modes.is_empty() {
            MscclVerdict::Valid
        } else {
            MscclVerdict::Invalid
        };
        self
    }

    /// The reason it is not valid, in one sentence.
    pub fn reason(&self) -> Option<String> {
        if let Some(u) = &self.undecided {
            return Some(u.clone());
        }
        if let Some(p) = self.problems.first() {
            return Some(format!("{}: {}", p.pos, p.message));
        }
        self.finding
            .as_ref()
            .map(|(mode, f)| report::finding_sentence(mode, f))
    }
}

/// Checks the MSCCL program `source`.
pub fn check(source: &str) -> Result<Check, ReadError> {
    check_on(source, None)
}

/// Checks the MSCCL program `source`, and measures it on `network` (GPU i on
/// node i) when one is given. A network of another order than the program's
/// GPUs is refused as a [`ReadError`] at the `<algo>` element.
pub fn check_on(source: &str, network: Option<&Graph>) -> Result<Check, ReadError> {
    check_with(source, network, false)
}

/// [`check`], keeping every message each connection carried in the figures
/// ([`Figures::carried`]) for [`crosscheck`].
pub fn check_recorded(source: &str) -> Result<Check, ReadError> {
    check_with(source, None, true)
}

fn check_with(source: &str, network: Option<&Graph>, record: bool) -> Result<Check, ReadError> {
    run(source, network, record).map(|(check, _)| check.decided())
}

/// A program's check as the command line asks: on `network` when given, and
/// timed there when `timing` asks; the outer error is a timing flag or link
/// table that cannot be used (exit 2), the inner one a program that cannot
/// be read.
#[allow(clippy::type_complexity)]
pub fn check_asked(
    source: &str,
    network: Option<&Graph>,
    timing: &crate::timed::TimingRequest<'_>,
) -> Result<Result<(Check, Option<crate::timed::TimedReport>), ReadError>, crate::timed::TimingError>
{
    // A fabric that gives its links' α and β is timed without the flags.
    let own_times = |g: &&Graph| (0..g.directed_links() as u32).any(|l| g.link_timing(l).is_some());
    match network.filter(|g| timing.asked() || own_times(g)) {
        Some(graph) => {
            let times = crate::timed::LinkTimes::of(timing, graph)?;
            Ok(check_timed(source, graph, &times).map(|(c, t)| (c, Some(t))))
        }
        None => Ok(check_on(source, network).map(|c| (c, None))),
    }
}

/// [`check_on`] `network`, and the timed replay of the program there with
/// the links' `times` (docs/msccl.md, "Timed replay"): a prediction beside
/// the check, made only when the program is valid, never changing its verdict.
pub fn check_timed(
    source: &str,
    network: &Graph,
    times: &crate::timed::LinkTimes,
) -> Result<(Check, crate::timed::TimedReport), ReadError> {
    let (check, ranks) = run(source, Some(network), false)?;
    let check = check.decided();
    let on = check.network.as_ref().filter(|_| check.valid());
    let timed = match (on, Routes::new(network)) {
        (Some(on), Ok(routes)) => {
            // A message carries at most MAX_COUNT − 1 chunks (the reader
            // refuses more).
            let bound = timed_bound(network, on, &times.times);
            crate::timed::msccl::replay(&ranks, &routes, times, Some(bound))
        }
        _ => crate::timed::TimedReport::not_timed(times, "not timed: the program is not valid"),
    };
    Ok((check, timed))
}

/// The α-β lower bound of every program of the collective on `network`: a
/// chain of `latency` hops, or the busiest link's chunks in messages of at
/// most `MAX_COUNT − 1` (the reader refuses more). A link of capacity c
/// carries c messages at once, so on a fabric the link's busy time is
/// divided by the largest capacity (a weaker bound, never a wrong one).
fn timed_bound(
    network: &Graph,
    on: &links::OnNetwork,
    times: &[(f64, f64)],
) -> txverify_core::bounds::timed::TimedBound {
    use txverify_core::bounds::timed::{TimedBound, chains_and_loads};
    let max_chunks = (lower::MAX_COUNT - 1) as u64;
    let both = chains_and_loads(on.bounds.latency, on.bounds.load(), max_chunks, times);
    let widest = (0..network.directed_links() as u32)
        .map(|l| network.capacity(l))
        .max()
        .unwrap_or(1);
    if widest <= 1 {
        return both;
    }
    let chain = chains_and_loads(on.bounds.latency, 0, max_chunks, times);
    let busy = chains_and_loads(0, on.bounds.load(), max_chunks, times);
    let shared = busy.value / f64::from(widest);
    if chain.value >= shared {
        chain
    } else {
        TimedBound {
            value: shared,
            argument: format!(
                "{}, shared by at most {widest} messages at once",
                busy.argument
            ),
        }
    }
}

/// Reads, lowers and runs the program; the verdict is left to [`Check::decided`].
/// The lowered ranks come with it, for the timed replay.
fn run(
    source: &str,
    network: Option<&Graph>,
    record: bool,
) -> Result<(Check, Vec<lower::Rank>), ReadError> {
    let root = parse::parse(source)?;
    let program = program::read(&root)?;
    let routes = match network {
        Some(graph) => Some(routes_for(&program, graph)?),
        None => None,
    };
    let mut problems = program.problems.clone();
    let collective = match collective::kind_of(&program.coll) {
        CollKind::Checked(c) => Some(c),
        CollKind::Unchecked => None,
        CollKind::Refused => {
            if root.attribute("coll").is_some() {
                problems.push(Problem {
                    pos: program.pos,
                    message: format!(
                        "coll = \"{}\" is not a collective the executor accepts (allreduce, allgather, reducescatter, alltoall, broadcast, reduce, gather, scatter, send, recv, alltoallv)",
                        program.coll
                    ),
                });
            }
            None
        }
    };
    if program.ngpus < 1 {
        problems.push(Problem {
            pos: program.pos,
            message: format!("ngpus = {} is not a number of GPUs", program.ngpus),
        });
    }
    let has = |a: &str| root.attribute(a).is_some();
    if has("inplace") && has("outofplace") && !program.inplace && !program.outofplace {
        problems.push(Problem {
            pos: program.pos,
            message: "inplace and outofplace are both 0: the runtime never selects this program"
                .into(),
        });
    }
    let ranks = lower::lower(&program, &mut problems);
    let mut check = Check {
        name: program.name.clone(),
        coll: program.coll.clone(),
        collective,
        ngpus: program.ngpus,
        proto: program.proto.clone(),
        problems,
        modes: Vec::new(),
        finding: None,
        figures: None,
        chunks: program.nchunksperloop,
        longest_threadblock: ranks
            .iter()
            .flat_map(|r| &r.tbs)
            .map(|t| t.txs.len())
            .max()
            .unwrap_or(0),
        threadblocks: ranks.iter().map(|r| r.tbs.len()).sum(),
        undecided: None,
        network: None,
        verdict: MscclVerdict::NotChecked,
    };
    let Some(coll) = collective else {
        if matches!(collective::kind_of(&program.coll), CollKind::Unchecked) {
            check.undecided = Some(format!(
                "txverify does not know the postcondition of coll = \"{}\"",
                program.coll
            ));
        }
        return Ok((check, ranks));
    };
    if program.ngpus < 1 {
        return Ok((check, ranks));
    }
    let options = RunOptions {
        routes: routes.as_ref(),
        record,
    };
    run_modes(&program, &ranks, coll, options, &mut check);
    Ok((check, ranks))
}

/// The routes of `graph`, when it has one node per GPU of `program`.
fn routes_for<'g>(program: &program::Program, graph: &'g Graph) -> Result<Routes<'g>, ReadError> {
    let refuse = |message: String| ReadError {
        pos: program.pos,
        message,
    };
    if usize::try_from(program.ngpus).ok() != Some(graph.endpoint_count()) {
        let switches = graph.nodes() - graph.endpoint_count();
        let gpus = if switches == 0 {
            format!("{} nodes: GPU i runs on node i", graph.nodes())
        } else {
            format!(
                "{} nodes that are not switches: GPU i runs on the i-th",
                graph.endpoint_count()
            )
        };
        return Err(refuse(format!(
            "the program has ngpus = {} and the network `{}` has {gpus}, so they must be as many",
            program.ngpus,
            graph.label(),
        )));
    }
    Routes::new(graph).map_err(|e| refuse(format!("network `{}`: {e}", graph.label())))
}

/// What a check runs with besides the program.
#[derive(Clone, Copy)]
struct RunOptions<'r, 'g> {
    /// The network's routes (`--network`).
    routes: Option<&'r Routes<'g>>,
    /// Keep every message.
    record: bool,
}

/// Runs the program in each way the runtime may call it.
fn run_modes(
    program: &program::Program,
    ranks: &[lower::Rank],
    coll: Collective,
    run: RunOptions,
    check: &mut Check,
) {
    let routes = run.routes;
    let hops = |x: u32, y: u32| routes.map_or(1, |r| r.hops(x, y));
    let options = Options {
        hops: Some(&hops),
        record: run.record,
    };
    let n = program.ngpus as u32;
    let mut modes = Vec::new();
    if program.outofplace || !program.inplace {
        modes.push(("out-of-place", false));
    }
    if program.inplace {
        modes.push(("in-place", true));
    }
    for (name, in_place) in modes {
        let shape = match Shape::new(coll, n, program.nchunksperloop, in_place) {
            Ok(s) => s,
            Err(e) => {
                check.problems.push(Problem {
                    pos: program.pos,
                    message: e,
                });
                return;
            }
        };
        let scratch: i64 = ranks.iter().map(|r| r.scratch.max(0)).sum();
        let user = shape.input.saturating_add(shape.output);
        if shape.input < 0
            || shape.output < 0
            || user.saturating_mul(i64::from(n)).saturating_add(scratch) > MAX_SLOTS
            || shape.input.saturating_mul(i64::from(n)) > i64::from(u32::MAX)
        {
            check.undecided = Some(format!(
                "the program's buffers exceed the {MAX_SLOTS} chunks txverify simulates"
            ));
            return;
        }
        check.modes.push(name);
        match execute::run_with(ranks, &shape, options) {
            Ok(f) => {
                if check.figures.is_none() {
                    check.network = routes.map(|r| links::measure(r, &f, &shape));
                    check.figures = Some(f);
                }
            }
            Err(f) => {
                check.finding = Some((name, f));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MscclVerdict;
    use crate::shared::failure::Status;

    #[test]
    fn an_msccl_program_exits_by_its_verdict() {
        assert_eq!(MscclVerdict::Valid.status(), Status::Ok);
        assert_eq!(MscclVerdict::Invalid.status(), Status::Rejected);
        assert_eq!(MscclVerdict::NotChecked.status(), Status::Input);
        assert_eq!(MscclVerdict::NotChecked.status().code(), 2);
    }
}
