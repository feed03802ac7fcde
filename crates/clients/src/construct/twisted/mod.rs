//! `gen twisted N1 N2 [N3]`: a total exchange on a twisted torus (no paper; its
//! distance to the lower bound is measured, not claimed).
//!
//! A twisted torus is the Cayley graph of Z^d / L (docs/networks.md, "Twisted
//! tori"). Every shape txverify builds has a symmetry σ that permutes the links
//! in one cycle: a → b → a′ → b′ in 2D, a → b → c → a′ → b′ → c′ in 3D (on
//! vectors (x, y) ↦ (−y, x) and (x, y, z) ↦ (−z, x, y), which map L onto
//! itself; checked below, not assumed). The construction uses it the way the
//! published torus tables do:
//!
//! 1. Messages fall into σ-orbits. For an orbit of full size |S| one shortest
//!    word w is written in row 0 and σ^i(w) in row i: in every column the |S|
//!    rows then use |S| different links, so these orbits fill their columns
//!    completely, one orbit after the other.
//! 2. The shorter orbits, and a few full orbits moved there as fillers, form a
//!    tail that is placed greedily (src/construct/twisted/pack.rs): balanced
//!    shortest vectors, longest first at the earliest column where the letters
//!    can be ordered to be free. The number of moved orbits that gives the
//!    narrowest table is found by trying them in turn.
//!
//! Like every construction it is untrusted: `gen` hands the text to the kernel
//! and the simulator before printing it.

mod pack;

use super::ConstructError;
use super::table::{Header, Table, Token, render};

/// The most nodes `gen twisted` builds (12 × 12 × 24, 3,456 nodes, takes
/// seconds).
pub const MAX_TWISTED_NODES: u64 = 16_384;

/// A twisted shape as Z^d / L.
struct Shape {
    sides: Vec<i64>,
    /// The basis of L, each vector with its pivot dimension, in the order
    /// that reduces a vector into the coordinate box.
    basis: Vec<(Vec<i64>, usize)>,
}

impl Shape {
    fn new(sides: &[i64]) -> Option<Shape> {
        let basis = match *sides {
            [n1, k] => vec![(vec![-k, k], 1), (vec![n1, 0], 0)],
            [k, k2, n3] if k == k2 => vec![
                (vec![k, 0, -k], 0),
                (vec![0, k, -k], 1),
                (vec![0, 0, n3], 2),
            ],
            [k, n2, n3] => vec![
                (vec![k, -k, -k], 0),
                (vec![0, n2, 0], 1),
                (vec![0, 0, n3], 2),
            ],
            _ => return None,
        };
        Some(Shape {
            sides: sides.to_vec(),
            basis,
        })
    }

    fn vectors(&self) -> Vec<Vec<i64>> {
        self.basis.iter().map(|(l, _)| l.clone()).collect()
    }

    /// `v` moved into the coordinate box by lattice vectors.
    fn reduce(&self, mut v: Vec<i64>) -> Vec<i64> {
        for (l, p) in &self.basis {
            let q = v[*p].div_euclid(l[*p]);
            for (vi, li) in v.iter_mut().zip(l) {
                *vi -= q * li;
            }
        }
        v
    }

    /// The coordinates of node `x` (mixed radix, first side fastest).
    fn coords(&self, x: usize) -> Vec<i64> {
        let mut rest = x as i64;
        self.sides
            .iter()
            .map(|&m| {
                let c = rest % m;
                rest /= m;
                c
            })
            .collect()
    }

    /// The node of a vector in the coordinate box.
    fn index(&self, v: &[i64]) -> usize {
        v.iter()
            .zip(&self.sides)
            .rev()
            .fold(0i64, |acc, (&c, &m)| acc * m + c) as usize
    }

    /// σ(v), reduced.
    fn rotate(&self, v: &[i64]) -> Vec<i64> {
        let turned = match *v {
            [x, y] => vec![-y, x],
            [x, y, z] => vec![-z, x, y],
            _ => v.to_vec(),
        };
        self.reduce(turned)
    }

    /// Whether σ maps the lattice onto itself (every basis vector to 0).
    fn sigma_is_symmetry(&self) -> bool {
        self.basis
            .iter()
            .all(|(l, _)| self.rotate(l).iter().all(|&c| c == 0))
    }
}

/// σ on letters (`+e_i` is letter 2i, `−e_i` letter 2i + 1).
fn rotate_letter(d: usize, letter: u8) -> u8 {
    let cycle: &[u8] = if d == 2 {
        &[0, 2, 1, 3]
    } else {
        &[0, 2, 4, 1, 3, 5]
    };
    match cycle.iter().position(|&l| l == letter) {
        Some(i) => cycle[(i + 1) % cycle.len()],
        None => letter,
    }
}

/// A σ-orbit of messages: its members' coordinates (member i is σ^i of the
/// first) and their common distance.
struct Orbit {
    members: Vec<Vec<i64>>,
    distance: usize,
}

/// The σ-orbits of the non-identity elements; every orbit has one member when
/// σ is not a symmetry of the shape.
fn orbits(shape: &Shape, n: usize, use_sigma: bool) -> Vec<Orbit> {
    let basis = shape.vectors();
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for x in 1..n {
        if seen[x] {
            continue;
        }
        let first = shape.coords(x);
        let mut members = vec![first.clone()];
        seen[x] = true;
        let mut next = shape.rotate(&first);
        while use_sigma && next != first {
            seen[shape.index(&next)] = true;
            members.push(next.clone());
            next = shape.rotate(&next);
        }
        let distance = pack::shortest(&first, &basis)
            .first()
            .map_or(0, |c| c.iter().sum::<u32>() as usize);
        out.push(Orbit { members, distance });
    }
    out
}

/// The tail of a table: its placed words and its width.
struct Tail {
    placed: Vec<(usize, Vec<u8>)>,
    width: usize,
}

fn place_tail(shape: &Shape, orbits: &[&Orbit], letters: usize) -> Tail {
    let basis = shape.vectors();
    let choices = orbits
        .iter()
        .flat_map(|o| o.members.iter())
        .map(|t| pack::shortest(t, &basis))
        .collect();
    let placed = pack::place(pack::balance(choices, letters), letters);
    let width = pack::width(&placed);
    Tail { placed, width }
}

/// Splits the orbits into the σ-part (full orbits, in rows) and the tail, with
/// the number of moved full orbits that gives the narrowest table.
fn plan<'a>(shape: &Shape, orbits: &'a [Orbit], letters: usize) -> (Vec<&'a Orbit>, Tail) {
    let (mut full, short): (Vec<&Orbit>, Vec<&Orbit>) =
        orbits.iter().partition(|o| o.members.len() == letters);
    full.sort_by_key(|o| o.distance);
    let longest = orbits.iter().map(|o| o.distance).max().unwrap_or(0);
    let mut best: Option<(usize, usize, Tail)> = None;
    let mut moved_distance = 0;
    for m in 0..=full.len() {
        if m > 0 {
            moved_distance += full[m - 1].distance;
            if moved_distance > 4 * longest + 8 {
                break;
            }
        }
        let mut tail_orbits = short.clone();
        tail_orbits.extend_from_slice(&full[..m]);
        let tail = place_tail(shape, &tail_orbits, letters);
        let time: usize = full[m..].iter().map(|o| o.distance).sum::<usize>() + tail.width;
        if best.as_ref().is_none_or(|(t, _, _)| time < *t) {
            best = Some((time, m, tail));
        }
    }
    let (_, m, tail) = best.unwrap_or((
        0,
        0,
        Tail {
            placed: Vec::new(),
            width: 0,
        },
    ));
    (full.split_off(m), tail)
}

/// The word of a vector's letter counts, letters in increasing order.
fn word_of(counts: &[u32]) -> Vec<u8> {
    counts
        .iter()
        .enumerate()
        .flat_map(|(l, &c)| std::iter::repeat_n(l as u8, c as usize))
        .collect()
}

/// The rows: the σ-part first (row i holds σ^i of every representative), then
/// the tail words laid out by interval colouring.
fn lay_out(shape: &Shape, rotated: &[&Orbit], tail: Tail, letters: usize) -> Table {
    let d = shape.sides.len();
    let basis = shape.vectors();
    let mut table = Table::with_rows(if rotated.is_empty() { 0 } else { letters });
    let mut ends = vec![0usize; table.rows.len()];
    for orbit in rotated {
        let counts = pack::shortest(&orbit.members[0], &basis)
            .into_iter()
            .next()
            .unwrap_or_default();
        let mut word = word_of(&counts);
        for (row, end) in table.rows.iter_mut().zip(ends.iter_mut()) {
            *end += word.len();
            row.push(Token::Word(word.clone()));
            word = word.iter().map(|&l| rotate_letter(d, l)).collect();
        }
    }
    let offset = ends.first().copied().unwrap_or(0);
    let mut placed = tail.placed;
    placed.sort_by_key(|(start, _)| *start);
    for (start, word) in placed {
        let start = start + offset;
        let row = match ends.iter().position(|&e| e <= start) {
            Some(r) => r,
            None => {
                ends.push(0);
                table.rows.push(Vec::new());
                ends.len() - 1
            }
        };
        if start > ends[row] {
            table.rows[row].push(Token::Blank(start - ends[row]));
        }
        ends[row] = start + word.len();
        table.rows[row].push(Token::Word(word));
    }
    table
}

/// The twisted torus table of this shape (`sides` checked by the caller).
pub fn generate(sides: &[usize]) -> Result<String, ConstructError> {
    let words: Vec<String> = sides.iter().map(usize::to_string).collect();
    let label = format!("twisted {}", words.join(" "));
    let sizes: Vec<u64> = sides.iter().map(|&s| s as u64).collect();
    let family = txverify_core::families::Family::new("twisted", &sizes)
        .map_err(|e| ConstructError::Shape(e.to_string()))?;
    if family.order() > MAX_TWISTED_NODES {
        return Err(ConstructError::Shape(format!(
            "{label} has {} nodes; gen twisted builds at most {MAX_TWISTED_NODES}",
            family.order()
        )));
    }
    let header = family.header();
    let group = header
        .lines()
        .find_map(|l| l.strip_prefix("group: "))
        .unwrap_or_default()
        .to_string();
    let s: Vec<i64> = sides.iter().map(|&x| x as i64).collect();
    let shape =
        Shape::new(&s).ok_or_else(|| ConstructError::Shape(format!("{label}: not a shape")))?;
    let d = sides.len();
    let letters = 2 * d;
    let n: usize = sides.iter().product();
    let orbits = orbits(&shape, n, shape.sigma_is_symmetry());
    let (rotated, tail) = plan(&shape, &orbits, letters);
    let table = lay_out(&shape, &rotated, tail, letters);
    let names: Vec<String> = ["a", "a'", "b", "b'", "c", "c'"][..letters]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let head = Header {
        name: format!("twisted{}", words.join("x")),
        notes: Vec::new(),
        source:
            "txverify gen twisted: full orbits of the link rotation a -> b (-> c) -> a' written \
                 as rotated rows, the rest placed greedily (a construction, not optimal in general)"
                .into(),
        group,
        links: names.join(" "),
        network: label,
        time: table.width(),
        optimal: false,
    };
    Ok(render(&head, &names, &table))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape of every family for k = 2 … 6.
    fn shapes() -> Vec<Vec<i64>> {
        (2..=6)
            .flat_map(|k| [vec![2 * k, k], vec![k, k, 2 * k], vec![k, 2 * k, 2 * k]])
            .collect()
    }

    #[test]
    fn the_rotation_is_a_symmetry_of_every_shape() {
        for sides in shapes() {
            let shape = Shape::new(&sides).unwrap();
            assert!(shape.sigma_is_symmetry(), "{sides:?}");
        }
    }

    #[test]
    fn orbits_partition_the_elements_and_keep_their_distance() {
        for sides in shapes() {
            let shape = Shape::new(&sides).unwrap();
            let n = sides.iter().product::<i64>() as usize;
            let orbits = orbits(&shape, n, true);
            let mut count = vec![0; n];
            let basis = shape.vectors();
            for orbit in &orbits {
                for member in &orbit.members {
                    count[shape.index(member)] += 1;
                    let d: u32 = pack::shortest(member, &basis)[0].iter().sum();
                    assert_eq!(d as usize, orbit.distance, "{sides:?} {member:?}");
                }
            }
            assert_eq!(count[0], 0, "{sides:?}: the identity is no message");
            assert!(count[1..].iter().all(|&c| c == 1), "{sides:?}");
        }
    }

    #[test]
    fn the_rotation_of_letters_follows_the_rotation_of_vectors() {
        for d in [2usize, 3] {
            for letter in 0..2 * d as u8 {
                let mut v = vec![0i64; d];
                let i = usize::from(letter / 2);
                v[i] = if letter.is_multiple_of(2) { 1 } else { -1 };
                let turned = match *v.as_slice() {
                    [x, y] => vec![-y, x],
                    [x, y, z] => vec![-z, x, y],
                    _ => unreachable!(),
                };
                let r = rotate_letter(d, letter);
                let j = usize::from(r / 2);
                assert_eq!(
                    turned[j],
                    if r.is_multiple_of(2) { 1 } else { -1 },
                    "{d} {letter}"
                );
            }
        }
    }
}
