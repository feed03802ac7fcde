"""Errors are exceptions of the package, placed as the command line places them."""

import pytest

import txverify

BAD_TABLE = "name: x\ngroup: <a | a^5>\nlinks: a A\ntable:\n  a\n"
BAD_PROGRAM = '<algo name="x" coll="alltoall">\n  <gpu id="0">\n</algo>\n'
BAD_SCHEDULE = '{"schema": "txverify-schedule/1", "network": "ring 4", "sends": [\n {"step": 1, "from": 0}\n]}\n'


def test_the_exceptions_share_a_base():
    for kind in (txverify.InputError, txverify.LimitError, txverify.InternalError):
        assert issubclass(kind, txverify.Error)
    assert issubclass(txverify.Error, Exception)


def test_a_table_that_cannot_be_loaded_is_placed_as_the_cli_places_it(cli, tmp_path):
    path = tmp_path / "bad.tbl"
    path.write_text(BAD_TABLE)
    (expected,), status = cli("check", str(path))
    assert status == 2
    with pytest.raises(txverify.InputError) as caught:
        txverify.check_table(path)
    e = caught.value
    assert (e.file, e.line, e.column, e.message) == (
        expected["file"],
        expected["error"]["line"],
        expected["error"]["column"],
        expected["error"]["message"],
    )
    assert str(e).startswith(f"{path}:3:10: ")


def test_a_table_given_as_text_is_placed_in_the_string():
    with pytest.raises(txverify.InputError) as caught:
        txverify.check_table(BAD_TABLE)
    assert (caught.value.file, caught.value.line, caught.value.column) == ("<string>", 3, 10)


def test_a_missing_file_is_an_input_error():
    with pytest.raises(txverify.InputError) as caught:
        txverify.check_table("no-such-file.tbl")
    assert caught.value.file == "no-such-file.tbl"
    assert "cannot read" in caught.value.message


def test_unreadable_xml_is_placed_as_the_cli_places_it(cli, tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text(BAD_PROGRAM)
    (expected,), status = cli("check", str(path))
    assert status == 2
    with pytest.raises(txverify.InputError) as caught:
        txverify.check_msccl(path)
    e = caught.value
    assert (e.line, e.column, e.message) == (expected["line"], expected["column"], expected["reason"])


def test_a_bad_schedule_is_placed_as_the_cli_places_it(cli, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(BAD_SCHEDULE)
    (expected,), status = cli("simulate", str(path))
    assert status == 2
    with pytest.raises(txverify.InputError) as caught:
        txverify.simulate(path)
    e = caught.value
    assert (e.line, e.column, e.message) == (
        expected["error"]["line"],
        expected["error"]["column"],
        expected["error"]["message"],
    )


@pytest.mark.parametrize("call", [txverify.bounds, txverify.search])
@pytest.mark.parametrize("network", ["blob 3", "torus 0", "edges no-such.edges"])
def test_a_bad_network_is_an_input_error(call, network):
    with pytest.raises(txverify.InputError):
        call(network)


def test_a_bad_network_for_a_program_is_an_input_error():
    with pytest.raises(txverify.InputError):
        txverify.check_msccl("tests/golden/torus3x4.msccl.xml", network="torus 0")


def test_options_of_the_sat_search_are_refused_with_the_heuristic():
    with pytest.raises(txverify.InputError, match="heuristic"):
        txverify.search("ring 5", heuristic=True, time_limit=1)


def test_a_search_whose_limit_runs_out_is_a_limit_error():
    # T = 8 on the 4 × 4 torus takes far longer than a tenth of a second.
    with pytest.raises(txverify.LimitError) as caught:
        txverify.search("torus 4 4", time_limit=0.1, max_time=8)
    report = caught.value.report
    assert report.exit_code == 4 and report.unknown == [8] and not report.found


def test_a_panic_is_an_internal_error_and_the_interpreter_goes_on():
    with pytest.raises(txverify.InternalError, match="panic"):
        txverify._txverify.panic_for_test()
    assert txverify.bounds("ring 4").all_port_bound == 2
