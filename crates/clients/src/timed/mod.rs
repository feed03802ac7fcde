//! The timed (α, β) replay: when would a schedule or an MSCCL program finish
//! if every message of `s` chunks took `α + s·β` on each link it crosses
//! (docs/collectives.md, "Timed replay (α, β)"; docs/schedule.md).
//!
//! A prediction, not a verdict: it runs only on what the core (schedules) or
//! the symbolic executor (MSCCL) judged valid, reads nothing back into either,
//! and prints its figures beside a lower bound of the core
//! ([`txverify_core::bounds::timed`]). The model is a store-and-forward event
//! simulation (`engine.rs`): a message is sent once its data is at the sender
//! (for MSCCL: once its thread block's previous step and its dependencies are
//! done), a link carries one message at a time, first come first served, and
//! messages queue on a busy link. Steps become times; a schedule's step
//! numbers only order the sends.
//!
//! Times are `f64` in the unit of α and β (µs, cycles, …), finite and ≥ 0;
//! α and β are at most [`MAX_TIME`], so that no sum of them overflows.

mod engine;
pub mod msccl;
pub mod schedule;
pub mod table;

use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use txverify_core::bounds::timed::TimedBound;
use txverify_core::network::Graph;

pub use table::{TableError, TableErrorKind, parse_time};

/// The most sends (schedules) or transmissions (MSCCL) a timed replay plays:
/// about 400 bytes each (measured: 1.18·10^6 sends of a 9-cube exchange take
/// 490 MB more than the replay alone).
pub const MAX_TIMED_SENDS: usize = 1 << 21;

/// The largest α or β (`--alpha`, `--beta`, a link table's fields): 10^15 of
/// any unit. With at most [`MAX_TIMED_SENDS`] sends of at most 2^64 chunks,
/// a completion time stays below 10^41, far inside an `f64`: no time of the
/// replay or of its bound can overflow to `inf`.
pub const MAX_TIME: f64 = 1e15;

/// What the command line asks of a timed replay (`--alpha`, `--beta`,
/// `--link-table`). With none of the three there is no timed replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimingRequest<'a> {
    /// α of every link not in the table (0 when not given).
    pub alpha: Option<f64>,
    /// β of every link not in the table (0 when not given).
    pub beta: Option<f64>,
    /// The link table.
    pub link_table: Option<&'a Path>,
}

impl TimingRequest<'_> {
    /// Whether a timed replay is asked for.
    pub fn asked(&self) -> bool {
        self.alpha.is_some() || self.beta.is_some() || self.link_table.is_some()
    }
}

/// Why the times cannot be set up (exit 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TimingError {
    /// `--alpha` or `--beta` is negative, not finite, or above [`MAX_TIME`].
    #[error("--{flag} {value}: a time must be a number from 0 to 1e15")]
    Flag {
        /// `alpha` or `beta`.
        flag: &'static str,
        /// As given.
        value: String,
    },
    /// The link table cannot be read.
    #[error("cannot read the link table {path}: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The link table is malformed.
    #[error("{path}:{}:{}: {}", .error.line, .error.column, .error.kind)]
    Table {
        /// The file.
        path: String,
        /// Where and what.
        error: TableError,
    },
}

impl TimingError {
    /// The line and column of a table fault.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            TimingError::Table { error, .. } => Some((error.line, error.column)),
            _ => None,
        }
    }
}

/// A number as an error names it: short even when it is huge (`1e308`).
fn shown(x: f64) -> String {
    if x.is_finite() && x != 0.0 && !(1e-6..1e16).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// The `(α, β)` of every directed link of one network.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkTimes {
    /// `(α, β)` by directed link.
    pub times: Vec<(f64, f64)>,
    /// `(from, to)` by directed link.
    pub ends: Vec<(u32, u32)>,
    /// α of the links the table does not list.
    pub alpha: f64,
    /// β of the links the table does not list.
    pub beta: f64,
    /// The table, as named.
    pub table: Option<String>,
}

impl LinkTimes {
    /// Every link of `graph` at `(alpha, beta)` (a fabric's link times are
    /// applied by [`LinkTimes::of`]).
    pub fn uniform(graph: &Graph, alpha: f64, beta: f64) -> LinkTimes {
        let l = graph.directed_links() as u32;
        LinkTimes {
            times: vec![(alpha, beta); l as usize],
            ends: (0..l).map(|x| graph.endpoints(x)).collect(),
            alpha,
            beta,
            table: None,
        }
    }

    /// The times `request` asks for on `graph`.
    pub fn of(request: &TimingRequest<'_>, graph: &Graph) -> Result<LinkTimes, TimingError> {
        let flag = |flag: &'static str, v: Option<f64>| match v {
            Some(x) if !(0.0..=MAX_TIME).contains(&x) => Err(TimingError::Flag {
                flag,
                value: shown(x),
            }),
            v => Ok(v.unwrap_or(0.0)),
        };
        let (alpha, beta) = (flag("alpha", request.alpha)?, flag("beta", request.beta)?);
        let mut times = LinkTimes::uniform(graph, alpha, beta);
        // A fabric's own link times, then the table's over them.
        for (l, slot) in times.times.iter_mut().enumerate() {
            if let Some(t) = graph.link_timing(l as u32) {
                *slot = (t.alpha.unwrap_or(slot.0), t.beta.unwrap_or(slot.1));
            }
        }
        if let Some(path) = request.link_table {
            let shown = path.display().to_string();
            // Short lines only: a line is refused as it is read, before it is held.
            let text = txverify_core::load::read::read_text(
                path,
                txverify_core::load::read::ReadLimits::RECORDS,
            )
            .map_err(|e| TimingError::Unreadable {
                path: shown.clone(),
                reason: e.to_string(),
            })?;
            let n = graph.nodes() as u32;
            let link = |u: u32, v: u32| (u < n && v < n).then(|| graph.link(u, v)).flatten();
            let listed = table::read(&text, link).map_err(|error| TimingError::Table {
                path: shown.clone(),
                error,
            })?;
            for (l, a, b) in listed {
                times.times[l as usize] = (a, b);
            }
            times.table = Some(shown);
        }
        Ok(times)
    }
}

/// What one directed link did in a timed replay.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinkBusy {
    /// Its tail.
    pub from: u32,
    /// Its head.
    pub to: u32,
    /// Time spent carrying messages.
    pub busy: f64,
    /// Messages carried.
    pub messages: u64,
    /// Chunks carried.
    pub chunks: u64,
}

/// The chain of hops that decided the completion time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CriticalPath {
    /// Its length in time (the completion time, when something was sent).
    pub length: f64,
    /// Link transmissions on it.
    pub transmissions: u64,
    /// Those of them that waited for a busy link or port rather than for
    /// their data.
    pub waited: u64,
}

/// The `timed` section of a report (docs/json.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimedReport {
    /// α of the links the table does not list.
    pub alpha: f64,
    /// β of the links the table does not list.
    pub beta: f64,
    /// The link table, as named.
    pub link_table: Option<String>,
    /// The predicted completion time (`null` when not timed).
    pub completion: Option<f64>,
    /// The α-β lower bound every schedule or program of the collective meets.
    pub bound: Option<f64>,
    /// How the bound is made.
    pub bound_argument: Option<String>,
    /// completion / bound.
    pub ratio: Option<f64>,
    /// The critical path.
    pub critical_path: Option<CriticalPath>,
    /// The link with the most busy time (first in link order on a tie).
    pub busiest_link: Option<LinkBusy>,
    /// Every link that carried something, in link order.
    pub links: Vec<LinkBusy>,
    /// Link transmissions (a message crossing one link).
    pub transmissions: u64,
    /// Why nothing was timed, or what to know about the figures.
    pub note: Option<String>,
}

impl TimedReport {
    /// A section with no figures, saying why.
    pub fn not_timed(times: &LinkTimes, why: impl Into<String>) -> TimedReport {
        TimedReport {
            alpha: times.alpha,
            beta: times.beta,
            link_table: times.table.clone(),
            completion: None,
            bound: None,
            bound_argument: None,
            ratio: None,
            critical_path: None,
            busiest_link: None,
            links: Vec::new(),
            transmissions: 0,
            note: Some(why.into()),
        }
    }

    /// The figures of a finished run of `engine`, beside `bound`.
    fn of_run(
        times: &LinkTimes,
        engine: &engine::Engine<'_>,
        completion: f64,
        bound: Option<TimedBound>,
    ) -> TimedReport {
        let links: Vec<LinkBusy> = (0..times.times.len())
            .filter(|&l| engine.messages[l] > 0)
            .map(|l| LinkBusy {
                from: times.ends[l].0,
                to: times.ends[l].1,
                busy: engine.busy_time[l],
                messages: engine.messages[l],
                chunks: engine.chunks[l],
            })
            .collect();
        let busiest_link = links
            .iter()
            .fold(None::<&LinkBusy>, |best, x| match best {
                Some(b) if b.busy >= x.busy => Some(b),
                _ => Some(x),
            })
            .cloned();
        let critical_path = engine.last_arrival.map(|(at, last)| {
            let path = engine.path_to(last);
            CriticalPath {
                length: at,
                transmissions: path.len() as u64,
                waited: path
                    .iter()
                    .filter(|&&h| engine.hops()[h as usize].waited)
                    .count() as u64,
            }
        });
        let ratio = bound
            .as_ref()
            .and_then(|b| (b.value > 0.0).then(|| completion / b.value));
        TimedReport {
            alpha: times.alpha,
            beta: times.beta,
            link_table: times.table.clone(),
            completion: Some(completion),
            bound: bound.as_ref().map(|b| b.value),
            bound_argument: bound.map(|b| b.argument),
            ratio,
            critical_path,
            busiest_link,
            transmissions: engine.hops().len() as u64,
            links,
            note: None,
        }
    }

    /// The text lines, each after `indent` (the first after `label`).
    pub fn text(&self, label: &str, indent: &str) -> String {
        let mut out = String::new();
        let table = self
            .link_table
            .as_ref()
            .map_or(String::new(), |t| format!(", links of {t} as listed"));
        let _ = write!(
            out,
            "{label}α {}, β {}{table}",
            time(self.alpha),
            time(self.beta)
        );
        let Some(completion) = self.completion else {
            let _ = writeln!(out, ": {}", self.note.as_deref().unwrap_or("not timed"));
            return out;
        };
        let _ = write!(out, ": completion {}", time(completion));
        if let (Some(b), Some(why)) = (self.bound, &self.bound_argument) {
            let _ = write!(out, "; lower bound {} ({why})", time(b));
            if let Some(r) = self.ratio {
                let _ = write!(out, "; ×{r:.2} the bound");
            }
        }
        let _ = writeln!(out);
        if let Some(c) = &self.critical_path {
            let _ = writeln!(
                out,
                "{indent}critical path {} transmission{}, {} of them waited for a busy link or port",
                c.transmissions,
                if c.transmissions == 1 { "" } else { "s" },
                c.waited
            );
        }
        if let Some(b) = &self.busiest_link {
            let _ = writeln!(
                out,
                "{indent}busiest link {}→{} busy {} ({} messages, {} chunks); {} links used, {} transmissions",
                b.from,
                b.to,
                time(b.busy),
                b.messages,
                b.chunks,
                self.links.len(),
                self.transmissions
            );
        }
        if let Some(note) = &self.note {
            let _ = writeln!(out, "{indent}note: {note}");
        }
        out
    }
}

/// A time as text: at most six decimals, without trailing zeros.
pub fn time(t: f64) -> String {
    let s = format!("{t:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}
