#!/bin/bash
# Runs the two documented Slurm scripts on a one-node Slurm cluster set up in a
# temporary directory, and checks what they leave (docs/cluster.md):
#
#   scripts/cluster/slurm-test.sh [TXVERIFY]
#
# TXVERIFY is a binary built with --features mpi (default
# target/release/txverify). It needs slurm-wlm (slurmctld, slurmd, sbatch),
# munge and Open MPI, and root (slurmd runs the jobs as their user). It starts
# its own munged, slurmctld and slurmd on private ports and sockets, submits
# txverify-mpi.sbatch (a refutation on 2 ranks) and txverify-array.sbatch (4
# cubes, then --merge), checks both certificates with verify-proof and a
# table found by the MPI script with check, and stops the daemons it started.
# Exit status 0 when every check passes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
txverify=$(realpath "${1:-$root/target/release/txverify}")
for tool in munged slurmctld slurmd sbatch sinfo mpirun; do
  command -v "$tool" >/dev/null || { echo "slurm-test: $tool is not installed" >&2; exit 2; }
done
work=$(mktemp -d -t txverify-slurm.XXXXXX)
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop EXIT
say() { printf 'slurm-test: %s\n' "$*"; }
fail() { say "FAILED: $*"; for log in "$work"/*.log "$work"/jobs/*.out "$work"/jobs/*.err; do
  [ -f "$log" ] && { echo "--- $log"; tail -20 "$log"; }; done; exit 1; }

# munge, with its own key and socket.
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/jobs"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$socket" \
  --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/seed" \
  --log-file="$work/munged.log" > "$work/munged.out" 2>&1 &
pids+=($!)

# One node: this machine, with the CPUs and memory slurmd sees.
node=$(hostname -s)
hardware=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
port=$((20000 + RANDOM % 20000))
cat > "$work/slurm.conf" <<CONF
ClusterName=txverify-test
SlurmctldHost=$node
SlurmUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$node $hardware State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
sleep 1
slurmctld -D -i -f "$SLURM_CONF" > "$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  sinfo -h -o '%t' 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o '%t' | grep -q idle || fail "the node did not come up"
say "one-node cluster up ($node: $hardware)"

# The 10-ring over C_10, words of any length: no table with 14 columns, one with 15.
tbl="$work/ring10.tbl"
printf 'group: <a | a^10>\nnetwork: ring 10\ntable:\n' > "$tbl"
export TXVERIFY="$txverify" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MPIRUN_ARGS="--oversubscribe"
cd "$work/jobs"

# 1. The MPI script: a refutation, then a table. Standard error (the cluster
# figures) goes to a file of its own, so the table on standard output reads clean.
CERT="$work/cert-mpi" sbatch --wait --nodes=1 --ntasks=2 --output="$work/jobs/mpi-14.out" \
  --error="$work/jobs/mpi-14.err" \
  "$here/txverify-mpi.sbatch" "$tbl" 14 --any-length > /dev/null || fail "MPI job (T=14)"
grep -q 'txverify exit status 1' mpi-14.out || fail "MPI job (T=14) did not refute"
"$txverify" verify-proof "$tbl" "$work/cert-mpi/T14" || fail "verify-proof (MPI certificate)"
CERT="$work/cert-mpi" sbatch --wait --nodes=1 --ntasks=2 --output="$work/jobs/mpi-15.out" \
  --error="$work/jobs/mpi-15.err" \
  "$here/txverify-mpi.sbatch" "$tbl" 15 --any-length > /dev/null || fail "MPI job (T=15)"
grep -q 'txverify exit status 0' mpi-15.out || fail "MPI job (T=15) found no table"
sed -n '/^group:/,/^txverify exit status/p' mpi-15.out | sed '$d' > found.tbl
"$txverify" check found.tbl > /dev/null || fail "check of the table the MPI job found"
say "MPI script: T=14 refuted with a certificate verify-proof accepts, T=15 table checked"

# 2. The job array: 4 cubes, one task each, then the merge.
"$txverify" search -q "$tbl" --time 14 --any-length --cubes 4 -o "$work/cubes" 2> /dev/null
sbatch --wait --array=1-4 --output="$work/jobs/cube-%a.log" \
  "$here/txverify-array.sbatch" "$work/cubes" > /dev/null || fail "job array"
set +e
"$txverify" search -q "$tbl" --time 14 --any-length --merge "$work/cubes"
merged=$?
set -e
[ "$merged" -eq 1 ] || fail "merge (exit status $merged, expected 1: refuted)"
"$txverify" verify-proof "$tbl" "$work/cubes" || fail "verify-proof (merged certificate)"
say "job array: 4 cubes refuted, merged, certificate accepted"
say "all checks passed"
cd /
stop
pids=()
rm -rf "$work"
