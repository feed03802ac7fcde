//! Standard output that survives a closed pipe (`txverify check … | head`),
//! coloured as `--color` says, and diagnostics on standard error; both noted
//! for the JSON error object (`failure_object`).

use super::exit::Exit;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use txverify_clients::report::error_object::{FirstDiagnostic, Shown};

/// Set once anything has been written on standard output.
static WROTE_STDOUT: AtomicBool = AtomicBool::new(false);

/// The first diagnostic shown on standard error.
static FIRST_DIAGNOSTIC: Mutex<FirstDiagnostic> = Mutex::new(FirstDiagnostic::new());

/// Whether anything has been written on standard output.
pub fn wrote_stdout() -> bool {
    WROTE_STDOUT.load(Ordering::Relaxed)
}

/// The first diagnostic shown on standard error, if any.
pub fn first_diagnostic() -> Option<Shown> {
    FIRST_DIAGNOSTIC.lock().ok()?.shown().cloned()
}

/// Shows a diagnostic on standard error (`error: …`, or a rendered one such as
/// `FILE:3:7: error: …` with its source line) and keeps the first one for the
/// error object.
pub fn diagnostic(text: &str) {
    eprint!("{text}");
    if let Ok(mut first) = FIRST_DIAGNOSTIC.lock() {
        first.keep(text);
    }
}

/// Writes `text` to standard output (its verdict lines coloured when colour is
/// on); when the reader has gone, exits quietly.
pub fn write(text: &str) {
    if text.is_empty() {
        // Nothing shown is no report (the error object still goes out).
        return;
    }
    WROTE_STDOUT.store(true, Ordering::Relaxed);
    let text = super::global::paint_report(text);
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Exit::BrokenPipe.exit_now();
        }
        eprintln!("error: cannot write to standard output: {e}");
        Exit::Input.exit_now();
    }
}

/// Like `print!`, through [`write()`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::write(&format!($($arg)*)) };
}

/// Like `println!`, through [`write()`].
macro_rules! outln {
    () => { $crate::cli::output::write("\n") };
    ($($arg:tt)*) => { $crate::cli::output::write(&format!("{}\n", format!($($arg)*))) };
}

/// Like `eprintln!("error: …")`, through [`diagnostic`] (which keeps the
/// first error for the JSON error object).
macro_rules! errorln {
    ($($arg:tt)*) => {
        $crate::cli::output::diagnostic(&format!("error: {}\n", format!($($arg)*)))
    };
}

/// Writes a typed report as one JSON line (keys in alphabetical order).
pub fn json<T: serde::Serialize + ?Sized>(report: &T) {
    write(&txverify_clients::report::json_line(report));
}

/// Reports a failure: its diagnostic on standard error and, when `json` is
/// given (`--format json`), its error object on standard output; returns its
/// exit status.
pub fn failure(
    failure: &txverify_clients::report::Failure,
    json: Option<txverify_clients::report::ErrorReport>,
) -> Exit {
    diagnostic(&failure.stderr_text());
    if let Some(report) = json {
        self::json(&report);
    }
    Exit::from(failure.status)
}
