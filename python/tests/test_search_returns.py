"""What ``search`` returns is what it judged: the schedule, replayed, saved and
read back, or exported as an MSCCL program, gives the search report's verdict,
time and number of sends, and the command line's ``search -o`` agrees.

torus 3 3 is the case where SAT beats the heuristic (4 → 3 steps)."""

import pytest

import txverify

NETWORKS = ["ring 5", "torus 3 3", "mesh 2 3"]


def claims(report):
    return (report["valid"], report["time"], report["transmissions"])


@pytest.fixture(params=[False, True], ids=["sat", "heuristic"])
def heuristic(request):
    return request.param


@pytest.mark.parametrize("network", NETWORKS)
def test_the_schedule_returned_replays_to_the_verdict_reported(network, heuristic):
    found = txverify.search(network, heuristic=heuristic)
    assert found.found and found.verdict in ("optimal", "valid")
    assert len(found.schedule.sends) == found.transmissions
    replayed = found.simulate()
    assert claims(replayed) == claims(found)
    assert replayed.exit_code == 0


@pytest.mark.parametrize("network", NETWORKS)
@pytest.mark.parametrize("name", ["found.sched", "found.json"])
def test_the_schedule_saved_reads_back_to_the_verdict_reported(network, heuristic, name, tmp_path, cli):
    found = txverify.search(network, heuristic=heuristic)
    path = tmp_path / name
    found.save(path)
    assert claims(txverify.simulate(path)) == claims(found)
    (replayed,), status = cli("simulate", str(path))
    assert status == 0 and claims(replayed) == claims(found)


@pytest.mark.parametrize("network", NETWORKS)
def test_the_msccl_program_exported_moves_what_the_schedule_sends(network, heuristic, tmp_path, cli):
    found = txverify.search(network, heuristic=heuristic)
    xml = found.to_msccl_xml()
    checked = txverify.check_msccl(xml)
    assert checked.valid and checked.ngpus == found.nodes
    # One chunk per send.
    assert checked.figures.chunks_sent == found.transmissions
    path = tmp_path / "found.xml"
    path.write_text(xml)
    (by_cli,), status = cli("check", str(path))
    assert status == 0 and by_cli["valid"]
    assert by_cli["figures"]["chunks_sent"] == found.transmissions


@pytest.mark.parametrize("network", NETWORKS)
def test_the_command_line_writes_the_schedule_python_returns(network, heuristic, tmp_path, cli):
    found = txverify.search(network, heuristic=heuristic)
    out = tmp_path / "cli.json"
    args = ["search", "--network", network, "-o", str(out)]
    if heuristic:
        args.append("--heuristic")
    (report,), status = cli(*args)
    assert status == 0
    assert (report["time"], report["transmissions"], report["optimal"]) == (
        found.time,
        found.transmissions,
        found.optimal,
    )
    (replayed,), status = cli("simulate", str(out))
    assert status == 0 and claims(replayed) == claims(found)
