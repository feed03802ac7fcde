#!/usr/bin/env python3
"""Side by side with SCCL: allgather and broadcast on the same networks, same run.

For each instance it runs SCCL (the `msccl` command of msccl-tools, `solve
least-steps`, which tries steps = its distance bound, +1, ... until one is
satisfiable) and txverify (`search --collective ... --certificate DIR`, then
`verify-proof` on the certificates), each under a time limit, and prints a
markdown table: both answers, both times, their ratio. Where SCCL answers, its
algorithm is turned into a txverify schedule (each SCCL send (addr, src, dst)
at step i is `i+1 src dst block * chunk`) and replayed by `txverify simulate`,
so a disagreement names the wrong side.

The models (docs/collectives.md, "Side by side with SCCL"): SCCL's instance
with rounds = steps (no -r) lets a directed link carry `bandwidth` chunks a
step; with bandwidth 1 that is txverify's all-port model (one packet per
directed link a step, any number of links per node). `-c C` cuts each of
SCCL's chunks in C, as txverify's `--chunks C` does. Topologies SCCL has no
name for (hypercube, torus, DGX-1 with single links) are handed to it as
`custom --topology-file` with capacity 1 on every link of txverify's graph,
numbered as txverify numbers it.

Needs: SCCL installed (`msccl` on PATH or --msccl), the release binary
(`cargo build --release`). Not used by the tests; `--self-test` checks the
conversion of an SCCL algorithm and the topologies handed to SCCL without
either.

Usage: scripts/sccl-compare.py [--timeout S] [--long-timeout S] [--only WORD]...
       [--workdir DIR] [--txverify BIN] [--msccl BIN] [--list] [--self-test]
"""

import argparse
import json
import os
import re
import shutil
import sys
from pathlib import Path

import compare_common
from compare_common import ROOT, run, secs, sccl_to_schedule, simulate_verdict, solve_least_steps

DGX1_EDGES = "examples/networks/dgx1.edges"


# ---------------------------------------------------------------- networks


def ring_links(n):
    return [(i, (i + 1) % n) for i in range(n)]


def torus_links(sides):
    """Mixed radix, first side fastest, as txverify's `torus` numbers nodes."""
    n = 1
    for s in sides:
        n *= s
    links = set()
    stride = 1
    for s in sides:
        for x in range(n):
            digit = (x // stride) % s
            y = x - digit * stride + ((digit + 1) % s) * stride
            if x != y:
                links.add((min(x, y), max(x, y)))
        stride *= s
    return n, sorted(links)


def hypercube_links(d):
    return torus_links([2] * d)


def edge_file_links(path):
    links = []
    for line in (ROOT / path).read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            links.append((int(words[0]), int(words[1])))
    n = 1 + max(max(u, v) for u, v in links)
    return n, links


def sccl_topology_file(name, n, links, workdir):
    """SCCL's serialized topology: links[dst][src] = bandwidth (here 1)."""
    matrix = [[0] * n for _ in range(n)]
    for u, v in links:
        matrix[u][v] = 1
        matrix[v][u] = 1
    path = workdir / f"topology-{name.replace(' ', '-')}.json"
    obj = {"msccl_type": "topology", "name": name, "switches": [], "links": matrix}
    path.write_text(json.dumps(obj))
    return path


class Network:
    def __init__(self, label, txverify, sccl_args, nodes):
        self.label = label  # in the table
        self.txverify = txverify  # --network for txverify, or None
        self.sccl_args = sccl_args  # topology arguments for msccl
        self.nodes = nodes


def networks(workdir):
    out = {}
    for n in (4, 8):
        out[f"ring {n}"] = Network(f"ring {n}", f"ring {n}", ["Ring", "-n", str(n)], n)
    for d in (3, 4):
        n, links = hypercube_links(d)
        f = sccl_topology_file(f"hypercube {d}", n, links, workdir)
        out[f"hypercube {d}"] = Network(
            f"hypercube {d}", f"hypercube {d}", ["custom", "--topology-file", str(f)], n
        )
    n, links = edge_file_links(DGX1_EDGES)
    f = sccl_topology_file("dgx1 single links", n, links, workdir)
    out["dgx1"] = Network(
        "DGX-1, single links (`dgx1.edges`)",
        f"edges {DGX1_EDGES}",
        ["custom", "--topology-file", str(f)],
        n,
    )
    # SCCL's own DGX1: eight pairs with bandwidth 2, which an edge list cannot say.
    out["dgx1-double"] = Network(
        "DGX-1, SCCL's `DGX1` (8 doubled pairs)", None, ["DGX1"], 8
    )
    n, links = torus_links([4, 4])
    f = sccl_topology_file("torus 4 4", n, links, workdir)
    out["torus 4 4"] = Network(
        "torus 4 4", "torus 4 4", ["custom", "--topology-file", str(f)], n
    )
    return out


# (network key, collective, chunks, long): long instances get --long-timeout
INSTANCES = [
    (net, coll, c, False)
    for net in ["ring 4", "ring 8", "hypercube 3", "dgx1", "dgx1-double", "hypercube 4", "torus 4 4"]
    for coll in ["allgather", "broadcast"]
    for c in [1, 2]
]


def long_instance(net, coll, c):
    # the 16-GPU allgathers in two chunks: where SCCL is given the long limit
    return coll == "allgather" and c == 2 and net in ("hypercube 4", "torus 4 4")


def self_test():
    compare_common.self_test()
    n, links = hypercube_links(3)
    assert (n, len(links)) == (8, 12) and (0, 4) in links and (3, 7) in links, links
    n, links = torus_links([4, 3])
    assert (n, len(links)) == (12, 24) and (0, 3) in links and (0, 4) in links, links
    n, links = torus_links([2])
    assert (n, links) == (2, [(0, 1)]), links
    print("self-test: ok")


# ---------------------------------------------------------------- running


def txverify_collective(coll):
    """txverify's name of an instance's collective (broadcasts are from 0)."""
    return "allgather" if coll == "allgather" else "broadcast 0"


def run_sccl(args, net, coll, chunks, timeout, outdir):
    collective = ["Allgather"] if coll == "allgather" else ["Broadcast", "--root", "0"]
    return solve_least_steps([args.msccl], net.sccl_args, collective, chunks, timeout, outdir)


def replay_sccl(args, net, coll, chunks, sccl, outdir):
    """txverify's verdict on SCCL's algorithm, on txverify's graph of the network."""
    # a schedule names its edge list relative to itself: give the full path
    network = net.txverify or f"edges {DGX1_EDGES}"
    if network.startswith("edges "):
        network = f"edges {ROOT / network[len('edges '):]}"
    sched = outdir / "sccl-algorithm.sched"
    try:
        sched.write_text(sccl_to_schedule(sccl["algorithm"], network, txverify_collective(coll),
                                          chunks))
    except ValueError as e:
        return f"not converted: {e}"
    out, status, _ = run([args.txverify, "simulate", "--all", str(sched)], 600, ROOT)
    (outdir / "sccl-replay.log").write_text(out)
    cell = simulate_verdict(out)
    if cell is None:
        return f"not replayed (exit {status})"
    if cell.startswith("VALID, time"):
        return cell
    errors = re.findall(r"error: step \d+: ([a-z-]+): node \d+, link (\d+) -> (\d+)", out)
    doubled = doubled_pairs()
    if errors and all(k == "link-busy" and (min(int(a), int(b)), max(int(a), int(b))) in doubled
                      for k, a, b in errors):
        cell += ": every one a second chunk on a doubled pair"
    return cell


def doubled_pairs():
    """The DGX-1 pairs with two NVLinks, as marked in the edge list."""
    pairs = set()
    for line in (ROOT / DGX1_EDGES).read_text().splitlines():
        words, _, comment = line.partition("#")
        if comment.strip() == "double":
            u, v = map(int, words.split())
            pairs.add((min(u, v), max(u, v)))
    return pairs


def run_txverify(args, net, coll, chunks, timeout, outdir):
    certs = outdir / "certs"
    shutil.rmtree(certs, ignore_errors=True)
    collective = txverify_collective(coll)
    cmd = [args.txverify, "search", "--network", net.txverify, "--collective", collective,
           "--chunks", str(chunks), "--certificate", str(certs),
           "-o", str(outdir / "txverify.sched"), "--quiet"]
    out, status, wall = run(cmd, timeout, ROOT)
    (outdir / "txverify.log").write_text(out)
    found = re.search(r"found\s+time (\d+)", out)
    verdict = re.search(r"verdict\s+(\S+)", out)
    bound = re.search(r"lower bound (\d+) \(([^)]*)\)", out)
    refuted = [int(t) for t in re.findall(r"T=(\d+): infeasible \(certificate", out)]
    res = {
        "wall": wall,
        "timed_out": status is None,
        "status": status,
        "steps": int(found.group(1)) if found and status == 0 else None,
        "verdict": verdict.group(1) if verdict else None,
        "bound": (int(bound.group(1)), bound.group(2)) if bound else None,
        "refuted": refuted,
        "proof_wall": None,
        "proof_ok": None,
    }
    if refuted and status == 0:
        vcmd = [args.txverify, "verify-proof", "--network", net.txverify, "--collective",
                collective, "--chunks", str(chunks), str(certs)]
        vout, vstatus, vwall = run(vcmd, timeout, ROOT)
        (outdir / "verify-proof.log").write_text(vout)
        res["proof_wall"] = vwall
        res["proof_ok"] = vstatus == 0 and vout.count("verified:") == len(refuted)
    return res


# ---------------------------------------------------------------- table


def sccl_cell(s, timeout):
    if s is None:
        return "—"
    if s["steps"] is not None:
        extra = f"; {', '.join(map(str, s['refuted']))} unsat" if s["refuted"] else ""
        return f"{s['steps']} (from its bound {s['bound']}{extra})"
    if s["timed_out"]:
        done = f"; {', '.join(map(str, s['refuted']))} unsat" if s["refuted"] else ""
        return f"no answer in {timeout:.0f} s{done}"
    return f"failed (exit {s['status']})"


def txverify_cell(t):
    if t is None:
        return "—"
    if t["steps"] is None:
        return "no answer (time-out)" if t["timed_out"] else f"failed (exit {t['status']})"
    b = f"bound {t['bound'][0]} ({t['bound'][1]})" if t["bound"] else ""
    cert = ""
    if t["refuted"]:
        ok = "checked" if t["proof_ok"] else "NOT verified"
        cert = f"; T = {', '.join(map(str, t['refuted']))} refuted, certificates {ok}"
    return f"{t['steps']} {t['verdict']}, {b}{cert}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--timeout", type=float, default=300, help="seconds per run (default 300)")
    p.add_argument("--long-timeout", type=float, default=600,
                   help="seconds per run on the 16-GPU two-chunk allgathers (default 600)")
    p.add_argument("--only", action="append", default=[],
                   help="run only the instances whose name contains this word (repeatable)")
    p.add_argument("--workdir", type=Path, default=ROOT / "target" / "sccl-compare")
    p.add_argument("--txverify", default=str(ROOT / "target" / "release" / "txverify"))
    p.add_argument("--msccl", default=shutil.which("msccl") or "msccl")
    p.add_argument("--skip-sccl", action="store_true", help="run txverify alone")
    p.add_argument("--skip-txverify", action="store_true", help="run SCCL alone")
    p.add_argument("--list", action="store_true", help="list the instances and stop")
    p.add_argument("--self-test", action="store_true",
                   help="check the conversion of an SCCL algorithm and the topologies, and stop")
    args = p.parse_args()
    if args.self_test:
        self_test()
        return 0

    args.workdir.mkdir(parents=True, exist_ok=True)
    nets = networks(args.workdir)
    todo = []
    for key, coll, c, _ in INSTANCES:
        name = f"{coll} on {key}, C = {c}"
        if args.only and not any(w in name for w in args.only):
            continue
        todo.append((name, key, coll, c))
    if args.list:
        for t in todo:
            print(t[0])
        return 0
    if not args.skip_txverify and not os.access(args.txverify, os.X_OK):
        print(f"no txverify binary at {args.txverify}: cargo build --release", file=sys.stderr)
        return 2
    if not args.skip_sccl and shutil.which(args.msccl) is None:
        print(f"no SCCL command {args.msccl!r}: install msccl-tools (docs/collectives.md)",
              file=sys.stderr)
        return 2

    rows = []
    print("| instance | SCCL answer (steps) | SCCL s (wall; its solver) | txverify answer "
          "| txverify s (search; verify-proof) | ratio | agree | SCCL's algorithm replayed by txverify |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, key, coll, c in todo:
        net = nets[key]
        outdir = args.workdir / re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        outdir.mkdir(parents=True, exist_ok=True)
        limit = args.long_timeout if long_instance(key, coll, c) else args.timeout
        s = None if args.skip_sccl else run_sccl(args, net, coll, c, limit, outdir)
        t = None
        if net.txverify and not args.skip_txverify:
            t = run_txverify(args, net, coll, c, limit, outdir)
        replay = "—"
        if s and s["algorithm"] and not args.skip_txverify:
            replay = replay_sccl(args, net, coll, c, s, outdir)
        agree = "—"
        if s and t and s["steps"] is not None and t["steps"] is not None:
            agree = "yes" if s["steps"] == t["steps"] else "**NO**"
        ratio = "—"
        if s and t and t["steps"] is not None:
            r = s["wall"] / t["wall"]
            ratio = (f"> {r:.0f}×" if s["timed_out"] else f"{r:.0f}×") if r >= 10 else f"{r:.1f}×"
        s_time = "—" if s is None else (
            f"> {secs(s['wall'], 3)}" if s["timed_out"] else f"{secs(s['wall'], 3)}; {secs(s['solver_seconds'], 3)}")
        t_time = "—" if t is None else secs(t["wall"], 3) + (
            f"; {secs(t['proof_wall'], 3)}" if t["proof_wall"] is not None else "")
        row = (f"| {coll} on {net.label}, C = {c} | {sccl_cell(s, limit)} | {s_time} | "
               f"{txverify_cell(t)} | {t_time} | {ratio} | {agree} | {replay} |")
        print(row, flush=True)
        rows.append({"instance": name, "sccl": s and {k: v for k, v in s.items() if k != "algorithm"},
                     "txverify": t, "replay": replay})
    (args.workdir / "results.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
