//! The two schedule formats, text and JSON: parsers with positioned errors and
//! streaming printers.
//!
//! Both carry the same fields (network, ports, collective, chunks, sends) and
//! convert both ways without loss. The text format is `key: value` header
//! lines, `#` comments, a line `sends:` and one `STEP FROM TO SOURCE
//! DESTINATION [CHUNK]` line per send (destination `*` for an item, the chunk
//! 0 when left out). The JSON format is one object
//! with `schema` = [`SCHEMA`] and a `sends` array; extra fields are ignored.
//! Sends go straight into the packed vector (no intermediate tree), and the
//! printers stream, so that files of 10^8 sends stay within memory.

use super::{BROADCAST, Collective, MAX_CHUNKS, Ports, Schedule, TimedSend, item_destination};
use crate::format::syntax::Span;
use crate::network::NetworkName;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;
use std::io::{self, Write};

/// The `schema` value of a JSON schedule.
pub const SCHEMA: &str = "txverify-schedule/1";

/// A malformed schedule file, with the place of the fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset of the fault in the source.
    pub offset: usize,
    /// Length in bytes of the faulty text (at least 1 when rendered).
    pub len: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a schedule file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A header line that is not `key: value`.
    #[error("expected a header line `key: value` or `sends:`")]
    NotAHeader,
    /// A header key other than `network`, `ports`, `collective` and `chunks`.
    #[error("unknown key `{}:` (known keys: network, ports, collective, chunks, sends)", crate::format::echoed(.0))]
    UnknownKey(String),
    /// A header key given twice.
    #[error("`{}:` is given twice", crate::format::echoed(.0))]
    DuplicateKey(String),
    /// The `network:` value names no network txverify builds.
    #[error("{0}")]
    Network(crate::network::NetworkError),
    /// A bad `ports:` or `collective:` value.
    #[error("{0}")]
    Value(super::ValueError),
    /// No `collective:` line.
    #[error("the header has no `collective:` line")]
    NoCollective,
    /// No `sends:` line.
    #[error("no `sends:` line (a schedule lists its sends after it)")]
    NoSends,
    /// A send line with other than five fields (six with a chunk).
    #[error("a send is `STEP FROM TO SOURCE DESTINATION [CHUNK]`: five or six fields, not {0}")]
    FieldCount(usize),
    /// A chunk number on a send whose destination is not `*`, or not below
    /// the collective's chunks.
    #[error(
        "chunk {0} is not a chunk of this send's packet: chunks go with destination `*`, numbered 0 … C − 1 (C = `chunks:`, 1 when left out)"
    )]
    BadChunk(u32),
    /// A field that is not a number (or `*` in the destination).
    #[error("`{}` is not a number{dest}", crate::format::echoed(.0), dest = if *.1 { " or `*`" } else { "" })]
    BadNumber(String, bool),
    /// Malformed JSON, or JSON not in the schedule schema (serde_json's message).
    #[error("{0}")]
    Json(String),
}

impl ParseError {
    fn at(source: &str, offset: usize, len: usize, kind: ParseErrorKind) -> ParseError {
        let (line, column) = crate::format::line_col(source, offset);
        ParseError {
            line,
            column,
            offset,
            len,
            kind,
        }
    }

    /// Renders the error as `path:line:col: error: message`, the source line and
    /// a caret under the fault, in the shape of `.tbl` diagnostics.
    pub fn render(&self, path: &str, source: &str) -> String {
        crate::format::render_diagnostic(
            path,
            source,
            Span::new(self.offset, self.offset + self.len.max(1)),
            &self.kind,
        )
    }
}

/// Whether `source` looks like a schedule rather than a `.tbl` file: its first
/// non-blank character is `{` (JSON), or one of its lines, without comment and
/// surrounding blanks, is `sends:` (text).
pub fn is_schedule(source: &str) -> bool {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    if source.trim_start().starts_with('{') {
        return true;
    }
    source.lines().any(|l| strip_comment(l).trim() == "sends:")
}

/// Reads a schedule in either format: JSON when the first non-blank character is
/// `{`, text otherwise.
pub fn parse(source: &str) -> Result<Schedule, ParseError> {
    let body = source.strip_prefix('\u{feff}').unwrap_or(source);
    if body.trim_start().starts_with('{') {
        parse_json(source)
    } else {
        parse_text(source)
    }
}

fn strip_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(before, _)| before)
}

fn offset_in(source: &str, part: &str) -> usize {
    part.as_ptr() as usize - source.as_ptr() as usize
}

/// Reads the text format.
pub fn parse_text(source: &str) -> Result<Schedule, ParseError> {
    let mut network = None;
    let mut ports = None;
    let mut collective = None;
    let mut chunks: Option<(u32, &str)> = None;
    let mut in_sends = false;
    let mut sends = Vec::new();
    let mut line_start = 0;
    let err = |part: &str, kind: ParseErrorKind| {
        ParseError::at(source, offset_in(source, part), part.len(), kind)
    };
    for raw in source.split_inclusive('\n') {
        let line_offset = line_start;
        line_start += raw.len();
        let line = strip_comment(raw.trim_end_matches(['\n', '\r']));
        let line = if line_offset == 0 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        let content = line.trim();
        if content.is_empty() {
            continue;
        }
        if in_sends {
            let limit = chunks.map_or(1, |(c, _)| c);
            sends.push(parse_send_line(source, content, limit)?);
            continue;
        }
        let Some((key, value)) = content.split_once(':') else {
            return Err(err(content, ParseErrorKind::NotAHeader));
        };
        let key = key.trim_end();
        let value_text = value.trim();
        // Point at the value, or just after the colon when it is empty.
        let value_part = if value_text.is_empty() {
            &value[..0]
        } else {
            value_text
        };
        match key {
            "sends" => {
                if !value_text.is_empty() {
                    return Err(err(value_text, ParseErrorKind::NotAHeader));
                }
                in_sends = true;
            }
            "network" => {
                if network.is_some() {
                    return Err(err(key, ParseErrorKind::DuplicateKey(key.to_string())));
                }
                let name = value_text
                    .parse::<NetworkName>()
                    .map_err(|e| err(value_part, ParseErrorKind::Network(e)))?;
                network = Some(name);
            }
            "ports" => {
                if ports.is_some() {
                    return Err(err(key, ParseErrorKind::DuplicateKey(key.to_string())));
                }
                let p = value_text
                    .parse::<Ports>()
                    .map_err(|e| err(value_part, ParseErrorKind::Value(e)))?;
                ports = Some(p);
            }
            "collective" => {
                if collective.is_some() {
                    return Err(err(key, ParseErrorKind::DuplicateKey(key.to_string())));
                }
                let c = value_text
                    .parse::<Collective>()
                    .map_err(|e| err(value_part, ParseErrorKind::Value(e)))?;
                collective = Some(c);
            }
            "chunks" => {
                if chunks.is_some() {
                    return Err(err(key, ParseErrorKind::DuplicateKey(key.to_string())));
                }
                let c = super::parse_chunks(value_text)
                    .map_err(|e| err(value_part, ParseErrorKind::Value(e)))?;
                chunks = Some((c, value_part));
            }
            _ => return Err(err(key, ParseErrorKind::UnknownKey(key.to_string()))),
        }
    }
    let end = &source[source.len()..];
    if !in_sends {
        return Err(err(end, ParseErrorKind::NoSends));
    }
    let Some(mut collective) = collective else {
        return Err(err(end, ParseErrorKind::NoCollective));
    };
    if let Some((c, part)) = chunks {
        collective = collective
            .with_chunks(c)
            .map_err(|e| err(part, ParseErrorKind::Value(e)))?;
    }
    Ok(Schedule {
        network,
        ports,
        collective,
        sends,
    })
}

/// Whether `v` is out of range for field `count`: a destination among the
/// numbers that name chunks, or a chunk of [`MAX_CHUNKS`] or more.
fn reserved(is_dest: bool, count: usize, v: u32) -> bool {
    (is_dest && v > BROADCAST - MAX_CHUNKS) || (count == 5 && v >= MAX_CHUNKS)
}

/// Reads one send line; a chunk must be below `chunks` (the header's).
fn parse_send_line(source: &str, content: &str, chunks: u32) -> Result<TimedSend, ParseError> {
    let mut fields = [0u32; 6];
    let mut count = 0;
    for token in content.split_ascii_whitespace() {
        if count == 6 {
            let n = content.split_ascii_whitespace().count();
            return Err(ParseError::at(
                source,
                offset_in(source, token),
                token.len(),
                ParseErrorKind::FieldCount(n),
            ));
        }
        let is_dest = count == 4;
        let chunk = token.parse::<u32>().unwrap_or(u32::MAX);
        if count == 5 && (fields[4] != BROADCAST || (chunk >= chunks && chunk < MAX_CHUNKS)) {
            return Err(ParseError::at(
                source,
                offset_in(source, token),
                token.len(),
                ParseErrorKind::BadChunk(chunk),
            ));
        }
        fields[count] = if is_dest && token == "*" {
            BROADCAST
        } else {
            match token.parse::<u32>() {
                Ok(v) if !reserved(is_dest, count, v) && token.as_bytes()[0].is_ascii_digit() => v,
                _ => {
                    return Err(ParseError::at(
                        source,
                        offset_in(source, token),
                        token.len(),
                        ParseErrorKind::BadNumber(token.to_string(), is_dest),
                    ));
                }
            }
        };
        count += 1;
    }
    if count < 5 {
        let at = &content[content.len()..];
        return Err(ParseError::at(
            source,
            offset_in(source, at),
            0,
            ParseErrorKind::FieldCount(count),
        ));
    }
    let [step, from, to, src, mut destination, chunk] = fields;
    if count == 6 {
        destination = item_destination(chunk);
    }
    Ok(TimedSend {
        step,
        from,
        to,
        source: src,
        destination,
    })
}

/// Reads the JSON format.
pub fn parse_json(source: &str) -> Result<Schedule, ParseError> {
    let raw: RawSchedule = serde_json::from_str(source).map_err(|e| {
        let offset = json_offset(source, e.line(), e.column());
        ParseError::at(
            source,
            offset,
            1,
            ParseErrorKind::Json(crate::format::json_error_message(&e)),
        )
    })?;
    let collective = match raw.chunks {
        Some(c) => raw.collective.with_chunks(c).map_err(|e| {
            let at = source.find("\"chunks\"").unwrap_or(0);
            ParseError::at(source, at, 8, ParseErrorKind::Value(e))
        })?,
        None => raw.collective,
    };
    check_chunks(source, &raw.sends, collective)?;
    Ok(Schedule {
        network: raw.network,
        ports: raw.ports,
        collective,
        sends: raw.sends,
    })
}

/// Refuses a send whose chunk is not below the collective's chunks, so that a
/// file cannot name a chunk its header does not have. The place is the end
/// of the file: sends are stored without their position.
fn check_chunks(
    source: &str,
    sends: &[TimedSend],
    collective: Collective,
) -> Result<(), ParseError> {
    let chunks = collective.chunks();
    match sends.iter().find(|s| s.chunk() >= chunks) {
        Some(s) => Err(ParseError::at(
            source,
            source.len(),
            0,
            ParseErrorKind::BadChunk(s.chunk()),
        )),
        None => Ok(()),
    }
}

/// Byte offset of serde_json's (1-based line, 1-based byte column).
fn json_offset(source: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match source[start..].find('\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    let end = source[start..]
        .find('\n')
        .map_or(source.len(), |i| start + i);
    (start + column.saturating_sub(1)).min(end)
}

#[derive(Deserialize)]
struct RawSchedule {
    #[allow(dead_code)]
    schema: SchemaTag,
    #[serde(default)]
    network: Option<NetworkName>,
    #[serde(default)]
    ports: Option<Ports>,
    collective: Collective,
    #[serde(default)]
    chunks: Option<u32>,
    sends: Vec<TimedSend>,
}

struct SchemaTag;

impl<'de> Deserialize<'de> for SchemaTag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SchemaTag, D::Error> {
        let s = String::deserialize(d)?;
        if s == SCHEMA {
            Ok(SchemaTag)
        } else {
            Err(de::Error::custom(format!("schema `{s}` is not `{SCHEMA}`")))
        }
    }
}

/// Deserializes a string through `FromStr`, so that serde_json positions the error.
fn from_string<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: std::str::FromStr,
    T::Err: fmt::Display,
{
    let s = String::deserialize(d)?;
    s.parse::<T>().map_err(de::Error::custom)
}

impl<'de> Deserialize<'de> for NetworkName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NetworkName, D::Error> {
        from_string(d)
    }
}

impl<'de> Deserialize<'de> for Collective {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Collective, D::Error> {
        from_string(d)
    }
}

impl<'de> Deserialize<'de> for Ports {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ports, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Ports;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "\"all\" or a whole number of at least 1")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Ports, E> {
                match u32::try_from(v) {
                    Ok(k) if k >= 1 => Ok(Ports::Limit(k)),
                    _ => Err(E::custom(super::ValueError::BadPorts(v.to_string()))),
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Ports, E> {
                Err(E::custom(super::ValueError::BadPorts(v.to_string())))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Ports, E> {
                if v == "all" {
                    Ok(Ports::All)
                } else {
                    Err(E::custom(super::ValueError::BadPorts(v.to_string())))
                }
            }
        }
        d.deserialize_any(V)
    }
}

struct Destination(u32);

impl<'de> Deserialize<'de> for Destination {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Destination, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Destination;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a node number or \"*\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Destination, E> {
                match u32::try_from(v) {
                    Ok(x) if x <= BROADCAST - MAX_CHUNKS => Ok(Destination(x)),
                    _ => Err(E::custom(format!("destination {v} is too large"))),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Destination, E> {
                if v == "*" {
                    Ok(Destination(BROADCAST))
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
struct RawSend {
    step: u32,
    from: u32,
    to: u32,
    source: u32,
    destination: Destination,
    #[serde(default)]
    chunk: Option<u32>,
}

impl<'de> Deserialize<'de> for TimedSend {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TimedSend, D::Error> {
        let r = RawSend::deserialize(d)?;
        let destination = match r.chunk {
            None | Some(0) => r.destination.0,
            Some(c) if c < MAX_CHUNKS && r.destination.0 == BROADCAST => item_destination(c),
            Some(c) => return Err(de::Error::custom(ParseErrorKind::BadChunk(c))),
        };
        Ok(TimedSend {
            step: r.step,
            from: r.from,
            to: r.to,
            source: r.source,
            destination,
        })
    }
}

/// The bytes [`SendWriter::sends`] puts together before writing them.
const SEND_BUFFER: usize = 1 << 16;

/// The longest line of one send (JSON, every number of ten digits, a chunk).
const LONGEST_LINE: usize = 160;

/// "00" to "99", one after the other.
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// The lines of sends being put together, every byte written in place: no
/// scratch array per number copied over (a call of the copy per number was
/// most of the writing's own time on a thousand nodes).
struct Lines {
    bytes: Vec<u8>,
    len: usize,
}

impl Lines {
    /// Room for `lines` lines, up to [`SEND_BUFFER`] bytes and one line more.
    fn with_room_for(lines: usize) -> Lines {
        let room = lines.saturating_mul(LONGEST_LINE).min(SEND_BUFFER) + LONGEST_LINE;
        Lines {
            bytes: vec![0; room],
            len: 0,
        }
    }

    /// Whether the buffer is to be written out before the next line.
    fn full(&self) -> bool {
        self.len + LONGEST_LINE > self.bytes.len()
    }

    #[inline]
    fn text(&mut self, text: &[u8]) {
        self.bytes[self.len..self.len + text.len()].copy_from_slice(text);
        self.len += text.len();
    }

    /// `x` in decimal, two digits at a time.
    #[inline]
    fn decimal(&mut self, mut x: u32) {
        let digits = x.checked_ilog10().unwrap_or(0) as usize + 1;
        let out = &mut self.bytes[self.len..self.len + digits];
        let mut end = digits;
        while x >= 100 {
            let pair = 2 * (x % 100) as usize;
            out[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
            x /= 100;
            end -= 2;
        }
        if x >= 10 {
            let pair = 2 * x as usize;
            out[..2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            out[0] = b'0' + x as u8;
        }
        self.len += digits;
    }

    /// A destination, `*` for an item, then its chunk when not 0 (text: a
    /// sixth field; JSON: a field `chunk`).
    #[inline]
    fn destination(&mut self, s: &TimedSend, quote: bool) {
        let (item, chunk) = (s.packet().is_broadcast(), s.chunk());
        match (item, quote) {
            (true, true) => self.text(b"\"*\""),
            (true, false) => self.text(b"*"),
            (false, _) => self.decimal(s.destination),
        }
        match (chunk, quote) {
            (0, _) => {}
            (c, true) => {
                self.text(b", \"chunk\": ");
                self.decimal(c);
            }
            (c, false) => {
                self.text(b" ");
                self.decimal(c);
            }
        }
    }

    /// Writes the lines put together and empties the buffer.
    fn write_out(&mut self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(&self.bytes[..self.len])?;
        self.len = 0;
        Ok(())
    }
}

/// Writes `schedule` in the text format (missing header fields are left out).
pub fn write_text(schedule: &Schedule, w: &mut impl Write) -> io::Result<()> {
    let mut out = SendWriter::start(schedule, false, w)?;
    out.sends(&schedule.sends, w)?;
    out.finish(w)
}

/// Writes `schedule` in the JSON format, one send per line (missing header
/// fields are left out).
pub fn write_json(schedule: &Schedule, w: &mut impl Write) -> io::Result<()> {
    let mut out = SendWriter::start(schedule, true, w)?;
    out.sends(&schedule.sends, w)?;
    out.finish(w)
}

/// A schedule written a batch of sends at a time, so that a generator need
/// never hold them all: the header of a schedule (its sends are not written),
/// then [`sends`](Self::sends) as often as needed, then
/// [`finish`](Self::finish). The bytes are those of [`write_text`] and
/// [`write_json`] on the whole schedule.
pub struct SendWriter {
    json: bool,
    written: u64,
}

impl SendWriter {
    /// Writes the header of `schedule` in JSON (`json`) or the text format.
    pub fn start(schedule: &Schedule, json: bool, w: &mut impl Write) -> io::Result<SendWriter> {
        if json {
            write!(w, "{{\"schema\": \"{SCHEMA}\"")?;
            if let Some(network) = &schedule.network {
                let quoted = serde_json::Value::String(network.to_string());
                write!(w, ", \"network\": {quoted}")?;
            }
            match schedule.ports {
                Some(Ports::All) => write!(w, ", \"ports\": \"all\"")?,
                Some(Ports::Limit(k)) => write!(w, ", \"ports\": {k}")?,
                None => {}
            }
            write!(w, ", \"collective\": \"{}\"", schedule.collective)?;
            if schedule.collective.chunks() > 1 {
                write!(w, ", \"chunks\": {}", schedule.collective.chunks())?;
            }
            write!(w, ",\n \"sends\": [")?;
        } else {
            if let Some(network) = &schedule.network {
                writeln!(w, "network: {network}")?;
            }
            if let Some(ports) = &schedule.ports {
                writeln!(w, "ports: {ports}")?;
            }
            writeln!(w, "collective: {}", schedule.collective)?;
            if schedule.collective.chunks() > 1 {
                writeln!(w, "chunks: {}", schedule.collective.chunks())?;
            }
            writeln!(w, "sends:")?;
        }
        Ok(SendWriter { json, written: 0 })
    }

    /// Writes `sends` after those written before: each line is put together
    /// in a buffer by hand (no formatting machinery per number, no copy per
    /// number) and the buffer is written every 64 KiB, the same bytes as
    /// `write!` would give (a schedule of 2·10⁸ sends spent most of its
    /// writing time in `write!`).
    pub fn sends(&mut self, sends: &[TimedSend], w: &mut impl Write) -> io::Result<()> {
        let mut lines = Lines::with_room_for(sends.len());
        for s in sends {
            if self.json {
                lines.text(if self.written == 0 { b"\n" } else { b",\n" });
                lines.text(b"  {\"step\": ");
                lines.decimal(s.step);
                lines.text(b", \"from\": ");
                lines.decimal(s.from);
                lines.text(b", \"to\": ");
                lines.decimal(s.to);
                lines.text(b", \"source\": ");
                lines.decimal(s.source);
                lines.text(b", \"destination\": ");
                lines.destination(s, true);
                lines.text(b"}");
            } else {
                for x in [s.step, s.from, s.to, s.source] {
                    lines.decimal(x);
                    lines.text(b" ");
                }
                lines.destination(s, false);
                lines.text(b"\n");
            }
            self.written += 1;
            if lines.full() {
                lines.write_out(w)?;
            }
        }
        lines.write_out(w)
    }

    /// Ends the schedule.
    pub fn finish(self, w: &mut impl Write) -> io::Result<()> {
        if self.json {
            writeln!(w, "]}}")?;
        }
        Ok(())
    }
}

/// [`write_text`] into a string.
pub fn to_text(schedule: &Schedule) -> String {
    let mut out = Vec::new();
    write_text(schedule, &mut out).expect("writing to memory does not fail");
    String::from_utf8(out).expect("the text format is ASCII")
}

/// [`write_json`] into a string.
pub fn to_json(schedule: &Schedule) -> String {
    let mut out = Vec::new();
    write_json(schedule, &mut out).expect("writing to memory does not fail");
    String::from_utf8(out).expect("the JSON format is UTF-8")
}

#[cfg(test)]
mod tests;
