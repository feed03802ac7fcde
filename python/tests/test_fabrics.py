"""Fabrics from Python: a networkx graph's capacity/alpha/beta attributes and
msccl-tools Topology objects are read as the command line reads edge lists
and topology JSON (docs/networks.md, "Fabrics")."""

import os

import pytest

import txverify

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SCHEDULE = os.path.join(ROOT, "examples", "schedules", "dgx1-allgather-3steps.sched")
DOUBLED = os.path.join(ROOT, "examples", "networks", "dgx1-doubled.edges")


def dgx1_links():
    """(u, v, capacity) of the doubled DGX-1 edge list the examples ship."""
    links = []
    with open(DOUBLED, encoding="utf-8") as f:
        for line in f:
            words = line.split("#")[0].split()
            if words:
                links.append((int(words[0]), int(words[1]), int(words[2]) if len(words) > 2 else 1))
    return links


def dgx1_graph(nx, with_capacities=True):
    graph = nx.Graph()
    graph.add_nodes_from(range(8))
    for u, v, capacity in dgx1_links():
        graph.add_edge(u, v, **({"capacity": capacity} if with_capacities else {}))
    return graph


def test_capacities_of_a_networkx_graph_make_the_doubled_links_carry_two():
    nx = pytest.importorskip("networkx")
    doubled = txverify.simulate(SCHEDULE, network=dgx1_graph(nx))
    single = txverify.simulate(SCHEDULE, network=dgx1_graph(nx, with_capacities=False))
    named = txverify.simulate(SCHEDULE)
    assert doubled.valid and named.valid
    assert not single.valid
    assert doubled.time == named.time == 3
    assert single.violation_counts["link-busy"] > 0


def test_a_fabric_network_round_trips_through_networkx_and_its_edge_list():
    nx = pytest.importorskip("networkx")
    graph = dgx1_graph(nx)
    graph.edges[0, 1]["alpha"] = 0.5
    network = txverify.Network.from_networkx(graph)
    given = {frozenset((u, v)): c for u, v, c in dgx1_links()}
    assert dict(zip(map(frozenset, network.edges), network.capacities)) == given
    assert "0 1 2 alpha=0.5\n" in network.edges_text()
    back = txverify.Network.from_networkx(network.to_networkx())
    assert back == network


@pytest.mark.parametrize("capacity", [0, -1, 2**64, 1.5, True, "2"])
def test_a_bad_capacity_is_an_input_error(capacity):
    nx = pytest.importorskip("networkx")
    graph = nx.Graph()
    graph.add_edge(0, 1, capacity=capacity)
    with pytest.raises(txverify.InputError, match="capacity"):
        txverify.Network.from_networkx(graph)


def test_the_arcs_of_a_digraph_must_agree_on_capacity():
    nx = pytest.importorskip("networkx")
    graph = nx.DiGraph()
    graph.add_edge(0, 1, capacity=2)
    graph.add_edge(1, 0, capacity=1)
    with pytest.raises(txverify.InputError, match="differ"):
        txverify.Network.from_networkx(graph)


class Topology:
    """The shape of msccl-tools' Topology: a name, links[dst][src], switches."""

    def __init__(self, name, links, switches=()):
        self.name = name
        self.links = links
        self.switches = list(switches)


def test_an_msccl_tools_topology_object_is_a_network():
    matrix = [[0] * 8 for _ in range(8)]
    for u, v, capacity in dgx1_links():
        matrix[u][v] = matrix[v][u] = capacity
    report = txverify.simulate(SCHEDULE, network=Topology("DGX1", matrix))
    assert report.valid
    single = [[min(b, 1) for b in row] for row in matrix]
    assert not txverify.simulate(SCHEDULE, network=Topology("DGX1", single)).valid


def test_a_switch_limit_of_a_topology_object_is_kept():
    matrix = [[0] * 8 for _ in range(8)]
    for u, v, capacity in dgx1_links():
        matrix[u][v] = matrix[v][u] = capacity
    # Node 0 may send at most one chunk a step: the 3-step allgather sends more.
    limit = Topology("DGX1", matrix, [([0], [1, 2, 3, 4], 1, "out0")])
    report = txverify.simulate(SCHEDULE, network=limit)
    assert not report.valid
    assert "switch-limit" in str(report)


def test_a_topology_that_is_not_one_is_an_input_error():
    with pytest.raises(txverify.InputError):
        txverify.simulate(SCHEDULE, network=Topology("bad", [[0, 1], [1]]))
