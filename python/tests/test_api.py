"""The package's own surface: reports, schedules, `python -m txverify`."""

import json
import subprocess
import sys

import txverify


def test_a_published_table_prints_an_optimal_verdict():
    report = txverify.check_table("tables/mesh5.tbl")
    assert "OPTIMAL" in str(report)
    assert report.verdict == "optimal" and report.optimal and report.valid
    assert report["bound"]["value"] == report.bound.value == report.time == 15


def _invalid_table(tmp_path):
    """A table of tables/invalid/ without its `expect:` claims (which hold)."""
    with open("tables/invalid/wrong-word.tbl", encoding="utf-8") as f:
        kept = [line for line in f if not line.startswith("expect:")]
    path = tmp_path / "wrong.tbl"
    path.write_text("".join(kept))
    return path


def test_a_tables_violations_are_parsed_when_first_asked_for(tmp_path):
    # An invalid table can name millions of violations: the verdict must not
    # wait for them, and every way of reading the report still has them all.
    path = _invalid_table(tmp_path)
    report = txverify.check_table(path)
    assert report.verdict == "invalid" and report._violations is not None
    whole = txverify.check_table(path).to_dict()["violations"]
    assert whole
    assert [v.to_dict() for v in report.violations] == whole
    assert report._violations is None
    assert report.to_dict()["violations"] == whole
    assert txverify.check_table(path) == report
    assert len(txverify.check_table(path)["violations"]) == len(whole)


def test_an_invalid_table_is_a_report_not_an_exception(tmp_path):
    report = txverify.check_table(_invalid_table(tmp_path))
    assert report.verdict == "invalid" and not report.valid
    assert report.exit_code == 1 and report.violations


def test_the_torus_bound_is_eight():
    report = txverify.bounds("torus 4 4")
    assert report.schema == "txverify-bounds/4"
    assert report.all_port_bound == 8
    assert any(b.value == 8 and b.name == "link-load" for b in report.lower_bounds)
    assert all({"value", "name", "model"} <= set(b) for b in report.lower_bounds)


def test_a_schedule_converts_and_exports():
    found = txverify.search("ring 6")
    assert found.found and found.verdict == "optimal" and found.time == 5
    schedule = json.loads(found.to_json())
    assert schedule["schema"] == "txverify-schedule/1" and schedule["network"] == "ring 6"
    assert "sends:" in found.to_text()
    assert txverify.simulate(found.to_text()).valid
    xml = found.to_msccl_xml("ring6")
    program = txverify.check_msccl(xml, network="ring 6")
    assert program.collective == "alltoall" and program.ngpus == 6


def test_a_schedule_saves_in_either_format(tmp_path):
    found = txverify.search("ring 4")
    for name in ("s.json", "s.sched"):
        found.save(tmp_path / name)
        assert txverify.simulate(tmp_path / name).valid


def test_an_infeasible_time_is_a_report_without_a_schedule():
    found = txverify.search("ring 5", time=2)
    assert not found.found and found.verdict is None and found.exit_code == 1
    assert [i.time for i in found.infeasible] == [2]


def test_reports_compare_with_dicts():
    report = txverify.bounds("ring 4")
    assert report == report.to_dict()
    assert json.loads(report.to_json()) == report.to_dict()
    assert repr(report).startswith("<BoundsReport schema='txverify-bounds/4'")


def test_python_m_txverify_gives_the_api_report_and_status(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "txverify", "check", "tables/mesh5.tbl", "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == txverify.check_table("tables/mesh5.tbl").to_dict()
    bad = subprocess.run(
        [sys.executable, "-m", "txverify", "bounds", "blob 3"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")
    invalid = subprocess.run(
        [sys.executable, "-m", "txverify", "check", str(_invalid_table(tmp_path))],
        capture_output=True,
        text=True,
    )
    assert invalid.returncode == 1 and "INVALID" in invalid.stdout


def test_reports_copy_and_pickle():
    import copy
    import pickle

    report = txverify.bounds("ring 4")
    assert copy.deepcopy(report) == report
    assert pickle.loads(pickle.dumps(report)) == report


def test_a_table_report_is_parsed_once(tmp_path, monkeypatch):
    """The JSON report of a table (every violation named: hundreds of MB on
    a large invalid table) is parsed once, not once to tell its kind and
    again to make the report."""
    parsed = []
    loads = txverify._json.loads

    def counting_loads(text, *args, **kwargs):
        parsed.append(len(text))
        return loads(text, *args, **kwargs)

    monkeypatch.setattr(txverify._json, "loads", counting_loads)
    report = txverify.check_table(_invalid_table(tmp_path))
    assert report.verdict == "invalid" and len(parsed) == 1
    # The violations, held apart as text, are parsed once when first read.
    assert report.violations and report["violations"] and len(parsed) == 2
