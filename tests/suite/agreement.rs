//! Differential tests: the kernel (one node stands for all) and the simulator
//! (every node on the physical wiring) must agree on random valid tables and on
//! random mutations of them — on valid versus invalid and on the kinds of violation.

use crate::common;

use common::{build, default_links, greedy_table, small_group};
use proptest::prelude::*;
use txverify_clients::check::{
    Agreement, SimulationOutcome, VerifyOptions, kernel_kinds, verify_table,
};
use txverify_core::kernel::{Instance, MessageSpec, PlacedWord, Table, TableLetter};

#[derive(Clone, Debug)]
enum Mutation {
    None,
    Shift {
        word: usize,
        right: bool,
    },
    ChangeLetter {
        word: usize,
        letter: usize,
        link: usize,
    },
    SwapLetters {
        word: usize,
        a: usize,
        b: usize,
    },
    Delete {
        word: usize,
    },
    Duplicate {
        word: usize,
        column: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let i = any::<usize>();
    prop_oneof![
        Just(Mutation::None),
        (i, any::<bool>()).prop_map(|(word, right)| Mutation::Shift { word, right }),
        (i, i, i).prop_map(|(word, letter, link)| Mutation::ChangeLetter { word, letter, link }),
        (i, i, i).prop_map(|(word, a, b)| Mutation::SwapLetters { word, a, b }),
        i.prop_map(|word| Mutation::Delete { word }),
        (i, i).prop_map(|(word, column)| Mutation::Duplicate { word, column }),
    ]
}

/// Applies a mutation; words that move go to a fresh row so rows stay well formed.
fn mutate(table: &mut Table, links: &[TableLetter], m: &Mutation) {
    let n = table.words.len();
    if n == 0 {
        return;
    }
    let fresh_row = table.rows + 1;
    match *m {
        Mutation::None => {}
        Mutation::Shift { word, right } => {
            let w = &mut table.words[word % n];
            if right {
                w.column += 1;
            } else if w.column > 1 {
                w.column -= 1;
            }
            w.row = fresh_row;
            table.rows += 1;
        }
        Mutation::ChangeLetter { word, letter, link } => {
            let w = &mut table.words[word % n];
            let len = w.letters.len();
            w.letters[letter % len] = links[link % links.len()].clone();
        }
        Mutation::SwapLetters { word, a, b } => {
            let w = &mut table.words[word % n];
            let len = w.letters.len();
            w.letters.swap(a % len, b % len);
        }
        Mutation::Delete { word } => {
            table.words.remove(word % n);
        }
        Mutation::Duplicate { word, column } => {
            let time = table
                .words
                .iter()
                .map(PlacedWord::last_column)
                .max()
                .unwrap_or(1);
            let mut copy = table.words[word % n].clone();
            copy.column = 1 + column % (time + 1);
            copy.row = fresh_row;
            table.rows += 1;
            table.words.push(copy);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn kernel_and_simulator_agree(factors in small_group(), seed in 0usize..8,
                                  mutations in proptest::collection::vec(mutation(), 1..3),
                                  limit_ports in any::<bool>()) {
        let group = build(&factors);
        let links = default_links(&group);
        let letters: Vec<_> = links.iter().map(|l| l.0).collect();
        let mut table = greedy_table(&group, &letters, seed);
        let link_letters: Vec<TableLetter> = letters.iter().map(|&g| TableLetter::Gen(g)).collect();
        for m in &mutations {
            mutate(&mut table, &link_letters, m);
        }
        let ports = (limit_ports && links.len() > 1).then_some(links.len() - 1);
        let instance = Instance::new(group, links, MessageSpec::Total, ports);
        let verification = verify_table(&instance, &table, &[], None, &VerifyOptions::default());
        let ran = matches!(verification.simulation(), SimulationOutcome::Ran { .. });
        prop_assert!(ran, "simulation skipped: {:?}", verification.simulation());
        let agree = matches!(verification.agreement(), Agreement::Agree);
        prop_assert!(agree, "{:?} after {:?}; kernel: {:?}", verification.agreement(), mutations,
            kernel_kinds(verification.checked()));
    }
}
