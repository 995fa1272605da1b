# Sourced by the e2e scripts: strict mode, the viewer under the build directory ($1), and a temporary
# folder ($out) of the script's own that is removed on every exit.
set -euo pipefail
build=$1
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
