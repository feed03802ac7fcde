//! An independent replay of explicit timed sends, and `.tbl` headers of the
//! Cayley networks the FIFO algorithm is shown on.
//!
//! The replay trusts nothing from the code that produced the sends: it computes
//! its own distances and products by breadth-first search over the links, and
//! plays the sends store-and-forward, one send and one receive per node per
//! step, every hop along a link, every packet delivered exactly once.
#![allow(dead_code)]

use txverify_core::group::{Elem, FiniteGroup, GenLetter};

/// What a replay found when every rule held.
#[derive(Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The last step with a send.
    pub completion_time: usize,
    /// Sends replayed.
    pub hops: u64,
    /// Sends that did not bring their packet one step closer.
    pub derouted: u64,
}

/// Breadth-first search from the identity over the links: distances and, for
/// every element, a word over the links reaching it.
pub fn bfs(group: &FiniteGroup, links: &[GenLetter]) -> (Vec<u32>, Vec<Vec<GenLetter>>) {
    let n = group.order();
    let mut distance = vec![u32::MAX; n];
    let mut word: Vec<Vec<GenLetter>> = vec![Vec::new(); n];
    distance[0] = 0;
    let mut queue = std::collections::VecDeque::from([Elem(0)]);
    while let Some(e) = queue.pop_front() {
        for &l in links {
            let f = group.apply(e, l);
            if distance[f.index()] == u32::MAX {
                distance[f.index()] = distance[e.index()] + 1;
                let mut w = word[e.index()].clone();
                w.push(l);
                word[f.index()] = w;
                queue.push_back(f);
            }
        }
    }
    (distance, word)
}

/// The status s(1): the sum of the distances from the identity.
pub fn status(group: &FiniteGroup, links: &[GenLetter]) -> u64 {
    let (distance, _) = bfs(group, links);
    assert!(
        distance.iter().all(|&d| d != u32::MAX),
        "links do not generate"
    );
    distance.iter().map(|&d| u64::from(d)).sum()
}

/// Replays `(step, from, to, source, destination)` records; `wanted[r]` says
/// whether every node `u` sends a packet to `u·r`.
pub fn replay(
    group: &FiniteGroup,
    links: &[GenLetter],
    wanted: &[bool],
    records: &[(usize, u32, u32, u32, u32)],
) -> Result<Replayed, String> {
    let n = group.order();
    let (distance, word) = bfs(group, links);
    let mul = |a: usize, b: usize| group.apply_word(Elem(a as u32), &word[b]).index();
    let inverse: Vec<usize> = (0..n)
        .map(|a| {
            (0..n)
                .find(|&b| mul(a, b) == 0)
                .expect("every element has an inverse")
        })
        .collect();
    let dist = |a: usize, b: usize| distance[mul(inverse[a], b)];
    const NONE: u32 = u32::MAX;
    // position[source * n + destination]: where the packet is; NONE when no such packet.
    let mut position = vec![NONE; n * n];
    let mut outstanding = 0u64;
    for u in 0..n {
        for r in (1..n).filter(|&r| wanted[r]) {
            position[u * n + mul(u, r)] = u as u32;
            outstanding += 1;
        }
    }
    let mut records = records.to_vec();
    records.sort_by_key(|r| r.0);
    let mut sent = vec![0usize; n];
    let mut received = vec![0usize; n];
    let mut moved = vec![0usize; n * n];
    let mut derouted = 0;
    for &(step, from, to, source, destination) in &records {
        let (from, to, source, destination) = (
            from as usize,
            to as usize,
            source as usize,
            destination as usize,
        );
        if step == 0 {
            return Err("a send at step 0".into());
        }
        if [from, to, source, destination].iter().any(|&x| x >= n) {
            return Err(format!("step {step}: a node number out of range"));
        }
        if !links
            .iter()
            .any(|&l| group.apply(Elem(from as u32), l).index() == to)
        {
            return Err(format!("step {step}: {from} -> {to} is not a link"));
        }
        if sent[from] == step {
            return Err(format!("step {step}: node {from} sends twice"));
        }
        sent[from] = step;
        if received[to] == step {
            return Err(format!("step {step}: node {to} receives twice"));
        }
        received[to] = step;
        let key = source * n + destination;
        if position[key] == NONE {
            return Err(format!("step {step}: no packet {source} -> {destination}"));
        }
        if position[key] as usize == destination {
            return Err(format!(
                "step {step}: packet {source} -> {destination} sent after delivery"
            ));
        }
        if moved[key] == step {
            return Err(format!(
                "step {step}: packet {source} -> {destination} moves twice"
            ));
        }
        if position[key] as usize != from {
            return Err(format!(
                "step {step}: packet {source} -> {destination} is not at {from}"
            ));
        }
        moved[key] = step;
        if dist(to, destination) + 1 != dist(from, destination) {
            derouted += 1;
        }
        position[key] = to as u32;
        if to == destination {
            outstanding -= 1;
        }
    }
    if outstanding > 0 {
        return Err(format!("{outstanding} packets never delivered"));
    }
    Ok(Replayed {
        completion_time: records.last().map_or(0, |r| r.0),
        hops: records.len() as u64,
        derouted,
    })
}

/// A named network: its `.tbl` header, its order, and its diameter when known.
pub struct Net {
    pub name: String,
    pub header: String,
    pub order: usize,
    pub diameter: Option<u32>,
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// The ring of `n` nodes, the Cayley graph of the cyclic group.
pub fn ring(n: usize) -> Net {
    Net {
        name: format!("ring {n}"),
        header: format!("group: <a | a^{n} = 1>"),
        order: n,
        diameter: Some((n / 2) as u32),
    }
}

/// The `d`-cube, a product of `d` groups of order 2.
pub fn hypercube(d: usize) -> Net {
    let factors: Vec<String> = (0..d)
        .map(|i| {
            let g = (b'a' + i as u8) as char;
            format!("<{g} | {g}^2 = 1>")
        })
        .collect();
    Net {
        name: format!("hypercube {d}"),
        header: format!("group: {}", factors.join(" x ")),
        order: 1 << d,
        diameter: Some(d as u32),
    }
}

/// The `p × q` torus.
pub fn torus(p: usize, q: usize) -> Net {
    Net {
        name: format!("torus {p} {q}"),
        header: format!("group: <a | a^{p} = 1> x <b | b^{q} = 1>"),
        order: p * q,
        diameter: Some((p / 2 + q / 2) as u32),
    }
}

/// The star graph: S_N generated by the transpositions (1 i), i = 2..N, with
/// the relations t² = 1, (t_i t_j)³ = 1 and (t_i t_j t_i t_k)² = 1.
pub fn star(n: usize) -> Net {
    let t = |i: usize| format!("{{t{i}}}");
    let gens: Vec<String> = (2..=n).map(|i| format!("{{t{i}}}")).collect();
    let mut rel = Vec::new();
    for i in 2..=n {
        rel.push(format!("{}^2", t(i)));
        for j in 2..=n {
            if j > i {
                rel.push(format!("({}{})^3", t(i), t(j)));
            }
            for k in 2..=n {
                if j != i && k != i && k > j {
                    rel.push(format!("({}{}{}{})^2", t(i), t(j), t(i), t(k)));
                }
            }
        }
    }
    Net {
        name: format!("star {n}"),
        header: format!("group: <{} | {}>", gens.join(", "), rel.join(", ")),
        order: factorial(n),
        diameter: Some((3 * (n - 1) / 2) as u32),
    }
}

/// The pancake graph: S_N (Coxeter generators s1..s(N-1)) with links the
/// prefix reversals r2..rN, each defined as the longest element of S_i.
pub fn pancake(n: usize) -> Net {
    let s = |i: usize| format!("{{s{i}}}");
    let mut gens: Vec<String> = (1..n).map(|i| format!("{{s{i}}}")).collect();
    gens.extend((2..=n).map(|i| format!("{{r{i}}}")));
    let mut rel = Vec::new();
    for i in 1..n {
        rel.push(format!("{}^2", s(i)));
        for j in (i + 1)..n {
            let m = if j == i + 1 { 3 } else { 2 };
            rel.push(format!("({}{})^{m}", s(i), s(j)));
        }
    }
    for i in 2..=n {
        // Longest element of S_i: s1 (s2 s1) (s3 s2 s1) ... (s(i-1) ... s1).
        let mut word = String::new();
        for top in 1..i {
            for k in (1..=top).rev() {
                word.push_str(&s(k));
            }
        }
        rel.push(format!("{{r{i}}} = {word}"));
    }
    let links: Vec<String> = (2..=n).map(|i| format!("{{r{i}}}")).collect();
    let diameter = match n {
        4 => Some(4),
        5 => Some(5),
        6 => Some(7),
        _ => None,
    };
    Net {
        name: format!("pancake {n}"),
        header: format!(
            "group: <{} | {}>\nlinks: {}",
            gens.join(", "),
            rel.join(", "),
            links.join(" ")
        ),
        order: factorial(n),
        diameter,
    }
}

/// The wreath product C2 ≀ C_D: `s` the cyclic shift, `x` the flip of bit 0,
/// `t = sx`; `x` commutes with all its conjugates by powers of `s`.
fn wreath(d: usize) -> String {
    let mut rel = vec![format!("s^{d} = x^2 = 1"), "t = sx".to_string()];
    for i in 1..=d / 2 {
        rel.push(format!("[x, s^-{i} x s^{i}]"));
    }
    format!("group: <s, x, t | {}>", rel.join(", "))
}

/// Cube-connected cycles: links s, s⁻¹, x.
pub fn ccc(d: usize) -> Net {
    let diameter = match d {
        3 => Some(6),
        _ => Some((2 * d + d / 2 - 2) as u32),
    };
    Net {
        name: format!("ccc {d}"),
        header: format!("{}\nlinks: s s' x", wreath(d)),
        order: d << d,
        diameter,
    }
}

/// Wrapped butterfly: links s, s⁻¹, sx, (sx)⁻¹.
pub fn butterfly(d: usize) -> Net {
    Net {
        name: format!("butterfly {d}"),
        header: format!("{}\nlinks: s s' t t'", wreath(d)),
        order: d << d,
        diameter: Some((3 * d / 2) as u32),
    }
}
