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
#      time against the bound, seconds;
#   5. the heuristic on the networks of issue 38 (second table): tori and a twisted
#      torus given as edge lists, with and without failed links, random 3-regular
#      graphs of 60 to 1,000 nodes, and with SCALE=1 the 16×16×16 torus (4,096 nodes),
#      each with its wall clock and maximum resident memory (`/usr/bin/time`).
#
# The random graphs come from `cargo run --release --example random_regular -- N 3 SEED`
# (configuration model, seeded: the same graphs everywhere); the edge lists of named
# networks, with failed links drawn by a seeded generator, from
# `cargo run --release --example network_edges -- NAME [FAILED SEED]`. All are written
# in a temporary directory and removed.
#
# Usage: scripts/bench-any.sh
# Environment: SEEDS20=5, SEEDS1000=3, LIMIT=12 (seconds per T for SAT, upward),
# LIMIT_DOWN=45 (seconds per T, `--descending`: it stops at the first T out of time),
# ONLY=heuristic (the second table alone), SCALE=1 (add the 4,096-node tori).
# Needs: cargo, jq, GNU time (/usr/bin/time).
set -euo pipefail

cd "$(dirname "$0")/.."
SEEDS20=${SEEDS20:-5}
SEEDS1000=${SEEDS1000:-3}
LIMIT=${LIMIT:-12}
LIMIT_DOWN=${LIMIT_DOWN:-45}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cargo build --release -q --bin txverify --example random_regular --example network_edges
BIN=target/release/txverify
GEN=target/release/examples/random_regular
EDGES=target/release/examples/network_edges
ONLY=${ONLY:-}
SCALE=${SCALE:-}

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

# The second table: `search --heuristic` on FILE, named NAME, with the best bound
# issue 38 knew (BEST, or - when it gave none): one row with wall-clock and CPU
# seconds (user + system) and maximum RSS.
heuristic_row() { # NAME FILE BEST
    local json
    json=$(/usr/bin/time -f '%e %U %S %M' -o "$WORK/t" "$BIN" search --network "edges $2" \
        --heuristic --format json 2>/dev/null || true)
    read -r secs user system rss <"$WORK/t"
    cpu=$(echo "$user $system" | awk '{ printf "%.1f", $1 + $2 }')
    jq -r --arg name "$1" --arg lp "$3" --arg s "$secs / $cpu" --arg rss "$rss" \
        '"| \($name) | \(.nodes) | \(.lower_bound) (\(.bound_name)) | \($lp) | \(.time // "none") | \(if .ratio then (.ratio * 1000 | round / 1000) else "-" end) | \($s) | \(($rss | tonumber) / 1024 | round) MiB |"' <<<"$json"
}

heuristic_table() {
    echo "| network | nodes | bound (txverify) | best bound known (issue 38) | schedule | schedule / bound | seconds (wall / CPU) | max RSS |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    "$EDGES" 'torus 8 8 8' >"$WORK/t888.edges"
    heuristic_row "8×8×8 torus as an edge list" "$WORK/t888.edges" 512
    "$EDGES" 'torus 8 8 8' 4 1 >"$WORK/t888f4.edges"
    heuristic_row "8×8×8 torus, 4 links failed" "$WORK/t888f4.edges" -
    "$EDGES" 'twisted 8 8 16' >"$WORK/tw.edges"
    heuristic_row "twisted 8×8×16 as an edge list" "$WORK/tw.edges" 1190
    "$EDGES" 'torus 6 6 6' 3 1 >"$WORK/t666f3.edges"
    heuristic_row "6×6×6 torus, 3 links failed" "$WORK/t666f3.edges" -
    for n in 60 120 200; do
        "$GEN" "$n" 3 1 >"$WORK/r$n.edges"
        heuristic_row "random 3-regular, seed 1" "$WORK/r$n.edges" -
    done
    for seed in $(seq 1 "$SEEDS1000"); do
        "$GEN" 1000 3 "$seed" >"$WORK/r1000-$seed.edges"
        heuristic_row "random 3-regular, seed $seed" "$WORK/r1000-$seed.edges" -
    done
    if [ -n "$SCALE" ]; then
        "$EDGES" 'torus 16 16 16' >"$WORK/t16.edges"
        heuristic_row "16×16×16 torus as an edge list" "$WORK/t16.edges" -
        "$EDGES" 'torus 16 16 16' 8 1 >"$WORK/t16f8.edges"
        heuristic_row "16×16×16 torus, 8 links failed" "$WORK/t16f8.edges" -
    fi
}

if [ "$ONLY" = heuristic ]; then
    heuristic_table
    exit 0
fi

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
echo
heuristic_table
