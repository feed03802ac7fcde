//! How a command ends, and the one JSON object every command writes when it
//! fails.
//!
//! A command of the library returns its typed report, or a [`Failure`]: what
//! went wrong, where in the input, and the [`Status`] it gives. The binary maps
//! a status to its exit status and writes the failure as an [`ErrorReport`]
//! with `--format json`, so that every command's error object has one shape:
//!
//! ```json
//! {"error":{"message":"…"},"exit_code":2,"file":"x.tbl","schema":"txverify-…/1"}
//! ```
//!
//! `error.line` and `error.column` appear where the command places its errors
//! in a file (as `null` when the failure has no place); the subject (`file`,
//! `spec`, `network`, …) is the command's own. JSON documents are written with
//! their keys in alphabetical order ([`json_line`]), as they always were.

use serde::{Serialize, Serializer, ser::SerializeMap};
use serde_json::Value;
use txverify_core::load::read::{ReadError, ReadLimits};

/// How a command ended, one variant per documented exit status but the broken
/// pipe (which only the binary sees). Ordered from best to worst, so that the
/// status of several files is the largest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// It did what it was asked, and every claim holds.
    Ok,
    /// A table, schedule, claim or certificate is rejected.
    Rejected,
    /// An input cannot be read, parsed or used, or an output cannot be written.
    Input,
    /// Two independent checks disagree, or a construction is rejected: a bug.
    Internal,
    /// A time, size or step limit ran out before an answer.
    Limit,
}

impl Status {
    /// The exit status the binary gives (docs/cli.md, "Exit status"; the
    /// binary's own table is tested against this one).
    pub fn code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Rejected => 1,
            Status::Input => 2,
            Status::Internal => 3,
            Status::Limit => 4,
        }
    }

    /// The status of a table or schedule judged valid (0) or not (1).
    pub fn of_validity(valid: bool) -> Status {
        if valid { Status::Ok } else { Status::Rejected }
    }
}

/// Reads a text file once, bounded (`-`: standard input; the limits of
/// [`ReadLimits::TEXT`], docs/limits.md), dropping a leading byte-order mark
/// (editors on some systems write one; it is not part of the text, and
/// columns count from after it).
pub fn read_text(path: &std::path::Path) -> Result<String, ReadError> {
    txverify_core::load::read::read_text(path, ReadLimits::TEXT)
}

/// Why a command stopped without its report.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    /// The status it gives.
    pub status: Status,
    /// What went wrong, in one line (the JSON object's `error.message`).
    pub message: String,
    /// The 1-based line and column in the input it points at, when known.
    pub at: Option<(usize, usize)>,
    /// What standard error shows instead of `error: MESSAGE` (a rendered
    /// diagnostic with the source line), when there is one.
    pub diagnostic: Option<String>,
    /// The file it is about, when not the one the command was given (a
    /// second input).
    pub file: Option<String>,
}

impl Failure {
    /// A failure with `status` and `message`, placed nowhere.
    pub fn new(status: Status, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            at: None,
            diagnostic: None,
            file: None,
        }
    }

    /// An input that cannot be read or used (status 2).
    pub fn input(message: impl Into<String>) -> Failure {
        Failure::new(Status::Input, message)
    }

    /// A bug: two checks disagree (status 3).
    pub fn internal(message: impl Into<String>) -> Failure {
        Failure::new(Status::Internal, message)
    }

    /// The same failure, placed at `line`, `column` of the input.
    pub fn at(mut self, at: Option<(usize, usize)>) -> Failure {
        self.at = at;
        self
    }

    /// The same failure, shown on standard error as `diagnostic`.
    pub fn shown_as(mut self, diagnostic: String) -> Failure {
        self.diagnostic = Some(diagnostic);
        self
    }

    /// The same failure, about the file shown as `file`.
    pub fn in_file(mut self, file: &str) -> Failure {
        self.file = Some(file.to_string());
        self
    }

    /// What standard error shows: the diagnostic, or `error: MESSAGE`.
    pub fn stderr_text(&self) -> String {
        match &self.diagnostic {
            Some(text) => text.clone(),
            None => format!("error: {}\n", self.message),
        }
    }
}

/// The error object of a failed command: its schema, its subject (the file,
/// spec or network it was about), the error and the exit status.
#[derive(Clone, Debug)]
pub struct ErrorReport {
    /// The command's report schema, when it has one.
    pub schema: Option<String>,
    /// What the command was about, e.g. `("file", "x.tbl")`.
    pub subject: Vec<(String, Value)>,
    /// What went wrong.
    pub error: ErrorDetail,
    /// The exit status.
    pub exit_code: u8,
}

/// The `error` member of an [`ErrorReport`].
#[derive(Clone, Debug, Serialize)]
pub struct ErrorDetail {
    /// Where in the file, for commands that place their errors.
    #[serde(flatten)]
    pub position: Option<Position>,
    /// What went wrong.
    pub message: String,
}

/// A place in a file (both `null` when the failure has none).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Position {
    /// 1-based column.
    pub column: Option<usize>,
    /// 1-based line.
    pub line: Option<usize>,
}

impl ErrorReport {
    /// The report of `failure` under `schema`, without a position.
    pub fn new(schema: Option<&str>, failure: &Failure) -> ErrorReport {
        ErrorReport {
            schema: schema.map(str::to_string),
            subject: Vec::new(),
            error: ErrorDetail {
                position: None,
                message: failure.message.clone(),
            },
            exit_code: failure.status.code(),
        }
    }

    /// Adds a subject member, e.g. `about("file", "x.tbl")`.
    pub fn about(mut self, key: &str, value: impl Into<Value>) -> ErrorReport {
        self.subject.push((key.to_string(), value.into()));
        self
    }

    /// Gives the error its `line` and `column` (`null` when `at` is `None`),
    /// for the commands whose error objects always carry them.
    pub fn placed(mut self, at: Option<(usize, usize)>) -> ErrorReport {
        let (line, column) = at.unzip();
        self.error.position = Some(Position { column, line });
        self
    }

    /// Replaces the exit status (for a status the binary alone knows).
    pub fn with_exit_code(mut self, code: u8) -> ErrorReport {
        self.exit_code = code;
        self
    }
}

impl Serialize for ErrorReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut members: Vec<(&str, Value)> = vec![
            (
                "error",
                serde_json::to_value(&self.error).unwrap_or(Value::Null),
            ),
            ("exit_code", Value::from(self.exit_code)),
        ];
        if let Some(schema) = &self.schema {
            members.push(("schema", Value::from(schema.as_str())));
        }
        members.extend(self.subject.iter().map(|(k, v)| (k.as_str(), v.clone())));
        members.sort_by(|a, b| a.0.cmp(b.0));
        let mut map = serializer.serialize_map(Some(members.len()))?;
        for (key, value) in &members {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// One JSON document on one line, keys in alphabetical order at every level,
/// ending in a newline. A document that cannot be written (a bug) becomes the
/// error object saying so.
pub fn json_line<T: Serialize + ?Sized>(report: &T) -> String {
    match serde_json::to_value(report) {
        Ok(value) => format!("{}\n", sorted(value)),
        Err(e) => {
            let failure = Failure::internal(format!("cannot write the JSON report (a bug): {e}"));
            format!(
                "{}\n",
                sorted(serde_json::json!(ErrorReport::new(None, &failure)))
            )
        }
    }
}

/// `value` with the members of every object in alphabetical order.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(String, Value)> = map.into_iter().collect();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(members.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_report_has_its_members_in_alphabetical_order() {
        let failure = Failure::input("cannot read x.tbl");
        let report = ErrorReport::new(Some("txverify-x/1"), &failure).about("file", "x.tbl");
        assert_eq!(
            json_line(&report),
            "{\"error\":{\"message\":\"cannot read x.tbl\"},\"exit_code\":2,\
             \"file\":\"x.tbl\",\"schema\":\"txverify-x/1\"}\n"
        );
    }

    #[test]
    fn a_placed_error_carries_line_and_column_even_when_unknown() {
        let failure = Failure::input("bad");
        let none = ErrorReport::new(None, &failure).placed(None);
        assert_eq!(
            json_line(&none),
            "{\"error\":{\"column\":null,\"line\":null,\"message\":\"bad\"},\"exit_code\":2}\n"
        );
        let some = ErrorReport::new(None, &failure).placed(Some((3, 7)));
        assert!(json_line(&some).contains("{\"column\":7,\"line\":3,\"message\":\"bad\"}"));
    }

    #[test]
    fn statuses_are_ordered_from_best_to_worst() {
        assert!(Status::Ok < Status::Rejected && Status::Rejected < Status::Input);
        assert!(Status::Input < Status::Internal && Status::Internal < Status::Limit);
        let codes: Vec<u8> = [
            Status::Ok,
            Status::Rejected,
            Status::Input,
            Status::Internal,
            Status::Limit,
        ]
        .map(Status::code)
        .to_vec();
        assert_eq!(codes, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn json_lines_sort_nested_members() {
        #[derive(Serialize)]
        struct Inner {
            zeta: u8,
            alpha: u8,
        }
        #[derive(Serialize)]
        struct Outer {
            b: Vec<Inner>,
            a: Option<u8>,
        }
        let line = json_line(&Outer {
            b: vec![Inner { zeta: 1, alpha: 2 }],
            a: None,
        });
        assert_eq!(line, "{\"a\":null,\"b\":[{\"alpha\":2,\"zeta\":1}]}\n");
    }
}
