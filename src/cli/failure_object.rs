//! The one place where a failure becomes the JSON error object (docs/json.md,
//! "Shared shapes") for every command that has `--format json`.
//!
//! A command asked for JSON that stops without writing its report must still
//! print one object on standard output, whatever the failure was:
//!
//! - clap refusing an argument (an unknown option, a value that does not
//!   parse): [`usage_error`], before the command runs;
//! - a command that ends with a non-zero status and has written nothing on
//!   standard output: [`finish`], with the first diagnostic it showed on
//!   standard error (every diagnostic goes through `output::diagnostic`).
//!
//! A command that writes its own error object (or a report that says why it
//! failed, as `check PROGRAM.xml` does) has written on standard output, so
//! nothing is added. What the object holds is the library's
//! (`report::error_object`); here is what clap gives it. A unit test holds
//! the library's list of JSON commands to clap's definitions.

use super::exit::Exit;
use clap::ArgMatches;
use std::ffi::OsString;
use txverify_clients::report::error_object::{self, ErrorContext};

/// The error object's context for a parsed command line, when the command
/// was asked for `--format json`.
pub fn context(matches: &ArgMatches) -> Option<ErrorContext> {
    let mut path = Vec::new();
    let mut leaf = matches;
    while let Some((name, sub)) = leaf.subcommand() {
        path.push(name);
        leaf = sub;
    }
    let format = leaf.try_get_raw("format").ok().flatten()?;
    if !format.into_iter().any(|v| v == "json") {
        return None;
    }
    let present = |id: &str| {
        leaf.try_get_raw(id)
            .is_ok_and(|v| v.is_some_and(|mut v| v.next().is_some()))
            && leaf.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
    };
    let values = |id: &str| match leaf.try_get_raw(id) {
        Ok(Some(values)) => values.map(|v| v.to_string_lossy().into_owned()).collect(),
        _ => Vec::new(),
    };
    ErrorContext::new(&path.join(" "), present, values)
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
    let code = u8::try_from(error.exit_code()).unwrap_or(Exit::Input.code());
    let rendered = error.render().to_string();
    if let Some(report) = error_object::usage_error(&path, has, rendered, code) {
        super::output::json(&report);
    }
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
/// its error object there (through the same writer as every report: a closed
/// pipe ends the process quietly).
pub fn finish(context: Option<&ErrorContext>, exit: Exit) {
    let Some(context) = context else {
        return;
    };
    let failed = !matches!(exit, Exit::Ok | Exit::BrokenPipe);
    if failed && !super::output::wrote_stdout() {
        let shown = super::output::first_diagnostic();
        super::output::json(&context.failed_run(shown.as_ref(), exit.code()));
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use txverify_clients::report::error_object::schema;

    /// Every command whose `--format` accepts `json` has a schema in the
    /// library's list, and no other command has one.
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
