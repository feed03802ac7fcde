//! A flit-level simulation of wormhole routing with e-cube routing on the
//! n-cube (section 6): every message stream generates messages of F flits at
//! exponentially distributed intervals; a message waits in its source's queue,
//! then its header reserves the channels of its e-cube path one by one and the
//! flits follow; it blocks in place when the next channel is held.
//!
//! Model, cycle by cycle:
//! - every channel (the n·2^n network channels, plus one injection and one
//!   ejection channel per node) carries one flit per cycle and has a one-flit
//!   buffer; a message holds a channel from the moment its header crosses it
//!   until its tail has left its buffer, and the channel is free again the
//!   next cycle;
//! - a header asking for a free channel gets it if no older request competes:
//!   the header that arrived at its router first wins (the paper's rule), ties
//!   to the message injected first;
//! - with one-flit buffers a message is a contiguous run of flits, so it moves
//!   as a whole: one position per cycle when its header may advance (or has
//!   already been delivered), not at all otherwise;
//! - latency counts from generation (queueing at the source included) to the
//!   delivery of the tail; throughput is flits delivered per cycle per stream.
//!
//! The pseudo-random numbers come from splitmix64 (Steele, Lea and Flood), a
//! few lines that give the same sequence on every platform and for every
//! version, so a seed names one run for good.

use super::Lcc;

/// splitmix64: a 64-bit state advanced by a constant, mixed on output.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1]: 53 random bits, never 0 (so that its logarithm is finite).
    pub fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Exponentially distributed with the given mean.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * self.unit().ln()
    }
}

/// The parameters of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    /// Flits per message, header included (F; 20 in the paper).
    pub flits: u32,
    /// Cycles before measuring.
    pub warmup: u64,
    /// Cycles during which generated messages are measured.
    pub measure: u64,
    /// Extra cycles allowed for the measured messages to arrive; a point whose
    /// messages are not all delivered by then is saturated.
    pub drain: u64,
    /// The seed of the generator.
    pub seed: u64,
}

impl Default for SimConfig {
    fn default() -> SimConfig {
        SimConfig {
            flits: 20,
            warmup: 2_000,
            measure: 10_000,
            drain: 20_000,
            seed: 1,
        }
    }
}

/// One point of a latency–throughput curve.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Point {
    /// Offered load: flits generated per cycle per stream.
    pub offered: f64,
    /// Accepted throughput: flits delivered per cycle per stream while measuring.
    pub accepted: f64,
    /// Average latency in cycles of the measured messages delivered.
    pub latency: f64,
    /// Messages generated while measuring.
    pub measured: u64,
    /// How many of them were delivered before the end of the run.
    pub delivered: u64,
    /// The backlog (messages generated and not yet delivered: queued at their
    /// sources or in the network) per stream, averaged over the cycles of the
    /// first half of the measuring window.
    pub backlog_first: f64,
    /// The same over the second half.
    pub backlog_second: f64,
    /// The network did not sustain the load: some measured message was not
    /// delivered before the end (then `latency` is only a lower bound), less
    /// than [`SUSTAINED`] of the offered flits were delivered while measuring,
    /// or the backlog grew between the two halves of the window ([`grew`]).
    pub saturated: bool,
}

/// Whether the backlog grew between the two halves of the measuring window:
/// by more than [`GROWTH`] of the first half's plus [`GROWTH_MESSAGES`]
/// messages per stream. A load the network sustains keeps a stationary
/// backlog, whose two half-window averages differ by noise only; above it the
/// backlog grows by (offered − accepted) · half window / F per stream.
pub fn grew(first: f64, second: f64) -> bool {
    second > first * (1.0 + GROWTH) + GROWTH_MESSAGES
}

/// The relative growth of the backlog [`grew`] allows.
pub const GROWTH: f64 = 0.1;

/// The absolute growth of the backlog [`grew`] allows, in messages per stream.
pub const GROWTH_MESSAGES: f64 = 0.5;

/// The share of the offered load a run must deliver to count as sustained (a
/// little is always still in flight at the end of the window).
pub const SUSTAINED: f64 = 0.9;

const FREE: u32 = u32::MAX;

/// A message in the network.
struct Worm {
    /// Channels, injection first and ejection last.
    path: Vec<u32>,
    /// Position of the header flit on the path (it has crossed `path[head]`);
    /// flit k is at `head − k`; positions past the end are delivered flits.
    head: usize,
    /// When the header reached its current position.
    arrived: u64,
    /// Generation time.
    born: f64,
    /// Sequence number (generation order).
    id: u32,
    /// Whether it was generated while measuring.
    measured: bool,
}

/// The streams of a communication: (source, destination) of every message that
/// leaves its node.
fn streams(lcc: &Lcc) -> Vec<(u32, u32)> {
    (0..1u64 << lcc.n())
        .map(|v| lcc.message(v))
        .filter(|(s, d)| s != d)
        .map(|(s, d)| (s as u32, d as u32))
        .collect()
}

/// The e-cube path of a message as channel numbers: injection at the source,
/// the network channels dimension 0 first, ejection at the destination.
fn path(n: usize, source: u32, destination: u32) -> Vec<u32> {
    let nodes = 1u32 << n;
    let mut out = vec![n as u32 * nodes + source];
    let mut at = source;
    for d in 0..n {
        if (at ^ destination) >> d & 1 == 1 {
            out.push(d as u32 * nodes + at);
            at ^= 1 << d;
        }
    }
    out.push((n as u32 + 1) * nodes + destination);
    out
}

/// What a run counts.
#[derive(Default)]
struct Tally {
    /// Messages generated while measuring.
    generated: u64,
    /// How many of them have been delivered.
    delivered: u64,
    /// The sum of their latencies.
    latency_sum: f64,
    /// Flits delivered while measuring (any message).
    flits_in_window: u64,
    /// The backlog summed over the cycles of each half of the window.
    backlog: [u64; 2],
}

/// The state of the network: who holds each channel, the messages in flight and
/// the queues at the sources.
struct Network {
    n: usize,
    flits: usize,
    owner: Vec<u32>,
    worms: Vec<Worm>,
    queues: Vec<std::collections::VecDeque<(f64, u32, bool)>>,
    serial: u32,
    /// Messages generated and not yet delivered.
    backlog: u64,
}

impl Network {
    fn new(n: usize, flits: usize) -> Network {
        Network {
            n,
            flits,
            owner: vec![FREE; (n + 2) << n],
            worms: Vec::new(),
            queues: vec![Default::default(); 1 << n],
            serial: 0,
            backlog: 0,
        }
    }

    /// Grants free channels to waiting headers, the earliest arrival first
    /// (then the message injected first); returns which messages may move.
    fn arbitrate(&mut self) -> Vec<bool> {
        let mut requests: Vec<(u32, u64, u32, usize)> = self
            .worms
            .iter()
            .enumerate()
            .filter(|(_, worm)| worm.head + 1 < worm.path.len())
            .map(|(w, worm)| (worm.path[worm.head + 1], worm.arrived, worm.id, w))
            .collect();
        requests.sort_unstable();
        let mut granted = vec![false; self.worms.len()];
        for (channel, _, id, w) in requests {
            if self.owner[channel as usize] == FREE {
                self.owner[channel as usize] = id;
                granted[w] = true;
            }
        }
        granted
    }

    /// A node whose injection channel is free starts its next message: the
    /// header enters the injection buffer, to move on next cycle.
    fn inject(&mut self, t: u64, granted: &mut Vec<bool>) {
        let n = self.n;
        for node in 0..1usize << n {
            let inject = (n << n) + node;
            if self.owner[inject] != FREE {
                continue;
            }
            let Some((born, destination, measured)) = self.queues[node].pop_front() else {
                continue;
            };
            self.owner[inject] = self.serial;
            self.worms.push(Worm {
                path: path(n, node as u32, destination),
                head: 0,
                arrived: t,
                born,
                id: self.serial,
                measured,
            });
            self.serial = self.serial.wrapping_add(1);
            granted.push(false);
        }
    }

    /// Moves every message that may move by one position; delivers flits,
    /// releases the channels tails have left, retires finished messages.
    fn advance(&mut self, t: u64, mut granted: Vec<bool>, window: bool, tally: &mut Tally) {
        let flits = self.flits;
        let mut w = 0;
        while w < self.worms.len() {
            let worm = &mut self.worms[w];
            let last = worm.path.len() - 1;
            if worm.head >= last || granted[w] {
                worm.head += 1;
                worm.arrived = t;
                if worm.head >= last && window {
                    tally.flits_in_window += 1;
                }
                if let Some(p) = worm.head.checked_sub(flits).filter(|&p| p < last) {
                    self.owner[worm.path[p] as usize] = FREE;
                }
            }
            if worm.head == last + flits - 1 {
                self.owner[worm.path[last] as usize] = FREE;
                if worm.measured {
                    tally.delivered += 1;
                    tally.latency_sum += (t + 1) as f64 - worm.born;
                }
                self.worms.swap_remove(w);
                granted.swap_remove(w);
                self.backlog -= 1;
                continue;
            }
            w += 1;
        }
    }
}

/// Simulates the communication at one offered load (flits per cycle per stream).
pub fn run(lcc: &Lcc, offered: f64, config: &SimConfig) -> Point {
    let streams = streams(lcc);
    let flits = config.flits.max(1) as usize;
    let mut rng = SplitMix64::new(config.seed);
    let mean_gap = flits as f64 / offered.max(1e-12);
    let mut next: Vec<f64> = streams.iter().map(|_| rng.exponential(mean_gap)).collect();
    let mut net = Network::new(lcc.n(), flits);
    let (start, stop) = (config.warmup, config.warmup + config.measure);
    let mut tally = Tally::default();
    let mut t = 0u64;
    while t < stop || (tally.delivered < tally.generated && t < stop + config.drain) {
        for (k, &(source, destination)) in streams.iter().enumerate() {
            while next[k] <= t as f64 {
                let measured = (start as f64..stop as f64).contains(&next[k]);
                tally.generated += u64::from(measured);
                net.queues[source as usize].push_back((next[k], destination, measured));
                net.backlog += 1;
                next[k] += rng.exponential(mean_gap);
            }
        }
        if (start..stop).contains(&t) {
            tally.backlog[usize::from(t >= start + config.measure / 2)] += net.backlog;
        }
        let mut granted = net.arbitrate();
        net.inject(t, &mut granted);
        net.advance(t, granted, (start..stop).contains(&t), &mut tally);
        t += 1;
    }
    let per_stream = streams.len().max(1) as f64;
    let accepted = tally.flits_in_window as f64 / (config.measure.max(1) as f64 * per_stream);
    let half = config.measure / 2;
    let backlog_first = tally.backlog[0] as f64 / (half.max(1) as f64 * per_stream);
    let backlog_second =
        tally.backlog[1] as f64 / ((config.measure - half).max(1) as f64 * per_stream);
    // A window of one cycle has no first half to compare with.
    let growing = half > 0 && grew(backlog_first, backlog_second);
    Point {
        offered,
        accepted,
        latency: if tally.delivered == 0 {
            0.0
        } else {
            tally.latency_sum / tally.delivered as f64
        },
        measured: tally.generated,
        delivered: tally.delivered,
        backlog_first,
        backlog_second,
        saturated: tally.delivered < tally.generated || accepted < SUSTAINED * offered || growing,
    }
}

/// One curve: [`run`] at every offered load.
pub fn sweep(lcc: &Lcc, loads: &[f64], config: &SimConfig) -> Vec<Point> {
    loads.iter().map(|&load| run(lcc, load, config)).collect()
}

/// The most a curve delivered at any load: at an overloaded load, not a rate
/// the network sustains ([`super::saturation`] finds that one).
pub fn peak_accepted(points: &[Point]) -> f64 {
    points.iter().map(|p| p.accepted).fold(0.0, f64::max)
}

/// The offered loads of the default sweep, as fractions of one flit per cycle
/// per stream: dense at low load, where a contended communication saturates.
pub fn default_loads() -> Vec<f64> {
    vec![
        0.01, 0.02, 0.04, 0.06, 0.08, 0.10, 0.11, 0.12, 0.13, 0.14, 0.16, 0.20, 0.30, 0.40, 0.50,
        0.60, 0.70, 0.80, 0.85, 0.90, 0.95, 1.0,
    ]
}
