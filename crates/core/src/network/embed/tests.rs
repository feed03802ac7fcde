//! Tests of embedding and inference: known coincidences of groups and networks,
//! rejections, and the search against brute force on small graphs.

use super::*;
use crate::group::testing::linked::{
    GroupWithLinks, cyclic, dihedral, elementary_abelian, product,
};

fn ring(nodes: usize) -> NetworkName {
    NetworkName::Ring(nodes as u32)
}
fn cube(dimension: usize) -> NetworkName {
    NetworkName::Hypercube(dimension as u32)
}
fn torus(sides: &[usize]) -> NetworkName {
    NetworkName::Torus(sides.iter().map(|&s| s as u32).collect())
}

fn accepts(g: &GroupWithLinks, spec: NetworkName) {
    let e = embed(&g.group, &g.links, &spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    // Independent re-check of the returned map.
    let net = spec.build().unwrap();
    Embedding::new(&g.group, &g.links, net, None, e.node_map().to_vec()).unwrap();
    assert_eq!(e.node(Elem::IDENTITY), 0);
    for x in 0..g.group.order() as u32 {
        assert_eq!(e.node(e.elem(x)), x);
    }
}

#[test]
fn cyclic_six_is_ring_six() {
    accepts(&cyclic(6), ring(6));
}

#[test]
fn dihedral_six_is_ring_six() {
    accepts(&dihedral(6), ring(6));
}

#[test]
fn small_coincidences() {
    accepts(&cyclic(2), ring(2));
    accepts(&cyclic(2), cube(1));
    accepts(&cyclic(2), torus(&[2]));
    accepts(&cyclic(3), ring(3));
    accepts(&cyclic(4), ring(4));
    accepts(&cyclic(4), cube(2));
    accepts(&cyclic(4), torus(&[2, 2]));
    accepts(&elementary_abelian(2), ring(4));
    accepts(&elementary_abelian(2), torus(&[4]));
    accepts(&dihedral(4), cube(2));
}

#[test]
fn c2_to_the_fourth_is_hypercube_and_torus_four_four() {
    let g = elementary_abelian(4);
    accepts(&g, cube(4));
    accepts(&g, torus(&[4, 4]));
    accepts(&g, torus(&[2, 2, 4]));
    accepts(&g, torus(&[2, 2, 2, 2]));
    accepts(&product(&[cyclic(4), cyclic(4)]), cube(4));
}

#[test]
fn torus_two_two_is_the_square() {
    accepts(&elementary_abelian(2), torus(&[2, 2]));
    accepts(&elementary_abelian(3), torus(&[2, 2, 2]));
}

#[test]
fn products_are_tori() {
    accepts(&product(&[cyclic(5), cyclic(5)]), torus(&[5, 5]));
    accepts(&product(&[dihedral(6), dihedral(6)]), torus(&[6, 6]));
    accepts(&product(&[cyclic(3), cyclic(4)]), torus(&[3, 4]));
    accepts(&product(&[cyclic(3), cyclic(4)]), torus(&[4, 3]));
    accepts(
        &product(&[cyclic(3), cyclic(3), cyclic(3)]),
        torus(&[3, 3, 3]),
    );
    accepts(&product(&[cyclic(2), cyclic(6)]), torus(&[2, 6]));
    accepts(
        &product(&[dihedral(8), cyclic(5), cyclic(2)]),
        torus(&[5, 2, 8]),
    );
}

#[test]
fn large_tori_embed() {
    accepts(
        &product(&[cyclic(16), cyclic(16), cyclic(16)]),
        torus(&[16, 16, 16]),
    );
    accepts(&elementary_abelian(12), cube(12));
    accepts(&elementary_abelian(12), torus(&[4, 4, 4, 4, 4, 4]));
}

#[test]
fn rejects_wrong_node_count() {
    let err = embed(&dihedral(6).group, &dihedral(6).links, &ring(8)).unwrap_err();
    assert!(
        matches!(
            err,
            NetworkMismatch::NodeCount {
                group: 6,
                nodes: 8,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn rejects_nine_ring_as_three_by_three_torus() {
    let g = cyclic(9);
    let err = embed(&g.group, &g.links, &torus(&[3, 3])).unwrap_err();
    assert!(
        matches!(
            err,
            NetworkMismatch::Degree {
                links: 2,
                degree: 4,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn rejects_eight_ring_as_cube() {
    let g = cyclic(8);
    let err = embed(&g.group, &g.links, &cube(3)).unwrap_err();
    assert!(
        matches!(
            err,
            NetworkMismatch::Degree {
                links: 2,
                degree: 3,
                ..
            }
        ),
        "{err}"
    );
}

/// The cyclic group `Z_n` with one generator per step (`x ↦ x + step`); its
/// Cayley graph on all generators and inverses is the circulant `C_n(steps)`.
fn circulant(n: usize, steps: &[usize]) -> GroupWithLinks {
    let names = (0..steps.len()).map(|i| format!("c{i}")).collect();
    let mut action = Vec::new();
    for e in 0..n {
        for &s in steps {
            let s = s % n;
            action.extend([((e + s) % n) as u32, ((e + n - s) % n) as u32]);
        }
    }
    let group = FiniteGroup::from_action(names, action).unwrap();
    let links = (0..steps.len() as u32)
        .flat_map(|g| {
            [false, true].map(|inverse| GenLetter {
                generator: g,
                inverse,
            })
        })
        .collect();
    GroupWithLinks { group, links }
}

#[test]
fn rejects_same_counts_different_graph() {
    // C_16(1, 3): 16 nodes, degree 4 and the 4-cube's distance profile
    // 1, 4, 6, 4, 1, so only the search can tell them apart.
    let g = circulant(16, &[1, 3]);
    let err = embed(&g.group, &g.links, &cube(4)).unwrap_err();
    assert!(
        matches!(err, NetworkMismatch::NoIsomorphism { .. }),
        "{err}"
    );
    // C_25(1, 7) against the 5 x 5 torus: same counts, different graph.
    let g = circulant(25, &[1, 7]);
    let err = embed(&g.group, &g.links, &torus(&[5, 5])).unwrap_err();
    assert!(
        matches!(
            err,
            NetworkMismatch::DistanceProfile { .. } | NetworkMismatch::NoIsomorphism { .. }
        ),
        "{err}"
    );
    // C_25(1, 5) looks like a torus locally, but five steps of 1 reach a
    // neighbour of the start.
    let g = circulant(25, &[1, 5]);
    let err = embed(&g.group, &g.links, &torus(&[5, 5])).unwrap_err();
    assert!(
        matches!(
            err,
            NetworkMismatch::DistanceProfile { .. } | NetworkMismatch::NoIsomorphism { .. }
        ),
        "{err}"
    );
    // Whereas C_20(4, 5) is C5 x C4 in disguise: the 5 x 4 torus.
    accepts(&circulant(20, &[4, 5]), torus(&[5, 4]));
}

#[test]
fn rejects_invalid_links() {
    let g = cyclic(6);
    let only_a = [g.links[0]];
    assert!(matches!(
        embed(&g.group, &only_a, &ring(6)),
        Err(NetworkMismatch::Links(_))
    ));
    let twice = [g.links[0], g.links[0], g.links[1]];
    assert!(matches!(
        embed(&g.group, &twice, &ring(6)),
        Err(NetworkMismatch::Links(_))
    ));
    let c = product(&[cyclic(3), cyclic(3)]);
    assert!(matches!(
        embed(&c.group, &c.links[..2], &ring(9)),
        Err(NetworkMismatch::Links(_))
    ));
}

#[test]
fn rejects_invalid_spec() {
    let g = cyclic(6);
    assert!(matches!(
        embed(&g.group, &g.links, &ring(1)),
        Err(NetworkMismatch::Spec(_))
    ));
}

#[test]
fn verification_rejects_a_bad_map() {
    let g = cyclic(6);
    let net = ring(6).build().unwrap();
    let bad = vec![0, 2, 4, 1, 3, 5];
    assert!(matches!(
        Embedding::new(&g.group, &g.links, net.clone(), None, bad),
        Err(NetworkMismatch::NotAnIsomorphism(_))
    ));
    let not_bijective = vec![0, 1, 2, 3, 4, 4];
    assert!(Embedding::new(&g.group, &g.links, net, None, not_bijective).is_err());
}

#[test]
fn infers_the_network() {
    let cases: Vec<(GroupWithLinks, NetworkName)> = vec![
        (dihedral(6), ring(6)),
        (cyclic(7), ring(7)),
        (cyclic(4), ring(4)),
        (cyclic(2), cube(1)),
        (elementary_abelian(4), cube(4)),
        (product(&[cyclic(3), cyclic(4)]), torus(&[3, 4])),
        (product(&[cyclic(5), cyclic(5)]), torus(&[5, 5])),
        (product(&[cyclic(2), cyclic(3)]), torus(&[2, 3])),
        (
            product(&[cyclic(3), cyclic(3), cyclic(3)]),
            torus(&[3, 3, 3]),
        ),
    ];
    for (g, spec) in cases {
        let (found, e) = infer(&g.group, &g.links).expect("inferred");
        assert_eq!(found, spec);
        assert_eq!(e.spec(), Some(&spec));
    }
}

#[test]
fn infers_nothing_for_other_graphs() {
    assert!(infer(&circulant(16, &[1, 3]).group, &circulant(16, &[1, 3]).links).is_none());
    assert!(infer(&circulant(25, &[1, 7]).group, &circulant(25, &[1, 7]).links).is_none());
    // 8 nodes of degree 4: no ring, hypercube or torus has that.
    assert!(infer(&circulant(8, &[1, 2]).group, &circulant(8, &[1, 2]).links).is_none());
    // But C2 x C8 on {a, b, b'} is the 2 x 8 torus (a prism).
    let g = product(&[cyclic(2), cyclic(8)]);
    assert_eq!(infer(&g.group, &g.links).unwrap().0, torus(&[2, 8]));
}

#[test]
fn cayley_embedding_is_the_identity() {
    let g = dihedral(8);
    let e = Embedding::cayley(&g.group, &g.links).unwrap();
    assert_eq!(e.network().nodes(), 8);
    assert_eq!(e.node(Elem(5)), 5);
}

/// Every torus spec (sides ≥ 2, non-decreasing) with `n` nodes, plus rings and hypercubes.
fn all_specs(n: usize) -> Vec<NetworkName> {
    let mut out = vec![ring(n)];
    if n.is_power_of_two() {
        out.push(cube(n.trailing_zeros() as usize));
    }
    for d in 0..=2 * n {
        let mut f = Vec::new();
        factorisations(n, 2, d, &mut Vec::new(), &mut f);
        out.extend(f.into_iter().map(|s| torus(&s)));
    }
    out
}

/// Plain backtracking over all bijections fixing 0 ↦ 0 (elements in index
/// order, every unused node tried, only edge checks): slow but with none of
/// the search's symmetry reduction or distance pruning.
fn brute_force_isomorphic(g: &GroupWithLinks, net: &Graph) -> bool {
    let n = g.group.order();
    if net.nodes() != n || net.regular_degree() != Some(g.links.len()) {
        return false;
    }
    let adj: Vec<Vec<usize>> = g
        .group
        .elements()
        .map(|e| {
            g.links
                .iter()
                .map(|&s| g.group.apply(e, s).index())
                .collect()
        })
        .collect();
    fn go(
        v: usize,
        adj: &[Vec<usize>],
        net: &Graph,
        map: &mut Vec<u32>,
        used: &mut [bool],
    ) -> bool {
        if v == adj.len() {
            return true;
        }
        for c in 0..adj.len() as u32 {
            if used[c as usize] {
                continue;
            }
            // Edges to earlier elements must map to edges, and non-edges to non-edges.
            let ok = (0..v).all(|u| adj[v].contains(&u) == net.adjacent(map[u], c));
            if ok {
                used[c as usize] = true;
                map.push(c);
                if go(v + 1, adj, net, map, used) {
                    return true;
                }
                map.pop();
                used[c as usize] = false;
            }
        }
        false
    }
    let mut used = vec![false; n];
    used[0] = true;
    go(1, &adj, net, &mut vec![0], &mut used)
}

fn small_group() -> impl proptest::strategy::Strategy<Value = GroupWithLinks> {
    use proptest::prelude::*;
    prop_oneof![
        1 => (2usize..9).prop_map(cyclic),
        1 => (2usize..5).prop_map(|k| dihedral(2 * k)),
        1 => (1usize..4).prop_map(elementary_abelian),
        1 => (2usize..5, 2usize..3).prop_map(|(a, b)| product(&[cyclic(a), cyclic(b)])),
        3 => (5usize..17, 1usize..8, 2usize..8).prop_map(|(n, a, b)| circulant(n, &[a, b])),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

    /// The search never misses an isomorphism that brute force finds.
    #[test]
    fn search_agrees_with_brute_force(g in small_group()) {
        proptest::prop_assume!(validate_links(&g.group, &g.links).is_ok());
        for spec in all_specs(g.group.order()) {
            let net = spec.build().unwrap();
            let brute = brute_force_isomorphic(&g, &net);
            let found = embed(&g.group, &g.links, &spec);
            proptest::prop_assert_eq!(brute, found.is_ok(), "{:?}: {:?}", spec, found.err());
        }
    }

    /// A product of rings (cyclic or dihedral) and single links is the torus
    /// of their sizes, whatever order the sides are listed in.
    #[test]
    fn products_of_rings_embed_in_their_torus(
        factors in proptest::collection::vec((2usize..7, proptest::prelude::any::<bool>()), 1..4),
        rotate in 0usize..3,
    ) {
        let groups: Vec<GroupWithLinks> = factors
            .iter()
            .map(|&(n, di)| if di && n >= 2 { dihedral(2 * n) } else { cyclic(n) })
            .collect();
        let mut sides: Vec<usize> = groups.iter().map(|g| g.group.order()).collect();
        let g = product(&groups);
        let len = sides.len();
        sides.rotate_left(rotate % len);
        let e = embed(&g.group, &g.links, &torus(&sides));
        proptest::prop_assert!(e.is_ok(), "{:?}: {:?}", sides, e.err());
        proptest::prop_assert!(infer(&g.group, &g.links).is_some());
    }
}
