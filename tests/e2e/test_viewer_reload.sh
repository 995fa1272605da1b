#!/usr/bin/env bash
# Shader hot reload in the headless viewer, under validation with synchronization validation: a valid
# modified geometry fragment shader (flat magenta) is picked up after frame 2; a broken one after frame 4
# gives the compiler's error and leaves the magenta pipeline in place; rendering continues to the last
# frame. Every other shader is recompiled from the source tree too, so their #includes must resolve.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
fail() { echo "FAIL: $*"; exit 1; }

frag="$src/shaders/geometry/material.frag"
grep -q 'outColor = colour \* pc.tint;' "$frag" || fail "material.frag changed: update this test"
sed 's/outColor = colour \* pc.tint;/outColor = vec4(1.0, 0.0, 1.0, 1.0);/' "$frag" >"$out/magenta.frag"
sed 's/float lambert = /float lambert = undeclared_in_this_test + /' "$frag" >"$out/broken.frag"

common=(--headless --width 800 --height 300 --validation)
"$viewer" "${common[@]}" --frames 2 --screenshot "$out/before.png" >"$out/before.txt" 2>&1 || {
    cat "$out/before.txt"; fail "viewer failed without reload"; }
SIEVE_SYNC_VALIDATION=1 "$viewer" "${common[@]}" --frames 7 --screenshot "$out/after.png" --stats "$out/stats.json" \
    --test-reload-shader "geometry/material.frag=$out/magenta.frag" \
    --test-reload-shader "geometry/material.frag=$out/broken.frag" >"$out/log.txt" 2>&1 || {
    cat "$out/log.txt"; fail "viewer failed with reloads"; }
grep -v 'instances: ' "$out/log.txt"
if grep -q '^\[vulkan\]' "$out/log.txt"; then fail "validation messages"; fi
grep -q '^shaders reloaded: [0-9]* compiled' "$out/log.txt" || fail "the valid reload did not succeed"
grep -q '^shader reload failed, previous pipelines kept:' "$out/log.txt" || fail "the broken reload was not reported"
grep -q '^geometry/material.frag:[0-9]*: error: .*undeclared_in_this_test' "$out/log.txt" || fail "no compiler message"
grep -q '^frames: 7 rendered' "$out/log.txt" || fail "rendering did not continue to frame 7"

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
def magenta(name):
    img = np.asarray(Image.open(f"{out}/{name}").convert("RGB")).astype(int)
    assert img.shape == (300, 800, 3), img.shape
    scene = img[:, 430:].reshape(-1, 3)  # right of the overlay window
    return ((scene[:, 0] >= 250) & (scene[:, 1] <= 5) & (scene[:, 2] >= 250)).mean()
before, after = magenta("before.png"), magenta("after.png")
assert before == 0.0, f"magenta before any reload: {before:.2%}"
assert after > 0.2, f"the reloaded shader is not in the last frame: {after:.2%} magenta"
stats = json.load(open(f"{out}/stats.json"))
assert stats["frames"] == 7 and stats["drawn"] > 0, stats
print(f"shader reload OK: {after:.0%} of the scene magenta after the reload")
PY
