//! Symmetry breaking (`--break-symmetry`): satisfiable formulas stay
//! satisfiable, unsatisfiable ones stay unsatisfiable with a certificate that
//! `verify-proof` re-derives, and on tiny instances every orbit of tables keeps
//! its lexicographically least member (counted by enumerating every table).

use crate::common;

use common::groups::{cyclic, dihedral, direct_product};
use common::{Factor, build, default_links};
use std::collections::{BTreeSet, HashSet, VecDeque};
use txverify_core::group::FiniteGroup;
use txverify_core::kernel::{self, Instance, MessageSpec, Table, TableLetter, Verdict};
use txverify_search::certificate::{self, CertificateError};
use txverify_search::cnf::{Cnf, Lit};
use txverify_search::solver::{SatAnswer, SolveControl, solve_varisat};
use txverify_search::{
    self as search, BreakingMap, EncodeError, EncodingOptions, Outcome, SearchOptions,
    SymmetryBreaking, WordLengths, breaking, encode,
};

fn instance(group: FiniteGroup) -> Instance {
    let links = default_links(&group);
    Instance::new(group, links, MessageSpec::Total, None)
}

fn torus(n: usize, m: usize) -> Instance {
    instance(direct_product(
        &[cyclic(n), cyclic(m)],
        &[vec!["a".into()], vec!["b".into()]],
    ))
}

fn broken(lengths: WordLengths, inst: &Instance) -> EncodingOptions {
    EncodingOptions {
        lengths,
        break_symmetry: Some(breaking::suggested(inst, breaking::DEFAULT_AUTOMORPHISMS)),
        ..EncodingOptions::default()
    }
}

fn search_with(encoding: EncodingOptions) -> SearchOptions {
    SearchOptions {
        encoding,
        jobs: 1,
        ..SearchOptions::default()
    }
}

#[test]
fn breaking_keeps_a_table_where_one_exists() {
    // At the optimum the plain search finds, the broken formula must have a table too.
    // (name, instance, also with words of any length: the 3 x 4 torus's
    // any-length formula takes varisat minutes either way)
    for (name, inst, any) in [
        ("C5 ring", instance(cyclic(5)), true),
        ("D8 ring", instance(dihedral(8)), true),
        ("C6 ring", instance(cyclic(6)), true),
        ("3 x 3 torus", torus(3, 3), true),
        ("5 x 5 torus", torus(5, 5), true),
        ("3 x 4 torus", torus(3, 4), false),
        ("4-cube", instance(build(&[Factor::Elementary(4)])), true),
        (
            "D6 x C3",
            instance(build(&[Factor::Dihedral(6), Factor::Cyclic(3)])),
            false,
        ),
    ] {
        // The shortest-path optimum (a table with shortest words is one of any length too).
        let time = search::minimise(
            &inst,
            &search_with(EncodingOptions::default()),
            None,
            &mut |_| {},
        )
        .unwrap()
        .expect("a table exists")
        .time;
        let lengths: &[WordLengths] = if any {
            &[WordLengths::Shortest, WordLengths::Any]
        } else {
            &[WordLengths::Shortest]
        };
        for &lengths in lengths {
            let encoding = broken(lengths, &inst);
            assert!(
                !encoding.break_symmetry.as_ref().unwrap().maps.is_empty(),
                "{name}: no symmetry to break"
            );
            match search::solve(&inst, time, &search_with(encoding)).unwrap() {
                Outcome::Found(table, _) => {
                    let checked = kernel::check(&inst, &table, &[]);
                    assert_ne!(checked.verdict(), Verdict::Invalid, "{name}");
                    assert!(checked.time() <= time, "{name}");
                }
                other => panic!("{name} {lengths:?} T = {time}: {other:?}"),
            }
        }
    }
}

#[test]
fn an_infeasibility_under_breaking_is_certified_and_re_derived() {
    // The cyclic 8-ring has no table with 9 columns, whatever its words.
    let inst = instance(cyclic(8));
    let dir = std::env::temp_dir().join(format!("txverify-breaking-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = SearchOptions {
        certificate_dir: Some(dir.clone()),
        ..search_with(broken(WordLengths::Any, &inst))
    };
    let Outcome::Infeasible(why) = search::solve(&inst, 9, &options).unwrap() else {
        panic!("C8 in 9 columns is infeasible");
    };
    assert!(why.covers_all_tables, "breaking does not narrow the class");
    let verified = certificate::verify(&inst, &dir).expect("the certificate checks");
    let recorded = verified.provenance.options.break_symmetry.clone().unwrap();
    // The inversion, the time reversal and both: the whole group of the ring's symmetries.
    assert_eq!(recorded.maps.len(), 3);

    let provenance = dir.join("provenance.json");
    let original = std::fs::read_to_string(&provenance).unwrap();
    let mut edited: serde_json::Value = serde_json::from_str(&original).unwrap();
    // A map that is no automorphism is refused when the formula is regenerated.
    edited["options"]["break_symmetry"]["maps"][0]["links"] = serde_json::json!([0, 0]);
    std::fs::write(&provenance, edited.to_string()).unwrap();
    assert!(matches!(
        certificate::verify(&inst, &dir),
        Err(CertificateError::Encode(EncodeError::NotASymmetry {
            index: 0,
            ..
        }))
    ));
    // Leaving a map out gives another formula than the proof's.
    let mut edited: serde_json::Value = serde_json::from_str(&original).unwrap();
    edited["options"]["break_symmetry"]["maps"]
        .as_array_mut()
        .unwrap()
        .pop();
    std::fs::write(&provenance, edited.to_string()).unwrap();
    assert!(matches!(
        certificate::verify(&inst, &dir),
        Err(CertificateError::FormulaDiffers)
    ));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn breaking_is_refused_with_a_restriction_and_for_a_non_symmetry() {
    let inst = torus(3, 4);
    let mut options = broken(WordLengths::Shortest, &inst);
    options.time_reversal = true;
    assert_eq!(
        encode(&inst, 6, &options).unwrap_err(),
        EncodeError::BreakingWithRestriction
    );
    // a → b, a' → b' is no automorphism of C3 × C4.
    let swap = EncodingOptions {
        break_symmetry: Some(SymmetryBreaking {
            maps: vec![BreakingMap {
                links: vec![2, 3, 0, 1],
                reverses_time: false,
            }],
            prefix: 0,
        }),
        ..EncodingOptions::default()
    };
    assert!(matches!(
        encode(&inst, 6, &swap),
        Err(EncodeError::NotASymmetry { index: 0, .. })
    ));
}

/// A table as its set of (first column, links) words, for comparing tables.
type Shape = BTreeSet<(usize, Vec<u32>)>;

fn shape(inst: &Instance, table: &Table) -> Shape {
    table
        .words
        .iter()
        .map(|w| {
            let links = w
                .letters
                .iter()
                .map(|l| match l {
                    TableLetter::Gen(g) => inst.link_of_letter(*g).unwrap().0,
                    TableLetter::UnknownName(_) => panic!("decoded tables have no unknown names"),
                })
                .collect();
            (w.column, links)
        })
        .collect()
}

/// The image of a table under a map, computed on the words (apart from the encoder):
/// every letter through the link permutation, then, for the time reversal, each
/// word reversed with its letters inverted and its columns mirrored.
fn apply(inst: &Instance, time: usize, map: &BreakingMap, table: &Shape) -> Shape {
    let inverse = |l: u32| {
        inst.link_of_letter(inst.links()[l as usize].inverted())
            .unwrap()
            .0
    };
    table
        .iter()
        .map(|(column, links)| {
            let mut word: Vec<u32> = links
                .iter()
                .map(|&l| u32::from(map.links[l as usize]))
                .collect();
            if map.reverses_time {
                word = word.into_iter().rev().map(inverse).collect();
                (time + 2 - column - word.len(), word)
            } else {
                (*column, word)
            }
        })
        .collect()
}

/// Every table of a formula (the formula's models projected on the table).
fn all_tables(inst: &Instance, time: usize, options: &EncodingOptions) -> Vec<(Shape, Vec<Lit>)> {
    let encoding = encode(inst, time, options).unwrap();
    let mut cnf: Cnf = encoding.cnf.clone();
    let mut found = Vec::new();
    loop {
        let control = SolveControl {
            deadline: None,
            stop: Vec::new(),
            proof: None,
            lrat: None,
            on_progress: Box::new(|_| {}),
        };
        let SatAnswer::Sat(model) = solve_varisat(&cnf, control).unwrap().0 else {
            break;
        };
        let table = encoding.decode(inst, &model).unwrap();
        assert_ne!(kernel::check(inst, &table, &[]).verdict(), Verdict::Invalid);
        let lits = encoding.literals_for(inst, &table).unwrap();
        let block: Vec<Lit> = lits.iter().map(|&l| -l).collect();
        cnf.add(&block);
        found.push((shape(inst, &table), lits));
        assert!(found.len() <= 5000, "too many tables for a count test");
    }
    found
}

#[test]
fn every_orbit_keeps_its_lex_least_table() {
    for (name, inst, time, lengths) in [
        ("C5 ring", instance(cyclic(5)), 3, WordLengths::Shortest),
        (
            "C4 ring, any length",
            instance(cyclic(4)),
            3,
            WordLengths::Any,
        ),
        ("3 x 3 torus", torus(3, 3), 3, WordLengths::Shortest),
        (
            "3-cube",
            instance(build(&[Factor::Elementary(3)])),
            4,
            WordLengths::Shortest,
        ),
    ] {
        let plain = EncodingOptions {
            lengths,
            ..EncodingOptions::default()
        };
        let with = broken(lengths, &inst);
        let maps = with.break_symmetry.clone().unwrap().maps;
        let every = all_tables(&inst, time, &plain);
        let kept: HashSet<Shape> = all_tables(&inst, time, &with)
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        let every_shape: HashSet<Shape> = every.iter().map(|(s, _)| s.clone()).collect();
        assert!(kept.is_subset(&every_shape), "{name}");
        assert!(kept.len() < every_shape.len(), "{name}: nothing was broken");

        // The table variables in the comparisons' order, read off a table.
        let encoding = encode(&inst, time, &plain).unwrap();
        let order = breaking::table_variables(&encoding.routes);
        let vector = |lits: &[Lit]| -> Vec<bool> {
            let set: HashSet<Lit> = lits.iter().copied().collect();
            order.iter().map(|v| set.contains(v)).collect()
        };
        let lits_of: std::collections::HashMap<&Shape, &Vec<Lit>> =
            every.iter().map(|(s, l)| (s, l)).collect();

        // Orbits under the group the maps generate, by closure on the words.
        let mut seen: HashSet<Shape> = HashSet::new();
        let mut orbits = 0;
        let mut largest_orbit = 0;
        for (start, _) in &every {
            if seen.contains(start) {
                continue;
            }
            let mut orbit = vec![start.clone()];
            let mut queue = VecDeque::from([start.clone()]);
            seen.insert(start.clone());
            while let Some(t) = queue.pop_front() {
                for map in &maps {
                    let image = apply(&inst, time, map, &t);
                    assert!(
                        every_shape.contains(&image),
                        "{name}: a map leaves the tables"
                    );
                    if seen.insert(image.clone()) {
                        orbit.push(image.clone());
                        queue.push_back(image);
                    }
                }
            }
            orbits += 1;
            largest_orbit = largest_orbit.max(orbit.len());
            assert!(
                orbit.iter().any(|t| kept.contains(t)),
                "{name}: an orbit lost every table"
            );
            let least = orbit.iter().min_by_key(|t| vector(lits_of[t])).unwrap();
            assert!(
                kept.contains(least),
                "{name}: the lex-least table of an orbit is cut"
            );
        }
        assert!(largest_orbit > 1, "{name}");
        assert!(kept.len() >= orbits, "{name}");
        // Where the maps are the whole group but the identity, one table per orbit is left.
        let group_size = group_closure_size(&inst, time, &maps);
        if group_size == maps.len() + 1 {
            assert_eq!(kept.len(), orbits, "{name}");
        }
    }
}

/// The number of distinct maps of tables the maps generate, told apart by their
/// action on the table of every single-letter word in every column.
fn group_closure_size(inst: &Instance, time: usize, maps: &[BreakingMap]) -> usize {
    let probe: Vec<Shape> = (0..inst.links().len() as u32)
        .flat_map(|l| (1..=time).map(move |c| Shape::from([(c, vec![l])])))
        .collect();
    let signature = |f: &dyn Fn(&Shape) -> Shape| -> Vec<Shape> { probe.iter().map(f).collect() };
    let identity = signature(&|s| s.clone());
    let mut elements: Vec<Vec<Shape>> = vec![identity];
    let mut queue = VecDeque::from([0usize]);
    while let Some(i) = queue.pop_front() {
        for map in maps {
            let next: Vec<Shape> = elements[i]
                .iter()
                .map(|s| apply(inst, time, map, s))
                .collect();
            if !elements.contains(&next) {
                elements.push(next);
                queue.push_back(elements.len() - 1);
            }
        }
    }
    elements.len()
}

#[test]
fn the_lex_comparison_is_exact_on_two_bits() {
    // (a1, a2) <=lex (b1, b2) over all 16 assignments.
    let mut cnf = Cnf::new();
    let vars: Vec<Lit> = (0..4).map(|_| cnf.fresh()).collect();
    breaking::lex_at_most(&mut cnf, &[(vars[0], vars[2]), (vars[1], vars[3])]);
    for bits in 0..16u32 {
        let value = |i: usize| bits >> i & 1 == 1;
        let mut fixed = cnf.clone();
        for (i, &v) in vars.iter().enumerate() {
            fixed.add(&[if value(i) { v } else { -v }]);
        }
        let expected = (value(0), value(1)) <= (value(2), value(3));
        assert_eq!(
            common::solve_cnf(&fixed) != SatAnswer::Unsat,
            expected,
            "{bits:04b}"
        );
    }
}

#[test]
fn the_link_permutations_are_checked_automorphisms() {
    let inst = instance(build(&[Factor::Elementary(3)]));
    let suggested = breaking::suggested(&inst, 100);
    // S_3 on the three links: 5 automorphisms, and the time reversal alone and after each.
    assert_eq!(suggested.maps.len(), 11);
    assert!(breaking::table_maps(&inst, &suggested).is_ok());
}

#[test]
fn the_command_line_breaks_symmetry_and_verify_proof_names_the_maps() {
    use common::cli::{file, txverify};
    // The cyclic 6-ring needs 6 columns, whatever its words.
    let path = file("breaking-c6.tbl", "group: <a | a^6>\ntable:\n");
    let dir = std::env::temp_dir().join(format!("txverify-breaking-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (path, dir_arg) = (path.to_str().unwrap(), dir.to_str().unwrap());
    let run = txverify(&[
        "search",
        "-q",
        "--jobs",
        "1",
        "--time",
        "5",
        "--any-length",
        "--break-symmetry",
        "--certificate",
        dir_arg,
        path,
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("infeasible T=5"), "{}", run.stderr);
    let verified = txverify(&["verify-proof", path, dir_arg]);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
    assert!(
        verified.stdout.contains("symmetry breaking: 3 maps"),
        "{}",
        verified.stdout
    );
    assert!(
        !verified.stdout.contains("note: the class is restricted"),
        "{}",
        verified.stdout
    );
    std::fs::remove_dir_all(&dir).ok();

    // A table is still found at the optimum, and breaking does not mix with a restriction.
    let run = txverify(&[
        "search",
        "-q",
        "--jobs",
        "1",
        "--time",
        "6",
        "--break-symmetry",
        path,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = txverify(&[
        "search",
        "-q",
        "--time",
        "6",
        "--break-symmetry",
        "--symmetry",
        "reverse",
        path,
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
}
