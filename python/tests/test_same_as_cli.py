"""The API's reports equal the command line's JSON on the same inputs."""

import json
from pathlib import Path

import pytest
from conftest import ROOT

import txverify


def _files(pattern):
    return sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern))


TABLES = _files("tables/*.tbl")
INVALID = _files("tables/invalid/*.tbl")[:6]
PROGRAMS = [
    ("tests/golden/torus3x4.msccl.xml", None),
    ("tests/golden/torus3x4.msccl.xml", "torus 3 4"),
    ("tests/golden/ring9-cyclic.msccl.xml", "ring 9"),
    ("tests/golden/ring6-dihedral-total.msccl.xml", None),
] + [(path, None) for path in _files("examples/msccl/*.xml")]
NETWORKS = ["torus 4 4", "mesh 3 3", "edges examples/networks/petersen.edges"]


def test_there_is_something_to_compare():
    assert len(TABLES) >= 10 and INVALID and len(PROGRAMS) >= 4


@pytest.mark.parametrize("path", TABLES + INVALID)
def test_check_table(cli, path):
    (expected,), status = cli("check", path)
    report = txverify.check_table(path)
    assert report.to_dict() == expected
    assert report.exit_code == status


def test_a_table_given_as_text_is_the_same_report_but_its_name(cli):
    (expected,), _ = cli("check", "tables/mesh5.tbl")
    with open("tables/mesh5.tbl", encoding="utf-8") as f:
        report = txverify.check_table(f.read()).to_dict()
    assert report.pop("file") == "<string>"
    expected.pop("file")
    assert report == expected


@pytest.mark.parametrize("path,network", PROGRAMS)
def test_check_msccl(cli, path, network):
    args = ["check", path] + (["--network", network] if network else [])
    (expected,), status = cli(*args)
    report = txverify.check_msccl(Path(path), network=network)
    assert report.to_dict() == expected
    assert report.exit == status


@pytest.mark.parametrize("network", NETWORKS)
def test_bounds(cli, network):
    (expected,), status = cli("bounds", "--network", network)
    assert status == 0
    assert txverify.bounds(network).to_dict() == expected


@pytest.mark.parametrize("ports", [1, 2])
def test_bounds_with_ports(cli, ports):
    (expected,), _ = cli("bounds", "--network", "torus 4 4", "--ports", str(ports))
    assert txverify.bounds("torus 4 4", ports=ports).to_dict() == expected


def _without_seconds(report):
    """The report less its clock readings (the run's, and each improvement's)."""
    report = json.loads(json.dumps(report))
    assert report.pop("seconds") >= 0
    for kept in report.get("improvements", []):
        assert kept.pop("seconds") >= 0
    return report


@pytest.mark.parametrize(
    "network,options,flags",
    [
        ("ring 5", {}, []),
        ("mesh 3 3", {"time_limit": 30}, ["--time-limit", "30"]),
        ("edges examples/networks/petersen.edges", {"heuristic": True}, ["--heuristic"]),
        ("torus 3 3", {"time": 3}, ["--time", "3"]),
    ],
)
def test_search(cli, network, options, flags):
    (expected,), status = cli("search", "--network", network, *flags)
    found = txverify.search(network, **options)
    assert _without_seconds(found.to_dict()) == _without_seconds(expected)
    assert found.exit_code == status


def test_a_schedule_found_replays_as_the_cli_replays_it(cli, tmp_path):
    out = tmp_path / "mesh.json"
    _, status = cli("search", "--network", "mesh 3 3", "-o", str(out))
    assert status == 0
    found = txverify.search("mesh 3 3")
    assert found.schedule == json.loads(out.read_text())
    (expected,), _ = cli("simulate", str(out))
    replay = found.simulate().to_dict()
    assert replay.pop("file") == "<string>"
    expected.pop("file")
    assert replay == expected


SCHEDULES = _files("examples/schedules/*")


@pytest.mark.parametrize("path", SCHEDULES + ["tables/mesh5.tbl"])
def test_simulate(cli, path):
    (expected,), status = cli("simulate", path)
    report = txverify.simulate(Path(path))
    assert report.to_dict() == expected


def test_simulate_on_another_network(cli):
    path = "examples/schedules/ring4-total.sched"
    (expected,), status = cli("simulate", path, "--network", "torus 2 2")
    assert txverify.simulate(path, network="torus 2 2").to_dict() == expected
