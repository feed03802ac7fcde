//! The one layout of every schedule certificate, and the layouts written
//! before it still read: tests of [`super::certificate`] on certificates the
//! total-exchange and the collective searches write (apart from the module,
//! which the searches import).

use super::certificate::*;
use super::collective::{CollectiveSearchOptions, minimise_collective};
use super::{PathClass, ScheduleSearchOptions, minimise};
use crate::options::SolverChoice;
use std::path::{Path, PathBuf};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{Collective, Ports};

fn graph(name: &str) -> Graph {
    name.parse::<NetworkName>().unwrap().build().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The certificate of T = 2 for a total exchange on ring 5 (3 steps needed).
fn exchange_certificate(dir: &Path) -> PathBuf {
    let options = ScheduleSearchOptions {
        network: "ring 5".to_string(),
        paths: PathClass::Any,
        from: 2,
        to: 2,
        time_limit: None,
        deadline: None,
        stop: vec![],
        solver: SolverChoice::Varisat,
        certificate_dir: Some(dir.to_path_buf()),
        max_variables: super::encode::MAX_VARIABLES,
    };
    let found = minimise(&graph("ring 5"), &options, &mut |_| {}).unwrap();
    assert!(found.infeasible[0].certificate_checked);
    found.infeasible[0].certificate.clone().unwrap()
}

/// The certificate of T = 4 for a one-port allgather on ring 6 (5 needed).
fn allgather_certificate(dir: &Path) -> PathBuf {
    let options = CollectiveSearchOptions {
        network: "ring 6".into(),
        certificate_dir: Some(dir.to_path_buf()),
        collective: Collective::ALLGATHER,
        ports: Ports::Limit(1),
        from: 4,
        to: 4,
        time_limit: None,
        solver: SolverChoice::Varisat,
        max_variables: 1 << 24,
        translate: true,
        deadline: None,
        stop: vec![],
    };
    let found = minimise_collective(&graph("ring 6"), &options, &mut |_| {}).unwrap();
    assert!(found.infeasible[0].certificate_checked);
    found.infeasible[0].certificate.clone().unwrap()
}

/// Rewrites `dir`'s provenance.json with `edit`.
fn rewrite(dir: &Path, edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) {
    let path = dir.join("provenance.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(v.as_object_mut().unwrap());
    std::fs::write(&path, v.to_string()).unwrap();
}

#[test]
fn every_certificate_is_written_in_one_layout_that_names_its_collective() {
    let dir = scratch("one-layout");
    let exchange = exchange_certificate(&dir.join("exchange"));
    let allgather = allgather_certificate(&dir.join("allgather"));
    for (at, g, collective) in [
        (&exchange, graph("ring 5"), Collective::TotalExchange),
        (&allgather, graph("ring 6"), Collective::ALLGATHER),
    ] {
        let p = read_provenance(at).unwrap();
        assert_eq!(p.format, CERTIFICATE_FORMAT);
        assert_eq!(p.collective, collective.to_string());
        assert!(is_schedule_certificate(at));
        assert_eq!(
            is_collective_certificate(at),
            collective != Collective::TotalExchange
        );
        let verified = verify(&g, at, Some(collective)).unwrap();
        assert_eq!(
            verified.is_total_exchange(),
            collective == Collective::TotalExchange
        );
    }
    // Asked about another collective than the one it names: refused.
    assert!(matches!(
        verify(&graph("ring 5"), &exchange, Some(Collective::ALLGATHER)),
        Err(ScheduleCertificateError::WrongCollective { .. })
    ));
    assert!(matches!(
        verify(
            &graph("ring 6"),
            &allgather,
            Some(Collective::TotalExchange)
        ),
        Err(ScheduleCertificateError::WrongCollective { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn certificates_in_the_layouts_written_before_are_still_verified() {
    let dir = scratch("old-layouts");
    let exchange = exchange_certificate(&dir.join("exchange"));
    rewrite(&exchange, |p| {
        p.remove("collective");
        p.remove("chunks");
        p.insert("format".into(), EXCHANGE_FORMAT_1.into());
    });
    let verified = verify(&graph("ring 5"), &exchange, None).unwrap();
    assert_eq!(verified.provenance.format, EXCHANGE_FORMAT_1);
    assert!(verified.is_total_exchange());
    assert!(!is_collective_certificate(&exchange));
    let allgather = allgather_certificate(&dir.join("allgather"));
    rewrite(&allgather, |p| {
        p.remove("covers_all_schedules");
        p.remove("restrictions");
        p.insert("format".into(), COLLECTIVE_FORMAT_1.into());
    });
    let verified = verify(&graph("ring 6"), &allgather, None).unwrap();
    assert_eq!(verified.provenance.collective, "allgather");
    assert!(is_collective_certificate(&allgather));
    // A layout this build does not know, and an old layout that does not
    // fit its kind: refused, not misread.
    rewrite(&allgather, |p| {
        p.insert("format".into(), "txverify-schedule-certificate-9".into());
    });
    assert!(matches!(
        verify(&graph("ring 6"), &allgather, None),
        Err(ScheduleCertificateError::WrongVersion { .. })
    ));
    rewrite(&exchange, |p| {
        p.insert("format".into(), COLLECTIVE_FORMAT_1.into());
    });
    assert!(verify(&graph("ring 5"), &exchange, None).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
