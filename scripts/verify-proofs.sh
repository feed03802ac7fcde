#!/usr/bin/env bash
# Re-verifies every committed certificate: for each line of proofs/MANIFEST.tsv
# (a certificate directory and the .tbl file it was made for), `txverify
# verify-proof` regenerates the formula from the table's header and checks every
# T<t>/ proof in the directory. Exits non-zero on the first rejection.
# Usage: scripts/verify-proofs.sh [TXVERIFY]   (default: target/release/txverify)
set -euo pipefail
cd "$(dirname "$0")/.."
txverify="${1:-target/release/txverify}"
count=0
while IFS=$'\t' read -r dir table; do
  case "$dir" in ''|'#'*) continue ;; esac
  "$txverify" -q verify-proof "$table" "$dir" > /dev/null
  count=$((count + $(find "$dir" -name provenance.json | wc -l)))
done < proofs/MANIFEST.tsv
echo "re-verified $count committed certificates"
