//! Networks from an edge list (`edges FILE`): the reader's refusals with their
//! positions, the bounds of `bounds --network 'edges FILE'` against figures
//! computed here from graphs built independently (the Petersen graph as the
//! Kneser graph K(5, 2), random 3-regular graphs; distances by breadth-first
//! search, cuts by trying every subset), and a schedule naming its edge list
//! relative to itself.

use super::common::cli::{file, txverify};
use super::common::graphs::{edge_list, kneser_petersen, lists, random_cubic, total_distance};

/// The best all-port cut bound ⌈|A|·|V∖A| / c(A)⌉ and its exact ratio as a
/// pair, over every subset, counting crossing edges from scratch.
fn brute_force_cut(n: usize, edges: &[(usize, usize)]) -> (u64, (u64, u64)) {
    let mut best = (0u64, 1u64);
    for set in 1u32..(1 << (n - 1)) {
        // Sets without node n − 1: every cut once.
        let size = u64::from(set.count_ones());
        let crossing = edges
            .iter()
            .filter(|&&(u, v)| (set >> u & 1) != (set >> v & 1))
            .count() as u64;
        let ratio = (size * (n as u64 - size), crossing);
        if ratio.0 * best.1 > best.0 * ratio.1 {
            best = ratio;
        }
    }
    (best.0.div_ceil(best.1), best)
}

fn bounds_json(path: &str) -> serde_json::Value {
    let net = format!("edges {path}");
    let run = txverify(&["bounds", "--network", &net, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    serde_json::from_str(run.stdout.trim()).unwrap()
}

#[test]
fn the_petersen_graph_has_bound_5() {
    let edges = kneser_petersen();
    assert_eq!(edges.len(), 15);
    let (total, diameter) = total_distance(&lists(10, &edges));
    let (cut, _) = brute_force_cut(10, &edges);
    assert_eq!((total, diameter, cut), (150, 2, 5));
    // 150 hops over 30 directed links: 5; the best cut 5 · 5 / 5: 5.
    for path in [
        file("kneser.edges", &edge_list(&edges)),
        "examples/networks/petersen.edges".into(),
    ] {
        let r = bounds_json(path.to_str().unwrap());
        assert_eq!(r["schema"], "txverify-bounds/4");
        assert_eq!(r["order"], 10);
        assert_eq!(
            (r["degree_min"].clone(), r["degree_max"].clone()),
            (3.into(), 3.into())
        );
        assert_eq!(r["diameter"], diameter);
        assert_eq!(r["total_status"], total);
        assert_eq!(r["link_load_bound"], total.div_ceil(30));
        assert_eq!(r["all_port_bound"], 5);
        assert_eq!(r["cut_bound"]["value"], cut);
        assert_eq!(r["cut_bound"]["method"], "exhaustive");
        assert_eq!(r["statuses_agree"], serde_json::Value::Null);
        // Single-port: every node has 15 hops of its own to make, one a step.
        assert_eq!(r["single_port_bound"], 15);
    }
}

#[test]
fn cut_bounds_of_random_cubic_graphs_on_20_nodes_are_exact() {
    for seed in 1..=3 {
        let edges = random_cubic(20, seed);
        let path = file(&format!("cubic{seed}.edges"), &edge_list(&edges));
        let r = bounds_json(path.to_str().unwrap());
        let (cut, (num, den)) = brute_force_cut(20, &edges);
        assert_eq!(r["cut_bound"]["value"], cut, "seed {seed}");
        assert_eq!(r["cut_bound"]["exhaustive"], true);
        let ratio = r["cut_bound"]["ratio"].as_f64().unwrap();
        assert!(
            (ratio - num as f64 / den as f64).abs() < 1e-9,
            "seed {seed}"
        );
        // The side named gives that ratio.
        let side: Vec<usize> = r["cut_bound"]["side"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect();
        let crossing = edges
            .iter()
            .filter(|(u, v)| side.contains(u) != side.contains(v))
            .count() as u64;
        assert_eq!(r["cut_bound"]["edges"], crossing);
        let (total, diameter) = total_distance(&lists(20, &edges));
        assert_eq!(r["total_status"], total);
        assert_eq!(r["diameter"], diameter);
        let all_port = total.div_ceil(60).max(cut).max(7);
        assert_eq!(r["all_port_bound"], all_port, "seed {seed}");
    }
}

#[test]
fn every_refusal_is_exit_2_with_file_line_and_column() {
    for (name, text, place, words) in [
        ("loop.edges", "0 1\n1 1\n", ":2:3:", "self-loop"),
        (
            "twice.edges",
            "0 1\n1 2\n# again\n2 1\n",
            ":4:1:",
            "listed again",
        ),
        ("gap.edges", "0 1\n1 3\n", ":2:3:", "gap"),
        ("apart.edges", "0 1\n2 3\n", ":2:1:", "not connected"),
        ("empty.edges", "# nothing here\n", ":1:1:", "no link"),
        ("word.edges", "0 a\n", ":1:3:", "not a node number"),
        ("three.edges", "0 1 2 3\n", ":1:7:", "not a capacity"),
    ] {
        let path = file(name, text);
        let net = format!("edges {}", path.display());
        let run = txverify(&["bounds", "--network", &net]);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        let at = format!("{}{place}", path.display());
        assert!(run.stderr.contains(&at), "{name}: {}", run.stderr);
        assert!(run.stderr.contains(words), "{name}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{name}");
        let json = txverify(&["bounds", "--network", &net, "--format", "json"]);
        let r: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
        assert_eq!(r["exit_code"], 2);
        assert!(r["error"]["message"].as_str().unwrap().contains(&at));
    }
    let run = txverify(&["bounds", "--network", "edges no/such/file.edges"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no/such/file.edges: cannot read"),
        "{}",
        run.stderr
    );
    for name in ["edges", "edges   ", "ring 3 x edges a.edges"] {
        let run = txverify(&["bounds", "--network", name]);
        assert_eq!(run.code, 2, "{name}");
    }
}

#[test]
fn a_schedule_names_its_edge_list_relative_to_itself() {
    // A triangle: all-port, every packet goes straight in step 1.
    file("triangle.edges", "0 1\n1 2\n2 0\n");
    let sends: String = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
        .iter()
        .map(|(u, v)| format!("1 {u} {v} {u} {v}\n"))
        .collect();
    let text = format!(
        "network: edges triangle.edges\nports: all\ncollective: total-exchange\nsends:\n{sends}"
    );
    let schedule = file("triangle.sched", &text);
    let run = txverify(&["simulate", schedule.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // A missing edge list is exit 2 and named.
    let text = text.replace("triangle.edges", "missing.edges");
    let schedule = file("missing.sched", &text);
    let run = txverify(&["simulate", schedule.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("missing.edges"), "{}", run.stderr);
}

/// Undirected links, each as (smaller end, larger end).
type Links = Vec<(usize, usize)>;

/// The links of `examples/networks/dgx1.edges`, and which of them its comments
/// mark `double`.
fn dgx1_file() -> (Links, Links) {
    let text = std::fs::read_to_string("examples/networks/dgx1.edges").unwrap();
    let (mut links, mut double) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let (words, comment) = line.split_once('#').unwrap_or((line, ""));
        let ends: Vec<usize> = words
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        if let [u, v] = ends[..] {
            let link = (u.min(v), u.max(v));
            links.push(link);
            if comment.trim() == "double" {
                double.push(link);
            }
        }
    }
    links.sort_unstable();
    double.sort_unstable();
    (links, double)
}

#[test]
fn the_dgx1_edge_list_is_the_hybrid_cube_mesh() {
    // Two fully connected quads joined by the cube's links i -- i + 4.
    let mut mesh: Links = (0..8)
        .flat_map(|u| (u + 1..8).map(move |v| (u, v)))
        .filter(|&(u, v)| u / 4 == v / 4 || v == u + 4)
        .collect();
    mesh.sort_unstable();
    // The doubled NVLink pairs: the ring 0 1 3 2 6 7 5 4.
    let ring = [0, 1, 3, 2, 6, 7, 5, 4];
    let mut doubled: Links = (0..8)
        .map(|i| (ring[i], ring[(i + 1) % 8]))
        .map(|(u, v)| (u.min(v), u.max(v)))
        .collect();
    doubled.sort_unstable();
    let (links, double) = dgx1_file();
    assert_eq!(links, mesh);
    assert_eq!(double, doubled);
    // Six NVLinks per GPU: four neighbours, two of them doubled.
    for gpu in 0..8 {
        let count =
            |set: &[(usize, usize)]| set.iter().filter(|&&(u, v)| u == gpu || v == gpu).count();
        assert_eq!(count(&links) + count(&double), 6, "GPU {gpu}");
    }
    let (total, diameter) = total_distance(&lists(8, &mesh));
    let r = bounds_json("examples/networks/dgx1.edges");
    assert_eq!(r["order"], 8);
    assert_eq!(
        (r["degree_min"].clone(), r["degree_max"].clone()),
        (4.into(), 4.into())
    );
    assert_eq!(r["diameter"], diameter);
    assert_eq!(r["total_status"], total);
}
