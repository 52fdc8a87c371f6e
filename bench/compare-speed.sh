#!/usr/bin/env bash
# Speed and memory of `copyhound compare` (release build) against
# copydetect and Dolos, side by side on one machine: wall time, CPU seconds
# and peak resident memory (GNU time) on the labelled datasets, on Rust
# files from ~/.cargo/registry/src and on a synthetic 100,000-file corpus
# with planted copies. Not part of CI: it takes an hour or more.
#
#   bash bench/compare-speed.sh                        # everything
#   bash bench/compare-speed.sh --corpora synth-100000 --tools copyhound
#   bash bench/compare-speed.sh --timeout-min 15 --fresh
#
# Options go to bench/eval/speed.py (see its --help). Results are kept per
# corpus and tool under bench/out/speed/ (git-ignored), so a rerun resumes
# where an interrupted one stopped; --fresh measures again. The table is
# written to bench/out/speed/results.md. Runs without a terminal (CI=true,
# no standard input).
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
exec </dev/null

echo "== copyhound (release build)"
cargo build --release --locked -q -p copyhound

echo "== peers (copydetect, Dolos)"
bash bench/eval/install-peers.sh || echo "compare-speed: some peers are missing; their rows will say so"

echo "== synthetic corpus (100,000 files, deterministic)"
python3 bench/synth-corpus.py bench/out/synth-100000 --files 100000

echo "== measuring (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
python3 bench/eval/speed.py "$@"
