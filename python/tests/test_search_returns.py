"""What ``search`` returns is what it judged: the schedule, replayed, saved and
read back, or exported as an MSCCL program, gives the search report's verdict,
time and number of sends, and the command line's ``search -o`` agrees.

torus 3 3 is the case where SAT beats the heuristic (4 → 3 steps). A name
ending in ``.gz`` or ``.zst`` writes the schedule compressed, and every reader
tells it by its first bytes (docs/schedule.md)."""

import pytest

import txverify

NETWORKS = ["ring 5", "torus 3 3", "mesh 2 3"]

# The first bytes of a compressed file, by the name's last extension.
MAGIC = {".gz": b"\x1f\x8b", ".zst": b"\x28\xb5\x2f\xfd"}


def assert_compressed_as_named(path):
    magic = MAGIC.get(path.suffix)
    head = path.read_bytes()[:4]
    if magic is None:
        assert head[:1] in (b"{", b"n"), head
    else:
        assert head.startswith(magic), (path.name, head)


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
@pytest.mark.parametrize("name", ["found.sched", "found.json", "found.json.gz", "found.sched.zst"])
def test_the_schedule_saved_reads_back_to_the_verdict_reported(network, heuristic, name, tmp_path, cli):
    found = txverify.search(network, heuristic=heuristic)
    path = tmp_path / name
    found.save(path)
    assert_compressed_as_named(path)
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


@pytest.mark.parametrize("name", ["cli.json.gz", "cli.sched.zst"])
def test_a_compressed_schedule_of_the_command_line_reads_back_in_python(network_name, name, heuristic, tmp_path, cli):
    out = tmp_path / name
    args = ["search", "--network", network_name, "-o", str(out)]
    if heuristic:
        args.append("--heuristic")
    (report,), status = cli(*args)
    assert status == 0
    assert_compressed_as_named(out)
    replayed = txverify.simulate(out)
    assert claims(replayed) == (True, report["time"], report["transmissions"])
    svg = txverify.render(out)
    assert f'data-sends="{report["transmissions"]}"' in svg


@pytest.fixture(params=["ring 5", "torus 3 3"])
def network_name(request):
    return request.param
