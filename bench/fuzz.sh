#!/usr/bin/env bash
# Runs every fuzzing target of copyhound-fuzz for MINUTES minutes each
# (default 1) on the release build and prints one summary line per target;
# findings (panicking or hanging inputs) go to fuzz-findings/.
#   bash bench/fuzz.sh [MINUTES] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-1}"
shift || true
cargo build --release --locked -q -p copyhound-fuzz
seconds=$((minutes * 60))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(target/release/copyhound-fuzz --list)
fi
status=0
for target in "${targets[@]}"; do
  target/release/copyhound-fuzz --seconds "$seconds" --findings fuzz-findings "$target" || status=$?
done
exit "$status"
