#!/usr/bin/env bash
# The HTML report in headless Chromium at about 30,000 embedded pairs:
# `copyhound compare --report-pairs all` on soco-train-java (259 Java
# files, 29,907 pairs), then bench/report-browser/bench.mjs on the page —
# its size, first paint, first pair row and charts drawn, filter
# keystrokes and sorts (min/median/max over fresh pages). Not part of CI,
# and no test: timings depend on the machine.
#
#   bash bench/report-browser.sh            # 5 runs
#   RUNS=9 bash bench/report-browser.sh
#   REPORT=some.html bash bench/report-browser.sh   # time a page written elsewhere
#
# Needs node and npm (playwright-core is installed under
# bench/report-browser/node_modules, git-ignored) and Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
exec </dev/null

datasets="${DATASETS:-/work/shared/datasets}"
[ -d "$datasets" ] || datasets=../shared/datasets
out=bench/out/report-browser
mkdir -p "$out"

if [ -z "${REPORT:-}" ]; then
  echo "== copyhound (release build)"
  cargo build --release --locked -q -p copyhound
  REPORT="$out/soco-train-java.html"
  echo "== report of every pair of soco-train-java"
  target/release/copyhound compare "$datasets/soco-train-java/files" --unit file \
    --report-pairs all --report "$REPORT" -q >/dev/null
fi

echo "== playwright-core"
(cd bench/report-browser && npm ci --no-audit --no-fund --silent)

echo "== timing (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
node bench/report-browser/bench.mjs "$REPORT" --runs "${RUNS:-5}"
