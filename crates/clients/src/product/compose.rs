//! Algorithms A1 and A2 of seed 000: a total exchange on `A × B` made of total
//! exchanges in the copies of `A` and of `B`.
//!
//! Node `(a, b)` of `A × B` is `a + |A|·b` (mixed radix, first coordinate
//! fastest, as every grid network numbers its nodes). A local exchange moves
//! local packets `(s, d)`; each use of it in a copy names the real packet each
//! local packet stands for, and the local route is played on that copy's nodes.
//! Nothing here is trusted: the composed schedule is replayed as a whole.

use super::factor::LocalExchange;
use txverify_core::schedule::TimedSend;

/// Emits `local` played in one copy: `node` maps local nodes to product nodes,
/// `packet` maps a local packet `(s, d)` to the real packet it carries, and
/// every step is shifted by `offset`.
fn play(
    local: &LocalExchange,
    offset: u32,
    node: impl Fn(u32) -> u32,
    packet: impl Fn(u32, u32) -> (u32, u32),
    out: &mut Vec<TimedSend>,
) {
    for s in &local.sends {
        let (source, destination) = packet(s.source, s.destination);
        out.push(TimedSend {
            step: offset + s.step,
            from: node(s.from),
            to: node(s.to),
            source,
            destination,
        });
    }
}

/// Algorithm A1 (seed 000, section 4, Fig. 3; single-port) on `A × B`.
///
/// Phase 1, rounds `r = 0 … |A|−1`: in every copy `B_i` (nodes `(i, *)`), a
/// total exchange in which `(i, j)` sends `B`-node `k` its packet for `(r, k)`.
/// Phase 2, rounds `k = 0 … |B|−1`: in every copy `A_j`, a total exchange in
/// which `(i, j)` sends `A`-node `l` the packet from `(i, k)` for `(l, j)`
/// (it arrived in phase 1, or is its own when `k = j`). Time
/// `|A|·T_B + |B|·T_A` (Theorem 2).
pub fn a1(a: &LocalExchange, b: &LocalExchange) -> LocalExchange {
    let (n1, n2) = (a.nodes, b.nodes);
    let at = move |x: u32, y: u32| x + n1 * y;
    let mut sends = Vec::with_capacity(
        a.sends.len() * (n2 as usize).pow(2) + b.sends.len() * (n1 as usize).pow(2),
    );
    for r in 0..n1 {
        for i in 0..n1 {
            play(
                b,
                r * b.time,
                |y| at(i, y),
                |j, k| (at(i, j), at(r, k)),
                &mut sends,
            );
        }
    }
    let base = n1 * b.time;
    for k in 0..n2 {
        for j in 0..n2 {
            play(
                a,
                base + k * a.time,
                |x| at(x, j),
                |i, l| (at(i, k), at(l, j)),
                &mut sends,
            );
        }
    }
    LocalExchange::new(n1 * n2, sends)
}

/// The rotation of seed 000, eq. (7): in `B`-exchange `r` (1-based, `r < n`),
/// the packet sent `ℓ` places along `B` is for the `A`-node `ρ_r(ℓ)` places
/// along, `ρ_r(ℓ) = (r − 1) ⊕_{n−1} ℓ ∈ 1 … n−1`.
fn rotation(n: u32, r: u32, l: u32) -> u32 {
    (r - 1 + l - 1) % (n - 1) + 1
}

/// `ℓ` with `rotation(n, r, ℓ) = δ`.
fn rotation_inverse(n: u32, r: u32, delta: u32) -> u32 {
    (delta + 2 * (n - 1) - r) % (n - 1) + 1
}

/// Algorithm A2 (seed 000, section 5, Fig. 5; all-port) on `A × B` with
/// `|A| = |B| = n`: `n` rounds of `T = max(T_A, T_B)` steps; in round `r` every
/// copy `A_j` and every copy `B_i` run an exchange at once (they use links of
/// different dimensions).
///
/// `A`-round 1 moves each node's own packets for its copy of `A`; `A`-round
/// `r + 1` moves what `B`-round `r` brought, eq. (8). `B`-round `r < n` sends
/// `(i, j)`'s packet for `(i + ρ_r(ℓ), j + ℓ)` to `(i, j + ℓ)`, eq. (7);
/// `B`-round `n` sends each node's packets for its own copy of `B`. Time
/// `n·T` (Theorem 4 when `A = B`).
pub fn a2(a: &LocalExchange, b: &LocalExchange) -> LocalExchange {
    let n = a.nodes;
    debug_assert_eq!(n, b.nodes, "A2 needs factors of equal size");
    let at = move |x: u32, y: u32| x + n * y;
    let round = a.time.max(b.time);
    let mut sends = Vec::with_capacity((a.sends.len() + b.sends.len()) * n as usize * n as usize);
    for r in 1..=n {
        let offset = (r - 1) * round;
        for j in 0..n {
            play(
                a,
                offset,
                |x| at(x, j),
                |i, i2| {
                    if r == 1 {
                        (at(i, j), at(i2, j))
                    } else {
                        let l = rotation_inverse(n, r - 1, (i2 + n - i) % n);
                        (at(i, (j + n - l) % n), at(i2, j))
                    }
                },
                &mut sends,
            );
        }
        for i in 0..n {
            play(
                b,
                offset,
                |y| at(i, y),
                |j, k| {
                    if r == n {
                        (at(i, j), at(i, k))
                    } else {
                        let l = (k + n - j) % n;
                        (at(i, j), at((i + rotation(n, r, l)) % n, k))
                    }
                },
                &mut sends,
            );
        }
    }
    LocalExchange::new(n * n, sends)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rotation_is_a_permutation_and_its_inverse_undoes_it() {
        for n in 2..9 {
            for r in 1..n {
                let mut seen: Vec<u32> = (1..n).map(|l| rotation(n, r, l)).collect();
                for l in 1..n {
                    assert_eq!(rotation_inverse(n, r, rotation(n, r, l)), l);
                }
                seen.sort_unstable();
                assert_eq!(seen, (1..n).collect::<Vec<_>>());
            }
        }
        // Round 1 is the natural order, round 2 the left rotation by one (seed 000, section 5).
        assert_eq!(rotation(4, 1, 1), 1);
        assert_eq!(rotation(4, 2, 1), 2);
        assert_eq!(rotation(4, 2, 3), 1);
    }
}
