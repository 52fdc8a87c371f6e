#!/usr/bin/env bash
# Runs every `copyhound experiment` on real corpora and keeps the output
# (tables as text and JSON, Figure 4 as SVG) in bench/out/experiments/.
# docs/EXPERIMENTS.md quotes these runs.
#
#   bash bench/experiments.sh            # default runs: 8 MiB of each corpus
#   FULL=1 bash bench/experiments.sh     # every file of each corpus, larger sweeps
#
# Corpora: the HTML pages of Debian's python3-doc (installed with apt if
# missing; the text of real web pages), the Python standard library's
# sources (real code, installed with python3), and the labelled text sets
# pan-even and clough-open from ../shared/datasets (skipped when absent).
set -euo pipefail
cd "$(dirname "$0")/.."

datasets=${DATASETS:-../shared/datasets}
out=bench/out/experiments
mkdir -p "$out"
scope=()
if [ -n "${FULL:-}" ]; then scope=(--full); fi

if ! dpkg -s python3-doc >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-doc >/dev/null
fi
cargo build --release -q -p copyhound
copyhound=target/release/copyhound

# The manual's pages, not its copies of their sources (_sources/*.txt)
# nor scripts and style sheets (_static). Debian links python3.X-dev,
# -doc and -venv to the same folder: resolved, each page counts once.
html=$(realpath /usr/share/doc/python3.*/html | sort -u | tail -1)
mapfile -t pages < <(find "$html/" -name '*.html' -not -path '*/_*' | sort)
# The standard library's modules and packages, without its tests (much of
# them generated data) and without installed third-party packages.
lib=$(find /usr/lib -maxdepth 1 -type d -name 'python3.*' | sort | tail -1)
mapfile -t stdlib < <(find "$lib" -name '*.py' -not -path '*/test*' -not -path '*-packages/*' | sort)
texts=()
for set in pan-even clough-open; do
  if [ -d "$datasets/$set/files" ]; then texts+=("$datasets/$set/files"); fi
done

run() {
  local name=$1; shift
  echo "== $name: copyhound experiment $*" | cut -c1-200
  /usr/bin/time -f "$name: %e s wall, %U s user, %M KiB peak" \
    "$copyhound" experiment "$@" > "$out/$name.txt"
}

run density density
run gaps-html gaps "${pages[@]}" "${scope[@]}" --json "$out/gaps-html.json"
run gaps-code gaps "${stdlib[@]}" "${scope[@]}" --json "$out/gaps-code.json"
run zipf-html zipf "${pages[@]}" "${scope[@]}" --svg "$out/zipf-html.svg" --json "$out/zipf-html.json"
run zipf-code zipf "${stdlib[@]}" "${scope[@]}" --svg "$out/zipf-code.svg" --json "$out/zipf-code.json"
run sketch sketch "${pages[@]}" "${scope[@]}" --json "$out/sketch.json"
if [ ${#texts[@]} -gt 0 ]; then
  run gaps-texts gaps "${texts[@]}" "${scope[@]}" --json "$out/gaps-texts.json"
  run zipf-texts zipf "${texts[@]}" "${scope[@]}" --svg "$out/zipf-texts.svg" --json "$out/zipf-texts.json"
  run koala-texts koala "${texts[@]}" "${scope[@]}" --json "$out/koala-texts.json"
  run koala-generated koala "${texts[@]}" "${scope[@]}" --generate 2000 --json "$out/koala-generated.json"
else
  echo "skipped gaps, zipf and koala on the text sets: no $datasets"
fi
echo "output in $out"
