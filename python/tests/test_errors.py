"""Errors are exceptions of the package, placed as the command line places them."""

import json

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


# Every failure is a txverify.Error: hostile arguments to every public call.

HUGE = 2**64
NOT_UTF8 = b"name: x\n\xff\xfe\n"
LONE = "ring \ud800"


def _schedule():
    return txverify.search("ring 4", heuristic=True)


def _hostile_calls(tmp_path):
    """(label, call) for every public function and method, each argument
    given a value it must refuse."""
    directory = str(tmp_path)
    missing = str(tmp_path / "no-such-dir" / "s.json")
    table = "tables/mesh5.tbl"
    program = "tests/golden/torus3x4.msccl.xml"
    schedule_file = "examples/schedules/ring4-total.sched"
    calls = []
    for bad in (-1, HUGE, 2**200, 1.5, True, "7"):
        calls += [
            (f"check_table max_order={bad!r}", lambda b=bad: txverify.check_table(table, max_order=b)),
            (
                f"check_table max_simulation_steps={bad!r}",
                lambda b=bad: txverify.check_table(table, max_simulation_steps=b),
            ),
            (f"bounds ports={bad!r}", lambda b=bad: txverify.bounds("ring 4", ports=b)),
            (f"search slack={bad!r}", lambda b=bad: txverify.search("ring 4", slack=b)),
            (f"search time={bad!r}", lambda b=bad: txverify.search("ring 4", time=b)),
            (f"search max_time={bad!r}", lambda b=bad: txverify.search("ring 4", max_time=b)),
            (f"search max_variables={bad!r}", lambda b=bad: txverify.search("ring 4", max_variables=b)),
        ]
    for bad in (-1, HUGE, 1.5, True, "\ud800", "some"):
        calls.append((f"simulate ports={bad!r}", lambda b=bad: txverify.simulate(schedule_file, ports=b)))
    for bad in (-1, float("nan"), float("inf"), 10**400, "1", True):
        calls += [
            (f"search time_limit={bad!r}", lambda b=bad: txverify.search("ring 4", time_limit=b)),
            (f"search deadline={bad!r}", lambda b=bad: txverify.search("ring 4", deadline=b)),
        ]
    for bad in (2, "yes", None.__class__):
        calls += [
            (f"check_table simulate={bad!r}", lambda b=bad: txverify.check_table(table, simulate=b)),
            (f"search heuristic={bad!r}", lambda b=bad: txverify.search("ring 4", heuristic=b)),
            (f"search any_length={bad!r}", lambda b=bad: txverify.search("ring 4", any_length=b)),
            (f"search ascending={bad!r}", lambda b=bad: txverify.search("ring 4", ascending=b)),
            (f"simulate all={bad!r}", lambda b=bad: txverify.simulate(schedule_file, all=b)),
        ]
    for bad in (LONE, 3, b"ring 4"):
        calls += [
            (f"bounds network={bad!r}", lambda b=bad: txverify.bounds(b)),
            (f"search network={bad!r}", lambda b=bad: txverify.search(b)),
            (f"search solver={bad!r}", lambda b=bad: txverify.search("ring 4", solver=b)),
            (f"check_msccl network={bad!r}", lambda b=bad: txverify.check_msccl(program, network=b)),
            (f"simulate network={bad!r}", lambda b=bad: txverify.simulate(schedule_file, network=b)),
            (f"Schedule.simulate network={bad!r}", lambda b=bad: _schedule().simulate(network=b)),
            (f"Schedule.to_msccl_xml name={bad!r}", lambda b=bad: _schedule().to_msccl_xml(b)),
        ]
    # Sources: bytes that are not UTF-8, a lone surrogate in text or in a
    # path, a directory, an object that is neither.
    for bad in (NOT_UTF8, "name: x\n\ud800\n", "x\ud800.tbl", directory, 3):
        calls += [
            (f"check_table {bad!r}", lambda b=bad: txverify.check_table(b)),
            (f"check_msccl {bad!r}", lambda b=bad: txverify.check_msccl(b)),
            (f"simulate {bad!r}", lambda b=bad: txverify.simulate(b)),
        ]
    for bad in (directory, missing, "s\ud800.json", 3):
        calls += [
            (f"Schedule.save {bad!r}", lambda b=bad: _schedule().save(b)),
        ]
    for bad in ("c\ud800", 3):
        calls.append((f"search certificate={bad!r}", lambda b=bad: txverify.search("ring 4", certificate=b, time=1)))
    # Pictures and networks as objects.
    for bad in (-1, 0, HUGE, 1.5, True, "7"):
        calls += [
            (f"render max_columns={bad!r}", lambda b=bad: txverify.render(table, max_columns=b)),
            (f"render max_order={bad!r}", lambda b=bad: txverify.render(table, max_order=b if b != 0 else -2)),
            (f"Schedule.plot max_columns={bad!r}", lambda b=bad: _schedule().plot(max_columns=b)),
            (f"CheckReport.plot max_columns={bad!r}", lambda b=bad: txverify.check_table(table).plot(max_columns=b)),
        ]
    for bad in ("colour", 3, LONE, None.__class__):
        calls += [
            (f"render by={bad!r}", lambda b=bad: txverify.render(table, by=b)),
            (f"render utilisation={bad!r}", lambda b=bad: txverify.render(table, utilisation=b if b != 3 else 2)),
        ]
    for bad in (NOT_UTF8, "name: x\n\ud800\n", directory, 3):
        calls.append((f"render {bad!r}", lambda b=bad: txverify.render(b)))
    for bad in (3, [3], [(1,)], [([1], 2)], [(0, 0)], [], [(0, 1), (2, 3)], {"a": 1}):
        calls += [
            (f"Network.from_edges {bad!r}", lambda b=bad: txverify.bounds(txverify.Network.from_edges(b))),
            (f"bounds network={bad!r}", lambda b=bad: txverify.bounds(b)),
        ]
    for bad in (3, "ring 4", [(0, 1)]):
        calls.append((f"Network.from_networkx {bad!r}", lambda b=bad: txverify.Network.from_networkx(b)))
    for bad in (directory, missing, 3):
        calls.append((f"Network.save {bad!r}", lambda b=bad: txverify.Network.from_edges([(0, 1)]).save(b)))
    for bad in (directory, missing, 3):
        calls.append((f"LpCertificate.save {bad!r}", lambda b=bad: txverify.bounds("ring 4", lp=True).certificate.save(b)))
    calls.append(("Schedule.sends labels=True by name", lambda: _schedule().sends(labels=True)))
    return calls


def test_every_public_call_refuses_hostile_arguments_with_a_txverify_error(tmp_path):
    failures = []
    for label, call in _hostile_calls(tmp_path):
        try:
            call()
        except txverify.Error:
            continue
        except BaseException as e:  # noqa: B902 - a PanicException is a BaseException
            failures.append(f"{label}: {type(e).__module__}.{type(e).__name__}: {e}")
        else:
            failures.append(f"{label}: accepted")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    "call",
    [
        lambda: txverify.bounds("ring 4", ports=-1),
        lambda: txverify.bounds("ring 4", ports=2**64),
        lambda: txverify.search("ring 4", slack=-1),
        lambda: txverify.check_table("tables/mesh5.tbl", max_order=2**64),
    ],
    ids=["negative", "2**64", "negative slack", "2**64 max_order"],
)
def test_an_int_out_of_range_is_an_input_error_naming_the_argument(call):
    with pytest.raises(txverify.InputError, match=r"argument `\w+` is .*whole number from 0 to"):
        call()


def test_bytes_that_are_not_utf8_are_an_input_error_at_the_bad_byte():
    with pytest.raises(txverify.InputError, match="UTF-8") as caught:
        txverify.check_table(NOT_UTF8)
    assert (caught.value.file, caught.value.line, caught.value.column) == ("<string>", 2, 1)


def test_utf8_bytes_are_text():
    assert txverify.check_table(open("tables/mesh5.tbl", "rb").read()).valid


def test_a_lone_surrogate_is_an_input_error():
    with pytest.raises(txverify.InputError, match="surrogate"):
        txverify.bounds(LONE)
    with pytest.raises(txverify.InputError, match="surrogate"):
        txverify.check_table("name: x\n\ud800\n")


def test_a_search_limit_too_long_for_a_duration_is_the_longest_one_not_a_panic():
    # The command line's reader (docs/limits.md): above 10^9 s, no limit.
    found = txverify.search("ring 4", deadline=1e20)
    assert found.found
    assert json.loads(found.report_json())["deadline"] == 1_000_000_000.0
    assert txverify.search("ring 4", time_limit=1e20).found
    for bad in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(txverify.InputError, match="seconds"):
            txverify.search("ring 4", deadline=bad)


def test_saving_to_a_directory_or_a_missing_one_is_an_input_error(tmp_path):
    found = _schedule()
    for path in (tmp_path, tmp_path / "no-such-dir" / "s.json"):
        with pytest.raises(txverify.InputError, match="cannot (write|rename)") as caught:
            found.save(path)
        assert caught.value.file == str(path)
    # Nothing half-written is left beside the target.
    assert [p.name for p in tmp_path.iterdir()] == []


def test_a_panic_while_the_arguments_are_read_is_an_internal_error():
    with pytest.raises(txverify.InternalError, match="panic"):
        txverify._txverify.panic_for_test(on_caller_thread=True)
    assert txverify.bounds("ring 4").all_port_bound == 2
