//! A collective search's request: the options as a front end read them
//! ([`CollectiveSearchArgs`]) and the one place where their rules apply
//! (`CollectiveSearchRequest::try_from`), for the command line and the Python
//! binding alike.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use txverify_core::network::NetworkName;
use txverify_core::schedule::{Collective, Ports, ValueError, parse_collective};
use txverify_search::SolverChoice;
use txverify_search::seconds::{Seconds, SecondsError};

/// An option of a search, as a front end names it in messages: the command
/// line's `--time-limit`, Python's `time_limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOption {
    /// The collective (`--collective`, `collective=`).
    Collective,
    /// Chunks per block.
    Chunks,
    /// The root of a broadcast or reduce, given apart from the collective.
    Root,
    /// Ports per node.
    Ports,
    /// One number of steps only.
    Time,
    /// The largest number of steps tried.
    MaxTime,
    /// Seconds per solver call.
    TimeLimit,
    /// Seconds for the whole run.
    Deadline,
    /// Where certificates go.
    Certificate,
    /// The construction alone.
    Heuristic,
    /// A total exchange's downward search.
    Descending,
    /// A total exchange's paths of any length.
    AnyLength,
    /// A total exchange's longer paths.
    Slack,
    /// A table search's symmetry restriction.
    Symmetry,
    /// A table search's symmetry breaking.
    BreakSymmetry,
    /// Cube-and-conquer.
    Cubes,
    /// The formula written out.
    Dimacs,
    /// A model decoded instead of solving.
    Model,
    /// Cube answers merged.
    Merge,
    /// An external solver's command.
    SolverCmd,
    /// The HTML page.
    FormatHtml,
}

impl SearchOption {
    /// The command line's name of the option (`--time-limit`).
    pub fn flag(self) -> &'static str {
        use SearchOption as O;
        match self {
            O::Collective => "--collective",
            O::Chunks => "--chunks",
            O::Root => "the root",
            O::Ports => "--ports",
            O::Time => "--time",
            O::MaxTime => "--max-time",
            O::TimeLimit => "--time-limit",
            O::Deadline => "--deadline",
            O::Certificate => "--certificate",
            O::Heuristic => "--heuristic",
            O::Descending => "--descending",
            O::AnyLength => "--any-length",
            O::Slack => "--slack",
            O::Symmetry => "--symmetry",
            O::BreakSymmetry => "--break-symmetry",
            O::Cubes => "--cubes",
            O::Dimacs => "--dimacs",
            O::Model => "--model",
            O::Merge => "--merge",
            O::SolverCmd => "--solver-cmd",
            O::FormatHtml => "--format html",
        }
    }
}

/// How a front end spells each option in its messages.
pub type OptionNames = fn(SearchOption) -> &'static str;

/// A collective search as a front end read it, no rule applied yet: the
/// command line and the Python binding fill this and turn it into a
/// [`CollectiveSearchRequest`] by `try_from`, where every rule on which
/// options combine, their ranges and defaults lives.
#[derive(Clone, Debug)]
pub struct CollectiveSearchArgs {
    /// The network.
    pub network: NetworkName,
    /// The collective's words (`broadcast 0`, `allgather`), if given.
    pub collective: Option<String>,
    /// Chunks per block, as given (default 1).
    pub chunks: Option<String>,
    /// The root, given apart from the collective's words.
    pub root: Option<u32>,
    /// Ports per node, `all` (the default) or K, as given.
    pub ports: Option<String>,
    /// The solver.
    pub solver: SolverChoice,
    /// One number of steps only.
    pub time: Option<usize>,
    /// The largest number of steps tried (default: the bound + 16).
    pub max_time: Option<usize>,
    /// The largest formula, in variables (default: the search's limit).
    pub max_variables: Option<u64>,
    /// Seconds per solver call.
    pub time_limit: Option<f64>,
    /// Seconds for the whole run (anytime: the construction, then SAT).
    pub deadline: Option<f64>,
    /// Where the schedule found is written.
    pub output: Option<PathBuf>,
    /// Where the certificates of refuted times go.
    pub certificate: Option<PathBuf>,
    /// The construction alone, no SAT.
    pub heuristic: bool,
    /// The options of other searches the caller was given: each is refused.
    pub others: Vec<SearchOption>,
    /// Set by a signal (or the caller): stop and report the best found.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// How the caller names the options in messages.
    pub names: OptionNames,
}

/// Why a collective search's options are refused; each names the option as
/// the caller spells it.
#[derive(Debug, thiserror::Error)]
pub enum CollectiveRequestError {
    /// An option of another search.
    #[error("{option} is not available with {collective} yet")]
    Unavailable {
        /// The option refused.
        option: &'static str,
        /// The collective option's name.
        collective: &'static str,
    },
    /// An option of the collective search given without a collective.
    #[error("{option} needs {collective}")]
    NoCollective {
        /// The option given.
        option: &'static str,
        /// The collective option's name.
        collective: &'static str,
    },
    /// An option of the SAT search given with the construction alone.
    #[error("{option} is for the SAT search, not with {heuristic}")]
    SatOnly {
        /// The option refused.
        option: &'static str,
        /// The heuristic option's name.
        heuristic: &'static str,
    },
    /// A collective, its root or its chunks that cannot be read.
    #[error("{option} `{words}`: {error}")]
    Collective {
        /// The collective option's name.
        option: &'static str,
        /// The collective's words, with the root given apart.
        words: String,
        /// Why.
        error: ValueError,
    },
    /// Ports that cannot be read.
    #[error("{option}: {error}")]
    Ports {
        /// The ports option's name.
        option: &'static str,
        /// Why.
        error: ValueError,
    },
    /// A number of seconds that is not positive, or too large for a duration.
    #[error("{option}: {error}")]
    Seconds {
        /// The option's name.
        option: &'static str,
        /// Why the value is refused.
        error: SecondsError,
    },
}

/// What was asked, its options checked: made only by `try_from` a
/// [`CollectiveSearchArgs`].
#[derive(Clone, Debug)]
pub struct CollectiveSearchRequest {
    pub(super) network: NetworkName,
    pub(super) collective: Collective,
    pub(super) ports: Ports,
    pub(super) solver: SolverChoice,
    pub(super) time: Option<usize>,
    pub(super) max_time: Option<usize>,
    pub(super) max_variables: u64,
    pub(super) time_limit: Option<Duration>,
    pub(super) output: Option<PathBuf>,
    pub(super) certificate: Option<PathBuf>,
    pub(super) heuristic: bool,
    pub(super) deadline: Option<Duration>,
    pub(super) interrupt: Option<Arc<AtomicBool>>,
}

impl TryFrom<CollectiveSearchArgs> for CollectiveSearchRequest {
    type Error = CollectiveRequestError;

    fn try_from(args: CollectiveSearchArgs) -> Result<Self, Self::Error> {
        use CollectiveRequestError as E;
        use SearchOption as O;
        let name = args.names;
        if let Some(&option) = args.others.first() {
            return Err(E::Unavailable {
                option: name(option),
                collective: name(O::Collective),
            });
        }
        let Some(words) = args.collective else {
            let given = [
                (args.chunks.is_some(), O::Chunks),
                (args.root.is_some(), O::Root),
                (args.ports.is_some(), O::Ports),
            ];
            let option = given
                .iter()
                .find(|(g, _)| *g)
                .map_or(O::Collective, |g| g.1);
            return Err(E::NoCollective {
                option: name(option),
                collective: name(O::Collective),
            });
        };
        if args.heuristic {
            let sat_only = [
                (args.time.is_some(), O::Time),
                (args.max_time.is_some(), O::MaxTime),
                (args.certificate.is_some(), O::Certificate),
                (args.time_limit.is_some(), O::TimeLimit),
                (args.deadline.is_some(), O::Deadline),
            ];
            if let Some((_, option)) = sat_only.iter().find(|(given, _)| *given) {
                return Err(E::SatOnly {
                    option: name(*option),
                    heuristic: name(O::Heuristic),
                });
            }
        }
        let words = match args.root {
            Some(root) => format!("{} {root}", words.trim()),
            None => words,
        };
        let collective =
            parse_collective(&words, args.chunks.as_deref()).map_err(|error| E::Collective {
                option: name(O::Collective),
                words: words.clone(),
                error,
            })?;
        let ports = match &args.ports {
            Some(text) => text.parse::<Ports>().map_err(|error| E::Ports {
                option: name(O::Ports),
                error,
            })?,
            None => Ports::All,
        };
        // The one reader of durations (docs/limits.md): above its maximum,
        // no limit.
        let seconds = |option: SearchOption, given: Option<f64>| match given {
            Some(value) => Seconds::new(value)
                .map(|s| Some(s.duration()))
                .map_err(|error| E::Seconds {
                    option: name(option),
                    error,
                }),
            None => Ok(None),
        };
        Ok(CollectiveSearchRequest {
            network: args.network,
            collective,
            ports,
            solver: args.solver,
            time: args.time,
            max_time: args.max_time,
            max_variables: args
                .max_variables
                .unwrap_or(txverify_search::schedule::encode::MAX_VARIABLES),
            time_limit: seconds(O::TimeLimit, args.time_limit)?,
            output: args.output,
            certificate: args.certificate,
            heuristic: args.heuristic,
            deadline: seconds(O::Deadline, args.deadline)?,
            interrupt: args.interrupt,
        })
    }
}

impl CollectiveSearchRequest {
    /// The collective asked for.
    pub fn collective(&self) -> Collective {
        self.collective
    }

    /// The construction is made first: `--heuristic` or `--deadline`,
    /// unless `--time T` asks for SAT at T alone.
    pub(super) fn constructs(&self) -> bool {
        (self.heuristic || self.deadline.is_some()) && self.time.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names as a caller other than the command line spells them.
    fn snake(option: SearchOption) -> &'static str {
        match option {
            SearchOption::Collective => "collective",
            SearchOption::Chunks => "chunks",
            SearchOption::Root => "root",
            SearchOption::Ports => "ports",
            SearchOption::Heuristic => "heuristic",
            SearchOption::TimeLimit => "time_limit",
            SearchOption::Deadline => "deadline",
            SearchOption::Slack => "slack",
            _ => "other",
        }
    }

    fn args(collective: Option<&str>) -> CollectiveSearchArgs {
        CollectiveSearchArgs {
            network: "ring 4".parse().unwrap(),
            collective: collective.map(str::to_string),
            chunks: None,
            root: None,
            ports: None,
            solver: SolverChoice::Varisat,
            time: None,
            max_time: None,
            max_variables: None,
            time_limit: None,
            deadline: None,
            output: None,
            certificate: None,
            heuristic: false,
            others: vec![],
            interrupt: None,
            names: snake,
        }
    }

    fn refusal(raw: CollectiveSearchArgs) -> String {
        CollectiveSearchRequest::try_from(raw)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn every_refusal_names_the_option_as_the_caller_spells_it() {
        let mut a = args(Some("allgather"));
        a.others = vec![SearchOption::Slack];
        assert_eq!(refusal(a), "slack is not available with collective yet");
        let mut a = args(None);
        a.chunks = Some("2".into());
        assert_eq!(refusal(a), "chunks needs collective");
        let mut a = args(Some("allgather"));
        a.heuristic = true;
        a.deadline = Some(3.0);
        assert_eq!(
            refusal(a),
            "deadline is for the SAT search, not with heuristic"
        );
        let mut a = args(Some("allgather"));
        a.root = Some(1);
        assert!(refusal(a).starts_with("collective `allgather 1`: "));
        let mut a = args(Some("allgather"));
        a.ports = Some("0".into());
        assert!(refusal(a).starts_with("ports: "));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let mut a = args(Some("allgather"));
            a.time_limit = Some(bad);
            assert!(refusal(a).starts_with("time_limit: "), "{bad}");
        }
        // Above the longest duration: no limit, not a refusal.
        let mut a = args(Some("allgather"));
        a.time_limit = Some(1e30);
        let request = CollectiveSearchRequest::try_from(a).unwrap();
        assert_eq!(request.time_limit, Some(Seconds::MAX.duration()));
    }

    #[test]
    fn the_root_given_apart_joins_the_collective_and_defaults_apply() {
        let mut a = args(Some("broadcast"));
        a.root = Some(2);
        a.chunks = Some("3".into());
        let request = CollectiveSearchRequest::try_from(a).unwrap();
        assert_eq!(request.collective().root(), Some(2));
        assert_eq!(request.collective().chunks(), 3);
        assert_eq!(request.ports, Ports::All);
        assert_eq!(
            request.max_variables,
            txverify_search::schedule::encode::MAX_VARIABLES
        );
    }
}
