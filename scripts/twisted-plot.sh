#!/usr/bin/env bash
# The speed-up of twisted over plain tori, by the lower bounds, for docs/twisted.md:
# for each TPU slice shape, `txverify net` writes the twisted and the plain header,
# `txverify bounds --format json` gives their all-port bounds, the best twisted table
# is the faster of `txverify gen twisted` and tables/found/twisted<shape>.tbl (checked
# by `txverify check`), and two ratios are plotted against the number of nodes as an
# SVG: plain bound / twisted bound (filled) and plain bound / best twisted table (open).
#
# Usage: scripts/twisted-plot.sh [TXVERIFY] > docs/img/twisted-speedup.svg
# (TXVERIFY defaults to target/release/txverify). The figures are also printed on
# standard error, one shape a line.
set -euo pipefail
bin=${1:-target/release/txverify}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
shapes=("8 4" "12 6" "16 8" "4 4 8" "4 8 8" "8 8 16" "8 16 16" "12 12 24")
rows=""
for shape in "${shapes[@]}"; do
    name=${shape// /x}
    "$bin" net twisted $shape -o "$dir/t$name.tbl"
    "$bin" net torus $shape -o "$dir/p$name.tbl"
    twisted=$("$bin" bounds --format json "$dir/t$name.tbl" | sed -n 's/.*"all_port_bound":\([0-9]*\).*/\1/p')
    plain=$("$bin" bounds --format json "$dir/p$name.tbl" | sed -n 's/.*"all_port_bound":\([0-9]*\).*/\1/p')
    nodes=$("$bin" bounds --format json "$dir/t$name.tbl" | sed -n 's/.*"order":\([0-9]*\).*/\1/p')
    table=$("$bin" gen twisted $shape --format json | sed -n 's/.*"time":\([0-9]*\).*/\1/p')
    found=tables/found/twisted$name.tbl
    if [ -f "$found" ]; then
        best=$("$bin" check --format json "$found" | sed -n 's/.*"verdict":"\(valid\|optimal\)","time":\([0-9]*\).*/\2/p')
        if [ -n "$best" ] && [ "$best" -lt "$table" ]; then table=$best; fi
    fi
    echo "$shape: $nodes nodes, plain bound $plain, twisted bound $twisted, best twisted table $table" >&2
    rows+="$name $nodes $plain $twisted $table"$'\n'
done
printf '%s' "$rows" | awk '
BEGIN { w = 640; h = 400; l = 70; r = 20; t = 40; b = 60
  print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" w "\" height=\"" h "\" font-family=\"sans-serif\" font-size=\"12\">"
  print "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
  print "<text x=\"" w / 2 "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">All-port lower bound, plain torus / twisted torus</text>" }
{ name[NR] = $1; n[NR] = $2; ratio[NR] = $3 / $4; tratio[NR] = $3 / $5 }
END {
  # x: log2 of the nodes, 16 to 4096; y: ratio 1.0 to 2.0.
  for (i = 1; i <= NR; i++) {
    x = l + (log(n[i]) / log(2) - 4) / 8 * (w - l - r)
    y = h - b - (ratio[i] - 1) * (h - t - b)
    printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y, (split(name[i], p, "x") == 3 ? "#c03" : "#06c")
    printf "<text x=\"%.1f\" y=\"%.1f\">%s (%.2f)</text>\n", x + 6, y - 6, name[i], ratio[i]
    y2 = h - b - (tratio[i] - 1) * (h - t - b)
    printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"%s\"/>\n", x, y2, (split(name[i], p, "x") == 3 ? "#c03" : "#06c")
  }
  print "<line x1=\"" l "\" y1=\"" h - b "\" x2=\"" w - r "\" y2=\"" h - b "\" stroke=\"black\"/>"
  print "<line x1=\"" l "\" y1=\"" t "\" x2=\"" l "\" y2=\"" h - b "\" stroke=\"black\"/>"
  for (e = 4; e <= 12; e += 2) {
    x = l + (e - 4) / 8 * (w - l - r)
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, h - b + 18, 2 ^ e
  }
  for (v = 1.0; v <= 2.0; v += 0.25) {
    y = h - b - (v - 1) * (h - t - b)
    printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", l - 6, y + 4, v
  }
  print "<text x=\"" (l + w - r) / 2 "\" y=\"" h - 15 "\" text-anchor=\"middle\">nodes (log scale); blue: 2k x k, red: 3D slices; filled: bounds, open: best table</text>"
  print "</svg>" }'
