"""Shared fixtures: the repository (tests run from its root, so that reports
name files as the command line does) and the txverify binary to compare with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _binary():
    given = os.environ.get("TXVERIFY_BIN")
    if given:
        # CI names the binary: missing, it is a failure, not a skip.
        assert os.access(given, os.X_OK), f"TXVERIFY_BIN={given} is not an executable"
        return given
    for profile in ("release", "debug"):
        candidate = ROOT / "target" / profile / "txverify"
        if os.access(candidate, os.X_OK):
            return str(candidate)
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs the binary with --format json; returns (parsed lines, exit status)."""
    binary = _binary()
    if binary is None:
        pytest.skip("no txverify binary (cargo build, or set TXVERIFY_BIN)")

    def run(*args):
        done = subprocess.run(
            [binary, *args, "--format", "json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        return lines, done.returncode

    return run
