#!/usr/bin/env bash
# Solver benchmark: txverify's own solve against the external `cadical` binary on the
# same formula.
#
# For every instance below, at its optimal number of columns T (the kernel's lower bound,
# which the published constructions reach), the script
#   1. writes the formula with `txverify search FILE --time T --dimacs F` (timed: "encode"),
#   2. times `txverify search FILE --time T --solver varisat --jobs 1` (the main solver
#      alone: encoding, solving, decoding and the kernel's check of the table),
#   3. times the default `txverify search FILE --time T` of a build without features
#      (varisat, with the portfolio's helper on the second core),
#   4. times `txverify search FILE --time T --solver cadical --jobs 1` (linked CaDiCaL alone;
#      needs the `cadical` cargo feature),
#   5. times `txverify search FILE --time T --solver cadical` (CaDiCaL with the helper),
#   6. times the external `cadical F` on the formula (solving only),
# and prints a Markdown table with the ratios of the single-solver runs to the external one. Every solve has a
# time limit (LIMIT seconds, default 60); a solve that runs out is shown as "> LIMIT".
#
# Usage: scripts/bench-search.sh [NAME-PATTERN]
# Environment: LIMIT=60, CADICAL=cadical (the external binary; Debian package `cadical`).
# Needs: cargo, jq, bc, timeout (coreutils).
set -euo pipefail

cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-60}
CADICAL=${CADICAL:-cadical}
BIN=target/release/txverify
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

command -v "$CADICAL" >/dev/null || {
    echo "bench-search: no external $CADICAL (apt-get install cadical)" >&2
    exit 2
}
cargo build --release -q
cp target/release/txverify "$WORK/txverify-default"
cargo build --release --features cadical -q

ring() { echo "<y, Y | y^2 = Y^2 = (yY)^$(($1 / 2)) = 1>"; }
dim() { # one torus dimension: C_n for odd n, the seed's D_n (order n) for even n
    local n=$1 x=$2 X
    X=$(tr '[:lower:]' '[:upper:]' <<<"$x")
    if ((n % 2 == 1)); then echo "<$x | $x^$n = 1>"; else echo "<$x, $X | $x^2 = $X^2 = ($x$X)^$((n / 2)) = 1>"; fi
}
torus() {
    local letters=(a b c) i=0 out=""
    for n in "$@"; do
        [[ -n $out ]] && out+=" x "
        out+=$(dim "$n" "${letters[$i]}")
        i=$((i + 1))
    done
    echo "$out"
}
cube() {
    local letters=(a b c d e f g h) out="" i
    for ((i = 0; i < $1; i++)); do
        [[ -n $out ]] && out+=" x "
        out+="<${letters[$i]} | ${letters[$i]}^2 = 1>"
    done
    echo "$out"
}

instances() { # NAME @ GROUP @ NETWORK
    for n in 8 12 16 20 24 32 40; do echo "ring$n-dihedral@$(ring "$n")@ring $n"; done
    for d in 3 4 5 6 7; do echo "cube$d@$(cube "$d")@hypercube $d"; done
    for s in "3 3" "5 5" "6 6" "7 7" "6 8" "8 8" "9 9" "5 5 5"; do
        echo "torus${s// /x}@$(torus $s)@torus $s"
    done
}

# Runs a command with the time limit; prints its wall-clock seconds, or "> LIMIT".
timed() {
    local start rc secs
    start=$(date +%s.%N)
    timeout "$((LIMIT + 5))" "$@" >/dev/null 2>&1 && rc=0 || rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    if ((rc == 124)) || ((rc == 4)) || (($(echo "$secs > $LIMIT" | bc))); then
        echo "> $LIMIT"
    elif ((rc == 0 || rc == 10 || rc == 20)); then
        printf '%.2f' "$secs"
    else
        echo "error $rc"
    fi
}

ratio() { # ratio A B: A / B when both are numbers
    if [[ $1 =~ ^[0-9.]+$ && $2 =~ ^[0-9.]+$ ]] && (($(echo "$2 > 0" | bc))); then
        printf '%.1f' "$(echo "scale=3; $1 / $2" | bc)"
    else
        echo "—"
    fi
}

pattern=${1:-.}
echo "| instance | \|G\| | T | vars | clauses | encode (s) | varisat alone (s) | default: varisat + helper (s) | cadical alone (s) | cadical + helper (s) | external cadical (s) | varisat / ext | cadical / ext |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
while IFS='@' read -r name group network; do
    [[ $name =~ $pattern ]] || continue
    file=$WORK/$name.tbl
    printf 'name: %s\ngroup: %s\nnetwork: %s\ntable:\n' "$name" "$group" "$network" >"$file"
    json=$($BIN check --no-simulate --format json "$file" || true)
    t=$(jq -r '.bound.value' <<<"$json")
    order=$(jq -r '.group.order' <<<"$json")
    cnf=$WORK/$name.cnf
    encode=$(timed "$BIN" search "$file" --time "$t" --dimacs "$cnf" -q)
    read -r _ _ vars clauses < <(grep -m1 '^p cnf' "$cnf")
    varisat=$(timed "$BIN" search "$file" --time "$t" --solver varisat --jobs 1 --time-limit "$LIMIT" -q)
    default=$(timed "$WORK/txverify-default" search "$file" --time "$t" --jobs 2 --time-limit "$LIMIT" -q)
    linked=$(timed "$BIN" search "$file" --time "$t" --solver cadical --jobs 1 --time-limit "$LIMIT" -q)
    both=$(timed "$BIN" search "$file" --time "$t" --solver cadical --jobs 2 --time-limit "$LIMIT" -q)
    external=$(timed "$CADICAL" -q "$cnf")
    rm -f "$cnf"
    echo "| $name | $order | $t | $vars | $clauses | $encode | $varisat | $default | $linked | $both | $external | $(ratio "$varisat" "$external") | $(ratio "$linked" "$external") |"
done < <(instances)
