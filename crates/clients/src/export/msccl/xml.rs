//! The XML of a program, and its size against a runtime's limits.

use super::{MscclProgram, RuntimeFit, StepKind};
use std::fmt::Write as _;

impl MscclProgram {
    /// The number of channels (one more than the largest channel used).
    pub fn channels(&self) -> u32 {
        self.gpus
            .iter()
            .flat_map(|g| &g.threadblocks)
            .map(|tb| tb.channel + 1)
            .max()
            .unwrap_or(1)
    }

    /// The runtime limits the program exceeds, as the warnings `export` prints.
    pub fn runtime_warnings(&self) -> Vec<String> {
        (self.runtime_fit().exceeded().into_iter())
            .map(|limit| format!("{limit}; see docs/export.md"))
            .collect()
    }

    /// The program's size against a runtime's limits.
    pub fn runtime_fit(&self) -> RuntimeFit {
        let gpus = self.gpus.len();
        let mut fit = RuntimeFit {
            max_steps_per_threadblock: 0,
            max_threadblocks: 0,
            max_elements_per_rank: 0,
        };
        for gpu in &self.gpus {
            let steps: usize = gpu.threadblocks.iter().map(|tb| tb.steps.len()).sum();
            let longest = gpu.threadblocks.iter().map(|tb| tb.steps.len()).max();
            fit.max_steps_per_threadblock = fit.max_steps_per_threadblock.max(longest.unwrap_or(0));
            fit.max_threadblocks = fit.max_threadblocks.max(gpu.threadblocks.len());
            fit.max_elements_per_rank = fit
                .max_elements_per_rank
                .max(1 + gpus + gpu.threadblocks.len() + steps);
        }
        fit
    }

    /// Writes the XML: one element per line, attributes separated by one
    /// blank, no XML declaration (the runtime's reader takes nothing else).
    pub fn write_xml(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let n = self.gpus.len();
        writeln!(
            out,
            "<!-- txverify export: {}, {}. Layout and conventions: txverify docs/export.md -->",
            self.name, self.origin
        )?;
        writeln!(
            out,
            "<algo name=\"{}\" proto=\"Simple\" nchannels=\"{}\" nchunksperloop=\"{}\" ngpus=\"{n}\" coll=\"{}\" inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">",
            self.name,
            self.channels(),
            self.chunks_per_loop,
            self.coll
        )?;
        let peer = |p: Option<u32>| p.map_or(-1, i64::from);
        let mut line = String::new();
        for gpu in &self.gpus {
            writeln!(
                out,
                "  <gpu id=\"{}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"{}\">",
                gpu.rank, self.input_chunks, self.output_chunks, gpu.scratch_chunks
            )?;
            for (id, tb) in gpu.threadblocks.iter().enumerate() {
                writeln!(
                    out,
                    "    <tb id=\"{id}\" send=\"{}\" recv=\"{}\" chan=\"{}\">",
                    peer(tb.send),
                    peer(tb.recv),
                    tb.channel
                )?;
                for (s, step) in tb.steps.iter().enumerate() {
                    let (depid, deps) = step
                        .depends_on
                        .map_or((-1, -1), |(t, s)| (i64::from(t), i64::from(s)));
                    line.clear();
                    // A nop moves nothing: no chunk, count 0, as msccl-tools writes it.
                    let (srcoff, dstoff, cnt) = match step.kind {
                        StepKind::Nop => (-1, -1, 0),
                        _ => (i64::from(step.src.index), i64::from(step.dst.index), 1),
                    };
                    // Writing to a String cannot fail.
                    let _ = write!(
                        line,
                        "      <step s=\"{s}\" type=\"{}\" srcbuf=\"{}\" srcoff=\"{srcoff}\" dstbuf=\"{}\" dstoff=\"{dstoff}\" cnt=\"{cnt}\" depid=\"{depid}\" deps=\"{deps}\" hasdep=\"{}\"/>",
                        step.kind.code(),
                        step.src.buffer.letter(),
                        step.dst.buffer.letter(),
                        u8::from(step.has_dependent)
                    );
                    writeln!(out, "{line}")?;
                }
                writeln!(out, "    </tb>")?;
            }
            writeln!(out, "  </gpu>")?;
        }
        writeln!(out, "</algo>")
    }
}
