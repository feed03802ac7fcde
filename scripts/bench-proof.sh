#!/usr/bin/env bash
# Times txverify's DRAT checker (verify-proof --cnf, release build) beside rate
# and drat-trim (where installed) on one formula and proof: the minimum wall
# time of N runs, the peak resident set of the fastest run (/usr/bin/time -v),
# each checker's verdict, and the ratios to rate. Prints the load average
# before and after, since a shared machine changes the times.
# Usage: scripts/bench-proof.sh FORMULA.cnf PROOF [N]   (N default 3)
#   TXVERIFY=path  (default: target/release/txverify)
#   RATE=path DRAT_TRIM=path  (default: found on PATH)
set -uo pipefail
cnf="${1:?usage: bench-proof.sh FORMULA.cnf PROOF [N]}"
proof="${2:?usage: bench-proof.sh FORMULA.cnf PROOF [N]}"
runs="${3:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
txverify="${TXVERIFY:-$root/target/release/txverify}"
rate="${RATE:-$(command -v rate || true)}"
drat_trim="${DRAT_TRIM:-$(command -v drat-trim || true)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }

# Runs a checker N times; prints "seconds peak_kB verdict" of the fastest run.
bench() {
  local best="" best_kb="" verdict=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -v -o "$tmp/time" "$@" > "$tmp/out" 2>&1
    local s kb
    s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); t=0; for(i=1;i<=n;i++) t=t*60+a[i]; print t}' "$tmp/time")
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; best_kb=$kb; fi
    tr '\r' '\n' < "$tmp/out" > "$tmp/lines"  # drat-trim's progress lines use \r
    if grep -q '^s VERIFIED' "$tmp/lines"; then verdict=VERIFIED
    elif grep -q 'NOT VERIFIED' "$tmp/lines"; then verdict=NOT-VERIFIED
    else verdict=none; fi
  done
  echo "$best $best_kb $verdict"
}

echo "formula $cnf, proof $proof ($(du -h "$proof" | cut -f1)), min of $runs runs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %10s %12s %-13s %s\n' checker seconds peak_MB verdict "vs rate (time, memory)"
declare -A secs kbs
for name in rate txverify drat-trim; do
  case $name in
    txverify) cmd=("$txverify" -q verify-proof --cnf "$cnf" "$proof") ;;
    rate) [ -n "$rate" ] || continue; cmd=("$rate" "$cnf" "$proof") ;;
    drat-trim) [ -n "$drat_trim" ] || continue; cmd=("$drat_trim" "$cnf" "$proof") ;;
  esac
  read -r s kb verdict < <(bench "${cmd[@]}")
  secs[$name]=$s; kbs[$name]=$kb
  ratio="-"
  if [ -n "${secs[rate]:-}" ]; then
    ratio=$(awk "BEGIN{printf \"%.2fx, %.2fx\", $s/${secs[rate]}, $kb/${kbs[rate]}}")
  fi
  printf '%-10s %10.2f %12.1f %-13s %s\n' "$name" "$s" "$(awk "BEGIN{print $kb/1024}")" "$verdict" "$ratio"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
