//! Hypercubes (section 3.2 of the paper), by recursive doubling.
//!
//! The paper prints two tables for d = 4 and refers to earlier work for the general
//! case. The construction here is our own. Think of a table as a schedule: the word
//! of a message x starts at some column and uses its links in consecutive columns;
//! the table is valid iff for every link l the columns in which l is used are all
//! distinct. With full columns (no blanks, shortest words) every link is used exactly
//! once in each of the 2^(d−1) columns, and the rows follow by interval colouring.
//!
//! From a table T for dimension D (M = 2^(D−1) columns) and a second table T' for the
//! same dimension (a relabelled or mirrored copy, or T itself) the table for D + 1
//! takes T in columns 0..M and T' in columns M..2M. Every non-zero x of C2^D is spelled
//! once in each half, so every old link is used once per column. The new link e must
//! be used once per column too: it is attached, in front or behind, to exactly one of
//! the two words of each x (that word then spells x + e), and the column left over holds
//! the word e alone. Which word takes e, and on which side, is a bipartite matching of
//! the 2M − 1 messages to the 2M columns (each message has at most four candidate
//! columns); it is solved with Hopcroft–Karp, retrying with other relabellings when no
//! perfect matching exists.

use super::table::{Header, Table, Token, commutations, render};
use super::{ConstructError, Family, PAPER};

/// A word placed at a start column.
#[derive(Clone, Debug)]
struct Placed {
    start: u32,
    word: Vec<u8>,
}

fn mask(word: &[u8]) -> usize {
    word.iter().fold(0, |m, &l| m | 1 << l)
}

/// A small deterministic generator for the relabellings (no randomness crate needed,
/// and the output is reproducible).
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Maximum bipartite matching (Hopcroft–Karp). `adj[i]` lists the right vertices of
/// left vertex `i`. Returns the right vertex matched to each left vertex, or `None`
/// when some left vertex stays unmatched.
fn perfect_matching(adj: &[Vec<u32>], right: usize) -> Option<Vec<u32>> {
    const NONE: u32 = u32::MAX;
    let left = adj.len();
    let mut match_l = vec![NONE; left];
    let mut match_r = vec![NONE; right];
    let mut dist = vec![0u32; left];
    let mut queue = Vec::with_capacity(left);
    loop {
        // BFS layers from the free left vertices.
        queue.clear();
        for i in 0..left {
            if match_l[i] == NONE {
                dist[i] = 0;
                queue.push(i as u32);
            } else {
                dist[i] = u32::MAX;
            }
        }
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head] as usize;
            head += 1;
            for &r in &adj[i] {
                let j = match_r[r as usize];
                if j == NONE {
                    found = true;
                } else if dist[j as usize] == u32::MAX {
                    dist[j as usize] = dist[i] + 1;
                    queue.push(j);
                }
            }
        }
        if !found {
            break;
        }
        // DFS along the layers (iterative, to stay within the stack on big cubes).
        let mut next_edge = vec![0usize; left];
        for start in 0..left {
            if match_l[start] != NONE {
                continue;
            }
            let mut stack: Vec<usize> = vec![start];
            while let Some(&i) = stack.last() {
                if next_edge[i] >= adj[i].len() {
                    dist[i] = u32::MAX;
                    stack.pop();
                    continue;
                }
                let r = adj[i][next_edge[i]] as usize;
                next_edge[i] += 1;
                let j = match_r[r];
                if j == NONE {
                    // Augment along the stack.
                    let mut r = r as u32;
                    while let Some(i) = stack.pop() {
                        let prev = match_l[i];
                        match_l[i] = r;
                        match_r[r as usize] = i as u32;
                        r = prev;
                    }
                    break;
                } else if dist[j as usize] == dist[i] + 1 {
                    stack.push(j as usize);
                }
            }
        }
    }
    match_l.iter().all(|&r| r != NONE).then_some(match_l)
}

/// One doubling step: `a` and `b` are tables of dimension `dim` (letters 0..dim);
/// the result has dimension `dim + 1`, the new letter being `dim`. With `keep`, the
/// first length-1 word of column 0 of `a` and of the last column of `b` stay without
/// the new letter, so that the result again has length-1 words at both ends (which
/// the next step needs to fill its first and last columns).
fn double(
    a: &[Placed],
    b: &[Placed],
    dim: usize,
    keep: bool,
    rng: &mut XorShift,
) -> Option<Vec<Placed>> {
    let m = 1u32 << (dim - 1);
    let slots = 2 * m;
    let e = dim as u8;
    let mut in_b = vec![u32::MAX; 1 << dim];
    for (j, p) in b.iter().enumerate() {
        in_b[mask(&p.word)] = j as u32;
    }
    let keep_a = keep
        .then(|| a.iter().position(|p| p.start == 0 && p.word.len() == 1))
        .flatten();
    let keep_b = keep
        .then(|| b.iter().position(|p| p.start == m - 1 && p.word.len() == 1))
        .flatten();
    let mut adj = Vec::with_capacity(a.len());
    let mut partner = Vec::with_capacity(a.len());
    for (i, pa) in a.iter().enumerate() {
        let j = in_b[mask(&pa.word)] as usize;
        let pb = &b[j];
        let (ta, la) = (pa.start as i64, pa.word.len() as i64);
        let (tb, lb) = (pb.start as i64 + m as i64, pb.word.len() as i64);
        let mut opts = Vec::with_capacity(4);
        for (kind, s) in [ta - 1, ta + la, tb - 1, tb + lb].into_iter().enumerate() {
            if s < 0 || s >= slots as i64 {
                continue;
            }
            if (kind == 1 && Some(i) == keep_a) || (kind == 2 && Some(j) == keep_b) {
                continue;
            }
            opts.push(s as u32);
        }
        // Shuffled candidate order: the matching found, hence the shape of the next
        // table, then varies with the attempt.
        for k in (1..opts.len()).rev() {
            opts.swap(k, rng.below(k + 1));
        }
        adj.push(opts);
        partner.push(j);
    }
    let matching = perfect_matching(&adj, slots as usize)?;
    let mut free = vec![true; slots as usize];
    let mut out = Vec::with_capacity(2 * a.len() + 1);
    for (i, pa) in a.iter().enumerate() {
        let pb = &b[partner[i]];
        let s = matching[i];
        free[s as usize] = false;
        let tb = pb.start + m;
        let mut wa = pa.word.clone();
        let mut wb = pb.word.clone();
        let (mut sa, mut sb) = (pa.start, tb);
        if pa.start >= 1 && s == pa.start - 1 {
            wa.insert(0, e);
            sa -= 1;
        } else if s == pa.start + pa.word.len() as u32 {
            wa.push(e);
        } else if s == tb - 1 {
            wb.insert(0, e);
            sb -= 1;
        } else {
            wb.push(e);
        }
        out.push(Placed {
            start: sa,
            word: wa,
        });
        out.push(Placed {
            start: sb,
            word: wb,
        });
    }
    let lone = free.iter().position(|&f| f)? as u32;
    out.push(Placed {
        start: lone,
        word: vec![e],
    });
    Some(out)
}

/// `table` with letters renamed by `perm` and, if `mirror`, reversed in time.
fn relabel(table: &[Placed], perm: &[u8], mirror: bool, columns: u32) -> Vec<Placed> {
    table
        .iter()
        .map(|p| {
            let mut word: Vec<u8> = p.word.iter().map(|&l| perm[l as usize]).collect();
            let start = if mirror {
                word.reverse();
                columns - p.start - p.word.len() as u32
            } else {
                p.start
            };
            Placed { start, word }
        })
        .collect()
}

/// How many relabellings each doubling step tries before the search backs up a level.
const ATTEMPTS: usize = 24;
/// How many doubling steps the search may try in all, over every level.
const BUDGET: usize = 4000;

/// The relabelling tried at `attempt` when doubling dimension `dim`: attempts 0 and 1
/// use the table itself, later ones a pseudo-random permutation, sometimes mirrored.
fn relabelling(dim: usize, attempt: usize) -> (Vec<u8>, bool) {
    let mut perm: Vec<u8> = (0..dim as u8).collect();
    if attempt < 2 {
        return (perm, false);
    }
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15 ^ ((dim as u64) << 32) ^ attempt as u64);
    for _ in 0..4 {
        rng.next();
    }
    for i in (1..perm.len()).rev() {
        perm.swap(i, rng.below(i + 1));
    }
    (perm, rng.below(2) == 1)
}

/// Depth-first search over the doubling steps: when no relabelling works at some
/// dimension, the search goes back one dimension and tries that step's next
/// relabelling (a different table one dimension lower changes every candidate list).
fn schedule(d: usize) -> Result<Vec<Placed>, String> {
    let base = vec![Placed {
        start: 0,
        word: vec![0],
    }];
    // stack[i] = (table of dimension i + 1, next attempt for doubling it)
    let mut stack: Vec<(Vec<Placed>, usize)> = vec![(base, 0)];
    let mut spent = 0;
    while stack.len() < d {
        let dim = stack.len();
        let columns = 1u32 << (dim - 1);
        let (table, next) = stack.last_mut().expect("the stack is never empty");
        if *next >= ATTEMPTS {
            stack.pop();
            if stack.is_empty() {
                break;
            }
            continue;
        }
        if spent >= BUDGET {
            return Err(format!(
                "no table found within {BUDGET} doubling steps (stuck at dimension {})",
                dim + 1
            ));
        }
        spent += 1;
        let attempt = *next;
        *next += 1;
        let (perm, mirror) = relabelling(dim, attempt);
        let b = relabel(table, &perm, mirror, columns);
        let mut rng = XorShift(0x2545_f491_4f6c_dd1d ^ ((dim as u64) << 40) ^ attempt as u64);
        let r = double(table, &b, dim, attempt % 2 == 0, &mut rng);
        if let Some(t) = r {
            stack.push((t, 0));
        }
    }
    match stack.pop() {
        Some((table, _)) if stack.len() + 1 == d => Ok(table),
        _ => Err("the doubling search exhausted every relabelling".into()),
    }
}

/// Interval colouring: rows for the placed words (each column holds `d` letters, so
/// `d` rows suffice).
fn rows(mut words: Vec<Placed>, d: usize) -> Option<Table> {
    words.sort_by_key(|p| p.start);
    let mut end = vec![0u32; d];
    let mut table = Table::with_rows(d);
    for p in words {
        let r = (0..d).find(|&r| end[r] <= p.start)?;
        if p.start > end[r] {
            table.rows[r].push(Token::Blank((p.start - end[r]) as usize));
        }
        end[r] = p.start + p.word.len() as u32;
        table.rows[r].push(Token::Word(p.word));
    }
    Some(table)
}

pub(super) fn generate(d: usize) -> Result<String, ConstructError> {
    let fail = |reason: String| ConstructError::Failed {
        family: Family::Hypercube,
        size: d,
        reason,
    };
    let words = schedule(d).map_err(fail)?;
    let table = rows(words, d).ok_or_else(|| fail("more than d words overlap".into()))?;
    let time = 1usize << (d - 1);
    if table.width() != time {
        return Err(fail(format!(
            "table has {} columns, expected {time}",
            table.width()
        )));
    }
    let names: Vec<String> = (0..d)
        .map(|i| ((b'a' + i as u8) as char).to_string())
        .collect();
    let gens: Vec<&str> = names.iter().map(String::as_str).collect();
    let squares = gens
        .iter()
        .map(|g| format!("{g}^2"))
        .collect::<Vec<_>>()
        .join(" = ");
    let mut relations = vec![format!("{squares} = 1")];
    relations.extend(commutations(&gens));
    let header = Header {
        name: format!("hypercube{d}"),
        notes: vec![
            format!("The {d}-dimensional hypercube as C2^{d}, built by recursive doubling:"),
            "two copies of the table one dimension lower side by side, the new link attached"
                .into(),
            "to one word of each message (a bipartite matching gives one per column).".into(),
        ],
        source: format!("{PAPER}, section 3.2 (general d; construction completed)"),
        group: format!("<{} | {}>", gens.join(", "), relations.join(", ")),
        links: gens.join(" "),
        network: format!("hypercube {d}"),
        time,
        optimal: true,
    };
    Ok(render(&header, &names, &table))
}
