use super::*;

fn request(network: &str, lp: bool) -> NetworkSearchRequest {
    NetworkSearchRequest {
        network: network.parse().unwrap(),
        words: network.to_string(),
        heuristic: true,
        paths: PathClass::Shortest,
        solver: SolverChoice::default(),
        time: None,
        max_time: None,
        max_variables: 0,
        time_limit: None,
        deadline: None,
        interrupt: None,
        certificate: None,
        descending: false,
        output: None,
        lp,
        keep_schedule: false,
    }
}

/// The LP bound is computed up to LP_SEARCH_NODES nodes only, and never
/// with `--no-lp`: each absence says why.
#[test]
fn the_lp_bound_is_skipped_over_its_node_limit_and_with_no_lp() {
    let over = format!("ring {}", LP_SEARCH_NODES + 1);
    let r = request(&over, true);
    let graph = r.network.build().unwrap();
    let figures = txverify_core::bounds::general::graph_bounds(&graph, u64::MAX);
    let (facts, solution) = lp_bound(&r, &graph, &figures, None);
    assert!(solution.is_none());
    assert!(
        matches!(&facts, LpFacts::Skipped(why) if why.contains(&LP_SEARCH_NODES.to_string())
            && why.contains(&LP_BOUNDS_NODES.to_string())),
        "{facts:?}"
    );
    let r = request("ring 6", false);
    let graph = r.network.build().unwrap();
    let figures = txverify_core::bounds::general::graph_bounds(&graph, u64::MAX);
    let (facts, _) = lp_bound(&r, &graph, &figures, None);
    assert_eq!(facts, LpFacts::Skipped("--no-lp".to_string()));
    let r = request("ring 6", true);
    let (facts, solution) = lp_bound(&r, &graph, &figures, None);
    assert_eq!(facts, LpFacts::Stated(5));
    assert!(solution.is_some_and(|s| s.bound.value == 5));
}

/// An anytime run (a deadline) whose formula is over the limit: the fast
/// construction is kept and written first, then the better routers'
/// schedule when faster; the report says which routers ran.
#[test]
fn an_anytime_run_over_the_sat_limit_writes_the_fast_construction_first() {
    let dir = std::env::temp_dir().join(format!("txverify-anytime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("t.sched");
    let r = NetworkSearchRequest {
        heuristic: false,
        deadline: Some(Duration::from_secs(3600)),
        output: Some(out.clone()),
        ..request("torus 4 6", true)
    };
    let mut kept = Vec::new();
    let report = search_network(&r, &mut |e| {
        if let NetworkSearchEvent::Kept { time, .. } = e {
            kept.push(time);
        }
    })
    .unwrap_or_else(|_| panic!("the run failed"));
    let json = report.json();
    assert_eq!(json["routers"]["ran"][0], "shortest", "{json}");
    assert!(
        json["routers"]["ran"].as_array().unwrap().len() >= 3,
        "{json}"
    );
    assert!(json["sat_skipped"].is_string(), "{json}");
    assert!(kept.windows(2).all(|w| w[1] < w[0]), "{kept:?}");
    assert_eq!(json["time"], *kept.last().unwrap(), "{json}");
    assert!(out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run stopped before its first schedule (a signal already set) makes
/// none, says which routers were cut, and that the signal stopped it in
/// the construction (exit 4).
#[test]
fn a_run_stopped_before_its_first_schedule_says_so_and_names_the_routers_cut() {
    let r = NetworkSearchRequest {
        heuristic: false,
        deadline: Some(Duration::from_secs(3600)),
        interrupt: Some(Arc::new(AtomicBool::new(true))),
        ..request("torus 4 6", false)
    };
    let report = search_network(&r, &mut |_| {}).unwrap_or_else(|_| panic!("the run failed"));
    let json = report.json();
    assert_eq!(json["routers"]["ran"], serde_json::json!([]), "{json}");
    let cut: Vec<&str> = json["routers"]["cut"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["router"].as_str().unwrap())
        .collect();
    assert!(
        cut.contains(&"shortest") && cut.contains(&"rerouted"),
        "{json}"
    );
    assert!(json["time"].is_null(), "{json}");
    assert_eq!(report.status(), Status::Limit, "{json}");
    // The stop came in the construction: the report says so.
    assert_eq!(json["stopped"], "signal", "{json}");
    assert_eq!(json["stopped_in"], "construction", "{json}");
    assert!(
        report
            .text()
            .contains("routers      none ran; cut: shortest (stopped), rerouted (stopped)"),
        "{}",
        report.text()
    );
}

/// A run that holds its schedule (the Python package's), stopped by its
/// deadline before its first schedule was made: nothing is found, exit
/// 4, and the report names the stop and the phase.
#[test]
fn a_held_run_stopped_in_the_construction_says_by_what() {
    let r = NetworkSearchRequest {
        heuristic: false,
        deadline: Some(Duration::from_nanos(1)),
        keep_schedule: true,
        ..request("torus 4 6", false)
    };
    let report = search_network(&r, &mut |_| {}).unwrap_or_else(|_| panic!("the run failed"));
    let json = report.json();
    assert!(report.schedule().is_none(), "{json}");
    assert_eq!(report.status(), Status::Limit, "{json}");
    assert_eq!(json["stopped"], "deadline", "{json}");
    assert_eq!(json["stopped_in"], "construction", "{json}");
    assert!(
        report
            .text()
            .contains("no schedule found: stopped by the deadline"),
        "{}",
        report.text()
    );
}

/// A schedule whose replay finds it invalid, or that cannot be replayed
/// (a send before one already played), is never left under the name asked
/// for, though the second thread has written it whole, and nothing is left
/// beside it: the schedule already there stays, byte for byte; a valid one
/// then takes its place.
#[test]
fn a_streamed_schedule_the_replay_refuses_never_takes_the_files_name() {
    use txverify_core::schedule::TimedSend;
    let dir = std::env::temp_dir().join(format!("txverify-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("s.sched");
    let network: NetworkName = "ring 3".parse().unwrap();
    let graph = network.build().unwrap();
    let header = sched::exchange_schedule(network, Vec::new());
    let bound = figures_bound(&graph);
    let send = |step, from, to, source, destination| TimedSend {
        step,
        from,
        to,
        source,
        destination,
    };
    // Every message one hop, all in step 1: valid on a ring of 3.
    let valid: Vec<TimedSend> = (0..3u32)
        .flat_map(|s| {
            [
                send(1, s, (s + 1) % 3, s, (s + 1) % 3),
                send(1, s, (s + 2) % 3, s, (s + 2) % 3),
            ]
        })
        .collect();
    let offer = |windows: &[Vec<TimedSend>]| {
        stream::replay_and_write(
            &graph,
            |each: &mut dyn FnMut(&[TimedSend]) -> Result<(), stream::Ended>| {
                windows.iter().try_for_each(|w| each(w))
            },
            &header,
            &bound,
            Some(&out),
            &|| false,
        )
    };
    let first = offer(std::slice::from_ref(&valid)).unwrap_or_else(|e| panic!("{e}"));
    assert!(first.is_some_and(|f| f.sends == 6 && f.verdict.valid()));
    let kept = std::fs::read(&out).unwrap();
    // One message missing: replayed whole, judged invalid.
    let missing = [valid[1..].to_vec()];
    // A send to a node the ring does not have.
    let mut bad_node = valid.clone();
    bad_node[0].to = 7;
    // A window before the one already played: the replay cannot go on.
    let out_of_order = [vec![send(2, 0, 1, 0, 1)], valid.clone()];
    for windows in [&missing[..], &[bad_node][..], &out_of_order[..]] {
        assert!(offer(windows).is_err());
        assert_eq!(std::fs::read(&out).unwrap(), kept);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["s.sched"]);
    }
    // A stop before the first step: nothing is written either.
    let stopped = stream::replay_and_write(
        &graph,
        |each: &mut dyn FnMut(&[TimedSend]) -> Result<(), stream::Ended>| each(&valid),
        &header,
        &bound,
        Some(&out),
        &|| true,
    );
    assert!(matches!(stopped, Ok(None)));
    assert_eq!(std::fs::read(&out).unwrap(), kept);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The best bound of `graph` without the LP.
fn figures_bound(graph: &Graph) -> NamedBound {
    txverify_core::bounds::general::graph_bounds(graph, u64::MAX)
        .bound_set_with_lp(Ports::All, None)
        .best()
        .clone()
}
