//! Reading proofs step by step from a buffered reader: LRAT (text and
//! binary), and telling text DRAT from binary as drat-trim does, by the first
//! bytes (DRAT itself is split into steps in `lex.rs`). An LRAT proof is not
//! read ahead beyond the reader's buffer, so its check needs the memory of
//! the clauses present, whatever the proof's size.

use super::{LratMalformation, Malformation, ProofError, ProofFormat};
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

    /// Skips spaces, tabs and carriage returns, not line ends.
    fn skip_space_on_line(&mut self) -> Result<(), ProofError> {
        while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
            self.next()?;
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

/// One step of an LRAT proof.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum LratStep {
    /// Adds clause `id` with these literals, which follows from the hints.
    Add {
        id: u64,
        clause: Vec<i64>,
        hints: Vec<i64>,
    },
    /// Deletes these clauses.
    Delete(Vec<u64>),
}

/// An LRAT proof, text or binary (binary starts with `a` or `d`; text with a
/// step number), read one step at a time.
pub(super) struct LratReader<R> {
    input: Input<R>,
    binary: bool,
    /// Line of the step being read (text), or its number (binary).
    pub(super) step: usize,
}

impl<R: BufRead> LratReader<R> {
    pub(super) fn new(mut reader: R) -> Result<LratReader<R>, ProofError> {
        let binary = loop {
            match reader.fill_buf() {
                Ok(head) => break matches!(head.first(), Some(b'a' | b'd')),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(ProofError::Read(e)),
            }
        };
        Ok(LratReader {
            input: Input::new(reader),
            binary,
            step: 0,
        })
    }

    fn bad(&self, problem: LratMalformation) -> ProofError {
        ProofError::MalformedLrat {
            line: self.step,
            problem,
        }
    }

    /// The next step, or `None` at the end.
    pub(super) fn next_step(&mut self) -> Result<Option<LratStep>, ProofError> {
        if self.binary {
            self.next_binary()
        } else {
            self.next_text()
        }
    }

    fn next_binary(&mut self) -> Result<Option<LratStep>, ProofError> {
        self.step += 1;
        let tag = self.input.next()?;
        let list = |input: &mut Input<R>| -> Result<Vec<i64>, ProofError> {
            let mut list = Vec::new();
            loop {
                match input.signed()? {
                    0 => return Ok(list),
                    x => list.push(x),
                }
            }
        };
        match tag {
            None => Ok(None),
            Some(b'd') => {
                let ids = list(&mut self.input)?;
                let ids = ids.into_iter().map(|x| x.unsigned_abs()).collect();
                Ok(Some(LratStep::Delete(ids)))
            }
            Some(b'a') => {
                let id = self.input.signed()?;
                if id <= 0 {
                    return Err(self.bad(LratMalformation::NoStepNumber));
                }
                let clause = list(&mut self.input)?;
                let hints = list(&mut self.input)?;
                Ok(Some(LratStep::Add {
                    id: id as u64,
                    clause,
                    hints,
                }))
            }
            Some(b) => Err(ProofError::Malformed {
                offset: self.input.offset - 1,
                problem: Malformation::BadTag(b),
            }),
        }
    }

    fn next_text(&mut self) -> Result<Option<LratStep>, ProofError> {
        self.input.skip_space(true)?;
        self.step = self.input.line;
        let Some((_, first)) = self.input.token(false)? else {
            return Ok(None);
        };
        let id: u64 = first
            .parse()
            .map_err(|_| self.bad(LratMalformation::NoStepNumber))?;
        self.input.skip_space_on_line()?;
        if self.input.peek()? == Some(b'd') {
            // A deletion: `id d c1 c2 … 0`.
            self.input.next()?;
            let bad = LratMalformation::BadClauseNumber;
            let ids = self.numbers(bad, bad)?;
            let ids = ids
                .into_iter()
                .map(|x| u64::try_from(x).map_err(|_| self.bad(bad)))
                .collect::<Result<_, _>>()?;
            return Ok(Some(LratStep::Delete(ids)));
        }
        let clause = self.numbers(
            LratMalformation::ClauseNotEnded,
            LratMalformation::NotANumber,
        )?;
        let hints = self.numbers(
            LratMalformation::HintsNotEnded,
            LratMalformation::NotANumber,
        )?;
        Ok(Some(LratStep::Add { id, clause, hints }))
    }

    /// Numbers on the step's line up to a 0 (`unended` when the line ends
    /// first, `not_number` for a word that is no number).
    fn numbers(
        &mut self,
        unended: LratMalformation,
        not_number: LratMalformation,
    ) -> Result<Vec<i64>, ProofError> {
        let mut list = Vec::new();
        loop {
            self.input.skip_space_on_line()?;
            if matches!(self.input.peek()?, None | Some(b'\n')) {
                return Err(self.bad(unended));
            }
            let Some((_, t)) = self.input.token(false)? else {
                return Err(self.bad(unended));
            };
            let x: i64 = t.parse().map_err(|_| self.bad(not_number))?;
            if x == 0 {
                return Ok(list);
            }
            list.push(x);
        }
    }
}
