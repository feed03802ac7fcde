//! The error object (docs/json.md, "Shared shapes") of a command asked for
//! `--format json` that stops without writing its report.
//!
//! A command asked for JSON must still print one object on standard output:
//! `error.message`, its subject, its `schema` and `exit_code`. The binary
//! writes it whatever the failure was (its argument parser refusing an
//! argument, or a command ending with a non-zero status having written
//! nothing on standard output); this module says what the object holds:
//! which commands speak JSON and their schemas ([`schema`]), what a command is
//! about ([`SUBJECTS`]), and the message and place of the first diagnostic
//! the command showed ([`FirstDiagnostic`]).

use super::failure::{ErrorReport, Failure, Status};
use serde_json::Value;

/// A diagnostic as the error object gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The message (with its place in front when it has one).
    pub message: String,
    /// Its line and column.
    pub at: Option<(usize, usize)>,
    /// An `error:` line (not a reason shown without one).
    pub is_error: bool,
}

/// The message and place of a diagnostic's first error line: `error: M`, or
/// `PLACE: error: M` where PLACE may end in `:LINE:COLUMN`. Lines that are
/// not errors (warnings, progress) give `None`.
pub fn parse_diagnostic(text: &str) -> Option<Shown> {
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

/// The diagnostic a failed run's error object gives: the first error line
/// shown on standard error, or until one comes, the first reason shown
/// without `error:` (`FILE: cannot simulate: …`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FirstDiagnostic(Option<Shown>);

impl FirstDiagnostic {
    /// None shown yet.
    pub const fn new() -> FirstDiagnostic {
        FirstDiagnostic(None)
    }

    /// Takes note of a diagnostic shown on standard error.
    pub fn keep(&mut self, text: &str) {
        let first = &mut self.0;
        match parse_diagnostic(text) {
            // The first error line wins over any line shown before it.
            Some(shown) if !first.as_ref().is_some_and(|f| f.is_error) => *first = Some(shown),
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

    /// The diagnostic kept, if any.
    pub fn shown(&self) -> Option<&Shown> {
        self.0.as_ref()
    }
}

/// The schema of the JSON report of the command at `path` (`"lcc map"`),
/// given which of its options are present; `None` for a command without
/// `--format json`.
pub fn schema(path: &str, has: impl Fn(&str) -> bool) -> Option<&'static str> {
    use crate::report as r;
    Some(match path {
        // `--network` applies to MSCCL programs only (tables name their own).
        "check" if has("network") => crate::msccl::report::SCHEMA,
        "check" => r::CHECK_SCHEMA,
        "simulate" if has("algorithm") => crate::fifo::report::FIFO_SCHEMA,
        "simulate" => r::SIMULATE_SCHEMA,
        "gen" => crate::construct::report::GEN_SCHEMA,
        "search" if has("collective") || has("network") => {
            r::network_search::SCHEDULE_SEARCH_SCHEMA
        }
        "search" => r::search::SEARCH_SCHEMA,
        "verify-proof" if has("cnf") => r::proof::SCHEMA,
        "verify-proof" if has("collective") => "txverify-verify-collective-proof/1",
        "verify-proof" if has("network") => {
            txverify_search::proof_report::VERIFY_SCHEDULE_PROOF_SCHEMA
        }
        "verify-proof" => txverify_search::proof_report::VERIFY_PROOF_SCHEMA,
        // Its JSON is the schedule document itself (docs/schedule.md).
        "export" => txverify_core::schedule::format::SCHEMA,
        "bounds" => crate::bounds::BOUNDS_SCHEMA,
        "verify-bound" => crate::bounds::lp::VERIFY_BOUND_SCHEMA,
        "hypercube" => "txverify-hypercube/1",
        "compose" => crate::product::report::COMPOSE_SCHEMA,
        "compare" => crate::compare::COMPARE_SCHEMA,
        "lcc contention" => crate::lcc::report::CONTENTION_SCHEMA,
        "lcc reorder" => crate::lcc::report::REORDER_SCHEMA,
        "lcc map" => crate::lcc::report::MAP_SCHEMA,
        "lcc simulate" => crate::lcc::report::SIMULATE_SCHEMA,
        "infer" if has("complete") => crate::infer::report::COMPLETE_SCHEMA,
        "infer" => crate::infer::report::SCHEMA,
        _ => return None,
    })
}

/// Commands whose error objects carry `error.line` and `error.column`.
pub fn places_errors(path: &str) -> bool {
    matches!(path, "check" | "simulate" | "infer")
}

/// The arguments that name what a command is about, and the member each
/// becomes (several values: a list).
pub const SUBJECTS: [(&str, &str); 11] = [
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

/// What a failed run's error object says besides the error: the command's
/// schema and its subject (`file`, `network`, `spec`, …).
#[derive(Clone, Debug)]
pub struct ErrorContext {
    schema: &'static str,
    subject: Vec<(String, Value)>,
    placed: bool,
}

impl ErrorContext {
    /// The context of the command at `path` (`None` when it has no JSON
    /// report), given which of its options are present and the values of
    /// each argument (as written).
    pub fn new(
        path: &str,
        has: impl Fn(&str) -> bool,
        values: impl Fn(&str) -> Vec<String>,
    ) -> Option<ErrorContext> {
        let schema = schema(path, has)?;
        let mut subject: Vec<(String, Value)> = Vec::new();
        for (id, key) in SUBJECTS {
            if subject.iter().any(|(k, _)| k == key) {
                continue;
            }
            let values: Vec<Value> = values(id)
                .into_iter()
                .map(|text| match text.parse::<u64>() {
                    Ok(n) if id == "dimension" || id == "size" => Value::from(n),
                    _ => Value::from(text),
                })
                .collect();
            match values.len() {
                0 => {}
                1 => subject.push((key.to_string(), values[0].clone())),
                _ => subject.push((key.to_string(), Value::from(values))),
            }
        }
        Some(ErrorContext {
            schema,
            subject,
            placed: places_errors(path),
        })
    }

    /// The error object of a run that ended with exit status `code`, having
    /// shown `shown` first on standard error.
    pub fn failed_run(&self, shown: Option<&Shown>, code: u8) -> ErrorReport {
        let (message, at) = match shown {
            Some(shown) => (shown.message.clone(), shown.at),
            None => (
                format!("the command failed with exit status {code} (see standard error)"),
                None,
            ),
        };
        let failure = Failure::input(message);
        let mut report = ErrorReport::new(Some(self.schema), &failure).with_exit_code(code);
        for (key, value) in &self.subject {
            report = report.about(key, value.clone());
        }
        if self.placed {
            report = report.placed(at);
        }
        report
    }
}

/// The error object of command line arguments refused before the command at
/// `path` ran (`None` when it has no JSON report): `rendered` is the parser's
/// message, `code` its exit status.
pub fn usage_error(
    path: &str,
    has: impl Fn(&str) -> bool,
    rendered: String,
    code: u8,
) -> Option<ErrorReport> {
    let schema = schema(path, has)?;
    let message = parse_diagnostic(&rendered).map_or(rendered, |shown| shown.message);
    let status = if code == Status::Input.code() {
        Status::Input
    } else {
        Status::Rejected
    };
    let failure = Failure::new(status, message);
    let report = ErrorReport::new(Some(schema), &failure).with_exit_code(code);
    Some(if places_errors(path) {
        report.placed(None)
    } else {
        report
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_first_error_line_wins_over_an_earlier_reason() {
        let mut first = FirstDiagnostic::new();
        first.keep("\nx.sched: cannot simulate: no route\n");
        assert_eq!(
            first.shown().map(|s| s.message.as_str()),
            Some("x.sched: cannot simulate: no route")
        );
        first.keep("error: first\n");
        first.keep("error: second\n");
        assert_eq!(first.shown().map(|s| s.message.as_str()), Some("first"));
    }
}
