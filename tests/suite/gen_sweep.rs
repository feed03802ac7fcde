//! CI regression of the published constructions: every family over a range of sizes
//! is generated, loaded from its text, checked by the kernel, simulated on its
//! physical network, and its time compared with the paper's formula (written out
//! here independently of the generators).

use txverify_clients::check::{Agreement, Outcome, SimulationOutcome, VerifyOptions, verify};
use txverify_clients::construct::{Family, GenOptions, GroupChoice, generate};
use txverify_core::load::{LoadOptions, load};

/// The time each construction must reach (seed, section 3, and the table).
fn expected_time(family: Family, n: usize, group: GroupChoice) -> usize {
    match (family, group) {
        (Family::Ring, GroupChoice::Cyclic) if n.is_multiple_of(2) => (n * n + 2 * n) / 8,
        (Family::Ring, _) if n % 2 == 1 => (n * n - 1) / 8,
        (Family::Ring, _) if (n / 2).is_multiple_of(2) => n * n / 8,
        (Family::Ring, _) => (n * n + 4) / 8,
        (Family::Hypercube, _) => 1 << (n - 1),
        (Family::Torus2d, _) if n % 2 == 1 => n * (n - 1) * (n + 1) / 8,
        (Family::Torus2d, _) => n * n * n / 8,
        (Family::Torus3d, _) if n % 2 == 1 => n * n * (n - 1) * (n + 1) / 8,
        (Family::Torus3d, _) => n * n * n * n / 8,
        (f, _) => panic!("no formula for {f}"),
    }
}

fn sweep(family: Family, sizes: impl IntoIterator<Item = usize>, group: GroupChoice) {
    for n in sizes {
        let text = generate(family, n, GenOptions { group })
            .unwrap_or_else(|e| panic!("{family} {n}: {e}"));
        let loaded = load(&text, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{family} {n}: generated text does not load: {e}"));
        let v = verify(&loaded, &VerifyOptions::default());
        assert_eq!(
            v.outcome(),
            Outcome::Passed,
            "{family} {n}: {:?}",
            v.checked().violations()
        );
        assert_eq!(
            v.checked().time(),
            expected_time(family, n, group),
            "{family} {n}"
        );
        let SimulationOutcome::Ran { report, .. } = v.simulation() else {
            panic!("{family} {n}: not simulated: {:?}", v.simulation());
        };
        assert!(report.valid, "{family} {n}: {:?}", report.failures);
        assert!(matches!(v.agreement(), Agreement::Agree), "{family} {n}");
        if group == GroupChoice::Default {
            let bound = v.checked().bound().expect("a bound").value as usize;
            assert_eq!(v.checked().time(), bound, "{family} {n}: not optimal");
        }
    }
}

#[test]
fn rings_3_to_200() {
    sweep(Family::Ring, 3..=200, GroupChoice::Default);
}

#[test]
fn even_rings_with_the_cyclic_group() {
    sweep(Family::Ring, (4..=120).step_by(2), GroupChoice::Cyclic);
}

#[test]
fn hypercubes_1_to_12() {
    sweep(Family::Hypercube, 1..=12, GroupChoice::Default);
}

#[test]
fn tori_2d_3_to_24() {
    sweep(
        Family::Torus2d,
        (3..=24).filter(|&n| n != 4),
        GroupChoice::Default,
    );
}

#[test]
fn tori_3d_3_to_10() {
    sweep(
        Family::Torus3d,
        (3..=10).filter(|&n| n != 4),
        GroupChoice::Default,
    );
}

#[test]
fn size_4_tori_point_to_the_hypercube() {
    for family in [Family::Torus2d, Family::Torus3d] {
        let err = generate(family, 4, GenOptions::default()).unwrap_err();
        assert!(err.to_string().contains("cube"), "{err}");
    }
}
