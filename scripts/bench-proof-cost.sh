#!/usr/bin/env bash
# The cost of proof output on the default solver: for every network of
# campaign/networks/ whose search ends within LIMIT seconds, the wall time of a
# minimising search (`txverify search NET.tbl`, `--any-length` for the
# *-anylength networks, `--jobs 1`) without and with `--certificate DIR`, the
# minimum of RUNS runs each (wall and CPU), and their ratios. With the bundled CaDiCaL the
# certificate runs write CaDiCaL's LRAT for every refuted T and check it before
# answering; networks whose search refutes nothing pay nothing, and the ratio
# there shows the noise. Target: ratio <= 1.3.
#
# Usage: scripts/bench-proof-cost.sh [NAME-PATTERN]   (grep -E on the file names)
# Environment: TXVERIFY (default target/release/txverify), RUNS (3), LIMIT (30).
set -euo pipefail
cd "$(dirname "$0")/.."
txverify=${TXVERIFY:-target/release/txverify}
runs=${RUNS:-3}
limit=${LIMIT:-30}
pattern=${1:-.}
[[ -x $txverify ]] || { echo "no $txverify: cargo build --release first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The minimum wall time and the minimum CPU time (user + system, all threads) of
# RUNS runs of a search (exit 0 found, 1 none), as "WALL CPU"; empty when a run
# runs out of the limit. On a loaded machine the CPU time is the fairer measure.
best() {
  local best_t="" best_c="" i rc secs user sys cpu
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/cert"
    timeout "$limit" /usr/bin/time -o "$work/time" -f '%e %U %S' "$@" >/dev/null 2>&1 \
      && rc=0 || rc=$?
    ((rc == 0 || rc == 1)) || { echo ""; return; }
    read -r secs user sys <<<"$(tail -1 "$work/time")"
    cpu=$(echo "$user + $sys" | bc)
    if [[ -z $best_t ]] || (( $(echo "$secs < $best_t" | bc) )); then best_t=$secs; fi
    if [[ -z $best_c ]] || (( $(echo "$cpu < $best_c" | bc) )); then best_c=$cpu; fi
  done
  echo "$best_t $best_c"
}

printf '%-28s %8s %8s %6s %8s %8s %6s %s\n' network wall wall+cert ratio cpu cpu+cert ratio refuted
worst=0
for tbl in campaign/networks/*.tbl; do
  name=$(basename "$tbl" .tbl)
  grep -qE "$pattern" <<<"$name" || continue
  options=(-q search "$tbl" --jobs 1)
  [[ $name == *-anylength ]] && options+=(--any-length)
  plain=$(best "$txverify" "${options[@]}")
  if [[ -z $plain ]]; then printf '%-28s %8s\n' "$name" "> ${limit}s"; continue; fi
  certified=$(best "$txverify" "${options[@]}" --certificate "$work/cert")
  if [[ -z $certified ]]; then printf '%-28s %8s %8s\n' "$name" "${plain%% *}" "> ${limit}s"; continue; fi
  refuted=$(find "$work/cert" -name provenance.json 2>/dev/null | wc -l)
  read -r pw pc <<<"$plain"
  read -r cw cc <<<"$certified"
  wr=-
  (( $(echo "$pw > 0" | bc) )) && wr=$(echo "scale=2; $cw / $pw" | bc)
  cr=-
  (( $(echo "$pc > 0" | bc) )) && cr=$(echo "scale=2; $cc / $pc" | bc)
  printf '%-28s %8s %8s %6s %8s %8s %6s %s\n' "$name" "$pw" "$cw" "$wr" "$pc" "$cc" "$cr" "$refuted"
  # Only searches of a second or more say anything: below, timer and load noise.
  if ((refuted > 0)) && (( $(echo "$pc >= 1 && $cr > $worst" | bc) )); then worst=$cr; fi
done
echo "largest CPU ratio among networks with a refutation and 1 s of CPU or more: $worst (load $(cut -d' ' -f1-3 /proc/loadavg))"
