//! `search --cubes K`, `--merge DIR` and `--model FILE`: cube-and-conquer
//! here or for jobs elsewhere, the jobs' answers added up, and a model found
//! elsewhere decoded. Each gives a [`Run`]: the lines to show, the table to
//! write (which the kernel checks first, [`super::search::Found`]) and how it
//! ended. An infeasibility from merged cubes counts only cubes refuted with a
//! checked proof, and only when the cubes cover (the search library's
//! `conquer::merge` decides both).

use super::failure::{Failure, Status, read_text};
use super::search::{at_time, describe};
use std::path::Path;
use std::sync::atomic::Ordering;
use txverify_core::kernel::{Instance, Table};
use txverify_search::conquer::{self, CubeEnd, CubeProgress, Merged};
use txverify_search::{self as search, EncodingOptions, Outcome, SearchError, SearchOptions};

/// What a cube run or a decoded model gave.
#[derive(Clone, Debug)]
pub struct Run {
    /// Lines for standard error, in order.
    pub log: Vec<String>,
    /// The table found, to write after the kernel's check.
    pub found: Option<Table>,
    /// How it ended (0 also when a table was found).
    pub status: Status,
}

impl Run {
    fn said(line: String, status: Status) -> Run {
        Run {
            log: vec![line],
            found: None,
            status,
        }
    }
}

impl Status {
    /// The status of a failed search: an output file that cannot be written is
    /// an input/output error (2); everything else the search library reports
    /// is a bug of the search (3).
    pub fn of_search_error(error: &SearchError) -> Status {
        if error.is_io() {
            Status::Input
        } else {
            Status::Internal
        }
    }
}

fn failed(e: &SearchError) -> Failure {
    Failure::new(Status::of_search_error(e), e.to_string())
}

/// `--cubes K --time T`: with `output_dir` (`-o`), the cubes written there
/// for jobs elsewhere; with `--dimacs`, one iCNF file; else solved here, a
/// cube past `budget` seconds split again (`--cube-budget`), `on_cube` told
/// of each cube as it ends.
pub fn cubes(
    instance: &Instance,
    (time, count, budget): (usize, usize, Option<f64>),
    options: &SearchOptions,
    output_dir: Option<&Path>,
    on_cube: &(dyn Fn(&CubeProgress) + Sync),
) -> Result<Run, Failure> {
    let encoding = &options.encoding;
    if let Some(dir) = output_dir {
        let n =
            conquer::write_cubes(instance, time, encoding, count, dir).map_err(|e| failed(&e))?;
        let line = format!("{n} cubes for T={time} written to {}", dir.display());
        return Ok(Run::said(line, Status::Ok));
    }
    if let Some(path) = &options.dimacs_only {
        let n = conquer::write_icnf_file(instance, time, encoding, count, path)
            .map_err(|e| failed(&e))?;
        let line = format!(
            "{n} cubes for T={time} written to {} (iCNF)",
            path.display()
        );
        return Ok(Run::said(line, Status::Ok));
    }
    let options = at_time(options, time);
    let solved = conquer::solve_cubes(instance, time, &options, (count, budget), on_cube)
        .map_err(|e| failed(&e))?;
    Ok(match solved {
        (Outcome::Found(table, _), tally) => Run {
            log: vec![format!(
                "found in one of {} cubes ({} refuted before it)",
                tally.cubes, tally.refuted
            )],
            found: Some(table),
            status: Status::Ok,
        },
        (Outcome::Infeasible(i), tally) => Run::said(
            format!(
                "infeasible {} (all {} cubes refuted{})",
                describe(&i),
                tally.refuted,
                split_note(&tally)
            ),
            Status::Rejected,
        ),
        (Outcome::Unknown, tally) => {
            let signalled = (options.stop.as_ref()).is_some_and(|s| s.load(Ordering::Relaxed));
            Run::said(open_cubes(time, &tally, signalled), Status::Limit)
        }
    })
}

/// The progress line of one cube's end, e.g. `T=107 cube 12 refuted after
/// 3.2 s: 11 of 72 cubes refuted, 59 open`.
pub fn cube_line(time: usize, p: &CubeProgress) -> String {
    let end = match p.end {
        CubeEnd::Refuted => "refuted",
        CubeEnd::Split => "split again",
        CubeEnd::Satisfiable => "satisfiable",
        CubeEnd::Open => "stopped",
    };
    format!(
        "T={time} cube {} {end} after {:.1} s: {} of {} cubes refuted, {} open",
        p.cube, p.seconds, p.refuted, p.made, p.open
    )
}

/// The line of a cube run stopped by its limit (or by a signal): how far it
/// got, and which cubes are left (`--cubes K -o DIR` writes them for jobs that
/// run longer).
fn open_cubes(time: usize, tally: &conquer::CubeTally, signalled: bool) -> String {
    let why = match signalled {
        true => "a signal stopped the run",
        false => "the limit ran out",
    };
    let shown: Vec<String> = tally.open.iter().take(20).map(usize::to_string).collect();
    let more = match tally.open.len().saturating_sub(shown.len()) {
        0 => String::new(),
        k => format!(" and {k} more"),
    };
    format!(
        "unknown T={time}: {why} with {} of {} cubes refuted and {} open (cubes {}{more}){}",
        tally.refuted,
        tally.cubes,
        tally.open.len(),
        shown.join(", "),
        split_note(tally)
    )
}

/// How many cubes a budget split again, when it did.
fn split_note(tally: &conquer::CubeTally) -> String {
    match tally.splits {
        0 => String::new(),
        n => format!("; {n} split again past the budget, {} made", tally.cubes),
    }
}

/// `--merge DIR --time T`: what the cube jobs' answers in `dir` add up to.
pub fn merge(
    instance: &Instance,
    time: usize,
    encoding: &EncodingOptions,
    dir: &Path,
) -> Result<Run, Failure> {
    let merged = conquer::merge(instance, time, encoding, dir).map_err(|e| {
        let status = if e.is_input() {
            Status::Input
        } else {
            Status::Internal
        };
        Failure::new(status, e.to_string())
    })?;
    Ok(match merged {
        Merged::Found(table, cube) => Run {
            log: vec![format!("found by cube {}", cube + 1)],
            found: Some(table),
            status: Status::Ok,
        },
        Merged::Infeasible(i) => Run::said(
            format!(
                "infeasible {} (every cube refuted with a checked proof; the cubes cover)",
                describe(&i)
            ),
            Status::Rejected,
        ),
        Merged::Open {
            missing,
            unproved,
            proved,
        } => {
            let list = |cubes: &[usize]| {
                cubes
                    .iter()
                    .map(|c| (c + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut log = vec![format!(
                "open T={time}: {proved} cubes refuted with a checked proof"
            )];
            if !missing.is_empty() {
                log.push(format!("  no answer from cubes {}", list(&missing)));
            }
            if !unproved.is_empty() {
                log.push(format!(
                    "  unsatisfiable without a proof (the solver's word, not counted): cubes {}",
                    list(&unproved)
                ));
            }
            Run {
                log,
                found: None,
                status: Status::Limit,
            }
        }
    })
}

/// `--model FILE --time T`: the table a model found elsewhere describes.
pub fn decode_model(
    instance: &Instance,
    time: usize,
    encoding: &EncodingOptions,
    path: &Path,
) -> Result<Table, Failure> {
    let text = read_text(path)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
    search::decode_model(instance, time, encoding, &text).map_err(|e| match e {
        SearchError::Solver(_) => Failure::input(format!("{}: {e}", path.display())),
        e => failed(&e),
    })
}
