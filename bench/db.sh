#!/usr/bin/env bash
# The fingerprint database at scale: ingest rate, bytes on disk per document
# and search latency (p50/p99) over synthetic documents.
#
#   bench/db.sh [DOCUMENTS...]        default: 100000 1000000
#
# Each run builds a fresh database under $CARGO_TARGET_DIR (or target/) and
# deletes it afterwards; 1,000,000 documents need about 7.5 GB of disk for
# the cold prints kept for rotation, 0.3 GB for the postings.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
cargo bench -p copyhound-db --bench scale --no-run
for documents in "${sizes[@]}"; do
    echo "== $documents documents, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    cargo bench -p copyhound-db --bench scale -- "$documents" "$target/db-scale-$documents"
    rm -rf "$target/db-scale-$documents"
done
