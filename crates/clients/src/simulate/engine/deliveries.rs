//! What each source should have received, against what it did: the message
//! set turned into one expected row of the delivery bitmap per source.

use super::super::{MessageSet, SimulationInput};
use super::chunk::Chunk;

/// The message set, ready to produce each source's expected row.
pub(super) enum Expected {
    Total,
    /// `wanted[d]`: messages go to nodes at distance `d`.
    ByDistance(Vec<bool>),
    /// Generator words for each target element.
    To(Vec<Vec<txverify_core::group::GenLetter>>),
}

pub(super) fn prepare_expected(input: &SimulationInput<'_>) -> Expected {
    let n = input.embedding.network().nodes();
    match input.messages {
        MessageSet::Total => Expected::Total,
        MessageSet::Odd => Expected::ByDistance((0..=n).map(|d| d % 2 == 1).collect()),
        MessageSet::Distances(ds) => {
            let mut wanted = vec![false; n + 1];
            for &d in ds {
                if (d as usize) <= n {
                    wanted[d as usize] = true;
                }
            }
            Expected::ByDistance(wanted)
        }
        MessageSet::To(targets) => {
            let words = input.group.shortest_words();
            Expected::To(targets.iter().map(|m| words[m.index()].clone()).collect())
        }
    }
}

/// Writes the expected destinations of source `x` into `row` (cleared first).
fn expected_row(input: &SimulationInput<'_>, expected: &Expected, x: u32, row: &mut [u64]) {
    let net = input.embedding.network();
    let n = net.nodes();
    row.fill(0);
    let set = |row: &mut [u64], y: usize| row[y / 64] |= 1 << (y % 64);
    match expected {
        Expected::Total => {
            for y in 0..n {
                set(row, y);
            }
            row[x as usize / 64] &= !(1 << (x % 64));
        }
        Expected::ByDistance(wanted) => {
            // Closed form on a torus, breadth-first search otherwise.
            for (y, d) in net.distances_from(x).into_iter().enumerate() {
                if wanted.get(d as usize).copied().unwrap_or(false) {
                    set(row, y);
                }
            }
        }
        Expected::To(words) => {
            let h = input.embedding.elem(x);
            for w in words {
                let y = input.embedding.node(input.group.apply_word(h, w));
                set(row, y as usize);
            }
        }
    }
}

pub(super) struct DeliveryCheck {
    pub(super) expected: u64,
    pub(super) missing: u64,
    pub(super) unexpected: u64,
    pub(super) missing_records: Vec<(u32, u32)>,
    pub(super) unexpected_records: Vec<(u32, u32)>,
}

pub(super) fn check_deliveries(
    input: &SimulationInput<'_>,
    expected: &Expected,
    chunk: &Chunk,
    row_words: usize,
    max_records: usize,
) -> DeliveryCheck {
    let mut out = DeliveryCheck {
        expected: 0,
        missing: 0,
        unexpected: 0,
        missing_records: Vec::new(),
        unexpected_records: Vec::new(),
    };
    let mut row = vec![0u64; row_words];
    for i in 0..chunk.len {
        let x = chunk.start + i as u32;
        expected_row(input, expected, x, &mut row);
        let got = &chunk.delivered[i * row_words..][..row_words];
        for (w, (&e, &g)) in row.iter().zip(got).enumerate() {
            out.expected += e.count_ones() as u64;
            let (missing, unexpected) = (e & !g, g & !e);
            out.missing += missing.count_ones() as u64;
            out.unexpected += unexpected.count_ones() as u64;
            for (bits, records) in [
                (missing, &mut out.missing_records),
                (unexpected, &mut out.unexpected_records),
            ] {
                let mut bits = bits;
                while bits != 0 && records.len() < max_records {
                    records.push((x, (w * 64) as u32 + bits.trailing_zeros()));
                    bits &= bits - 1;
                }
            }
        }
    }
    out
}
