//! Reading DRAT proofs step by step from a buffered reader (text and binary,
//! told apart as drat-trim does, by their first bytes; LRAT has its own reader
//! in `lrat/read.rs`). Nothing is read ahead beyond the reader's buffer, so the memory a
//! check needs is the clause database's, whatever the proof's size.

use super::{Malformation, ProofError, ProofFormat};
use std::io::{BufRead, ErrorKind, Read};

/// What a proof step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Adds a lemma.
    Add,
    /// Deletes a clause.
    Delete,
}

/// How many leading bytes decide between text and binary.
const SNIFF: usize = 10;

/// The format of a DRAT proof from its first bytes: binary when it starts with
/// `a` (no text proof does) or when one of its first ten bytes is a control
/// character other than white space, or a byte above ASCII; text otherwise.
/// An empty proof is text. Returns the format and the bytes read to tell.
pub(super) fn detect(input: &mut impl Read) -> Result<(ProofFormat, Vec<u8>), ProofError> {
    let mut head = Vec::with_capacity(SNIFF);
    input
        .take(SNIFF as u64)
        .read_to_end(&mut head)
        .map_err(ProofError::Read)?;
    let binary = head.first() == Some(&b'a')
        || head
            .iter()
            .any(|&b| (b < 0x20 && !b.is_ascii_whitespace()) || b >= 0x7f);
    let format = if binary {
        ProofFormat::Binary
    } else {
        ProofFormat::Text
    };
    Ok((format, head))
}

/// Bytes from a buffered reader, one at a time, with their offset and line.
pub(super) struct Input<R> {
    reader: R,
    /// Bytes consumed so far.
    pub(super) offset: usize,
    /// 1-based line of the next byte.
    pub(super) line: usize,
}

impl<R: BufRead> Input<R> {
    pub(super) fn new(reader: R) -> Input<R> {
        Input {
            reader,
            offset: 0,
            line: 1,
        }
    }

    /// The next byte without consuming it.
    #[inline]
    fn peek(&mut self) -> Result<Option<u8>, ProofError> {
        loop {
            match self.reader.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(ProofError::Read(e)),
            }
        }
    }

    /// The next byte.
    #[inline]
    fn next(&mut self) -> Result<Option<u8>, ProofError> {
        let b = self.peek()?;
        if let Some(b) = b {
            self.reader.consume(1);
            self.offset += 1;
            self.line += usize::from(b == b'\n');
        }
        Ok(b)
    }

    /// Skips white space; with `comments`, also lines starting with `c`.
    fn skip_space(&mut self, comments: bool) -> Result<(), ProofError> {
        while let Some(b) = self.peek()? {
            if b.is_ascii_whitespace() {
                self.next()?;
            } else if comments && b == b'c' {
                while let Some(b) = self.next()? {
                    if b == b'\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    /// The next white-space-separated token of a text proof (at most 64 bytes
    /// are kept: no number is longer), with its offset; `None` at the end.
    fn token(&mut self, comments: bool) -> Result<Option<(usize, String)>, ProofError> {
        self.skip_space(comments)?;
        let start = self.offset;
        let mut token = Vec::new();
        while let Some(b) = self.peek()? {
            if b.is_ascii_whitespace() {
                break;
            }
            self.next()?;
            if token.len() < 64 {
                token.push(b);
            }
        }
        if token.is_empty() {
            return Ok(None);
        }
        match String::from_utf8(token) {
            Ok(token) => Ok(Some((start, token))),
            Err(e) => Err(ProofError::Malformed {
                offset: start + e.utf8_error().valid_up_to(),
                problem: Malformation::NotUtf8,
            }),
        }
    }

    /// A base-128 varint of binary DRAT and LRAT (low bits first).
    fn varint(&mut self) -> Result<u64, ProofError> {
        let mut value: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(b) = self.next()? else {
                return Err(self.malformed(Malformation::UnterminatedClause));
            };
            if shift > 56 {
                return Err(self.malformed(Malformation::LiteralTooLarge));
            }
            value |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
    }

    /// A signed number of binary DRAT and LRAT: `2|x| + (x < 0)`; 0 ends a list.
    fn signed(&mut self) -> Result<i64, ProofError> {
        let code = self.varint()?;
        if code == 1 {
            return Err(self.malformed(Malformation::LiteralCodeOne));
        }
        let magnitude = (code >> 1) as i64;
        Ok(if code & 1 == 1 { -magnitude } else { magnitude })
    }

    fn malformed(&self, problem: Malformation) -> ProofError {
        ProofError::Malformed {
            offset: self.offset,
            problem,
        }
    }
}

/// A DRAT proof, read one step at a time.
pub(super) struct DratReader<R> {
    input: Input<R>,
    format: ProofFormat,
}

impl<R: BufRead> DratReader<R> {
    pub(super) fn new(reader: R, format: ProofFormat) -> DratReader<R> {
        DratReader {
            input: Input::new(reader),
            format,
        }
    }

    /// The next step, or `None` at the end of the proof.
    pub(super) fn next_step(&mut self) -> Result<Option<(Step, Vec<i64>)>, ProofError> {
        match self.format {
            ProofFormat::Binary => self.next_binary(),
            ProofFormat::Text => self.next_text(),
        }
    }

    /// Binary: `a`/`d`, then literal codes `2v + sign` as varints, then 0.
    fn next_binary(&mut self) -> Result<Option<(Step, Vec<i64>)>, ProofError> {
        let input = &mut self.input;
        let kind = match input.next()? {
            None => return Ok(None),
            Some(b'a') => Step::Add,
            Some(b'd') => Step::Delete,
            Some(b) => {
                return Err(ProofError::Malformed {
                    offset: input.offset - 1,
                    problem: Malformation::BadTag(b),
                });
            }
        };
        let mut clause = Vec::new();
        loop {
            match input.signed()? {
                0 => return Ok(Some((kind, clause))),
                l => clause.push(l),
            }
        }
    }

    /// Text: clauses ending in `0`, deletions prefixed by `d`, comment lines by `c`.
    fn next_text(&mut self) -> Result<Option<(Step, Vec<i64>)>, ProofError> {
        let input = &mut self.input;
        let mut kind = Step::Add;
        let mut clause = Vec::new();
        let mut first = true;
        loop {
            let Some((offset, token)) = input.token(first)? else {
                return if first {
                    Ok(None)
                } else {
                    Err(input.malformed(Malformation::UnterminatedClause))
                };
            };
            if first && token == "d" {
                kind = Step::Delete;
                first = false;
                continue;
            }
            first = false;
            let l: i64 = token.parse().map_err(|_| ProofError::Malformed {
                offset,
                problem: Malformation::BadToken(token.clone()),
            })?;
            if l == 0 {
                return Ok(Some((kind, clause)));
            }
            clause.push(l);
        }
    }
}
