//! The one place where a failure becomes the JSON error object (docs/json.md,
//! "Shared shapes") for every command that has `--format json`.
//!
//! A command asked for JSON that stops without writing its report must still
//! print one object on standard output: `error.message`, its subject, its
//! `schema` and `exit_code`. Rather than each command remembering to, the
//! binary does it here, whatever the failure was:
//!
//! - clap refusing an argument (an unknown option, a value that does not
//!   parse): [`usage_error`], before the command runs;
//! - a command that ends with a non-zero status and has written nothing on
//!   standard output: [`finish`], with the first diagnostic it showed on
//!   standard error (every diagnostic goes through [`diagnostic`]).
//!
//! A command that writes its own error object (or a report that says why it
//! failed, as `check PROGRAM.xml` does) has written on standard output, so
//! nothing is added. Which commands speak JSON, and their schemas, are listed
//! once in [`schema`]; a unit test holds the list to clap's definitions.

use super::exit::Exit;
use clap::ArgMatches;
use serde_json::Value;
use std::ffi::OsString;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use txverify_clients::report::{ErrorReport, Failure, Status};

/// Set once anything has been written on standard output.
static WROTE_STDOUT: AtomicBool = AtomicBool::new(false);

/// The first diagnostic shown on standard error: its message and place.
static FIRST_ERROR: Mutex<Option<Shown>> = Mutex::new(None);

/// A diagnostic as the error object gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shown {
    message: String,
    at: Option<(usize, usize)>,
    /// An `error:` line (not a reason shown without one).
    is_error: bool,
}

/// What a failed run's error object says besides the error: the command's
/// schema and its subject (`file`, `network`, `spec`, …).
#[derive(Clone, Debug)]
pub struct Context {
    schema: &'static str,
    subject: Vec<(String, Value)>,
    placed: bool,
}

/// Notes that standard output has been written to (by `output::write`).
pub fn wrote_stdout() {
    WROTE_STDOUT.store(true, Ordering::Relaxed);
}

/// Shows a diagnostic on standard error (`error: …`, or a rendered one such as
/// `FILE:3:7: error: …` with its source line) and keeps the first one for the
/// error object.
pub fn diagnostic(text: &str) {
    eprint!("{text}");
    let Ok(mut first) = FIRST_ERROR.lock() else {
        return;
    };
    match parse_diagnostic(text) {
        // The first error line wins over any line shown before it.
        Some(shown) if !first.as_ref().is_some_and(|f| f.is_error) => *first = Some(shown),
        // A reason without `error:` (`FILE: cannot simulate: …`) stands in
        // until an error line comes.
        None if first.is_none() => {
            *first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .map(|line| Shown {
                    message: line.trim_end().to_string(),
                    at: None,
                    is_error: false,
                });
        }
        _ => {}
    }
}

/// The message and place of a diagnostic's first error line: `error: M`, or
/// `PLACE: error: M` where PLACE may end in `:LINE:COLUMN`. Lines that are
/// not errors (warnings, progress) give `None`.
fn parse_diagnostic(text: &str) -> Option<Shown> {
    let line = text.lines().find(|l| l.contains("error: "))?;
    if let Some(message) = line.strip_prefix("error: ") {
        return Some(Shown {
            message: message.trim_end().to_string(),
            at: None,
            is_error: true,
        });
    }
    let (place, message) = line.split_once(": error: ")?;
    let mut parts = place.rsplitn(3, ':');
    let column = parts.next().and_then(|c| c.parse::<usize>().ok());
    let line_number = parts.next().and_then(|l| l.parse::<usize>().ok());
    let at = line_number.zip(column);
    Some(Shown {
        message: format!("{place}: {}", message.trim_end()),
        at,
        is_error: true,
    })
}

/// The schema of the JSON report of the command at `path` (`"lcc map"`),
/// given which of its options are present; `None` for a command without
/// `--format json`.
fn schema(path: &str, has: impl Fn(&str) -> bool) -> Option<&'static str> {
    use txverify_clients::report as r;
    Some(match path {
        // `--network` applies to MSCCL programs only (tables name their own).
        "check" if has("network") => txverify_clients::msccl::report::SCHEMA,
        "check" => r::CHECK_SCHEMA,
        "simulate" if has("algorithm") => txverify_clients::fifo::report::FIFO_SCHEMA,
        "simulate" => r::SIMULATE_SCHEMA,
        "gen" => txverify_clients::construct::report::GEN_SCHEMA,
        "search" if has("collective") => r::collective_search::COLLECTIVE_SEARCH_SCHEMA,
        "search" if has("network") => r::network_search::SCHEDULE_SEARCH_SCHEMA,
        "search" => r::search::SEARCH_SCHEMA,
        "verify-proof" if has("cnf") => r::proof::SCHEMA,
        "verify-proof" if has("collective") => "txverify-verify-collective-proof/1",
        "verify-proof" if has("network") => {
            txverify_search::proof_report::VERIFY_SCHEDULE_PROOF_SCHEMA
        }
        "verify-proof" => txverify_search::proof_report::VERIFY_PROOF_SCHEMA,
        // Its JSON is the schedule document itself (docs/schedule.md).
        "export" => txverify_core::schedule::format::SCHEMA,
        "bounds" => txverify_clients::bounds::BOUNDS_SCHEMA,
        "verify-bound" => txverify_clients::lp_bound::VERIFY_BOUND_SCHEMA,
        "hypercube" => "txverify-hypercube/1",
        "compose" => txverify_clients::product::report::COMPOSE_SCHEMA,
        "compare" => txverify_clients::compare::COMPARE_SCHEMA,
        "lcc contention" => txverify_clients::lcc::report::CONTENTION_SCHEMA,
        "lcc reorder" => txverify_clients::lcc::report::REORDER_SCHEMA,
        "lcc map" => txverify_clients::lcc::report::MAP_SCHEMA,
        "lcc simulate" => txverify_clients::lcc::report::SIMULATE_SCHEMA,
        "infer" if has("complete") => txverify_clients::infer::report::COMPLETE_SCHEMA,
        "infer" => txverify_clients::infer::report::SCHEMA,
        _ => return None,
    })
}

/// Commands whose error objects carry `error.line` and `error.column`.
fn places_errors(path: &str) -> bool {
    matches!(path, "check" | "simulate" | "infer")
}

/// The arguments that name what a command is about, and the member each
/// becomes (several values: a list).
const SUBJECTS: [(&str, &str); 11] = [
    ("file", "file"),
    ("files", "file"),
    ("network", "network"),
    ("networks", "network"),
    ("spec", "spec"),
    ("specs", "spec"),
    ("family", "family"),
    ("problem", "problem"),
    ("dimension", "dimension"),
    ("size", "size"),
    ("collective", "collective"),
];

/// The error object's context for a parsed command line, when the command
/// was asked for `--format json`.
pub fn context(matches: &ArgMatches) -> Option<Context> {
    let mut path = Vec::new();
    let mut leaf = matches;
    while let Some((name, sub)) = leaf.subcommand() {
        path.push(name);
        leaf = sub;
    }
    let path = path.join(" ");
    let format = leaf.try_get_raw("format").ok().flatten()?;
    if !format.into_iter().any(|v| v == "json") {
        return None;
    }
    let present = |id: &str| {
        leaf.try_get_raw(id)
            .is_ok_and(|v| v.is_some_and(|mut v| v.next().is_some()))
            && leaf.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
    };
    let schema = schema(&path, present)?;
    let mut subject = Vec::new();
    for (id, key) in SUBJECTS {
        if subject.iter().any(|(k, _): &(String, Value)| k == key) {
            continue;
        }
        let Ok(Some(values)) = leaf.try_get_raw(id) else {
            continue;
        };
        let values: Vec<Value> = values
            .map(|v| {
                let text = v.to_string_lossy();
                match text.parse::<u64>() {
                    Ok(n) if id == "dimension" || id == "size" => Value::from(n),
                    _ => Value::from(text.into_owned()),
                }
            })
            .collect();
        match values.len() {
            0 => {}
            1 => subject.push((key.to_string(), values[0].clone())),
            _ => subject.push((key.to_string(), Value::from(values))),
        }
    }
    Some(Context {
        schema,
        subject,
        placed: places_errors(&path),
    })
}

/// Before the command runs: clap refused the arguments. When they ask for
/// `--format json` of a command that has it, prints the error object.
pub fn usage_error(args: &[OsString], error: &clap::Error) {
    if !error.use_stderr() {
        // `--help` and `--version` are answers, not failures.
        return;
    }
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .take_while(|w| w != "--")
        .collect();
    let json = words
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || words.iter().any(|w| w == "--format=json");
    if !json {
        return;
    }
    let Some(path) = command_path(&words) else {
        return;
    };
    let has = |id: &str| {
        let option = format!("--{}", id.replace('_', "-"));
        words
            .iter()
            .any(|w| *w == option || w.starts_with(&format!("{option}=")))
    };
    let Some(schema) = schema(&path, has) else {
        return;
    };
    let rendered = error.render().to_string();
    let message = parse_diagnostic(&rendered).map_or(rendered, |shown| shown.message);
    let code = u8::try_from(error.exit_code()).unwrap_or(Exit::Input.code());
    let status = if code == Exit::Input.code() {
        Status::Input
    } else {
        Status::Rejected
    };
    let failure = Failure::new(status, message);
    let mut report = ErrorReport::new(Some(schema), &failure).with_exit_code(code);
    if places_errors(&path) {
        report = report.placed(None);
    }
    print_object(&report);
}

/// The subcommand path (`lcc map`) the raw words name: the first word that
/// is a command's name, then the first that is one of its subcommands.
fn command_path(words: &[String]) -> Option<String> {
    use clap::CommandFactory;
    let root = super::Cli::command();
    let mut path = Vec::new();
    let mut command = &root;
    for word in words {
        if let Some(sub) = command.find_subcommand(word) {
            path.push(sub.get_name().to_string());
            command = sub;
        }
    }
    (!path.is_empty()).then(|| path.join(" "))
}

/// After the command: a failure that wrote nothing on standard output gets
/// its error object there.
pub fn finish(context: Option<&Context>, exit: Exit) {
    let Some(context) = context else {
        return;
    };
    let failed = !matches!(exit, Exit::Ok | Exit::BrokenPipe);
    if !failed || WROTE_STDOUT.load(Ordering::Relaxed) {
        return;
    }
    let shown = FIRST_ERROR.lock().ok().and_then(|first| first.clone());
    let (message, at) = match shown {
        Some(shown) => (shown.message, shown.at),
        None => (
            format!(
                "the command failed with exit status {} (see standard error)",
                exit.code()
            ),
            None,
        ),
    };
    let failure = Failure::input(message);
    let mut report = ErrorReport::new(Some(context.schema), &failure).with_exit_code(exit.code());
    for (key, value) in &context.subject {
        report = report.about(key, value.clone());
    }
    if context.placed {
        report = report.placed(at);
    }
    print_object(&report);
}

/// Writes the object on standard output (through the same writer as every
/// report: a closed pipe ends the process quietly).
fn print_object(report: &ErrorReport) {
    super::output::json(report);
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn diagnostics_give_their_message_and_place() {
        assert_eq!(
            parse_diagnostic("error: cannot read x\n"),
            Some(Shown {
                message: "cannot read x".into(),
                at: None,
                is_error: true
            })
        );
        assert_eq!(
            parse_diagnostic("a.tbl:3:7: error: unknown key `x`\n  |\n3 | x: 1\n"),
            Some(Shown {
                message: "a.tbl:3:7: unknown key `x`".into(),
                at: Some((3, 7)),
                is_error: true
            })
        );
        assert_eq!(parse_diagnostic("warning: slow\n"), None);
    }

    /// Every command whose `--format` accepts `json` has a schema here, and
    /// no other command has one.
    #[test]
    fn every_json_command_has_a_schema() {
        fn walk(prefix: &str, command: &clap::Command, found: &mut Vec<(String, bool)>) {
            for sub in command.get_subcommands() {
                let path = format!("{prefix}{}", sub.get_name());
                let json = sub.get_arguments().any(|a| {
                    a.get_id() == "format"
                        && a.get_possible_values()
                            .iter()
                            .any(|v| v.get_name() == "json")
                });
                found.push((path.clone(), json));
                walk(&format!("{path} "), sub, found);
            }
        }
        let mut command = super::super::Cli::command();
        command.build();
        let mut found = Vec::new();
        walk("", &command, &mut found);
        assert!(found.iter().filter(|(_, json)| *json).count() >= 15);
        for (path, json) in found {
            assert_eq!(schema(&path, |_| false).is_some(), json, "{path}");
        }
    }
}
