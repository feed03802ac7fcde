//! From the XML's steps to what each thread block runs, by the rules of
//! msccl-executor-nccl's reader (docs/msccl.md, "From steps to transmissions").
//!
//! The runtime does not run `<step>`s one for one. Its reader walks a thread
//! block's steps in file order (the `s` attribute only has its range checked)
//! and makes *transmissions*: a `nop` makes none, its dependency is carried to
//! the next transmission; consecutive `re` steps into one chunk without a
//! dependency of their own fuse into one transmission, which takes the last
//! step's count and `hasdep`. The kernel then counts a step number that a
//! `hasdep` transmission publishes and a dependency waits for: one per
//! transmission, plus one per extra dependency folded into it, plus one per
//! extra fused reduction. This module reproduces that, with its refusals as
//! [`Problem`]s; [`execute`](super::execute) runs the result.

use super::parse::Pos;
use super::program::{Buf, Gpu, Op, Problem, Program, Step};

/// msccl-executor-nccl's `MSCCL_MAX_COUNT`: a step's `cnt` must be below it.
pub const MAX_COUNT: i64 = 72;
/// msccl-executor-nccl's `MSCCL_MAX_REDUCE_FUSION`.
pub const MAX_REDUCE_FUSION: usize = 16;
/// msccl-executor-nccl's `MSCCL_MAX_NUM_STEPS` (transmissions per thread block
/// in its default build; reported, not enforced: builds differ).
pub const MAX_NUM_STEPS: usize = 64;
/// NCCL's `MAXCHANNELS`, which the reader compares `chan` with.
pub const MAX_CHANNELS: i64 = 32;

/// One transmission of a thread block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tx {
    /// What it does (never [`Op::Nop`]).
    pub op: Op,
    /// Source buffer and offset.
    pub src: (Buf, i64),
    /// Destination buffer and offset.
    pub dst: (Buf, i64),
    /// Chunks moved.
    pub count: i64,
    /// For `re`: the source offsets fused into it, in order.
    pub reduce_srcs: Vec<i64>,
    /// `(thread block, step number)` to wait for, all of them.
    pub deps: Vec<(i64, i64)>,
    /// Whether it publishes its step number when done.
    pub hasdep: bool,
    /// The step number the kernel counts for it.
    pub number: i64,
    /// The file index (in its thread block) of its last `<step>`.
    pub index: usize,
    /// Where its last `<step>` is.
    pub pos: Pos,
}

/// One thread block ready to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tb {
    /// Its id.
    pub id: u32,
    /// Where it is.
    pub pos: Pos,
    /// Its send peer.
    pub send: Option<u32>,
    /// Its receive peer.
    pub recv: Option<u32>,
    /// Its channel.
    pub chan: u32,
    /// Its transmissions.
    pub txs: Vec<Tx>,
}

/// One GPU ready to run: its thread blocks indexed by id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rank {
    /// `s_chunks`.
    pub scratch: i64,
    /// Thread blocks by id.
    pub tbs: Vec<Tb>,
}

/// Lowers every GPU of `program`; rank r is `result[r]`. Problems are added
/// to `problems`; a GPU missing from the file has no thread blocks.
pub fn lower(program: &Program, problems: &mut Vec<Problem>) -> Vec<Rank> {
    let n = program.ngpus.max(0) as usize;
    let mut ranks: Vec<Option<Rank>> = vec![None; n];
    for gpu in &program.gpus {
        if gpu.id < 0 || gpu.id as usize >= n {
            problems.push(Problem {
                pos: gpu.pos,
                message: format!(
                    "GPU id {} is not a rank of ngpus = {}: no rank loads it",
                    gpu.id, program.ngpus
                ),
            });
            continue;
        }
        let rank = gpu.id as usize;
        if ranks[rank].is_some() {
            problems.push(Problem {
                pos: gpu.pos,
                message: format!(
                    "GPU {rank} is written twice: the reader loads both into one rank"
                ),
            });
            continue;
        }
        let tbs = threadblocks(program, gpu, rank, problems);
        ranks[rank] = Some(Rank {
            scratch: gpu.s_chunks,
            tbs,
        });
        if gpu.s_chunks < 0 {
            problems.push(Problem {
                pos: gpu.pos,
                message: format!("GPU {rank}: s_chunks is negative"),
            });
        }
    }
    ranks
        .into_iter()
        .enumerate()
        .map(|(r, rank)| {
            rank.unwrap_or_else(|| {
                problems.push(Problem {
                    pos: program.pos,
                    message: format!("GPU {r} has no <gpu> element: rank {r} runs nothing"),
                });
                Rank {
                    scratch: 0,
                    tbs: Vec::new(),
                }
            })
        })
        .collect()
}

/// One GPU's thread blocks as the reader loads them, at the index of their ids,
/// with a problem for every id, peer or channel the reader or the runtime
/// refuses (an empty thread block stands in for a missing id).
fn threadblocks(program: &Program, gpu: &Gpu, rank: usize, problems: &mut Vec<Problem>) -> Vec<Tb> {
    let mut tbs: Vec<Option<Tb>> = Vec::new();
    for tb in &gpu.threadblocks {
        let at = |message: String| Problem {
            pos: tb.pos,
            message: format!("GPU {rank}, thread block {}: {message}", tb.id),
        };
        if tb.id < 0 || tb.id > 4096 {
            problems.push(at("the id is out of the reader's range".into()));
            continue;
        }
        for (peer, what) in [(tb.send, "send"), (tb.recv, "recv")] {
            if peer == gpu.id {
                problems.push(at(format!("its {what} peer is the GPU itself")));
            } else if peer < -1 || peer >= program.ngpus {
                problems.push(at(format!("its {what} peer {peer} is not a rank")));
            }
        }
        if tb.chan < 0 || tb.chan > MAX_CHANNELS {
            problems.push(at(format!(
                "channel {} is out of the reader's range",
                tb.chan
            )));
        } else if tb.chan >= program.nchannels {
            problems.push(at(format!(
                "channel {} is not one of the nchannels = {} the runtime sets up",
                tb.chan, program.nchannels
            )));
        }
        let id = tb.id as usize;
        if tbs.len() <= id {
            tbs.resize(id + 1, None);
        }
        if tbs[id].is_some() {
            problems.push(at("the id is used twice".into()));
            continue;
        }
        let peer = |p: i64| (p >= 0 && p < program.ngpus && p != gpu.id).then_some(p as u32);
        let (send, recv) = (peer(tb.send), peer(tb.recv));
        let txs = transmissions(gpu, tb, send.is_some(), recv.is_some(), problems);
        tbs[id] = Some(Tb {
            id: id as u32,
            pos: tb.pos,
            send,
            recv,
            chan: tb.chan.clamp(0, MAX_CHANNELS) as u32,
            txs,
        });
    }
    if let Some(missing) = tbs.iter().position(Option::is_none) {
        problems.push(Problem {
            pos: gpu.pos,
            message: format!(
                "GPU {rank}: thread block {missing} is missing (ids must be 0, 1, 2, …)"
            ),
        });
    }
    // A missing id is a problem already; an empty thread block keeps
    // every other one at the index of its id.
    tbs.into_iter()
        .enumerate()
        .map(|(id, tb)| {
            tb.unwrap_or(Tb {
                id: id as u32,
                pos: gpu.pos,
                send: None,
                recv: None,
                chan: 0,
                txs: Vec::new(),
            })
        })
        .collect()
}

/// The running state of the reader over one thread block's steps.
#[derive(Default)]
struct Walk {
    /// Every dependency seen so far (from nops and steps).
    deps: Vec<(i64, i64)>,
    /// How many of `deps` are already attached to a transmission.
    attached: usize,
    /// `(dst, dstoff, src)` of the reduction a next `re` may fuse into.
    fusing: Option<(Buf, i64, Buf)>,
    /// Reductions seen in the thread block (never reset, as in the reader).
    reductions: usize,
}

/// The transmissions of one thread block, by the reader's rules.
fn transmissions(
    gpu: &super::program::Gpu,
    tb: &super::program::Threadblock,
    has_send_peer: bool,
    has_recv_peer: bool,
    problems: &mut Vec<Problem>,
) -> Vec<Tx> {
    let mut walk = Walk::default();
    let mut txs: Vec<Tx> = Vec::new();
    for (index, step) in tb.steps.iter().enumerate() {
        let at = |message: String| Problem {
            pos: step.pos,
            message: format!(
                "GPU {}, thread block {}, step {index}: {message}",
                gpu.id, tb.id
            ),
        };
        if step.s < 0 {
            problems.push(at(format!("s = {} is negative", step.s)));
        }
        let (Some(op), Some(src), Some(dst)) = (step.op, step.src, step.dst) else {
            continue; // already a problem
        };
        if step.depid >= 0 {
            walk.deps.push((step.depid, step.deps));
        }
        let fuses = op == Op::Reduce
            && walk.fusing == Some((dst, step.dstoff, src))
            && step.depid == -1
            && !txs.is_empty();
        if op == Op::Reduce && !fuses {
            walk.fusing = None;
        }
        if op == Op::Nop {
            continue;
        }
        if step.cnt < 0 || step.cnt >= MAX_COUNT {
            problems.push(at(format!("cnt = {} is not in 0..{MAX_COUNT}", step.cnt)));
        }
        if op.sends() && !has_send_peer {
            problems.push(at(format!(
                "a `{}` in a thread block without a send peer",
                op.code()
            )));
        }
        if op.receives() && !has_recv_peer {
            problems.push(at(format!(
                "a `{}` in a thread block without a receive peer",
                op.code()
            )));
        }
        check_declared_bounds(gpu, op, step, &mut |m| problems.push(at(m)));
        if step.hasdep != 0 && step.hasdep != 1 {
            problems.push(at(format!("hasdep = {} is neither 0 nor 1", step.hasdep)));
        }
        let mut tx = if fuses {
            let mut last = txs.pop().expect("fusing follows a transmission");
            last.reduce_srcs.push(step.srcoff);
            last
        } else {
            let deps = walk.deps[walk.attached..].to_vec();
            if !deps.is_empty() && step.depid < 0 {
                problems.push(at(
                    "dependencies of the nops before it reach a step without a dependency of its own, which the reader refuses".into(),
                ));
            }
            walk.attached = walk.deps.len();
            Tx {
                op,
                src: (src, step.srcoff),
                dst: (dst, step.dstoff),
                count: step.cnt,
                reduce_srcs: if op == Op::Reduce {
                    vec![step.srcoff]
                } else {
                    Vec::new()
                },
                deps,
                hasdep: false,
                number: 0,
                index,
                pos: step.pos,
            }
        };
        // A fused transmission takes the last step's fields.
        tx.op = op;
        tx.src = (src, step.srcoff);
        tx.dst = (dst, step.dstoff);
        tx.count = step.cnt;
        tx.hasdep = step.hasdep == 1;
        tx.index = index;
        tx.pos = step.pos;
        if op == Op::Reduce {
            walk.reductions += 1;
            walk.fusing = if step.hasdep != 0 || walk.reductions == MAX_REDUCE_FUSION {
                None
            } else {
                Some((dst, step.dstoff, src))
            };
        } else {
            walk.fusing = None;
        }
        txs.push(tx);
    }
    number(&mut txs);
    txs
}

/// The reader's check of a step's offsets against the GPU's declared chunk
/// counts: only the first chunk, only the operands it names for the type.
fn check_declared_bounds(
    gpu: &super::program::Gpu,
    op: Op,
    step: &Step,
    report: &mut dyn FnMut(String),
) {
    let (check_src, check_dst) = match op {
        Op::Send | Op::RecvReduceSend => (true, false),
        Op::Recv | Op::RecvCopySend => (false, true),
        Op::RecvReduceCopySend | Op::Copy | Op::Reduce => (true, true),
        Op::RecvReduceCopy | Op::Nop => (false, false),
    };
    let declared = |b: Buf| match b {
        Buf::Input => gpu.i_chunks,
        Buf::Output => gpu.o_chunks,
        Buf::Scratch => gpu.s_chunks,
    };
    for (check, buf, off, what) in [
        (check_src, step.src, step.srcoff, "srcoff"),
        (check_dst, step.dst, step.dstoff, "dstoff"),
    ] {
        if let (true, Some(b)) = (check, buf)
            && (off < -1 || off >= declared(b))
        {
            report(format!(
                "{what} = {off} is outside the {} chunks GPU {} declares for buffer {}",
                declared(b),
                gpu.id,
                b.letter()
            ));
        }
    }
}

/// The kernel's step numbers: one per transmission, plus one per dependency
/// beyond the first, plus one per fused reduction beyond the first (only when
/// the count is not 0: the kernel adds it inside its loop over chunks).
fn number(txs: &mut [Tx]) {
    let mut step: i64 = 0;
    for tx in txs {
        if !tx.deps.is_empty() {
            step += tx.deps.len() as i64 - 1;
        }
        if tx.op == Op::Reduce && tx.count > 0 {
            step += tx.reduce_srcs.len() as i64 - 1;
        }
        tx.number = step;
        step += 1;
    }
}
