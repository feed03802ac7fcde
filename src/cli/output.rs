//! Standard output that survives a closed pipe (`txverify check … | head`),
//! coloured as `--color` says.

use super::exit::Exit;
use std::io::Write;

/// Writes `text` to standard output (its verdict lines coloured when colour is
/// on); when the reader has gone, exits quietly.
pub fn write(text: &str) {
    if text.is_empty() {
        // Nothing shown is no report (the error object still goes out).
        return;
    }
    super::failure_object::wrote_stdout();
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

/// Like `eprintln!("error: …")`, through [`super::failure_object::diagnostic`]
/// (which keeps the first error for the JSON error object).
macro_rules! errorln {
    ($($arg:tt)*) => {
        $crate::cli::failure_object::diagnostic(&format!("error: {}\n", format!($($arg)*)))
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
    super::failure_object::diagnostic(&failure.stderr_text());
    if let Some(report) = json {
        self::json(&report);
    }
    Exit::from(failure.status)
}
