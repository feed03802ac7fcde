#!/usr/bin/env python3
"""Side by side on fabrics: SCCL, ForestColl and txverify on the same machines.

Run it with a Python that has msccl-tools (the `msccl` package, SCCL) and
networkx, and give it ForestColl's directory (--forestcoll DIR, the folder of
its `pipeline_allgather.py`). It prints a markdown table per part:

1. SCCL (`msccl solve least-steps`, allgather) on its own `DGX1` for 1, 2 and
   3 chunks, on `HubAndSpoke` (8) and on two DGX-1s joined as msccl-tools'
   `distributed_hub_and_spoke(DGX1, 2, 1)`: its least steps and its time.
   Each algorithm is turned into a txverify schedule (SCCL's send
   (addr, src, dst) of step i is `i+1 src dst block * chunk`, the block and
   chunk of addr read from the algorithm's input map) and replayed by
   `txverify simulate` on txverify's own fabric of the same name (`dgx1`,
   `hub-and-spoke 8`, `cluster 2 1 dgx1`) and on the topology SCCL wrote with
   its algorithm; the schedule is then exported as an MSCCL program and
   checked with `check PROGRAM.xml --network FABRIC` (VALID as allgather, and
   whether its steps fit every capacity and switch limit).
2. ForestColl's throughput optimum (`OptimalBranchingsAlgo(...,
   capacitated=True).binary_search()`: U/k, the time of an allgather of one
   unit per GPU when a link carries its capacity a unit of time) on the
   doubled DGX-1, an 8-GPU switch (`nvswitch 8`) and two such switches joined
   by a link of capacity 2, each built from the msccl-tools JSON or edge list
   txverify reads, so both sides see one graph. Beside it, C·opt rounded up
   for C = 1 … 8: the steps no allgather in C chunks beats.
3. txverify's answers on the same fabrics: `search --network FABRIC
   --collective allgather --chunks C` (its time and the lower bound it
   states) and `bounds`. Where txverify refuses a fabric (a build without
   bounds and search on fabrics), the cell says "refused" and the script
   goes on; it needs no change once they answer.

Not used by the tests (it needs SCCL and ForestColl); `--self-test` checks
the conversion of an SCCL algorithm into a schedule without them.

Usage: scripts/fabric-compare.py --forestcoll DIR [--timeout S] [--only WORD]...
       [--workdir DIR] [--txverify BIN] [--skip-sccl] [--skip-forestcoll]
       [--skip-txverify] [--max-chunks C] [--self-test]
"""

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path

import compare_common
from compare_common import ROOT, run, secs, sccl_to_schedule, simulate_verdict, solve_least_steps


def self_test():
    compare_common.self_test()
    topo = fabric_links({"links": [[0, 2, 0], [1, 0, 1], [0, 1, 0]], "forward_only": [2]})
    assert topo == ([(1, 0, 2), (0, 1, 1), (2, 1, 1), (1, 2, 1)], [2]), topo
    print("self-test: ok")


# ---------------------------------------------------------------- SCCL


class ScclCase:
    def __init__(self, label, sccl_args, fabric, chunks, topology_code=None):
        self.label = label
        self.sccl_args = sccl_args  # topology arguments of `msccl solve`
        self.fabric = fabric  # txverify's --network for the same machine
        self.chunks = chunks
        self.topology_code = topology_code  # Python writing a topology file, if custom


DISTRIBUTED_DGX1 = """
import json, sys
from msccl.topologies import dgx1, distributed_hub_and_spoke
t = distributed_hub_and_spoke(dgx1(), 2, 1)
json.dump({"msccl_type": "topology", "name": t.name, "links": t.links,
           "switches": [[list(s), list(d), b, n] for s, d, b, n in t.switches]}, open(sys.argv[1], "w"))
"""

SCCL_CASES = [
    ScclCase("DGX1, C = 1", ["DGX1"], "dgx1", 1),
    ScclCase("DGX1, C = 2", ["DGX1"], "dgx1", 2),
    ScclCase("DGX1, C = 3", ["DGX1"], "dgx1", 3),
    ScclCase("HubAndSpoke(8), C = 1", ["HubAndSpoke", "-n", "8"], "hub-and-spoke 8", 1),
    ScclCase("2 × DGX1 (distributed_hub_and_spoke, remote 1), C = 1", None, "cluster 2 1 dgx1", 1,
             DISTRIBUTED_DGX1),
]


def run_sccl(args, case, outdir):
    outdir.mkdir(parents=True, exist_ok=True)
    topology = case.sccl_args
    if case.topology_code:
        path = outdir / "topology.json"
        out, status, _ = run([sys.executable, "-c", case.topology_code, str(path)], 120)
        if status != 0:
            return {"error": "topology: " + out.strip().splitlines()[-1]}
        topology = ["custom", "--topology-file", str(path)]
    msccl = [sys.executable, "-m", "msccl"]
    return solve_least_steps(msccl, topology, ["Allgather"], case.chunks, args.timeout, outdir)


def simulate(args, sched):
    out, status, _ = run([args.txverify, "simulate", str(sched)], 600)
    return simulate_verdict(out) or \
        "not replayed: " + (out.strip().splitlines() or [f"exit {status}"])[-1]


def replay_sccl(args, case, sccl, outdir):
    """txverify's verdicts on SCCL's algorithm: on its own fabric, on SCCL's
    topology, and as an MSCCL program on its own fabric."""
    cells = {}
    algorithm = sccl["algorithm"]
    sched = outdir / "sccl.sched"
    sched.write_text(sccl_to_schedule(algorithm, case.fabric, "allgather", case.chunks))
    cells["fabric"] = simulate(args, sched)
    topology = outdir / "sccl-topology.json"
    topology.write_text(json.dumps(algorithm["topology"]))
    on_topology = outdir / "sccl-on-topology.sched"
    on_topology.write_text(sccl_to_schedule(algorithm, f"edges {topology}", "allgather", case.chunks))
    cells["topology"] = simulate(args, on_topology)
    xml = outdir / "sccl.xml"
    out, status, _ = run([args.txverify, "export", str(sched), "--format", "msccl", "-o", str(xml)],
                         600)
    if status != 0:
        cells["msccl"] = "not exported: " + (out.strip().splitlines() or [f"exit {status}"])[-1]
        return cells
    out, status, _ = run([args.txverify, "check", str(xml), "--network", case.fabric,
                          "--format", "json"], 600)
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        cells["msccl"] = f"check failed (exit {status})"
        return cells
    verdict = "VALID" if report.get("valid") else "INVALID"
    fabric = (report.get("network") or {}).get("fabric") or {}
    fits = fabric.get("fits")
    steps = fabric.get("steps")
    fit = {True: f"fits in {steps} steps", False: f"{fabric.get('violation_count')} violations",
           None: "no step model"}[fits]
    cells["msccl"] = f"{verdict} {report.get('collective')}, {fit}"
    return cells


def sccl_part(args):
    print("## SCCL's least-steps allgathers, replayed by txverify\n")
    print("| machine | SCCL steps (unsat below) | SCCL s | schedule on txverify's fabric "
          "| on SCCL's topology | as MSCCL, `check --network` |")
    print("| --- | --- | --- | --- | --- | --- |")
    answers = {}
    for i, case in enumerate(SCCL_CASES):
        if args.only and not any(w in case.label for w in args.only):
            continue
        outdir = args.workdir / f"sccl-{i}"
        s = run_sccl(args, case, outdir)
        if "error" in s:
            print(f"| {case.label} | {s['error']} | — | — | — | — |")
            continue
        if s["steps"] is None:
            what = f"no answer in {args.timeout:.0f} s" if s["timed_out"] else \
                f"failed (exit {s['status']})"
            unsat = f"; {', '.join(map(str, s['refuted']))} unsat" if s["refuted"] else ""
            print(f"| {case.label} | {what}{unsat} | {secs(s['wall'])} | — | — | — |")
            continue
        answers[case.label] = s["steps"]
        cells = replay_sccl(args, case, s, outdir)
        unsat = f" ({', '.join(map(str, s['refuted']))} unsat)" if s["refuted"] else ""
        print(f"| {case.label} | {s['steps']}{unsat} | {secs(s['wall'])} | `{case.fabric}`: "
              f"{cells['fabric']} | {cells['topology']} | {cells.get('msccl', '—')} |")
    print()
    return answers


# ---------------------------------------------------------------- ForestColl


def fabric_links(topology):
    """(from, to, capacity) of every directed link of an msccl-tools JSON
    topology (`links[dst][src]`), and its forward-only nodes."""
    links = []
    for dst, row in enumerate(topology["links"]):
        for src, bw in enumerate(row):
            if bw:
                links.append((src, dst, int(bw)))
    return links, list(topology.get("forward_only", []))


def two_switches_edges(path):
    """Two 8-GPU switches (nodes 16 and 17) joined by a link of capacity 2."""
    lines = ["# two machines: GPUs 0-7 on switch 16, 8-15 on switch 17", "switch: 16 17"]
    lines += [f"{g} {16 + g // 8}" for g in range(16)]
    lines.append("16 17 2")
    path.write_text("\n".join(lines) + "\n")
    return path


def read_edges(path):
    links, switches = [], []
    for line in path.read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "switch:":
            switches += [int(w) for w in words[1:]]
            continue
        u, v = int(words[0]), int(words[1])
        c = int(words[2]) if len(words) > 2 and "=" not in words[2] else 1
        links += [(u, v, c), (v, u, c)]
    return links, switches


def fabric_graph(args, fabric):
    """(links, forward-only nodes) of a txverify fabric, as txverify reads it."""
    if fabric.startswith("edges "):
        return read_edges(Path(fabric[len("edges "):]))
    out, status, _ = run([args.txverify, "net", *fabric.split()], 60)
    if status != 0:
        raise RuntimeError(f"txverify net {fabric}: {out.strip()}")
    return fabric_links(json.loads(out))


def forestcoll_opt(args, links, switches):
    sys.path.insert(0, str(args.forestcoll))
    import networkx as nx
    from pipeline_allgather import OptimalBranchingsAlgo

    g = nx.DiGraph()
    for u, v, c in links:
        g.add_edge(u, v, capacity=c)
    gpus = sorted(x for x in g.nodes if x not in set(switches))
    start = time.monotonic()
    algo = OptimalBranchingsAlgo(g, capacitated=True, compute_nodes=gpus)
    u, k = algo.binary_search()
    return u / k, (u, k), time.monotonic() - start


def forestcoll_fabrics(args):
    return [
        ("DGX-1, doubled pairs (`dgx1`)", "dgx1"),
        ("8 GPUs on a switch (`nvswitch 8`)", "nvswitch 8"),
        ("2 × 8 GPUs on switches joined at capacity 2", f"edges {two_switches_edges(args.workdir / 'two-switches.edges')}"),
    ]


def forestcoll_part(args):
    print("## ForestColl's throughput optimum on the same fabrics\n")
    cs = list(range(1, args.max_chunks + 1))
    print("| fabric | ForestColl opt = U/k | s | " + " | ".join(f"⌈{c}·opt⌉" for c in cs) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in cs) + " |")
    opts = {}
    for label, fabric in forestcoll_fabrics(args):
        if args.only and not any(w in label or w in fabric for w in args.only):
            continue
        links, switches = fabric_graph(args, fabric)
        opt, (u, k), wall = forestcoll_opt(args, links, switches)
        opts[fabric] = opt
        steps = [math.ceil(c * opt - 1e-9) for c in cs]
        print(f"| {label} | {opt:.4g} (U = {u:g}, k = {k}) | {secs(wall)} | "
              + " | ".join(map(str, steps)) + " |")
    print()
    return opts


# ---------------------------------------------------------------- txverify


REFUSALS = {}


def refusal(out):
    """"refused [n]", the reason (txverify's error line) kept for a note below the table."""
    lines = [line for line in out.strip().splitlines() if line.startswith("error")]
    reason = lines[0][len("error: "):] if lines else "exit 2"
    number = REFUSALS.setdefault(reason, len(REFUSALS) + 1)
    return f"refused [{number}]"


def txverify_search(args, fabric, chunks):
    # Anytime: the best schedule by 80 % of the time allowed, with its bound.
    cmd = [args.txverify, "search", "--network", fabric, "--collective", "allgather",
           "--chunks", str(chunks), "--quiet", "--deadline", f"{0.8 * args.timeout:.0f}"]
    out, status, wall = run(cmd, args.timeout)
    if status is None:
        return f"no answer in {args.timeout:.0f} s", None
    if status == 2:
        return refusal(out), None
    found = re.search(r"found\s+time (\d+)", out)
    bound = re.search(r"lower bound (\d+)", out)
    if not found:
        return f"no schedule (exit {status})", bound and int(bound.group(1))
    b = f", bound {bound.group(1)}" if bound else ""
    return f"{found.group(1)}{b} ({secs(wall)} s)", bound and int(bound.group(1))


def txverify_bounds(args, fabric, chunks):
    cmd = [args.txverify, "bounds", "--network", fabric, "--collective", "allgather",
           "--chunks", str(chunks)]
    out, status, _ = run(cmd, args.timeout)
    if status is None:
        return f"no answer in {args.timeout:.0f} s"
    if status != 0:
        return refusal(out)
    bound = re.search(r"allgather in \d+ chunk\(s\): at least (\d+) steps", out)
    throughput = re.search(r"throughput: .*?, S = (\{[^}]*\})", out)
    if not bound:
        return "answered (no bound read)"
    return bound.group(1) + (f", S = {throughput.group(1)}" if throughput else "")


def txverify_part(args, opts):
    print("## txverify on the same fabrics (allgather)\n")
    print("| fabric | C | ⌈C·opt⌉ (ForestColl) | `search`: time, bound | `bounds` |")
    print("| --- | --- | --- | --- | --- |")
    fabrics = [(f, f) for f in ("dgx1", "hub-and-spoke 8", "cluster 2 1 dgx1")]
    fabrics += [(label, fabric) for label, fabric in forestcoll_fabrics(args)
                if fabric not in ("dgx1",)]
    for label, fabric in fabrics:
        if args.only and not any(w in label or w in fabric for w in args.only):
            continue
        for c in range(1, args.max_chunks + 1):
            opt = opts.get(fabric)
            target = str(math.ceil(c * opt - 1e-9)) if opt is not None else "—"
            found, _ = txverify_search(args, fabric, c)
            print(f"| {label} | {c} | {target} | {found} | {txverify_bounds(args, fabric, c)} |")
    print()
    for reason, number in REFUSALS.items():
        print(f"[{number}] {reason}  ")
    print()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--forestcoll", type=Path, help="ForestColl's directory (pipeline_allgather.py)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    p.add_argument("--max-chunks", type=int, default=8, help="C up to this (default 8)")
    p.add_argument("--only", action="append", default=[],
                   help="only the machines whose name contains this word (repeatable)")
    p.add_argument("--workdir", type=Path, default=ROOT / "target" / "fabric-compare")
    p.add_argument("--txverify", default=str(ROOT / "target" / "release" / "txverify"))
    p.add_argument("--skip-sccl", action="store_true")
    p.add_argument("--skip-forestcoll", action="store_true")
    p.add_argument("--skip-txverify", action="store_true")
    p.add_argument("--self-test", action="store_true",
                   help="check the SCCL-to-schedule conversion and stop")
    args = p.parse_args()
    if args.self_test:
        self_test()
        return
    args.workdir = args.workdir.resolve()
    args.workdir.mkdir(parents=True, exist_ok=True)
    if not args.skip_sccl:
        answers = sccl_part(args)
        print("SCCL's least steps: " + json.dumps(answers) + "\n")
    opts = {}
    if not args.skip_forestcoll:
        if args.forestcoll is None:
            p.error("--forestcoll DIR is needed (or --skip-forestcoll)")
        opts = forestcoll_part(args)
    if not args.skip_txverify:
        txverify_part(args, opts)


if __name__ == "__main__":
    main()
