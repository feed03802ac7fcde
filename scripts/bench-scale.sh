#!/usr/bin/env bash
# The total-exchange heuristic at scale (docs/schedules-any.md, "Measured: the anytime
# search at scale"), release build. For each case: when `-o` first held a schedule and
# the search's CPU seconds then (read from /proc as the file appears), the whole
# command's wall clock, its CPU time and peak memory (GNU time), the schedule's
# time, and which routers ran and which were cut (JSON `routers`). Targets:
#   1. `search --network NET --deadline S -o F`: the first schedule within 1 s on graphs
#      of up to 1,000 nodes (the 10×10×10 torus, a 1,000-node random 3-regular graph);
#   2. (SCALE=1) the 16×16×16 torus as an edge list, whole and with 8 failed links:
#      `--deadline 600` writes a valid schedule within 10 minutes using at most 8 GB;
#   3. the campaign's cases (scripts/mutate.sh, `names` and `python`) within 10 s:
#      `search --heuristic` on `genhypercube 2 3 x ring 2` eight times (1,536 nodes)
#      and Python's `search(..., heuristic=True)` on
#      `hypercube 3 x complete 5 x complete 5 x ring 3 x ring 3` (1,800 nodes).
# Each phase's wall time goes to the case's .err file (TXVERIFY_PROFILE=1), kept in
# WORK when KEEP=1.
#
# Usage: scripts/bench-scale.sh
# Environment: DEADLINE=30 (targets 1), SCALE= (1: also target 2), PYTHON=python3,
#   KEEP= (1: keep the work directory and print it).
# Needs: cargo, jq, GNU time (/usr/bin/time).
set -euo pipefail

cd "$(dirname "$0")/.."
DEADLINE=${DEADLINE:-30}
SCALE=${SCALE:-}
PYTHON=${PYTHON:-python3}
WORK=$(mktemp -d)
if [[ -n "${KEEP:-}" ]]; then
    echo "work directory: $WORK"
else
    trap 'rm -rf "$WORK"' EXIT
fi

cargo build --release -q --bin txverify --example random_regular --example network_edges
BIN=$PWD/target/release/txverify
GEN=target/release/examples/random_regular
EDGES=target/release/examples/network_edges

"$GEN" 1000 3 1 >"$WORK/r1000.edges"

# Seconds since START, two decimals.
since() { awk -v now="$(date +%s.%N)" -v start="$1" 'BEGIN { printf "%.2f", now - start }'; }

echo "| case | first in -o (s) | CPU then (s) | wall (s) | CPU (s) | peak memory (MB) | time | bound | routers ran | cut |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"

# The CPU seconds so far of the search run under GNU time's process PID.
cpu_of_child() {
    local child
    child=$(awk '{ print $1 }' "/proc/$1/task/$1/children" 2>/dev/null)
    [[ -n "$child" ]] || return 0
    awk -v tick="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / tick }' "/proc/$child/stat" 2>/dev/null
}

# NAME NETWORK OUT ARGS…: runs `search --network NETWORK -o OUT ARGS…` and prints a row.
case_row() {
    local name=$1 network=$2 out=$3
    shift 3
    local start first="" first_cpu="" pid
    start=$(date +%s.%N)
    TXVERIFY_PROFILE=1 /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" \
        "$BIN" -q search --network "$network" -o "$out" --format json "$@" \
        >"$WORK/report.json" 2>"$WORK/$name.err" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        if [[ -z "$first" && -e "$out" ]]; then
            first=$(since "$start")
            first_cpu=$(cpu_of_child "$pid")
        fi
        sleep 0.05
    done
    wait "$pid" || true
    # Written just before the command ended, between two looks.
    if [[ -z "$first" && -e "$out" ]]; then
        first="$(since "$start") (at the end)"
    fi
    read -r wall user sys kb <"$WORK/time"
    jq -r --arg name "$name" --arg first "${first:-never}" --arg first_cpu "${first_cpu:--}" \
        --arg wall "$wall" \
        --arg cpu "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')" \
        --arg mb "$((kb / 1024))" \
        '"| \($name) | \($first) | \($first_cpu) | \($wall) | \($cpu) | \($mb) | \(.time // "none") | \(.lower_bound) | \(.routers.ran // [] | join(", ")) | \(.routers.cut // [] | map("\(.router) (\(.why))") | join(", ")) |"' \
        "$WORK/report.json"
    rm -f "$out"
}

case_row torus-10x10x10 'torus 10 10 10' "$WORK/t10.sched" --deadline "$DEADLINE"
case_row random-1000-3 "edges $WORK/r1000.edges" "$WORK/r1000.sched" --deadline "$DEADLINE"
case_row genhypercube-x-ring2^8 \
    'genhypercube 2 3 x ring 2 x ring 2 x ring 2 x ring 2 x ring 2 x ring 2 x ring 2 x ring 2' \
    "$WORK/gh.sched" --heuristic

if "$PYTHON" -c 'import txverify' 2>/dev/null; then
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$PYTHON" -c '
import txverify
r = txverify.search("hypercube 3 x complete 5 x complete 5 x ring 3 x ring 3", heuristic=True)
print(r.time if hasattr(r, "time") else r)
' >"$WORK/py.out" 2>&1 || true
    read -r wall user sys kb <"$WORK/time"
    echo "| python hypercube 3 x K5 x K5 x C3 x C3 | - | - | $wall | $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }') | $((kb / 1024)) | $(tail -1 "$WORK/py.out") | - | - | - |"
else
    echo "| python hypercube 3 x K5 x K5 x C3 x C3 | skipped (no txverify module) | | | | | | | | |"
fi

if [[ -n "$SCALE" ]]; then
    "$EDGES" 'torus 16 16 16' >"$WORK/t16.edges"
    "$EDGES" 'torus 16 16 16' 8 1 >"$WORK/t16-8.edges"
    case_row torus-16x16x16 "edges $WORK/t16.edges" "$WORK/t16.sched" --deadline 600
    case_row torus-16x16x16-8-failed "edges $WORK/t16-8.edges" "$WORK/t16-8.sched" --deadline 600
fi
