//! The collectives an MSCCL program may implement: their buffer sizes, how
//! input and output alias in place, and the postcondition the output must
//! meet (docs/msccl.md, "Collectives").
//!
//! A *contribution* is one input chunk of one GPU, numbered
//! `gpu · input_chunks + chunk`; a slot of memory holds the set of
//! contributions reduced into it. With `C = nchunksperloop` and `n = ngpus`,
//! the runtime splits the user's buffers into chunks so that the input and
//! output hold (input, output) = allreduce (C, C), allgather (C/n, C),
//! reducescatter (C, C/n), alltoall (C, C), broadcast and reduce (C, C).

/// A collective the executor accepts and txverify checks: the core's chunk
/// collective, the one its bounds are made for.
pub use txverify_core::bounds::chunks::ChunkCollective as Collective;

/// What `coll` means to the executor.
pub enum CollKind {
    /// One txverify checks.
    Checked(Collective),
    /// One the executor accepts but whose postcondition txverify does not know.
    Unchecked,
    /// One the executor refuses.
    Refused,
}

/// The executor's reading of `coll` (msccl_parser.cc, `mscclGetAlgoFromXmlFile`).
pub fn kind_of(coll: &str) -> CollKind {
    match Collective::from_name(coll) {
        Some(collective) => CollKind::Checked(collective),
        None if matches!(coll, "send" | "recv" | "gather" | "scatter" | "alltoallv") => {
            CollKind::Unchecked
        }
        None => CollKind::Refused,
    }
}

/// The sizes and aliasing of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The collective.
    pub coll: Collective,
    /// GPUs.
    pub n: u32,
    /// Input chunks per GPU.
    pub input: i64,
    /// Output chunks per GPU.
    pub output: i64,
    /// Whether input and output share memory (the in-place call).
    pub in_place: bool,
}

impl Shape {
    /// The shape for `C = chunks`, or why there is none (`C` not a multiple
    /// of `n` where the collective splits by GPU).
    pub fn new(coll: Collective, n: u32, chunks: i64, in_place: bool) -> Result<Shape, String> {
        let per = |what: &str| {
            if n > 0 && chunks % i64::from(n) == 0 {
                Ok(chunks / i64::from(n))
            } else {
                Err(format!(
                    "nchunksperloop = {chunks} is not a multiple of ngpus = {n}, as {what} needs"
                ))
            }
        };
        let (input, output) = match coll {
            Collective::AllGather => (per("allgather")?, chunks),
            Collective::ReduceScatter => (chunks, per("reducescatter")?),
            Collective::AllToAll => {
                per("alltoall")?;
                (chunks, chunks)
            }
            _ => (chunks, chunks),
        };
        Ok(Shape {
            coll,
            n,
            input,
            output,
            in_place,
        })
    }

    /// Where the input and output start in GPU `g`'s memory, and the size of
    /// that memory before the scratch buffer. In place, NCCL's convention for
    /// the user's pointers holds: allgather's input is the GPU's own part of
    /// the output, reducescatter's output is the GPU's own part of the input,
    /// and otherwise both are one buffer.
    pub fn layout(&self, g: u32) -> (i64, i64, i64) {
        if !self.in_place {
            return (0, self.input, self.input + self.output);
        }
        let size = self.input.max(self.output);
        match self.coll {
            Collective::AllGather => (i64::from(g) * self.input, 0, size),
            Collective::ReduceScatter => (0, i64::from(g) * self.output, size),
            _ => (0, 0, size),
        }
    }

    /// The contributions output chunk `c` of GPU `g` must hold, sorted; `None`
    /// when the collective leaves it free (reduce, away from the root).
    pub fn expected(&self, g: u32, c: i64, root: u32) -> Option<Vec<u32>> {
        let id = |h: u32, chunk: i64| (i64::from(h) * self.input + chunk) as u32;
        let all = |chunk: i64| (0..self.n).map(|h| id(h, chunk)).collect::<Vec<u32>>();
        Some(match self.coll {
            Collective::AllReduce => all(c),
            Collective::AllGather => vec![id((c / self.input) as u32, c % self.input)],
            Collective::ReduceScatter => all(i64::from(g) * self.output + c),
            Collective::AllToAll => {
                let k = self.input / i64::from(self.n);
                vec![id((c / k) as u32, i64::from(g) * k + c % k)]
            }
            Collective::Broadcast => vec![id(root, c)],
            Collective::Reduce if g == root => all(c),
            Collective::Reduce => return None,
        })
    }

    /// A contribution as words: "GPU h's input chunk c".
    pub fn describe(&self, contribution: u32) -> String {
        let (h, c) = (
            i64::from(contribution) / self.input.max(1),
            i64::from(contribution) % self.input.max(1),
        );
        format!("GPU {h}'s input chunk {c}")
    }
}
