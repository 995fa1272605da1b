#!/usr/bin/env bash
# sieve-viewer in a window under Xvfb with validation: frames render and present, the overlay is in the
# screenshot, and resizes (including 1x1) and iconify/restore go through without a validation message.
# $1: build directory, $2: source directory.
set -euo pipefail
build=$1
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: apt-get install -y xvfb"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

xvfb-run -a -s "-screen 0 1280x1024x24" "$viewer" --frames 12 --width 640 --height 480 --validation \
    --screenshot "$out/window.png" --stats "$out/stats.json" \
    --test-resize-sequence 800x600,1x1,min,321x203,640x480 >"$out/log.txt" 2>&1 || {
    cat "$out/log.txt"; echo "viewer failed"; exit 1; }
cat "$out/log.txt"
grep -q "device: .*, window" "$out/log.txt" || { echo "did not run in a window"; exit 1; }
if grep -q '^\[vulkan\]' "$out/log.txt"; then echo "validation messages"; exit 1; fi
grep -q "test-resize-sequence: 1x1" "$out/log.txt"
grep -q "test-resize-sequence: restore" "$out/log.txt"
# One swapchain at start, then one per size change at least (800x600, 1x1, 321x203, 640x480).
created=$(sed -n 's/^swapchain: created \([0-9]*\) times/\1/p' "$out/log.txt")
[ -n "$created" ] && [ "$created" -ge 5 ] || { echo "swapchain created ${created:-?} times, expected >= 5"; exit 1; }

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
img = np.asarray(Image.open(f"{out}/window.png").convert("RGB")).astype(int)
assert img.shape == (480, 640, 3), img.shape   # the last size of the sequence
clear = np.array([round(0.08 * 255), round(0.10 * 255), round(0.14 * 255)])
corner = img[-20:, -20:].reshape(-1, 3)
assert (np.abs(corner - clear).max(axis=1) <= 1).all(), corner[0]
region = img[10:200, 10:300].reshape(-1, 3)
differ = (np.abs(region - clear).max(axis=1) > 8).mean()
assert differ > 0.3, f"overlay region only {differ:.2%} different from the clear colour"
stats = json.load(open(f"{out}/stats.json"))
assert stats["frames"] >= 12 and stats["width"] == 640 and stats["height"] == 480, stats
print("window viewer OK")
PY
