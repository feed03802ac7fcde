//! Options every subcommand takes (`--color`, `--quiet`), resolved once at
//! start-up and read from here.
//!
//! They live in one struct flattened into the top-level parser, with
//! `global = true`, so a subcommand added later gets them without new
//! plumbing: it reads [`quiet`] and its standard output goes through
//! [`paint_report`] (via `out!`) like every other report.

use clap::ValueEnum;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::sync::OnceLock;

/// Options that apply to every subcommand, before or after its name.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GlobalArgs {
    /// When to colour output: auto (only on a terminal, and never when the
    /// NO_COLOR environment variable is set and not empty), always or never.
    #[arg(long, value_enum, default_value_t, global = true, value_name = "WHEN")]
    pub color: ColorWhen,
    /// No progress or other non-essential output; results and errors still print.
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

/// `--color WHEN`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    /// Always colour (an explicit `--color always` overrides NO_COLOR).
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    /// `auto` becomes `never` when NO_COLOR asks for it; an explicit choice stands.
    pub fn with_no_color(self, no_color: bool) -> ColorWhen {
        match self {
            ColorWhen::Auto if no_color => ColorWhen::Never,
            other => other,
        }
    }

    /// Whether to colour a stream that is (or is not) a terminal.
    pub fn colours(self, is_terminal: bool) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => is_terminal,
        }
    }

    /// The same choice for clap's own help and error messages.
    pub fn for_clap(self) -> clap::ColorChoice {
        match self {
            ColorWhen::Auto => clap::ColorChoice::Auto,
            ColorWhen::Always => clap::ColorChoice::Always,
            ColorWhen::Never => clap::ColorChoice::Never,
        }
    }
}

/// Whether the NO_COLOR convention asks for no colour (set and not empty).
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// The `--color` value in raw arguments, before clap parses them, so that
/// clap's own messages (help, usage errors) follow it too. The last one wins;
/// arguments after `--` are operands; a value clap will reject counts as `auto`.
pub fn color_in_args(args: &[OsString]) -> ColorWhen {
    let mut found = ColorWhen::Auto;
    let mut words = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        let value = match word.strip_prefix("--color") {
            Some("") => words.next().map(|v| v.into_owned()),
            Some(rest) => rest.strip_prefix('=').map(str::to_string),
            None => None,
        };
        if let Some(value) = value {
            found = ColorWhen::from_str(&value, false).unwrap_or(ColorWhen::Auto);
        }
    }
    found
}

/// What the global options decided, once for the whole run.
#[derive(Debug)]
struct Settings {
    quiet: bool,
    colour_stdout: bool,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Records the parsed global options (called once, before any subcommand runs).
pub fn init(args: &GlobalArgs) {
    let when = args.color.with_no_color(no_color_env());
    let _ = SETTINGS.set(Settings {
        quiet: args.quiet,
        colour_stdout: when.colours(std::io::stdout().is_terminal()),
    });
}

/// `--quiet`: leave out progress and other non-essential output.
pub fn quiet() -> bool {
    SETTINGS.get().is_some_and(|s| s.quiet)
}

/// Whether standard output is coloured.
fn colour_stdout() -> bool {
    SETTINGS.get().is_some_and(|s| s.colour_stdout)
}

/// The text for standard output, with the verdict lines of reports coloured
/// when colour is on (green for a pass, yellow for a valid but unproved one,
/// red for a failure). JSON, tables and headers have no such lines.
pub fn paint_report(text: &str) -> std::borrow::Cow<'_, str> {
    if colour_stdout() {
        std::borrow::Cow::Owned(paint_verdicts(text))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Colours the value of every line `  verdict …` / `  verdict: …` (indented,
/// as the text reports print them).
pub fn paint_verdicts(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    for line in text.split_inclusive('\n') {
        match verdict_value(line) {
            Some(at) => {
                let (label, value) = line.split_at(at);
                let (value, end) = match value.strip_suffix('\n') {
                    Some(v) => (v, "\n"),
                    None => (value, ""),
                };
                let style = verdict_style(value);
                out.push_str(label);
                out.push_str(&format!("{style}{value}{style:#}{end}"));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// Where the value of a verdict line starts, if `line` is one.
fn verdict_value(line: &str) -> Option<usize> {
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    let rest = body.strip_prefix("verdict")?;
    if indent == 0 || !(rest.starts_with(':') || rest.starts_with(' ')) {
        return None;
    }
    let value = rest.trim_start_matches([':', ' ']);
    Some(line.len() - value.len())
}

/// Red for a failure (`INVALID`, `FAILED`, `… NOT optimal`, a bound that is
/// wrong), yellow for a pass that is not proved best (`not proved`, `not
/// shown`, `not decided`), green otherwise.
fn verdict_style(value: &str) -> anstyle::Style {
    use anstyle::AnsiColor::{Green, Red, Yellow};
    let lower = value.to_ascii_lowercase();
    let failed = ["invalid", "failed", "rejected"]
        .iter()
        .any(|bad| lower.starts_with(bad))
        || value.contains("NOT ")
        || lower.contains("is wrong");
    let colour = if failed {
        Red
    } else if ["not proved", "not shown", "not decided"]
        .iter()
        .any(|weak| lower.contains(weak))
    {
        Yellow
    } else {
        Green
    };
    anstyle::Style::new().bold().fg_color(Some(colour.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_last_color_option_wins_and_operands_do_not_count() {
        let given = |w: &[&str]| color_in_args(&args(w));
        assert_eq!(given(&["txverify", "check", "x"]), ColorWhen::Auto);
        assert_eq!(given(&["txverify", "--color", "never"]), ColorWhen::Never);
        assert_eq!(given(&["txverify", "--color=always"]), ColorWhen::Always);
        assert_eq!(
            given(&["txverify", "--color=always", "check", "--color", "never"]),
            ColorWhen::Never
        );
        assert_eq!(
            given(&["txverify", "check", "--", "--color=always"]),
            ColorWhen::Auto
        );
        assert_eq!(given(&["txverify", "--color=sometimes"]), ColorWhen::Auto);
    }

    #[test]
    fn no_color_turns_auto_off_but_not_an_explicit_always() {
        assert_eq!(ColorWhen::Auto.with_no_color(true), ColorWhen::Never);
        assert_eq!(ColorWhen::Always.with_no_color(true), ColorWhen::Always);
        assert_eq!(ColorWhen::Auto.with_no_color(false), ColorWhen::Auto);
        assert!(ColorWhen::Auto.colours(true));
        assert!(!ColorWhen::Auto.colours(false));
        assert!(ColorWhen::Always.colours(false));
        assert!(!ColorWhen::Never.colours(true));
    }

    #[test]
    fn only_indented_verdict_lines_are_painted() {
        let text =
            "f: x\n  verdict      OPTIMAL (valid)\n  verdict: INVALID\nverdict x\n  verdicts 3\n";
        let painted = paint_verdicts(text);
        let lines: Vec<&str> = painted.lines().collect();
        assert_eq!(lines[0], "f: x");
        assert!(lines[1].starts_with("  verdict      \u{1b}["), "{painted}");
        assert!(lines[1].contains("32m"), "green: {painted}");
        assert!(lines[2].contains("31m"), "red: {painted}");
        assert_eq!(lines[3], "verdict x");
        assert_eq!(lines[4], "  verdicts 3");
        assert!(painted.ends_with('\n'));
        assert_eq!(strip_escapes(&painted), text, "only colour is added");
    }

    /// `text` without its `ESC [ … m` sequences.
    fn strip_escapes(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('\u{1b}') {
            out.push_str(&rest[..at]);
            let end = rest[at..].find('m').expect("a terminated escape");
            rest = &rest[at + end + 1..];
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn each_report_verdict_gets_its_colour() {
        let cases = [
            ("VALID, not proved optimal (time 6 > lower bound 5)", "33m"),
            ("not shown optimal (time above the lower bound)", "33m"),
            ("valid, NOT optimal", "31m"),
            (
                "VALID, not proved optimal (completion time 7 > the status, 6)",
                "33m",
            ),
            ("INVALID (3 violations)", "31m"),
            ("FAILED", "31m"),
            ("CLEAN", "32m"),
            ("OPTIMAL in time and in transmissions", "32m"),
            ("optimal (time = lower bound)", "32m"),
            (
                "valid, optimality not decided (the status, 5, is proved for 1-port, not for this replay)",
                "33m",
            ),
            (
                "valid, below the status (4 < 5): the bound or the replay is wrong",
                "31m",
            ),
        ];
        for (value, colour) in cases {
            let painted = paint_verdicts(&format!("  verdict      {value}\n"));
            assert!(painted.contains(colour), "{value}: {painted:?}");
        }
    }
}
