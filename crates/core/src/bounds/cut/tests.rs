use super::*;
use crate::network::NetworkName;

fn graph(name: &str) -> Graph {
    name.parse::<NetworkName>().unwrap().build().unwrap()
}

/// The directed links from the set (a bit mask) to the rest, counted link by link.
fn leaving(g: &Graph, set: u64) -> u64 {
    (0..g.nodes() as u32)
        .filter(|&x| set >> x & 1 == 1)
        .flat_map(|x| g.neighbours(x).iter().map(move |&y| (x, y)))
        .filter(|&(_, y)| set >> y & 1 == 0)
        .count() as u64
}

/// The largest ⌈|A|·|V∖A| / c(A)⌉ over every proper non-empty subset A.
fn brute_force_steps(g: &Graph) -> u64 {
    let n = g.nodes() as u64;
    (1..(1u64 << n) - 1)
        .map(|set| {
            let a = u64::from(set.count_ones());
            (a * (n - a)).div_ceil(leaving(g, set))
        })
        .max()
        .unwrap()
}

const SMALL: [&str; 7] = [
    "ring 7",
    "ring 8",
    "hypercube 3",
    "torus 3 4",
    "mesh 2 5",
    "linear 6",
    "complete 5",
];

#[test]
fn every_bisection_matches_a_brute_force_over_all_subsets() {
    for name in SMALL {
        let g = graph(name);
        let best = crate::bounds::cut_search::best_bisection(&g).unwrap();
        assert_eq!(best.steps(), brute_force_steps(&g), "{name}");
    }
}

#[test]
fn neighbour_splits_are_cuts_no_better_than_the_best() {
    for name in SMALL {
        let g = graph(name);
        let split = neighbour_split(&g).unwrap();
        assert!(split.steps() <= brute_force_steps(&g), "{name}");
        assert_eq!(split.side + split.other_side, g.nodes() as u64);
    }
    // The hypercube's splits are its dimension halvings: 4 · 4 / 4.
    let cube = neighbour_split(&graph("hypercube 3")).unwrap();
    assert_eq!((cube.side, cube.edges, cube.steps()), (4, 4, 4));
}

#[test]
fn the_ccc_of_dimension_3_is_cut_along_a_cube_dimension() {
    // 24 nodes, the most whose every bisection is tried: none beats 12 · 12
    // over the 4 links of one cube dimension, which the splits between
    // neighbours find too. One node more and no bisection is enumerated.
    let g = graph("ccc 3");
    assert_eq!(
        crate::bounds::cut_search::best_bisection(&g)
            .unwrap()
            .steps(),
        36
    );
    let cut = neighbour_split(&g).unwrap();
    assert_eq!(cut.steps(), 36);
    assert!(crate::bounds::cut_search::best_bisection(&graph("ring 25")).is_none());
}

#[test]
fn torus_halvings_count_the_links_of_the_torus() {
    for (name, sides) in [
        ("torus 4 4", vec![4, 4]),
        ("torus 5 5", vec![5, 5]),
        ("hypercube 4", vec![2, 2, 2, 2]),
        ("torus 3 6", vec![3, 6]),
        ("ring 8", vec![8]),
    ] {
        let g = graph(name);
        let cut = torus_cut(&sides).unwrap();
        let d = cut.method.dimension().unwrap() - 1;
        // Node number: coordinates little-endian in the sides.
        let stride: usize = sides[..d].iter().product();
        let set = (0..g.nodes())
            .filter(|&x| (x / stride) % sides[d] < sides[d] / 2)
            .fold(0u64, |set, x| set | 1 << x);
        assert_eq!(cut.edges, leaving(&g, set), "{name}");
        assert_eq!(cut.side, u64::from(set.count_ones()), "{name}");
    }
}

#[test]
fn cut_bounds_of_known_networks() {
    // The 4-cube: 8 · 8 / 8 = 8 = 2^(d−1); the 5 × 5 torus: 10 · 15 / 10 = 15;
    // the 6-ring: 3 · 3 / 2 = 4.5, so 5.
    assert_eq!(torus_cut(&[2, 2, 2, 2]).unwrap().steps(), 8);
    assert_eq!(torus_cut(&[5, 5]).unwrap().steps(), 15);
    assert_eq!(torus_cut(&[6]).unwrap().steps(), 5);
    // 4 × 8: halving the side 8 gives 16 · 16 / 8 = 32, the side 4 16 · 16 / 16 = 16.
    let c = torus_cut(&[4, 8]).unwrap();
    assert_eq!((c.steps(), c.method.dimension()), (32, Some(2)));
    assert!(torus_cut(&[1]).is_none());
}
