#!/usr/bin/env bash
# Mutation campaign: every reader bounded, every answer kept (docs/limits.md,
# "Mutation campaign").
#
# Takes seed inputs of every kind txverify reads from a file or an argument —
# MSCCL XML programs, edge lists, network names, DIMACS formulas, DRAT and LRAT
# proofs (text and binary), LP-bound certificates, collective schedules, link
# tables — from the repository (tests/golden, examples/, tables/) and from the
# tool itself (`export --format msccl`, `search --network … --certificate`,
# `verify-proof --lrat-out`, `bounds --lp-certificate`, `search --collective`),
# mutates them (byte flips, integers replaced by boundary values such as 0, -1,
# 2^31-1, 2^32, 2^63-1, -2^63, 10^30, truncation, duplicated lines and
# elements, deep nesting), and runs the release binary on each under
# `ulimit -v` and `timeout`. Further surfaces: hostile numbers for α, β and
# the durations (-1, NaN, inf, 1e308, 1e-320, 400-digit strings), devices and
# pipes (/dev/zero, /dev/urandom, `-`, a FIFO, process substitution), a search
# stopped by SIGINT or SIGTERM after a random delay, and the Python package
# (when `import txverify` works).
#
# Each case is classified: `panic` (exit 101 or "panicked"), `abort` (killed
# by a signal, or 134), `hang` (the timeout), `wrong` (a verdict the script can
# know: an unmutated input keeps its verdict, a pipe gives the verdict of the
# file, `--format json` prints JSON whose `exit_code` is the status, a timed
# replay is finite, a stopped search exits 0 and leaves only checkable
# proofs), or its exit status.
#
# Usage:
#   scripts/mutate.sh [CASES] [SEED]   CASES per kind (default 600), SEED (default 37);
#                                      the devices kind runs CASES/4, signals CASES/10
# Environment:
#   OUT=DIR          where the seeds, cases and results go (default target/mutate)
#   BIN=PATH         the binary (default target/release/txverify, built if missing)
#   MEMORY_KIB=N     the `ulimit -v` of each run (default 2000000)
#   TIMEOUT=S        the CPU seconds of each run (`ulimit -t`, default 10); its wall
#                    clock is cut at WALL_FACTOR times that (`timeout`, default 3):
#                    on a shared machine a run's wall time says more of the load
#                    than of the run, so a run is a `hang` when it is over its CPU
#                    seconds, or over the wall clock (a blocked read)
#   DEVICE_TIMEOUT=S the wall-clock `timeout` of a run reading a device or a pipe
#                    (default 5; a blocked read takes no CPU)
#   DEADLINE=S       the `--deadline` (Python: `deadline=`) of every network search,
#                    below TIMEOUT (default 3): the anytime contract is the deadline,
#                    so a search that times out is a deadline not kept
#   KINDS="a b"      only these kinds (default all; see the table's first column)
#   PYTHON=PATH      the interpreter of the Python kind (default python3)
#   PYTHON_MEMORY_KIB=N the `ulimit -v` of a Python case (default MEMORY_KIB + 1000000:
#                    the interpreter's own address space comes on top of what the
#                    search needs; one formula of the campaign took 1.6 GB,
#                    docs/limits.md)
#   PYTHON_TIMEOUT=S the `timeout` of a Python case (default 4 × TIMEOUT): a table's
#                    check hands Python every violation (docs/limits.md, "Mutation
#                    campaign": 2.3 million for a 20,000-row table, 4.5 s of CPU)
# Every case that panicked, aborted, hung, gave a wrong verdict or took over a
# second is listed in OUT/failures.tsv with the command that reproduces it;
# OUT/results.tsv has every case. The same CASES and SEED give the same cases
# (the signal kind's delays too; when a signal lands depends on the machine).
# Needs: python3, bash. Not part of `cargo test`.
set -euo pipefail

cd "$(dirname "$0")/.."
CASES=${1:-600}
SEED=${2:-37}
OUT=${OUT:-target/mutate}
BIN=${BIN:-target/release/txverify}
MEMORY_KIB=${MEMORY_KIB:-2000000}
TIMEOUT=${TIMEOUT:-10}
DEVICE_TIMEOUT=${DEVICE_TIMEOUT:-5}
DEADLINE=${DEADLINE:-3}
PYTHON_TIMEOUT=${PYTHON_TIMEOUT:-$((4 * TIMEOUT))}
WALL_FACTOR=${WALL_FACTOR:-3}
PYTHON_MEMORY_KIB=${PYTHON_MEMORY_KIB:-$((MEMORY_KIB + 1000000))}
KINDS=${KINDS:-}
PYTHON=${PYTHON:-python3}

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

# LP-bound certificates and collective schedules (and, from those, link tables).
for net in 'ring 6' 'mesh 2 3' 'hypercube 3'; do
    name=${net// /-}
    "$BIN" bounds --network "$net" --lp-certificate "$OUT/seeds/$name.lp.json" \
        >/dev/null 2>&1 || true
    "$BIN" search -q --network "$net" --collective allgather --chunks 2 \
        -o "$OUT/seeds/$name.allgather.sched" >/dev/null 2>&1 || true
done

python3 - "$OUT" "$BIN" "$CASES" "$SEED" "$MEMORY_KIB" "$TIMEOUT" "$DEVICE_TIMEOUT" \
    "$KINDS" "$PYTHON" "$DEADLINE" "$PYTHON_TIMEOUT" "$WALL_FACTOR" "$PYTHON_MEMORY_KIB" <<'PYTHON'
import glob, json, math, os, random, shlex, signal, subprocess, sys, time

out, binary, cases, seed, memory, timeout, device_timeout, only, python, deadline, \
    python_timeout, wall_factor, python_memory = sys.argv[1:]
wall_factor = int(wall_factor)
cases, seed, timeout, device_timeout = int(cases), int(seed), int(timeout), int(device_timeout)
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
            ["search", "-q", "--deadline", deadline, "--network"],
            ["search", "-q", "--time", "4", "--time-limit", "5", "--network"],
        ])
        return command + [f"edges {path}"], ops
    if kind == "names":
        data, ops = stacked(rng.choice(names), kind)
        name = data.decode("utf-8", "replace").replace("\x00", " ")
        command = rng.choice([
            ["net", name],
            ["bounds", "--network", name],
            ["search", "-q", "--deadline", deadline, "--network", name],
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

# The surfaces added since: LP certificates, collective schedules, link
# tables, hostile numbers, devices and pipes, signals, the Python package.
lp_seeds = sorted(glob.glob(f"{seeds_dir}/*.lp.json"))
schedules = sorted(glob.glob(f"{seeds_dir}/*.allgather.sched"))
if not lp_seeds or not schedules:
    sys.exit("mutate.sh: the LP certificates or collective schedules were not made")

def network_of(seed_path):
    """`ring 6` from …/ring-6.lp.json or …/ring-6.allgather.sched."""
    return os.path.basename(seed_path).split(".")[0].replace("-", " ")

def link_table(schedule):
    """A link table for every link a schedule uses: `from to alpha beta`."""
    links, past_sends = set(), False
    for line in read(schedule).decode().splitlines():
        if line.strip() == "sends:":
            past_sends = True
            continue
        words = line.split()
        if past_sends and len(words) >= 3:
            a, b = int(words[1]), int(words[2])
            links.add((min(a, b), max(a, b)))
    rows = [f"{a} {b} {1 + (a + b) % 3} 0.5" for a, b in sorted(links)]
    return ("from to alpha beta\n" + "\n".join(rows) + "\n").encode()

HOSTILE = ["-1", "0", "1e-320", "1e308", "1.7976931348623157e308", "NaN", "nan", "inf", "-inf",
           "Infinity", "1e20", "18446744073709551616", "9" * 400, "0." + "0" * 400 + "1",
           "0x10", "", " ", "1e", "--", "2", "0.5"]

def plain(args, ops, **extra):
    return dict(args=args, ops=ops, **extra)

def make_new(kind, n):
    if kind == "lp":
        seed_path = rng.choice(lp_seeds)
        control = rng.random() < 0.1
        data, ops = (read(seed_path), "none") if control else stacked(read(seed_path), kind)
        path = case_path(kind, n, ".json")
        write(path, data)
        json_out = rng.random() < 0.5
        args = ["verify-bound", "--network", network_of(seed_path), path]
        return plain(args + (["--format", "json"] if json_out else []), ops,
                     expect={0} if control else None)
    if kind in ("collective", "linktable"):
        sched = rng.choice(schedules)
        if kind == "collective":
            control = rng.random() < 0.1
            data, ops = (read(sched), "none") if control else stacked(read(sched), kind)
            path = case_path(kind, n, ".sched")
            write(path, data)
            extra = rng.choice([[], ["--format", "json"], ["--alpha", "1", "--beta", "0.5"],
                                ["--all"]])
            return plain(["simulate", path] + extra, ops, expect={0} if control else None)
        table = link_table(sched)
        control = rng.random() < 0.1
        data, ops = (table, "none") if control else stacked(table, kind)
        path = case_path(kind, n, ".links")
        write(path, data)
        extra = rng.choice([[], ["--format", "json"]])
        return plain(["simulate", sched, "--alpha", "1", "--beta", "0.5", "--link-table", path]
                     + extra, ops, expect={0} if control else None, finite=True)
    if kind == "numbers":
        value = rng.choice(HOSTILE)
        sched, program = rng.choice(schedules), "tests/golden/torus3x4.msccl.xml"
        option = rng.choice(["alpha", "beta", "alpha", "beta", "time-limit", "deadline",
                             "cube-budget"])
        other = "beta" if option == "alpha" else "alpha"
        json_out = ["--format", "json"] if rng.random() < 0.5 else []
        if option in ("alpha", "beta"):
            if rng.random() < 0.7:
                args = ["simulate", sched, f"--{option}={value}", f"--{other}=1"]
            else:
                args = ["check", program, "--network", "torus 3 4", f"--{option}={value}",
                        f"--{other}=1"]
            return plain(args + json_out, f"--{option} {value[:24]}", finite=True)
        if option == "cube-budget":
            args = ["search", "-q", "--network", "ring 5", "--cubes", "2",
                    f"--cube-budget={value}"]
        else:
            args = ["search", "-q", "--network", "ring 5", f"--{option}={value}"]
        return plain(args + json_out, f"--{option} {value[:24]}")
    if kind == "devices":
        readers = [
            (["check", "{}"], "tables/ring6-cyclic-total.tbl"),
            (["simulate", "{}"], rng.choice(schedules)),
            (["simulate", "{}"], "tables/ring6-dihedral-total.tbl"),
            (["check", "{}", "--network", "torus 3 4"], "tests/golden/torus3x4.msccl.xml"),
            (["bounds", "--network", "edges {}"], "examples/networks/petersen.edges"),
            (["verify-bound", "--network", "ring 6", "{}"], f"{seeds_dir}/ring-6.lp.json"),
            (["simulate", schedules[0], "--alpha", "1", "--link-table", "{}"], None),
            (["verify-proof", "-q", "--cnf", "{}", f"{certs[0]}/proof.drat"],
             f"{certs[0]}/formula.cnf"),
            (["fmt", "{}"], "tables/ring6-cyclic-total.tbl"),
            (["infer", "--count", "{}"], "tests/infer/hypercube4-b.tbl"),
            (["export", "{}"], "tables/ring6-cyclic-total.tbl"),
        ]
        words, seed_path = rng.choice(readers)
        if seed_path is None:
            seed_path = case_path(kind, n, ".links")
            write(seed_path, link_table(schedules[0]))
        how = rng.choice(["/dev/zero", "/dev/urandom", "fifo", "process", "stdin"])
        # `-` is the FILE of simulate (docs/schedule.md); `<(…)` must be a word of its own.
        if how == "stdin" and words[:2] != ["simulate", "{}"]:
            how = "fifo"
        if how == "process" and "{}" not in words:
            how = "fifo"
        fill = lambda value: [w.replace("{}", value) for w in words]
        if how.startswith("/dev/"):
            return plain(fill(how), how, expect={2}, timeout=device_timeout, wall=device_timeout)
        # A pipe holding the seed gives the verdict the file gives.
        expect = {expected_status(fill(seed_path))}
        if how == "stdin":
            return plain(fill("-"), how, stdin=seed_path, expect=expect, timeout=device_timeout,
                         wall=device_timeout)
        if how == "fifo":
            fifo = case_path(kind, n, ".fifo")
            return plain(fill(fifo), how, fifo=(fifo, seed_path), expect=expect,
                         timeout=device_timeout, wall=device_timeout)
        return plain(fill(f"<(cat {shlex.quote(seed_path)})"), how, process=True,
                     expect=expect, timeout=device_timeout, wall=device_timeout)
    if kind == "signals":
        directory = case_path(kind, n, ".certs")
        output = case_path(kind, n, ".sched")
        network, extra = rng.choice([
            ("hypercube 4", []),
            ("hypercube 3", ["--collective", "allreduce", "--deadline", "30"]),
        ])
        which = rng.choice(["INT", "TERM"])
        delay = round(rng.uniform(0.2, 3.0), 2)
        args = ["search", "-q", "--network", network, *extra, "--certificate", directory,
                "-o", output]
        return plain(args, f"SIG{which} after {delay} s", signal=(which, delay),
                     directory=directory, output=output, network=network, extra=extra,
                     timeout=timeout + 20)
    if kind == "python":
        what = rng.choice(["table", "table-bytes", "msccl", "schedule", "names", "search"])
        if what in ("table", "table-bytes"):
            tables = sorted(glob.glob("tables/*.tbl"))
            small = [t for t in tables if os.path.getsize(t) < 4000] or tables
            data, ops = stacked(read(rng.choice(small)), "table")
            path = case_path(kind, n, ".tbl")
        elif what == "msccl":
            data, ops = stacked(read(rng.choice(msccl)), "msccl")
            path = case_path(kind, n, ".xml")
        elif what == "schedule":
            data, ops = stacked(read(rng.choice(schedules)), "collective")
            path = case_path(kind, n, ".sched")
        else:
            data, ops = stacked(rng.choice(names[:12]), "names")
            path = case_path(kind, n, ".name")
        write(path, data)
        return plain([what, path, deadline], ops, python=True, timeout=int(python_timeout))
    raise ValueError(kind)

status_cache = {}

def expected_status(args):
    """The exit status of the binary on the regular file (a pipe must agree)."""
    key = tuple(args)
    if key not in status_cache:
        run = subprocess.run([binary] + args, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             timeout=timeout)
        status_cache[key] = run.returncode
    return status_cache[key]

PYTHON_DRIVER = r"""
import pathlib, sys, txverify
what, path, deadline = sys.argv[1], sys.argv[2], float(sys.argv[3])
try:
    if what == "table":
        txverify.check_table(pathlib.Path(path))
    elif what == "table-bytes":
        txverify.check_table(open(path, "rb").read())
    elif what == "msccl":
        txverify.check_msccl(open(path, "rb").read().decode("utf-8", "surrogateescape"))
    elif what == "schedule":
        txverify.simulate(pathlib.Path(path))
    elif what == "names":
        txverify.bounds(open(path, "rb").read().decode("utf-8", "surrogateescape"))
    elif what == "search":
        name = open(path, "rb").read().decode("utf-8", "surrogateescape")
        found = txverify.search(name, deadline=deadline)
        if found.found:
            # The schedule returned is the one judged: its replay is valid,
            # in the time the search reported.
            replay = found.simulate()
            if replay.get("valid") is not True or replay.get("time") != found.get("time"):
                print("wrong: a schedule called", found.verdict, "of time", found.get("time"),
                      "replays as valid", replay.get("valid"), "time", replay.get("time"),
                      file=sys.stderr)
                sys.exit(7)
except txverify.Error:
    pass
except BaseException as e:
    print("exception:", type(e).__module__, type(e).__name__, str(e)[:200], file=sys.stderr)
    sys.exit(101 if "Panic" in type(e).__name__ else 7)
"""

def python_works():
    try:
        run = subprocess.run([python, "-c", "import txverify"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        return run.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False

def json_holds(stdout, code):
    """`--format json` output: JSON lines, and a failure's object carries its status."""
    lines = [l for l in stdout.decode("utf-8", "replace").splitlines() if l.strip()]
    if not lines:
        return False
    try:
        objects = [json.loads(l) for l in lines]
    except ValueError:
        return False
    if code >= 2:
        last = objects[-1]
        if not isinstance(last, dict):
            return False
        said = last.get("exit_code", last.get("exit"))
        return said == code and ("error" not in last or isinstance(last["error"].get("message"), str))
    return True

def finite(stdout, json_out):
    """A timed replay's numbers are finite."""
    text = stdout.decode("utf-8", "replace")
    if not json_out:
        return not any(w in ("inf", "inf;", "NaN", "-inf") for w in text.split())
    try:
        report = json.loads(text.splitlines()[-1])
    except (ValueError, IndexError):
        return True  # json_holds judges the shape
    timed = report.get("timed") if isinstance(report, dict) else None
    if not isinstance(timed, dict) or timed.get("completion") is None and "not_timed" in timed:
        return True
    return all(isinstance(timed.get(k), (int, float)) for k in ("completion", "bound")
               if k in timed)

def json_asked(args):
    return any(a == "--format" and b == "json" for a, b in zip(args, args[1:]))

def run_case(case):
    """(status, seconds, stderr, command) of one case."""
    limit = case.get("timeout", timeout)
    # CPU seconds, and the wall clock (a blocked read: devices and pipes).
    wall = case.get("wall", limit * wall_factor)
    args = case["args"]
    # One signal must reach txverify once: `--foreground` keeps timeout from
    # sending it to the process group as well.
    foreground = "--foreground " if case.get("signal") else ""
    space = python_memory if case.get("python") else memory
    prefix = f"ulimit -v {space}; ulimit -t {limit}; exec timeout {foreground}{wall} "
    if case.get("python"):
        driver = f"{out}/python_driver.py"
        if not os.path.exists(driver):
            write(driver, PYTHON_DRIVER.encode())
        command = shlex.join([python, driver] + args)
        argv = ["sh", "-c", prefix + "\"$0\" \"$@\"", python, driver] + args
    elif case.get("process"):
        shown = " ".join(shlex.quote(a) if not a.startswith("<(") else a for a in args)
        command = f"txverify {shown}"
        argv = ["bash", "-c", prefix + f"{shlex.quote(binary)} {shown}"]
    else:
        command = shlex.join(["txverify"] + args)
        argv = ["sh", "-c", prefix + "\"$0\" \"$@\"", binary] + args
    stdin = open(case["stdin"], "rb") if case.get("stdin") else subprocess.DEVNULL
    if case.get("stdin"):
        command += f" < {shlex.quote(case['stdin'])}"
    writer = None
    if case.get("fifo"):
        fifo, source = case["fifo"]
        if os.path.exists(fifo):
            os.remove(fifo)
        os.mkfifo(fifo)
        writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$0"', fifo, source],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        command = f"mkfifo F; cat {shlex.quote(source)} > F & " + command.replace(fifo, "F")
    started = time.monotonic()
    if case.get("signal"):
        which, delay = case["signal"]
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, start_new_session=True)
        time.sleep(delay)
        try:
            # The shell has exec'd timeout, which forwards the signal to txverify.
            os.kill(process.pid, getattr(signal, f"SIG{which}"))
        except ProcessLookupError:
            pass
        stderr_bytes, stdout = process.communicate()[1], b""
        code = process.returncode
        command = f"{command} & sleep {delay}; kill -{which} $!"
    else:
        run = subprocess.run(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        stderr_bytes, code, stdout = run.stderr, run.returncode, run.stdout
    seconds = time.monotonic() - started
    if writer is not None:
        writer.kill()
        writer.wait()
        os.remove(case["fifo"][0])
    if stdin is not subprocess.DEVNULL:
        stdin.close()
    stderr = stderr_bytes.decode("utf-8", "replace")
    # 124: the wall clock ran out; SIGXCPU (`timeout` passes on 128 + 24): the
    # CPU seconds did.
    if code in (124, 128 + signal.SIGXCPU, -signal.SIGXCPU):
        status = "hang"
    elif code == 101 or "panicked" in stderr or "PanicException" in stderr:
        status = "panic"
    elif code < 0 or code >= 128 and code != 130:
        status = "abort"
    else:
        status = f"exit {code}"
    if status.startswith("exit"):
        why = None
        if case.get("expect") is not None and code not in case["expect"]:
            why = f"expected exit {sorted(case['expect'])}"
        elif case.get("python") and code == 7:
            why = "not a txverify.Error, or a wrong verdict"
        elif not case.get("python") and json_asked(args) and not json_holds(stdout, code):
            why = "--format json: no JSON object with this exit_code on standard output"
        elif case.get("finite") and code == 0 and not finite(stdout, json_asked(args)):
            why = "a timed replay that is not finite"
        elif case.get("signal"):
            why = stopped_search_holds(case, code)
        if why:
            status = "wrong"
            stderr = f"{why}; {stderr}"
    return status, seconds, stderr, command

def stopped_search_holds(case, code):
    """A search stopped by one signal: exit 0, the -o schedule valid, every
    certificate left complete."""
    if code != 0:
        return "a search stopped by one signal exits 0 (docs/schedules-any.md)"
    if os.path.exists(case["output"]):
        check = subprocess.run([binary, "simulate", case["output"]], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=timeout)
        if check.returncode != 0:
            return "the -o schedule left by the stopped search is not valid"
    directory = case["directory"]
    if glob.glob(f"{directory}/T*"):
        words = ["verify-proof", "-q", "--network", case["network"]]
        if case["extra"]:
            words += ["--collective", case["extra"][1]]
        check = subprocess.run([binary] + words + [directory], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=300)
        if check.returncode != 0:
            return "the stopped search left a certificate that verify-proof does not accept"
    return None

old_kinds = ["msccl", "edges", "names", "dimacs", "drat", "lrat"]
new_kinds = ["lp", "collective", "linktable", "numbers", "devices", "signals", "python"]
kinds = [k for k in old_kinds + new_kinds if not only.split() or k in only.split()]
quota = {k: cases for k in kinds}
quota["devices"] = max(1, cases // 4)
quota["signals"] = max(1, cases // 10)
python_ok = "python" in kinds and python_works()
counts = {k: {} for k in kinds}
failures = []
with open(f"{out}/results.tsv", "w") as results:
    results.write("case\tkind\tmutation\tstatus\tseconds\tcommand\n")
    for kind in kinds:
        # One random sequence per kind: a kind's cases do not depend on which others run.
        rng.seed(f"{seed}:{kind}")
        if kind == "python" and not python_ok:
            counts[kind]["skipped"] = quota[kind]
            continue
        for n in range(quota[kind]):
            if kind in old_kinds:
                args, ops = make(kind, n)
                case = plain(args, ops)
            else:
                case = make_new(kind, n)
            status, seconds, stderr, command = run_case(case)
            counts[kind][status] = counts[kind].get(status, 0) + 1
            slow = seconds > 1.0 and kind not in ("signals", "python")
            if slow:
                counts[kind]["over 1 s"] = counts[kind].get("over 1 s", 0) + 1
            results.write(f"{kind}-{n:05d}\t{kind}\t{case['ops']}\t{status}\t{seconds:.2f}\t{command}\n")
            results.flush()
            if status in ("hang", "panic", "abort", "wrong") or slow:
                first = stderr.strip().splitlines()[:1]
                failures.append(f"{kind}-{n:05d}\t{status}\t{seconds:.2f}\t{command}\t{first[0][:300] if first else ''}")

with open(f"{out}/failures.tsv", "w") as f:
    f.write("".join(line + "\n" for line in failures))
columns = ["exit 0", "exit 1", "exit 2", "exit 3", "exit 4", "panic", "abort", "hang", "wrong",
           "over 1 s"]
print(f"mutation campaign: {cases} cases per kind, seed {seed}, ulimit -v {memory} (Python {python_memory}), ulimit -t {timeout} "
      f"(Python {python_timeout}) and {wall_factor}x that of wall clock, search deadline {deadline}")
print("| kind | cases | " + " | ".join(columns) + " |")
print("| --- | --- |" + " --- |" * len(columns))
total = {c: 0 for c in columns}
for kind in kinds:
    row = [counts[kind].get(c, 0) for c in columns]
    other = {k: v for k, v in counts[kind].items() if k not in columns}
    for c, v in zip(columns, row):
        total[c] += v
    note = " (" + ", ".join(f"{v} {k}" for k, v in sorted(other.items())) + ")" if other else ""
    print(f"| {kind} | {quota[kind]} | " + " | ".join(map(str, row)) + " |" + note)
ran = sum(quota[k] for k in kinds if not (k == "python" and not python_ok))
print(f"| all | {ran} | " + " | ".join(str(total[c]) for c in columns) + " |")
if "python" in kinds and not python_ok:
    print(f"python: skipped ({python} cannot `import txverify`; build the wheel, docs/python.md)")
bad = sum(total[c] for c in ("panic", "abort", "hang", "wrong"))
print(f"by class: {total['panic']} panic, {total['abort']} abort, {total['hang']} hang, "
      f"{total['wrong']} wrong verdict, {ran - bad} ok")
print(f"{len(failures)} cases panicked, aborted, hung, were wrong or took over 1 s: {out}/failures.tsv")
PYTHON
