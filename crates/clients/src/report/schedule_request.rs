//! A schedule search's request, for every collective (the total exchange is
//! one): the options as a front end read them ([`ScheduleSearchArgs`]) and the
//! one place where their rules apply (`ScheduleSearchRequest::try_from`), for
//! the command line and the Python binding alike. Neither front end spells a
//! rule: each translates its arguments and names its options
//! ([`OptionNames`]) for the messages.

use super::collective_search::CollectiveSearchRequest;
use super::network_search::NetworkSearchRequest;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use txverify_core::network::NetworkName;
use txverify_core::schedule::{Ports, ValueError, parse_collective};
use txverify_search::SolverChoice;
use txverify_search::schedule::PathClass;
use txverify_search::seconds::{Seconds, SecondsError};

/// An option of a search, as a front end names it in messages: the command
/// line's `--time-limit`, Python's `time_limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOption {
    /// The network searched on (`--network`).
    Network,
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
    /// The downward search.
    Descending,
    /// The upward search.
    Ascending,
    /// A total exchange's paths of any length.
    AnyLength,
    /// A total exchange's longer paths.
    Slack,
    /// A total exchange's search without the LP bound.
    NoLp,
    /// A table search's symmetry restriction.
    Symmetry,
    /// A table search's symmetry breaking.
    BreakSymmetry,
    /// A table search's free tail.
    FreeTail,
    /// A table search's split links.
    SplitAlong,
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
            O::Network => "--network",
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
            O::Ascending => "--ascending",
            O::AnyLength => "--any-length",
            O::Slack => "--slack",
            O::NoLp => "--no-lp",
            O::Symmetry => "--symmetry",
            O::BreakSymmetry => "--break-symmetry",
            O::FreeTail => "--free-tail",
            O::SplitAlong => "--split-along",
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

/// A schedule search as a front end read it, no rule applied yet: the command
/// line and the Python binding fill this and turn it into a
/// [`ScheduleSearchRequest`] by `try_from`, where every rule on which options
/// combine, their ranges and defaults lives. No collective: a total exchange.
#[derive(Clone, Debug)]
pub struct ScheduleSearchArgs {
    /// The network.
    pub network: NetworkName,
    /// The network as the caller spelled it (reports and messages echo it).
    pub words: String,
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
    /// The largest number of steps tried.
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
    /// Downward from the construction, one step fewer each time.
    pub descending: bool,
    /// Upward from the bound.
    pub ascending: bool,
    /// A total exchange's messages on paths of any length.
    pub any_length: bool,
    /// A total exchange's messages on paths this much longer than shortest.
    pub slack: u64,
    /// A total exchange's search without the LP bound (not stated, judged
    /// against or followed).
    pub no_lp: bool,
    /// The options of table searches the caller was given: each is refused.
    pub others: Vec<SearchOption>,
    /// Set by a signal (or the caller): stop and report the best found.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// The caller reads the schedule from the report, held whole (never
    /// streamed to `output`).
    pub keep_schedule: bool,
    /// How the caller names the options in messages.
    pub names: OptionNames,
}

/// Why a schedule search's options are refused; each names the option as the
/// caller spells it.
#[derive(Debug, thiserror::Error)]
pub enum ScheduleRequestError {
    /// An option of the table search, with a total exchange.
    #[error("{option} is for table searches, not with {network}")]
    TableOnly {
        /// The option refused.
        option: &'static str,
        /// The network option's name.
        network: &'static str,
    },
    /// An option of another search, with a collective.
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
    /// Two options of which one may be given.
    #[error("{first} and {second}: give one")]
    OneOf {
        /// The first option's name.
        first: &'static str,
        /// The second option's name.
        second: &'static str,
    },
    /// A number too large for the search.
    #[error("{option} is too large")]
    TooLarge {
        /// The option's name.
        option: &'static str,
    },
    /// A solver the total-exchange search does not drive.
    #[error("{network} searches with varisat or CaDiCaL")]
    Solver {
        /// The network option's name.
        network: &'static str,
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
/// [`ScheduleSearchArgs`]. The collective decides the search.
#[derive(Clone, Debug)]
pub enum ScheduleSearchRequest {
    /// Every node's message to every other node.
    TotalExchange(Box<NetworkSearchRequest>),
    /// A collective that copies or combines.
    Collective(Box<CollectiveSearchRequest>),
}

impl TryFrom<ScheduleSearchArgs> for ScheduleSearchRequest {
    type Error = ScheduleRequestError;

    fn try_from(args: ScheduleSearchArgs) -> Result<Self, Self::Error> {
        use ScheduleRequestError as E;
        use SearchOption as O;
        let name = args.names;
        // Options of other searches first, then what the construction alone
        // does not take, then each option's own range.
        if args.collective.is_none() {
            let given = [
                (args.chunks.is_some(), O::Chunks),
                (args.root.is_some(), O::Root),
                (args.ports.is_some(), O::Ports),
            ];
            if let Some((_, option)) = given.iter().find(|(g, _)| *g) {
                return Err(E::NoCollective {
                    option: name(*option),
                    collective: name(O::Collective),
                });
            }
            if let Some(&option) = args.others.first() {
                return Err(E::TableOnly {
                    option: name(option),
                    network: name(O::Network),
                });
            }
        } else {
            let paths = [
                (args.any_length, O::AnyLength),
                (args.slack > 0, O::Slack),
                (args.no_lp, O::NoLp),
            ];
            let other = args.others.first().copied();
            if let Some(option) = other.or_else(|| paths.iter().find(|(g, _)| *g).map(|o| o.1)) {
                return Err(E::Unavailable {
                    option: name(option),
                    collective: name(O::Collective),
                });
            }
        }
        if args.heuristic {
            let sat_only = [
                (args.time.is_some(), O::Time),
                (args.max_time.is_some(), O::MaxTime),
                (args.certificate.is_some(), O::Certificate),
                (args.any_length, O::AnyLength),
                (args.slack > 0, O::Slack),
                (args.time_limit.is_some(), O::TimeLimit),
                (args.deadline.is_some(), O::Deadline),
                (args.descending, O::Descending),
                (args.ascending, O::Ascending),
            ];
            if let Some((_, option)) = sat_only.iter().find(|(given, _)| *given) {
                return Err(E::SatOnly {
                    option: name(*option),
                    heuristic: name(O::Heuristic),
                });
            }
        }
        if args.descending && args.ascending {
            return Err(E::OneOf {
                first: name(O::Descending),
                second: name(O::Ascending),
            });
        }
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
        let max_variables = args
            .max_variables
            .unwrap_or(txverify_search::schedule::encode::MAX_VARIABLES);
        let Some(words) = args.collective else {
            if args.any_length && args.slack > 0 {
                return Err(E::OneOf {
                    first: name(O::AnyLength),
                    second: name(O::Slack),
                });
            }
            let paths = match (args.any_length, args.slack) {
                (true, _) => PathClass::Any,
                (false, 0) => PathClass::Shortest,
                (false, k) => PathClass::Slack(u32::try_from(k).map_err(|_| E::TooLarge {
                    option: name(O::Slack),
                })?),
            };
            if matches!(args.solver, SolverChoice::External | SolverChoice::Z3) {
                return Err(E::Solver {
                    network: name(O::Network),
                });
            }
            return Ok(ScheduleSearchRequest::TotalExchange(Box::new(
                NetworkSearchRequest {
                    network: args.network,
                    words: args.words,
                    heuristic: args.heuristic,
                    paths,
                    solver: args.solver,
                    time: args.time,
                    max_time: args.max_time,
                    max_variables,
                    time_limit: seconds(O::TimeLimit, args.time_limit)?,
                    deadline: seconds(O::Deadline, args.deadline)?,
                    interrupt: args.interrupt,
                    certificate: args.certificate,
                    descending: !args.ascending,
                    output: args.output,
                    lp: !args.no_lp,
                    keep_schedule: args.keep_schedule,
                },
            )));
        };
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
        Ok(ScheduleSearchRequest::Collective(Box::new(
            CollectiveSearchRequest {
                network: args.network,
                collective,
                ports,
                solver: args.solver,
                time: args.time,
                max_time: args.max_time,
                max_variables,
                time_limit: seconds(O::TimeLimit, args.time_limit)?,
                output: args.output,
                certificate: args.certificate,
                heuristic: args.heuristic,
                // The anytime search goes down from the construction, as the
                // total exchange's does, unless asked upward.
                descending: args.descending || (args.deadline.is_some() && !args.ascending),
                deadline: seconds(O::Deadline, args.deadline)?,
                interrupt: args.interrupt,
            },
        )))
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
            SearchOption::AnyLength => "any_length",
            SearchOption::Network => "network",
            SearchOption::Symmetry => "symmetry",
            SearchOption::Descending => "descending",
            SearchOption::Ascending => "ascending",
            _ => "other",
        }
    }

    fn args(collective: Option<&str>) -> ScheduleSearchArgs {
        ScheduleSearchArgs {
            network: "ring 4".parse().unwrap(),
            words: "ring 4".to_string(),
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
            descending: false,
            ascending: false,
            any_length: false,
            slack: 0,
            no_lp: false,
            others: vec![],
            interrupt: None,
            keep_schedule: false,
            names: snake,
        }
    }

    fn refusal(raw: ScheduleSearchArgs) -> String {
        ScheduleSearchRequest::try_from(raw)
            .unwrap_err()
            .to_string()
    }

    fn collective(raw: ScheduleSearchArgs) -> CollectiveSearchRequest {
        match ScheduleSearchRequest::try_from(raw) {
            Ok(ScheduleSearchRequest::Collective(request)) => *request,
            other => panic!("not a collective search: {other:?}"),
        }
    }

    fn total_exchange(raw: ScheduleSearchArgs) -> NetworkSearchRequest {
        match ScheduleSearchRequest::try_from(raw) {
            Ok(ScheduleSearchRequest::TotalExchange(request)) => *request,
            other => panic!("not a total exchange: {other:?}"),
        }
    }

    #[test]
    fn every_refusal_names_the_option_as_the_caller_spells_it() {
        let mut a = args(Some("allgather"));
        a.slack = 1;
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
        let request = collective(a);
        assert_eq!(request.time_limit, Some(Seconds::MAX.duration()));
    }

    #[test]
    fn the_root_given_apart_joins_the_collective_and_defaults_apply() {
        let mut a = args(Some("broadcast"));
        a.root = Some(2);
        a.chunks = Some("3".into());
        let request = collective(a);
        assert_eq!(request.collective().root(), Some(2));
        assert_eq!(request.collective().chunks(), 3);
        assert_eq!(request.ports, Ports::All);
        assert_eq!(
            request.max_variables,
            txverify_search::schedule::encode::MAX_VARIABLES
        );
    }

    #[test]
    fn without_a_collective_the_total_exchange_rules_apply() {
        let mut a = args(None);
        a.others = vec![SearchOption::Symmetry];
        assert_eq!(
            refusal(a),
            "symmetry is for table searches, not with network"
        );
        let mut a = args(None);
        a.heuristic = true;
        a.slack = 2;
        assert_eq!(
            refusal(a),
            "slack is for the SAT search, not with heuristic"
        );
        let mut a = args(None);
        a.any_length = true;
        a.slack = 2;
        assert_eq!(refusal(a), "any_length and slack: give one");
        let mut a = args(None);
        a.slack = u64::MAX;
        assert_eq!(refusal(a), "slack is too large");
        let mut a = args(None);
        a.solver = SolverChoice::Z3;
        assert_eq!(refusal(a), "network searches with varisat or CaDiCaL");
        let mut a = args(None);
        a.deadline = Some(-1.0);
        assert!(refusal(a).starts_with("deadline: "));
        // Downward unless asked upward; the slack kept.
        let mut a = args(None);
        a.slack = 2;
        let request = total_exchange(a);
        assert!(request.descending);
        assert_eq!(request.paths, PathClass::Slack(2));
        let mut a = args(None);
        a.ascending = true;
        assert!(!total_exchange(a).descending);
    }

    #[test]
    fn a_collective_searches_downward_when_asked() {
        let mut a = args(Some("allgather"));
        a.descending = true;
        assert!(collective(a).descending);
        let mut a = args(Some("allgather"));
        a.descending = true;
        a.ascending = true;
        assert_eq!(refusal(a), "descending and ascending: give one");
        let mut a = args(Some("allgather"));
        a.heuristic = true;
        a.descending = true;
        assert_eq!(
            refusal(a),
            "descending is for the SAT search, not with heuristic"
        );
    }
}
