//! Reading an LRAT proof, text or binary, one step at a time into buffers the
//! checker reuses, so that a step costs no allocation.
//!
//! The bytes come through a buffer of our own (filled from the reader in large
//! blocks) and numbers are decoded straight from it: the reader is the
//! checker's hot loop on proofs of hundreds of megabytes. Binary LRAT starts
//! with `a` or `d` (as drat-trim and CaDiCaL write it); text with a step number.

use super::super::{LratMalformation, Malformation, ProofError};
use std::io::{ErrorKind, Read};

/// The size of the block read at a time.
const BLOCK: usize = 1 << 18;

/// What the step just read does; its literals and hints are in the reader's buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Adds clause `id` ([`StepReader::clause`]), which follows from
    /// [`StepReader::hints`].
    Add(u64),
    /// Deletes the clauses numbered in [`StepReader::hints`].
    Delete,
}

/// An LRAT proof read one step at a time.
pub(super) struct StepReader<R> {
    reader: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// Bytes of the proof before `buf[0]`.
    base: usize,
    /// 1-based line of the byte at `pos` (text).
    line: usize,
    binary: bool,
    /// Line of the step just read (text), or its number (binary).
    pub(super) step: usize,
    /// The literals of the clause just added.
    pub(super) clause: Vec<i64>,
    /// The hints of the clause just added, or the clauses just deleted.
    pub(super) hints: Vec<i64>,
}

impl<R: Read> StepReader<R> {
    pub(super) fn new(reader: R) -> Result<StepReader<R>, ProofError> {
        let mut steps = StepReader {
            reader,
            buf: vec![0; BLOCK],
            pos: 0,
            end: 0,
            base: 0,
            line: 1,
            binary: false,
            step: 0,
            clause: Vec::new(),
            hints: Vec::new(),
        };
        steps.binary = matches!(steps.peek()?, Some(b'a' | b'd'));
        Ok(steps)
    }

    /// Reads the next step; `None` at the end of the proof.
    pub(super) fn next_step(&mut self) -> Result<Option<Kind>, ProofError> {
        self.clause.clear();
        self.hints.clear();
        if self.binary {
            self.next_binary()
        } else {
            self.next_text()
        }
    }

    fn bad(&self, problem: LratMalformation) -> ProofError {
        ProofError::MalformedLrat {
            line: self.step,
            problem,
        }
    }

    fn malformed(&self, offset: usize, problem: Malformation) -> ProofError {
        ProofError::Malformed { offset, problem }
    }

    fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Refills the buffer when it is used up; false at the end of the proof.
    #[cold]
    fn refill(&mut self) -> Result<bool, ProofError> {
        self.base += self.end;
        self.pos = 0;
        self.end = 0;
        loop {
            match self.reader.read(&mut self.buf) {
                Ok(n) => {
                    self.end = n;
                    return Ok(n > 0);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(ProofError::Read(e)),
            }
        }
    }

    #[inline]
    fn peek(&mut self) -> Result<Option<u8>, ProofError> {
        if self.pos == self.end && !self.refill()? {
            return Ok(None);
        }
        Ok(Some(self.buf[self.pos]))
    }

    #[inline]
    fn next(&mut self) -> Result<Option<u8>, ProofError> {
        let b = self.peek()?;
        if let Some(b) = b {
            self.pos += 1;
            self.line += usize::from(b == b'\n');
        }
        Ok(b)
    }

    fn next_binary(&mut self) -> Result<Option<Kind>, ProofError> {
        self.step += 1;
        let kind = match self.next()? {
            None => return Ok(None),
            Some(b'a') => {
                let id = self.signed()?;
                if id <= 0 {
                    return Err(self.bad(LratMalformation::NoStepNumber));
                }
                self.binary_list(false)?;
                Kind::Add(id as u64)
            }
            Some(b'd') => Kind::Delete,
            Some(b) => return Err(self.malformed(self.offset() - 1, Malformation::BadTag(b))),
        };
        self.binary_list(true)?;
        if kind == Kind::Delete {
            for h in &mut self.hints {
                *h = h.abs();
            }
        }
        Ok(Some(kind))
    }

    /// Numbers up to a 0, into the hints (or the clause).
    fn binary_list(&mut self, hints: bool) -> Result<(), ProofError> {
        loop {
            match self.signed()? {
                0 => return Ok(()),
                x if hints => self.hints.push(x),
                x => self.clause.push(x),
            }
        }
    }

    /// A number of binary LRAT: a base-128 varint (low bits first) of `2|x| + (x < 0)`.
    fn signed(&mut self) -> Result<i64, ProofError> {
        let mut code: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(b) = self.next()? else {
                return Err(self.malformed(self.offset(), Malformation::UnterminatedClause));
            };
            if shift > 56 {
                return Err(self.malformed(self.offset(), Malformation::LiteralTooLarge));
            }
            code |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        if code == 1 {
            return Err(self.malformed(self.offset(), Malformation::LiteralCodeOne));
        }
        let magnitude = (code >> 1) as i64;
        Ok(if code & 1 == 1 { -magnitude } else { magnitude })
    }

    /// Skips white space and comment lines (`c …`) before a step.
    fn skip_to_step(&mut self) -> Result<(), ProofError> {
        while let Some(b) = self.peek()? {
            if b.is_ascii_whitespace() {
                self.next()?;
            } else if b == b'c' {
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

    fn next_text(&mut self) -> Result<Option<Kind>, ProofError> {
        self.skip_to_step()?;
        self.step = self.line;
        if self.peek()?.is_none() {
            return Ok(None);
        }
        let id = match self.number()? {
            Number::Value(id) if id >= 0 => id as u64,
            _ => return Err(self.bad(LratMalformation::NoStepNumber)),
        };
        self.skip_on_line()?;
        if self.peek()? == Some(b'd') {
            self.next()?;
            let bad = LratMalformation::BadClauseNumber;
            self.text_list(true, bad, bad)?;
            if self.hints.iter().any(|&h| h < 0) {
                return Err(self.bad(bad));
            }
            return Ok(Some(Kind::Delete));
        }
        use LratMalformation::{ClauseNotEnded, HintsNotEnded, NotANumber};
        self.text_list(false, ClauseNotEnded, NotANumber)?;
        self.text_list(true, HintsNotEnded, NotANumber)?;
        Ok(Some(Kind::Add(id)))
    }

    /// Skips spaces, tabs and carriage returns, not line ends.
    fn skip_on_line(&mut self) -> Result<(), ProofError> {
        while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
            self.pos += 1;
        }
        Ok(())
    }

    /// Numbers on the step's line up to a 0, into the hints (or the clause).
    fn text_list(
        &mut self,
        hints: bool,
        unended: LratMalformation,
        not_number: LratMalformation,
    ) -> Result<(), ProofError> {
        loop {
            self.skip_on_line()?;
            if matches!(self.peek()?, None | Some(b'\n')) {
                return Err(self.bad(unended));
            }
            match self.number()? {
                Number::Value(0) => return Ok(()),
                Number::Value(x) if hints => self.hints.push(x),
                Number::Value(x) => self.clause.push(x),
                Number::NotANumber => return Err(self.bad(not_number)),
            }
        }
    }

    /// The token at the current position (up to white space) as a number.
    fn number(&mut self) -> Result<Number, ProofError> {
        let start = self.offset();
        let negative = self.peek()? == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let mut value: i64 = 0;
        let mut digits = 0;
        let mut junk = false;
        let mut wide = false;
        while let Some(b) = self.peek()? {
            match b {
                b'0'..=b'9' => {
                    digits += 1;
                    let next = value
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(i64::from(b - b'0')));
                    value = next.unwrap_or_else(|| {
                        junk = true;
                        0
                    });
                }
                b if b.is_ascii_whitespace() => break,
                b => {
                    junk = true;
                    wide |= b >= 0x80;
                }
            }
            self.pos += 1;
        }
        if wide {
            return Err(self.malformed(start, Malformation::NotUtf8));
        }
        if junk || digits == 0 {
            return Ok(Number::NotANumber);
        }
        Ok(Number::Value(if negative { -value } else { value }))
    }
}

/// A token of a text proof.
enum Number {
    Value(i64),
    NotANumber,
}
