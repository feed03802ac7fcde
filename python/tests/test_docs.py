"""The ```python examples of docs/python.md run, and print what their
comments say: each ``print(...)  # TEXT`` line prints TEXT."""

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples():
    assert BLOCKS


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example{i}" for i in range(len(BLOCKS))])
def test_example_prints_what_it_says(block, tmp_path, monkeypatch):
    expected = [
        line.split("#", 1)[1].strip()
        for line in block.splitlines()
        if line.lstrip().startswith("print(") and "#" in line
    ]
    out = io.StringIO()
    monkeypatch.setenv("TMP_EXAMPLE_DIR", str(tmp_path))
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(DOC), "exec"), {"__name__": "__doc_example__"})
    printed = out.getvalue().splitlines()
    assert printed == expected
