//! Character-level scanning shared by every part of the parser: a cursor over one
//! stretch of the source (a header value or a table token) that reports absolute byte
//! offsets, and the lexical rules for letters and numbers.

use super::syntax::{Letter, Span, Spanned};
use super::{ParseError, ParseErrorKind};

/// COMBINING MACRON: after a letter it inverts it, like `'`.
pub(crate) const COMBINING_MACRON: char = '\u{0304}';
/// COMBINING OVERLINE, accepted like the macron.
pub(crate) const COMBINING_OVERLINE: char = '\u{0305}';

/// The ASCII letter under a precomposed letter-with-macron (`ā` → `a`), if any.
///
/// These are all the characters whose canonical decomposition is an ASCII letter
/// followed by U+0304 COMBINING MACRON.
pub(crate) fn macron_base(c: char) -> Option<char> {
    Some(match c {
        '\u{0100}' => 'A',
        '\u{0101}' => 'a',
        '\u{0112}' => 'E',
        '\u{0113}' => 'e',
        '\u{012A}' => 'I',
        '\u{012B}' => 'i',
        '\u{014C}' => 'O',
        '\u{014D}' => 'o',
        '\u{016A}' => 'U',
        '\u{016B}' => 'u',
        '\u{0232}' => 'Y',
        '\u{0233}' => 'y',
        '\u{1E20}' => 'G',
        '\u{1E21}' => 'g',
        _ => return None,
    })
}

/// Whether `c` may appear inside `{…}`.
pub(crate) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `c` can start a letter.
pub(crate) fn starts_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '{' || macron_base(c).is_some()
}

/// A letter as read, with whether it carried inversion marks.
pub(crate) struct ScannedLetter {
    /// The letter, marks folded in.
    pub letter: Spanned<Letter>,
    /// `true` when at least one `'` or overline was written.
    pub marked: bool,
}

/// A cursor over `source[pos..end]`.
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    source: &'a str,
    pos: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over `source[start..end]`; both must be char boundaries.
    pub fn new(source: &'a str, start: usize, end: usize) -> Cursor<'a> {
        Cursor {
            source,
            pos: start,
            end,
        }
    }

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The text not yet read.
    pub fn rest(&self) -> &'a str {
        &self.source[self.pos..self.end]
    }

    /// The text of a span this cursor has read.
    pub fn slice(&self, span: Span) -> &'a str {
        self.source.get(span.start..span.end).unwrap_or("")
    }

    /// The next character.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The letters of the run of plain letters ahead (`aab'{t1}`, with blanks
    /// between them unless `compact`), counted without reading them into
    /// letters: up to `limit + 1`, and the offset where the count stopped. A
    /// word's letter limit is checked with this before its letters are held.
    pub fn letters_ahead(&self, compact: bool, limit: u64) -> (u64, usize) {
        let rest = self.rest();
        let mut count = 0u64;
        let mut chars = rest.char_indices().peekable();
        while let Some(&(i, c)) = chars.peek() {
            if count > limit {
                return (count, self.pos + i);
            }
            if c.is_ascii_alphabetic() || macron_base(c).is_some() {
                count += 1;
            } else if c == '{' {
                // A braced name is one letter; an unclosed one ends the run.
                match rest[i..].find('}') {
                    Some(close) => {
                        count += 1;
                        while chars.next_if(|&(j, _)| j < i + close).is_some() {}
                    }
                    None => return (count, self.pos + i),
                }
            } else if !(matches!(c, '\'' | COMBINING_MACRON | COMBINING_OVERLINE)
                || (!compact && c.is_whitespace()))
            {
                return (count, self.pos + i);
            }
            chars.next();
        }
        (count, self.pos + rest.len())
    }

    /// Whether everything has been read.
    pub fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    /// Reads one character.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Reads `c` if it is next.
    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Skips white space.
    pub fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    /// The span of the next character (empty at the end).
    pub fn next_span(&self) -> Span {
        Span::new(self.pos, self.pos + self.peek().map_or(0, char::len_utf8))
    }

    /// How the next character reads in a message: quoted, or `end of line`.
    pub fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "end of line".to_string(),
        }
    }

    /// An [`ParseErrorKind::Expected`] error at the next character.
    pub fn expected(&self, expected: &'static str) -> ParseError {
        ParseError::new(
            ParseErrorKind::Expected {
                expected,
                found: self.found(),
            },
            self.next_span(),
        )
    }

    /// Reads a run of non-white-space characters (an item of a header value).
    pub fn item(&mut self) -> Option<Spanned<&'a str>> {
        self.skip_ws();
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
        (self.pos > start)
            .then(|| Spanned::new(&self.source[start..self.pos], Span::new(start, self.pos)))
    }

    /// Reads a letter: a name (`a`, `{t12}`, `ā`) and its inversion marks.
    ///
    /// Returns `Ok(None)`, reading nothing, when the next character cannot start a letter.
    pub fn letter(&mut self) -> Result<Option<ScannedLetter>, ParseError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let (name, mut inverse) = if c.is_ascii_alphabetic() {
            self.bump();
            (c.to_string(), false)
        } else if let Some(base) = macron_base(c) {
            self.bump();
            (base.to_string(), true)
        } else if c == '{' {
            self.bump();
            let name_start = self.pos;
            loop {
                match self.peek() {
                    Some('}') => break,
                    Some(c) if is_name_char(c) => {
                        self.bump();
                    }
                    Some(c) if !c.is_whitespace() => {
                        return Err(ParseError::new(
                            ParseErrorKind::BadNameChar(c),
                            self.next_span(),
                        ));
                    }
                    _ => {
                        return Err(ParseError::new(
                            ParseErrorKind::UnclosedBrace,
                            Span::new(start, start + 1),
                        ));
                    }
                }
            }
            let name = self.source[name_start..self.pos].to_string();
            self.bump();
            if name.is_empty() {
                return Err(ParseError::new(
                    ParseErrorKind::EmptyName,
                    Span::new(start, self.pos),
                ));
            }
            (name, false)
        } else {
            return Ok(None);
        };
        let mut marked = inverse;
        while let Some(c) = self.peek() {
            if c == '\'' || c == COMBINING_MACRON || c == COMBINING_OVERLINE {
                self.bump();
                inverse = !inverse;
                marked = true;
            } else {
                break;
            }
        }
        Ok(Some(ScannedLetter {
            letter: Spanned::new(Letter { name, inverse }, Span::new(start, self.pos)),
            marked,
        }))
    }

    /// Reads a run of ASCII digits as a number; `Ok(None)` when no digit is next.
    pub fn digits(&mut self) -> Result<Option<Spanned<u64>>, ParseError> {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.bump();
        }
        if self.pos == start {
            return Ok(None);
        }
        let text = &self.source[start..self.pos];
        let span = Span::new(start, self.pos);
        match text.parse::<u64>() {
            Ok(n) => Ok(Some(Spanned::new(n, span))),
            Err(_) => Err(ParseError::new(
                ParseErrorKind::NumberTooLarge(text.to_string()),
                span,
            )),
        }
    }
}
