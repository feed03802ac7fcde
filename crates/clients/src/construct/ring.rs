//! Rings (section 3.1 of the paper).
//!
//! * Odd `n`, group C_n: row 1 holds x, xx, …, x^m and row 2 their inverses
//!   (m = (n − 1)/2); time m(m + 1)/2 = (n² − 1)/8, the counting bound.
//! * Even `n = 2k`, dihedral group D_n of order n (`y`, `Y` reflections): the paper shows
//!   a truncated table for n = 12 and says the general case "can easily be derived". The
//!   construction here is our own: row 1 is the alternating string `yYyY…` and row 2 the
//!   complementary `YyYy…`, so every column holds y and Y once whatever the word
//!   boundaries are; a word starting in an even column of row 1 (odd of row 2) goes one
//!   way round the ring, the others the opposite way. The words of even length 2, 4, …
//!   come first in both rows (they keep the parity), then the odd lengths in pairs
//!   (both directions of one length back to back), split between the rows by a subset
//!   of {1, 3, …} with sum m(m − 1)/2 (m = ⌊k/2⌋) so that the rows balance, and the
//!   antipodal word of length k in the row that needs it. The time is k²/2 for even k and
//!   (k² + 1)/2 for odd k: the counting bound.
//! * Even `n = 2k`, cyclic group: row 1 holds x … x^k, row 2 x' … x'^(k−1); time
//!   k(k + 1)/2 = (n² + 2n)/8, which is above the counting bound, so the file does not
//!   claim optimality.

use super::table::{Header, Table, Token, render};
use super::{ConstructError, Family, GroupChoice, PAPER};

pub(super) fn generate(n: usize, choice: GroupChoice) -> Result<String, ConstructError> {
    let family = if choice == GroupChoice::Cyclic {
        Family::RingCyclic
    } else {
        Family::Ring
    };
    match (n % 2, choice) {
        (1, GroupChoice::Dihedral) => Err(ConstructError::BadGroupChoice {
            family,
            size: n,
            reason: "the dihedral group of order n needs an even n".into(),
        }),
        (1, _) => Ok(cyclic(n)),
        (_, GroupChoice::Cyclic) => Ok(cyclic(n)),
        _ => dihedral(n),
    }
}

/// C_n with links x, x': powers of x in row 1, of x' in row 2.
fn cyclic(n: usize) -> String {
    let up = n / 2; // row 1: x .. x^up (the antipode when n is even)
    let down = (n - 1) / 2;
    let mut table = Table::with_rows(2);
    table.rows[0] = (1..=up).map(|i| Token::Word(vec![0; i])).collect();
    table.rows[1] = (1..=down).map(|i| Token::Word(vec![1; i])).collect();
    let time = up * (up + 1) / 2;
    let even = n.is_multiple_of(2);
    let mut notes = vec![format!(
        "Ring of {n} nodes as the cyclic group C{n}: row 1 holds the powers of x, row 2 those of x'."
    )];
    if even {
        notes.push(format!(
            "For even n the cyclic group is slower than the dihedral one ({time} steps \
             against the counting bound); the table is valid but not optimal."
        ));
        notes.push(format!(
            "It is optimal among tables over C{n} whose words are shortest paths: for 0 < k < {half} the \
             only shortest words to x^k and x^-k are x^k and x'^k, so each link carries at least \
             {base} letters, and the antipodal message adds {half} to one of them: {time} columns.",
            half = n / 2,
            base = (n / 2 - 1) * (n / 2) / 2,
        ));
    }
    let header = Header {
        name: format!("ring{n}-cyclic"),
        notes,
        source: format!("{PAPER}, section 3.1"),
        group: format!("<x | x^{n} = 1>"),
        links: "x x'".into(),
        network: format!("ring {n}"),
        time,
        optimal: !even,
    };
    render(&header, &["x".into(), "x'".into()], &table)
}

/// Subset of the odd numbers 1, 3, …, 2m − 1 with sum `target`, largest first.
///
/// The subset sums of the first j odd numbers are exactly 0..=j² except 2 and j² − 2,
/// so a greedy choice that keeps the rest reachable never gets stuck.
pub(super) fn odd_subset(m: usize, target: usize) -> Option<Vec<usize>> {
    let reachable = |r: usize, j: usize| r <= j * j && r != 2 && (j * j < 2 || r != j * j - 2);
    if !reachable(target, m) {
        return None;
    }
    let mut rest = target;
    let mut chosen = Vec::new();
    for j in (1..=m).rev() {
        let x = 2 * j - 1;
        if rest >= x && reachable(rest - x, j - 1) {
            chosen.push(x);
            rest -= x;
        }
    }
    (rest == 0).then_some(chosen)
}

/// D_n (order n = 2k) with links y, Y.
fn dihedral(n: usize) -> Result<String, ConstructError> {
    let k = n / 2;
    let m = k / 2;
    let target = m * m.saturating_sub(1) / 2;
    let part = odd_subset(m, target).ok_or_else(|| ConstructError::Failed {
        family: Family::Ring,
        size: n,
        reason: format!("no subset of the first {m} odd numbers sums to {target}"),
    })?;
    let rest: Vec<usize> = (1..=m)
        .rev()
        .map(|j| 2 * j - 1)
        .filter(|x| !part.contains(x))
        .collect();
    let evens: Vec<usize> = (1..).map(|j| 2 * j).take_while(|&e| e < k).collect();
    let pairs = |xs: &[usize]| xs.iter().flat_map(|&x| [x, x]).collect::<Vec<_>>();
    // Word lengths of each row, in order.
    let (row1, row2): (Vec<usize>, Vec<usize>) = if k.is_multiple_of(2) {
        (
            [evens.clone(), vec![k], pairs(&part)].concat(),
            [evens, pairs(&rest)].concat(),
        )
    } else {
        (
            [evens.clone(), pairs(&rest)].concat(),
            [evens, pairs(&part), vec![k]].concat(),
        )
    };
    let mut table = Table::with_rows(2);
    for (r, lengths) in [row1, row2].iter().enumerate() {
        // Row 1 reads y Y y Y …, row 2 reads Y y Y y …: letter of column c is (c + r) mod 2.
        let mut col = 0;
        for &len in lengths {
            let word = (col..col + len).map(|c| ((c + r) % 2) as u8).collect();
            table.rows[r].push(Token::Word(word));
            col += len;
        }
    }
    let time = if k.is_multiple_of(2) {
        k * k / 2
    } else {
        (k * k).div_ceil(2)
    };
    if table.width() != time {
        return Err(ConstructError::Failed {
            family: Family::Ring,
            size: n,
            reason: format!("table has {} columns, expected {time}", table.width()),
        });
    }
    let header = Header {
        name: format!("ring{n}-dihedral"),
        notes: vec![
            format!(
                "Ring of {n} nodes as the dihedral group of order {n}. Row 1 reads yYyY..., \
                 row 2 YyYy..., so every column holds y and Y once;"
            ),
            "even word lengths first, then both directions of each odd length back to back.".into(),
        ],
        source: format!(
            "{PAPER}, section 3.1 (even n; general case completed, see docs/published-errata.md)"
        ),
        group: format!("<y, Y | y^2 = Y^2 = (yY)^{k} = 1>"),
        links: "y Y".into(),
        network: format!("ring {n}"),
        time,
        optimal: true,
    };
    Ok(render(&header, &["y".into(), "Y".into()], &table))
}
