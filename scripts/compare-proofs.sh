#!/usr/bin/env bash
# Runs txverify's checker (verify-proof --cnf), rate and drat-trim (those that
# are installed) on every formula/proof pair of a directory and prints a table
# of their verdicts. A proof NAME.drat, NAME.drup, NAME.lrat (or NAME.KIND.drat
# for a mutated proof) is checked against NAME.cnf, looked up in DIR, then in
# FORMULA_DIR. `.bz2` proofs are unpacked to a temporary file first. LRAT
# proofs go to lrat-check (drat-trim's LRAT checker) instead of drat-trim, and
# rate is given DRAT only.
# Usage: scripts/compare-proofs.sh DIR [FORMULA_DIR]
#   TXVERIFY=path  (default: target/release/txverify)
#   RATE=path DRAT_TRIM=path LRAT_CHECK=path  (default: found on PATH)
set -uo pipefail
dir="${1:?usage: compare-proofs.sh DIR [FORMULA_DIR]}"
formulas="${2:-$dir}"
root="$(cd "$(dirname "$0")/.." && pwd)"
txverify="${TXVERIFY:-$root/target/release/txverify}"
rate="${RATE:-$(command -v rate || true)}"
drat_trim="${DRAT_TRIM:-$(command -v drat-trim || true)}"
lrat_check="${LRAT_CHECK:-$(command -v lrat-check || true)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The verdict of a checker's output: VERIFIED, NOT-VERIFIED, or what it said.
verdict() {
  # (drat-trim starts its progress lines with a carriage return)
  tr '\r' '\n' < "$1" > "$1.lines"; mv "$1.lines" "$1"
  if grep -q '^s VERIFIED' "$1" || grep -q '^c VERIFIED' "$1"; then echo VERIFIED
  elif grep -q 'NOT VERIFIED' "$1" || grep -qi 'FAILED' "$1"; then echo NOT-VERIFIED
  elif [ "$2" = 2 ]; then echo "unreadable"
  else echo "none(exit $2)"
  fi
}

run() { # name, output file, command...
  local out="$2"; shift 2
  timeout 600 "$@" > "$out" 2>&1
  verdict "$out" $?
}

printf '%-34s %-14s %-14s %-14s %s\n' proof txverify rate drat-trim agree
for proof in "$dir"/*.drat "$dir"/*.drup "$dir"/*.lrat "$dir"/*.drat.bz2; do
  [ -f "$proof" ] || continue
  name="$(basename "$proof")"
  stem="${name%%.*}"
  cnf="$dir/$stem.cnf"
  [ -f "$cnf" ] || cnf="$formulas/$stem.cnf"
  [ -f "$cnf" ] || { printf '%-34s (no %s.cnf)\n' "$name" "$stem"; continue; }
  file="$proof"
  case "$name" in
    *.bz2) file="$tmp/${name%.bz2}"; bzip2 -dc "$proof" > "$file" ;;
  esac
  kind=drat
  case "$file" in *.lrat) kind=lrat ;; esac
  ours="$(run txverify "$tmp/t" "$txverify" -q verify-proof --cnf "$cnf" "$file" --proof-format "$kind")"
  theirs_rate="-"; theirs_dt="-"
  if [ "$kind" = drat ]; then
    [ -n "$rate" ] && theirs_rate="$(run rate "$tmp/r" "$rate" "$cnf" "$file")"
    [ -n "$drat_trim" ] && theirs_dt="$(run drat-trim "$tmp/d" "$drat_trim" "$cnf" "$file")"
  elif [ -n "$lrat_check" ]; then
    theirs_dt="$(run lrat-check "$tmp/d" "$lrat_check" "$cnf" "$file")"
  fi
  agree=yes
  for other in "$theirs_rate" "$theirs_dt"; do
    [ "$other" = "-" ] || [ "$other" = "$ours" ] || agree=NO
  done
  printf '%-34s %-14s %-14s %-14s %s\n' "$name" "$ours" "$theirs_rate" "$theirs_dt" "$agree"
done
