#!/usr/bin/env bash
# Deduplication side by side, in one run on this machine: `copyhound dedup`,
# the Spark job (`python -m copyhound.spark --master local[2]`) and
# datatrove's MinHash deduplication, on a corpus with planted
# near-duplicates and planted partial copies (bench/dedup-corpus.py); the
# slower tools on its first 20,000 documents. For each: documents per second
# per core (documents / CPU seconds), wall time, peak memory of the whole
# process tree, recall of each planted kind (bench/dedup-score.py).
#
#   bash bench/dedup.sh [DOCUMENTS] [TOOLS]
#
# DOCUMENTS defaults to 200000; TOOLS to "copyhound spark datatrove"
# (copyhound and spark run on the whole corpus and on the slice, datatrove
# on the slice). Needs a release build (cargo build --release -p copyhound),
# the Python package (pip install ./python pyspark), and makes its own
# virtual environment for datatrove (datatrove 0.10.1 with orjson and spacy, its English word tokenizer).
set -euo pipefail
cd "$(dirname "$0")/.."
documents=${1:-200000}
tools=${2:-copyhound spark datatrove}
corpus=bench/out/dedup-$documents
runs=bench/out/dedup-runs
bin=${COPYHOUND:-target/release/copyhound}
venv=bench/out/datatrove-venv

[ -f "$corpus/truth.json" ] || python3 bench/dedup-corpus.py "$corpus" --documents "$documents"
if [[ " $tools " == *" datatrove "* ]] && [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "datatrove[processing]==0.10.1" orjson==3.13.0 spacy==3.8.18
fi
mkdir -p "$runs"
python3 bench/dedup-bench.py --corpus "$corpus" --runs "$runs" --copyhound "$bin" \
  --datatrove-python "$venv/bin/python" --tools $tools
