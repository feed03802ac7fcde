//! The command examples of the docs, as tests: every ```` ```console ```` block
//! of README.md and docs/*.md is run and its output compared, so a document
//! cannot drift from the program it describes.
//!
//! A block holds commands (`$ txverify …`, continued on `> ` lines), each
//! optionally followed by `? N` (its exit status; 0 when absent) and then the
//! output it prints, standard error included. In the expected output a line
//! `...` stands for any number of lines and `[..]` for any text within a line:
//! the marks for what depends on the machine (seconds, memory) or is too long
//! to print. Commands run in a scratch directory per document, where
//! `tables/`, `examples/`, `tests/`, `proofs/`, `campaign/` and `docs/` point
//! at the repository's: the paths of the docs work, and what an example writes
//! (`-o FILE`) lands in the scratch directory, where the next example of the
//! same document may read it.
//!
//! With `TXVERIFY_DOCS=overwrite` the outputs found are written into the
//! documents instead (review the diff: the `[..]` marks are kept only where
//! the line still matches).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The repository's folders an example may name.
const LINKED: [&str; 7] = [
    "tables", "examples", "tests", "proofs", "campaign", "docs", "scripts",
];

/// The longest one example may run (a debug build, on a loaded machine).
const TIMEOUT: Duration = Duration::from_secs(300);

/// One command of a console block and what it must print.
#[derive(Clone, Debug)]
pub struct Example {
    /// The line of the `$`, from 1.
    pub line: usize,
    /// The command's words (the first is `txverify`).
    pub words: Vec<String>,
    /// The exit status expected.
    pub status: i32,
    /// The lines of output expected (0-based line range in the document).
    pub output: std::ops::Range<usize>,
}

/// A mistake in how a document writes its examples.
#[derive(Debug)]
pub struct Malformed {
    pub line: usize,
    pub message: String,
}

/// The examples of `text`, or what is malformed in it: a `$ ` line outside a
/// console block (an example nobody runs), a command that is not txverify's,
/// an unreadable `? N`, an unclosed block.
pub fn examples(text: &str) -> Result<Vec<Example>, Malformed> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(info) = line.trim_start().strip_prefix("```") else {
            if line.starts_with("$ ") {
                return Err(malformed(i, "a `$` example outside a ```console block"));
            }
            i += 1;
            continue;
        };
        let info = info.trim();
        let console = info == "console";
        let close = (i + 1..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .ok_or_else(|| malformed(i, "a code block that is never closed"))?;
        if info.contains("ignore") {
            // A block the docs say cannot run here (hours of search, an MPI
            // job, data that is not in the repository): its prose says why.
        } else if console {
            block(&lines, i + 1, close, &mut found)?;
        } else if let Some(j) = (i + 1..close).find(|&j| lines[j].starts_with("$ ")) {
            return Err(malformed(
                j,
                "a `$` example outside a ```console block (make the block ```console)",
            ));
        } else if let Some(j) = (i + 1..close).find(|&j| is_concrete_command(lines[j])) {
            return Err(malformed(
                j,
                "a txverify command without placeholders outside a ```console block: an example nobody runs (make it a `$` example, or mark the block `sh,ignore` and say why it cannot run)",
            ));
        }
        i = close + 1;
    }
    Ok(found)
}

/// A line that runs txverify on named things only (no `FILE`, `NET`, `T` …
/// placeholder): an example, which must be run.
fn is_concrete_command(line: &str) -> bool {
    let line = line.trim_start();
    let Some(command) = line.strip_prefix("txverify ") else {
        return false;
    };
    let command = command.split(" #").next().unwrap_or("");
    let placeholder = |word: &str| {
        let stem = word.trim_end_matches('…').split('.').next().unwrap_or("");
        stem.chars().any(|c| c.is_ascii_uppercase())
            && stem
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    !command
        .split(|c: char| c.is_whitespace() || "'\"=,|[]<>/".contains(c))
        .any(placeholder)
}

fn malformed(index: usize, message: &str) -> Malformed {
    Malformed {
        line: index + 1,
        message: message.to_string(),
    }
}

/// The examples of the console block of lines `start..end`.
fn block(
    lines: &[&str],
    start: usize,
    end: usize,
    found: &mut Vec<Example>,
) -> Result<(), Malformed> {
    let mut i = start;
    while i < end {
        let Some(command) = lines[i].strip_prefix("$ ") else {
            return Err(malformed(
                i,
                "a console block must start with `$ txverify …`",
            ));
        };
        let dollar = i;
        let mut text = command.to_string();
        i += 1;
        while i < end && lines[i].starts_with("> ") {
            text.push(' ');
            text.push_str(&lines[i][2..]);
            i += 1;
        }
        let mut status = 0;
        if i < end
            && let Some(code) = lines[i].strip_prefix("? ")
        {
            status = code
                .trim()
                .parse()
                .map_err(|_| malformed(i, "`? N` takes an exit status"))?;
            i += 1;
        }
        let output_start = i;
        while i < end && !lines[i].starts_with("$ ") {
            i += 1;
        }
        let words = shlex::split(&text).ok_or_else(|| malformed(dollar, "unbalanced quotes"))?;
        if words.first().map(String::as_str) != Some("txverify") {
            return Err(malformed(dollar, "a console example runs `txverify`"));
        }
        found.push(Example {
            line: dollar + 1,
            words,
            status,
            output: output_start..i,
        });
    }
    Ok(())
}

/// Whether `actual` matches `expected`, line by line: `...` matches any run
/// of lines, `[..]` any text within a line. Trailing blanks are ignored.
pub fn matches(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|k| matches(rest, &actual[k..])),
        Some((first, rest)) => {
            !actual.is_empty() && line_matches(first, actual[0]) && matches(rest, &actual[1..])
        }
    }
}

/// One line against its pattern, `[..]` matching any text.
pub fn line_matches(pattern: &str, line: &str) -> bool {
    let (pattern, line) = (pattern.trim_end(), line.trim_end());
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// A scratch directory for one document, with the repository's folders linked.
pub fn scratch(root: &Path, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("txverify-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    for folder in LINKED {
        std::os::unix::fs::symlink(root.join(folder), dir.join(folder)).expect("link");
    }
    dir
}

/// What one run printed (standard output, then standard error) and its status.
pub struct Ran {
    pub status: i32,
    pub output: String,
}

/// Runs `example` with the binary `exe` in `dir`.
pub fn run(exe: &Path, dir: &Path, example: &Example) -> Ran {
    let mut child = Command::new(exe)
        .args(&example.words[1..])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("TXVERIFY_DOCS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Read both pipes while the command runs: a long output would otherwise
    // fill a pipe and stop the command until the time-out.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status.code().unwrap_or(-1);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut output = String::from_utf8_lossy(&stdout.join().unwrap_or_default()).into_owned();
    output.push_str(&String::from_utf8_lossy(&stderr.join().unwrap_or_default()));
    Ran { status, output }
}
