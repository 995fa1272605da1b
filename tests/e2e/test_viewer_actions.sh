#!/usr/bin/env bash
# The overlay's buttons, pressed through --test-actions in a headless run (the same code path as a click or
# the P/C/R keys): "screenshot" writes sieve-screenshot-<frame>.png into the working directory, "RenderDoc
# capture" captures the next frame (when librenderdoc is installed), "reload shaders" recompiles and
# rebuilds; validation stays clean and every frame renders.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*"; exit 1; }

actions=screenshot@1,reload@3
capture=()
if [ -e /usr/lib/librenderdoc.so ] || ldconfig -p | grep -q librenderdoc.so; then
    actions=$actions,capture@2
    capture=(--capture-file "$out/button")
else
    echo "librenderdoc.so not installed: the capture button is not tested"
fi
(cd "$out" && "$viewer" --headless --frames 5 --width 320 --height 180 --test-actions "$actions" "${capture[@]}" \
    >"$out/log.txt" 2>&1) || { cat "$out/log.txt"; fail "viewer failed"; }
grep -v 'instances: ' "$out/log.txt"
grep -q '^screenshot: sieve-screenshot-1.png' "$out/log.txt" || fail "the screenshot button was not reported"
[ -s "$out/sieve-screenshot-1.png" ] || fail "no sieve-screenshot-1.png"
grep -q '^shaders reloaded: ' "$out/log.txt" || fail "the reload button did not reload"
grep -q '^frames: 5 rendered' "$out/log.txt" || fail "not every frame rendered"
if [ ${#capture[@]} -gt 0 ]; then
    shopt -s nullglob
    rdc=("$out"/button*.rdc)
    [ ${#rdc[@]} -eq 1 ] || fail "expected one capture from the button, found ${rdc[*]:-none}"
    grep -qF "RenderDoc capture: ${rdc[0]}" "$out/log.txt" || fail "the capture was not reported"
fi
# Validation on the same actions (without RenderDoc, whose layer hides validation messages).
(cd "$out" && SIEVE_SYNC_VALIDATION=1 "$viewer" --headless --frames 5 --width 320 --height 180 --validation \
    --test-actions screenshot@1,reload@3 >"$out/log_validation.txt" 2>&1) || {
    cat "$out/log_validation.txt"; fail "viewer failed under validation"; }
if grep -q '^\[vulkan\]' "$out/log_validation.txt"; then fail "validation messages"; fi

/usr/bin/python3 - "$out/sieve-screenshot-1.png" <<'PY'
import sys
import numpy as np
from PIL import Image
img = np.asarray(Image.open(sys.argv[1]).convert("RGB"))
assert img.shape == (180, 320, 3), img.shape
assert len(np.unique(img.reshape(-1, 3), axis=0)) > 10, "the screenshot is (nearly) one colour"
print("overlay buttons OK")
PY
