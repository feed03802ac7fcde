#!/bin/sh
# Time to decide each presentation of examples/groups/ at the first T its search tries: one
# `txverify search FILE --time BOUND` per file, one at a time, nice'd, with a limit per
# file; prints file, order, bound, verdict, wall and CPU seconds as a TSV row
# (the figures of docs/search.md, "Groups of order 21-168").
# Usage: scripts/bench-groups.sh [LIMIT_SECONDS [EXTRA SEARCH OPTIONS...]]
set -u
bin=${TXVERIFY:-target/release/txverify}
limit=${1:-300}
[ $# -gt 0 ] && shift
printf 'file\torder\tbound\tverdict\twall_s\tcpu_s\n'
for f in examples/groups/*.tbl; do
    order=$($bin bounds "$f" | sed -n 's/^  order \([0-9]*\),.*/\1/p')
    # The first T the search itself tries: the all-port bound, or above it where
    # counting alone rules the shortest words out (B3: 72 → 76).
    bound=$($bin search "$f" --time-limit 1 --jobs 1 2>&1 | sed -n 's/^t=\([0-9]*\) .*/\1/p' | head -1)
    out=$(mktemp)
    /usr/bin/time -f '%e %U %S' -o "$out.time" nice -n 5 \
        $bin search "$f" --time "$bound" --time-limit "$limit" "$@" >"$out" 2>&1
    verdict=$(grep -E -o "^(infeasible T=[0-9]+|unknown T=[0-9]+)" "$out" | head -1)
    grep -q '^table:' "$out" && verdict="found T=$bound"
    read wall user sys <<EOF2
$(tail -1 "$out.time")
EOF2
    cpu=$(echo "$user + $sys" | bc)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$f" .tbl)" "$order" "$bound" "$verdict" "$wall" "$cpu"
    rm -f "$out" "$out.time"
done
