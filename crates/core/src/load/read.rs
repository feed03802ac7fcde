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

/// The bytes of `path` (`-`: standard input), read once under `limits`.
pub fn read_bytes(path: &Path, limits: ReadLimits) -> Result<Vec<u8>, ReadError> {
    let mut stream = open(path, limits)?;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut checked = 0;
    loop {
        let n = match stream.inner.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        stream.guard.scan(&chunk[..n])?;
        bytes.extend_from_slice(&chunk[..n]);
        if limits.text {
            // UTF-8 checked as it comes, so that binary input stops early; a
            // character cut by the chunk's end waits for the next one.
            match std::str::from_utf8(&bytes[checked..]) {
                Ok(_) => checked = bytes.len(),
                Err(e) if e.error_len().is_some() => {
                    return Err(not_utf8(&bytes, checked + e.valid_up_to()));
                }
                Err(e) => checked += e.valid_up_to(),
            }
        }
    }
    if limits.text && checked < bytes.len() {
        return Err(not_utf8(&bytes, checked));
    }
    Ok(bytes)
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
