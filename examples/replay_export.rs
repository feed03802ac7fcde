//! Replays a total-exchange export (`txverify export FILE`, JSON) on its own,
//! without the txverify library: a runtime's view of the file.
//!
//! `cargo run --release --example replay_export -- FILE.json`
//!
//! The file is read with serde_json only; the network is rebuilt here from its
//! name (`ring N`, `linear N`, `torus N1 N2 …`, `mesh N1 N2 …`, `hypercube D`,
//! `complete N`, numbered as docs/schedule.md says); the replay is the loop
//! below. Every node starts holding its own N − 1 messages; at each step every
//! send must move a message its sender holds at the start of the step to a
//! physical neighbour, each direction of a link carries at most one message per
//! step, and a node makes at most K sends and K receives per step under
//! `ports: K`. At the end every node must hold exactly the messages addressed to
//! it. The verdict goes to standard output; exit status 0 valid, 1 violations,
//! 2 a file that cannot be read. Sharing no code with the library's simulator is
//! the point: a bug in one is unlikely to hide in the other.

use serde::Deserialize;
use std::collections::HashMap;
use std::process::ExitCode;

/// The fields of a `txverify-schedule/1` document this replay needs.
#[derive(Deserialize)]
struct Export {
    schema: String,
    network: String,
    ports: serde_json::Value,
    collective: String,
    sends: Vec<Send>,
}

/// One send: at `step` node `from` passes to `to` the message `source` wrote
/// for `destination`.
#[derive(Deserialize, Clone, Copy)]
struct Send {
    step: u64,
    from: u64,
    to: u64,
    source: u64,
    destination: u64,
}

/// A grid with or without wrap-around, or a complete graph: every network an
/// export names.
enum Network {
    Grid { sides: Vec<u64>, wrap: bool },
    Complete(u64),
}

/// At most this many nodes: the export itself stops at 2^25 sends, and a total
/// exchange on N nodes needs at least N(N − 1) of them.
const MAX_NODES: u64 = 1 << 16;

impl Network {
    fn parse(name: &str) -> Result<Network, String> {
        let mut words = name.split_whitespace();
        let family = words.next().unwrap_or("");
        let sizes: Vec<u64> = words
            .map(|w| w.parse::<u64>().map_err(|_| format!("`{w}` is not a size")))
            .collect::<Result<_, _>>()?;
        let one = || match sizes[..] {
            [n] => Ok(n),
            _ => Err(format!("`{family}` takes one size")),
        };
        let network = match family {
            "ring" => Network::Grid {
                sides: vec![one()?],
                wrap: true,
            },
            "linear" => Network::Grid {
                sides: vec![one()?],
                wrap: false,
            },
            "torus" | "mesh" if !sizes.is_empty() => Network::Grid {
                sides: sizes.clone(),
                wrap: family == "torus",
            },
            "hypercube" if one()? <= 16 => Network::Grid {
                sides: vec![2; one()? as usize],
                wrap: true,
            },
            "complete" => Network::Complete(one()?),
            _ => return Err(format!("network `{name}` is not one this replay knows")),
        };
        let nodes = network.nodes();
        if nodes == 0 || nodes > MAX_NODES {
            return Err(format!(
                "network `{name}` has {nodes} nodes (1 … {MAX_NODES} here)"
            ));
        }
        Ok(network)
    }

    fn nodes(&self) -> u64 {
        match self {
            Network::Grid { sides, .. } => sides
                .iter()
                .try_fold(1u64, |n, &s| n.checked_mul(s))
                .unwrap_or(u64::MAX),
            Network::Complete(n) => *n,
        }
    }

    /// Whether `a` and `b` are joined by a link: on a grid, they differ in one
    /// coordinate (mixed radix, first coordinate fastest) by one, or by
    /// side − 1 when it wraps around.
    fn adjacent(&self, a: u64, b: u64) -> bool {
        match self {
            Network::Complete(_) => a != b,
            Network::Grid { sides, wrap } => {
                let (mut a, mut b) = (a, b);
                let mut differing = 0;
                for &side in sides {
                    let (x, y) = (a % side, b % side);
                    a /= side;
                    b /= side;
                    if x == y {
                        continue;
                    }
                    differing += 1;
                    let gap = x.abs_diff(y);
                    if gap != 1 && !(*wrap && gap == side - 1) {
                        return false;
                    }
                }
                differing == 1
            }
        }
    }
}

/// Replays the sends; returns the violations found (empty: valid) and the last step.
fn replay(network: &Network, ports: Option<u64>, sends: &mut [Send]) -> (Vec<String>, u64) {
    let n = network.nodes();
    let mut faults = Vec::new();
    // Where each message is, for the ones that have moved (the others are at
    // their source).
    let mut at: HashMap<(u64, u64), u64> = HashMap::new();
    sends.sort_by_key(|s| s.step);
    let mut last = 0;
    for group in sends.chunk_by(|a, b| a.step == b.step) {
        let step = group[0].step;
        last = step;
        let mut moves = Vec::new();
        let mut busy: HashMap<(u64, u64), u64> = HashMap::new();
        let mut sent: HashMap<u64, u64> = HashMap::new();
        let mut received: HashMap<u64, u64> = HashMap::new();
        let mut moved: HashMap<(u64, u64), u64> = HashMap::new();
        for s in group {
            let what = format!(
                "step {step}: {} -> {} carrying {} -> {}",
                s.from, s.to, s.source, s.destination
            );
            if step == 0 {
                faults.push(format!("{what}: steps count from 1"));
                continue;
            }
            if [s.from, s.to, s.source, s.destination]
                .iter()
                .any(|&x| x >= n)
            {
                faults.push(format!("{what}: a node number is not below {n}"));
                continue;
            }
            if s.source == s.destination {
                faults.push(format!(
                    "{what}: no such message (a node sends nothing to itself)"
                ));
                continue;
            }
            if !network.adjacent(s.from, s.to) {
                faults.push(format!(
                    "{what}: {} and {} are not neighbours",
                    s.from, s.to
                ));
            }
            let key = (s.source, s.destination);
            let holder = at.get(&key).copied().unwrap_or(s.source);
            if holder != s.from {
                faults.push(format!(
                    "{what}: the message is at node {holder} at the start of the step"
                ));
                continue;
            }
            if moved.insert(key, s.to).is_some() {
                faults.push(format!("{what}: the message is sent twice in one step"));
                continue;
            }
            *busy.entry((s.from, s.to)).or_default() += 1;
            *sent.entry(s.from).or_default() += 1;
            *received.entry(s.to).or_default() += 1;
            moves.push((key, s.to));
        }
        for (&(from, to), &count) in &busy {
            if count > 1 {
                faults.push(format!(
                    "step {step}: link {from} -> {to} carries {count} messages"
                ));
            }
        }
        if let Some(k) = ports {
            for (&node, &count) in &sent {
                if count > k {
                    faults.push(format!(
                        "step {step}: node {node} sends {count} (ports {k})"
                    ));
                }
            }
            for (&node, &count) in &received {
                if count > k {
                    faults.push(format!(
                        "step {step}: node {node} receives {count} (ports {k})"
                    ));
                }
            }
        }
        at.extend(moves);
    }
    // Every message at its destination: exactly the N − 1 addressed to each node.
    let delivered = at.iter().filter(|&(&(_, d), &node)| node == d).count() as u64;
    if delivered != n * (n - 1) {
        let mut shown = 0;
        'all: for s in 0..n {
            for d in (0..n).filter(|&d| d != s) {
                let node = at.get(&(s, d)).copied().unwrap_or(s);
                if node != d {
                    faults.push(format!(
                        "at the end: message {s} -> {d} is at node {node}, not at {d}"
                    ));
                    shown += 1;
                    if shown == 10 {
                        break 'all;
                    }
                }
            }
        }
        faults.push(format!(
            "at the end: {} of the {} messages are not at their destination",
            n * (n - 1) - delivered,
            n * (n - 1)
        ));
    }
    (faults, last)
}

fn read(path: &str) -> Result<(Export, Network, Option<u64>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let export: Export = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    if export.schema != "txverify-schedule/1" {
        return Err(format!(
            "{path}: schema `{}`, not txverify-schedule/1",
            export.schema
        ));
    }
    if export.collective != "total-exchange" {
        return Err(format!(
            "{path}: collective `{}`, not total-exchange",
            export.collective
        ));
    }
    let network = Network::parse(&export.network).map_err(|e| format!("{path}: {e}"))?;
    let ports = match &export.ports {
        serde_json::Value::String(s) if s == "all" => None,
        serde_json::Value::Number(k) if k.as_u64().is_some_and(|k| k >= 1) => k.as_u64(),
        other => {
            return Err(format!(
                "{path}: ports must be \"all\" or a number ≥ 1, not {other}"
            ));
        }
    };
    Ok((export, network, ports))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = &args[..] else {
        eprintln!("usage: replay_export FILE.json   (a `txverify export` of a total exchange)");
        return ExitCode::from(2);
    };
    let (mut export, network, ports) = match read(path) {
        Ok(read) => read,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let sends = export.sends.len();
    let (faults, last) = replay(&network, ports, &mut export.sends);
    let n = network.nodes();
    if faults.is_empty() {
        println!(
            "{path}: VALID on {} ({n} nodes): {sends} sends in {last} steps; every node holds exactly the {} messages addressed to it",
            export.network,
            n - 1
        );
        ExitCode::SUCCESS
    } else {
        println!(
            "{path}: INVALID on {} ({n} nodes): {} violations",
            export.network,
            faults.len()
        );
        for fault in faults.iter().take(20) {
            println!("  {fault}");
        }
        if faults.len() > 20 {
            println!("  … and {} more", faults.len() - 20);
        }
        ExitCode::from(1)
    }
}
