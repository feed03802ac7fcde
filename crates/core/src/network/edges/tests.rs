use super::*;

fn err(text: &str) -> EdgesError {
    parse_edges(text, "t.edges").unwrap_err()
}

#[test]
fn a_triangle_with_comments_reads() {
    let g = parse_edges("# a triangle\n0 1\n\n1 2 # second\n  2\t0\n", "t.edges").unwrap();
    assert_eq!(g.nodes(), 3);
    assert_eq!(g.directed_links(), 6);
    assert_eq!(g.ports(0), &[1, 2]);
    assert_eq!(g.ports(2), &[1, 0]);
}

#[test]
fn every_refusal_has_its_position() {
    let at = |text: &str| {
        let e = err(text);
        (e.line, e.column, e.kind)
    };
    assert_eq!(
        at("0 1\n1 x\n"),
        (2, 3, EdgesErrorKind::NotANode("x".into()))
    );
    assert_eq!(at("0 -1\n"), (1, 3, EdgesErrorKind::NotANode("-1".into())));
    assert_eq!(
        at("0 1 2 3\n"),
        (1, 7, EdgesErrorKind::NotAField("3".into()))
    );
    assert_eq!(at("0 1\n 5\n"), (2, 2, EdgesErrorKind::NotTwo(1)));
    assert_eq!(at("0 1\n1  1\n"), (2, 4, EdgesErrorKind::SelfLoop(1)));
    let repeated = EdgesErrorKind::Repeated {
        u: 1,
        v: 0,
        first_line: 1,
    };
    assert_eq!(at("0 1\n1 2\n 1 0\n"), (3, 2, repeated));
    let gap = EdgesErrorKind::Gap {
        largest: 3,
        missing: 2,
    };
    assert_eq!(at("0 1\n1 3\n"), (2, 3, gap));
    assert_eq!(at("0 1\n2 3\n"), (2, 1, EdgesErrorKind::NotConnected(2)));
    assert_eq!(at("# nothing\n\n"), (2, 1, EdgesErrorKind::Empty));
    assert_eq!(at(""), (1, 1, EdgesErrorKind::Empty));
    assert_eq!(at("0 99999999999\n"), (1, 3, EdgesErrorKind::TooLarge));
    assert_eq!(
        err("0 0\n").to_string(),
        "t.edges:1:3: self-loop: node 0 linked to itself"
    );
}

#[test]
fn columns_count_characters() {
    // A comment with non-ASCII text before the fault does not shift columns.
    assert_eq!(err("0 1\n1 é\n").column, 3);
    assert_eq!(err("0 1 # é\n1 1\n").line, 2);
}

#[test]
fn an_unreadable_file_names_its_path() {
    let e = read_edges(Path::new("no/such/file.edges")).unwrap_err();
    assert_eq!(e.path, "no/such/file.edges");
    assert!(matches!(e.kind, EdgesErrorKind::Unreadable(_)));
    assert!(e.to_string().starts_with("no/such/file.edges: cannot read"));
}

#[test]
fn a_huge_node_number_is_a_gap_without_a_huge_table() {
    let e = err("0 1\n1 16777215\n");
    let gap = EdgesErrorKind::Gap {
        largest: 16_777_215,
        missing: 2,
    };
    assert_eq!((e.line, e.column, e.kind), (2, 3, gap));
}

#[test]
fn a_fabric_edge_list_gives_capacities_times_and_switches() {
    let text = "0 2 2 alpha=0.5\n1 2 beta=3\nswitch: 2\nmulticast: yes\n";
    let g = parse_edges(text, "t.edges").unwrap();
    assert_eq!(g.capacity(g.link(0, 2).unwrap()), 2);
    assert_eq!(g.capacity(g.link(2, 0).unwrap()), 2);
    assert_eq!(g.capacity(g.link(1, 2).unwrap()), 1);
    let t = g.link_timing(g.link(2, 0).unwrap()).unwrap();
    assert_eq!((t.alpha, t.beta), (Some(0.5), None));
    assert!(g.is_forward_only(2) && !g.is_forward_only(0));
    assert!(g.fabric().multicast());
    // Without any field the graph has no fabric.
    assert!(parse_edges("0 1\n", "t.edges").unwrap().fabric().is_plain());
}

#[test]
fn every_fabric_refusal_has_its_position() {
    let at = |text: &str| {
        let e = err(text);
        (e.line, e.column, e.kind)
    };
    assert_eq!(at("0 1 0\n"), (1, 5, EdgesErrorKind::ZeroCapacity));
    assert_eq!(
        at("0 1 -2\n"),
        (1, 5, EdgesErrorKind::NotAField("-2".into()))
    );
    assert_eq!(
        at("0 1 18446744073709551616\n"),
        (
            1,
            5,
            EdgesErrorKind::CapacityTooLarge("18446744073709551616".into())
        )
    );
    assert_eq!(
        at("0 1 alpha=-1\n"),
        (1, 5, EdgesErrorKind::BadTime("alpha=-1".into()))
    );
    assert_eq!(
        at("0 1 beta=1 beta=2\n"),
        (1, 12, EdgesErrorKind::BadTime("beta=2".into()))
    );
    assert_eq!(
        at("0 1 gamma=1\n"),
        (1, 5, EdgesErrorKind::NotAField("gamma=1".into()))
    );
    assert_eq!(
        at("0 1\nswitch: 1 7\n"),
        (2, 11, EdgesErrorKind::SwitchNotANode(7))
    );
    assert_eq!(
        at("0 1\nswitch: 0 1\n"),
        (2, 11, EdgesErrorKind::AllSwitches)
    );
    assert_eq!(
        at("0 1\nmulticast: maybe\n"),
        (2, 12, EdgesErrorKind::BadMulticast("maybe".into()))
    );
    assert_eq!(
        at("0 1\nhub: 0\n"),
        (2, 1, EdgesErrorKind::UnknownKey("hub".into()))
    );
}
