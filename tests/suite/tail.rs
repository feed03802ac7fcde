//! The free tail: tables invariant under an automorphism outside their last W
//! columns. The shape is read off the tables' words here, apart from the encoder.

use crate::common;

use common::{Factor, accepts, build, default_links, sample_table, solve_cnf, word_links};
use txverify_clients::construct::{self, Family, GenOptions};
use txverify_core::group::{Elem, FiniteGroup};
use txverify_core::kernel::{self, Instance, LinkId, MessageSpec, Table, Verdict};
use txverify_search::solver::SatAnswer;
use txverify_search::{self as search, EncodingOptions, symmetry};

fn instance(group: FiniteGroup) -> Instance {
    let links = default_links(&group);
    Instance::new(group, links, MessageSpec::Total, None)
}

fn bound(inst: &Instance) -> usize {
    kernel::check(inst, &Default::default(), &[])
        .bound()
        .unwrap()
        .value as usize
}

fn tail_options(links: &[u16], tail: usize) -> EncodingOptions {
    EncodingOptions {
        automorphism: Some(links.to_vec()),
        tail,
        ..EncodingOptions::default()
    }
}

/// One placed word: its message, first column (from 1) and links.
struct Placed {
    element: Elem,
    column: usize,
    links: Vec<LinkId>,
}

fn placed_words(inst: &Instance, table: &Table) -> Vec<Placed> {
    table
        .words
        .iter()
        .map(|word| {
            let links = word_links(inst, &word.letters);
            let element = links.iter().fold(Elem::IDENTITY, |e, &l| inst.step(e, l));
            Placed {
                element,
                column: word.column,
                links,
            }
        })
        .collect()
}

/// Whether `table` (with `time` columns) has the tail shape under the link
/// permutation `perm`: φ(e) is computed by mapping the letters of e's word, so
/// that orbits come from the words alone. Every message of an orbit shorter than
/// φ's order ends in the last `tail` columns, and every full orbit either ends
/// there as a whole or has, for each of its messages e, the word φ(word of e) for
/// φ(e) in the same column.
fn has_tail_shape(inst: &Instance, table: &Table, perm: &[u16], tail: usize, time: usize) -> bool {
    let words = placed_words(inst, table);
    let map = |l: LinkId| LinkId(u32::from(perm[l.index()]));
    let image = |w: &Placed| -> Elem {
        w.links
            .iter()
            .fold(Elem::IDENTITY, |e, &l| inst.step(e, map(l)))
    };
    let of = |e: Elem| words.iter().find(|w| w.element == e).unwrap();
    let order = {
        let mut order = 1;
        let mut p: Vec<u16> = perm.to_vec();
        while p.iter().enumerate().any(|(i, &j)| i != j as usize) {
            p = p.iter().map(|&j| perm[j as usize]).collect();
            order += 1;
        }
        order
    };
    let in_tail = |w: &Placed| w.column + tail > time;
    words.iter().all(|w| {
        let mut orbit = vec![w];
        while image(orbit[orbit.len() - 1]) != w.element {
            orbit.push(of(image(orbit[orbit.len() - 1])));
        }
        if orbit.len() < order {
            return in_tail(w);
        }
        if orbit.iter().all(|v| in_tail(v)) {
            return true;
        }
        orbit.iter().all(|v| {
            let next = of(image(v));
            next.column == v.column
                && next.links == v.links.iter().map(|&l| map(l)).collect::<Vec<_>>()
        })
    })
}

#[test]
fn tail_tables_are_valid_and_have_the_shape() {
    // The quarter turn of the even tori fixes the antipodes, so counting rules it
    // out of a full table; a free tail makes room for what it fixes.
    for n in [4, 6] {
        let inst = instance(build(&[Factor::Dihedral(n), Factor::Dihedral(n)]));
        let time = bound(&inst);
        let per_column = inst.links().len();
        let tailed = symmetry::tailed_candidates(&inst, true, per_column, 1_000_000);
        let quarter = tailed
            .iter()
            .find(|c| c.order == 4)
            .unwrap_or_else(|| panic!("D{n}^2: the quarter turn needs a tail"));
        assert!(
            !symmetry::candidates(&inst, true, 1_000_000)
                .iter()
                .any(|c| c.links == quarter.links),
            "D{n}^2: counting alone keeps the quarter turn"
        );
        // The antipodes (n/2, 0), (0, n/2) and (n/2, n/2) are left free.
        assert_eq!(quarter.free_letters, 2 * n, "D{n}^2");
        assert_eq!(quarter.tail, n, "D{n}^2: the longest free word");
        let encoding =
            search::encode(&inst, time, &tail_options(&quarter.links, quarter.tail)).unwrap();
        let SatAnswer::Sat(model) = solve_cnf(&encoding.cnf) else {
            panic!("D{n}^2: no table with the tail shape at {time}");
        };
        let table = encoding.decode(&inst, &model).unwrap();
        assert_eq!(
            kernel::check(&inst, &table, &[]).verdict(),
            Verdict::Optimal,
            "D{n}^2"
        );
        assert!(
            has_tail_shape(&inst, &table, &quarter.links, quarter.tail, time),
            "D{n}^2"
        );
    }
}

#[test]
fn the_tail_formula_accepts_exactly_the_tables_of_its_shape() {
    let inst = instance(build(&[Factor::Dihedral(6), Factor::Dihedral(6)]));
    let time = bound(&inst);
    let quarter = symmetry::tailed_candidates(&inst, true, 4, 1_000_000)
        .into_iter()
        .find(|c| c.order == 4)
        .unwrap();
    let narrow = search::encode(&inst, time, &tail_options(&quarter.links, quarter.tail)).unwrap();
    // Samples: tables of a wider tail (some have the narrow shape, some not) and
    // tables of the full formula.
    let wide =
        search::encode(&inst, time, &tail_options(&quarter.links, quarter.tail + 6)).unwrap();
    let full = search::encode(&inst, time, &EncodingOptions::default()).unwrap();
    let (mut accepted, mut refused) = (0, 0);
    for (sampled, seeds) in [(&wide, 0..8), (&full, 0..4)] {
        for seed in seeds {
            let table = sample_table(&inst, sampled, seed);
            let shaped = has_tail_shape(&inst, &table, &quarter.links, quarter.tail, time);
            assert_eq!(accepts(&inst, &narrow, &table), shaped, "seed {seed}");
            if shaped {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(refused > 0, "every sample had the narrow shape");
    assert!(accepted > 0, "no sample had the narrow shape");
}

#[test]
fn the_published_torus_tables_have_a_free_tail() {
    // The paper's 2D torus tables (section 3.3): one word per class of the quarter
    // turn a → b → A → B in row 1, its images below, and a block of special words
    // at the end. The formula with that tail accepts them.
    // The widths docs/search.md quotes; the 10 x 10 table's is only read off here.
    for (n, published) in [(6, 9), (8, 12), (10, 15)] {
        let text = construct::generate(Family::Torus2d, n, GenOptions::default()).unwrap();
        let loaded = txverify_core::load::load(&text, &Default::default()).unwrap();
        let inst = &loaded.instance;
        let time = bound(inst);
        let names = inst.link_names();
        let index = |name: &str| names.iter().position(|l| l == name).unwrap() as u16;
        let mut quarter = vec![0u16; names.len()];
        for (from, to) in [("a", "b"), ("b", "A"), ("A", "B"), ("B", "a")] {
            quarter[index(from) as usize] = index(to);
        }
        let tail = (0..=time)
            .find(|&w| has_tail_shape(inst, &loaded.table, &quarter, w, time))
            .unwrap();
        assert!(tail < time / 2, "{n}: the tail is {tail} of {time} columns");
        assert_eq!(tail, published, "{n}");
        if n == 10 {
            continue; // a formula of a million clauses: too slow for a debug build
        }
        let encoding = search::encode(inst, time, &tail_options(&quarter, tail)).unwrap();
        let mut cnf = encoding.cnf.clone();
        for l in encoding.literals_for(inst, &loaded.table).unwrap() {
            cnf.add(&[l]);
        }
        assert!(matches!(solve_cnf(&cnf), SatAnswer::Sat(_)), "{n}");
        // One column less and the table is outside the class.
        if tail > 0 {
            let encoding = search::encode(inst, time, &tail_options(&quarter, tail - 1)).unwrap();
            let mut cnf = encoding.cnf.clone();
            for l in encoding.literals_for(inst, &loaded.table).unwrap() {
                cnf.add(&[l]);
            }
            assert_eq!(solve_cnf(&cnf), SatAnswer::Unsat, "{n}");
        }
    }
}

#[test]
fn a_tail_needs_an_automorphism_and_room() {
    let inst = instance(build(&[Factor::Dihedral(4), Factor::Dihedral(4)]));
    let time = bound(&inst);
    let no_map = EncodingOptions {
        tail: 2,
        ..EncodingOptions::default()
    };
    assert!(matches!(
        search::encode(&inst, time, &no_map),
        Err(search::EncodeError::Tail { tail: 2, .. })
    ));
    let quarter = symmetry::tailed_candidates(&inst, true, 4, 1_000_000)
        .into_iter()
        .next()
        .unwrap();
    assert!(matches!(
        search::encode(&inst, time, &tail_options(&quarter.links, time + 1)),
        Err(search::EncodeError::Tail { .. })
    ));
}

#[test]
fn below_a_full_table_every_symmetry_that_leaves_a_message_free_gets_a_tail() {
    // The 4-star S_4 on (1 2), (1 3), (1 4): 62 letters in 21 columns of 3, one cell
    // spare, so counting keeps every symmetry; with a tail, the largest order first.
    let header = txverify_core::families::Family::new("star", &[4])
        .unwrap()
        .header();
    let loaded = txverify_core::load::load(&header, &Default::default()).unwrap();
    let inst = &loaded.instance;
    let time = bound(inst);
    assert_eq!(time, 21);
    let full = search::encode(inst, time, &EncodingOptions::default())
        .unwrap()
        .full;
    assert!(!full);
    let tailed = symmetry::tailed_candidates(inst, full, 3, 1_000_000);
    assert!(!tailed.is_empty());
    assert!(tailed.iter().all(|c| c.free_letters > 0 && c.tail > 0));
    assert!(tailed.windows(2).all(|w| w[0].order >= w[1].order));
    // The 3-cycle of the links (conjugation by (2 3 4)) fixes the permutations of
    // {2, 3, 4} that commute with it: (2 3 4) and (2 4 3), each 4 letters away.
    let rotation = tailed.iter().find(|c| c.order == 3).unwrap();
    assert_eq!(rotation.free_letters, 8);
    assert_eq!(rotation.tail, 4);
    for c in &tailed {
        let encoding = search::encode(inst, time, &tail_options(&c.links, c.tail)).unwrap();
        if let SatAnswer::Sat(model) = solve_cnf(&encoding.cnf) {
            let table = encoding.decode(inst, &model).unwrap();
            assert_eq!(kernel::check(inst, &table, &[]).verdict(), Verdict::Optimal);
            assert!(has_tail_shape(inst, &table, &c.links, c.tail, time));
        }
    }
}
