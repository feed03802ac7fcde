//! The timed (α, β) replay of schedules and MSCCL programs (`simulate
//! --alpha --beta`, `check PROGRAM.xml --network NET --alpha --beta`):
//! hand-derived times, an independent re-implementation of the model for
//! random schedules, the bound below every run, and the refusals.

use crate::common::cli::{file, txverify};
use crate::msccl_check::{TbSpec, st, xml};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
use txverify_clients::timed::{LinkTimes, schedule};
use txverify_core::bounds;
use txverify_core::bounds::timed::steps_in_time;
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, TimedSend};
use txverify_core::verdict::judge;

/// `simulate F --format json ARGS…` of the schedule `text`; the exit status
/// must be `code`.
fn simulate(text: &str, args: &[&str], code: i32) -> serde_json::Value {
    let path = file("s.sched", text);
    let mut all = vec!["simulate", path.to_str().unwrap(), "--format", "json"];
    all.extend_from_slice(args);
    let run = txverify(&all);
    assert_eq!(run.code, code, "{}{}", run.stdout, run.stderr);
    serde_json::from_str(run.stdout.trim()).unwrap()
}

fn num(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

#[test]
fn a_chain_of_k_hops_of_one_chunk_takes_k_times_alpha_plus_beta() {
    for k in 1..=5u32 {
        let mut text = format!(
            "network: linear {}\nports: all\ncollective: broadcast 0\nsends:\n",
            k + 1
        );
        for i in 1..=k {
            text += &format!("{i} {} {i} 0 *\n", i - 1);
        }
        let r = simulate(&text, &["--alpha", "2", "--beta", "1"], 0);
        let t = &r["timed"];
        assert_eq!(num(&t["completion"]), 3.0 * f64::from(k), "{t}");
        // The eccentricity of the root is k steps: the bound is met.
        assert_eq!(num(&t["bound"]), 3.0 * f64::from(k), "{t}");
        assert_eq!(num(&t["critical_path"]["transmissions"]), f64::from(k));
        assert_eq!(num(&t["critical_path"]["waited"]), 0.0);
    }
}

#[test]
fn two_messages_on_one_link_queue() {
    // Both sends on 0 → 1 are ready at 0; (0, 2) goes first (step 1), so
    // (0, 1) waits α + β, and (0, 2) crosses 1 → 2 meanwhile.
    let text = "network: linear 3\nports: all\ncollective: scatter 0\nsends:\n1 0 1 0 2\n2 0 1 0 1\n2 1 2 0 2\n";
    let r = simulate(text, &["--alpha", "2", "--beta", "1"], 0);
    let t = &r["timed"];
    assert_eq!(num(&t["completion"]), 6.0, "{t}");
    assert_eq!(t["busiest_link"]["from"], 0);
    assert_eq!(t["busiest_link"]["to"], 1);
    assert_eq!(num(&t["busiest_link"]["busy"]), 6.0);
    assert_eq!(t["busiest_link"]["messages"], 2);
    assert_eq!(t["transmissions"], 3);
    // Without flags there is no timed section.
    let r = simulate(text, &[], 0);
    assert!(r.get("timed").is_none(), "{r}");
}

#[test]
fn a_port_limit_makes_a_node_send_one_at_a_time() {
    let text =
        "network: complete 3\nports: 1\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n2 0 2 0 *\n";
    let r = simulate(text, &["--alpha", "2", "--beta", "1"], 0);
    assert_eq!(num(&r["timed"]["completion"]), 6.0, "{r}");
    // The growth bound of one port: ⌈log2 3⌉ = 2 steps.
    assert_eq!(num(&r["timed"]["bound"]), 6.0);
    let r = simulate(text, &["--alpha", "2", "--beta", "1", "--ports", "all"], 0);
    assert_eq!(num(&r["timed"]["completion"]), 3.0, "{r}");
    assert_eq!(num(&r["timed"]["bound"]), 3.0);
}

#[test]
fn a_link_table_times_each_link_and_its_reverse() {
    let text =
        "network: linear 3\nports: all\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n2 1 2 0 *\n";
    let table = file("links.csv", "from,to,alpha,beta\n0,1,10,1\n");
    let r = simulate(
        text,
        &[
            "--alpha",
            "2",
            "--beta",
            "1",
            "--link-table",
            table.to_str().unwrap(),
        ],
        0,
    );
    let t = &r["timed"];
    // 0 → 1 takes 10 + 1, 1 → 2 the default 2 + 1; the bound takes the
    // fastest send (3) for each of the 2 steps.
    assert_eq!(num(&t["completion"]), 14.0, "{t}");
    assert_eq!(num(&t["bound"]), 6.0);
    assert_eq!(t["link_table"], table.to_str().unwrap());
}

#[test]
fn bad_link_tables_and_times_exit_2_with_their_position() {
    let text = "network: ring 4\nports: all\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n";
    let path = file("s.sched", text);
    for (table, expected) in [
        (
            "0 1 2\n",
            ":1:1: a line is `from to alpha beta`, this line has 3 fields",
        ),
        ("# c\n0 1 2 x\n", ":2:7: `x` is not a time"),
        ("0 2 1 1\n", ":1:1: 0 2 is not a link of the network"),
        (
            "0 1 1 1\n1 0 1 1\n0 1 1 1\n",
            ":3:1: the link 0 → 1 is listed again (first on line 1)",
        ),
        ("0 9 1 1\n", ":1:1: 0 9 is not a link"),
        ("x 1 1 1\n", ":1:1: `x` is not a node number"),
    ] {
        let t = file("t.tsv", table);
        let run = txverify(&[
            "simulate",
            path.to_str().unwrap(),
            "--link-table",
            t.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 2, "{table:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(&format!("{}{expected}", t.display())),
            "{table:?}: {}",
            run.stderr
        );
    }
    let run = txverify(&["simulate", path.to_str().unwrap(), "--beta=-1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--beta -1: a time must be"),
        "{}",
        run.stderr
    );
    let run = txverify(&["simulate", path.to_str().unwrap(), "--beta", "x"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn an_invalid_schedule_is_not_timed() {
    let text = "network: ring 4\nports: all\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n";
    let r = simulate(text, &["--alpha", "1"], 1);
    assert!(r["timed"]["completion"].is_null(), "{r}");
    assert_eq!(r["timed"]["note"], "not timed: the schedule is not valid");
}

/// `check P --network NET --format json --alpha A --beta B` of program `xml`.
fn check(xml: &str, network: &str, alpha: &str, beta: &str) -> serde_json::Value {
    let path = file("p.xml", xml);
    let run = txverify(&[
        "check",
        path.to_str().unwrap(),
        "--network",
        network,
        "--format",
        "json",
        "--alpha",
        alpha,
        "--beta",
        beta,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    serde_json::from_str(run.stdout.trim()).unwrap()
}

/// An all-pairs allgather on 3 GPUs: each GPU copies its chunk to its
/// output, and for each other GPU p sends it to p and receives p's.
fn allpairs3() -> String {
    let gpus: Vec<Vec<TbSpec>> = (0..3)
        .map(|g| {
            let mut tbs = vec![(-1, -1, 0, vec![st("cpy", 'i', 0, 'o', g)])];
            for p in (0..3).filter(|&p| p != g) {
                tbs.push((
                    p,
                    p,
                    0,
                    vec![st("s", 'i', 0, 'o', g), st("r", 'o', p, 'o', p)],
                ));
            }
            tbs
        })
        .collect();
    xml("allgather", 3, 3, false, 0, &gpus)
}

#[test]
fn an_msccl_program_queues_on_its_routes() {
    // On `linear 3`, 0 → 2 is routed 0 → 1 → 2 and waits on 0 → 1 behind
    // 0 → 1's own message: 3(α + β). The bound: a chain of 2 hops (the
    // diameter), 2(α + β).
    let t = check(&allpairs3(), "linear 3", "2", "1")["timed"].clone();
    assert_eq!(num(&t["completion"]), 9.0, "{t}");
    assert_eq!(num(&t["bound"]), 6.0, "{t}");
    assert_eq!(num(&t["ratio"]), 1.5);
    assert_eq!(t["critical_path"]["waited"], 1, "{t}");
    // All to all, every message has its own link.
    let t = check(&allpairs3(), "complete 3", "2", "1")["timed"].clone();
    assert_eq!(num(&t["completion"]), 3.0, "{t}");
}

#[test]
fn the_example_programs_are_timed_above_their_bound_and_slower_with_beta() {
    for name in ["allreduce_ring", "allgather_ring", "alltoall_ring"] {
        let path = format!("examples/msccl/{name}.xml");
        let mut last = 0.0;
        for beta in ["0", "0.5", "1", "2", "8"] {
            let run = txverify(&[
                "check",
                &path,
                "--network",
                "ring 8",
                "--format",
                "json",
                "--alpha",
                "2",
                "--beta",
                beta,
            ]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
            let t = &r["timed"];
            let (completion, bound) = (num(&t["completion"]), num(&t["bound"]));
            assert!(completion >= bound - 1e-9, "{name} β {beta}: {t}");
            assert!(completion >= last, "{name} β {beta}: {completion} < {last}");
            last = completion;
        }
    }
}

// ---- an independent re-implementation of the model, for random schedules --

/// The timed completion of a valid all-port schedule of one-chunk sends, each
/// taking `tau`, computed apart from the engine: repeatedly, of the sends
/// whose predecessors (the sends of the packet into the sender at an earlier
/// step) all have their arrival, take the one ready first (then first in
/// schedule order) and start it when its link is free. With τ > 0 a send
/// made ready later is ready strictly later, so this is the links' first
/// come, first served order.
fn reference(sends: &[TimedSend], tau: f64) -> f64 {
    let mut order: Vec<usize> = (0..sends.len()).collect();
    order.sort_by_key(|&i| sends[i].step);
    let mut arrival: Vec<Option<f64>> = vec![None; sends.len()];
    let mut link_free: HashMap<(u32, u32), f64> = HashMap::new();
    let mut done = 0;
    let mut completion: f64 = 0.0;
    while done < sends.len() {
        let mut best: Option<(f64, usize, usize)> = None;
        for (rank, &i) in order.iter().enumerate() {
            if arrival[i].is_some() {
                continue;
            }
            let s = &sends[i];
            let mut ready = Some(0.0f64);
            for &j in &order {
                let r = &sends[j];
                if r.to == s.from && r.packet() == s.packet() && r.step < s.step {
                    ready = match (ready, arrival[j]) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
            }
            if let Some(ready) = ready
                && best.is_none_or(|(b, br, _)| (ready, rank) < (b, br))
            {
                best = Some((ready, rank, i));
            }
        }
        let (ready, _, i) = best.expect("a valid schedule always has a send ready");
        let link = (sends[i].from, sends[i].to);
        let start = ready.max(*link_free.get(&link).unwrap_or(&0.0));
        link_free.insert(link, start + tau);
        arrival[i] = Some(start + tau);
        completion = completion.max(start + tau);
        done += 1;
    }
    completion
}

/// A valid all-port total exchange: every packet on a shortest path, each
/// hop at the first step after a random wait at which its link is free.
fn random_exchange(graph: &Graph, waits: &[u8]) -> Vec<TimedSend> {
    let n = graph.nodes() as u32;
    let mut used: HashSet<(u32, u32)> = HashSet::new();
    let mut sends = Vec::new();
    let mut w = waits.iter().cycle();
    for s in 0..n {
        for d in (0..n).filter(|&d| d != s) {
            let (mut at, mut step) = (s, 0u32);
            let to_d = graph.distances_to(d);
            while at != d {
                let next = *graph
                    .neighbours(at)
                    .iter()
                    .find(|&&y| to_d[y as usize] + 1 == to_d[at as usize])
                    .unwrap();
                let l = graph.link(at, next).unwrap();
                step += 1 + u32::from(*w.next().unwrap() % 3);
                while !used.insert((l, step)) {
                    step += 1;
                }
                sends.push(TimedSend {
                    step,
                    from: at,
                    to: next,
                    source: s,
                    destination: d,
                });
                at = next;
            }
        }
    }
    sends
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn random_schedules_agree_with_the_reference_and_meet_the_bound(
        net in prop_oneof![Just("ring 5"), Just("mesh 3 2"), Just("hypercube 3"), Just("linear 4")],
        waits in proptest::collection::vec(any::<u8>(), 1..40),
        alpha in 0u32..4,
        beta in 1u32..4,
    ) {
        let graph = net.parse::<NetworkName>().unwrap().build().unwrap();
        let sends = random_exchange(&graph, &waits);
        let sched = Schedule {
            network: None,
            ports: Some(Ports::All),
            collective: Collective::TotalExchange,
            sends: sends.clone(),
        };
        let replayed = txverify_core::schedule::replay(&sched, &graph, &ReplayOptions::default()).unwrap();
        prop_assert!(judge(&replayed, None, None).valid());
        let steps = bounds::collective(&graph, Collective::TotalExchange, Ports::All).time.value();
        let (a, b) = (f64::from(alpha), f64::from(beta));
        let times = LinkTimes::uniform(&graph, a, b);
        let timed = schedule::replay(&sends, &graph, Ports::All, &times, Some(steps));
        let completion = timed.completion.unwrap();
        prop_assert_eq!(completion, reference(&sends, a + b));
        prop_assert!(completion >= steps_in_time(steps, &times.times).value);
        prop_assert_eq!(timed.bound, Some(steps as f64 * (a + b)));
        // β bigger: not sooner (one-chunk sends: the run scales with α + β).
        let slower = LinkTimes::uniform(&graph, a, b + 1.0);
        let later = schedule::replay(&sends, &graph, Ports::All, &slower, Some(steps));
        prop_assert!(later.completion.unwrap() >= completion);
    }
}
