#!/usr/bin/env bash
# The frontier: larger networks, each at the kernel's lower bound, searched three ways
# on the same machine in one run, for docs/results.md ("The frontier"):
#
#   varisat   `txverify search FILE --time T` of a `--no-default-features` build
#             (varisat and its portfolio helper, on every core: pure Rust);
#   default   the same command in the default build (CaDiCaL as the main solver and
#             in the helper; the `cadical` feature is on by default);
#   external  the external CaDiCaL binary (`cadical`, e.g. Debian's package) alone on the
#             formula `txverify search FILE --time T --dimacs F` writes: the same CNF the
#             main solver of the other two columns gets.
#
# A table found by either txverify column is checked again with `txverify check`
# (kernel and exhaustive simulation) and, with SAVE=1, the default column's table is
# kept as tables/found/NAME.tbl. Every header is written to campaign/networks/NAME.tbl
# first.
#
# Usage:
#   scripts/frontier.sh [NAME-PATTERN]     run the instances whose name matches (grep -E)
#   scripts/frontier.sh --list             list them
# Environment:
#   LIMIT=60            seconds for the varisat and external columns
#   DEFAULT_LIMIT=600   seconds for the default column (at most; some instances below set less)
#   SAVE=1              keep the tables the default column finds in tables/found/
#   VARISAT_BIN, DEFAULT_BIN   the two builds (defaults: target-varisat/release/txverify,
#                       built with CARGO_TARGET_DIR=target-varisat cargo build --release
#                       --no-default-features, and target/release/txverify, built with
#                       cargo build --release)
# Output: one tab-separated line per instance on standard output (and in
# campaign/frontier.tsv): name, group order, T, varisat, default, external (seconds or
# "> LIMIT"), and how the default column found its table.
set -euo pipefail

cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-60}
DEFAULT_LIMIT=${DEFAULT_LIMIT:-600}
SAVE=${SAVE:-0}
VARISAT_BIN=${VARISAT_BIN:-target-varisat/release/txverify}
DEFAULT_BIN=${DEFAULT_BIN:-target/release/txverify}
RESULTS=campaign/frontier.tsv

# name | how to write the header ("kept": campaign/networks/NAME.tbl is written by hand)
#      | T (the kernel's lower bound) | default column's limit
INSTANCES=(
    "d10-squared|gen torus2d 10|125|600"
    "d12-squared|gen torus2d 12|216|600"
    "hypercube8|gen hypercube 8|128|600"
    "d6-cubed|gen torus3d 6|162|600"
    "c10-squared|net torus 10 10|125|600"
    "star5|net star 5|111|600"
    "torus10x12|kept|180|240"
    "torus4x6x8|kept|192|240"
    "butterfly5|net butterfly 5|200|240"
    "pancake5|net pancake 5|107|240"
    "ccc5|net ccc 5|400|240"
)

if [[ ${1:-} == --list ]]; then
    printf '%s\n' "${INSTANCES[@]}" | cut -d'|' -f1
    exit 0
fi
PATTERN=${1:-.}

for bin in "$VARISAT_BIN" "$DEFAULT_BIN"; do
    [[ -x $bin ]] || { echo "missing $bin (see the usage above)" >&2; exit 2; }
done
command -v cadical >/dev/null || { echo "missing the cadical binary (apt-get install cadical)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# header NAME HOW: writes campaign/networks/NAME.tbl
header() {
    local name=$1 how=$2 out=campaign/networks/$1.tbl
    case $how in
    gen\ *)
        # The construction's header, without its table (the search ignores it anyway).
        # shellcheck disable=SC2086
        "$DEFAULT_BIN" ${how} 2>/dev/null | grep -v -e '^#' -e '^expect:' | sed '/^table:/q' |
            sed "s/^name: .*/name: $name/" >"$out"
        ;;
    net\ *)
        # shellcheck disable=SC2086
        "$DEFAULT_BIN" ${how} | sed "s/^name: .*/name: $name/" >"$out"
        ;;
    kept) ;;
    esac
}

# timed LIMIT OUT ERR CMD...: runs CMD with its output in OUT and ERR, prints its wall
# time, or "> LIMIT" when it gave up.
timed() {
    local limit=$1 out=$2 err=$3
    shift 3
    local start end status=0
    start=$(date +%s.%N)
    "$@" >"$out" 2>"$err" || status=$?
    end=$(date +%s.%N)
    if ((status == 0 || status == 10 || status == 20)); then
        printf '%.1f' "$(echo "$end - $start" | bc)"
    else
        printf '> %s' "$limit"
    fi
}

for entry in "${INSTANCES[@]}"; do
    IFS='|' read -r name how time default_limit <<<"$entry"
    ((default_limit <= DEFAULT_LIMIT)) || default_limit=$DEFAULT_LIMIT
    grep -qE "$PATTERN" <<<"$name" || continue
    header "$name" "$how"
    file=campaign/networks/$name.tbl
    # (check exits 1 on a header without a table; only the group's order is wanted)
    order=$("$DEFAULT_BIN" check --no-simulate --format json "$file" | jq -r '.group.order' || true)

    varisat=$(timed "$LIMIT" "$work/varisat.tbl" "$work/varisat.err" \
        "$VARISAT_BIN" search "$file" --time "$time" --time-limit "$LIMIT" -q)
    default=$(timed "$default_limit" "$work/default.tbl" "$work/default.err" \
        "$DEFAULT_BIN" search "$file" --time "$time" --time-limit "$default_limit")
    if [[ ! -s $work/default.tbl ]]; then
        how_found="not found"
    else
        how_found=$(grep -m1 '^found by' "$work/default.err" || echo "main solver")
    fi
    "$DEFAULT_BIN" search "$file" --time "$time" --dimacs "$work/f.cnf" -q >/dev/null 2>&1
    external=$(timed "$LIMIT" /dev/null "$work/external.err" timeout "$LIMIT" cadical -q "$work/f.cnf")

    for column in varisat default; do
        if [[ -s $work/$column.tbl ]]; then
            "$DEFAULT_BIN" check "$work/$column.tbl" >/dev/null ||
                { echo "$name: the $column table does not check" >&2; exit 1; }
        fi
    done
    if [[ $SAVE == 1 && -s $work/default.tbl ]]; then
        sed "s|^source: \(.*\)|source: found by txverify search --time $time (scripts/frontier.sh), $how_found; header: \1|" \
            "$work/default.tbl" >"tables/found/$name.tbl"
    fi
    line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" "$order" "$time" "$varisat" "$default" "$external" "$how_found")
    echo "$line"
    touch "$RESULTS"
    grep -v "^$name	" "$RESULTS" >"$work/r" || true
    { cat "$work/r"; echo "$line"; } >"$RESULTS"
done
