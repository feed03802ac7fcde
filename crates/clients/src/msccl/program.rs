//! An MSCCL program as the XML states it: typed, with every element's place,
//! and the list of what msccl-executor-nccl's reader would refuse.
//!
//! Reading is in two parts. A value that is not a number where the reader
//! wants one makes the file unreadable ([`ReadError`], exit 2). Anything the
//! runtime's reader refuses or cannot mean (a missing attribute, an unknown
//! step type or buffer, a collective it does not know, a peer that is the GPU
//! itself, a gap in thread block ids, …) is a [`Problem`]: the file is read,
//! and the program is invalid (docs/msccl.md, "Reading").

use super::parse::{Element, Pos, ReadError};
use txverify_core::format::echoed;

/// The integer type the executor's reader keeps an attribute in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntWidth {
    /// A C `int`: `mscclXmlGetAttrInt` reads with `strtol` and stores an `int`.
    Bits32,
    /// An `int64_t`: `mscclXmlGetAttrInt64` reads with `strtoll`.
    Bits64,
}

/// Every integer attribute the executor's reader reads, by element, with the
/// width it keeps it in (msccl-executor-nccl and RCCL, `msccl_parser.cc`).
/// Only the byte range the program is selected for is 64-bit: TE-CCL writes
/// `maxBytes="1152921504606846976"` (2^60).
pub const INTEGER_ATTRIBUTES: &[(&str, &str, IntWidth)] = &[
    ("algo", "ngpus", IntWidth::Bits32),
    ("algo", "nchannels", IntWidth::Bits32),
    ("algo", "nchunksperloop", IntWidth::Bits32),
    ("algo", "inplace", IntWidth::Bits32),
    ("algo", "outofplace", IntWidth::Bits32),
    ("algo", "minBytes", IntWidth::Bits64),
    ("algo", "maxBytes", IntWidth::Bits64),
    ("gpu", "id", IntWidth::Bits32),
    ("gpu", "i_chunks", IntWidth::Bits32),
    ("gpu", "o_chunks", IntWidth::Bits32),
    ("gpu", "s_chunks", IntWidth::Bits32),
    ("tb", "id", IntWidth::Bits32),
    ("tb", "recv", IntWidth::Bits32),
    ("tb", "send", IntWidth::Bits32),
    ("tb", "chan", IntWidth::Bits32),
    ("step", "s", IntWidth::Bits32),
    ("step", "srcoff", IntWidth::Bits32),
    ("step", "dstoff", IntWidth::Bits32),
    ("step", "cnt", IntWidth::Bits32),
    ("step", "depid", IntWidth::Bits32),
    ("step", "deps", IntWidth::Bits32),
    ("step", "hasdep", IntWidth::Bits32),
];

impl IntWidth {
    /// The width `attribute` of `<element>` is read in ([`INTEGER_ATTRIBUTES`]).
    pub fn of(element: &str, attribute: &str) -> IntWidth {
        INTEGER_ATTRIBUTES
            .iter()
            .find(|(e, a, _)| *e == element && *a == attribute)
            .map_or(IntWidth::Bits32, |(_, _, width)| *width)
    }

    /// Whether a value fits.
    pub fn holds(self, value: i64) -> bool {
        match self {
            IntWidth::Bits32 => i32::try_from(value).is_ok(),
            IntWidth::Bits64 => true,
        }
    }

    /// `32-bit`, `64-bit`.
    pub fn described(self) -> &'static str {
        match self {
            IntWidth::Bits32 => "32-bit",
            IntWidth::Bits64 => "64-bit",
        }
    }
}

/// The most GPUs (`ngpus`) a program may have: more is unreadable, refused
/// before a rank is laid out for each.
pub const MAX_GPUS: i64 = 65_536;

/// The most thread blocks of all GPUs together, each GPU counted up to its
/// largest id (the reader lays out every id below it): the executor keeps a
/// vector clock of every thread block for every other, 4·t² bytes (256 MiB here).
pub const MAX_THREADBLOCKS: i64 = 8192;

/// A buffer a step names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Buf {
    /// `i`: the input (send) buffer.
    Input,
    /// `o`: the output (receive) buffer.
    Output,
    /// `s`: the scratch buffer.
    Scratch,
}

impl Buf {
    /// The letter the XML writes.
    pub fn letter(self) -> char {
        match self {
            Buf::Input => 'i',
            Buf::Output => 'o',
            Buf::Scratch => 's',
        }
    }
}

/// A step's `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `s`: send `src` to the send peer.
    Send,
    /// `r`: receive from the receive peer into `dst`.
    Recv,
    /// `rcs`: receive into `dst` and send the same data on.
    RecvCopySend,
    /// `rrs`: receive, reduce with `src`, send the result (nothing written here).
    RecvReduceSend,
    /// `rrc`: receive, reduce with `src`, write the result to `dst`.
    RecvReduceCopy,
    /// `rrcs`: receive, reduce with `src`, write to `dst` and send.
    RecvReduceCopySend,
    /// `cpy`: copy `src` to `dst`.
    Copy,
    /// `re`: `dst` ← `dst` ⊕ `src`.
    Reduce,
    /// `nop`: nothing, but its dependency is carried to the next step.
    Nop,
}

impl Op {
    /// The op of a `type` value, if the executor knows it.
    pub fn from_code(code: &str) -> Option<Op> {
        Some(match code {
            "s" => Op::Send,
            "r" => Op::Recv,
            "rcs" => Op::RecvCopySend,
            "rrs" => Op::RecvReduceSend,
            "rrc" => Op::RecvReduceCopy,
            "rrcs" => Op::RecvReduceCopySend,
            "cpy" => Op::Copy,
            "re" => Op::Reduce,
            "nop" => Op::Nop,
            _ => return None,
        })
    }

    /// The `type` the XML writes.
    pub fn code(self) -> &'static str {
        match self {
            Op::Send => "s",
            Op::Recv => "r",
            Op::RecvCopySend => "rcs",
            Op::RecvReduceSend => "rrs",
            Op::RecvReduceCopy => "rrc",
            Op::RecvReduceCopySend => "rrcs",
            Op::Copy => "cpy",
            Op::Reduce => "re",
            Op::Nop => "nop",
        }
    }

    /// Whether it receives from the thread block's receive peer.
    pub fn receives(self) -> bool {
        matches!(
            self,
            Op::Recv
                | Op::RecvCopySend
                | Op::RecvReduceSend
                | Op::RecvReduceCopy
                | Op::RecvReduceCopySend
        )
    }

    /// Whether it sends to the thread block's send peer.
    pub fn sends(self) -> bool {
        matches!(
            self,
            Op::Send | Op::RecvCopySend | Op::RecvReduceSend | Op::RecvReduceCopySend
        )
    }
}

/// One `<step>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where it is.
    pub pos: Pos,
    /// `s` (the executor checks its range only; the order is the file's).
    pub s: i64,
    /// `type`, if known.
    pub op: Option<Op>,
    /// `srcbuf`, if known.
    pub src: Option<Buf>,
    /// `srcoff`.
    pub srcoff: i64,
    /// `dstbuf`, if known.
    pub dst: Option<Buf>,
    /// `dstoff`.
    pub dstoff: i64,
    /// `cnt`.
    pub cnt: i64,
    /// `depid`.
    pub depid: i64,
    /// `deps`.
    pub deps: i64,
    /// `hasdep`.
    pub hasdep: i64,
}

/// One `<tb>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threadblock {
    /// Where it is.
    pub pos: Pos,
    /// `id`.
    pub id: i64,
    /// `send` (-1: none).
    pub send: i64,
    /// `recv` (-1: none).
    pub recv: i64,
    /// `chan`.
    pub chan: i64,
    /// Its steps, in file order.
    pub steps: Vec<Step>,
}

/// One `<gpu>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpu {
    /// Where it is.
    pub pos: Pos,
    /// `id`: the rank.
    pub id: i64,
    /// `i_chunks`.
    pub i_chunks: i64,
    /// `o_chunks`.
    pub o_chunks: i64,
    /// `s_chunks`.
    pub s_chunks: i64,
    /// Its thread blocks, in file order.
    pub threadblocks: Vec<Threadblock>,
}

/// Something the executor's reader refuses, or a program cannot mean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where.
    pub pos: Pos,
    /// What, in a sentence.
    pub message: String,
}

/// The whole `<algo>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Where `<algo` is.
    pub pos: Pos,
    /// `name`.
    pub name: String,
    /// `proto`.
    pub proto: String,
    /// `coll`, as written.
    pub coll: String,
    /// `ngpus`.
    pub ngpus: i64,
    /// `nchannels`.
    pub nchannels: i64,
    /// `nchunksperloop`.
    pub nchunksperloop: i64,
    /// `inplace`.
    pub inplace: bool,
    /// `outofplace`.
    pub outofplace: bool,
    /// The GPUs, in file order.
    pub gpus: Vec<Gpu>,
    /// What the reader refuses, in file order.
    pub problems: Vec<Problem>,
}

/// Reads attributes of one element, noting what is missing or misquoted.
struct Attrs<'a> {
    element: &'a Element,
    problems: &'a mut Vec<Problem>,
}

impl Attrs<'_> {
    /// The raw value of a required attribute; a missing one is a problem.
    fn text(&mut self, name: &str) -> Option<String> {
        let Some(a) = self.element.attribute(name) else {
            self.problems.push(Problem {
                pos: self.element.pos,
                message: format!(
                    "<{}> has no `{name}` attribute, which the executor's reader requires",
                    self.element.name
                ),
            });
            return None;
        };
        if a.single_quoted || a.has_entity {
            self.problems.push(Problem {
                pos: a.pos,
                message: format!(
                    "`{name}` is {}: the executor's reader takes a value up to the next `\"` as raw bytes",
                    if a.single_quoted {
                        "quoted with '"
                    } else {
                        "written with an entity reference"
                    }
                ),
            });
        }
        Some(a.value.clone())
    }

    /// A required integer attribute (`default` when missing); a value that
    /// is not an integer makes the file unreadable.
    fn int(&mut self, name: &str, default: i64) -> Result<i64, ReadError> {
        let Some(text) = self.text(name) else {
            return Ok(default);
        };
        let pos = self
            .element
            .attribute(name)
            .map_or(self.element.pos, |a| a.pos);
        let width = IntWidth::of(&self.element.name, name);
        let digits = text.trim();
        let unsigned = digits.strip_prefix(['-', '+']).unwrap_or(digits);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ReadError {
                pos,
                message: format!(
                    "`{name}` of <{}> is `{}`, not an integer",
                    self.element.name,
                    echoed(&text)
                ),
            });
        }
        // Digits past 38 are out of any width read. Every value is at most 32
        // bits but the byte range, which nothing adds: every sum of two values
        // read fits an i64.
        let value = i64::try_from(digits.parse::<i128>().unwrap_or(i128::MAX))
            .ok()
            .filter(|&v| width.holds(v));
        let Some(value) = value else {
            return Err(ReadError {
                pos,
                message: format!(
                    "`{name}` of <{}> is {}, outside the range of the {} integer the executor's reader keeps it in",
                    self.element.name,
                    echoed(digits),
                    width.described()
                ),
            });
        };
        Ok(value)
    }
}

/// Reads the `<algo>` root into a [`Program`].
pub fn read(root: &Element) -> Result<Program, ReadError> {
    if root.name != "algo" {
        return Err(ReadError {
            pos: root.pos,
            message: format!("the root element is <{}>, not <algo>", root.name),
        });
    }
    let mut problems = Vec::new();
    let mut a = Attrs {
        element: root,
        problems: &mut problems,
    };
    let name = a.text("name").unwrap_or_default();
    let proto = a.text("proto").unwrap_or_default();
    let coll = a.text("coll").unwrap_or_default();
    let ngpus = a.int("ngpus", 0)?;
    if ngpus > MAX_GPUS {
        return Err(ReadError {
            pos: root.attribute("ngpus").map_or(root.pos, |a| a.pos),
            message: format!("ngpus = {ngpus} is more than the {MAX_GPUS} GPUs txverify checks"),
        });
    }
    let nchannels = a.int("nchannels", 0)?;
    let nchunksperloop = a.int("nchunksperloop", 0)?;
    let inplace = a.int("inplace", 0)? != 0;
    let outofplace = a.int("outofplace", 0)? != 0;
    a.int("minBytes", 0)?;
    a.int("maxBytes", 0)?;
    if !["Simple", "LL", "LL128"].contains(&proto.as_str()) && root.attribute("proto").is_some() {
        problems.push(Problem {
            pos: root.pos,
            message: format!(
                "protocol `{proto}` is not one the executor knows (Simple, LL, LL128)"
            ),
        });
    }
    let mut gpus = Vec::new();
    for child in &root.children {
        if child.name == "gpu" {
            gpus.push(read_gpu(child, &mut problems)?);
        }
    }
    let threadblocks: i64 = gpus
        .iter()
        .map(|g| {
            g.threadblocks
                .iter()
                .map(|t| t.id.clamp(-1, 4096) + 1)
                .max()
                .unwrap_or(0)
        })
        .sum();
    if threadblocks > MAX_THREADBLOCKS {
        return Err(ReadError {
            pos: root.pos,
            message: format!(
                "the GPUs have {threadblocks} thread blocks (each counted up to its largest id), more than the {MAX_THREADBLOCKS} txverify checks"
            ),
        });
    }
    Ok(Program {
        pos: root.pos,
        name,
        proto,
        coll,
        ngpus,
        nchannels,
        nchunksperloop,
        inplace,
        outofplace,
        gpus,
        problems,
    })
}

fn read_gpu(element: &Element, problems: &mut Vec<Problem>) -> Result<Gpu, ReadError> {
    let mut a = Attrs { element, problems };
    let id = a.int("id", -1)?;
    let i_chunks = a.int("i_chunks", 0)?;
    let o_chunks = a.int("o_chunks", 0)?;
    let s_chunks = a.int("s_chunks", 0)?;
    let mut threadblocks = Vec::new();
    for child in &element.children {
        if child.name == "tb" {
            threadblocks.push(read_tb(child, problems)?);
        }
    }
    Ok(Gpu {
        pos: element.pos,
        id,
        i_chunks,
        o_chunks,
        s_chunks,
        threadblocks,
    })
}

fn read_tb(element: &Element, problems: &mut Vec<Problem>) -> Result<Threadblock, ReadError> {
    let mut a = Attrs { element, problems };
    let id = a.int("id", -1)?;
    let recv = a.int("recv", -1)?;
    let send = a.int("send", -1)?;
    let chan = a.int("chan", 0)?;
    let mut steps = Vec::new();
    for child in &element.children {
        if child.name == "step" {
            steps.push(read_step(child, problems)?);
        }
    }
    Ok(Threadblock {
        pos: element.pos,
        id,
        send,
        recv,
        chan,
        steps,
    })
}

fn read_step(element: &Element, problems: &mut Vec<Problem>) -> Result<Step, ReadError> {
    let mut a = Attrs { element, problems };
    let s = a.int("s", 0)?;
    let srcoff = a.int("srcoff", -1)?;
    let srcbuf = a.text("srcbuf");
    let dstoff = a.int("dstoff", -1)?;
    let dstbuf = a.text("dstbuf");
    let cnt = a.int("cnt", 0)?;
    let kind = a.text("type");
    let depid = a.int("depid", -1)?;
    let deps = a.int("deps", -1)?;
    let hasdep = a.int("hasdep", 0)?;
    let pos = element.pos;
    let op = kind.as_deref().and_then(Op::from_code);
    if let (Some(k), None) = (&kind, op) {
        problems.push(Problem {
            pos,
            message: format!("step type `{k}` is not one the executor knows"),
        });
    }
    let mut buffer = |text: Option<String>, which: &str| -> Option<Buf> {
        let text = text?;
        let b = match text.as_str() {
            "i" => Some(Buf::Input),
            "o" => Some(Buf::Output),
            "s" => Some(Buf::Scratch),
            _ => None,
        };
        if b.is_none() {
            problems.push(Problem {
                pos,
                message: format!("{which} `{text}` is not a buffer the executor knows (i, o, s)"),
            });
        }
        b
    };
    let src = buffer(srcbuf, "srcbuf");
    let dst = buffer(dstbuf, "dstbuf");
    Ok(Step {
        pos,
        s,
        op,
        src,
        srcoff,
        dst,
        dstoff,
        cnt,
        depid,
        deps,
        hasdep,
    })
}
