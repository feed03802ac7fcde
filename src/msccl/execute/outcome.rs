//! The two verdicts of a run that stops: who waits for whom when thread
//! blocks are left unfinished, and whether the output holds what the
//! collective requires.

use super::{Fault, Finding, Machine};
use crate::msccl::program::Buf;

impl Machine<'_> {
    /// What `t` waits for: the thread block it waits on and why, or `Err`
    /// with the reason when it waits for something that cannot come.
    fn waits_for(&self, t: usize) -> Result<(usize, String), String> {
        let tx = self.current(t).expect("unfinished");
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
        let (conn, map, verb, peer) = if tx.op.receives() && self.received[t].is_none() {
            let c = self.recv_conn(t);
            (c, &self.sender, "receive from", c.1)
        } else {
            let c = self.send_conn(t);
            (c, &self.receiver, "send to", c.2)
        };
        let Some(&other) = map.get(&conn) else {
            return Err(format!(
                "would {verb} GPU {peer} on channel {}, but GPU {peer} has no thread block on that connection",
                conn.0
            ));
        };
        if self.current(other).is_none() {
            return Err(format!(
                "would {verb} GPU {peer} on channel {}, but its thread block {} there has finished: a {} without its {}",
                conn.0,
                self.tbs[other].1,
                if verb == "send to" { "send" } else { "receive" },
                if verb == "send to" { "receive" } else { "send" }
            ));
        }
        Ok((
            other,
            format!("waits to {verb} GPU {peer} (thread block {}) on channel {}", self.tbs[other].1, conn.0),
        ))
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
        let step = self.current(t).map_or(String::new(), |x| format!(" step {}", x.index));
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
                f.message = format!("for no root does the output hold what it must; for root 0: {}", f.message);
            }
            return Err(f);
        }
        Ok(if shape.coll.rooted() { good } else { Vec::new() })
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
                let got = self.memory[g as usize][(output + c) as usize].value.as_ref();
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
