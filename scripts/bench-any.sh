#!/usr/bin/env bash
# Schedules on networks that no family describes (docs/schedules-any.md): prints the
# figures of the page, measured end to end on a release build (read the edge list,
# build the graph, bounds, schedule, replay, verdict; the wall clock of the command).
#
#   1. the Petersen graph (an edge list written here): `search --network`, SAT;
#   2. K3,3 plus one link: SAT with any paths and a certificate for T − 1, checked
#      again by `verify-proof --network`;
#   3. random 3-regular graphs on 20 nodes (seeds 1..SEEDS20): `--ascending` (the
#      heuristic, then SAT on shortest paths for each T from the bound up to the
#      heuristic's time minus one, LIMIT seconds each), and `--descending`, the default
#      (from the heuristic's time minus one down, LIMIT_DOWN seconds each), against the bound;
#   4. random 3-regular graphs on 1000 nodes (seeds 1..SEEDS1000): `--heuristic`,
#      time against the bound, seconds.
#
# The random graphs come from `cargo run --release --example random_regular -- N 3 SEED`
# (configuration model, seeded: the same graphs everywhere).
#
# Usage: scripts/bench-any.sh
# Environment: SEEDS20=5, SEEDS1000=3, LIMIT=12 (seconds per T for SAT, upward),
# LIMIT_DOWN=45 (seconds per T, `--descending`: it stops at the first T out of time).
# Needs: cargo, jq.
set -euo pipefail

cd "$(dirname "$0")/.."
SEEDS20=${SEEDS20:-5}
SEEDS1000=${SEEDS1000:-3}
LIMIT=${LIMIT:-12}
LIMIT_DOWN=${LIMIT_DOWN:-45}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cargo build --release -q --bin txverify --example random_regular
BIN=target/release/txverify
GEN=target/release/examples/random_regular

# Runs txverify with ARGS…, prints its JSON report, and the wall-clock seconds on fd 3.
timed() {
    local start end
    start=$(date +%s.%N)
    "$BIN" "$@" 2>/dev/null || true
    end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.2f\n", $2 - $1 }' >&3
}

row() { # NAME JSON SECONDS
    jq -r --arg name "$1" --arg s "$3" \
        '"| \($name) | \(.nodes) | \(.lower_bound) | \(.time // "none") | \(.found_by // "-") | \(if .ratio then (.ratio * 1000 | round / 1000) else "-" end) | \(.optimal_by // "-") | \(.unknown | length) | \($s) |"' <<<"$2"
}

echo "| network | nodes | bound | time | found by | time / bound | optimal by | T unknown | seconds |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"

printf '0 1\n1 2\n2 3\n3 4\n4 0\n0 5\n1 6\n2 7\n3 8\n4 9\n5 7\n7 9\n9 6\n6 8\n8 5\n' >"$WORK/petersen.edges"
json=$(timed search --network "edges $WORK/petersen.edges" --format json 3>"$WORK/s")
row "Petersen (default)" "$json" "$(cat "$WORK/s")"
json=$(timed search --network "edges $WORK/petersen.edges" --time 5 --format json 3>"$WORK/s")
row "Petersen (SAT, --time 5)" "$json" "$(cat "$WORK/s")"

printf '0 1\n0 4\n0 5\n2 1\n2 4\n2 5\n3 1\n3 4\n3 5\n0 3\n' >"$WORK/k33e.edges"
json=$(timed search --network "edges $WORK/k33e.edges" --any-length --certificate "$WORK/cert" \
    --format json 3>"$WORK/s")
row "K3,3 + link (any paths, certificate)" "$json" "$(cat "$WORK/s")"
checked=$("$BIN" verify-proof --network "edges $WORK/k33e.edges" "$WORK/cert" --format json |
    jq -r '"T=\(.time): verified \(.verified), covers all schedules \(.covers_all_schedules), \(.lemmas) lemmas"')

for seed in $(seq 1 "$SEEDS20"); do
    "$GEN" 20 3 "$seed" >"$WORK/r20-$seed.edges"
    json=$(timed search --network "edges $WORK/r20-$seed.edges" --ascending --time-limit "$LIMIT" \
        --format json 3>"$WORK/s")
    row "random 3-regular, seed $seed (search --ascending)" "$json" "$(cat "$WORK/s")"
    json=$(timed search --network "edges $WORK/r20-$seed.edges" --descending \
        --time-limit "$LIMIT_DOWN" --format json 3>"$WORK/s")
    row "random 3-regular, seed $seed (search --descending)" "$json" "$(cat "$WORK/s")"
done

for seed in $(seq 1 "$SEEDS1000"); do
    "$GEN" 1000 3 "$seed" >"$WORK/r1000-$seed.edges"
    json=$(timed search --network "edges $WORK/r1000-$seed.edges" --heuristic --format json \
        3>"$WORK/s")
    row "random 3-regular, seed $seed (heuristic)" "$json" "$(cat "$WORK/s")"
done

echo
echo "verify-proof on the K3,3 + link certificate: $checked"
