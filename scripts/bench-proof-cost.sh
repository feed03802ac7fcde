#!/usr/bin/env bash
# The cost of proof output on the default solver: for every network of
# campaign/networks/ whose search ends within LIMIT seconds, the wall time of a
# minimising search (`txverify search NET.tbl`, `--any-length` for the
# *-anylength networks, `--jobs 1`) without and with `--certificate DIR`, the
# minimum of RUNS runs each, and their ratio. With the bundled CaDiCaL the
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

# Minimum wall time of RUNS runs of a search (exit 0 found, 1 none); empty when one
# runs out of the limit.
best() {
  local best_t="" i start secs rc
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/cert"
    start=$(date +%s.%N)
    timeout "$limit" "$@" >/dev/null 2>&1 && rc=0 || rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    ((rc == 0 || rc == 1)) || { echo ""; return; }
    if [[ -z $best_t ]] || (( $(echo "$secs < $best_t" | bc) )); then best_t=$secs; fi
  done
  echo "$best_t"
}

printf '%-28s %9s %9s %6s %s\n' network plain certified ratio refuted
worst=0
for tbl in campaign/networks/*.tbl; do
  name=$(basename "$tbl" .tbl)
  grep -qE "$pattern" <<<"$name" || continue
  options=(-q search "$tbl" --jobs 1)
  [[ $name == *-anylength ]] && options+=(--any-length)
  plain=$(best "$txverify" "${options[@]}")
  if [[ -z $plain ]]; then printf '%-28s %9s\n' "$name" "> ${limit}s"; continue; fi
  certified=$(best "$txverify" "${options[@]}" --certificate "$work/cert")
  refuted=$(find "$work/cert" -name provenance.json 2>/dev/null | wc -l)
  if [[ -z $certified ]]; then printf '%-28s %9.2f %9s\n' "$name" "$plain" "> ${limit}s"; continue; fi
  ratio=$(echo "scale=2; $certified / $plain" | bc)
  printf '%-28s %9.2f %9.2f %6s %s\n' "$name" "$plain" "$certified" "$ratio" "$refuted"
  if ((refuted > 0)) && (( $(echo "$ratio > $worst" | bc) )); then worst=$ratio; fi
done
echo "largest ratio among networks with a refutation: $worst (load $(cut -d' ' -f1-3 /proc/loadavg))"
