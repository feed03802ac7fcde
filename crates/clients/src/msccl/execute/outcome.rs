//! The two verdicts of a run that stops: who waits for whom when thread
//! blocks are left unfinished, and whether the output holds what the
//! collective requires.

use super::{Fault, Finding, Machine};
use crate::msccl::program::Buf;

impl Machine<'_> {
    /// What `t` waits for: the thread block it waits on and why, or `Err`
    /// with the reason when it waits for something that cannot come.
    fn waits_for(&self, t: usize) -> Result<(usize, String), String> {
        if let Some((b, k)) = self.unmet(t) {
            let id = self.tbs[b].1;
            if self.current(b).is_none() {
                let last = self.publications[b]
                    .last()
                    .map_or("none".to_string(), |p| p.number.to_string());
                return Err(format!(
                    "waits for thread block {id} to publish step {k}, but thread block {id} has finished (last published step: {last}); a step depended on must say hasdep=\"1\""
                ));
            }
            return Ok((b, format!("waits for thread block {id} to reach step {k}")));
        }
        let conn = self.recv_conn(t);
        let peer = conn.1;
        let Some(&other) = self.sender.get(&conn) else {
            return Err(format!(
                "would receive from GPU {peer} on channel {}, but no thread block of GPU {peer} sends to this GPU on that channel",
                conn.0
            ));
        };
        if self.current(other).is_none() {
            return Err(format!(
                "would receive from GPU {peer} on channel {}, but its thread block {} there has finished with nothing more to send: a receive without a send",
                conn.0, self.tbs[other].1
            ));
        }
        Ok((
            other,
            format!(
                "waits to receive from GPU {peer} (thread block {}) on channel {}",
                self.tbs[other].1, conn.0
            ),
        ))
    }

    /// A message left on a connection when every thread block has finished:
    /// a send without a receive.
    pub(super) fn unreceived(&self) -> Option<Finding> {
        let (conn, m) = self
            .fifo
            .iter()
            .filter_map(|(c, q)| q.front().map(|m| (c, m)))
            .min_by_key(|(c, _)| **c)?;
        let (s, index) = m.from;
        let sender = &self.ranks[self.tbs[s].0 as usize].tbs[self.tbs[s].1 as usize];
        let step = sender.txs.iter().find(|x| x.index == index);
        Some(Finding {
            fault: Fault::Deadlock,
            gpu: self.tbs[s].0,
            tb: Some(self.tbs[s].1),
            step: Some(index),
            pos: step.map(|x| x.pos),
            slot: None,
            message: format!(
                "it sends {} chunks to GPU {} on channel {} that no receive takes: a send without a receive",
                m.value.len(),
                conn.2,
                conn.0
            ),
        })
    }

    /// The deadlock `t` is part of, or the missing partner it waits for.
    pub(super) fn deadlock(&self, t: usize) -> Finding {
        let mut path: Vec<(usize, String)> = Vec::new();
        let mut u = t;
        loop {
            if let Some(i) = path.iter().position(|&(v, _)| v == u) {
                let cycle: Vec<String> = path[i..]
                    .iter()
                    .map(|(v, why)| format!("{} {why}", self.name(*v)))
                    .collect();
                return self.at(
                    path[i].0,
                    Fault::Deadlock,
                    None,
                    format!("deadlock: {}, which closes the cycle", cycle.join("; ")),
                );
            }
            match self.waits_for(u) {
                Ok((next, why)) => {
                    path.push((u, why));
                    u = next;
                }
                Err(why) => return self.at(u, Fault::Deadlock, None, format!("it {why}")),
            }
        }
    }

    fn name(&self, t: usize) -> String {
        let (g, id) = self.tbs[t];
        let step = self
            .current(t)
            .map_or(String::new(), |x| format!(" step {}", x.index));
        format!("GPU {g} thread block {id}{step}")
    }

    /// Checks the output of every GPU; returns the roots that satisfy a
    /// rooted collective (`[0]` otherwise).
    pub(super) fn check_output(&self) -> Result<Vec<u32>, Finding> {
        let shape = self.shape;
        let roots: Vec<u32> = if shape.coll.rooted() {
            (0..shape.n).collect()
        } else {
            vec![0]
        };
        let mut first_failure = None;
        let mut good = Vec::new();
        for &root in &roots {
            match self.output_fault(root) {
                None => good.push(root),
                Some(f) => {
                    first_failure.get_or_insert(f);
                }
            }
        }
        if good.is_empty() {
            let mut f = first_failure.expect("some root was tried");
            if shape.coll.rooted() {
                f.message = format!(
                    "for no root does the output hold what it must; for root 0: {}",
                    f.message
                );
            }
            return Err(f);
        }
        Ok(if shape.coll.rooted() {
            good
        } else {
            Vec::new()
        })
    }

    /// The first output chunk that is wrong for `root`.
    fn output_fault(&self, root: u32) -> Option<Finding> {
        let shape = self.shape;
        for g in 0..shape.n {
            let (_, output, _) = shape.layout(g);
            for c in 0..shape.output {
                let Some(want) = shape.expected(g, c, root) else {
                    continue;
                };
                let got = self.memory[g as usize][(output + c) as usize]
                    .value
                    .as_ref();
                let message = match got {
                    None => "output chunk {c} is never written".to_string(),
                    Some(v) if *v == want => continue,
                    Some(v) => {
                        let missing: Vec<String> = want
                            .iter()
                            .filter(|x| v.binary_search(x).is_err())
                            .map(|&x| shape.describe(x))
                            .collect();
                        let extra: Vec<String> = v
                            .iter()
                            .filter(|x| want.binary_search(x).is_err())
                            .map(|&x| shape.describe(x))
                            .collect();
                        let mut parts = Vec::new();
                        if !missing.is_empty() {
                            parts.push(format!("missing {}", list(&missing)));
                        }
                        if !extra.is_empty() {
                            parts.push(format!("holding also {}", list(&extra)));
                        }
                        parts.join(", ")
                    }
                };
                return Some(Finding {
                    fault: Fault::WrongData,
                    gpu: g,
                    tb: None,
                    step: None,
                    pos: None,
                    slot: Some((Buf::Output, c)),
                    message: format!(
                        "at the end, output chunk {c} of GPU {g} is wrong: {}",
                        message.replace("{c}", &c.to_string())
                    ),
                });
            }
        }
        None
    }
}

/// At most four items, then how many more.
fn list(items: &[String]) -> String {
    if items.len() <= 4 {
        items.join(", ")
    } else {
        format!("{} and {} more", items[..4].join(", "), items.len() - 4)
    }
}
