//! The parser: a `.tbl` text into a [`TblFile`] with spans.
//!
//! The file is read line by line (header lines, the `table:` line, rows, `end`); each
//! header value and each row is then read by a small recursive-descent parser over a
//! [`Cursor`].

use super::lexer::{Cursor, is_name_char, starts_letter};
use super::lower::{MAX_EXPONENT, MAX_RELATOR_LETTERS};
use super::syntax::{
    Atom, Expectation, Factor, GroupSyntax, Letter, MessagesSyntax, PresentationSyntax, Relation,
    Row, RowToken, Span, Spanned, TblFile, WordExpr,
};
use super::{ParseError, ParseErrorKind};
use crate::network::NetworkName;

/// How deeply parentheses, commutators and presentations may nest inside a word.
pub const MAX_NESTING: usize = 64;

/// The largest hypercube dimension `network:` accepts.
pub const MAX_HYPERCUBE_DIMENSION: u64 = 32;

/// Parses a whole `.tbl` file.
///
/// The header must be followed by a `table:` line (a header-only file ends with
/// it); a file without one is malformed, and the error points after its last
/// line. The `group:` line is required. See `docs/tbl-format.md` for the grammar.
pub fn parse(source: &str) -> Result<TblFile, ParseError> {
    let mut header = Header::default();
    let mut state = State::Header;
    let mut table_span = None;
    let mut rows = Vec::new();
    let mut line_start = 0;
    for (index, raw) in source.split('\n').enumerate() {
        let line_number = index + 1;
        let start = line_start;
        line_start += raw.len() + 1;
        let text = raw.strip_suffix('\r').unwrap_or(raw);
        let content = match text.find('#') {
            Some(i) => &text[..i],
            None => text,
        };
        let trimmed = content.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lead = content.len() - content.trim_start().len();
        let span = Span::new(start + lead, start + lead + trimmed.len());
        match state {
            State::Header => {
                let Some(colon) = trimmed.find(':') else {
                    return Err(ParseError::new(ParseErrorKind::ExpectedKey, span));
                };
                let key_text = trimmed[..colon].trim_end();
                let key_span = Span::new(span.start, span.start + key_text.len());
                let value_text = &trimmed[colon + 1..];
                let value_lead = value_text.len() - value_text.trim_start().len();
                let value_start = span.start + colon + 1 + value_lead;
                let value_span = Span::new(value_start, span.end);
                let Some(key) = Key::from_text(key_text) else {
                    return Err(ParseError::new(
                        ParseErrorKind::UnknownKey(key_text.to_string()),
                        key_span,
                    ));
                };
                if key == Key::Table {
                    if value_span.start < value_span.end {
                        return Err(ParseError::new(ParseErrorKind::JunkAfterTable, value_span));
                    }
                    table_span = Some(Span::new(span.start, span.start + colon + 1));
                    state = State::Table;
                    continue;
                }
                if value_span.start >= value_span.end {
                    return Err(ParseError::new(
                        ParseErrorKind::EmptyValue(key.name().to_string()),
                        Span::new(span.start, span.start + colon + 1),
                    ));
                }
                header.set(source, key, key_span, value_span, line_number)?;
            }
            State::Table => {
                if trimmed.eq_ignore_ascii_case("end") {
                    state = State::AfterEnd;
                    continue;
                }
                if let Some(colon) = trimmed.find(':')
                    && let Some(key) = Key::from_text(trimmed[..colon].trim_end())
                {
                    return Err(ParseError::new(
                        ParseErrorKind::HeaderAfterTable(key.name().to_string()),
                        Span::new(span.start, span.start + colon + 1),
                    ));
                }
                rows.push(parse_row(source, span, line_number)?);
            }
            State::AfterEnd => {
                return Err(ParseError::new(ParseErrorKind::TrailingAfterEnd, span));
            }
        }
    }
    let Some(group) = header.group else {
        let span = table_span.unwrap_or(Span::new(source.len(), source.len()));
        return Err(ParseError::new(ParseErrorKind::MissingGroup, span));
    };
    if table_span.is_none() {
        let end = source.trim_end().len();
        return Err(ParseError::new(
            ParseErrorKind::MissingTable,
            Span::new(end, end),
        ));
    }
    Ok(TblFile {
        name: header.name,
        source: header.source,
        group,
        links: header.links,
        messages: header.messages,
        ports: header.ports,
        network: header.network,
        certificates: header.certificates,
        expect: header.expect,
        rows,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Header,
    Table,
    AfterEnd,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Key {
    Name,
    Source,
    Group,
    Links,
    Messages,
    Ports,
    Network,
    Certificates,
    Expect,
    Table,
}

const KEYS: [Key; 10] = [
    Key::Name,
    Key::Source,
    Key::Group,
    Key::Links,
    Key::Messages,
    Key::Ports,
    Key::Network,
    Key::Certificates,
    Key::Expect,
    Key::Table,
];

impl Key {
    fn name(self) -> &'static str {
        match self {
            Key::Name => "name",
            Key::Source => "source",
            Key::Group => "group",
            Key::Links => "links",
            Key::Messages => "messages",
            Key::Ports => "ports",
            Key::Network => "network",
            Key::Certificates => "certificates",
            Key::Expect => "expect",
            Key::Table => "table",
        }
    }

    fn from_text(text: &str) -> Option<Key> {
        KEYS.into_iter()
            .find(|key| key.name().eq_ignore_ascii_case(text))
    }
}

#[derive(Default)]
struct Header {
    seen: Vec<(Key, usize)>,
    name: Option<Spanned<String>>,
    source: Option<Spanned<String>>,
    group: Option<Spanned<GroupSyntax>>,
    links: Option<Spanned<Vec<Spanned<Letter>>>>,
    messages: Option<Spanned<MessagesSyntax>>,
    ports: Option<Spanned<usize>>,
    network: Option<Spanned<NetworkName>>,
    certificates: Option<Spanned<String>>,
    expect: Vec<Spanned<Expectation>>,
}

impl Header {
    fn set(
        &mut self,
        source: &str,
        key: Key,
        key_span: Span,
        value: Span,
        line: usize,
    ) -> Result<(), ParseError> {
        if key != Key::Expect {
            if let Some(&(_, first_line)) = self.seen.iter().find(|(k, _)| *k == key) {
                return Err(ParseError::new(
                    ParseErrorKind::DuplicateKey {
                        key: key.name().to_string(),
                        first_line,
                    },
                    key_span,
                ));
            }
            self.seen.push((key, line));
        }
        let text = &source[value.start..value.end];
        let mut cursor = Cursor::new(source, value.start, value.end);
        match key {
            Key::Name => self.name = Some(Spanned::new(text.to_string(), value)),
            Key::Source => self.source = Some(Spanned::new(text.to_string(), value)),
            Key::Group => self.group = Some(Spanned::new(group(&mut cursor)?, value)),
            Key::Links => self.links = Some(Spanned::new(links(&mut cursor)?, value)),
            Key::Messages => self.messages = Some(Spanned::new(messages(&mut cursor)?, value)),
            Key::Ports => {
                let ports = number_item(&mut cursor, "a number of ports", "ports", 1, u64::MAX)?;
                end_of_value(&mut cursor)?;
                self.ports = Some(Spanned::new(ports.value, value));
            }
            Key::Network => self.network = Some(Spanned::new(network(&mut cursor)?, value)),
            Key::Certificates => {
                self.certificates = Some(Spanned::new(text.to_string(), value));
            }
            Key::Expect => self
                .expect
                .push(Spanned::new(expectation(&mut cursor)?, value)),
            Key::Table => unreachable!("`table:` is handled by the line loop"),
        }
        Ok(())
    }
}

/// Requires that nothing but white space is left.
fn end_of_value(cursor: &mut Cursor<'_>) -> Result<(), ParseError> {
    cursor.skip_ws();
    if cursor.at_end() {
        Ok(())
    } else {
        Err(cursor.expected("end of line"))
    }
}

/// Reads one white-space-separated item as an integer in `min..=max`.
fn number_item(
    cursor: &mut Cursor<'_>,
    expected: &'static str,
    what: &'static str,
    min: u64,
    max: u64,
) -> Result<Spanned<usize>, ParseError> {
    cursor.skip_ws();
    let Some(item) = cursor.item() else {
        return Err(cursor.expected(expected));
    };
    number(item, what, min, max)
}

fn number(
    item: Spanned<&str>,
    what: &'static str,
    min: u64,
    max: u64,
) -> Result<Spanned<usize>, ParseError> {
    if item.value.is_empty() || !item.value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(
            ParseErrorKind::BadNumber(item.value.to_string()),
            item.span,
        ));
    }
    let too_large = || {
        ParseError::new(
            ParseErrorKind::NumberTooLarge(item.value.to_string()),
            item.span,
        )
    };
    let n: u64 = item.value.parse().map_err(|_| too_large())?;
    if n < min || n > max {
        return Err(ParseError::new(
            ParseErrorKind::OutOfRange { what, min, max },
            item.span,
        ));
    }
    let n = usize::try_from(n).map_err(|_| too_large())?;
    Ok(Spanned::new(n, item.span))
}

fn links(cursor: &mut Cursor<'_>) -> Result<Vec<Spanned<Letter>>, ParseError> {
    let mut letters = Vec::new();
    loop {
        cursor.skip_ws();
        if cursor.at_end() {
            return Ok(letters);
        }
        let Some(scanned) = cursor.letter()? else {
            return Err(bad_letter(cursor));
        };
        letters.push(scanned.letter);
        if cursor.peek().is_some_and(|c| !c.is_whitespace()) {
            return Err(cursor.expected("white space between links"));
        }
    }
}

fn bad_letter(cursor: &Cursor<'_>) -> ParseError {
    match cursor.peek() {
        Some(c) => ParseError::new(ParseErrorKind::BadLetter(c), cursor.next_span()),
        None => cursor.expected("a letter"),
    }
}

fn messages(cursor: &mut Cursor<'_>) -> Result<MessagesSyntax, ParseError> {
    let Some(keyword) = cursor.item() else {
        return Err(cursor.expected("a message set"));
    };
    let lower = keyword.value.to_ascii_lowercase();
    let messages = match lower.as_str() {
        "total" => MessagesSyntax::Total,
        "odd" => MessagesSyntax::Odd,
        "distance" | "distances" => {
            let mut distances = Vec::new();
            while let Some(item) = cursor.item() {
                let d = number(item, "a distance", 1, u64::from(u32::MAX))?;
                distances.push(d.value as u32);
            }
            if distances.is_empty() {
                return Err(cursor.expected("at least one distance"));
            }
            MessagesSyntax::Distances(distances)
        }
        "to" => {
            let mut words = Vec::new();
            loop {
                cursor.skip_ws();
                if cursor.at_end() {
                    break;
                }
                let word = word(cursor, true, 0)?;
                if cursor.peek().is_some_and(|c| !c.is_whitespace()) {
                    return Err(cursor.expected("white space between words"));
                }
                words.push(word);
            }
            if words.is_empty() {
                return Err(cursor.expected("at least one word"));
            }
            MessagesSyntax::To(words)
        }
        _ => {
            return Err(ParseError::new(
                ParseErrorKind::UnknownMessages(keyword.value.to_string()),
                keyword.span,
            ));
        }
    };
    end_of_value(cursor)?;
    Ok(messages)
}

/// A `network:` value, read by the one grammar of network names
/// ([`NetworkName::parse_spanned`], docs/networks.md), then held to the
/// networks a table's Cayley graph can be embedded in and simulated on: a
/// ring, a hypercube, a torus or a twisted torus.
fn network(cursor: &mut Cursor<'_>) -> Result<NetworkName, ParseError> {
    cursor.skip_ws();
    let start = cursor.pos();
    let text = cursor.rest();
    if text.trim().is_empty() {
        return Err(cursor.expected("a network"));
    }
    let name = NetworkName::parse_spanned(text).map_err(|e| {
        let span = Span::new(start + e.span.start, start + e.span.end);
        ParseError::new(ParseErrorKind::Network(e.error), span)
    })?;
    let first = cursor.item().expect("the value is not blank");
    match name {
        NetworkName::Ring(_)
        | NetworkName::Hypercube(_)
        | NetworkName::Torus(_)
        | NetworkName::Twisted(_) => {}
        _ => {
            return Err(ParseError::new(
                ParseErrorKind::UnknownNetwork(first.value.to_string()),
                first.span,
            ));
        }
    }
    while cursor.item().is_some() {}
    end_of_value(cursor)?;
    Ok(name)
}

fn expectation(cursor: &mut Cursor<'_>) -> Result<Expectation, ParseError> {
    let Some(keyword) = cursor.item() else {
        return Err(cursor.expected("a claim"));
    };
    let claim = match keyword.value.to_ascii_lowercase().as_str() {
        "time" => Expectation::Time(number_item(cursor, "a time", "a time", 0, u64::MAX)?.value),
        "optimal" => Expectation::Optimal,
        "bound" => {
            Expectation::Bound(number_item(cursor, "a bound", "a bound", 0, u64::MAX)?.value)
        }
        "not" => match cursor.item() {
            Some(next) if next.value.eq_ignore_ascii_case("optimal") => Expectation::NotOptimal,
            Some(next) => {
                return Err(ParseError::new(
                    ParseErrorKind::UnknownExpectation(format!("not {}", next.value)),
                    next.span,
                ));
            }
            None => return Err(cursor.expected("`optimal`")),
        },
        "invalid" => invalid_place(cursor)?,
        _ => {
            return Err(ParseError::new(
                ParseErrorKind::UnknownExpectation(keyword.value.to_string()),
                keyword.span,
            ));
        }
    };
    end_of_value(cursor)?;
    Ok(claim)
}

/// The rest of `invalid [row R] [column C]` (row before column, each at most once).
fn invalid_place(cursor: &mut Cursor<'_>) -> Result<Expectation, ParseError> {
    let (mut row, mut column) = (None, None);
    while let Some(keyword) = cursor.item() {
        let lower = keyword.value.to_ascii_lowercase();
        let slot = match lower.as_str() {
            "row" if row.is_none() && column.is_none() => &mut row,
            "column" if column.is_none() => &mut column,
            _ => {
                return Err(ParseError::new(
                    ParseErrorKind::UnknownExpectation(format!("invalid … {}", keyword.value)),
                    keyword.span,
                ));
            }
        };
        let what = if lower == "row" { "a row" } else { "a column" };
        *slot = Some(number_item(cursor, what, what, 1, u64::MAX)?.value);
    }
    Ok(Expectation::Invalid { row, column })
}

/// `group = presentation { ("x" | "×") presentation }`
pub(crate) fn group(cursor: &mut Cursor<'_>) -> Result<GroupSyntax, ParseError> {
    let mut factors = Vec::new();
    cursor.skip_ws();
    factors.push(presentation(cursor)?);
    loop {
        cursor.skip_ws();
        if cursor.at_end() {
            return Ok(GroupSyntax { factors });
        }
        if !(cursor.eat('x') || cursor.eat('×')) {
            return Err(cursor.expected("`x` or `×` (direct product) or the end of the group"));
        }
        cursor.skip_ws();
        factors.push(presentation(cursor)?);
    }
}

/// `presentation = "<" [ name { "," name } ] [ "|" [ relation { ("," | ";") relation } ] ] ">"`
fn presentation(cursor: &mut Cursor<'_>) -> Result<Spanned<PresentationSyntax>, ParseError> {
    let start = cursor.pos();
    if !cursor.eat('<') {
        return Err(cursor.expected("`<` starting a presentation"));
    }
    let mut generators = Vec::new();
    cursor.skip_ws();
    if !matches!(cursor.peek(), Some('|' | '>')) {
        loop {
            cursor.skip_ws();
            let Some(scanned) = cursor.letter()? else {
                return Err(cursor.expected("a generator name"));
            };
            if scanned.marked {
                return Err(ParseError::new(
                    ParseErrorKind::InvertedGenerator,
                    scanned.letter.span,
                ));
            }
            let span = scanned.letter.span;
            if cursor.peek().is_some_and(is_name_char) && !cursor.slice(span).starts_with('{') {
                // `t1` or `ab` where one name was meant: say how to write it.
                while cursor.peek().is_some_and(is_name_char) {
                    cursor.bump();
                }
                let span = Span::new(span.start, cursor.pos());
                let written = cursor.slice(span).to_string();
                return Err(ParseError::new(
                    ParseErrorKind::LongGeneratorName(written),
                    span,
                ));
            }
            generators.push(Spanned::new(scanned.letter.value.name, span));
            cursor.skip_ws();
            if !cursor.eat(',') {
                break;
            }
        }
    }
    let mut relations = Vec::new();
    if cursor.eat('|') {
        cursor.skip_ws();
        if cursor.peek() != Some('>') {
            loop {
                relations.push(relation(cursor)?);
                cursor.skip_ws();
                if !(cursor.eat(',') || cursor.eat(';')) {
                    break;
                }
            }
        }
    }
    cursor.skip_ws();
    if !cursor.eat('>') {
        let expected = if relations.is_empty() && generators.is_empty() {
            "a generator name, `|` or `>`"
        } else if relations.is_empty() {
            "`,`, `|` or `>`"
        } else {
            "`=`, `,`, `;` or `>`"
        };
        return Err(cursor.expected(expected));
    }
    Ok(Spanned::new(
        PresentationSyntax {
            generators,
            relations,
        },
        Span::new(start, cursor.pos()),
    ))
}

/// `relation = word { "=" word }`
fn relation(cursor: &mut Cursor<'_>) -> Result<Relation, ParseError> {
    let mut sides = vec![word(cursor, false, 0)?];
    loop {
        cursor.skip_ws();
        if !cursor.eat('=') {
            return Ok(Relation { sides });
        }
        sides.push(word(cursor, false, 0)?);
    }
}

/// Whether `c` can start a factor of a word.
fn starts_factor(c: char) -> bool {
    starts_letter(c) || c.is_ascii_digit() || c == '(' || c == '['
}

/// `word = factor { factor }`.
///
/// When `compact`, white space ends the word at its top level (words in `to` lists);
/// otherwise white space may separate factors.
pub(crate) fn word(
    cursor: &mut Cursor<'_>,
    compact: bool,
    depth: usize,
) -> Result<Spanned<WordExpr>, ParseError> {
    if depth > MAX_NESTING {
        return Err(ParseError::new(
            ParseErrorKind::NestingTooDeep,
            cursor.next_span(),
        ));
    }
    if !compact {
        cursor.skip_ws();
    }
    let start = cursor.pos();
    let mut factors = Vec::new();
    let mut end = start;
    // Each run of plain letters is counted before its letters are held: a
    // word over the limit is refused in the memory of its text.
    let mut counted_to = start;
    loop {
        if !compact {
            cursor.skip_ws();
        }
        match cursor.peek() {
            Some(c) if starts_factor(c) => {}
            _ => break,
        }
        if cursor.pos() >= counted_to {
            let (letters, to) = cursor.letters_ahead(compact, MAX_RELATOR_LETTERS);
            if letters > MAX_RELATOR_LETTERS {
                return Err(ParseError::new(
                    ParseErrorKind::WordTooLong,
                    Span::new(cursor.pos(), to),
                ));
            }
            counted_to = to.max(cursor.pos() + 1);
        }
        let factor = factor(cursor, compact, depth)?;
        end = factor.span.end;
        factors.push(factor);
    }
    if factors.is_empty() {
        return Err(match cursor.peek() {
            None | Some(',' | ';' | '=' | '|' | '>' | ')' | ']') => {
                ParseError::new(ParseErrorKind::EmptyWord, cursor.next_span())
            }
            Some(c) if c.is_whitespace() => {
                ParseError::new(ParseErrorKind::EmptyWord, cursor.next_span())
            }
            Some(_) => cursor.expected("a letter, `1`, `(` or `[`"),
        });
    }
    Ok(Spanned::new(factors, Span::new(start, end)))
}

/// `factor = atom [ "^" exponent ]`
fn factor(
    cursor: &mut Cursor<'_>,
    compact: bool,
    depth: usize,
) -> Result<Spanned<Factor>, ParseError> {
    let start = cursor.pos();
    let atom = match cursor.peek() {
        Some('(') => {
            cursor.bump();
            let inner = word(cursor, false, depth + 1)?;
            cursor.skip_ws();
            if !cursor.eat(')') {
                return Err(cursor.expected("`)`"));
            }
            Atom::Parens(inner.value)
        }
        Some('[') => {
            cursor.bump();
            let u = word(cursor, false, depth + 1)?;
            cursor.skip_ws();
            if !cursor.eat(',') {
                return Err(cursor.expected("`,` between the two words of a commutator"));
            }
            let v = word(cursor, false, depth + 1)?;
            cursor.skip_ws();
            if !cursor.eat(']') {
                return Err(cursor.expected("`]`"));
            }
            Atom::Commutator(u.value, v.value)
        }
        Some(c) if c.is_ascii_digit() => {
            let n = cursor.digits()?.expect("a digit is next");
            if n.value != 1 {
                let text = cursor.slice(n.span).to_string();
                return Err(ParseError::new(ParseErrorKind::NumberInWord(text), n.span));
            }
            Atom::One
        }
        _ => match cursor.letter()? {
            Some(scanned) => Atom::Letter(scanned.letter.value),
            None => return Err(bad_letter(cursor)),
        },
    };
    let mut after_atom = cursor.clone();
    if !compact {
        after_atom.skip_ws();
    }
    let mut exponent = 1;
    if after_atom.peek() == Some('^') {
        *cursor = after_atom;
        cursor.bump();
        exponent = parse_exponent(cursor, compact)?;
    }
    Ok(Spanned::new(
        Factor { atom, exponent },
        Span::new(start, cursor.pos()),
    ))
}

/// `exponent = ["-"] digits | "{" ["-"] digits "}" | "(" ["-"] digits ")"`
fn parse_exponent(cursor: &mut Cursor<'_>, compact: bool) -> Result<i64, ParseError> {
    let caret = cursor.pos() - 1;
    if !compact {
        cursor.skip_ws();
    }
    let close = if cursor.eat('{') {
        Some('}')
    } else if cursor.eat('(') {
        Some(')')
    } else {
        None
    };
    if close.is_some() {
        cursor.skip_ws();
    }
    let negative = cursor.eat('-');
    let digits = match cursor.digits() {
        Ok(Some(n)) => n,
        Ok(None) => {
            return Err(ParseError::new(
                ParseErrorKind::BadExponent,
                Span::new(caret, cursor.next_span().end),
            ));
        }
        Err(err) => return Err(ParseError::new(ParseErrorKind::ExponentTooLarge, err.span)),
    };
    if digits.value > MAX_EXPONENT {
        return Err(ParseError::new(
            ParseErrorKind::ExponentTooLarge,
            digits.span,
        ));
    }
    if let Some(close) = close {
        cursor.skip_ws();
        if !cursor.eat(close) {
            return Err(cursor.expected(if close == '}' { "`}`" } else { "`)`" }));
        }
    }
    let magnitude = digits.value as i64;
    Ok(if negative { -magnitude } else { magnitude })
}

/// Reads one table row from the trimmed line content at `span`.
fn parse_row(source: &str, span: Span, line: usize) -> Result<Row, ParseError> {
    let mut cursor = Cursor::new(source, span.start, span.end);
    let mut tokens: Vec<Spanned<RowToken>> = Vec::new();
    while let Some(item) = cursor.item() {
        if item.value.starts_with('.') {
            if !item.value.bytes().all(|b| b == b'.') {
                return Err(ParseError::new(ParseErrorKind::MixedToken, item.span));
            }
            let count = item.value.len();
            if let Some(Spanned {
                value: RowToken::Blanks(previous),
                span: previous_span,
            }) = tokens.last_mut()
            {
                *previous += count;
                previous_span.end = item.span.end;
            } else {
                tokens.push(Spanned::new(RowToken::Blanks(count), item.span));
            }
            continue;
        }
        let mut token = Cursor::new(source, item.span.start, item.span.end);
        // A word of the table is letters only: counted before they are held.
        if token.letters_ahead(true, MAX_RELATOR_LETTERS).0 > MAX_RELATOR_LETTERS {
            return Err(ParseError::new(ParseErrorKind::WordTooLong, item.span));
        }
        let mut letters = Vec::new();
        while !token.at_end() {
            match token.letter()? {
                Some(scanned) => letters.push(scanned.letter),
                None if token.peek() == Some('.') => {
                    return Err(ParseError::new(ParseErrorKind::MixedToken, item.span));
                }
                None => return Err(bad_letter(&token)),
            }
        }
        tokens.push(Spanned::new(RowToken::Word(letters), item.span));
    }
    Ok(Row { line, tokens })
}
