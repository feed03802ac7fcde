"""What scripts/sccl-compare.py and scripts/fabric-compare.py share.

Running a command under a time limit (its output, exit status and wall
time), running SCCL's `msccl solve least-steps` and reading its log, turning
the algorithm SCCL writes into a txverify schedule, and reading the verdict
`txverify simulate` prints. Kept in one place so that both tables read SCCL
and txverify the same way.

`self_test()` checks what needs neither SCCL nor txverify; each script's
`--self-test` runs it (CI does), as does `python3 scripts/compare_common.py`.
"""

import json
import os
import re
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One line of SCCL's log per number of steps tried: "steps=S ... synthesized! (Ts)"
# or "... unsatisfiable. (Ts)".
SCCL_TRIED = re.compile(r"steps=(\d+)[^.]*\.\.\. (synthesized!|unsatisfiable\.) \(([\d.]+)s\)")
SCCL_BOUND = re.compile(r"need at least (\d+) steps")


def run(cmd, timeout, cwd=ROOT):
    """(output, exit status or None on time-out, wall seconds); stderr is
    merged into the output, and on a time-out the command's whole process
    group is killed."""
    start = time.monotonic()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
        return out, proc.returncode, time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, _ = proc.communicate()
        return out, None, time.monotonic() - start


def secs(x, places=2):
    """Seconds for a table cell: `places` decimals below 10 s, two fewer above."""
    if x is None:
        return "—"
    return f"{x:.{places}f}" if x < 10 else f"{x:.{max(places - 2, 0)}f}"


def read_sccl_log(out, status, algo):
    """What a `msccl solve least-steps` run answered, from its log `out`, its
    exit status (None: timed out) and the algorithm file it was to write."""
    tried = SCCL_TRIED.findall(out)
    bound = SCCL_BOUND.search(out)
    res = {
        "timed_out": status is None,
        "status": status,
        "bound": int(bound.group(1)) if bound else None,
        "refuted": [int(s) for s, r, _ in tried if r.startswith("unsat")],
        "solver_seconds": sum(float(t) for _, _, t in tried),
        "steps": None,
        "algorithm": None,
    }
    found = [int(s) for s, r, _ in tried if r.startswith("synth")]
    if found and status == 0 and algo.exists():
        res["steps"] = found[-1]
        res["algorithm"] = json.loads(algo.read_text())
    return res


def solve_least_steps(msccl, topology, collective, chunks, timeout, outdir):
    """Runs `MSCCL solve least-steps TOPOLOGY COLLECTIVE -c CHUNKS` in `outdir`
    (`msccl` is the command as a list, `topology` and `collective` its words),
    keeps its log as sccl.log and returns `read_sccl_log`'s answer with its
    wall time."""
    algo = outdir / "sccl-algorithm.json"
    cmd = [*msccl, "solve", "least-steps", *topology, *collective,
           "-c", str(chunks), "-o", str(algo), "-f"]
    out, status, wall = run(cmd, timeout, outdir)
    (outdir / "sccl.log").write_text(out)
    return {"wall": wall, **read_sccl_log(out, status, algo)}


def sccl_to_schedule(algorithm, network, collective, chunks):
    """SCCL's algorithm as a txverify schedule (text format, docs/schedule.md):
    the send (addr, src, dst) of SCCL's step i is `i+1 src dst block * chunk`,
    the block being the GPU whose input holds addr (the root's, for a rooted
    collective) and the chunk addr's place among that GPU's addresses. A step
    of several rounds is refused (ValueError): SCCL scales its bandwidth by
    them, which a txverify step does not; run SCCL with rounds = steps."""
    where = {}
    for gpu, addrs in algorithm["input_map"].items():
        for index, addr in enumerate(sorted(int(a) for a in addrs)):
            where[addr] = (int(gpu), index)
    lines = [
        "# SCCL's algorithm " + algorithm["name"],
        f"network: {network}",
        "ports: all",
        f"collective: {collective}",
        f"chunks: {chunks}",
        "sends:",
    ]
    for i, step in enumerate(algorithm["steps"]):
        if step.get("rounds", 1) != 1:
            raise ValueError(f"a step of {step['rounds']} rounds: run SCCL with rounds = steps")
        for addr, src, dst in step["sends"]:
            block, index = where[int(addr)]
            lines.append(f"{i + 1} {src} {dst} {block} * {index}")
    return "\n".join(lines) + "\n"


def simulate_verdict(out):
    """The verdict `txverify simulate` printed, as a table cell: "VALID, time
    T", else the verdict line's words; None when it printed none."""
    verdict = re.search(r"verdict\s+(\S+)(.*)", out)
    t = re.search(r"time (\d+)", out)
    if verdict and verdict.group(1) == "VALID" and t:
        return f"VALID, time {t.group(1)}"
    if verdict:
        return f"{verdict.group(1)}{verdict.group(2)}"
    return None


def self_test():
    # Allgather: GPU 1 holds addresses 2, 3 (listed out of order), chunk 0 and 1.
    algorithm = {
        "name": "t",
        "input_map": {"0": [0, 1], "1": [3, 2]},
        "steps": [
            {"rounds": 1, "sends": [[0, 0, 1], [1, 0, 1], [3, 1, 0]]},
            {"rounds": 1, "sends": [[2, 1, 0]]},
        ],
    }
    text = sccl_to_schedule(algorithm, "dgx1", "allgather", 2)
    sends = text.split("sends:\n", 1)[1].splitlines()
    assert sends == ["1 0 1 0 * 0", "1 0 1 0 * 1", "1 1 0 1 * 1", "2 1 0 1 * 0"], sends
    assert "chunks: 2" in text and "network: dgx1" in text, text
    assert "collective: allgather" in text, text
    try:
        sccl_to_schedule({**algorithm, "steps": [{"rounds": 2, "sends": []}]}, "dgx1",
                         "allgather", 2)
        raise AssertionError("a step of 2 rounds was taken")
    except ValueError:
        pass
    # Broadcast from 0: the root's addresses are its chunks.
    bcast = {"name": "b", "input_map": {"0": [0, 1]}, "steps": [{"sends": [[1, 0, 2]]}]}
    text = sccl_to_schedule(bcast, "ring 4", "broadcast 0", 2)
    assert text.endswith("sends:\n1 0 2 0 * 1\n") and "collective: broadcast 0" in text, text

    log = ("steps=2 ... unsatisfiable. (0.5s)\nsteps=3 ... synthesized! (1.25s)\n"
           "need at least 2 steps\n")
    missing = ROOT / "target" / "no-such-algorithm.json"
    res = read_sccl_log(log, 0, missing)
    assert (res["refuted"], res["bound"], res["solver_seconds"]) == ([2], 2, 1.75), res
    assert res["steps"] is None and not res["timed_out"], res  # no algorithm file written
    assert read_sccl_log("", None, missing)["timed_out"]

    assert simulate_verdict("verdict   VALID\ntime 4\n") == "VALID, time 4"
    assert simulate_verdict("verdict   INVALID (3 violations)\n") == "INVALID (3 violations)"
    assert simulate_verdict("error: no such file\n") is None
    assert (secs(None), secs(3.14159), secs(31.4159), secs(3.14159, 3), secs(31.4159, 3)) == (
        "—", "3.14", "31", "3.142", "31.4")


if __name__ == "__main__":
    self_test()
    print("self-test: ok")
