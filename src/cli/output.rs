//! Standard output that survives a closed pipe (`txverify check … | head`),
//! coloured as `--color` says.

use super::exit::Exit;
use std::io::Write;

/// Writes `text` to standard output (its verdict lines coloured when colour is
/// on); when the reader has gone, exits quietly.
pub fn write(text: &str) {
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
