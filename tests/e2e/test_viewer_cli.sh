#!/usr/bin/env bash
# sieve-viewer's command line: --help lists every flag and exits 0; unknown flags and bad values exit 2
# with a message; a run without a display falls back to headless and says so.
# $1: build directory, $2: source directory.
set -uo pipefail
build=$1
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }

help=$("$viewer" --help) || fail "--help exited $?"
for flag in --headless --width --height --frames --overlay --screenshot --stats --camera --camera-path \
    --frustum --occlusion --two-phase --lod --lod-bias --compaction --freeze --instances --seed --scene \
    --grid --capture-frame --capture-file --validation --shader-dir --hiz-view --hiz-mip --test-reload-shader \
    --test-actions --test-resize-sequence; do
    grep -q -- "$flag" <<<"$help" || fail "--help does not list $flag"
done

expect2() {
    local msg
    msg=$("$viewer" "$@" 2>&1)
    local rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2"
    [ -n "$msg" ] || fail "'$*' printed no message"
}
expect2 --bogus
expect2 --width
expect2 --width 0
expect2 --width 12x
expect2 --frames -1
expect2 --overlay maybe
expect2 --camera 1,2,3
expect2 --camera 1,2,3,4,95
expect2 --compaction fast
expect2 --grid 3x
expect2 --lod-bias nan
expect2 --scene city.obj
expect2 --screenshot shot.jpg
expect2 --headless=yes
expect2 --test-resize-sequence 10x10,huge
expect2 --hiz-view median
expect2 --hiz-mip -1
expect2 --test-reload-shader geometry/mesh.frag
expect2 --test-actions explode@1
expect2 --test-actions screenshot@x

source "$(dirname "$0")/scratch.sh"
log=$(env -u DISPLAY -u WAYLAND_DISPLAY "$viewer" --frames 1 --width 32 --height 32 \
    --camera 1,2,3,45,-10 --compaction atomic --grid 4x5 --stats "$out/s.json" 2>&1) || fail "fallback run: $log"
grep -q "falling back to headless" <<<"$log" || fail "no fallback message: $log"
/usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['toggles']['compaction']=='atomic'" \
    "$out/s.json" || fail "stats toggles"
echo "viewer CLI OK"
