//! A fast total-exchange schedule for networks SAT cannot reach: balanced
//! shortest paths and list scheduling.
//!
//! Routing: for each destination, one breadth-first search; each message then
//! walks from its source toward the destination, at every node taking, among
//! the links that bring it one hop closer, the one fewest messages were routed
//! over so far (ties: the lowest link id). Scheduling: the messages are taken
//! longest path first (ties by source, then destination), and each crosses its
//! links in order, each at the earliest step after it arrived at which that
//! directed link is still free (buffering allowed: it may wait). The earliest
//! free step of a link is found with a union-find over its steps, so the whole
//! run is about linear in the number of hops.
//!
//! Nothing here is trusted: the caller replays the sends and judges them.

use crate::network::Graph;
use crate::schedule::TimedSend;

/// The sends of a total exchange on `graph`, in step order.
pub fn list_schedule(graph: &Graph) -> Vec<TimedSend> {
    let routes = balanced_routes(graph);
    let mut order: Vec<usize> = (0..routes.messages.len()).collect();
    // Longest first; `sort_by_key` is stable, so ties keep (source, destination) order.
    order.sort_by_key(|&m| std::cmp::Reverse(routes.hops(m).len()));
    let mut free: Vec<FreeSteps> = (0..graph.directed_links())
        .map(|_| FreeSteps::default())
        .collect();
    let mut sends = Vec::with_capacity(routes.links.len());
    for m in order {
        let (source, destination) = routes.messages[m];
        let mut arrived = 0u32;
        for &link in routes.hops(m) {
            let step = free[link as usize].take_from(arrived + 1);
            let (from, to) = graph.endpoints(link);
            sends.push(TimedSend {
                step,
                from,
                to,
                source,
                destination,
            });
            arrived = step;
        }
    }
    sends.sort_by_key(|s| s.step);
    sends
}

/// Every message's path, as directed link ids, in one flat array.
struct Routes {
    /// `(source, destination)` of message `m`.
    messages: Vec<(u32, u32)>,
    /// `links[starts[m]..starts[m + 1]]` are the links of message `m`, in order.
    links: Vec<u32>,
    starts: Vec<usize>,
}

impl Routes {
    fn hops(&self, m: usize) -> &[u32] {
        &self.links[self.starts[m]..self.starts[m + 1]]
    }
}

/// Shortest paths, each link chosen as the least loaded of those that bring
/// the message closer (see the module notes).
fn balanced_routes(graph: &Graph) -> Routes {
    let n = graph.nodes() as u32;
    let mut load = vec![0u32; graph.directed_links()];
    let mut routes = Routes {
        messages: Vec::new(),
        links: Vec::new(),
        starts: vec![0],
    };
    for d in 0..n {
        let to_d = graph.distances_to(d);
        for s in (0..n).filter(|&s| s != d) {
            let mut u = s;
            while u != d {
                let closer = graph
                    .links_of(u)
                    .filter(|&l| to_d[graph.endpoints(l).1 as usize] + 1 == to_d[u as usize]);
                // The graph is connected, so some link brings `u` closer.
                let Some(link) = closer.min_by_key(|&l| (load[l as usize], l)) else {
                    break;
                };
                load[link as usize] += 1;
                routes.links.push(link);
                u = graph.endpoints(link).1;
            }
            routes.messages.push((s, d));
            routes.starts.push(routes.links.len());
        }
    }
    routes
}

/// The busy steps of one directed link: `next[t]` leads to the earliest free
/// step at or after `t` (union-find with path halving; step 0 is never used).
#[derive(Default)]
struct FreeSteps {
    next: Vec<u32>,
}

impl FreeSteps {
    /// The earliest free step at or after `from`, now marked busy.
    fn take_from(&mut self, from: u32) -> u32 {
        let mut t = from;
        loop {
            self.grow(t);
            let parent = self.next[t as usize];
            if parent == t {
                break;
            }
            let grand = {
                self.grow(parent);
                self.next[parent as usize]
            };
            self.next[t as usize] = grand;
            t = grand;
        }
        self.grow(t + 1);
        self.next[t as usize] = t + 1;
        t
    }

    /// Makes room for step `t` (new steps are free).
    fn grow(&mut self, t: u32) {
        let len = self.next.len() as u32;
        if t >= len {
            let new_len = (t + 1).max(len * 2);
            self.next.extend(len..new_len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    #[test]
    fn free_steps_hand_out_each_step_once() {
        let mut f = FreeSteps::default();
        assert_eq!(f.take_from(1), 1);
        assert_eq!(f.take_from(1), 2);
        assert_eq!(f.take_from(5), 5);
        assert_eq!(f.take_from(3), 3);
        assert_eq!(f.take_from(1), 4);
        assert_eq!(f.take_from(1), 6);
    }

    #[test]
    fn every_message_takes_a_shortest_path() {
        let g = "mesh 3 4".parse::<NetworkName>().unwrap().build().unwrap();
        let sends = list_schedule(&g);
        let hops: u64 = (0..12)
            .flat_map(|s| (0..12).map(move |d| (s, d)))
            .map(|(s, d)| u64::from(g.distance(s, d)))
            .sum();
        assert_eq!(sends.len() as u64, hops);
    }
}
