# Sourced by the sieve-bench e2e scripts ($1: build directory, $2: source directory): strict mode, $BENCH
# (the build's sieve-bench), $SRC (the source tree), and the script's own temporary folder $WORK, removed
# on every exit, as the working directory.
set -euo pipefail
BENCH="$(cd "$1" && pwd)/samples/bench/sieve-bench"
SRC="$(cd "$2" && pwd)"
[ -x "$BENCH" ] || { echo "missing $BENCH"; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
