//! `search --network NET --collective X --heuristic` and the anytime
//! `--deadline S`: the constructions of every collective that copies or
//! combines, on rings, hypercubes, tori, the Petersen graph and random
//! irregular graphs, replay valid by the independent set-based replay of
//! `collectives.rs` and by the core's, never below the core's bound; the
//! command line reports them with the JSON fields documented in docs/json.md;
//! a deadline run is never worse than the heuristic alone.

use crate::collectives::valid_by_sets;
use crate::common::cli::{documented_fields, field_paths, file, txverify};
use crate::common::graphs::{edge_list, random_cubic};
use serde_json::Value;
use txverify_core::bounds;
use txverify_core::network::{Graph, NetworkName, parse_edges};
use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, replay};
use txverify_search::schedule::heuristic::collective::construct;

const PETERSEN: &str = "examples/networks/petersen.edges";

/// A connected irregular graph: a random tree on `n` nodes and `extra`
/// random chords (seeded), as edges.
fn irregular(n: usize, extra: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |m: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % m as u64) as usize
    };
    let mut edges: Vec<(usize, usize)> = (1..n).map(|x| (next(x), x)).collect();
    for _ in 0..extra {
        let (a, b) = (next(n), next(n));
        if a != b {
            edges.push((a.min(b), a.max(b)));
        }
    }
    edges.sort_unstable();
    edges.dedup();
    edges
}

fn collectives(chunks: u32) -> Vec<Collective> {
    [
        "broadcast 2",
        "reduce 2",
        "allgather",
        "reduce-scatter",
        "allreduce",
    ]
    .iter()
    .map(|c| {
        c.parse::<Collective>()
            .unwrap()
            .with_chunks(chunks)
            .unwrap()
    })
    .collect()
}

#[test]
fn constructions_replay_valid_by_both_replays_and_respect_the_bound() {
    let mut graphs: Vec<(String, Graph)> = ["ring 8", "hypercube 3", "torus 3 4"]
        .iter()
        .map(|n| {
            (
                n.to_string(),
                n.parse::<NetworkName>().unwrap().build().unwrap(),
            )
        })
        .collect();
    let petersen = std::fs::read_to_string(PETERSEN).unwrap();
    graphs.push((
        "petersen".into(),
        parse_edges(&petersen, "petersen").unwrap(),
    ));
    let irregular = edge_list(&irregular(14, 5, 3));
    graphs.push((
        "irregular".into(),
        parse_edges(&irregular, "irregular").unwrap(),
    ));
    let cubic = edge_list(&random_cubic(12, 5));
    graphs.push(("cubic".into(), parse_edges(&cubic, "cubic").unwrap()));
    for (name, g) in &graphs {
        for chunks in [1, 2] {
            for ports in [Ports::Limit(1), Ports::Limit(2), Ports::All] {
                for c in collectives(chunks) {
                    let made = construct(g, c, ports).unwrap();
                    let schedule = Schedule {
                        network: None,
                        ports: Some(ports),
                        collective: c,
                        sends: made.sends.clone(),
                    };
                    let what = format!("{c} C={chunks} ports {ports} on {name} by {}", made.method);
                    assert!(valid_by_sets(&schedule, g), "{what}");
                    let report = replay(&schedule, g, &ReplayOptions::default()).unwrap();
                    assert_eq!(report.violation_count(), 0, "{what}");
                    assert_eq!(report.time(), made.time, "{what}");
                    let bound = bounds::collective(g, c, ports).time.best().value();
                    assert!(u64::from(made.time) >= bound, "{what}");
                }
            }
        }
    }
}

fn search(network: &str, extra: &[&str]) -> (Value, i32) {
    let mut args = vec![
        "search",
        "--network",
        network,
        "--format",
        "json",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let r = txverify(&args);
    let v: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}\n{}{}", r.stdout, r.stderr));
    (v, r.code)
}

#[test]
fn heuristic_reports_replay_valid_with_the_documented_fields() {
    let irregular = file("irregular.edges", &edge_list(&irregular(30, 12, 9)));
    let irregular = format!("edges {}", irregular.display());
    let petersen = format!("edges {PETERSEN}");
    let documented = documented_fields("### A schedule search that ran");
    for network in ["ring 8", "hypercube 3", "torus 4 4", &petersen, &irregular] {
        for c in [
            "broadcast 1",
            "reduce 1",
            "allgather",
            "reduce-scatter",
            "allreduce",
        ] {
            let out = file("heuristic.sched", "");
            let out = out.to_str().unwrap();
            let (v, code) = search(network, &["--collective", c, "--heuristic", "-o", out]);
            assert_eq!(code, 0, "{network} {c}: {v}");
            assert_eq!(v["schema"], "txverify-schedule-search/3");
            assert_eq!(
                (v["method"].as_str(), v["found_by"].as_str()),
                (Some("heuristic"), Some("heuristic"))
            );
            let (time, bound) = (
                v["time"].as_u64().unwrap(),
                v["bound"]["value"].as_u64().unwrap(),
            );
            assert!(time >= bound, "{network} {c}: {v}");
            assert_eq!(v["gap"].as_u64(), Some(time - bound));
            assert_eq!(v["optimal"].as_bool(), Some(time == bound));
            assert!(v["construction"].is_string() && v["stopped"].is_null());
            assert_eq!(v["improvements"].as_array().unwrap().len(), 1);
            let missing: Vec<_> = field_paths(&v).difference(&documented).cloned().collect();
            assert!(missing.is_empty(), "undocumented: {missing:?}");
            // The file written replays valid, at the reported time.
            let r = txverify(&["simulate", out, "--format", "json"]);
            assert_eq!(r.code, 0, "{network} {c}: {}{}", r.stdout, r.stderr);
            let s: Value = serde_json::from_str(&r.stdout).unwrap();
            assert_eq!(
                (s["valid"].as_bool(), s["time"].as_u64()),
                (Some(true), Some(time))
            );
        }
    }
}

#[test]
fn heuristic_text_states_the_construction_verdict_and_gap() {
    let r = txverify(&[
        "search",
        "--network",
        "hypercube 4",
        "--collective",
        "allgather",
        "--ports",
        "1",
        "--heuristic",
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // Recursive doubling meets the one-port intake bound, 15.
    assert!(r.stdout.contains("heuristic    time 15"), "{}", r.stdout);
    assert!(r.stdout.contains("recursive doubling"), "{}", r.stdout);
    assert!(r.stdout.contains("OPTIMAL"), "{}", r.stdout);
    let r = txverify(&[
        "search",
        "--network",
        "linear 5",
        "--collective",
        "allgather",
        "--ports",
        "1",
        "--heuristic",
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("  gap          "), "{}", r.stdout);
    // SAT options are refused with --heuristic.
    for extra in [["--time", "3"], ["--deadline", "5"], ["--max-time", "9"]] {
        let mut args = vec![
            "search",
            "--network",
            "ring 4",
            "--collective",
            "allgather",
            "--heuristic",
        ];
        args.extend_from_slice(&extra);
        let r = txverify(&args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.contains("is for the SAT search"), "{}", r.stderr);
    }
}

#[test]
fn a_deadline_run_starts_from_the_heuristic_and_is_never_worse() {
    // linear 4, allreduce, all ports: the bound is 4, the optimum 6; the
    // search goes down from the construction, so T = 5 is refuted, which
    // settles 4 too.
    let (h, _) = search("linear 4", &["--collective", "allreduce", "--heuristic"]);
    let (v, code) = search(
        "linear 4",
        &["--collective", "allreduce", "--deadline", "60"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["time"], 6);
    assert!(v["time"].as_u64() <= h["time"].as_u64());
    let refuted: Vec<u64> = v["infeasible"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["time"].as_u64().unwrap())
        .collect();
    assert_eq!(refuted, [5]);
    assert_eq!(v["deadline"].as_f64(), Some(60.0));
    assert!(v["stopped"].is_null());
    let kept = v["improvements"].as_array().unwrap();
    assert_eq!(kept[0]["found_by"], "heuristic");
    assert_eq!(kept.last().unwrap()["time"], 6);
    // A short deadline: the heuristic's schedule at least, exit 0; when the
    // deadline stopped SAT, the T being solved is unknown.
    let (h, _) = search("hypercube 3", &["--collective", "allreduce", "--heuristic"]);
    let (v, code) = search(
        "hypercube 3",
        &["--collective", "allreduce", "--deadline", "0.5"],
    );
    assert_eq!(code, 0, "{v}");
    assert!(v["time"].as_u64() <= h["time"].as_u64(), "{v}");
    if v["stopped"] == "deadline" {
        assert!(
            !v["unknown"].as_array().unwrap().is_empty()
                || v["infeasible"].as_array().unwrap().is_empty()
        );
    }
    assert_eq!(v["improvements"][0]["found_by"], "heuristic");
    // A formula over --max-variables leaves the construction standing.
    let (v, code) = search(
        "torus 3 3",
        &[
            "--collective",
            "allgather",
            "--deadline",
            "30",
            "--max-variables",
            "10",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert!(
        v["sat_skipped"].as_str().is_some_and(|s| s.contains("10")),
        "{v}"
    );
    assert_eq!(
        (v["found_by"].as_str(), v["time"].as_u64()),
        (Some("heuristic"), Some(3))
    );
}

#[test]
fn the_anytime_collective_search_goes_down_from_the_construction() {
    // The hub and three triangles, allgather in 3 chunks: the construction is
    // a few steps above what SAT finds at one T; upward from the bound the
    // search would stay on the bound's T, which the solver does not settle.
    let star = "edges examples/networks/star-of-triangles.edges";
    let collective = ["--collective", "allgather", "--chunks", "3"];
    let (h, code) = search(star, &[&collective[..], &["--heuristic"]].concat());
    assert_eq!(code, 0, "{h}");
    let h = h["time"].as_u64().unwrap();
    let limits = ["--deadline", "30", "--time-limit", "1"];
    let mut args = vec!["search", "--network", star, "--format", "json"];
    args.extend_from_slice(&[&collective[..], &limits].concat());
    let r = txverify(&args);
    let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stderr));
    assert_eq!(r.code, 0, "{v}");
    // The first T tried is the one below the construction's.
    let tried: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("trying T="))
        .collect();
    assert_eq!(
        tried.first(),
        Some(&format!("search: trying T={}", h - 1).as_str())
    );
    let time = v["time"].as_u64().unwrap();
    assert!(time < h, "{v}");
    assert_eq!(v["found_by"], "sat", "{v}");
    // Each schedule kept is below the last, one step down from it at least,
    // and the descent ended one below the best: refuted, or out of time.
    let kept: Vec<u64> = v["improvements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["time"].as_u64().unwrap())
        .collect();
    assert_eq!((kept.first(), kept.last()), (Some(&h), Some(&time)), "{v}");
    assert!(kept.windows(2).all(|w| w[1] < w[0]), "{v}");
    let ended: Vec<&Value> = v["unknown"]
        .as_array()
        .unwrap()
        .iter()
        .chain(
            v["infeasible"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| &i["time"]),
        )
        .collect();
    assert_eq!(ended, [&Value::from(time - 1)], "{v}");
    // `--descending` asks for the same descent without a deadline.
    let (d, code) = search(
        star,
        &[&collective[..], &["--descending", "--time-limit", "1"]].concat(),
    );
    assert_eq!(code, 0, "{d}");
    assert!(d["time"].as_u64().unwrap() < h, "{d}");
}

/// The collectives' descent is the total exchange's (one driver): a
/// construction slower than `--max-time` is not kept, and SAT goes down from
/// the cap, not up from the bound.
#[test]
fn a_descent_past_a_construction_over_the_max_time_starts_at_the_cap() {
    // The allgather's construction on a path of six, one port, takes 10 steps.
    let args = [
        "search",
        "--network",
        "linear 6",
        "--collective",
        "allgather",
        "--ports",
        "1",
        "--descending",
        "--max-time",
        "9",
    ];
    let r = txverify(&args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let tried: Vec<&str> = r
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("search: trying T="))
        .collect();
    assert_eq!(tried.first(), Some(&"9"), "{}", r.stderr);
    assert_eq!(tried.last(), Some(&"7"), "{}", r.stderr);
    let (v, code) = search(
        "linear 6",
        &[
            "--collective",
            "allgather",
            "--ports",
            "1",
            "--descending",
            "--max-time",
            "9",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(v["time"], 8);
    assert_eq!(v["infeasible"][0]["time"], 7);
    assert_eq!(v["found_by"], "sat");
}

/// Every schedule search writes one schema: the total exchange's report and a
/// collective's have the same fields, exactly those docs/json.md lists.
#[test]
fn every_schedule_search_writes_the_one_documented_schema() {
    let documented = documented_fields("### A schedule search that ran");
    let top: std::collections::BTreeSet<String> = documented
        .iter()
        // `field_paths` goes two levels deep: `bound.model`, not its fields.
        .filter(|f| !f.contains("[]") && f.matches('.').count() <= 1)
        .cloned()
        .collect();
    let (exchange, code) = search("ring 5", &[]);
    assert_eq!(code, 0, "{exchange}");
    let (allgather, code) = search("ring 5", &["--collective", "allgather"]);
    assert_eq!(code, 0, "{allgather}");
    for v in [&exchange, &allgather] {
        assert_eq!(v["schema"], "txverify-schedule-search/3");
        // `routers` (the total exchange's heuristic) is null for a
        // collective: its fields are then absent.
        let expected: std::collections::BTreeSet<String> = top
            .iter()
            .filter(|f| !v["routers"].is_null() || !f.starts_with("routers."))
            .cloned()
            .collect();
        assert_eq!(field_paths(v), expected, "{v}");
        for kept in v["improvements"].as_array().unwrap() {
            let keys: std::collections::BTreeSet<String> = kept
                .as_object()
                .unwrap()
                .keys()
                .map(|k| format!("improvements[].{k}"))
                .collect();
            assert!(keys.is_subset(&documented), "{keys:?}");
        }
    }
    assert_eq!(exchange["collective"], "total-exchange");
    assert_eq!(allgather["collective"], "allgather");
}
