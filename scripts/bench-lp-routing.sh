#!/usr/bin/env bash
# Routing that follows the LP (docs/schedules-any.md, "Routing along the LP's flow"):
# `search --network 'edges FILE' --heuristic` on seeded random regular graphs of degree 3-6
# and 60-1,000 nodes (examples/random_regular.rs N K 1) and on tori with failed links
# (dropped at random, seeded), against the LP bound the report states; the time of the
# schedule without the LP (`--no-lp`: the project's own routers) beside it. Prints one
# tab-separated line per graph: graph, nodes, degree, LP bound, before, after, gap %, wall
# seconds, CPU seconds (user + system) and peak resident KB of the run with the LP.
#
# Usage: scripts/bench-lp-routing.sh [--large]   (--large: also 500 and 1,000 nodes)
# Needs: cargo, python3, jq, GNU time (/usr/bin/time).
set -euo pipefail

cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cargo build --release -q --bin txverify --example random_regular
BIN=target/release/txverify

# torus SIDES FAILED: a torus (sides joined by x) as an edge list, FAILED links dropped
# at random (seed 1).
torus() {
    python3 - "$1" "$2" <<'PY'
import random, sys
sides = [int(a) for a in sys.argv[1].split("x")]
n = 1
for s in sides:
    n *= s
edges = []
for x in range(n):
    c, r = [], x
    for s in sides:
        c.append(r % s)
        r //= s
    stride = 1
    for i, s in enumerate(sides):
        edges.append((x, x - c[i] * stride + ((c[i] + 1) % s) * stride))
        stride *= s
rng = random.Random(1)
for _ in range(int(sys.argv[2])):
    edges.pop(rng.randrange(len(edges)))
for u, v in edges:
    print(u, v)
PY
}

graphs=("60 3" "60 4" "60 6" "120 3" "120 5" "200 3" "200 4" "200 6")
if [[ "${1:-}" == --large ]]; then
    graphs+=("500 3" "500 4" "500 5" "500 6" "1000 3" "1000 4" "1000 6")
fi
files=()
for g in "${graphs[@]}"; do
    set -- $g
    target/release/examples/random_regular "$1" "$2" 1 >"$WORK/rr$1-$2.edges"
    files+=("rr$1-$2:$2")
done
torus 8x8 2 >"$WORK/t8x8f2.edges"
torus 6x6x6 3 >"$WORK/t6x6x6f3.edges"
files+=("t8x8f2:4" "t6x6x6f3:6")
if [[ "${1:-}" == --large ]]; then
    torus 8x8x8 4 >"$WORK/t8x8x8f4.edges"
    files+=("t8x8x8f4:6")
fi

printf 'graph\tnodes\tdegree\tlp\tbefore\tafter\tgap%%\twall_s\tcpu_s\tpeak_kb\n'
for f in "${files[@]}"; do
    name=${f%%:*}
    degree=${f##*:}
    net="edges $WORK/$name.edges"
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" \
        "$BIN" -q search --network "$net" --heuristic --format json >"$WORK/after.json"
    "$BIN" -q search --network "$net" --heuristic --no-lp --format json >"$WORK/before.json"
    read -r wall user sys peak <"$WORK/time"
    nodes=$(jq .nodes "$WORK/after.json")
    lp=$(jq .lp "$WORK/after.json")
    after=$(jq .time "$WORK/after.json")
    before=$(jq .time "$WORK/before.json")
    gap=$(awk -v a="$after" -v b="$lp" 'BEGIN { printf "%.1f", 100 * (a - b) / b }')
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$name" "$nodes" "$degree" "$lp" "$before" "$after" "$gap" "$wall" "$cpu" "$peak"
done
