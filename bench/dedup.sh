#!/usr/bin/env bash
# Deduplication side by side, in one run on this machine: `copyhound dedup`,
# the Spark job (`python -m copyhound.spark --master local[2]`) and the
# MinHash deduplications of datatrove and text-dedup, on a corpus with planted
# near-duplicates and planted partial copies (bench/dedup-corpus.py); the
# slower tools on its first 20,000 documents. For each: documents per second
# per core (documents / CPU seconds), wall time, peak memory of the whole
# process tree, recall of each planted kind (bench/dedup-score.py).
#
#   bash bench/dedup.sh [DOCUMENTS] [TOOLS]
#
# DOCUMENTS defaults to 200000; TOOLS to "copyhound datatrove text-dedup
# spark", in that order (copyhound and spark run on the slice, then on the
# whole corpus; datatrove and text-dedup on the slice; Spark's driver, which
# at local[2] is all of Spark, gets 4 GB). Needs a release build
# (cargo build --release -p copyhound). Makes its own virtual environments
# under bench/out (delete one to rebuild it): the Python package as a user
# installs it (pip install ./python, a release build through maturin) with
# pyspark and pandas; datatrove 0.10.1 with orjson and spacy (its English
# word tokenizer); text-dedup 0.4.0, the last release for Python 3.11 (a
# tool whose environment does not install is left out, and said so).
set -euo pipefail
cd "$(dirname "$0")/.."
documents=${1:-200000}
tools=${2:-copyhound datatrove text-dedup spark}
corpus=bench/out/dedup-$documents
runs=bench/out/dedup-runs
bin=${COPYHOUND:-target/release/copyhound}
python_venv=bench/out/copyhound-venv
datatrove_venv=bench/out/datatrove-venv
text_dedup_venv=bench/out/text-dedup-venv

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), load:$(uptime | sed 's/.*load average://')"
[ -f "$corpus/truth.json" ] || python3 bench/dedup-corpus.py "$corpus" --documents "$documents"
# Makes a virtual environment VENV with PACKAGES unless it is there; says
# how long the installation took, or that it failed.
venv() {
  local venv=$1; shift
  [ -x "$venv/bin/python" ] && return 0
  local start=$SECONDS
  python3 -m venv "$venv"
  if "$venv/bin/pip" install -q "$@"; then
    echo "$venv: installed in $((SECONDS - start)) s"
  else
    echo "$venv: $* did not install"; rm -rf "$venv"; return 1
  fi
}
venv "$python_venv" ./python pyspark==4.3.0 pandas==2.2.3
run=()
for tool in $tools; do
  case $tool in
    datatrove) venv "$datatrove_venv" "datatrove[processing]==0.10.1" orjson==3.13.0 spacy==3.8.18 && run+=("$tool") ;;
    text-dedup) venv "$text_dedup_venv" text-dedup==0.4.0 && run+=("$tool") ;;
    *) run+=("$tool") ;;
  esac
done
mkdir -p "$runs"
"$python_venv/bin/python" bench/dedup-bench.py --corpus "$corpus" --runs "$runs" --copyhound "$bin" \
  --datatrove-python "$datatrove_venv/bin/python" --text-dedup-python "$text_dedup_venv/bin/python" --tools "${run[@]}"
