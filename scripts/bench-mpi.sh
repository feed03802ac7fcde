#!/usr/bin/env bash
# Scale figures of `search --mpi` (docs/cluster.md): one UNSAT instance solved
# with 1, 2 and 4 MPI processes (oversubscribed beyond the machine's cores),
# the same cubes each time.
#
# For each process count the script prints the wall time (mpirun to exit,
# MPI start-up included), the cubes (at the start, made in all, re-split), the
# cubes and busy seconds of each worker, the distribution of the solver runs'
# wall times (min/median/max, total), the seconds rank 0 spent checking
# proofs, and the balance (the busiest worker's seconds over the mean). With
# one process rank 0 solves every cube itself; with N > 1 there are N − 1
# workers and rank 0 only hands out cubes and checks the answers. It also
# prints the load average before each run: on a shared machine, say it.
#
# Usage: scripts/bench-mpi.sh [TXVERIFY]   (default target/release/txverify,
#        built with --features mpi)
# Environment: FILE (default campaign/networks/ring16-cyclic-anylength.tbl),
#   T (default 33), ARGS (default --any-length), CUBES (default 32),
#   BUDGET (seconds per cube before it is split again; default none),
#   NPS (default "1 2 4").
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/txverify}
file=${FILE:-campaign/networks/ring16-cyclic-anylength.tbl}
time=${T:-33}
args=${ARGS:---any-length}
cubes=${CUBES:-32}
nps=${NPS:-1 2 4}
budget=()
[ -n "${BUDGET:-}" ] && budget=(--cube-budget "$BUDGET")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "instance: $file, T=$time, $args, $cubes cubes${BUDGET:+, budget $BUDGET s}; $(nproc) cores"
for np in $nps; do
  echo
  echo "== $np process(es); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  start=$(date +%s.%N)
  set +e
  # shellcheck disable=SC2086
  mpirun --oversubscribe -np "$np" "$bin" search -q "$file" --time "$time" $args \
    --mpi --cubes "$cubes" "${budget[@]}" > "$work/out" 2> "$work/err"
  status=$?
  set -e
  end=$(date +%s.%N)
  printf 'wall %.2f s (mpirun), exit status %d\n' "$(echo "$end - $start" | bc)" "$status"
  grep '^cluster:' "$work/err" | sed 's/^cluster: /  /'
  grep -E '^(infeasible|found|unknown|error)' "$work/err" | cut -c1-120 || true
done
