//! The replay of a schedule fed a batch of sends at a time, in step order, so
//! that a generator need never hold all its sends: a total exchange on a
//! 13-cube has 436 M of them (8.1 GiB), while the replay's own state is 8 bytes
//! per packet (512 MiB). Every send goes through the same [`State::send`] and
//! [`State::end_step`] as in [`replay`](super::replay), and the report is the
//! same; a send with an earlier step than one fed before is refused, since the
//! whole-schedule replay would have played it earlier.

use super::{Collective, ReplayError, ReplayOptions, ReplayReport, State, TimedSend, WARM_AHEAD};
use crate::network::Graph;
use crate::schedule::Ports;
use crate::schedule::deroute::Distances;

/// A replay in progress. Feed it with [`StreamReplay::feed`], then take the
/// report from [`StreamReplay::finish`].
pub struct StreamReplay<'g> {
    graph: &'g Graph,
    state: State<'g>,
    collective: Collective,
    ports: Ports,
    /// The step of the last send fed.
    step: Option<u32>,
    transmissions: u64,
    derouted: u64,
    /// Built at the first batch with a personalised send.
    distances: Option<Distances>,
    /// The first refusal; once set, nothing more is played.
    failed: Option<ReplayError>,
}

impl<'g> StreamReplay<'g> {
    /// Starts the replay of `collective` on `graph` (the schedule's network)
    /// under `ports`. `gather`, replayed reversed in time, cannot be
    /// streamed.
    pub fn start(
        graph: &'g Graph,
        ports: Ports,
        collective: Collective,
        options: &ReplayOptions,
    ) -> Result<StreamReplay<'g>, ReplayError> {
        let n = graph.nodes();
        if let Some(root) = collective.root()
            && root as usize >= n
        {
            return Err(ReplayError::RootOutOfRange { root, nodes: n });
        }
        let (_, packets, reversed) = super::plan(collective);
        if reversed {
            return Err(ReplayError::NotStreamable(collective));
        }
        Ok(StreamReplay {
            graph,
            state: State::start(graph, ports, packets, options)?,
            collective,
            ports,
            step: None,
            transmissions: 0,
            derouted: 0,
            distances: None,
            failed: None,
        })
    }

    /// Plays `sends`, which must be in step order and not before any send fed
    /// earlier; otherwise the replay stops and [`finish`](Self::finish)
    /// returns [`ReplayError::OutOfOrder`].
    pub fn feed(&mut self, sends: &[TimedSend]) -> Result<(), ReplayError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let mut previous = self.step;
        for s in sends {
            if let Some(after) = previous
                && s.step < after
            {
                let e = ReplayError::OutOfOrder {
                    step: s.step,
                    after,
                };
                self.failed = Some(e.clone());
                return Err(e);
            }
            previous = Some(s.step);
        }
        let mut warm = 0u32;
        for (k, &s) in sends.iter().enumerate() {
            if k % WARM_AHEAD == 0 {
                for ahead in sends.iter().skip(k + WARM_AHEAD).take(WARM_AHEAD) {
                    warm ^= self.state.warm(ahead);
                }
            }
            if self.step != Some(s.step) {
                if let Some(step) = self.step {
                    self.state.end_step(step);
                }
                self.step = Some(s.step);
            }
            self.state.send(s);
        }
        std::hint::black_box(warm);
        self.transmissions += sends.len() as u64;
        self.count_derouted(sends);
        Ok(())
    }

    fn count_derouted(&mut self, sends: &[TimedSend]) {
        if sends.iter().all(|s| s.packet().is_broadcast()) {
            return;
        }
        let graph = self.graph;
        let distances = self.distances.get_or_insert_with(|| Distances::new(graph));
        self.derouted += distances.count(graph, sends);
    }

    /// Ends the last step, checks that every packet is where it must be, and
    /// reports as [`replay`](super::replay) does on the same sends.
    pub fn finish(mut self) -> Result<ReplayReport, ReplayError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        if let Some(step) = self.step {
            self.state.end_step(step);
        }
        self.state.finish();
        let state = self.state;
        Ok(ReplayReport {
            nodes: self.graph.nodes(),
            directed_links: self.graph.directed_links(),
            ports: self.ports,
            collective: self.collective,
            checked_as: self.collective,
            time: self.step.unwrap_or(0),
            transmissions: self.transmissions,
            derouted: self.derouted,
            peak_queue: state.peak_queue,
            link_use: state.link_use,
            counts: state.counts,
            violations: state.violations,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;
    use crate::schedule::{BROADCAST, Schedule, replay};

    fn streamed(schedule: &Schedule, graph: &Graph, batch: usize) -> ReplayReport {
        let options = ReplayOptions::default();
        let ports = schedule.ports.unwrap();
        let mut stream = StreamReplay::start(graph, ports, schedule.collective, &options).unwrap();
        for chunk in schedule.sends.chunks(batch) {
            stream.feed(chunk).unwrap();
        }
        stream.finish().unwrap()
    }

    /// A valid schedule of `collective` on the 3-cube under all ports: each
    /// packet goes along its bits, lowest first, one hop a step.
    fn greedy(collective: Collective) -> Schedule {
        let mut sends = Vec::new();
        let pairs: Vec<(u32, u32)> = match collective {
            Collective::TotalExchange => (0..8)
                .flat_map(|s| (0..8).filter(move |&d| d != s).map(move |d| (s, d)))
                .collect(),
            Collective::Scatter(r) => (0..8).filter(|&d| d != r).map(|d| (r, d)).collect(),
            _ => unreachable!(),
        };
        for (s, d) in pairs {
            let (mut at, mut step) = (s, 0);
            for bit in (0..3).filter(|b| (s ^ d) >> b & 1 == 1) {
                step += 1;
                let to = at ^ 1 << bit;
                sends.push(TimedSend {
                    step,
                    from: at,
                    to,
                    source: s,
                    destination: d,
                });
                at = to;
            }
        }
        sends.sort_by_key(|s| s.step);
        Schedule {
            network: Some(NetworkName::Hypercube(3)),
            ports: Some(Ports::All),
            collective,
            sends,
        }
    }

    #[test]
    fn streaming_reports_what_the_whole_replay_reports_valid_or_not() {
        let graph = NetworkName::Hypercube(3).build().unwrap();
        let mut schedules = vec![
            greedy(Collective::TotalExchange),
            greedy(Collective::Scatter(5)),
        ];
        // Faults the replay must find the same way: a packet sent twice, a
        // non-link, a bad node, a missing send, a broadcast packet where none is.
        let mut faulty = greedy(Collective::TotalExchange);
        faulty.sends[7].from ^= 6;
        faulty.sends[20].to = 99;
        faulty.sends.remove(40);
        faulty.sends[50].destination = BROADCAST;
        let copy = faulty.sends[60];
        faulty.sends.insert(61, copy);
        schedules.push(faulty);
        for schedule in &schedules {
            let whole = replay(schedule, &graph, &ReplayOptions::default()).unwrap();
            for batch in [1, 7, 64, 1 << 20] {
                assert_eq!(streamed(schedule, &graph, batch), whole, "batch {batch}");
            }
        }
        assert!(
            replay(&schedules[2], &graph, &ReplayOptions::default())
                .unwrap()
                .violation_count()
                > 0
        );
    }

    #[test]
    fn a_send_before_one_already_fed_and_a_reversed_collective_are_refused() {
        let graph = NetworkName::Hypercube(3).build().unwrap();
        let schedule = greedy(Collective::TotalExchange);
        let options = ReplayOptions::default();
        let mut stream =
            StreamReplay::start(&graph, Ports::All, Collective::TotalExchange, &options).unwrap();
        let last = schedule.sends.len() - 1;
        stream.feed(&schedule.sends[last..]).unwrap();
        let early = stream.feed(&schedule.sends[..1]);
        assert!(matches!(
            early,
            Err(ReplayError::OutOfOrder { step: 1, after: 3 })
        ));
        assert!(stream.finish().is_err());
        assert!(matches!(
            StreamReplay::start(&graph, Ports::All, Collective::Gather(0), &options),
            Err(ReplayError::NotStreamable(_))
        ));
    }
}
