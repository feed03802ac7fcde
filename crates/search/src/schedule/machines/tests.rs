use super::*;
use txverify_core::network::NetworkName;
use txverify_core::network::parse_edges;
use txverify_core::schedule::{ReplayOptions, Schedule, replay};

fn named(words: &str) -> Graph {
    words.parse::<NetworkName>().unwrap().build().unwrap()
}

/// Two switches of `m` GPUs each (nodes 2m and 2m + 1) joined at `b`.
fn two_switches(m: u32, b: u32) -> Graph {
    let mut text = format!("switch: {} {}\n", 2 * m, 2 * m + 1);
    for g in 0..2 * m {
        text += &format!("{g} {}\n", 2 * m + g / m);
    }
    text += &format!("{} {} {b}\n", 2 * m, 2 * m + 1);
    parse_edges(&text, "two").unwrap()
}

/// The construction's time, after its replay on the fabric is VALID.
fn valid_time(graph: &Graph, collective: Collective) -> u32 {
    let made = by_machines(graph, collective, Ports::All, &StopToken::default())
        .unwrap()
        .expect("a schedule by machines");
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::All),
        collective,
        sends: made.sends.clone(),
    };
    let report = replay(&schedule, graph, &ReplayOptions { max_listed: 3 }).unwrap();
    assert_eq!(report.violation_count(), 0, "{:?}", report.violations());
    made.time
}

#[test]
fn machines_are_read_from_nic_limits_and_switch_links() {
    let cluster = Machines::of(&named("cluster 3 2 dgx1")).unwrap();
    assert_eq!(cluster.count(), 3);
    assert_eq!(
        (0..24).map(|x| cluster.machine_of(x)).collect::<Vec<_>>(),
        (0..24).map(|x| x / 8).collect::<Vec<_>>()
    );
    let switches = Machines::of(&two_switches(4, 2)).unwrap();
    assert_eq!(switches.count(), 2);
    assert_eq!(switches.machine_of(3), switches.machine_of(8));
    assert_ne!(switches.machine_of(3), switches.machine_of(9));
    // One machine, or machines of one GPU each: none.
    for one in ["dgx1", "nvswitch 8", "hub-and-spoke 8"] {
        assert_eq!(Machines::of(&named(one)), None, "{one}");
    }
}

#[test]
fn the_nics_are_a_pipeline_and_each_machine_spreads_behind_them() {
    for c in 1..=3 {
        let gather = Collective::Allgather { chunks: c };
        // Two DGX-1s: 8C items enter a machine, one a step over its NIC;
        // the last is then at one GPU of degree 4, two steps from the rest.
        assert!(valid_time(&named("cluster 2 1 dgx1"), gather) <= 8 * c + 2);
        // Two switches of 8: each GPU takes in 15C over its one link; the
        // first step nothing has reached a switch, and an item crosses
        // the switches' link before its first copy goes down.
        assert!(valid_time(&two_switches(8, 2), gather) <= 15 * c + 3);
    }
    // Three machines, NICs of 2: each takes in 16C items, 2 a step, each
    // step from one other machine in rotation: 8C + 2 again.
    for c in 1..=2 {
        let gather = Collective::Allgather { chunks: c };
        assert!(valid_time(&named("cluster 3 2 dgx1"), gather) <= 8 * c + 2);
    }
    let broadcast = Collective::Broadcast { root: 3, chunks: 4 };
    assert!(valid_time(&named("cluster 3 2 dgx1"), broadcast) > 0);
    // Reversed: the NICs and links are the same both ways.
    let dgx = named("cluster 2 1 dgx1");
    let scatter = valid_time(&dgx, Collective::ReduceScatter { chunks: 2 });
    assert!(scatter <= 18);
    assert_eq!(
        valid_time(&dgx, Collective::Allreduce { chunks: 2 }),
        2 * scatter
    );
    assert!(valid_time(&dgx, Collective::Reduce { root: 9, chunks: 2 }) > 0);
}

#[test]
fn a_fabric_over_the_step_work_gets_no_schedule_by_machines() {
    // 512 GPUs, each linked to the 504 of the other machines: 512 items
    // over about 2.6·10^5 directed links, above the limit.
    let big = named("cluster 64 1 dgx1");
    let gather = Collective::Allgather { chunks: 1 };
    let work = 512 * big.directed_links() as u64;
    assert!(work > MAX_MACHINES_STEP_WORK);
    let made = by_machines(&big, gather, Ports::All, &StopToken::default()).unwrap();
    assert!(made.is_none());
    // Its machines are still read.
    assert_eq!(Machines::of(&big).map(|m| m.count()), Some(64));
}

#[test]
fn a_fabric_over_the_read_work_has_no_machines_read() {
    use txverify_core::network::{FabricSpec, SwitchLimit};
    // Two paths of 2,048 GPUs joined end to end, a NIC between them (the
    // separating limits), and 2^15 limits in all: 2^27 over 2^26. Under
    // the limit these would be two machines.
    let (n, half) = (4096u32, 2048u32);
    let lists = (0..n)
        .map(|x| {
            [x.checked_sub(1), (x + 1 < n).then_some(x + 1)]
                .into_iter()
                .flatten()
                .collect()
        })
        .collect();
    let side = |machine: u32| (machine * half..(machine + 1) * half).collect::<Vec<u32>>();
    let nic = |name: &str, from: u32| SwitchLimit {
        name: name.into(),
        sources: side(from),
        destinations: side(1 - from),
        sends: 1,
    };
    let mut limits = vec![nic("out", 0), nic("in", 1)];
    limits.extend((2..1u32 << 15).map(|j| SwitchLimit {
        name: format!("l{j}"),
        sources: vec![0],
        destinations: vec![1],
        sends: 1,
    }));
    let graph = Graph::from_adjacency(lists)
        .unwrap()
        .with_fabric(FabricSpec {
            limits,
            ..FabricSpec::default()
        })
        .unwrap();
    assert!(u64::from(n) << 15 > MAX_MACHINES_READ_WORK);
    let read = Machines::of(&graph).map(|m| m.count());
    assert_eq!(read, None);
}
