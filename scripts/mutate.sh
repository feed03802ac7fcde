#!/usr/bin/env bash
# Mutation campaign: every reader bounded (docs/limits.md, "Mutation campaign").
#
# Takes seed inputs of every kind txverify reads from a file or an argument —
# MSCCL XML programs, edge lists, network names, DIMACS formulas, DRAT and LRAT
# proofs (text and binary) — from the repository (tests/golden, examples/,
# tables/) and from the tool itself (`export --format msccl`, `search
# --network … --certificate`, `verify-proof --lrat-out`), mutates them
# (byte flips, integers replaced by boundary values such as 0, -1, 2^31-1,
# 2^32, 2^63-1, -2^63, 10^30, truncation, duplicated lines and elements, deep
# nesting), and runs the release binary on each under `ulimit -v` and
# `timeout`, counting exit statuses, panics, aborts, hangs and slow runs.
#
# Usage:
#   scripts/mutate.sh [CASES] [SEED]   CASES per kind (default 600), SEED (default 37)
# Environment:
#   OUT=DIR        where the seeds, cases and results go (default target/mutate)
#   BIN=PATH       the binary (default target/release/txverify, built if missing)
#   MEMORY_KIB=N   the `ulimit -v` of each run (default 2000000)
#   TIMEOUT=S      the `timeout` of each run (default 10)
# Every case that panicked, aborted, hung or took over a second is listed in
# OUT/failures.tsv with the command that reproduces it; OUT/results.tsv has
# every case. The same CASES and SEED give the same cases.
# Needs: python3. Not part of `cargo test`: a sweep takes several minutes.
set -euo pipefail

cd "$(dirname "$0")/.."
CASES=${1:-600}
SEED=${2:-37}
OUT=${OUT:-target/mutate}
BIN=${BIN:-target/release/txverify}
MEMORY_KIB=${MEMORY_KIB:-2000000}
TIMEOUT=${TIMEOUT:-10}

if [[ ! -x $BIN ]]; then
    cargo build --release
fi
BIN=$(realpath "$BIN")
rm -rf "$OUT"
mkdir -p "$OUT/seeds"
OUT=$(realpath "$OUT")

# Seeds made by the tool itself.
for t in ring6-cyclic-total ring7-cyclic hypercube4-a; do
    "$BIN" export "tables/$t.tbl" --format msccl -o "$OUT/seeds/$t.msccl.xml" 2>/dev/null || true
done
for net in 'ring 5:2' 'mesh 2 3:2' 'linear 4:2'; do
    name=${net%%:*}
    time=${net##*:}
    dir="$OUT/seeds/cert-${name// /-}"
    "$BIN" search -q --network "$name" --time "$time" --any-length --certificate "$dir" \
        >/dev/null 2>&1 || true
    cert="$dir/T$time"
    if [[ -f $cert/formula.cnf && -f $cert/proof.drat ]]; then
        "$BIN" verify-proof -q --cnf "$cert/formula.cnf" "$cert/proof.drat" \
            --lrat-out "$cert/proof.lrat" >/dev/null 2>&1 || true
    fi
done

python3 - "$OUT" "$BIN" "$CASES" "$SEED" "$MEMORY_KIB" "$TIMEOUT" <<'PYTHON'
import glob, os, random, shlex, subprocess, sys, time

out, binary, cases, seed, memory, timeout = sys.argv[1:]
cases, seed, timeout = int(cases), int(seed), int(timeout)
rng = random.Random(seed)
os.makedirs(f"{out}/cases", exist_ok=True)

BOUNDARY = [b"0", b"-1", b"1", b"2", b"-2", b"4096", b"65535", b"65536", b"16777216",
            b"2147483647", b"2147483648", b"-2147483648", b"4294967295", b"4294967296",
            b"9223372036854775807", b"-9223372036854775808", b"9223372036854775808",
            b"18446744073709551615", b"18446744073709551616", b"1000000000000000000000000000000"]

def read(path):
    with open(path, "rb") as f:
        return f.read()

def integers(data):
    """Spans of the integers (with a leading minus) in data."""
    spans, i = [], 0
    while i < len(data):
        if data[i:i+1].isdigit() or (data[i:i+1] == b"-" and data[i+1:i+2].isdigit()):
            j = i + 1
            while j < len(data) and data[j:j+1].isdigit():
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans

def lines(data):
    return data.split(b"\n")

def mutate(data, kind):
    op = rng.choice(["flip", "int", "int", "int", "truncate", "dup", "delete", "swap", "deep", "byte"])
    if op == "flip" and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i+1:], op
    if op == "byte" and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([rng.randrange(256)]) + data[i:], op
    if op == "int":
        spans = integers(data)
        if spans:
            a, b = rng.choice(spans)
            return data[:a] + rng.choice(BOUNDARY) + data[b:], op
    if op == "truncate" and data:
        return data[:rng.randrange(len(data))], op
    if op in ("dup", "delete", "swap"):
        ls = lines(data)
        if len(ls) > 1:
            i = rng.randrange(len(ls))
            if op == "dup":
                ls[i:i+1] = [ls[i]] * rng.choice([2, 10, 1000, 20000])
            elif op == "delete":
                del ls[i]
            else:
                j = rng.randrange(len(ls))
                ls[i], ls[j] = ls[j], ls[i]
            return b"\n".join(ls), op
    if op == "deep":
        depth = rng.choice([40, 1000, 100000])
        if kind == "msccl":
            i = data.find(b"<tb ")
            i = i if i >= 0 else len(data) // 2
            return data[:i] + b"<x>" * depth + b"</x>" * depth + data[i:], op
        if kind == "names":
            factor = rng.choice([b" x ring 3", b" x complete 5", b" x hypercube 2", b" x ring 2"])
            return data + factor * rng.choice([2, 8, 30, 1000]), op
        if kind in ("dimacs", "drat", "lrat"):
            # One very long clause.
            return data + b" ".join([b"1", b"-1"] * depth) + b" 0\n", op
        ls = lines(data)
        return b"\n".join(ls + ls * min(depth, 200)), op
    # Fall back on a byte flip.
    if data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ 0x20]) + data[i+1:], "flip"
    return b"1", "flip"

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)

def lit_code(x):
    return 2 * abs(x) + (1 if x < 0 else 0)

def binary_drat(text):
    out = bytearray()
    for line in text.decode().splitlines():
        w = line.split()
        if not w or w[0] == "c":
            continue
        tag, w = (b"d", w[1:]) if w[0] == "d" else (b"a", w)
        out += tag + b"".join(varint(lit_code(int(x))) for x in w[:-1]) + b"\x00"
    return bytes(out)

def is_binary(data):
    return data[:1] == b"a" or any((b < 0x20 and b not in b" \t\r\n") or b >= 0x7f for b in data[:10])

def text_drat(data):
    """The text form of a binary DRAT proof (varisat writes binary)."""
    out, i = [], 0
    while i < len(data):
        tag, i, lits = data[i:i+1], i + 1, []
        while True:
            value, shift = 0, 0
            while True:
                b = data[i]
                i += 1
                value |= (b & 0x7f) << shift
                shift += 7
                if not b & 0x80:
                    break
            if value == 0:
                break
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        out.append(("d " if tag == b"d" else "") + " ".join(map(str, lits + [0])))
    return ("\n".join(out) + "\n").encode()

def binary_lrat(text):
    out = bytearray()
    for line in text.decode().splitlines():
        w = line.split()
        if not w or w[0] == "c":
            continue
        if w[1] == "d":
            out += b"d" + b"".join(varint(lit_code(int(x))) for x in w[2:-1]) + b"\x00"
        else:
            out += b"a" + varint(lit_code(int(w[0])))
            rest = [int(x) for x in w[1:]]
            k = rest.index(0)
            out += b"".join(varint(lit_code(x)) for x in rest[:k]) + b"\x00"
            out += b"".join(varint(lit_code(x)) for x in rest[k+1:-1]) + b"\x00"
    return bytes(out)

seeds_dir = f"{out}/seeds"
msccl = sorted(glob.glob("tests/golden/*.msccl.xml") + glob.glob(f"{seeds_dir}/*.msccl.xml"))
edges = {"petersen.edges": read("examples/networks/petersen.edges")}
edges["path8.edges"] = b"".join(b"%d %d\n" % (i, i + 1) for i in range(7))
edges["ring6.edges"] = b"".join(b"%d %d\n" % (i, (i + 1) % 6) for i in range(6))
edges["grid3.edges"] = b"".join(b"%d %d\n" % (a, b) for a in range(9) for b in (a + 1, a + 3)
                                if b < 9 and (b != a + 1 or b % 3))
names = [b"ring 8", b"linear 5", b"torus 3 4", b"mesh 3 3", b"hypercube 3", b"complete 5",
         b"nvlink 4", b"kary 3 2", b"genhypercube 2 3", b"twisted 8 4", b"twisted 4 4 8",
         b"star 4", b"pancake 4", b"ccc 3", b"butterfly 3", b"ring 4 x complete 3",
         b"star 3 x ring 4", b"hypercube 2 x torus 3 3"]
certs = sorted(d for d in glob.glob(f"{seeds_dir}/cert-*/T*") if os.path.exists(f"{d}/proof.lrat"))
if not msccl or not certs:
    sys.exit("mutate.sh: the seeds were not made (is the binary built with a solver?)")

def case_path(kind, n, suffix):
    return f"{out}/cases/{kind}-{n:05d}{suffix}"

def write(path, data):
    with open(path, "wb") as f:
        f.write(data)

def stacked(data, kind):
    ops = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data, op = mutate(data, kind)
        ops.append(op)
    return data, "+".join(ops)

def make(kind, n):
    """One case: (command words, mutation)."""
    if kind == "msccl":
        seed_path = rng.choice(msccl)
        data, ops = stacked(read(seed_path), kind)
        path = case_path(kind, n, ".xml")
        write(path, data)
        extra = rng.choice([[], [], ["--format", "json"]])
        return ["check", path] + extra, ops
    if kind == "edges":
        name = rng.choice(sorted(edges))
        data, ops = stacked(edges[name], kind)
        path = case_path(kind, n, ".edges")
        write(path, data)
        command = rng.choice([
            ["bounds", "--network"],
            ["search", "-q", "--heuristic", "--network"],
            ["search", "-q", "--time", "4", "--time-limit", "5", "--network"],
        ])
        return command + [f"edges {path}"], ops
    if kind == "names":
        data, ops = stacked(rng.choice(names), kind)
        name = data.decode("utf-8", "replace").replace("\x00", " ")
        command = rng.choice([
            ["net", name],
            ["bounds", "--network", name],
            ["search", "-q", "--heuristic", "--network", name],
        ])
        return command, ops
    cert = rng.choice(certs)
    cnf, drat, lrat = (read(f"{cert}/{f}") for f in ("formula.cnf", "proof.drat", "proof.lrat"))
    if is_binary(drat):
        drat = text_drat(drat)
    if kind == "dimacs":
        data, ops = stacked(cnf, kind)
        path = case_path(kind, n, ".cnf")
        write(path, data)
        return ["verify-proof", "-q", "--cnf", path, f"{cert}/proof.drat"], ops
    binary = rng.random() < 0.4
    if kind == "drat":
        seed_bytes = binary_drat(drat) if binary else drat
        suffix = ".bdrat" if binary else ".drat"
        extra = []
    else:
        seed_bytes = binary_lrat(lrat) if binary else lrat
        suffix = ".blrat" if binary else ".lrat"
        extra = ["--proof-format", "lrat"]
    data, ops = stacked(seed_bytes, kind)
    path = case_path(kind, n, suffix)
    write(path, data)
    cnf_path = case_path(kind, n, ".cnf")
    write(cnf_path, cnf)
    return ["verify-proof", "-q", "--cnf", cnf_path, path] + extra, ops + (" binary" if binary else "")

kinds = ["msccl", "edges", "names", "dimacs", "drat", "lrat"]
counts = {k: {} for k in kinds}
failures = []
with open(f"{out}/results.tsv", "w") as results:
    results.write("case\tkind\tmutation\tstatus\tseconds\tcommand\n")
    for kind in kinds:
        for n in range(cases):
            args, ops = make(kind, n)
            shell = f"ulimit -v {memory}; exec timeout {timeout} \"$0\" \"$@\""
            started = time.monotonic()
            run = subprocess.run(["sh", "-c", shell, binary] + args, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            seconds = time.monotonic() - started
            stderr = run.stderr.decode("utf-8", "replace")
            code = run.returncode
            if code == 124:
                status = "hang"
            elif code == 101 or "panicked" in stderr:
                status = "panic"
            elif code < 0 or code >= 128:
                status = "abort"
            else:
                status = f"exit {code}"
            counts[kind][status] = counts[kind].get(status, 0) + 1
            slow = seconds > 1.0
            if slow:
                counts[kind]["over 1 s"] = counts[kind].get("over 1 s", 0) + 1
            command = shlex.join(["txverify"] + args)
            results.write(f"{kind}-{n:05d}\t{kind}\t{ops}\t{status}\t{seconds:.2f}\t{command}\n")
            if status in ("hang", "panic", "abort") or slow:
                first = stderr.strip().splitlines()[:1]
                failures.append(f"{kind}-{n:05d}\t{status}\t{seconds:.2f}\t{command}\t{first[0] if first else ''}")

with open(f"{out}/failures.tsv", "w") as f:
    f.write("".join(line + "\n" for line in failures))
columns = ["exit 0", "exit 1", "exit 2", "exit 3", "exit 4", "panic", "abort", "hang", "over 1 s"]
print(f"mutation campaign: {cases} cases per kind, seed {seed}, ulimit -v {memory}, timeout {timeout}")
print("| kind | cases | " + " | ".join(columns) + " |")
print("| --- | --- |" + " --- |" * len(columns))
total = {c: 0 for c in columns}
for kind in kinds:
    row = [counts[kind].get(c, 0) for c in columns]
    other = sum(v for k, v in counts[kind].items() if k not in columns)
    for c, v in zip(columns, row):
        total[c] += v
    print(f"| {kind} | {cases} | " + " | ".join(map(str, row)) + " |" + (f" (+{other} other)" if other else ""))
print(f"| all | {cases * len(kinds)} | " + " | ".join(str(total[c]) for c in columns) + " |")
print(f"{len(failures)} cases panicked, aborted, hung or took over 1 s: {out}/failures.tsv")
PYTHON
