//! Compressed files: gzip (always, in Rust) and zstd (with the `zstd` feature,
//! which builds the C library).
//!
//! A writer chooses by the file's name (`F.json.gz`, `F.sched.zst`); a reader
//! by the file's first bytes, its magic ([`Compression::of_magic`]), never by
//! its name, so that a pipe or a renamed file reads too. Both stream: neither
//! side holds the compressed bytes whole. The reader is
//! [`crate::load::read`], which holds the *decompressed* bytes to its limits.

use std::ffi::OsStr;
use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

/// The first bytes of a gzip member (RFC 1952).
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The first bytes of a zstd frame (RFC 8878).
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A compression format txverify knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// gzip: `.gz`.
    Gzip,
    /// Zstandard: `.zst`.
    Zstd,
}

impl Compression {
    /// The format whose magic `prefix` starts with. No text file txverify
    /// reads starts so: both magics are invalid UTF-8 (`0x8b`, `0xb5` are
    /// continuation bytes after an ASCII byte).
    pub fn of_magic(prefix: &[u8]) -> Option<Compression> {
        if prefix.starts_with(&GZIP_MAGIC) {
            Some(Compression::Gzip)
        } else if prefix.starts_with(&ZSTD_MAGIC) {
            Some(Compression::Zstd)
        } else {
            None
        }
    }

    /// The format a file named `path` is written in: by its last extension.
    pub fn of_name(path: &Path) -> Option<Compression> {
        match path.extension().and_then(OsStr::to_str) {
            Some("gz") => Some(Compression::Gzip),
            Some("zst") => Some(Compression::Zstd),
            _ => None,
        }
    }

    /// Whether this build reads and writes it.
    pub fn available(self) -> bool {
        match self {
            Compression::Gzip => true,
            Compression::Zstd => cfg!(feature = "zstd"),
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        })
    }
}

/// The extension of `path` once a compression extension is taken off:
/// `json` for `s.json` and `s.json.gz`; what tells a writer its format.
pub fn inner_extension(path: &Path) -> Option<&OsStr> {
    match Compression::of_name(path) {
        Some(_) => Path::new(path.file_stem()?).extension(),
        None => path.extension(),
    }
}

/// The error of a format this build lacks.
#[cfg(not(feature = "zstd"))]
fn unavailable(format: Compression) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!("this txverify was built without {format} (the `{format}` feature)"),
    )
}

/// A writer that compresses, or not: [`Encoder::finish`] ends the stream.
pub enum Encoder<W: Write> {
    /// No compression.
    Plain(W),
    /// gzip at the default level.
    Gzip(flate2::write::GzEncoder<W>),
    /// zstd at its default level, with the frame's checksum.
    #[cfg(feature = "zstd")]
    Zstd(zstd::stream::write::Encoder<'static, W>),
}

impl<W: Write> Encoder<W> {
    /// Writes to `inner` in `format` (`None`: as given).
    pub fn new(inner: W, format: Option<Compression>) -> io::Result<Encoder<W>> {
        Ok(match format {
            None => Encoder::Plain(inner),
            Some(Compression::Gzip) => Encoder::Gzip(flate2::write::GzEncoder::new(
                inner,
                flate2::Compression::default(),
            )),
            #[cfg(feature = "zstd")]
            Some(Compression::Zstd) => {
                let mut encoder = zstd::stream::write::Encoder::new(inner, 0)?;
                // The frame's checksum lets a reader refuse a damaged file.
                encoder.include_checksum(true)?;
                Encoder::Zstd(encoder)
            }
            #[cfg(not(feature = "zstd"))]
            Some(Compression::Zstd) => return Err(unavailable(Compression::Zstd)),
        })
    }

    /// Writes the end of the compressed stream and gives the writer back
    /// (not flushed).
    pub fn finish(self) -> io::Result<W> {
        match self {
            Encoder::Plain(w) => Ok(w),
            Encoder::Gzip(e) => e.finish(),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(e) => e.finish(),
        }
    }

    /// The writer underneath.
    pub fn get_ref(&self) -> &W {
        match self {
            Encoder::Plain(w) => w,
            Encoder::Gzip(e) => e.get_ref(),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(e) => e.get_ref(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Plain(w) => w.write(buf),
            Encoder::Gzip(e) => e.write(buf),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(e) => e.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Plain(w) => w.flush(),
            Encoder::Gzip(e) => e.flush(),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(e) => e.flush(),
        }
    }
}

impl<W: Write> fmt::Debug for Encoder<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoder::Plain(_) => "Encoder::Plain",
            Encoder::Gzip(_) => "Encoder::Gzip",
            #[cfg(feature = "zstd")]
            Encoder::Zstd(_) => "Encoder::Zstd",
        })
    }
}

/// `raw`, decompressed when its first bytes are a magic of
/// [`Compression::of_magic`], else as it is; the bytes looked at are not lost.
/// A damaged stream fails its read with a message naming the format.
pub fn decompressing<'a>(mut raw: Box<dyn Read + 'a>) -> io::Result<Box<dyn Read + 'a>> {
    let mut prefix = [0u8; ZSTD_MAGIC.len()];
    let mut seen = 0;
    while seen < prefix.len() {
        match raw.read(&mut prefix[seen..]) {
            Ok(0) => break,
            Ok(n) => seen += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let whole = io::Cursor::new(prefix[..seen].to_vec()).chain(raw);
    Ok(match Compression::of_magic(&prefix[..seen]) {
        None => Box::new(whole),
        // Concatenated members are one stream, as `gunzip` reads them.
        Some(Compression::Gzip) => Box::new(Damaged {
            format: Compression::Gzip,
            inner: flate2::read::MultiGzDecoder::new(whole),
        }),
        #[cfg(feature = "zstd")]
        Some(Compression::Zstd) => Box::new(Damaged {
            format: Compression::Zstd,
            inner: zstd::stream::read::Decoder::new(whole)?,
        }),
        #[cfg(not(feature = "zstd"))]
        Some(Compression::Zstd) => return Err(unavailable(Compression::Zstd)),
    })
}

/// A decoder whose errors say which format was being decompressed.
struct Damaged<R> {
    format: Compression,
    inner: R,
}

impl<R: Read> Read for Damaged<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            io::Error::new(
                e.kind(),
                format!("its {} data is damaged: {e}", self.format),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compressed(format: Option<Compression>, text: &[u8]) -> Vec<u8> {
        let mut e = Encoder::new(Vec::new(), format).unwrap();
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    fn read_back(bytes: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decompressing(Box::new(io::Cursor::new(bytes)))?.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn names_choose_the_writer_and_magic_the_reader() {
        assert_eq!(
            Compression::of_name(Path::new("s.json.gz")),
            Some(Compression::Gzip)
        );
        assert_eq!(
            Compression::of_name(Path::new("s.zst")),
            Some(Compression::Zstd)
        );
        assert_eq!(Compression::of_name(Path::new("s.json")), None);
        assert_eq!(
            inner_extension(Path::new("d/s.json.gz")),
            Some(OsStr::new("json"))
        );
        assert_eq!(
            inner_extension(Path::new("s.json")),
            Some(OsStr::new("json"))
        );
        assert_eq!(inner_extension(Path::new("s.gz")), None);
        let text = b"txverify-schedule\n".repeat(100);
        let gz = compressed(Some(Compression::Gzip), &text);
        assert_eq!(gz[..2], GZIP_MAGIC);
        assert!(gz.len() < text.len() / 4);
        assert_eq!(read_back(gz).unwrap(), text);
        // Plain bytes, shorter than a magic too, pass as they are.
        assert_eq!(read_back(b"ab".to_vec()).unwrap(), b"ab");
        assert_eq!(read_back(Vec::new()).unwrap(), b"");
    }

    #[test]
    fn a_damaged_stream_is_named() {
        let mut gz = compressed(Some(Compression::Gzip), &b"x".repeat(1000));
        let n = gz.len();
        gz.truncate(n - 12);
        let e = read_back(gz).unwrap_err().to_string();
        assert!(e.starts_with("its gzip data is damaged"), "{e}");
    }

    #[cfg(feature = "zstd")]
    #[test]
    fn zstd_round_trips() {
        let text = b"1 0 1 0 1\n".repeat(1000);
        let z = compressed(Some(Compression::Zstd), &text);
        assert_eq!(z[..4], ZSTD_MAGIC);
        assert_eq!(read_back(z.clone()).unwrap(), text);
        // A byte changed in the frame: refused by its checksum, not read as other text.
        let mut damaged = z;
        let middle = damaged.len() / 2;
        damaged[middle] ^= 0x20;
        let e = read_back(damaged).unwrap_err().to_string();
        assert!(e.starts_with("its zstd data is damaged"), "{e}");
    }

    #[cfg(not(feature = "zstd"))]
    #[test]
    fn zstd_is_refused_by_a_build_without_it() {
        let e = Encoder::new(Vec::new(), Some(Compression::Zstd)).unwrap_err();
        assert!(e.to_string().contains("`zstd` feature"), "{e}");
        let e = read_back(ZSTD_MAGIC.to_vec()).err().unwrap();
        assert!(e.to_string().contains("`zstd` feature"), "{e}");
    }
}
