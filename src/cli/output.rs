//! Standard output that survives a closed pipe (`txverify check … | head`).

use std::io::Write;

/// Exit status after the reader of standard output went away (as a shell reports SIGPIPE).
const EXIT_BROKEN_PIPE: i32 = 141;

/// Writes `text` to standard output; when the reader has gone, exits quietly.
pub fn write(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(EXIT_BROKEN_PIPE);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// Like `print!`, through [`write`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::write(&format!($($arg)*)) };
}

/// Like `println!`, through [`write`].
macro_rules! outln {
    () => { $crate::cli::output::write("\n") };
    ($($arg:tt)*) => { $crate::cli::output::write(&format!("{}\n", format!($($arg)*))) };
}
