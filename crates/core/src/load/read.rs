//! Reading a file, bounded: every file txverify reads comes through here.
//!
//! A file is read **once**, as a stream (a pipe, a FIFO or standard input
//! cannot be read twice; the commands tell its kind from the text read,
//! [`super::detect`]), and `-` names standard input. The read stops, before
//! more is allocated, at:
//!
//! - the byte limit of the reader ([`ReadLimits::bytes`]): a regular file
//!   whose size is over it is refused before a byte is read, a stream once it
//!   has given one byte more (`Read::take(limit + 1)`);
//! - the per-line limit ([`ReadLimits::line`]): a line longer than it is
//!   refused as soon as that many bytes of it are read, so that a reader of
//!   records (an edge list, a link table) never holds a huge line;
//! - for text, the first NUL byte (no format txverify reads has one:
//!   `/dev/zero` is refused at its first byte) and the first byte that is not
//!   UTF-8 (`/dev/urandom`, within a few bytes).
//!
//! Text compressed with gzip or zstd is told by its first bytes and read
//! decompressed, the limits above counting the decompressed bytes (a
//! decompression bomb stops at the byte limit); see [`crate::compress`].
//!
//! The limits are in docs/limits.md with the tests that check them.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The name that stands for standard input wherever a file is read.
pub const STANDARD_INPUT: &str = "-";

/// The most bytes of a text file: a table, a schedule (text or JSON), an MSCCL
/// program, a presentation, an edge list, a link table. The text is held whole
/// while it is parsed; 256 MiB holds the largest inputs the limits allow (a
/// word of 10^7 letters, a 100 MB comment line, a schedule of millions of
/// sends) and keeps a refused stream's memory near the limit.
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

/// The most bytes of one line of an edge list or a link table: a line holds
/// two node numbers, two times and perhaps a comment, well under 100 bytes;
/// 64 KiB leaves room for any comment and keeps a reader of lines small.
pub const MAX_RECORD_LINE_BYTES: u64 = 64 << 10;

/// The most bytes of a DIMACS formula (`verify-proof --cnf`): the formulas
/// `search` writes stay within 2^23 variables and are a few hundred MB at most.
pub const MAX_FORMULA_BYTES: u64 = 4 << 30;

/// The most bytes of one clause line of a DIMACS formula: 16 MiB is a clause of
/// about two million literals, far over any clause `search` writes.
pub const MAX_FORMULA_LINE_BYTES: u64 = 16 << 20;

/// The most bytes of a DRAT or LRAT proof: a refutation `search` keeps is up
/// to a few GB (docs/search.md); the DRAT checker holds the proof whole.
pub const MAX_PROOF_BYTES: u64 = 16 << 30;

/// What a reader accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The most bytes of the file.
    pub bytes: u64,
    /// The most bytes of one line (not counting its `\n`).
    pub line: u64,
    /// Whether the file is text: a NUL byte or a byte that is not UTF-8 is
    /// refused at once.
    pub text: bool,
    /// What the file is, in words, for the messages.
    pub what: &'static str,
}

impl ReadLimits {
    /// A table, a schedule, an MSCCL program, a presentation: text, no line
    /// limit of its own (a table's word may be 10^7 letters on one line).
    pub const TEXT: ReadLimits = ReadLimits {
        bytes: MAX_TEXT_BYTES,
        line: MAX_TEXT_BYTES,
        text: true,
        what: "a file",
    };
    /// An edge list or a link table: text of short lines.
    pub const RECORDS: ReadLimits = ReadLimits {
        bytes: MAX_TEXT_BYTES,
        line: MAX_RECORD_LINE_BYTES,
        text: true,
        what: "an edge list or a link table",
    };
    /// A DIMACS formula.
    pub const FORMULA: ReadLimits = ReadLimits {
        bytes: MAX_FORMULA_BYTES,
        line: MAX_FORMULA_LINE_BYTES,
        text: true,
        what: "a DIMACS formula",
    };
    /// A DRAT or LRAT proof, text or binary.
    pub const PROOF: ReadLimits = ReadLimits {
        bytes: MAX_PROOF_BYTES,
        line: u64::MAX,
        text: false,
        what: "a proof",
    };
}

/// Why a file was not read. The message does not name the file: the callers
/// say `cannot read FILE: …`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The operating system's reason.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// More bytes than the limit.
    #[error("it is longer than {limit} bytes ({}), the most txverify reads of {what}", in_units(*limit))]
    TooLarge {
        /// The limit.
        limit: u64,
        /// [`ReadLimits::what`].
        what: &'static str,
    },
    /// A line longer than the limit.
    #[error("line {line} is longer than {limit} bytes ({}), the most txverify reads of a line of {what}", in_units(*limit))]
    LineTooLong {
        /// The line, 1-based.
        line: u64,
        /// The limit.
        limit: u64,
        /// [`ReadLimits::what`].
        what: &'static str,
    },
    /// A NUL byte in text.
    #[error("line {line}, column {column}: a NUL byte (`\\0`): txverify reads text")]
    Nul {
        /// 1-based.
        line: u64,
        /// 1-based, in characters.
        column: u64,
    },
    /// Bytes that are not UTF-8.
    #[error("line {line}, column {column}: not valid UTF-8 text")]
    NotUtf8 {
        /// 1-based.
        line: u64,
        /// 1-based, in characters.
        column: u64,
    },
}

impl ReadError {
    /// The 1-based line and column it points at, when it points somewhere.
    pub fn at(&self) -> Option<(usize, usize)> {
        match self {
            ReadError::Nul { line, column } | ReadError::NotUtf8 { line, column } => {
                Some((*line as usize, *column as usize))
            }
            ReadError::LineTooLong { line, .. } => Some((*line as usize, 1)),
            _ => None,
        }
    }
}

/// `268435456` as `256 MiB`.
fn in_units(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

/// The stream's position and the checks of [`ReadLimits`], byte by byte.
#[derive(Clone, Debug)]
struct Guard {
    limits: ReadLimits,
    read: u64,
    line: u64,
    /// Bytes of the current line so far.
    line_bytes: u64,
    /// Characters of the current line so far (UTF-8 lead bytes).
    column: u64,
}

impl Guard {
    fn new(limits: ReadLimits) -> Guard {
        Guard {
            limits,
            read: 0,
            line: 1,
            line_bytes: 0,
            column: 0,
        }
    }

    /// Takes the next bytes of the stream.
    fn scan(&mut self, chunk: &[u8]) -> Result<(), ReadError> {
        let limits = self.limits;
        self.read += chunk.len() as u64;
        if self.read > limits.bytes {
            return Err(ReadError::TooLarge {
                limit: limits.bytes,
                what: limits.what,
            });
        }
        if !limits.text && limits.line == u64::MAX {
            return Ok(());
        }
        for &b in chunk {
            if b == b'\n' {
                self.line += 1;
                self.line_bytes = 0;
                self.column = 0;
                continue;
            }
            self.line_bytes += 1;
            if b & 0xc0 != 0x80 {
                self.column += 1;
            }
            if limits.text && b == 0 {
                return Err(ReadError::Nul {
                    line: self.line,
                    column: self.column,
                });
            }
            if self.line_bytes > limits.line {
                return Err(ReadError::LineTooLong {
                    line: self.line,
                    limit: limits.line,
                    what: limits.what,
                });
            }
        }
        Ok(())
    }
}

/// A stream read under [`ReadLimits`]: past a limit, a read fails with
/// [`std::io::ErrorKind::InvalidData`] holding the [`ReadError`] (see
/// [`Bounded::refusal`]). For readers that stream (a DIMACS formula, a proof).
pub struct Bounded<R> {
    inner: std::io::Take<R>,
    guard: Guard,
    refused: Option<String>,
}

impl<R: Read> Bounded<R> {
    /// `inner`, read under `limits`.
    pub fn new(inner: R, limits: ReadLimits) -> Bounded<R> {
        Bounded {
            inner: inner.take(limits.bytes.saturating_add(1)),
            guard: Guard::new(limits),
            refused: None,
        }
    }

    /// The message of the limit the stream went over, if it did: the reader
    /// the stream was given to may have wrapped the error in its own.
    pub fn refusal(&self) -> Option<&str> {
        self.refused.as_deref()
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Err(e) = self.guard.scan(&buf[..n]) {
            self.refused = Some(e.to_string());
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e));
        }
        Ok(n)
    }
}

impl<R> fmt::Debug for Bounded<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bounded")
            .field("guard", &self.guard)
            .finish()
    }
}

/// Opens `path` (`-`: standard input) as a stream under `limits`; a regular
/// file over the byte limit is refused before it is read. Text compressed
/// with gzip or zstd ([`crate::compress`]) is decompressed as it is read, and
/// the limits count the decompressed bytes: a small file that decompresses
/// past them is refused there, having never been held whole.
pub fn open(path: &Path, limits: ReadLimits) -> Result<Bounded<Box<dyn Read>>, ReadError> {
    let raw = opened(path, limits)?;
    // Text may come compressed (a schedule written to `F.json.gz`): told by
    // its first bytes, and the limits hold the bytes decompressed.
    let raw = match limits.text {
        true => crate::compress::decompressing(raw)?,
        false => raw,
    };
    Ok(Bounded::new(raw, limits))
}

/// `path` (`-`: standard input) opened; a regular file over the byte limit is
/// refused before it is read.
fn opened(path: &Path, limits: ReadLimits) -> Result<Box<dyn Read>, ReadError> {
    if path.as_os_str() == STANDARD_INPUT {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a directory",
        )));
    }
    if meta.is_file() && meta.len() > limits.bytes {
        return Err(ReadError::TooLarge {
            limit: limits.bytes,
            what: limits.what,
        });
    }
    Ok(Box::new(file))
}

/// The most bytes of a stream (a pipe, a FIFO, standard input, a device) held
/// in memory while it is read: past them the bytes go to a temporary file
/// (unlinked at once) until the stream ends, and come back whole only if it
/// ends within the byte limit. An endless stream is then refused at the limit
/// holding 64 MiB, not the limit's 256 MiB; a regular file's size is known
/// before it is read, and it is read straight into memory.
pub const MAX_HELD_STREAM_BYTES: u64 = 64 << 20;

/// The bytes of `path` (`-`: standard input), read once under `limits`.
pub fn read_bytes(path: &Path, limits: ReadLimits) -> Result<Vec<u8>, ReadError> {
    let stream = open(path, limits)?;
    let regular =
        path.as_os_str() != STANDARD_INPUT && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    let hold = if regular {
        u64::MAX
    } else {
        MAX_HELD_STREAM_BYTES
    };
    read_held(stream, hold)
}

/// The bytes read so far: in memory, or past [`MAX_HELD_STREAM_BYTES`] in a file.
enum Held {
    Memory(Vec<u8>),
    Spilled(std::fs::File),
}

impl Held {
    fn push(&mut self, bytes: &[u8], hold: u64) -> Result<(), ReadError> {
        use std::io::Write;
        if let Held::Memory(held) = self
            && (held.len() + bytes.len()) as u64 > hold
            && let Some(mut file) = spill_file()
        {
            file.write_all(held)?;
            *self = Held::Spilled(file);
        }
        match self {
            Held::Memory(held) => held.extend_from_slice(bytes),
            Held::Spilled(file) => file.write_all(bytes)?,
        }
        Ok(())
    }

    fn into_bytes(self) -> Result<Vec<u8>, ReadError> {
        use std::io::{Seek, SeekFrom};
        match self {
            Held::Memory(held) => Ok(held),
            Held::Spilled(mut file) => {
                let len = file.seek(SeekFrom::End(0))?;
                file.seek(SeekFrom::Start(0))?;
                let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
                file.read_to_end(&mut bytes)?;
                Ok(bytes)
            }
        }
    }
}

/// A new temporary file, already unlinked where the system allows it (nothing
/// is left behind by a killed process); none if it cannot be made (the
/// stream is then held in memory).
fn spill_file() -> Option<std::fs::File> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static MADE: AtomicU64 = AtomicU64::new(0);
    let name = format!(
        "txverify-stream-{}-{}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    );
    let path = std::env::temp_dir().join(name);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .ok()?;
    let _ = std::fs::remove_file(&path);
    Some(file)
}

/// Where a stream's bytes are after `bytes`, from `(line, column)`: the
/// 1-based line and the characters before the next one on it (as [`Guard`]).
fn advance((mut line, mut column): (u64, u64), bytes: &[u8]) -> (u64, u64) {
    for &b in bytes {
        if b == b'\n' {
            line += 1;
            column = 0;
        } else if b & 0xc0 != 0x80 {
            column += 1;
        }
    }
    (line, column)
}

/// `stream` read to its end, holding at most `hold` bytes in memory (the rest
/// in a temporary file until the end).
fn read_held<R: Read>(mut stream: Bounded<R>, hold: u64) -> Result<Vec<u8>, ReadError> {
    let text = stream.guard.limits.text;
    let mut held = Held::Memory(Vec::new());
    let mut chunk = vec![0u8; 1 << 16];
    // UTF-8 is checked as it comes, so that binary input stops early; the
    // bytes of a character cut by a chunk's end wait for the next one, with
    // where they start.
    let mut pending: Vec<u8> = Vec::new();
    let mut pending_at = (1, 0);
    loop {
        let n = match stream.inner.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        let before = (stream.guard.line, stream.guard.column);
        stream.guard.scan(&chunk[..n])?;
        if text {
            let (data, at) = if pending.is_empty() {
                (&chunk[..n], before)
            } else {
                pending.extend_from_slice(&chunk[..n]);
                (&pending[..], pending_at)
            };
            let cut = match std::str::from_utf8(data) {
                Ok(_) => data.len(),
                Err(e) if e.error_len().is_some() => {
                    let (line, column) = advance(at, &data[..e.valid_up_to()]);
                    return Err(ReadError::NotUtf8 {
                        line,
                        column: column + 1,
                    });
                }
                Err(e) => e.valid_up_to(),
            };
            let rest = data[cut..].to_vec();
            pending_at = advance(at, &data[..cut]);
            pending = rest;
        }
        held.push(&chunk[..n], hold)?;
    }
    if !pending.is_empty() {
        return Err(ReadError::NotUtf8 {
            line: pending_at.0,
            column: pending_at.1 + 1,
        });
    }
    held.into_bytes()
}

/// The text of `path` (`-`: standard input), read once under `limits`
/// (which must be for text), a leading byte-order mark dropped.
pub fn read_text(path: &Path, limits: ReadLimits) -> Result<String, ReadError> {
    let bytes = read_bytes(
        path,
        ReadLimits {
            text: true,
            ..limits
        },
    )?;
    let text = String::from_utf8(bytes).map_err(|e| not_utf8(e.as_bytes(), 0))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The refusal of the bytes at `offset`.
fn not_utf8(bytes: &[u8], offset: usize) -> ReadError {
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    ReadError::NotUtf8 {
        line: 1 + before.iter().filter(|&&b| b == b'\n').count() as u64,
        column: 1 + before[line_start..]
            .iter()
            .filter(|&&b| b & 0xc0 != 0x80)
            .count() as u64,
    }
}

/// How a file is named in messages: as given, `-` for standard input.
pub fn shown(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(bytes: &[u8], limits: ReadLimits) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let mut b = Bounded::new(bytes, limits);
        b.read_to_end(&mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// A stream over what is held in memory goes on in a temporary file: it
    /// comes back whole within the byte limit, is refused past it, and a
    /// byte that is not UTF-8 is placed as in memory.
    #[test]
    fn a_long_stream_is_held_in_a_file_and_comes_back_whole() {
        let limits = ReadLimits {
            bytes: 5_000,
            ..ReadLimits::TEXT
        };
        let text: Vec<u8> = "é ab\n".repeat(600).into_bytes();
        assert_eq!(text.len(), 3_600);
        // Characters cut by every chunk's end, and the spill in mid-stream.
        let held = read_held(Bounded::new(&text[..], limits), 1_000).unwrap();
        assert_eq!(held, text);
        let over = "x".repeat(6_000).into_bytes();
        let refused = read_held(Bounded::new(&over[..], limits), 1_000).unwrap_err();
        assert!(
            matches!(refused, ReadError::TooLarge { limit: 5_000, .. }),
            "{refused}"
        );
        let mut bad = text.clone();
        bad[3_000] = 0xff; // line 501, after `é ab\n` × 500
        let at = read_held(Bounded::new(&bad[..], limits), 1_000).unwrap_err();
        assert!(
            matches!(
                at,
                ReadError::NotUtf8 {
                    line: 501,
                    column: 1
                }
            ),
            "{at}"
        );
        bad.truncate(3_003);
        bad[3_000] = b'a';
        bad[3_001] = b'b';
        bad[3_002] = 0xc3; // a character cut by the end of the stream
        let cut = read_held(Bounded::new(&bad[..], limits), 1_000).unwrap_err();
        assert!(
            matches!(
                cut,
                ReadError::NotUtf8 {
                    line: 501,
                    column: 3
                }
            ),
            "{cut}"
        );
    }

    #[test]
    fn a_stream_stops_at_its_first_nul_and_at_a_long_line() {
        let e = stream(b"ab\ncd\0", ReadLimits::TEXT).unwrap_err();
        assert_eq!(
            e,
            "line 2, column 3: a NUL byte (`\\0`): txverify reads text"
        );
        let line = vec![b'7'; 70_000];
        let e = stream(&line, ReadLimits::RECORDS).unwrap_err();
        assert!(
            e.starts_with("line 1 is longer than 65536 bytes (64 KiB)"),
            "{e}"
        );
        let small = ReadLimits {
            bytes: 4,
            ..ReadLimits::TEXT
        };
        assert!(stream(b"1234", small).is_ok());
        assert!(
            stream(b"12345", small)
                .unwrap_err()
                .contains("longer than 4 bytes")
        );
        // A proof is binary: NULs are its terminators.
        assert!(stream(b"a\x02\0", ReadLimits::PROOF).is_ok());
    }

    /// gzip of `text`, as `search -o F.gz` writes it.
    fn gzip(text: &[u8]) -> Vec<u8> {
        use std::io::Write as _;
        let mut e =
            crate::compress::Encoder::new(Vec::new(), Some(crate::compress::Compression::Gzip))
                .unwrap();
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn compressed_text_is_read_decompressed_and_limited_decompressed() {
        let dir = std::env::temp_dir().join(format!("txverify-read-gz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.json.gz");
        let text = "{\"schema\": \"txverify-schedule/1\"}\n".repeat(50);
        std::fs::write(&path, gzip(text.as_bytes())).unwrap();
        assert_eq!(read_text(&path, ReadLimits::TEXT).unwrap(), text);
        // A bomb: 64 members of 64 KiB of `a` each, a few KB on the disk, 4 MiB
        // decompressed, refused at a 1 MiB limit (counted decompressed).
        let member = gzip(&[b'a'; 64 << 10]);
        std::fs::write(&path, member.repeat(64)).unwrap();
        let limit = ReadLimits {
            bytes: 1 << 20,
            ..ReadLimits::TEXT
        };
        assert!(std::fs::metadata(&path).unwrap().len() < limit.bytes / 16);
        assert!(matches!(
            read_text(&path, limit),
            Err(ReadError::TooLarge { limit: 1048576, .. })
        ));
        // The checks of text apply to the decompressed bytes.
        std::fs::write(&path, gzip(b"ok\nx\0")).unwrap();
        let e = read_text(&path, ReadLimits::TEXT).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 2: a NUL byte (`\\0`): txverify reads text"
        );
        // A proof is not text: its bytes are read as they are.
        std::fs::write(&path, gzip(b"a")).unwrap();
        assert_eq!(read_bytes(&path, ReadLimits::PROOF).unwrap(), gzip(b"a"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn text_is_utf8_checked_with_its_place() {
        let dir = std::env::temp_dir().join(format!("txverify-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.txt");
        std::fs::write(&path, b"\xef\xbb\xbfok\n\xc3\xa9x\xff").unwrap();
        let e = read_text(&path, ReadLimits::TEXT).unwrap_err();
        assert_eq!(e.to_string(), "line 2, column 3: not valid UTF-8 text");
        std::fs::write(&path, "\u{feff}é\n").unwrap();
        assert_eq!(read_text(&path, ReadLimits::TEXT).unwrap(), "é\n");
        let tiny = ReadLimits {
            bytes: 2,
            ..ReadLimits::TEXT
        };
        assert!(matches!(
            read_text(&path, tiny),
            Err(ReadError::TooLarge { limit: 2, .. })
        ));
        let _ = std::fs::remove_dir_all(dir);
    }
}
