//! The reports of a `check` over a collection, for a CI: one line per file and a
//! summary (text), one JSON line per file and a summary line (JSON), JUnit XML for
//! a CI's test view, and GitHub workflow annotations.
//!
//! Each writer takes the [`FileResult`]s in order and returns text; nothing here
//! decides an outcome. The escaping rules are the formats' own: XML 1.0 (markup
//! characters as entities, characters XML cannot hold replaced by U+FFFD), and
//! GitHub's workflow commands (`%`, CR and LF in a message; also `:` and `,` in a
//! property).

use super::walk::plural;
use super::{Ending, FileResult};
use crate::report::json::CheckSummary;
use std::fmt::Write;

/// Adds one result to the counts.
pub fn count(summary: &mut CheckSummary, result: &FileResult) {
    summary.files += 1;
    match result.ending() {
        Ending::Passed => summary.passed += 1,
        Ending::Failed => summary.failed += 1,
        Ending::Error => summary.errors += 1,
    }
}

/// One file as a text line, then its problems indented, each at `file:line:col`.
pub fn text_line(result: &FileResult) -> String {
    let label = match result.ending() {
        Ending::Passed => "ok   ",
        Ending::Failed => "FAIL ",
        Ending::Error => "ERROR",
    };
    let mut out = format!("{label} {}: {}\n", result.path, result.summary);
    if result.ending() != Ending::Passed {
        for p in &result.problems {
            if p.at.is_none() && p.message == result.summary {
                continue;
            }
            let _ = match p.at {
                Some((line, col)) => {
                    writeln!(out, "      {}:{line}:{col}: {}", result.path, p.message)
                }
                None => writeln!(out, "      {}: {}", result.path, p.message),
            };
        }
    }
    out
}

/// The summary line of the text report.
pub fn text_summary(summary: &CheckSummary, skipped: Option<&str>) -> String {
    let mut line = format!(
        "{} file{}: {} passed, {} failed, {} error{} in {:.2} s",
        summary.files,
        plural(summary.files),
        summary.passed,
        summary.failed,
        summary.errors,
        plural(summary.errors),
        summary.seconds
    );
    if let Some(note) = skipped {
        let _ = write!(line, " ({note})");
    }
    line.push('\n');
    line
}

/// The whole JUnit XML document: one `testsuite`, one `testcase` per file, a
/// `failure` for a rejected file and an `error` for one that could not be checked.
pub fn junit(results: &[FileResult], summary: &CheckSummary, skipped: Option<&str>) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let counts = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3}\"",
        summary.files, summary.failed, summary.errors, summary.seconds
    );
    let _ = writeln!(out, "<testsuites name=\"txverify check\" {counts}>");
    let _ = writeln!(
        out,
        "  <testsuite name=\"txverify check\" {counts} skipped=\"0\">"
    );
    if let Some(note) = skipped {
        let _ = writeln!(
            out,
            "    <properties><property name=\"skipped\" value=\"{}\"/></properties>",
            xml(note)
        );
    }
    for r in results {
        let _ = write!(
            out,
            "    <testcase name=\"{0}\" classname=\"txverify.check\" file=\"{0}\" time=\"{1:.3}\"",
            xml(&r.path),
            r.seconds
        );
        let element = match r.ending() {
            Ending::Passed => {
                out.push_str("/>\n");
                continue;
            }
            Ending::Failed => "failure",
            Ending::Error => "error",
        };
        let details: Vec<String> = r
            .problems
            .iter()
            .map(|p| match p.at {
                Some((line, col)) => format!("{}:{line}:{col}: {}", r.path, p.message),
                None => format!("{}: {}", r.path, p.message),
            })
            .collect();
        let message = match r.problems.first() {
            Some(p) if p.message != r.summary => format!("{}: {}", r.summary, p.message),
            _ => r.summary.clone(),
        };
        let _ = writeln!(
            out,
            ">\n      <{element} message=\"{}\" type=\"exit {}\">{}</{element}>\n    </testcase>",
            xml(&message),
            r.status.code(),
            xml(&details.join("\n"))
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// Text as XML character data or an attribute value.
pub fn xml(text: &str) -> String {
    // The markup and the characters XML cannot hold as the SVG pictures escape them;
    // white space as character references too, which attribute values would
    // otherwise fold into spaces.
    crate::render::escape(text)
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

/// The workflow annotations of one file: an `::error` per problem of a file that did
/// not pass, nothing for one that did.
pub fn github(result: &FileResult) -> String {
    let mut out = String::new();
    if result.ending() == Ending::Passed {
        return out;
    }
    for p in &result.problems {
        let mut properties = format!("file={}", property(&result.path));
        if let Some((line, col)) = p.at {
            let _ = write!(properties, ",line={line},col={col}");
        }
        let title = match result.ending() {
            Ending::Failed => "txverify check: rejected",
            _ => "txverify check: error",
        };
        let _ = writeln!(
            out,
            "::error {properties},title={}::{}",
            property(title),
            data(&p.message)
        );
    }
    out
}

/// A workflow command's message: `%`, CR and LF escaped.
pub fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: as [`data`], and `:` and `,` escaped.
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_replaces_what_xml_cannot_hold() {
        assert_eq!(xml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(xml("x\u{1}y\u{ffff}"), "x\u{fffd}y\u{fffd}");
        assert_eq!(xml("1\n2\t3"), "1&#10;2&#9;3");
    }

    #[test]
    fn workflow_commands_escape_percent_newlines_and_property_separators() {
        assert_eq!(data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(property("a,b:c%"), "a%2Cb%3Ac%25");
    }
}
