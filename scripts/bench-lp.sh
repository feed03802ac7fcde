#!/usr/bin/env bash
# The LP bound (docs/schedules-any.md, "The LP bound"): for random 3-regular graphs and
# tori as edge lists (some with failed links), the link-load, cut and LP bounds, the
# search's bracket [dual, primal] of the LP optimum, and its seconds
# (crates/core/examples/lp_probe.rs); with EXACT=1 also the exact LP optimum of the
# graphs up to 200 nodes (scripts/lp-exact.py: needs python3 with numpy and scipy; the
# 120-node LP takes minutes, the 200-node one much longer).
#
# Usage: scripts/bench-lp.sh [--large]   (--large: also 512, 1,024 and 4,096 nodes)
set -euo pipefail

cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cargo build --release -q -p txverify-core --example lp_probe
cargo build --release -q --example random_regular
PROBE=target/release/examples/lp_probe

# torus SIDES FAILED: a torus (sides joined by x) as an edge list, FAILED links dropped
# at random (seeded).
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

nets=()
for n in 60 120 200; do
    target/release/examples/random_regular "$n" 3 1 >"$WORK/rr$n.edges"
    nets+=("edges $WORK/rr$n.edges")
done
torus 6x6x6 3 >"$WORK/t6f3.edges"
nets+=("edges $WORK/t6f3.edges")
if [[ "${1:-}" == --large ]]; then
    torus 8x8x8 0 >"$WORK/t8.edges"
    torus 8x8x8 4 >"$WORK/t8f4.edges"
    torus 16x16x16 0 >"$WORK/t16.edges"
    nets+=("edges $WORK/t8.edges" "edges $WORK/t8f4.edges" "twisted 8 8 16" "edges $WORK/t16.edges")
fi
"$PROBE" "${nets[@]}"
if [[ "${EXACT:-0}" == 1 ]]; then
    python3 scripts/lp-exact.py "$WORK"/rr60.edges "$WORK"/rr120.edges "$WORK"/rr200.edges
fi
