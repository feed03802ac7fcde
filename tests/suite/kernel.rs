//! Kernel tests on groups built in closed form (no parser, no coset enumeration):
//! one positive test per verdict and one negative test per kind of violation.

use crate::common;

use common::default_links;
use common::groups::{cyclic, dihedral, direct_product};
use txverify_core::group::{FiniteGroup, GenLetter};
use txverify_core::kernel::{
    Expectation, Instance, InstanceError, MessageSpec, PlacedWord, Table, TableLetter, Verdict,
    Violation, check,
};

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn renamed(group: FiniteGroup, new: &[&str]) -> FiniteGroup {
    direct_product(&[group], &[names(new)])
}

/// Letters of a row token: one ASCII letter each, `'` inverts; unknown letters kept by name.
fn letters(group: &FiniteGroup, token: &str) -> Vec<TableLetter> {
    let mut out: Vec<TableLetter> = Vec::new();
    for c in token.chars() {
        if c == '\'' {
            if let Some(TableLetter::Gen(g)) = out.last_mut() {
                g.inverse = !g.inverse;
            }
            continue;
        }
        match group
            .generator_names()
            .iter()
            .position(|n| n == &c.to_string())
        {
            Some(i) => out.push(TableLetter::Gen(GenLetter {
                generator: i as u32,
                inverse: false,
            })),
            None => out.push(TableLetter::UnknownName(c.to_string())),
        }
    }
    out
}

/// A table from rows written like the format (`bBb bB`, `Bb B . b`).
fn table(group: &FiniteGroup, rows: &[&str]) -> Table {
    let mut words = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let mut column = 1;
        for token in row.split_whitespace() {
            if token.chars().all(|c| c == '.') {
                column += token.len();
                continue;
            }
            let word = PlacedWord {
                row: r + 1,
                column,
                letters: letters(group, token),
                text: token.to_string(),
            };
            column += word.letters.len();
            words.push(word);
        }
    }
    Table {
        rows: rows.len(),
        words,
    }
}

fn instance(group: FiniteGroup, messages: MessageSpec, ports: Option<usize>) -> Instance {
    let links = default_links(&group);
    Instance::new(group, links, messages, ports)
}

fn d6() -> FiniteGroup {
    renamed(dihedral(6), &["b", "B"])
}

fn c5xc5() -> FiniteGroup {
    direct_product(&[cyclic(5), cyclic(5)], &[names(&["a"]), names(&["b"])])
}

#[test]
fn ring6_dihedral_total_is_optimal_in_5() {
    let group = d6();
    let t = table(&group, &["bBb bB", "Bb B . b"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[Expectation::Time(5), Expectation::Optimal]);
    assert_eq!(checked.violations(), &[]);
    assert_eq!(checked.verdict(), Verdict::Optimal);
    assert_eq!(checked.time(), 5);
    assert!(checked.passed());
}

#[test]
fn ring6_cyclic_total_is_valid_but_not_optimal() {
    let group = renamed(cyclic(6), &["a"]);
    let t = table(&group, &["a aa aaa", "a' a'a'"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[Expectation::Optimal]);
    assert_eq!(checked.verdict(), Verdict::Valid);
    assert_eq!(checked.time(), 6);
    // Sum of distances 1+1+2+2+3 = 9 over 2 links: the bound is 5.
    assert_eq!(checked.bound().unwrap().value, 5);
    assert!(!checked.passed(), "the optimal claim must fail");
}

#[test]
fn mesh5_sigma_table_is_optimal_in_15() {
    let group = c5xc5();
    let rows = [
        "a aa ab aab abb aabb",
        "b bb ba' bba' ba'a' bba'a'",
        "a' a'a' a'b' a'a'b' a'b'b' a'a'b'b'",
        "b' b'b' b'a b'b'a b'aa b'b'aa",
    ];
    let t = table(&group, &rows);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[Expectation::Time(15), Expectation::Optimal]);
    assert_eq!(checked.violations(), &[]);
    assert_eq!(checked.verdict(), Verdict::Optimal);
}

#[test]
fn rectangular_torus_bound_comes_from_the_long_dimension() {
    // Torus 3 x 7: Σ distances = 7·(0+1+1) + 3·(0+1+1+2+2+3+3) = 50, counting bound ⌈50/4⌉ = 13;
    // the b-links alone carry 3·12 = 36 letters, two per column: 18.
    let group = direct_product(&[cyclic(3), cyclic(7)], &[names(&["a"]), names(&["b"])]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &Table::default(), &[]);
    let bound = checked.bound().unwrap();
    assert_eq!(bound.counting, 13);
    assert_eq!(bound.value, 18);
    let best = bound.best_subset.as_ref().unwrap();
    assert_eq!(best.links, names(&["b", "b'"]));
    assert!(bound.exhaustive);
}

#[test]
fn odd_distance_messages_on_the_6_ring() {
    let group = d6();
    let t = table(&group, &["bBb", "B b"]);
    let inst = instance(group, MessageSpec::Odd, None);
    let checked = check(&inst, &t, &[Expectation::Time(3), Expectation::Optimal]);
    assert_eq!(checked.violations(), &[]);
    assert_eq!(checked.messages(), 3);
    assert!(checked.passed());
}

#[test]
fn empty_message_set_gives_valid_empty_table() {
    let group = d6();
    let inst = instance(group, MessageSpec::Distances(vec![9]), None);
    let checked = check(
        &inst,
        &Table::default(),
        &[Expectation::Time(0), Expectation::Optimal],
    );
    assert_eq!(checked.verdict(), Verdict::Optimal);
    assert!(checked.passed());
}

fn only_violation(checked: &txverify_core::kernel::Checked) -> &Violation {
    assert_eq!(checked.verdict(), Verdict::Invalid);
    assert_eq!(checked.violations().len(), 1, "{:#?}", checked.violations());
    &checked.violations()[0]
}

#[test]
fn column_conflict_names_the_column_link_and_both_words() {
    let group = d6();
    // Row 2 starts with `b` in column 1, where row 1's `bBb` starts too.
    let t = table(&group, &["bBb bB", "b B . Bb"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[]);
    let conflict = checked
        .violations()
        .iter()
        .find(|v| matches!(v, Violation::ColumnConflict { .. }))
        .expect("a column conflict");
    match conflict {
        Violation::ColumnConflict {
            column,
            link,
            first,
            second,
        } => {
            assert_eq!(*column, 1);
            assert_eq!(link, "b");
            assert_eq!((first.row, first.word.as_str()), (1, "bBb"));
            assert_eq!((second.row, second.word.as_str()), (2, "b"));
        }
        _ => unreachable!(),
    }
}

#[test]
fn ports_limit_is_enforced_per_column() {
    let group = d6();
    let t = table(&group, &["bBb bB", "Bb B . b"]);
    let inst = instance(group, MessageSpec::Total, Some(1));
    let checked = check(&inst, &t, &[]);
    let ports: Vec<_> = checked
        .violations()
        .iter()
        .filter_map(|v| match v {
            Violation::PortsExceeded {
                column,
                letters,
                ports,
            } => Some((*column, *letters, *ports)),
            _ => None,
        })
        .collect();
    assert_eq!(ports, vec![(1, 2, 1), (2, 2, 1), (3, 2, 1), (5, 2, 1)]);
}

#[test]
fn identity_word_is_rejected() {
    let group = renamed(cyclic(3), &["a"]);
    let t = table(&group, &["a aa'", "a'"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[]);
    assert!(
        matches!(only_violation(&checked), Violation::IdentityWord { word } if word.word == "aa'" && word.column == 2)
    );
}

#[test]
fn duplicate_message_names_both_words() {
    let group = renamed(cyclic(3), &["a"]);
    let t = table(&group, &["a", "a' aa"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[]);
    match only_violation(&checked) {
        Violation::DuplicateMessage {
            word,
            first,
            element,
        } => {
            assert_eq!((word.row, word.column, word.word.as_str()), (2, 2, "aa"));
            assert_eq!((first.row, first.word.as_str()), (2, "a'"));
            assert_eq!(element, "a'");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn missing_message_is_named_as_a_word() {
    let group = d6();
    let t = table(&group, &["bBb", "Bb B . b"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[]);
    match only_violation(&checked) {
        Violation::MissingMessage { element, distance } => {
            assert_eq!(*distance, 2);
            assert_eq!(element, "bB");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn message_outside_the_set_is_rejected() {
    let group = d6();
    let t = table(&group, &["bBb bB", "B b"]);
    let inst = instance(group, MessageSpec::Odd, None);
    let checked = check(&inst, &t, &[]);
    match only_violation(&checked) {
        Violation::UnexpectedMessage { word, distance, .. } => {
            assert_eq!((word.row, word.column, word.word.as_str()), (1, 4, "bB"));
            assert_eq!(*distance, 2);
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn unknown_letter_is_reported_with_its_column() {
    let group = renamed(cyclic(3), &["a"]);
    let t = table(&group, &["a", "a' az"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[]);
    assert!(matches!(only_violation(&checked),
        Violation::UnknownLetter { word, column: 3, letter } if word.word == "az" && letter == "z"));
}

#[test]
fn generator_outside_the_link_set_is_not_a_link() {
    // C2 x C2 with a third generator c = ab; links {a, b} only.
    let base = direct_product(&[cyclic(2), cyclic(2)], &[names(&["a"]), names(&["b"])]);
    let mut action = Vec::new();
    for e in base.elements() {
        for g in 0..2u32 {
            for inverse in [false, true] {
                action.push(
                    base.apply(
                        e,
                        GenLetter {
                            generator: g,
                            inverse,
                        },
                    )
                    .0,
                );
            }
        }
        let ab = base.apply_word(
            e,
            &[
                GenLetter {
                    generator: 0,
                    inverse: false,
                },
                GenLetter {
                    generator: 1,
                    inverse: false,
                },
            ],
        );
        action.extend([ab.0, ab.0]);
    }
    let group = FiniteGroup::from_action(names(&["a", "b", "c"]), action).unwrap();
    let links = vec![
        (
            GenLetter {
                generator: 0,
                inverse: false,
            },
            "a".to_string(),
        ),
        (
            GenLetter {
                generator: 1,
                inverse: false,
            },
            "b".to_string(),
        ),
    ];
    let t = table(&group, &["a c", "b"]);
    let inst = Instance::new(group, links, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[]);
    assert!(matches!(only_violation(&checked),
        Violation::NotALink { column: 2, letter, .. } if letter == "c"));
}

#[test]
fn link_set_defects_make_every_table_invalid() {
    let c5 = renamed(cyclic(5), &["a"]);
    let one_way = vec![(
        GenLetter {
            generator: 0,
            inverse: false,
        },
        "a".to_string(),
    )];
    let inst = Instance::new(c5, one_way, MessageSpec::Total, None);
    assert!(matches!(inst.defects(), [InstanceError::InverseMissing { link, .. }] if link == "a"));

    let c2c2 = direct_product(&[cyclic(2), cyclic(2)], &[names(&["a"]), names(&["b"])]);
    let half = vec![(
        GenLetter {
            generator: 0,
            inverse: false,
        },
        "a".to_string(),
    )];
    let inst = Instance::new(c2c2, half, MessageSpec::Total, None);
    assert!(matches!(
        inst.defects(),
        [InstanceError::NotGenerating {
            reached: 2,
            order: 4
        }]
    ));
    let checked = check(&inst, &Table::default(), &[]);
    assert_eq!(checked.verdict(), Verdict::Invalid);
    assert!(checked.bound().is_none());

    let with_trivial = direct_product(&[cyclic(3), cyclic(1)], &[names(&["a"]), names(&["c"])]);
    let links = vec![
        (
            GenLetter {
                generator: 0,
                inverse: false,
            },
            "a".to_string(),
        ),
        (
            GenLetter {
                generator: 0,
                inverse: true,
            },
            "a'".to_string(),
        ),
        (
            GenLetter {
                generator: 1,
                inverse: false,
            },
            "c".to_string(),
        ),
    ];
    let inst = Instance::new(with_trivial, links, MessageSpec::Total, None);
    assert!(matches!(inst.defects(), [InstanceError::IdentityLink { link }] if link == "c"));
}

#[test]
fn non_shortest_words_are_noted_but_legal() {
    let group = renamed(cyclic(3), &["a"]);
    let t = table(&group, &["a", ". aa"]);
    let inst = instance(group, MessageSpec::Total, None);
    let checked = check(&inst, &t, &[]);
    assert_eq!(checked.verdict(), Verdict::Valid);
    assert_eq!(checked.non_shortest().len(), 1);
    assert_eq!(checked.non_shortest()[0].word.word, "aa");
}

#[test]
fn link_set_defects_are_errors_with_the_messages_reports_print() {
    let c5 = renamed(cyclic(5), &["a"]);
    let a = GenLetter {
        generator: 0,
        inverse: false,
    };
    let inst = Instance::new(c5, vec![(a, "a".to_string())], MessageSpec::Total, None);
    let [defect] = inst.defects() else {
        panic!("one defect expected: {:?}", inst.defects());
    };
    assert_eq!(
        defect.to_string(),
        "the inverse a' of link `a` is not a link (the network must be undirected)"
    );
    // The defect is an error type: it can be returned and chained as one.
    let as_error: &dyn std::error::Error = defect;
    assert!(as_error.source().is_none());

    let c2c2 = direct_product(&[cyclic(2), cyclic(2)], &[names(&["a"]), names(&["b"])]);
    let inst = Instance::new(c2c2, vec![(a, "a".to_string())], MessageSpec::Total, None);
    let messages: Vec<String> = inst.defects().iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        ["the links generate only 2 of the 4 elements (the network is not connected)"]
    );

    let with_trivial = direct_product(&[cyclic(3), cyclic(1)], &[names(&["a"]), names(&["c"])]);
    let c = GenLetter {
        generator: 1,
        inverse: false,
    };
    let links = vec![
        (a, "a".to_string()),
        (a.inverted(), "a'".to_string()),
        (c, "c".to_string()),
    ];
    let inst = Instance::new(with_trivial, links, MessageSpec::Total, None);
    let messages: Vec<String> = inst.defects().iter().map(ToString::to_string).collect();
    assert_eq!(messages, ["link `c` is the identity"]);
}
