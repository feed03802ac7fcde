"""A network drawn with networkx: its lower bounds and an optimal all-to-all.

networkx writes the graph as an edge list (`u v` per line, nodes 0 … N−1),
which txverify reads as the network `edges FILE`.

    python examples/networkx_search.py
"""

import os
import sys
import tempfile

import networkx as nx

import txverify


def write_edge_list(graph: "nx.Graph", path: str) -> str:
    """Writes `graph` with its nodes renumbered 0 … N−1; returns the network name."""
    numbered = nx.convert_node_labels_to_integers(graph)
    nx.write_edgelist(numbered, path, data=False)
    return f"edges {path}"


def main() -> int:
    graph = nx.petersen_graph()
    with tempfile.TemporaryDirectory() as tmp:
        network = write_edge_list(graph, os.path.join(tmp, "petersen.edges"))
        bounds = txverify.bounds(network)
        print(bounds)
        found = txverify.search(network, time_limit=30)
        print(found)
        replay = found.simulate()
        print(replay)
    best = bounds.all_port.best
    print(f"all-port lower bound {best.value} ({best.name}); schedule time {found.time}: {found.verdict}")
    return 0 if replay.valid else 1


if __name__ == "__main__":
    sys.exit(main())
