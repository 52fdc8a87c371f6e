#!/usr/bin/env bash
# Accuracy regression check: runs copyhound compare (debug build, its
# defaults) on two small labelled datasets and fails when average
# precision falls below the level recorded in bench/eval/baseline.json.
# Skips, exiting 0, when the datasets folder is absent.
#
#   bash bench/eval/regression.sh            # builds copyhound (debug) first
#   COPYHOUND=path/to/copyhound bash bench/eval/regression.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

datasets=""
for candidate in /work/shared/datasets ../shared/datasets; do
  if [ -f "$candidate/soco-train-c/meta.json" ] && [ -f "$candidate/clough-open/meta.json" ]; then
    datasets=$candidate
    break
  fi
done
if [ -z "$datasets" ]; then
  echo "regression: skipped: no datasets folder (/work/shared/datasets or ../shared/datasets)"
  exit 0
fi

binary=${COPYHOUND:-}
if [ -z "$binary" ]; then
  cargo build --locked -q -p copyhound
  binary=${CARGO_TARGET_DIR:-target}/debug/copyhound
fi

python3 bench/eval/run.py --datasets-dir "$datasets" --datasets soco-train-c clough-open \
  --tools copyhound --copyhound "$binary" --label regression \
  --baseline bench/eval/baseline.json
