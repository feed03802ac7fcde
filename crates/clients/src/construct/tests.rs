//! Structural tests of the generated text: word count, column count, header.
//! (The full check of every generated table is the kernel's, in the integration tests.)

use super::*;

/// Words and time (last non-blank column) of a generated file, read back naively.
fn shape(text: &str) -> (usize, usize, usize) {
    let body = text.split("table:\n").nth(1).expect("a table: line");
    let mut words = 0;
    let mut time = 0;
    let mut rows = 0;
    for line in body.lines().filter(|l| !l.trim().is_empty()) {
        rows += 1;
        let mut col = 0;
        for token in line.split_whitespace() {
            let width = if token.chars().all(|c| c == '.') {
                token.len()
            } else {
                words += 1;
                token.chars().filter(|&c| c != '\'').count()
            };
            col += width;
            if !token.starts_with('.') {
                time = time.max(col);
            }
        }
    }
    (rows, words, time)
}

fn gen_default(family: Family, size: usize) -> String {
    generate(family, size, GenOptions::default()).expect("construction succeeds")
}

fn expect_line(text: &str, line: &str) {
    assert!(
        text.lines().any(|l| l == line),
        "missing `{line}` in\n{}",
        &text[..text.len().min(2000)]
    );
}

#[test]
fn odd_rings_have_n_minus_one_words_and_the_counting_time() {
    for n in (3..200).step_by(2) {
        let text = gen_default(Family::Ring, n);
        let (rows, words, time) = shape(&text);
        assert_eq!((rows, words, time), (2, n - 1, (n * n - 1) / 8), "ring {n}");
        expect_line(&text, "expect: optimal");
        expect_line(&text, &format!("group: <x | x^{n} = 1>"));
    }
}

#[test]
fn even_rings_use_the_dihedral_group_and_reach_the_bound() {
    for n in (4..200).step_by(2) {
        let text = gen_default(Family::Ring, n);
        let (rows, words, time) = shape(&text);
        let expected = if (n / 2) % 2 == 0 {
            n * n / 8
        } else {
            (n * n + 4) / 8
        };
        assert_eq!((rows, words, time), (2, n - 1, expected), "ring {n}");
        expect_line(
            &text,
            &format!("group: <y, Y | y^2 = Y^2 = (yY)^{} = 1>", n / 2),
        );
        expect_line(&text, &format!("expect: time {expected}"));
    }
}

#[test]
fn even_rings_with_the_cyclic_group_do_not_claim_optimality() {
    for n in (4..60).step_by(2) {
        let options = GenOptions {
            group: GroupChoice::Cyclic,
        };
        let text = generate(Family::Ring, n, options).unwrap();
        let (rows, words, time) = shape(&text);
        assert_eq!(
            (rows, words, time),
            (2, n - 1, (n * n + 2 * n) / 8),
            "ring {n}"
        );
        assert!(!text.contains("expect: optimal"));
    }
}

#[test]
fn the_odd_subset_reaches_every_target_the_rings_need() {
    for m in 0..400 {
        let target = m * (m.max(1) - 1) / 2;
        let s = ring::odd_subset(m, target).expect("subset exists");
        assert_eq!(s.iter().sum::<usize>(), target);
    }
}

#[test]
fn hypercubes_have_full_columns() {
    for d in 1..=10 {
        let text = gen_default(Family::Hypercube, d);
        let (rows, words, time) = shape(&text);
        assert_eq!(
            (rows, words, time),
            (d, (1 << d) - 1, 1 << (d - 1)),
            "hypercube {d}"
        );
        let body = text.split("table:\n").nth(1).unwrap();
        assert!(!body.contains('.'), "no blanks in hypercube {d}");
    }
}

#[test]
fn tori_2d_have_the_published_times() {
    for n in 3..=24 {
        if n == 4 {
            continue;
        }
        let text = gen_default(Family::Torus2d, n);
        let (rows, words, time) = shape(&text);
        let expected = if n % 2 == 1 {
            n * (n - 1) * (n + 1) / 8
        } else {
            n * n * n / 8
        };
        assert_eq!((rows, words, time), (4, n * n - 1, expected), "torus2d {n}");
        expect_line(&text, &format!("network: torus {n} {n}"));
    }
}

#[test]
fn tori_3d_have_the_published_times() {
    for n in 3..=10 {
        if n == 4 {
            continue;
        }
        let text = gen_default(Family::Torus3d, n);
        let (rows, words, time) = shape(&text);
        let expected = if n % 2 == 1 {
            n * n * (n - 1) * (n + 1) / 8
        } else {
            n * n * n * n / 8
        };
        assert_eq!(
            (rows, words, time),
            (6, n * n * n - 1, expected),
            "torus3d {n}"
        );
    }
}

#[test]
fn the_six_torus_group_is_the_published_product() {
    let text = gen_default(Family::Torus2d, 6);
    expect_line(
        &text,
        "group: <a, A | a^2 = A^2 = (aA)^3 = 1> x <b, B | b^2 = B^2 = (bB)^3 = 1>",
    );
    expect_line(&text, "links: a b A B");
    expect_line(&text, "expect: time 27");
}

#[test]
fn side_four_tori_point_to_the_hypercube() {
    for family in [Family::Torus2d, Family::Torus3d] {
        let err = generate(family, 4, GenOptions::default()).unwrap_err();
        assert!(matches!(err, ConstructError::NotCovered { .. }), "{err}");
        assert!(err.to_string().contains("hypercube"));
    }
}

#[test]
fn sizes_out_of_range_are_refused() {
    let err = generate(Family::Ring, 2, GenOptions::default()).unwrap_err();
    assert!(matches!(err, ConstructError::SizeOutOfRange { .. }));
    let err = generate(Family::Hypercube, 0, GenOptions::default()).unwrap_err();
    assert!(matches!(err, ConstructError::SizeOutOfRange { .. }));
}

#[test]
fn dihedral_groups_need_even_sizes() {
    let options = GenOptions {
        group: GroupChoice::Dihedral,
    };
    let err = generate(Family::Ring, 7, options).unwrap_err();
    assert!(matches!(err, ConstructError::BadGroupChoice { .. }));
}

#[test]
fn every_construction_runs_on_a_network_of_the_core_families() {
    for family in [
        Family::Ring,
        Family::RingCyclic,
        Family::Hypercube,
        Family::Torus2d,
        Family::Torus3d,
    ] {
        let (min, _) = family.size_range();
        // The smallest construction is a network the one grammar accepts …
        let name = family.network(min);
        assert_eq!(name.to_string().parse(), Ok(name.clone()), "{family}");
        // … and the construction's table names that network.
        if let Ok(text) = generate(family, min, GenOptions::default()) {
            let line = format!("network: {name}");
            assert!(text.lines().any(|l| l == line), "{family}: {text}");
        }
    }
}
