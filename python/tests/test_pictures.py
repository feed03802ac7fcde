"""Pictures: a schedule's, a table check's, and `render()`, each the SVG the
binary's `txverify render` writes for the same input (the same library call)."""

import subprocess
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT, _binary

import txverify

SVG = "{http://www.w3.org/2000/svg}svg"


def _rendered(*args, cwd=ROOT):
    """What `txverify render ARGS` writes to standard output."""
    binary = _binary()
    if binary is None:
        pytest.skip("no txverify binary (cargo build, or set TXVERIFY_BIN)")
    done = subprocess.run([binary, "render", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)
    return done.stdout, done.returncode


def _is_svg(text):
    assert ET.fromstring(text).tag == SVG
    return True


@pytest.mark.parametrize(
    "path,options,flags",
    [
        ("tables/mesh5.tbl", {}, []),
        ("tables/hypercube4-a.tbl", {"by": "link"}, ["--by", "link"]),
        ("tables/mesh5.tbl", {"utilisation": True}, ["--utilisation"]),
        ("docs/img/ring6-broken.tbl", {}, []),
        ("examples/schedules/mesh2x2-total.json", {}, []),
    ],
)
def test_render_is_the_binarys(path, options, flags):
    expected, status = _rendered(path, *flags)
    assert status in (0, 1) and _is_svg(expected)
    assert txverify.render(path, **options) == expected


@pytest.mark.parametrize("path", ["tables/mesh5.tbl", "docs/img/ring6-broken.tbl"])
def test_a_check_report_draws_its_table(path):
    expected, _ = _rendered(path)
    report = txverify.check_table(path)
    assert _is_svg(report._repr_svg_())
    assert report.plot() == report._repr_svg_() == expected
    by_link, _ = _rendered(path, "--by", "link")
    assert report.plot(by="link") == by_link


def test_a_table_given_as_text_is_drawn_under_the_name_string():
    text = (ROOT / "tables/mesh5.tbl").read_text()
    report = txverify.check_table(text)
    assert _is_svg(report.plot()) and "&lt;string&gt;" in report.plot()


def test_a_schedule_draws_its_link_use(tmp_path):
    found = txverify.search("mesh 2 2")
    # plot() names the schedule `<string>`: the binary draws a file of that name.
    (tmp_path / "<string>").write_text(found.to_json())
    expected, status = _rendered("<string>", cwd=tmp_path)
    assert status == 0
    drawn = found._repr_svg_()
    assert _is_svg(drawn) and found.plot() == drawn == expected
    root = ET.fromstring(drawn)
    assert root.get("class") == "txverify-schedule"
    assert int(root.get("data-sends")) == found.transmissions


def test_a_schedule_on_a_graph_draws_too():
    nx = pytest.importorskip("networkx")
    found = txverify.search(nx.cycle_graph(["a", "b", "c", "d"]), heuristic=True)
    assert _is_svg(found.plot())


@pytest.mark.parametrize(
    "call,error",
    [
        (lambda: txverify.render("examples/schedules/mesh2x2-total.json", utilisation=True),
         txverify.InputError),
        (lambda: txverify.render("tables/mesh5.tbl", by="colour"), txverify.InputError),
        (lambda: txverify.render("tables/mesh5.tbl", max_columns=0), txverify.InputError),
        (lambda: txverify.render("no/such/file.tbl"), txverify.InputError),
        (lambda: txverify.render("name: x\ngenerators: a\n"), txverify.InputError),
        (lambda: txverify.check_table("tables/mesh5.tbl").plot(by=3), txverify.InputError),
    ],
)
def test_bad_pictures_are_errors(call, error):
    with pytest.raises(error):
        call()


def test_an_invalid_schedule_is_not_drawn():
    text = '{"schema": "txverify-schedule/1", "network": "ring 4", "sends": []}'
    with pytest.raises(txverify.Error):
        txverify.render(text)


def test_a_bounds_report_draws_its_proving_cut():
    report = txverify.bounds("ring 8")
    side = report.cut_bound.side
    svg = report.plot()
    root = ET.fromstring(svg)
    assert root.tag == SVG and report._repr_svg_() == svg
    ns = "{http://www.w3.org/2000/svg}"
    filled = [c for c in root.iter(ns + "circle") if c.get("class") == "side"]
    crossing = [e for e in root.iter(ns + "line") if e.get("class") == "crossing"]
    assert len(filled) == len(side)
    assert len(crossing) == report.cut_bound.edges


def test_a_cut_of_a_network_too_large_to_draw_is_an_input_error():
    report = txverify.bounds("ring 600")
    with pytest.raises(txverify.InputError, match="at most 512"):
        report.plot()
    assert report._repr_svg_() is None
