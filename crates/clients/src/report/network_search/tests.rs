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
