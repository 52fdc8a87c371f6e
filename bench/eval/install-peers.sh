#!/usr/bin/env bash
# Installs the peer detectors the evaluation compares copyhound with, from
# their ordinary registries, into bench/out/peers (git-ignored):
#   copydetect   (PyPI)   into a virtualenv   bench/out/peers/venv, with
#                         chardet for its --encoding DETECT
#   Dolos        (npm)    @dodona/dolos-lib   bench/out/peers/node
#   SIM          (Debian) similarity-tester   sim_java, sim_c, sim_text
# Each install is tried on its own; a failure is reported and the others
# go on. Re-running is cheap: what is already there is kept.
set -uo pipefail
cd "$(dirname "$0")/../.."
peers=bench/out/peers
mkdir -p "$peers"
status=0

echo "== copydetect (pip)"
if ! "$peers/venv/bin/python" -c 'import copydetect, chardet' 2>/dev/null; then
  python3 -m venv "$peers/venv" &&
    "$peers/venv/bin/pip" install --quiet 'copydetect==0.5.0' 'chardet==5.2.0' ||
    { echo "install-peers: copydetect could not be installed"; status=1; }
fi
"$peers/venv/bin/python" -c 'import copydetect; print("copydetect", copydetect.__version__ if hasattr(copydetect, "__version__") else "installed")' 2>/dev/null || true

echo "== Dolos (npm)"
if [ ! -d "$peers/node/node_modules/@dodona/dolos-lib" ]; then
  mkdir -p "$peers/node" &&
    npm install --silent --no-audit --no-fund --prefix "$peers/node" '@dodona/dolos-lib@3.5.1' ||
    { echo "install-peers: @dodona/dolos-lib could not be installed"; status=1; }
fi
node -e 'console.log("dolos-lib", require(process.argv[1] + "/package.json").version)' \
  "$PWD/$peers/node/node_modules/@dodona/dolos-lib" 2>/dev/null || true

echo "== SIM (apt)"
if ! command -v sim_java >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq similarity-tester ||
      { echo "install-peers: similarity-tester could not be installed"; status=1; }
  else
    echo "install-peers: run as root (or: sudo apt-get install similarity-tester) for SIM"
    status=1
  fi
fi
command -v sim_java sim_c sim_text || true
exit $status
