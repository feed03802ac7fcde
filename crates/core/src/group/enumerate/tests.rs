//! Unit tests of the enumerator: relator preparation, deduction overflow,
//! compaction and chain tracking.

use super::relators::*;
use super::*;

fn letters(s: &str) -> Vec<GenLetter> {
    let mut out: Vec<GenLetter> = Vec::new();
    for ch in s.chars() {
        if ch == '\'' {
            let last = out.last_mut().expect("prime after a letter");
            last.inverse = !last.inverse;
        } else {
            out.push(GenLetter {
                generator: (ch as u8 - b'a') as u32,
                inverse: false,
            });
        }
    }
    out
}

#[test]
fn reduce_is_free_and_cyclic() {
    assert_eq!(reduce(&letters("aa'")), Vec::<u32>::new());
    assert_eq!(reduce(&letters("b'abb'a'b")), Vec::<u32>::new());
    assert_eq!(reduce(&letters("a'bba")), vec![2, 2]);
    assert_eq!(reduce(&letters("ab'")), vec![0, 3]);
}

#[test]
fn conjugates_are_deduplicated() {
    let p = Presentation {
        generators: vec!["a".into()],
        relators: vec![letters("aaaa"), letters("aaaa"), letters("a'a'a'a'")],
    };
    let r = PreparedRelators::new(&p);
    assert_eq!(r.base.len(), 1);
    assert_eq!(r.conjugates[0].len(), 1);
    assert_eq!(r.conjugates[1].len(), 1);
    assert_eq!(r.trackers, 0);
    let p = Presentation {
        generators: vec!["a".into(), "b".into()],
        relators: vec![letters(&"a".repeat(9)), letters("bb"), letters("abab")],
    };
    let r = PreparedRelators::new(&p);
    assert_eq!(r.tracker, vec![Some(0), None]);
    assert_eq!(r.conjugates[0][0].power, Some((0, 9)));
}

fn pres(gens: usize, relators: &[&str]) -> Presentation {
    Presentation {
        generators: (0..gens)
            .map(|g| ((b'a' + g as u8) as char).to_string())
            .collect(),
        relators: relators.iter().map(|r| letters(r)).collect(),
    }
}

#[test]
fn rotations_and_periods() {
    assert_eq!(rotation_count(&[0, 2, 0, 2, 0, 2]), 2);
    assert_eq!(rotation_count(&[0, 0, 0]), 1);
    assert_eq!(rotation_count(&[0, 2, 1, 3]), 4);
    assert_eq!(rotation_count(&[0, 0, 2, 0, 0]), 5);
    assert!(is_rotation(&[2, 1, 3, 0], &[0, 2, 1, 3]));
    assert!(!is_rotation(&[2, 0, 3, 1], &[0, 2, 1, 3]));
    assert!(!is_rotation(&[0], &[0, 0]));
}

#[test]
fn conjugates_of_a_commutator_and_a_periodic_word() {
    // abAB: four rotations and four of its inverse, two under each letter.
    let r = PreparedRelators::new(&pres(2, &["aba'b'"]));
    assert!(r.conjugates.iter().all(|c| c.len() == 2));
    // (ab)^3: period 2, so two rotations each for the word and its inverse.
    let r = PreparedRelators::new(&pres(2, &["ababab", "bababa", "b'a'b'a'b'a'"]));
    assert_eq!(r.base.len(), 1);
    let total: usize = r.conjugates.iter().map(Vec::len).sum();
    assert_eq!(total, 4);
}

/// Order, peak cosets and the internal paths taken, for a presentation.
fn stats_of(p: &Presentation, max_cosets: usize) -> (usize, Stats) {
    let limits = EnumerationLimits {
        max_cosets,
        ..EnumerationLimits::default()
    };
    let (g, stats) = run(p, &limits).unwrap();
    (g.order(), stats)
}

#[test]
fn deduction_overflow_falls_back_to_full_scans() {
    // MAX_DEDUCTIONS is tiny under test: these enumerations overflow it.
    let cases: [(Presentation, usize); 4] = [
        (pres(2, &["aa", "bbb", "ababababab"]), 60),
        (
            pres(3, &["aa", "bb", "cc", "ababab", "bcbcbcbcbc", "acac"]),
            120,
        ),
        (
            pres(2, &["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "b'aba'a'a'"]),
            256,
        ),
        (pres(2, &["b'aba'a'", "a'bab'b'"]), 1),
    ];
    let mut overflowed = false;
    for (p, order) in cases {
        let (n, stats) = stats_of(&p, 1 << 20);
        assert_eq!(n, order, "{p}");
        overflowed |= stats.full_scans > 0;
    }
    assert!(overflowed, "no case exercised the overflow path");
}

#[test]
fn compaction_keeps_the_answer() {
    // These need more cosets than their order on the way (C_16 ⋊ C_16 and the
    // Fibonacci group F(2,5)); limits between the order and the peak must
    // give the right group (after compacting) or a clean refusal.
    let cases = [
        (
            pres(2, &["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "b'aba'a'a'"]),
            256,
        ),
        (pres(5, &["abc'", "bcd'", "cde'", "dea'", "eab'"]), 11),
    ];
    let mut compacted = false;
    for (p, order) in cases {
        let (_, free) = stats_of(&p, 1 << 20);
        assert!(free.peak > order, "peak {}", free.peak);
        for cap in order..free.peak {
            let limits = EnumerationLimits {
                max_cosets: cap,
                ..EnumerationLimits::default()
            };
            match run(&p, &limits) {
                Ok((g, stats)) => {
                    assert_eq!(g.order(), order);
                    assert!(stats.peak <= cap);
                    compacted |= stats.compactions > 0;
                }
                Err(GroupError::TooManyCosets { limit }) => assert_eq!(limit, cap),
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert!(compacted, "no limit forced a compaction");
}

#[test]
fn chain_union_counts_and_flags_cycles() {
    let mut chain = vec![CHAIN_ROOT | 2; 5];
    chain_union(&mut chain, 0, 1);
    chain_union(&mut chain, 1, 2);
    let r = chain_find(&mut chain, 2);
    assert_eq!(chain[r as usize], CHAIN_ROOT | (3 << 1));
    chain_union(&mut chain, 2, 0);
    let r = chain_find(&mut chain, 0);
    assert_eq!(chain[r as usize], CHAIN_ROOT | (3 << 1) | 1);
    assert_ne!(chain_find(&mut chain, 3), r);
}
