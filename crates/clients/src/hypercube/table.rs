//! The buffer-free alternative: the total-exchange table `txverify gen
//! hypercube d` writes (Coolsaet, Fack and De Meyer's tabular method), checked
//! by the kernel, summarised for comparison with section 4's buffered
//! algorithm.
//!
//! A table is buffer-free by definition: a word starting in column c leaves its
//! source at step c and moves one hop a step without waiting. So its peak
//! buffer is 0, and on the Cayley graph every node holds, after step c, exactly
//! one packet of each word in flight across that step boundary (the packet of
//! the one source the word's prefix brings there): its peak queue is the
//! largest number of words in flight across a boundary.

use crate::construct::{Family, GenOptions, generate};
use txverify_core::kernel::{self, PlacedWord, Verdict};
use txverify_core::load::{LoadOptions, load};

/// The table of `gen hypercube d`, as the kernel checked it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferFree {
    /// The kernel found no violation.
    pub valid: bool,
    /// Its time (the last column).
    pub time: u64,
    /// Its kernel lower bound (over every table of the group and links).
    pub bound: Option<u64>,
    /// Sends when every node runs every word: nodes × Σ word lengths.
    pub transmissions: u64,
    /// Packets in transit held by one node at a step boundary, at the most.
    pub peak_queue: u64,
    /// Packets waiting beyond the next step at one node: 0 for any table.
    pub peak_buffer: u64,
}

/// Why the table could not be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The construction refused the dimension.
    #[error("gen hypercube {d}: {message}")]
    Construct {
        /// The dimension.
        d: u32,
        /// Why.
        message: String,
    },
    /// The construction's text could not be loaded (a bug of the construction).
    #[error("gen hypercube {d} wrote a file txverify cannot load: {message}")]
    Load {
        /// The dimension.
        d: u32,
        /// Why.
        message: String,
    },
}

/// Builds, loads and checks the table of `gen hypercube d`.
pub fn buffer_free(d: u32) -> Result<BufferFree, TableError> {
    let text = generate(Family::Hypercube, d as usize, GenOptions::default()).map_err(|e| {
        TableError::Construct {
            d,
            message: e.to_string(),
        }
    })?;
    let loaded = load(&text, &LoadOptions::default()).map_err(|e| TableError::Load {
        d,
        message: e.to_string(),
    })?;
    let checked = kernel::check(&loaded.instance, &loaded.table, &[]);
    let words = &loaded.table.words;
    let nodes = loaded.instance.group().order() as u64;
    let letters: u64 = words.iter().map(|w| w.letters.len() as u64).sum();
    Ok(BufferFree {
        valid: checked.verdict() != Verdict::Invalid,
        time: checked.time() as u64,
        bound: checked.bound().map(|b| b.value),
        transmissions: nodes * letters,
        peak_queue: words_in_flight(words, checked.time()),
        peak_buffer: 0,
    })
}

/// The most words that have left their first column and not reached their
/// last across one boundary between columns c and c + 1.
pub fn words_in_flight(words: &[PlacedWord], time: usize) -> u64 {
    let mut change = vec![0i64; time + 2];
    for w in words {
        // In flight across the boundaries c = column … last_column − 1.
        if w.last_column() > w.column {
            change[w.column] += 1;
            change[w.last_column()] -= 1;
        }
    }
    let mut running = 0i64;
    let mut peak = 0i64;
    for c in change {
        running += c;
        peak = peak.max(running);
    }
    peak as u64
}
