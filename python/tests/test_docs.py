"""The ```python examples of docs/python.md run, and print what their
comments say: each ``print(...)  # TEXT`` line prints TEXT, and nothing else
is printed.

The examples run alone, except those of the section ``## Walk-through``,
which run one after the other in one namespace, as the cells of a notebook
do; each of those must assert something (print a line it names)."""

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"
TEXT = DOC.read_text(encoding="utf-8")
SESSION_HEADING = "\n## Walk-through"


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


# The walk-through runs from its heading to the next section of its level.
_before, _found, _rest = TEXT.partition(SESSION_HEADING)
_session, _next, _after = _rest.partition("\n## ")
SESSION = python_blocks(_session)
BLOCKS = python_blocks(_before) + python_blocks(_next + _after)


def expected_lines(block):
    return [
        line.split("#", 1)[1].strip()
        for line in block.splitlines()
        if line.lstrip().startswith("print(") and "#" in line
    ]


def run(block, namespace):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(DOC), "exec"), namespace)
    return out.getvalue().splitlines()


def test_the_page_has_examples_and_a_walk_through():
    assert BLOCKS
    assert _found, f"docs/python.md has no {SESSION_HEADING.strip()!r} section"
    assert len(SESSION) >= 5, "the walk-through has its steps, each a block"


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example{i}" for i in range(len(BLOCKS))])
def test_example_prints_what_it_says(block, tmp_path, monkeypatch):
    monkeypatch.setenv("TMP_EXAMPLE_DIR", str(tmp_path))
    assert run(block, {"__name__": "__doc_example__"}) == expected_lines(block)


def test_the_walk_through_runs_as_one_session_and_prints_what_it_says():
    namespace = {"__name__": "__doc_example__"}
    for i, block in enumerate(SESSION):
        expected = expected_lines(block)
        assert expected, f"walk-through block {i} asserts nothing:\n{block}"
        printed = run(block, namespace)
        assert printed == expected, f"walk-through block {i}:\n{block}"
