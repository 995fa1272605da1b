#!/usr/bin/env bash
# sieve-viewer --headless: the city through the culling plugin, 5 frames (counts arrive some frames late) under validation with
# synchronization validation; the screenshot is a PNG of the requested size with the overlay (and its
# Hi-Z view) over the scene, and the stats JSON has every documented key and the graph's passes.
# With the overlay off, no overlay pixel is left.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"

SIEVE_SYNC_VALIDATION=1 "$viewer" --headless --frames 5 --width 640 --height 360 --validation --hiz-view max \
    --screenshot "$out/shot.png" --stats "$out/stats.json" >"$out/log.txt" 2>&1 || {
    cat "$out/log.txt"; echo "viewer failed"; exit 1; }
grep -v 'instances: ' "$out/log.txt"
if grep -q '^\[vulkan\]' "$out/log.txt"; then echo "validation messages"; exit 1; fi

# Overlay off: the scene alone.
"$viewer" --headless --frames 2 --width 160 --height 90 --overlay off --screenshot "$out/plain.png" >/dev/null

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
img = np.asarray(Image.open(f"{out}/shot.png").convert("RGB")).astype(int)
assert img.shape == (360, 640, 3), img.shape
# Overlay text is white; no scene colour is that bright (flat-shaded palette, sky (135, 173, 217)).
white = lambda a: int((a >= 235).all(axis=2).sum())
assert white(img[15:200, 15:400]) > 100, "no overlay text at the top left"
# Hi-Z view at the top right: grey levels.
hiz = img[45:110, 450:620].reshape(-1, 3)
grey = ((np.abs(hiz[:, 0] - hiz[:, 1]) <= 1) & (np.abs(hiz[:, 1] - hiz[:, 2]) <= 1)).mean()
assert grey > 0.5, f"no Hi-Z view at the top right ({grey:.0%} grey)"
plain = np.asarray(Image.open(f"{out}/plain.png").convert("RGB")).astype(int)
assert plain.shape == (90, 160, 3)
assert white(plain) == 0, "overlay off: overlay pixels left"
colours = len(np.unique(plain[..., 0] * 65536 + plain[..., 1] * 256 + plain[..., 2]))
assert colours > 10, f"overlay off: the scene has only {colours} colours"

stats = json.load(open(f"{out}/stats.json"))
for key in ["instances", "frustum_visible", "occlusion_visible", "drawn", "triangles", "overflow"]:
    assert isinstance(stats[key], int) and stats[key] >= 0, key
assert stats["instances"] > 0 and stats["drawn"] > 0, stats
assert isinstance(stats["passes"], dict)
for name, ms in stats["passes"].items():
    assert isinstance(ms, float) and ms >= 0, (name, ms)
for name in ["cull.early.flag", "draw.early", "hiz.build", "cull.late.flag", "draw.late", "overlay", "overlay.hiz"]:
    assert name in stats["passes"], (name, stats["passes"])
assert stats["frames"] == 5 and stats["width"] == 640 and stats["height"] == 360
print("headless viewer OK:", sorted(stats["passes"]))
PY
