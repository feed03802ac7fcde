"""Networks as objects: a networkx graph, a list of edges or a
`txverify.Network` gives the binary's report on the equivalent edge list, its
node labels kept; hostile graphs are `txverify.Error`s."""

import pytest

import txverify
from test_same_as_cli import _without_seconds

nx = pytest.importorskip("networkx")

LABELS = [f"gpu{i}" for i in range(6)]


def _cycle():
    return nx.cycle_graph(LABELS)


def _edge_list(tmp_path):
    """The cycle's edge list, written by hand: node i is gpu{i}."""
    path = tmp_path / "cycle6.edges"
    path.write_text("".join(f"{i} {(i + 1) % 6}\n" for i in range(6)))
    return path


def _without_network(report):
    report = dict(report)
    report.pop("network")
    return report


def test_bounds_of_a_networkx_cycle_are_the_binarys_on_its_edge_list(cli, tmp_path):
    (expected,), status = cli("bounds", "--network", f"edges {_edge_list(tmp_path)}")
    report = txverify.bounds(_cycle())
    assert _without_network(report.to_dict()) == _without_network(expected)
    assert status == 0
    assert report.labels == LABELS


def test_search_on_a_networkx_cycle_is_the_binarys_on_its_edge_list(cli, tmp_path):
    (expected,), status = cli("search", "--network", f"edges {_edge_list(tmp_path)}")
    found = txverify.search(_cycle())
    assert _without_network(_without_seconds(found.to_dict())) == _without_network(
        _without_seconds(expected)
    )
    assert found.exit_code == status == 0
    assert found.labels == LABELS


def test_a_network_is_named_by_the_edge_list_it_writes(cli):
    network = txverify.Network.from_networkx(_cycle())
    (expected,), _ = cli("bounds", "--network", network.name)
    assert txverify.bounds(network).to_dict() == expected
    again = txverify.Network.from_edges(network.edges, labels=network.labels)
    assert again == network and txverify.bounds(again).to_dict() == expected


def test_the_sends_speak_of_labels_when_asked():
    found = txverify.search(_cycle(), collective="allgather")
    numbered = found.sends()
    labelled = found.sends(labels=True)
    assert len(numbered) == len(labelled) > 0
    for by_number, by_label in zip(numbered, labelled):
        assert by_label["step"] == by_number["step"]
        for key in ("from", "to", "source"):
            assert by_label[key] == LABELS[by_number[key]]
        assert by_label["destination"] == by_number["destination"] == "*"
    # Every send is along a link of the graph given.
    graph = _cycle()
    assert all(graph.has_edge(s["from"], s["to"]) for s in labelled)


def test_a_network_given_by_name_has_no_labels():
    found = txverify.search("ring 4")
    assert found.labels is None
    with pytest.raises(txverify.InputError, match="no labels"):
        found.sends(labels=True)


def test_labels_round_trip_through_networkx():
    graph = nx.Graph()
    graph.add_edges_from([("b", "a"), ("a", "c"), ("c", "b"), ("c", "d")])
    network = txverify.Network.from_networkx(graph)
    assert network.labels == ["b", "a", "c", "d"]
    # networkx lists a Graph's edges node by node, in node order.
    assert network.edges_text() == "0 1\n0 2\n1 2\n2 3\n"
    back = network.to_networkx()
    assert list(back.nodes) == list(graph.nodes)
    assert nx.utils.edges_equal(back.edges, graph.edges)
    assert txverify.Network.from_networkx(back) == network


def test_a_symmetric_digraph_is_its_undirected_graph():
    directed = nx.DiGraph(_cycle())
    assert txverify.Network.from_networkx(directed) == txverify.Network.from_networkx(_cycle())
    assert txverify.bounds(directed).to_dict() == txverify.bounds(_cycle()).to_dict()


def test_edges_name_their_nodes_in_order_of_first_appearance():
    network = txverify.Network.from_edges([("x", "y"), ("y", "z"), ("z", "x")])
    assert network.labels == ["x", "y", "z"]
    assert network.edges == [("x", "y"), ("y", "z"), ("z", "x")]
    assert len(network) == 3


def _capacity_two():
    graph = _cycle()
    graph.edges["gpu0", "gpu1"]["capacity"] = 2
    return graph


def _self_loop():
    graph = _cycle()
    graph.add_edge("gpu2", "gpu2")
    return graph


def _isolated():
    graph = _cycle()
    graph.add_node("spare")
    return graph


def _timed():
    graph = _cycle()
    graph.edges["gpu0", "gpu1"]["alpha"] = 1.0
    return graph


@pytest.mark.parametrize(
    "network,message",
    [
        (_self_loop, "self-loop"),
        (lambda: nx.Graph(), "no link"),
        (lambda: [([1], [2])], "not hashable"),
        (lambda: nx.DiGraph([(0, 1), (1, 2), (2, 0)]), "no reverse"),
        (_isolated, "in no link"),
        (lambda: [(0, 1, 2)], "two nodes"),
        (lambda: [(0, 1), (1, 0)], "listed again"),
        (lambda: [(0, 1), (2, 3)], "not connected"),
        (lambda: 42, "not int"),
        (lambda: [1, 2], "pairs"),
    ],
)
def test_hostile_graphs_are_input_errors(network, message):
    given = network()
    for call in (
        lambda: txverify.bounds(given),
        lambda: txverify.search(given, heuristic=True),
        lambda: txverify.simulate("examples/schedules/mesh2x2-total.json", network=given),
    ):
        with pytest.raises(txverify.InputError, match=message):
            call()


@pytest.mark.parametrize("fabric", [_capacity_two, _timed])
def test_bounds_state_a_fabric_graph_search_and_simulate_take_it(fabric):
    # A capacity makes the bounds a fabric's (GPUs only, links at capacity);
    # link times alone change no step bound.
    report = txverify.bounds(fabric()).to_dict()
    assert ("fabric" in report) == (fabric is _capacity_two)
    found = txverify.search(_cycle(), heuristic=True)
    assert txverify.simulate(found.to_json(), network=fabric()).valid
    # The search on the fabric itself: replayed valid there.
    on_fabric = txverify.search(fabric())
    assert txverify.simulate(on_fabric.to_json(), network=fabric()).valid


def test_simulate_and_check_msccl_take_a_graph(cli):
    found = txverify.search(_cycle(), heuristic=True)
    replayed = txverify.simulate(found.to_json(), network=_cycle())
    assert replayed.valid and replayed.labels == LABELS
    checked = txverify.check_msccl(found.to_msccl_xml(), network=_cycle())
    assert checked.valid and checked.labels == LABELS
