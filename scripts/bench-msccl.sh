#!/usr/bin/env bash
# `txverify check PROGRAM.xml` on 64-GPU ring allreduce programs of about 2.5·10^4,
# 5·10^4 and 10^5 steps (3, 6 and 13 channels, one thread block each, 127 steps per
# thread block; generated here, the same programs as benches/msccl.rs), each run
# under /usr/bin/time -v: steps, wall time, peak resident memory, and the memory per
# step, for docs/msccl.md ("Cost"). RUNS runs of each; the minimum wall and CPU
# (user + system) times and the largest peak memory are printed. NET, when set, is passed as --network.
#
# Usage: scripts/bench-msccl.sh      (RUNS=3; BIN=target/release/txverify; NET='')
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
bin=${BIN:-target/release/txverify}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

generate() { # n channels -> the program on standard output
  awk -v n="$1" -v ch="$2" 'BEGIN {
    printf "<algo name=\"ring\" proto=\"Simple\" nchannels=\"%d\" nchunksperloop=\"%d\" ngpus=\"%d\" coll=\"allreduce\" inplace=\"1\" outofplace=\"0\" minBytes=\"0\" maxBytes=\"0\">\n", ch, n * ch, n
    for (g = 0; g < n; g++) {
      printf "  <gpu id=\"%d\" i_chunks=\"%d\" o_chunks=\"%d\" s_chunks=\"0\">\n", g, n * ch, n * ch
      for (r = 0; r < ch; r++) {
        printf "    <tb id=\"%d\" send=\"%d\" recv=\"%d\" chan=\"%d\">\n", r, (g + 1) % n, (g + n - 1) % n, r
        k = 0
        step("s", 0)
        for (j = 1; j < n - 1; j++) step("rrs", j)
        step("rrcs", n - 1)
        for (j = 1; j < n - 1; j++) step("rcs", j - 1)
        step("r", n - 2)
        print "    </tb>"
      }
      print "  </gpu>"
    }
    print "</algo>"
  }
  function step(t, j,   off) {
    off = r * n + ((g - j) % n + n) % n
    printf "      <step s=\"%d\" type=\"%s\" srcbuf=\"i\" srcoff=\"%d\" dstbuf=\"i\" dstoff=\"%d\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n", k++, t, off, off
  }'
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) (1, 5, 15 min), $(nproc) cores"
printf '%-9s %-8s %-10s %-9s %-9s %-10s %s\n' channels steps bytes wall_s cpu_s peak_kb bytes/step
for ch in 3 6 13; do
  file="$dir/ring64x$ch.xml"
  generate 64 "$ch" > "$file"
  steps=$(grep -c '<step ' "$file")
  best_s='' best_cpu='' peak=0
  for _ in $(seq "$runs"); do
    args=(check "$file")
    [ -n "${NET:-}" ] && args+=(--network "$NET")
    /usr/bin/time -v "$bin" "${args[@]}" > "$dir/out" 2> "$dir/time" || {
      cat "$dir/out" "$dir/time" >&2; exit 1; }
    grep -q VALID "$dir/out" || { cat "$dir/out" >&2; exit 1; }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0;
      for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$dir/time")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$dir/time")
    kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time")
    if [ -z "$best_s" ] || awk -v a="$wall" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$wall; fi
    if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then best_cpu=$cpu; fi
    [ "$kb" -gt "$peak" ] && peak=$kb
  done
  printf '%-9s %-8s %-10s %-9s %-9s %-10s %s\n' "$ch" "$steps" "$(wc -c < "$file")" "$best_s" "$best_cpu" "$peak" \
    "$(awk -v k="$peak" -v s="$steps" 'BEGIN { printf "%.0f", k * 1024 / s }')"
done
