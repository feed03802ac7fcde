"""``search(network, collective=...)``: the collectives that copy or combine,
as ``txverify search --network NET --collective X``; the report equals the
command line's JSON, the schedule exports as that collective's MSCCL program,
which the MSCCL checker calls VALID, and the options are checked by the
library's rules (the command line's messages, in Python's names)."""

import json
import subprocess

import pytest
from conftest import _binary

import txverify

CASES = [
    ("ring 4", "allgather", {}),
    ("hypercube 3", "allgather", {}),
    ("ring 4", "reduce-scatter", {}),
    ("hypercube 3", "reduce-scatter", {}),
    ("ring 4", "allreduce", {}),
    ("ring 4", "broadcast", {"root": 1}),
    ("hypercube 3", "broadcast", {"root": 0}),
    ("ring 4", "reduce", {"root": 2}),
    ("ring 4", "allgather", {"chunks": 2}),
    ("linear 4", "broadcast", {"root": 0, "chunks": 3, "ports": 1}),
    ("hypercube 3", "allreduce", {"heuristic": True}),
]


def _flags(collective, options):
    words = collective + (f" {options['root']}" if "root" in options else "")
    flags = ["--collective", words]
    if "chunks" in options:
        flags += ["--chunks", str(options["chunks"])]
    if "ports" in options:
        flags += ["--ports", str(options["ports"])]
    if options.get("heuristic"):
        flags += ["--heuristic"]
    return flags


def _without_seconds(report):
    report = json.loads(json.dumps(report))
    assert report.pop("seconds") >= 0
    for kept in report.get("improvements", []):
        assert kept.pop("seconds") >= 0
    return report


@pytest.mark.parametrize("network,collective,options", CASES)
def test_the_report_is_the_command_lines(cli, network, collective, options):
    (expected,), status = cli("search", "--network", network, *_flags(collective, options))
    found = txverify.search(network, collective=collective, **options)
    assert found["schema"] == "txverify-schedule-search/3"
    assert _without_seconds(found.to_dict()) == _without_seconds(expected)
    assert found.exit_code == status == 0
    assert found.found and found.verdict in ("optimal", "valid")


@pytest.mark.parametrize("network,collective,options", CASES)
def test_the_schedule_exports_as_that_collectives_valid_program(network, collective, options):
    found = txverify.search(network, collective=collective, **options)
    assert found.schedule["collective"].split()[0] == collective
    assert len(found.schedule["sends"]) == found.transmissions
    xml = found.to_msccl_xml()
    checked = txverify.check_msccl(xml, network=network)
    assert checked["valid"] is True, checked.text
    assert checked["collective"].split()[0] == collective.replace("-", "")  # MSCCL spells reducescatter
    # The replay of the schedule agrees with the search's claims.
    replayed = found.simulate()
    assert (replayed["valid"], replayed["time"]) == (True, found.time)


def test_the_msccl_program_is_the_one_export_writes(cli, tmp_path):
    path = tmp_path / "ag.json"
    _, status = cli("search", "--network", "hypercube 3", "--collective", "allgather", "-o", str(path))
    assert status == 0
    found = txverify.search("hypercube 3", collective="allgather")
    assert found.schedule == json.loads(path.read_text())
    exported = subprocess.run(
        [_binary(), "export", str(path), "--format", "msccl"], capture_output=True, text=True, check=True
    ).stdout
    assert found.to_msccl_xml(name="ag") == exported


def test_the_root_may_be_named_in_the_collective():
    apart = txverify.search("ring 4", collective="broadcast", root=2)
    inside = txverify.search("ring 4", collective="broadcast 2")
    assert _without_seconds(apart.to_dict()) == _without_seconds(inside.to_dict())


def test_a_refuted_time_is_no_schedule(cli):
    (expected,), status = cli(
        "search", "--network", "ring 6", "--collective", "allgather", "--ports", "1", "--time", "4"
    )
    found = txverify.search("ring 6", collective="allgather", ports=1, time=4)
    assert status == 1 and not found.found and found.verdict is None
    assert _without_seconds(found.to_dict()) == _without_seconds(expected)


@pytest.mark.parametrize(
    "options,says",
    [
        ({"chunks": 2}, "chunks needs collective"),
        ({"root": 0}, "root needs collective"),
        ({"ports": 1}, "ports needs collective"),
        ({"collective": "allgather", "slack": 1}, "slack is not available with collective"),
        ({"collective": "allgather", "any_length": True}, "any_length is not available with collective"),
        ({"collective": "allgather", "heuristic": True, "time": 3}, "time is for the SAT search, not with heuristic"),
        ({"collective": "allgather", "heuristic": True, "deadline": 1}, "deadline is for the SAT search"),
        ({"collective": "allgather", "time_limit": 0}, "time_limit: 0 is not a positive number of seconds"),
        ({"collective": "allgather", "deadline": float("nan")}, "deadline: NaN is not a positive number of seconds"),
        ({"collective": "allgather", "root": 1}, "`allgather` takes no root"),
        ({"collective": "broadcast"}, "`broadcast` takes one root"),
        ({"collective": "broadcast 9"}, "not a node"),
        ({"collective": "gossip"}, "unknown collective"),
        ({"collective": "allgather", "chunks": 0}, "chunks must be"),
        ({"collective": "allgather", "ports": 0}, "ports"),
        ({"collective": "allgather", "ports": "some"}, "ports"),
        ({"collective": "allgather", "chunks": -1}, "argument `chunks`"),
        ({"collective": "allgather", "root": True}, "argument `root`"),
        ({"collective": 3}, "argument `collective`"),
        ({"collective": "allgather", "solver": "z9"}, "solver `z9`"),
    ],
)
def test_options_are_checked_by_the_librarys_rules(options, says):
    with pytest.raises(txverify.InputError) as raised:
        txverify.search("ring 4", **options)
    assert says in str(raised.value)


def test_the_command_line_refuses_the_same_combination(cli):
    lines, status = cli(
        "search", "--network", "ring 4", "--collective", "allgather", "--heuristic", "--deadline", "1"
    )
    assert status == 2
    assert "--deadline is for the SAT search, not with --heuristic" in lines[0]["error"]["message"]
