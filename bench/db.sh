#!/usr/bin/env bash
# The fingerprint database at scale: ingest rate, bytes on disk per document
# and search latency (p50/p99), over synthetic documents and over the real
# text sets.
#
#   bench/db.sh [DOCUMENTS...]        default: $SIZES, or 100000 1000000
#
# Environment: SIZES (synthetic sizes when no argument is given; empty to
# skip them), SETS (default "clough-open pan-even", empty to skip),
# SYNTHETIC_PRINTS (default false: the synthetic database keeps no prints,
# so its directory is what the storage target is about; true keeps them),
# KEEP_PRINTS (default "false true": each text set is registered once
# without and once with kept prints, which shows what they add), REPEAT (default 50: each set is registered this many times, so that the
# ingest rate is not just process start-up), DATASETS (default
# /work/shared/datasets; falls back to ../shared/datasets).
#
# Synthetic: prints of N random hashes go straight to the database (the
# library, `benches/scale.rs`). Text sets: the whole path of
# `copyhound db add` — load, normalise, Koala selection, add — timed with
# GNU time (wall and CPU seconds), then `db stats` for the bytes and every
# file of the set searched in-process (`scale texts`).
#
# Each run builds a fresh database under $CARGO_TARGET_DIR (or target/) and
# deletes it afterwards; 1,000,000 synthetic documents need about 0.3 GB
# (7.5 GB more with SYNTHETIC_PRINTS=true). Timings on a shared
# machine are noisy: the load average is printed, and CPU-based rates next to
# the wall-clock ones.
set -euo pipefail
cd "$(dirname "$0")/.."
# Absolute: the bench binary runs from the crate's folder, so a relative
# target folder would name another place there.
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
sizes=("$@")
# shellcheck disable=SC2206 # word splitting of the list is intended
[ ${#sizes[@]} -gt 0 ] || sizes=(${SIZES-100000 1000000})
sets="${SETS-clough-open pan-even}"
repeat="${REPEAT:-50}"
datasets="${DATASETS:-/work/shared/datasets}"
[ -d "$datasets" ] || datasets=../shared/datasets

cargo bench -p copyhound-db --bench scale --no-run
cargo build --release -p copyhound
scale() { cargo bench -q -p copyhound-db --bench scale -- "$@"; }
copyhound="$target/release/copyhound"
load() { cut -d' ' -f1-3 /proc/loadavg; }

for documents in "${sizes[@]+"${sizes[@]}"}"; do
    echo "== $documents synthetic documents, $(nproc) cores, load average $(load)"
    flags=()
    [ "${SYNTHETIC_PRINTS:-false}" = true ] || flags=(--no-prints)
    scale "$documents" "$target/db-scale-$documents" ${flags[@]+"${flags[@]}"}
    rm -rf "$target/db-scale-$documents"
done

text_set() {
    local set=$1 keep=$2
    local files="$datasets/$set/files"
    local db="$target/db-text-$set"
    rm -rf "$db"
    local count
    count=$(find "$files" -type f | wc -l)
    echo "== $set: $count files x $repeat = $((count * repeat)) documents, kept prints $keep, $(nproc) cores, load average $(load)"
    "$copyhound" db init "$db" --seed 1 --keep-prints "$keep" >/dev/null
    local args=()
    for _ in $(seq "$repeat"); do args+=("$files"); done
    /usr/bin/time -f '%e %U %S' -o "$db.time" "$copyhound" db add "$db" "${args[@]}" >/dev/null 2>&1
    local wall user sys added
    read -r wall user sys <"$db.time"
    added=$("$copyhound" db stats "$db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["documents"])')
    python3 - "$added" "$wall" "$user" "$sys" <<'EOF'
import sys
docs, wall, user, sys_ = int(sys.argv[1]), *map(float, sys.argv[2:])
print(f"ingest (db add, whole path): {docs} documents in {wall:.2f} s wall = {docs / wall:.0f} documents/s; "
      f"CPU {user + sys_:.2f} s = {docs / (user + sys_):.0f} documents per CPU-second")
EOF
    "$copyhound" db stats "$db" --json >"$db.stats"
    python3 - "$db.stats" "$(du -sb "$db" | cut -f1)" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
d = max(s["documents"], 1)
print(f"{s['segments']} segments, {s['staged_documents']} staged documents")
for label, key in [("searched postings", "segment_bytes"),
                   ("catalogue file (records, staging)", "catalog_bytes"),
                   ("kept prints (cold files and staged)", "print_bytes")]:
    print(f"{label}: {s[key]} bytes = {s[key] / d:.1f} bytes/document")
whole = int(sys.argv[2])
print(f"whole directory: {whole} bytes = {whole / d:.1f} bytes/document")
EOF
    scale texts "$db" "$files"
    rm -f "$db.time" "$db.stats"
    rm -rf "$db"
}

for set in $sets; do
    for keep in ${KEEP_PRINTS-false true}; do
        text_set "$set" "$keep"
    done
done
