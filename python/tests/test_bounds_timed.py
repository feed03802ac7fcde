"""The LP bound's certificate (``bounds(..., lp=True)``, ``verify_bound``),
the timed replay (``simulate(..., alpha=, beta=, link_table=)``) and
``check_msccl`` of program objects: each equals the command line's JSON."""

import json

import pytest

import txverify

NETWORKS = ["hypercube 3", "torus 3 4", "edges examples/networks/petersen.edges"]


@pytest.mark.parametrize("network", NETWORKS)
def test_the_lp_certificate_is_the_one_bounds_writes(cli, network, tmp_path):
    path = tmp_path / "lp.json"
    (expected,), status = cli("bounds", "--network", network, "--lp-certificate", str(path))
    assert status == 0
    report = txverify.bounds(network, lp=True)
    assert report.to_dict() == expected
    certificate = report.certificate
    written = json.loads(path.read_text())
    assert certificate.to_dict() == written
    assert certificate.weights == [tuple(w) for w in written["weights"]] and certificate.weights
    assert certificate.bound == expected["lp_bound"]["value"]
    saved = tmp_path / "saved.json"
    certificate.save(saved)
    assert json.loads(saved.read_text()) == written


def test_without_lp_there_is_no_certificate():
    assert txverify.bounds("ring 5").certificate is None


@pytest.mark.parametrize("network", NETWORKS)
def test_verify_bound_is_the_command_lines(cli, network, tmp_path):
    path = tmp_path / "lp.json"
    cli("bounds", "--network", network, "--lp-certificate", str(path))
    (expected,), status = cli("verify-bound", str(path), "--network", network)
    assert txverify.verify_bound(path, network).to_dict() == expected
    assert status == 0 and expected["accepted"] is True
    from_object = txverify.verify_bound(txverify.bounds(network, lp=True).certificate, network).to_dict()
    assert from_object.pop("file") == "<string>"
    expected.pop("file")
    assert from_object == expected


def test_verify_bound_rejects_a_stated_bound_above_the_weights(cli, tmp_path):
    certificate = txverify.bounds("hypercube 3", lp=True).certificate.to_dict()
    certificate["bound"] += 5
    path = tmp_path / "lie.json"
    path.write_text(json.dumps(certificate))
    (expected,), status = cli("verify-bound", str(path), "--network", "hypercube 3")
    report = txverify.verify_bound(path, "hypercube 3")
    assert status == 1 and report.to_dict() == expected and report.accepted is False


@pytest.mark.parametrize("bad", ["{}", '{"schema":"txverify-lp-bound/1","weights":[[0,5,1]]}'])
def test_verify_bound_refuses_what_it_cannot_read(bad):
    with pytest.raises(txverify.InputError):
        txverify.verify_bound(bad, "hypercube 3")


TIMED = [
    ("examples/schedules/ring4-total.sched", {"alpha": 2, "beta": 0.5}, ["--alpha", "2", "--beta", "0.5"]),
    ("examples/schedules/hypercube3-broadcast.sched", {"alpha": 1.5}, ["--alpha", "1.5"]),
    ("examples/schedules/mesh2x2-total.json", {"beta": 3}, ["--beta", "3"]),
]


@pytest.mark.parametrize("path,options,flags", TIMED)
def test_timed_replay_is_the_command_lines(cli, path, options, flags):
    (expected,), status = cli("simulate", path, *flags)
    report = txverify.simulate(path, **options)
    assert "timed" in expected
    assert report.to_dict() == expected


def test_a_link_table_times_the_replay_as_the_command_line(cli, tmp_path):
    table = tmp_path / "links.txt"
    table.write_text("from to alpha beta\n0 1 5 1\n2 3 0.5 0.25\n")
    path = "examples/schedules/ring4-total.sched"
    (expected,), _ = cli("simulate", path, "--alpha", "1", "--link-table", str(table))
    assert txverify.simulate(path, alpha=1, link_table=table).to_dict() == expected


def test_a_found_schedule_is_timed_as_its_saved_file(cli, tmp_path):
    found = txverify.search("hypercube 3", collective="allgather")
    path = tmp_path / "ag.json"
    found.save(path)
    (expected,), _ = cli("simulate", str(path), "--alpha", "2", "--beta", "1")
    timed = txverify.simulate(found, alpha=2, beta=1).to_dict()
    assert timed["timed"] == expected["timed"]
    assert found.simulate(alpha=2, beta=1)["timed"] == expected["timed"]


def test_a_table_is_not_timed():
    with pytest.raises(txverify.InputError, match="apply to schedule files only"):
        txverify.simulate("tables/mesh5.tbl", alpha=1)


def test_a_negative_alpha_is_refused_as_the_command_line_refuses_it(cli):
    _, status = cli("simulate", "examples/schedules/ring4-total.sched", "--alpha=-1")
    assert status == 2
    with pytest.raises(txverify.InputError):
        txverify.simulate("examples/schedules/ring4-total.sched", alpha=-1)


class FakeProgram:
    """An object shaped as msccl-tools' ``MSCCLProgram``: ``generate_xml()``
    returns the program's XML."""

    def __init__(self, xml):
        self.xml = xml

    def generate_xml(self):
        return self.xml


PROGRAM = "tests/golden/ring9-cyclic.msccl.xml"


def test_check_msccl_takes_a_program_object(cli):
    with open(PROGRAM, encoding="utf-8") as f:
        xml = f.read()
    (expected,), _ = cli("check", PROGRAM, "--network", "ring 9")
    report = txverify.check_msccl(FakeProgram(xml), network="ring 9").to_dict()
    assert report.pop("file") == "<string>"
    expected.pop("file")
    assert report == expected


def test_a_program_timed_is_the_command_lines_check(cli):
    (expected,), _ = cli("check", PROGRAM, "--network", "ring 9", "--alpha", "1", "--beta", "2")
    assert "timed" in expected
    report = txverify.check_msccl(PROGRAM, network="ring 9", alpha=1, beta=2)
    assert report.to_dict() == expected
    with open(PROGRAM, encoding="utf-8") as f:
        replayed = txverify.simulate(FakeProgram(f.read()), "ring 9", alpha=1, beta=2).to_dict()
    assert replayed["timed"] == expected["timed"]


def test_a_program_object_that_fails_is_an_input_error():
    class Broken:
        def generate_xml(self):
            raise RuntimeError("cycle")

    with pytest.raises(txverify.InputError, match="generate_xml"):
        txverify.check_msccl(Broken())
    with pytest.raises(txverify.InputError, match="not the XML text"):
        txverify.check_msccl(FakeProgram(42))
