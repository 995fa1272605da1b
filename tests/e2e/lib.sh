# Sourced by the e2e scripts: strict mode, the build directory ($1, as an absolute $build), the viewer under
# it, and the script's own temporary folder $out (scratch.sh).
set -euo pipefail
build=$(cd "$1" && pwd)
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/scratch.sh"
