#!/usr/bin/env bash
# sieve-viewer edge cases: an empty scene (--instances 0) runs and reports zero counts; a device that
# cannot be had (SIEVE_DEVICE naming no device, an index out of range) is a one-line message naming the
# cause and exit status 1, not a crash.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
run=(--headless --width 64 --height 48 --overlay off)

echo "== zero instances"
timeout 120 "$viewer" "${run[@]}" --frames 6 --instances 0 --validation --stats "$out/zero.json" \
    --screenshot "$out/zero.png" >"$out/zero.log" 2>&1 || { cat "$out/zero.log"; echo "viewer failed on 0 instances"; exit 1; }
cat "$out/zero.log"
if grep -q '^\[vulkan\]' "$out/zero.log"; then echo "validation messages"; exit 1; fi
grep -q '^scene: 0 instances' "$out/zero.log" || { echo "the scene was not empty"; exit 1; }
/usr/bin/python3 - "$out/zero.json" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
assert stats["frames"] == 6, stats
for key in ["instances", "frustum_visible", "occlusion_visible", "drawn", "triangles", "overflow"]:
    assert stats[key] == 0, (key, stats[key])
print("zero instances OK")
PY

expect_failure() {  # name, expected words (grep -E), then the environment and arguments
    local name=$1 pattern=$2
    shift 2
    local rc=0
    timeout 60 env "$@" >"$out/$name.log" 2>&1 || rc=$?
    echo "== $name: exit $rc"
    cat "$out/$name.log"
    [ "$rc" -eq 1 ] || { echo "$name: expected exit status 1, got $rc"; exit 1; }
    grep -q '^sieve-viewer: ' "$out/$name.log" || { echo "$name: no 'sieve-viewer:' message"; exit 1; }
    grep -Eq "$pattern" "$out/$name.log" || { echo "$name: message does not say '$pattern'"; exit 1; }
}
expect_failure no-such-device "SIEVE_DEVICE='no-such-gpu' matches no device name" \
    SIEVE_DEVICE=no-such-gpu "$viewer" "${run[@]}" --frames 1
expect_failure device-index "SIEVE_DEVICE=99 but there are [0-9]+ devices" \
    SIEVE_DEVICE=99 "$viewer" "${run[@]}" --frames 1
# No Vulkan driver at all (an ICD list naming nothing usable): the context says so.
expect_failure no-driver "no Vulkan device found|cannot create a Vulkan instance|VK_ERROR" \
    VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json "$viewer" "${run[@]}" --frames 1
echo "reliability viewer OK"
