#!/usr/bin/env bash
# Search campaign: networks the tabular-method paper does not cover.
#
# For every network in the list below this script
#   1. writes its header to campaign/networks/NAME.tbl (group, links, network, source),
#   2. asks the kernel for the lower bound (`txverify check --format json`),
#   3. runs `txverify search` from the bound upwards, with a time limit per number of
#      columns and a certificate for every number of columns shown infeasible,
#   4. keeps a table it finds as tables/found/NAME.tbl after `txverify check` accepts it
#      (kernel and simulation),
#   5. verifies each certificate proofs/NAME/T<t>/ with `txverify verify-proof` and keeps
#      its provenance.json and proof.drat when the proof is small (KEEP_BYTES below); the
#      formula is never kept (verify-proof regenerates it; `--dimacs` writes it again),
#   6. appends one line per network to campaign/results.tsv.
# `scripts/campaign.sh --markdown` prints campaign/results.tsv as the table of docs/results.md.
#
# Usage:
#   scripts/campaign.sh [NAME-PATTERN]        run the networks whose name matches (grep -E)
#   scripts/campaign.sh --list                list the networks
#   scripts/campaign.sh --markdown            print the results table
# Environment:
#   LIMIT=120       seconds per number of columns (`--time-limit`)
#   SOLVER=cadical  solver for the search (`--solver`); CaDiCaL writes the LRAT proof of
#                   each certificate as it refutes. Falls back to varisat (DRAT proofs)
#                   when the build has no CaDiCaL.
#   KEEP_BYTES=2000000  largest proof committed; larger certificates are deleted (the
#                   results say "not kept"; the same command rebuilds them).
# Needs: cargo, jq. Re-running a network replaces its table, proofs and results line.
set -euo pipefail

cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-120}
SOLVER=${SOLVER:-cadical}
KEEP_BYTES=${KEEP_BYTES:-2000000}
RESULTS=campaign/results.tsv
BIN=target/release/txverify

# ---------------------------------------------------------------------------------------
# Presentations. One dimension of a torus (or a ring) of side n, with generator letter x:
# the cyclic group C_n for odd n (one generator x, links x and x'), the seed's dihedral
# group D_n of order n for even n (two involutions x and X whose product has order n/2;
# its Cayley graph on {x, X} is the n-cycle), C_2 for n = 2 (one link).
dim() { # dim N LETTER [cyclic]
    local n=$1 x=$2 kind=${3:-default}
    local X
    X=$(tr '[:lower:]' '[:upper:]' <<<"$x")
    if ((n == 2)); then
        echo "<$x | $x^2 = 1>"
    elif ((n % 2 == 1)) || [[ $kind == cyclic ]]; then
        echo "<$x | $x^$n = 1>"
    else
        echo "<$x, $X | $x^2 = $X^2 = ($x$X)^$((n / 2)) = 1>"
    fi
}

torus_group() { # torus_group [cyclic] N1 N2 ...
    local kind=default
    if [[ $1 == cyclic ]]; then
        kind=cyclic
        shift
    fi
    local letters=(a b c d) i=0 out=""
    for n in "$@"; do
        [[ -n $out ]] && out+=" x "
        out+=$(dim "$n" "${letters[$i]}" "$kind")
        i=$((i + 1))
    done
    echo "$out"
}

# The symmetric group S4 on the star transpositions a = (1 2), b = (1 3), c = (1 4):
# involutions, products of two of order 3, and (t_i t_j t_i t_k)^2 = 1 (t_i t_j t_i is the
# transposition (j k), which commutes with (1 l)). Its Cayley graph is the 4-star.
S4_STAR="<a, b, c | a^2 = b^2 = c^2 = (ab)^3 = (ac)^3 = (bc)^3 = (abac)^2 = (babc)^2 = (cacb)^2 = 1>"

# ---------------------------------------------------------------------------------------
# The networks: NAME | GROUP | NETWORK (empty: the Cayley graph itself) | LINKS (empty:
# default) | EXTRA SEARCH OPTIONS | MAX EXTRA COLUMNS above the bound | NOTE
networks() {
    local n m
    # Rectangular 2D tori n x m, 3 <= n < m <= 8.
    for n in 3 4 5 6 7; do
        for m in $(seq $((n + 1)) 8); do
            echo "torus${n}x${m}@$(torus_group "$n" "$m")@torus $n $m@@@4@"
        done
    done
    # 3D tori.
    for dims in "2 4 4" "3 3 4" "3 3 5" "2 3 4" "3 4 5"; do
        echo "torus${dims// /x}@$(torus_group $dims)@torus $dims@@@4@"
    done
    # Without a symmetry, T = 72 runs out of time (a 73-column table is found); tables
    # equal to their time reversal are found at T = 72 in about 40 s.
    echo "torus4x4x6@$(torus_group 4 4 6)@torus 4 4 6@@--symmetry reverse@4@"
    # The 4-star graph.
    echo "star4@$S4_STAR@@@@4@S4 on the star transpositions (1 2), (1 3), (1 4)"
    # Even rings and tori with the cyclic group: the counting bound is not reached by the
    # published tables; find the optimum of each class.
    for n in 4 6 8 10 12 14 16 18 20; do
        local extra=$(((n * n + 2 * n) / 8 - n * n / 8 + 1))
        echo "ring${n}-cyclic@$(dim "$n" a cyclic)@ring $n@@@$extra@the cyclic group on an even ring"
        echo "ring${n}-cyclic-anylength@$(dim "$n" a cyclic)@ring $n@@--any-length@$extra@the cyclic group on an even ring, words of any length"
    done
    for n in 4 6; do
        echo "torus${n}x${n}-cyclic@$(torus_group cyclic $n $n)@torus $n $n@@@4@the cyclic group on an even torus"
        echo "torus${n}x${n}-cyclic-anylength@$(torus_group cyclic $n $n)@torus $n $n@@--any-length@4@the cyclic group on an even torus, words of any length"
    done
    # Small non-abelian Cayley graphs.
    echo "s3-prism@<r, s | r^3 = s^2 = (rs)^2 = 1>@@@@3@S3 on a 3-cycle and a transposition: the prism K3 x K2"
    echo "d8-cube@<r, s | r^4 = s^2 = (rs)^2 = 1>@hypercube 3@@@3@dihedral group of order 8 (symmetries of the square) on r, r', s: the 3-cube"
    echo "q8@<i, j | i^4 = 1, i^2 = j^2, j'ij = i'>@@@@3@quaternion group on i, i', j, j'"
    echo "a4@<x, y | x^3 = y^2 = (xy)^3 = 1>@@@@3@A4 on (1 2 3) and (1 2)(3 4): the truncated tetrahedron"
    echo "d10-prism@<r, s | r^5 = s^2 = (rs)^2 = 1>@@@@3@dihedral group of order 10 on r, r', s: the pentagonal prism"
    echo "d12-prism@<r, s | r^6 = s^2 = (rs)^2 = 1>@@@@3@dihedral group of order 12 on r, r', s: the hexagonal prism"
    echo "s3-transpositions@<a, b, c | a^2 = b^2 = (ab)^3 = 1, c = aba>@@@@3@S3 on its three transpositions: K_{3,3}"
}

# Names for the groups the recogniser has no closed form for.
declare -A LABEL=([star4]="S_4" [q8]="Q_8" [a4]="A_4" [s3-transpositions]="S_3")

die() {
    echo "campaign: $*" >&2
    exit 2
}

markdown() {
    [[ -f $RESULTS ]] || die "no $RESULTS yet"
    echo "| network | group | \|G\| | bound | best found | status | proved infeasible (class) | timed out | solve time (s) | solver |"
    echo "| --- | --- | ---: | ---: | ---: | --- | --- | --- | ---: | --- |"
    tail -n +2 "$RESULTS" | while IFS=$'\t' read -r name group order bound found status infeasible unknown secs solver _certs; do
        echo "| \`$name\` | $group | $order | $bound | $found | $status | $infeasible | $unknown | $secs | $solver |"
    done
}

run_one() {
    local name=$1 group=$2 network=$3 links=$4 extra=$5 above=$6 note=$7
    local header=campaign/networks/$name.tbl
    local options="--time-limit $LIMIT --solver $SOLVER${extra:+ $extra}"
    mkdir -p campaign/networks tables/found
    {
        echo "name: $name"
        echo "source: found by txverify search $options (scripts/campaign.sh)${note:+; $note}"
        echo "group: $group"
        [[ -n $links ]] && echo "links: $links"
        [[ -n $network ]] && echo "network: $network"
        echo "table:"
    } >"$header"

    local json bound order family
    json=$($BIN check --no-simulate --format json "$header" || true)
    bound=$(jq -r '.bound.value' <<<"$json")
    order=$(jq -r '.group.order' <<<"$json")
    family=$(jq -r '.group.family // empty' <<<"$json")
    [[ -n $family ]] || family=${LABEL[$name]:-"order $order"}
    [[ $bound =~ ^[0-9]+$ ]] || die "$name: no bound: $json"
    local max=$((bound + above))
    echo "== $name: |G| = $order ($family), bound $bound, trying T = $bound..$max" >&2

    rm -rf "proofs/$name" "tables/found/$name.tbl"
    local out err rc start secs
    out=$(mktemp)
    err=$(mktemp)
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    $BIN search "$header" --max-time "$max" --certificate "proofs/$name" $options -q \
        >"$out" 2>"$err" && rc=0 || rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    secs=$(printf '%.1f' "$secs")
    cat "$err" >&2

    local found="-"
    if ((rc == 0)); then
        cp "$out" "tables/found/$name.tbl"
        $BIN check "tables/found/$name.tbl" >/dev/null || die "$name: check rejects the table"
        found=$(sed -n 's/^expect: time //p' "tables/found/$name.tbl")
    fi

    # Certificates: verify, keep the small ones.
    local infeasible="" certs="" t dir cls
    while read -r t; do
        [[ -n $t ]] || continue
        dir=proofs/$name/T$t
        $BIN verify-proof "$header" "$dir" >/dev/null || die "$name: certificate T$t rejected"
        # The class the certificate covers (docs/trust.md): words of any length cover
        # every table, shortest words only the shortest-path tables.
        cls=$(jq -r '.options.lengths.kind' "$dir/provenance.json")
        [[ $cls == any ]] && cls="all tables"
        [[ $cls == shortest ]] && cls="shortest-path tables"
        if [[ $(jq -r '.options.time_reversal or (.options.automorphism != null)' \
            "$dir/provenance.json") == true ]]; then
            cls+=", symmetric ones only"
        fi
        # formula.cnf is not committed: verify-proof regenerates the formula, and
        # `txverify search FILE --time T [OPTIONS] --dimacs formula.cnf` rewrites it
        # byte for byte. proof.drat is committed when it is small.
        local proof_bytes kept
        proof_bytes=$(stat -c %s "$dir/proof.drat")
        rm "$dir/formula.cnf"
        if ((proof_bytes <= KEEP_BYTES)); then
            kept="kept"
        else
            rm -rf "$dir"
            kept="not kept"
        fi
        infeasible+="${infeasible:+, }T=$t ($cls)"
        certs+="${certs:+; }T$t: proof $proof_bytes bytes, $kept"
    done < <(sed -n 's/^infeasible T=\([0-9]*\):.*/\1/p' "$err")
    rmdir "proofs/$name" 2>/dev/null || true
    local unknown
    unknown=$(sed -n 's/^unknown T=\([0-9]*\):.*/\1/p' "$err" | paste -sd, -)
    [[ -n $unknown ]] || unknown="-"
    [[ -n $infeasible ]] || infeasible="-"

    local status
    if [[ $found == "$bound" ]]; then
        status="optimal (kernel bound)"
    elif [[ $found != "-" && $extra == *--symmetry* ]]; then
        status="open: T=$bound..$((found - 1)) excluded for symmetric tables only"
    elif [[ $found != "-" && $unknown == "-" ]]; then
        if [[ $extra == *--any-length* ]]; then
            status="optimal among all tables (every smaller T certified infeasible)"
        else
            status="optimal among shortest-path tables (every smaller T certified infeasible)"
        fi
    elif [[ $found != "-" ]]; then
        status="open: T=$bound..$((found - 1)) not all decided"
    else
        status="nothing found up to T=$max"
    fi
    local solver_used=$SOLVER
    local line
    line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" "$family" "$order" \
        "$bound" "$found" "$status" "$infeasible" "$unknown" "$secs" "$solver_used" "${certs:--}")
    if [[ ! -f $RESULTS ]]; then
        printf 'network\tgroup\torder\tbound\tfound\tstatus\tinfeasible\tunknown\tseconds\tsolver\tcertificates\n' >"$RESULTS"
    fi
    grep -v -P "^\Q$name\E\t" "$RESULTS" >"$RESULTS.tmp" || true
    echo "$line" >>"$RESULTS.tmp"
    { head -1 "$RESULTS.tmp"; tail -n +2 "$RESULTS.tmp" | sort -t$'\t' -k1,1V; } >"$RESULTS"
    rm -f "$RESULTS.tmp" "$out" "$err"
    echo "   -> found $found, $status, infeasible: $infeasible, timed out: $unknown, $secs s" >&2
}

case "${1:-}" in
--list)
    networks | cut -d'@' -f1,2,3
    exit 0
    ;;
--markdown)
    markdown
    exit 0
    ;;
esac

pattern=${1:-.}
if ! cargo build --release --features cadical -q 2>/dev/null; then
    cargo build --release -q
    SOLVER=varisat
fi
while IFS='@' read -r name group network links extra above note; do
    [[ $name =~ $pattern ]] || continue
    run_one "$name" "$group" "$network" "$links" "$extra" "$above" "$note"
done < <(networks)
