//! The verdict's decisions on replays of hand-made schedules.

use super::*;
use crate::schedule::{Collective, ReplayOptions, Schedule, TimedSend, replay};

/// A valid total exchange on `linear 2` in one step, ports 1.
fn replayed(ports: Ports, sends: &[(u32, u32, u32)]) -> ReplayReport {
    let name: crate::network::NetworkName = "linear 2".parse().unwrap();
    let schedule = Schedule {
        network: Some(name.clone()),
        ports: Some(ports),
        collective: Collective::TotalExchange,
        sends: sends
            .iter()
            .map(|&(step, from, to)| TimedSend {
                step,
                from,
                to,
                source: from,
                destination: to,
            })
            .collect(),
    };
    replay(&schedule, &name.build().unwrap(), &ReplayOptions::default()).unwrap()
}

fn bound(value: u64, ports: Ports) -> NamedBound {
    NamedBound::new(value, "status", Model::new(ports, false, true))
}

#[test]
fn optimal_needs_validity_equality_and_a_bound_of_the_model() {
    let one = replayed(Ports::Limit(1), &[(1, 0, 1), (1, 1, 0)]);
    let v = judge(&one, Some(bound(1, Ports::Limit(1))), None);
    assert!(v.valid() && v.optimal());
    assert_eq!(
        v.to_string(),
        "OPTIMAL (completion time 1 equals the status)"
    );
    // A bound proved for one port decides nothing for all ports.
    let all = replayed(Ports::All, &[(1, 0, 1), (1, 1, 0)]);
    let v = judge(&all, Some(bound(1, Ports::Limit(1))), None);
    assert!(v.valid() && !v.optimal() && !v.bound_holds());
    // An all-port bound holds for one port.
    let v = judge(&one, Some(bound(1, Ports::All)), None);
    assert!(v.optimal());
    let slow = replayed(Ports::Limit(1), &[(1, 0, 1), (2, 1, 0)]);
    let v = judge(&slow, Some(bound(1, Ports::Limit(1))), None);
    assert!(v.valid() && !v.optimal());
    assert!(v.to_string().starts_with("VALID, not proved optimal"));
    let v = judge(&one, Some(bound(2, Ports::Limit(1))), None);
    assert!(v.beats_bound() && !v.optimal());
    let broken = replayed(Ports::Limit(1), &[(1, 0, 1)]);
    let v = judge(&broken, Some(bound(1, Ports::Limit(1))), None);
    assert!(!v.valid() && !v.optimal());
    assert_eq!(v.to_string(), "INVALID (1 violations)");
    assert_eq!(judge(&one, None, None).to_string(), "VALID");
}
