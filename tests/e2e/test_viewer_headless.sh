#!/usr/bin/env bash
# sieve-viewer --headless: 3 frames with validation; the screenshot is a PNG of the requested size showing
# the clear colour and the overlay, and the stats JSON has every documented key.
# $1: build directory, $2: source directory.
set -euo pipefail
build=$1
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$viewer" --headless --frames 3 --width 640 --height 360 --validation \
    --screenshot "$out/shot.png" --stats "$out/stats.json" 2>&1 | tee "$out/log.txt"
if grep -q '^\[vulkan\]' "$out/log.txt"; then echo "validation messages"; exit 1; fi

# Overlay off: the whole image is the clear colour.
"$viewer" --headless --frames 2 --width 64 --height 48 --overlay off --screenshot "$out/plain.png"

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
img = np.asarray(Image.open(f"{out}/shot.png").convert("RGB")).astype(int)
assert img.shape == (360, 640, 3), img.shape
clear = np.array([round(0.08 * 255), round(0.10 * 255), round(0.14 * 255)])
# Bottom-right corner: clear colour (the overlay sits at the top left).
corner = img[-20:, -20:].reshape(-1, 3)
assert (np.abs(corner - clear).max(axis=1) <= 1).all(), corner[0]
# Overlay region: many pixels differ from the clear colour.
region = img[10:200, 10:300].reshape(-1, 3)
differ = (np.abs(region - clear).max(axis=1) > 8).mean()
assert differ > 0.3, f"overlay region only {differ:.2%} different from the clear colour"
plain = np.asarray(Image.open(f"{out}/plain.png").convert("RGB")).astype(int)
assert plain.shape == (48, 64, 3)
assert (np.abs(plain.reshape(-1, 3) - clear).max(axis=1) <= 1).all(), "overlay off: not all clear colour"

stats = json.load(open(f"{out}/stats.json"))
for key in ["instances", "frustum_visible", "occlusion_visible", "drawn", "triangles", "overflow"]:
    assert isinstance(stats[key], int) and stats[key] >= 0, key
assert isinstance(stats["passes"], dict)
for name, ms in stats["passes"].items():
    assert isinstance(ms, float) and ms >= 0, (name, ms)
assert "clear" in stats["passes"] and "overlay" in stats["passes"], stats["passes"]
assert stats["frames"] == 3 and stats["width"] == 640 and stats["height"] == 360
print("headless viewer OK:", stats["passes"])
PY
