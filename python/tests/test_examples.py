"""The interop examples of python/examples/."""

import importlib.util
import json
from pathlib import Path

import pytest

import txverify

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_msccl_tools_program_checks_as_the_cli_checks_it(cli, tmp_path):
    pytest.importorskip(
        "msccl.language",
        reason="msccl-tools is not installed (it is installed from its repository, not the package registry)",
    )
    example = _example("msccl_tools_alltoall")
    xml = example.alltoall_xml(4)
    report = txverify.check_msccl(xml, network="complete 4")
    assert report.collective == "alltoall" and report.ngpus == 4
    path = tmp_path / "alltoall.xml"
    path.write_text(xml)
    (expected,), status = cli("check", str(path), "--network", "complete 4")
    assert txverify.check_msccl(path, network="complete 4").to_dict() == expected
    assert example.main(4) == 0


def test_networkx_graph_gets_bounds_and_a_schedule(tmp_path):
    nx = pytest.importorskip("networkx", reason="networkx is not installed")
    example = _example("networkx_search")
    graph = nx.circular_ladder_graph(4)  # the 3-cube's prism drawing: 8 nodes, 3-regular
    network = example.write_edge_list(graph, str(tmp_path / "ladder.edges"))
    bounds = txverify.bounds(network)
    assert bounds.order == 8
    found = txverify.search(network, time_limit=30)
    assert found.verdict == "optimal" and found.time == bounds.all_port_bound
    assert found.simulate().valid
    assert example.main() == 0
