//! The lower bounds of `txverify_core::bounds` against the tables of `tables/` and
//! `tables/found/`: no bound may exceed the time of a valid table (each is a
//! schedule of its network), and on the tables at their optimum the cut bound
//! is reached — the best check that the cut counted is the cut meant.

use txverify_core::bounds::{Cut, cut, distance};
use txverify_core::network::{Graph, NetworkName};

/// The `expect: time T` of a table file.
fn expected_time(path: &str) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("expect: time "))
        .unwrap_or_else(|| panic!("{path}: no `expect: time`"))
        .trim()
        .parse()
        .unwrap()
}

/// The all-port distance bound and the best cut tried of a graph.
fn bounds(graph: &Graph, sides: Option<&[usize]>) -> (u64, Cut) {
    let total: u64 = (0..graph.nodes() as u32)
        .map(|x| distance::reach(graph, x).status)
        .sum();
    let load = distance::distance_bound(total, distance::port_capacity(graph, None));
    let cuts = [
        txverify_core::bounds::cut_search::best_bisection(graph),
        cut::neighbour_split(graph),
        sides.and_then(cut::torus_cut),
    ];
    let best = cuts
        .into_iter()
        .flatten()
        .max_by_key(|c| c.steps())
        .unwrap();
    (load, best)
}

#[test]
fn no_bound_exceeds_a_valid_table_and_the_cut_meets_the_optimal_ones() {
    // (file, network, sides of a torus, whether the table is optimal).
    let tables: [(&str, &str, Option<&[usize]>, bool); 16] = [
        (
            "tables/hypercube4-a.tbl",
            "hypercube 4",
            Some(&[2, 2, 2, 2]),
            true,
        ),
        ("tables/mesh5.tbl", "torus 5 5", Some(&[5, 5]), true),
        ("tables/mesh6.tbl", "torus 6 6", Some(&[6, 6]), true),
        ("tables/ring6-cyclic-total.tbl", "ring 6", Some(&[6]), false),
        (
            "tables/ring6-dihedral-total.tbl",
            "ring 6",
            Some(&[6]),
            true,
        ),
        ("tables/ring7-cyclic.tbl", "ring 7", Some(&[7]), true),
        ("tables/ring9-cyclic.tbl", "ring 9", Some(&[9]), true),
        ("tables/ring10-dihedral.tbl", "ring 10", Some(&[10]), true),
        ("tables/ring12-dihedral.tbl", "ring 12", Some(&[12]), true),
        (
            "tables/torus3d-5.tbl",
            "torus 5 5 5",
            Some(&[5, 5, 5]),
            true,
        ),
        ("tables/found/ccc3.tbl", "ccc 3", None, true),
        (
            "tables/found/torus3x4.tbl",
            "torus 3 4",
            Some(&[3, 4]),
            true,
        ),
        (
            "tables/found/torus3x8.tbl",
            "torus 3 8",
            Some(&[3, 8]),
            true,
        ),
        (
            "tables/found/ring10-cyclic.tbl",
            "ring 10",
            Some(&[10]),
            false,
        ),
        ("tables/found/star4.tbl", "star 4", None, false),
        ("tables/found/butterfly3.tbl", "butterfly 3", None, false),
    ];
    for (path, network, sides, optimal) in tables {
        let time = expected_time(path);
        let graph = network.parse::<NetworkName>().unwrap().build().unwrap();
        let (load, best) = bounds(&graph, sides);
        assert!(load <= time, "{path}: distance bound {load} > {time}");
        assert!(
            best.steps() <= time,
            "{path}: cut bound {} > {time}",
            best.steps()
        );
        if optimal {
            assert_eq!(best.steps().max(load), time, "{path}");
        }
    }
}
