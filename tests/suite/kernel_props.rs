//! Property tests of the kernel on random small groups and greedy valid tables:
//! the valid table passes, and each planted mutation is found where it was planted.

use crate::common;

use common::{build, default_links, greedy_table, small_group};
use proptest::prelude::*;
use txverify_core::kernel::{
    Instance, MessageSpec, PlacedWord, TableLetter, Verdict, Violation, check,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn greedy_tables_are_valid(factors in small_group(), seed in 0usize..8) {
        let group = build(&factors);
        let links = default_links(&group);
        let letters: Vec<_> = links.iter().map(|l| l.0).collect();
        let table = greedy_table(&group, &letters, seed);
        let instance = Instance::new(group, links, MessageSpec::Total, None);
        let checked = check(&instance, &table, &[]);
        prop_assert_eq!(checked.violations(), &[]);
        prop_assert!(checked.verdict() != Verdict::Invalid);
        prop_assert!(checked.time() as u64 >= checked.bound().unwrap().value);
    }

    #[test]
    fn deleting_a_word_gives_missing(factors in small_group(), seed in 0usize..8, pick in any::<prop::sample::Index>()) {
        let group = build(&factors);
        let links = default_links(&group);
        let letters: Vec<_> = links.iter().map(|l| l.0).collect();
        let mut table = greedy_table(&group, &letters, seed);
        prop_assume!(!table.words.is_empty());
        table.words.remove(pick.index(table.words.len()));
        let instance = Instance::new(group, links, MessageSpec::Total, None);
        let checked = check(&instance, &table, &[]);
        prop_assert_eq!(checked.violations().len(), 1);
        let is_missing = matches!(checked.violations()[0], Violation::MissingMessage { .. });
        prop_assert!(is_missing);
    }

    #[test]
    fn duplicating_a_word_gives_duplicate(factors in small_group(), seed in 0usize..8, pick in any::<prop::sample::Index>()) {
        let group = build(&factors);
        let links = default_links(&group);
        let letters: Vec<_> = links.iter().map(|l| l.0).collect();
        let mut table = greedy_table(&group, &letters, seed);
        prop_assume!(!table.words.is_empty());
        let time = table.words.iter().map(PlacedWord::last_column).max().unwrap();
        let mut copy = table.words[pick.index(table.words.len())].clone();
        copy.row = table.rows + 1;
        copy.column = time + 1;
        table.rows += 1;
        table.words.push(copy);
        let instance = Instance::new(group, links, MessageSpec::Total, None);
        let checked = check(&instance, &table, &[]);
        prop_assert_eq!(checked.violations().len(), 1);
        let is_duplicate = matches!(&checked.violations()[0], Violation::DuplicateMessage { word, .. } if word.row == table.rows);
        prop_assert!(is_duplicate);
    }

    #[test]
    fn equal_letters_in_one_column_conflict_there(factors in small_group(), seed in 0usize..8, a in any::<prop::sample::Index>(), b in any::<prop::sample::Index>()) {
        let group = build(&factors);
        let links = default_links(&group);
        let letters: Vec<_> = links.iter().map(|l| l.0).collect();
        let mut table = greedy_table(&group, &letters, seed);
        prop_assume!(table.words.len() >= 2);
        let first = a.index(table.words.len());
        let target = &table.words[first];
        let TableLetter::Gen(letter) = target.letters[0] else { unreachable!() };
        let column = target.column;
        // Move another word holding the same letter so that letter lands in `column`.
        let other = (0..table.words.len()).map(|k| (b.index(table.words.len()) + k) % table.words.len())
            .filter(|&k| k != first)
            .find_map(|k| table.words[k].letters.iter().position(|l| *l == TableLetter::Gen(letter))
                .filter(|&offset| offset < column).map(|offset| (k, offset)));
        prop_assume!(other.is_some());
        let (k, offset) = other.unwrap();
        table.rows += 1;
        let moved = &mut table.words[k];
        moved.row = table.rows;
        moved.column = column - offset;
        let instance = Instance::new(group, links, MessageSpec::Total, None);
        let checked = check(&instance, &table, &[]);
        prop_assert_eq!(checked.verdict(), Verdict::Invalid);
        let found = checked.violations().iter().any(|v| matches!(v,
            Violation::ColumnConflict { column: c, .. } if *c == column));
        prop_assert!(found, "no conflict at column {}: {:?}", column, checked.violations());
    }
}
