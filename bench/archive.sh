#!/usr/bin/env bash
# The code archive at scale (release build): an archive of N synthetic
# submissions (bench/synth-corpus.py), a batch of 300 new ones checked
# against it with `compare --against`, side by side with a plain `compare
# --old` over the same files; archive bytes per submission and `db add`
# throughput. Wall time and peak memory by GNU time; the two comparisons'
# CSV rows must agree (bench/archive-split.py's check). Not part of CI.
#
#   bash bench/archive.sh [N] [LIMIT]        # default N = 100000, LIMIT (-m) 1%
#   COPYHOUND=target/debug/copyhound CORPUS=bench/out/synth-100300 bash bench/archive.sh 10000
#   LIMITS="1%" bash bench/archive.sh 100000   # only these -m values (default: LIMIT and unlimited)
#   LIMITS="1%" bash bench/archive.sh 1000000  # past 100,000 `--against` only (PLAIN=1: the plain compare too)
#
# The batch: 270 files of the corpus's next folder (its planted copies
# pair them with each other) and 30 verbatim copies of archived files.
# Work files stay in bench/out/archive-N/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
exec </dev/null
N=${1:-100000}
LIMIT=${2:-1%}
NEW=300
OUT=bench/out/archive-$N
# COPYHOUND: another build to measure; CORPUS: a corpus of at least N + 300
# files already written by bench/synth-corpus.py.
if [ -z "${COPYHOUND:-}" ]; then
    cargo build --release --locked -q -p copyhound
fi
BIN=${COPYHOUND:-target/release/copyhound}
if [ -z "${CORPUS:-}" ]; then
    CORPUS=bench/out/synth-$((N + NEW))
    python3 bench/synth-corpus.py "$CORPUS" --files $((N + NEW))
fi
rm -rf "$OUT" && mkdir -p "$OUT/new"
FOLDERS=$(( N / 1000 ))
ARCHIVED=()
for ((i = 0; i < FOLDERS; i++)); do ARCHIVED+=("$CORPUS/files/$(printf %03d "$i")"); done
NEXT="$CORPUS/files/$(printf %03d "$FOLDERS")"
ls "$NEXT" | head -270 | while read -r f; do cp "$NEXT/$f" "$OUT/new/"; done
for ((i = 0; i < 30; i++)); do
    folder=$(printf %03d $(( (i * 7919) % FOLDERS )))
    file=$(ls "$CORPUS/files/$folder" | sed -n "$(( (i * 131) % 1000 + 1 ))p")
    cp "$CORPUS/files/$folder/$file" "$OUT/new/copy-$i.py"
done

measure() { # NAME COMMAND…: wall seconds and peak MiB, from GNU time
    local name=$1; shift
    /usr/bin/time -f "%e %M" -o "$OUT/$name.time" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    read -r seconds kib <"$OUT/$name.time"
    printf '%-28s %8.1f s %8.0f MiB\n' "$name" "$seconds" "$((kib / 1024))"
}

echo "== $N archived, $NEW new (load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$BIN" db init "$OUT/archive" --code >/dev/null
measure "db add" "$BIN" db add "$OUT/archive" "${ARCHIVED[@]}" --unit file
read -r add_seconds _ <"$OUT/db add.time"
bytes=$(du -sb "$OUT/archive" | cut -f1)
echo "archive: $bytes bytes, $((bytes / N)) per submission; db add: $(python3 -c "print(round($N / $add_seconds))") submissions/s"
OLD_ARGS=()
for dir in "${ARCHIVED[@]}"; do OLD_ARGS+=(--old "$dir"); done
for m in ${LIMITS:-$LIMIT unlimited}; do
    MFLAG=()
    [ "$m" = unlimited ] || MFLAG=(-m "$m")
    measure "against -m $m" "$BIN" compare "$OUT/new" --unit file --against "$OUT/archive" "${MFLAG[@]}" --csv "$OUT/against-$m.csv" -q
    # A plain compare holds every file loaded: past 100,000 (16 GiB for
    # --against at a million) it does not fit in the machine's memory.
    if [ "${PLAIN:-$([ "$N" -le 100000 ] && echo 1 || echo 0)}" = 0 ]; then
        echo "plain --old -m $m: not run at $N (PLAIN=1 runs it)"
        continue
    fi
    measure "plain --old -m $m" "$BIN" compare "$OUT/new" --unit file "${OLD_ARGS[@]}" "${MFLAG[@]}" --csv "$OUT/plain-$m.csv" -q
    python3 - "$OUT/against-$m.csv" "$OUT/plain-$m.csv" <<'PY'
import csv, sys
def rows(path):
    with open(path, newline="") as f:
        return {tuple(sorted((r["a"], r["b"]))): [v for k, v in r.items() if k not in ("a", "b", "a_origin", "b_origin")] for r in csv.DictReader(f)}
against, plain = rows(sys.argv[1]), rows(sys.argv[2])
differ = sum(1 for p in against.keys() | plain.keys() if against.get(p) != plain.get(p))
print(f"  {len(plain)} pairs listed by the plain compare, {len(against)} by --against, {differ} differ")
PY
done
