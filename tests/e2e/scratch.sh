# Sourced by the e2e scripts: $out, the script's own temporary folder, removed on every exit. RenderDoc
# keeps its log under the fixed /tmp/RenderDoc and leaves that folder behind: it goes again when this
# script made it (rmdir: only when empty).
out=$(mktemp -d)
renderdoc_tmp_before=0
[ -d /tmp/RenderDoc ] && renderdoc_tmp_before=1
trap 'rm -rf "$out"; [ "$renderdoc_tmp_before" = 1 ] || rmdir /tmp/RenderDoc 2>/dev/null || true' EXIT
