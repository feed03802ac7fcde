#!/usr/bin/env bash
# `txverify check DIR` with --jobs 1 and --jobs 2, for docs/ci.md ("Speed"): RUNS runs
# of each (alternating, so a change of the machine's load hits both alike), then the
# minimum and the median wall time of each process (start-up included), the
# speed-ups, and whether the minima meet the target of --jobs 2 being at least
# TARGET (1.6) times faster than --jobs 1.
#
# Usage: scripts/bench-check.sh [DIR]      (default tables/; RUNS=10; BIN=target/release/txverify)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-tables/}
runs=${RUNS:-10}
target=${TARGET:-1.6}
bin=${BIN:-target/release/txverify}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }

time_one() { # jobs -> seconds of wall time of the whole process
  local start end
  start=$EPOCHREALTIME # bash 5: no process started to read the clock
  "$bin" check "$dir" --jobs "$1" > /dev/null
  end=$EPOCHREALTIME
  echo "$end - $start" | bc -l
}

one=() two=()
"$bin" check "$dir" --jobs 2 > /dev/null # warm the file cache
for _ in $(seq "$runs"); do
  one+=("$(time_one 1)")
  two+=("$(time_one 2)")
done
stats() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { printf "%.3f %.3f", a[1], a[int((NR + 1) / 2)] }'; }
read -r min1 med1 <<< "$(stats "${one[@]}")"
read -r min2 med2 <<< "$(stats "${two[@]}")"
echo "files:   $("$bin" check "$dir" --jobs 2 | tail -n 1)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) (1, 5, 15 min), $(nproc) cores"
echo "jobs 1:  min ${min1} s, median ${med1} s ($runs runs)"
echo "jobs 2:  min ${min2} s, median ${med2} s ($runs runs)"
ratio=$(echo "$min1 / $min2" | bc -l)
echo "speed-up (minima): $(echo "$ratio" | cut -c1-4)x, (medians): $(echo "$med1 / $med2" | bc -l | cut -c1-4)x"
if [ "$(echo "$ratio >= $target" | bc -l)" = 1 ]; then
  echo "target:  met (minima ratio >= ${target}x)"
else
  echo "target:  NOT met (minima ratio < ${target}x; on a loaded machine this says little)"
fi
