#!/usr/bin/env bash
# LRAT checking speed: txverify's check of the LRAT proof its default solver
# (the bundled CaDiCaL) writes, against `rate`'s check of the DRAT proof an
# external CaDiCaL writes for the same formula (and drat-trim's, when installed).
#
#   1. `txverify search TBL --time T --any-length --jobs 1 --certificate DIR`
#      refutes T and leaves DIR/T<T>/{formula.cnf,proof.lrat,provenance.json};
#   2. `txverify verify-proof TBL DIR` (regenerates the formula, checks the LRAT),
#      RUNS times; the minimum wall time counts;
#   3. `cadical -q formula.cnf proof.drat` (binary DRAT), then `rate formula.cnf
#      proof.drat` and `drat-trim formula.cnf proof.drat`, RUNS times each.
# Prints each wall and CPU time, the peak resident set, and rate's time over
# txverify's (above 1: txverify is faster). A tool that is not installed is skipped.
#
# Usage: scripts/bench-lrat.sh [TBL] [T] [RUNS]
#   default: campaign/networks/ring16-cyclic-anylength.tbl 35 3 (the refutation of T = 35
#   takes minutes: run it on a quiet machine with a release build)
# Environment: TXVERIFY (default target/release/txverify), RATE (default rate),
#   DRAT_TRIM (default drat-trim), CADICAL (default cadical), KEEP=DIR to keep the files.
set -euo pipefail
cd "$(dirname "$0")/.."
tbl=${1:-campaign/networks/ring16-cyclic-anylength.tbl}
t=${2:-35}
runs=${3:-3}
txverify=${TXVERIFY:-target/release/txverify}
rate=${RATE:-rate}
drat_trim=${DRAT_TRIM:-drat-trim}
cadical=${CADICAL:-cadical}
[[ -x $txverify ]] || { echo "no $txverify: cargo build --release first" >&2; exit 2; }
if [[ -n ${KEEP:-} ]]; then work=$KEEP; mkdir -p "$work"; else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

# The minimum wall time (s), CPU time (user + system, s) and peak RSS (MB) of
# RUNS runs of a command (CPU time says more than wall time on a loaded
# machine); exit statuses in OK (a space-separated list) count as success.
best() {
  local ok=$1; shift
  local best_t="" best_c="" best_m=0 i rc secs user sys kb cpu
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -o "$work/time" -f '%e %U %S %M' "$@" >/dev/null 2>&1 && rc=0 || rc=$?
    [[ " $ok " == *" $rc "* ]] || { echo "failed ($rc): $*" >&2; exit 1; }
    read -r secs user sys kb <<<"$(tail -1 "$work/time")"
    cpu=$(echo "$user + $sys" | bc)
    if [[ -z $best_t ]] || (( $(echo "$secs < $best_t" | bc) )); then best_t=$secs; fi
    if [[ -z $best_c ]] || (( $(echo "$cpu < $best_c" | bc) )); then best_c=$cpu; fi
    ((kb / 1024 > best_m)) && best_m=$((kb / 1024))
  done
  echo "$best_t $best_c $best_m"
}

cert=$work/cert/T$t
if [[ ! -f $cert/proof.lrat ]]; then
  echo "== refuting T = $t of $tbl with the default solver (LRAT)" >&2
  start=$(date +%s.%N)
  "$txverify" -q search "$tbl" --time "$t" --any-length --jobs 1 --certificate "$work/cert" \
    >/dev/null && rc=0 || rc=$?
  ((rc == 1)) || { echo "search did not refute T = $t (exit $rc)" >&2; exit 1; }
  printf 'search with the LRAT certificate: %.1f s\n' "$(echo "$(date +%s.%N) - $start" | bc)"
fi
printf 'proof.lrat: %s bytes\n' "$(stat -c %s "$cert/proof.lrat")"
read -r tx_t tx_c tx_m <<<"$(best 0 "$txverify" -q verify-proof "$tbl" "$work/cert")"
echo "txverify verify-proof (LRAT): $tx_t s wall, $tx_c s CPU, $tx_m MB (min of $runs)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

if ! command -v "$cadical" >/dev/null; then echo "no $cadical: no DRAT to compare with"; exit 0; fi
if [[ ! -f $work/proof.drat ]]; then
  "$cadical" -q "$cert/formula.cnf" "$work/proof.drat" >/dev/null && rc=0 || rc=$?
  ((rc == 20)) || { echo "$cadical did not refute the formula (exit $rc)" >&2; exit 1; }
fi
printf 'proof.drat (%s): %s bytes\n' "$cadical" "$(stat -c %s "$work/proof.drat")"
if command -v "$rate" >/dev/null; then
  read -r rate_t rate_c rate_m <<<"$(best 0 "$rate" "$cert/formula.cnf" "$work/proof.drat")"
  echo "rate (DRAT): $rate_t s wall, $rate_c s CPU, $rate_m MB (min of $runs)"
  echo "ratio rate / txverify: wall $(echo "scale=2; $rate_t / $tx_t" | bc), CPU $(echo "scale=2; $rate_c / $tx_c" | bc)"
else
  echo "no $rate: skipped"
fi
if command -v "$drat_trim" >/dev/null; then
  read -r dt_t dt_c dt_m <<<"$(best "0 1" "$drat_trim" "$cert/formula.cnf" "$work/proof.drat")"
  echo "drat-trim (DRAT, backward): $dt_t s wall, $dt_c s CPU, $dt_m MB (min of $runs)"
  echo "ratio drat-trim / txverify: wall $(echo "scale=2; $dt_t / $tx_t" | bc), CPU $(echo "scale=2; $dt_c / $tx_c" | bc)"
else
  echo "no $drat_trim: skipped"
fi
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
