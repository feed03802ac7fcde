//! `search --network --heuristic`: the heuristic's schedule replayed and
//! written a step at a time, never held whole (a total exchange on 4,096
//! nodes makes 2·10⁸ sends: 4 GB as [`TimedSend`]s, 1.6 GB as the
//! heuristic's routes and steps).
//!
//! The sends go, step by step, to the core's [`StreamReplay`] (the same checks
//! as the whole replay) and to `-o` through a [`SendWriter`]; the file is
//! written under a temporary name beside it and renamed only once the replay
//! is judged valid, so an invalid schedule is never left behind.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use txverify_core::network::Graph;
use txverify_core::schedule::{
    Collective, Ports, ReplayOptions, ReplayReport, Schedule, SendWriter, StreamReplay, TimedSend,
};
use txverify_core::verdict::{NamedBound, ScheduleVerdict, judge};
use txverify_search::schedule as sched;
use txverify_search::schedule::heuristic::Timed;

/// The heuristic's schedule, replayed, judged and (with `-o`) written.
pub(super) struct Streamed {
    /// The number of sends.
    pub(super) sends: u64,
    /// The core's verdict on the replay.
    pub(super) verdict: ScheduleVerdict,
    /// The replay's report (to judge it again against a better bound).
    pub(super) replayed: ReplayReport,
}

/// Why the walk of the steps ended early.
enum Ended {
    Failed(String),
    /// The stop came: nothing is kept.
    Stopped,
}

/// An open `-o` file: the temporary path it is written under, and the final one
/// (the same path for a device or a FIFO, written in place).
struct Output {
    partial: PathBuf,
    path: PathBuf,
    file: super::write::ScheduleWriter,
    writer: SendWriter,
}

/// Replays `timed`, one of the heuristic's schedules on `graph`
/// ([`sched::heuristic::quick`], [`sched::heuristic::improve`]), step by
/// step, judges it against `bound` and writes it to `output`. `header` is
/// the schedule as `-o` names it (its sends empty). `Ok(None)` when
/// `stop()` said so first (asked before each step): the partial file is
/// removed and `output` is left as it was.
pub(super) fn heuristic(
    graph: &Graph,
    timed: &Timed,
    header: &Schedule,
    bound: &NamedBound,
    output: Option<&Path>,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Streamed>, String> {
    let profiling = sched::heuristic::profiling();
    let (mut replaying, mut writing) = (Duration::ZERO, Duration::ZERO);
    let mut out = match output {
        Some(path) => Some(open(path, header)?),
        None => None,
    };
    let options = ReplayOptions { max_listed: 10 };
    let replayed = (|| {
        let cannot = |e| Ended::Failed(format!("the schedule cannot be replayed: {e}"));
        let mut stream =
            StreamReplay::start(graph, Ports::All, Collective::TotalExchange, &options)
                .map_err(cannot)?;
        timed.for_each_step(graph, |batch: &[TimedSend]| {
            if stop() {
                return Err(Ended::Stopped);
            }
            let clock = profiling.then(Instant::now);
            stream.feed(batch).map_err(cannot)?;
            let between = clock.map(|c| (c.elapsed(), Instant::now()));
            let written = match &mut out {
                Some(o) => o
                    .writer
                    .sends(batch, &mut o.file)
                    .map_err(|e| Ended::Failed(format!("cannot write {}: {e}", o.path.display()))),
                None => Ok(()),
            };
            if let Some((replayed, c)) = between {
                replaying += replayed;
                writing += c.elapsed();
            }
            written
        })?;
        stream.finish().map_err(cannot)
    })();
    if profiling {
        eprintln!(
            "profile: streamed replay: {:.3} s, writing: {:.3} s (both within the walk of the steps)",
            replaying.as_secs_f64(),
            writing.as_secs_f64()
        );
    }
    let report = match replayed {
        Ok(r) => r,
        Err(ended) => {
            discard(out);
            return match ended {
                Ended::Failed(message) => Err(message),
                Ended::Stopped => Ok(None),
            };
        }
    };
    let verdict = judge(&report, Some(bound.clone()), None);
    if !verdict.valid() || verdict.beats_bound() {
        discard(out);
        return Err(format!(
            "internal error: the schedule found replays with {} violations (time {}, bound {})",
            verdict.violations(),
            verdict.time(),
            bound.value()
        ));
    }
    if let Some(o) = out {
        close(o)?;
    }
    Ok(Some(Streamed {
        sends: timed.sends(),
        verdict,
        replayed: report,
    }))
}

fn open(path: &Path, header: &Schedule) -> Result<Output, String> {
    let partial = if super::write::written_in_place(path) {
        path.to_path_buf()
    } else {
        super::write::temporary_beside(path)
    };
    let failed = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let file = std::fs::File::create(&partial).map_err(failed)?;
    let (mut file, json) = super::write::compressed_writer(file, path).map_err(failed)?;
    let writer = SendWriter::start(header, json, &mut file).map_err(failed)?;
    Ok(Output {
        partial,
        path: path.to_path_buf(),
        file,
        writer,
    })
}

fn close(mut o: Output) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("cannot write {}: {e}", o.path.display());
    o.writer.finish(&mut o.file).map_err(failed)?;
    super::write::finish(o.file).map_err(failed)?;
    if o.partial == o.path {
        return Ok(());
    }
    std::fs::rename(&o.partial, &o.path).map_err(failed)
}

fn discard(out: Option<Output>) {
    if let Some(o) = out {
        drop(o.file);
        if o.partial != o.path {
            let _ = std::fs::remove_file(&o.partial);
        }
    }
}
