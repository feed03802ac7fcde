//! Shared test support, the one place for it: closed-form groups ([`groups`]),
//! greedy tables for the simulator ([`schedules`]), random small groups and
//! greedy valid tables for the kernel (here). Benchmarks include this module too.
#![allow(dead_code)]

pub mod cli;
pub mod console;
pub mod graphs;
pub mod groups;
pub mod judged;
pub mod schedules;

use groups::{cyclic, dihedral, direct_product};
use proptest::prelude::*;
use std::collections::VecDeque;
use txverify_clients::simulate::PlacedWord;
use txverify_core::group::{Elem, FiniteGroup, GenLetter};
use txverify_core::kernel::{LinkId, Table};

/// A small group family, before it is built.
#[derive(Clone, Debug)]
pub enum Factor {
    Cyclic(usize),
    Dihedral(usize),
    Elementary(usize),
}

/// Builds a direct product of factors with generator names a, b, c, ...
pub fn build(factors: &[Factor]) -> FiniteGroup {
    let mut groups = Vec::new();
    for f in factors {
        match f {
            Factor::Cyclic(n) => groups.push(cyclic(*n)),
            Factor::Dihedral(n) => groups.push(dihedral(*n)),
            Factor::Elementary(d) => groups.extend((0..*d).map(|_| cyclic(2))),
        }
    }
    let mut next = b'a';
    let names: Vec<Vec<String>> = groups
        .iter()
        .map(|g| {
            g.generator_names()
                .iter()
                .map(|_| {
                    let name = (next as char).to_string();
                    next += 1;
                    name
                })
                .collect()
        })
        .collect();
    direct_product(&groups, &names)
}

/// Random products of one to three small cyclic, dihedral or C2^d factors.
pub fn small_group() -> impl Strategy<Value = Vec<Factor>> {
    let factor = prop_oneof![
        (2usize..8).prop_map(Factor::Cyclic),
        (2usize..6).prop_map(|k| Factor::Dihedral(2 * k)),
        (1usize..4).prop_map(Factor::Elementary),
    ];
    proptest::collection::vec(factor, 1..=3)
        .prop_filter("at most 200 elements", |fs| build(fs).order() <= 200)
}

/// The loader's default link set: every generator and its inverse, one per element.
pub fn default_links(group: &FiniteGroup) -> Vec<(GenLetter, String)> {
    txverify_core::load::default_links(group).0
}

/// A valid total-exchange table: a shortest word per element (BFS over the links,
/// links tried in a rotated order given by `seed`), placed first-fit in the earliest
/// columns whose (column, link) cells are free, rows assigned by interval partitioning.
pub fn greedy_table(group: &FiniteGroup, links: &[GenLetter], seed: usize) -> Table {
    let n = links.len();
    let mut parent: Vec<Option<(Elem, usize)>> = vec![None; group.order()];
    let mut seen = vec![false; group.order()];
    seen[0] = true;
    let mut order = Vec::new();
    let mut queue = VecDeque::from([Elem::IDENTITY]);
    while let Some(e) = queue.pop_front() {
        for k in 0..n {
            let l = (k + seed) % n;
            let next = group.apply(e, links[l]);
            if !seen[next.index()] {
                seen[next.index()] = true;
                parent[next.index()] = Some((e, l));
                order.push(next);
                queue.push_back(next);
            }
        }
    }
    let mut used: Vec<Vec<bool>> = Vec::new();
    let mut placed = Vec::new();
    for &e in order.iter().rev() {
        let mut word = Vec::new();
        let mut cur = e;
        while let Some((prev, l)) = parent[cur.index()] {
            word.push(l);
            cur = prev;
        }
        word.reverse();
        let mut start = 0;
        loop {
            while used.len() < start + word.len() {
                used.push(vec![false; n]);
            }
            if word.iter().enumerate().all(|(i, &l)| !used[start + i][l]) {
                break;
            }
            start += 1;
        }
        for (i, &l) in word.iter().enumerate() {
            used[start + i][l] = true;
        }
        placed.push((start + 1, word));
    }
    let names: Vec<String> = (0..n).map(|l| l.to_string()).collect();
    let placed = placed
        .into_iter()
        .map(|(column, word)| (column, word.into_iter().map(|l| LinkId(l as u32)).collect()))
        .collect();
    Table::from_placed_words(links, &names, placed)
}

/// Solves a formula with varisat, without limits or proof.
pub fn solve_cnf(cnf: &txverify_search::cnf::Cnf) -> txverify_search::solver::SatAnswer {
    let control = txverify_search::solver::SolveControl {
        deadline: None,
        stop: Vec::new(),
        proof: None,
        lrat: None,
        on_progress: Box::new(|_| {}),
    };
    txverify_search::solver::solve_varisat(cnf, control)
        .unwrap()
        .0
}

/// A table of `encoding`'s formula: the model of a copy shuffled by `seed`
/// (different seeds give different tables), decoded.
pub fn sample_table(
    inst: &txverify_core::kernel::Instance,
    encoding: &txverify_search::Encoding,
    seed: u64,
) -> Table {
    let shuffled = encoding.cnf.shuffled(seed);
    let txverify_search::solver::SatAnswer::Sat(model) = solve_cnf(&shuffled.cnf) else {
        panic!("seed {seed}: no table to sample");
    };
    encoding
        .decode(inst, &shuffled.original_model(&model))
        .unwrap()
}

/// Whether `encoding`'s formula accepts `table`: satisfiable with the table's
/// literals added as unit clauses.
pub fn accepts(
    inst: &txverify_core::kernel::Instance,
    encoding: &txverify_search::Encoding,
    table: &Table,
) -> bool {
    let mut cnf = encoding.cnf.clone();
    for l in encoding.literals_for(inst, table).unwrap() {
        cnf.add(&[l]);
    }
    matches!(solve_cnf(&cnf), txverify_search::solver::SatAnswer::Sat(_))
}

/// The pigeonhole formula: `holes + 1` pigeons in `holes` holes. Unsatisfiable,
/// and with pairwise exclusions only (no auxiliary variables, which would let a
/// solver count) every refutation by resolution is exponential: from about 12
/// holes on, far too hard for a solver to finish in a test or a benchmark.
pub fn pigeonhole(holes: usize) -> txverify_search::cnf::Cnf {
    let mut cnf = txverify_search::cnf::Cnf::new();
    let sits: Vec<Vec<i32>> = (0..=holes)
        .map(|_| (0..holes).map(|_| cnf.fresh()).collect())
        .collect();
    for pigeon in &sits {
        cnf.add(pigeon);
    }
    for hole in 0..holes {
        for (i, p) in sits.iter().enumerate() {
            for q in &sits[i + 1..] {
                cnf.add(&[-p[hole], -q[hole]]);
            }
        }
    }
    cnf
}

/// The links a table word's letters name (test tables have no unknown letters).
pub fn word_links(
    inst: &txverify_core::kernel::Instance,
    letters: &[txverify_core::kernel::TableLetter],
) -> Vec<LinkId> {
    letters
        .iter()
        .map(|l| match l {
            txverify_core::kernel::TableLetter::Gen(g) => {
                inst.link_of(inst.group().eval(&[*g])).unwrap()
            }
            txverify_core::kernel::TableLetter::UnknownName(n) => panic!("unknown letter {n}"),
        })
        .collect()
}
