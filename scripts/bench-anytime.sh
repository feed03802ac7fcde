#!/usr/bin/env bash
# The anytime `search --network` (docs/schedules-any.md, "Anytime search") on
# examples/networks/dragonfly20.edges, release build: the target is a schedule of at
# most 17 steps in -o within 21 s with `--deadline 20`. Prints when -o first held a
# schedule, the wall clock of the whole command, its exit status, and the time of the
# schedule in -o as `simulate` replays it, with the report's bound, gap and `stopped`.
#
# Usage: scripts/bench-anytime.sh
# Environment: DEADLINE=20 (seconds given to --deadline).
# Needs: cargo, jq.
set -euo pipefail

cd "$(dirname "$0")/.."
DEADLINE=${DEADLINE:-20}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cargo build --release -q --bin txverify
BIN=target/release/txverify
OUT="$WORK/dragonfly20.sched"

# Seconds since START, two decimals.
since() { awk -v now="$(date +%s.%N)" -v start="$1" 'BEGIN { printf "%.2f", now - start }'; }

start=$(date +%s.%N)
"$BIN" -q search --network 'edges examples/networks/dragonfly20.edges' --no-lp \
    --deadline "$DEADLINE" -o "$OUT" --format json >"$WORK/report.json" &
pid=$!
first=""
while kill -0 "$pid" 2>/dev/null; do
    if [[ -z "$first" && -e "$OUT" ]]; then
        first=$(since "$start")
    fi
    sleep 0.05
done
status=0
wait "$pid" || status=$?
end=$(since "$start")

echo "first schedule in -o after: ${first:-never} s"
echo "command ended after:        $end s (exit $status)"
echo "schedule in -o (simulate):  $("$BIN" simulate "$OUT" --format json | jq .time) steps"
jq -r '"report: time \(.time), bound \(.lower_bound), gap \(.gap), stopped \(.stopped), improvements \([.improvements[] | "\(.time) (\(.found_by), \(.seconds | . * 100 | round / 100) s)"] | join(" -> "))"' \
    "$WORK/report.json"
