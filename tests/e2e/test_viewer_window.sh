#!/usr/bin/env bash
# sieve-viewer in a window under Xvfb, rendering the city through the culling plugin with the overlay and
# its Hi-Z view, under validation with synchronization validation: frames render and present, the overlay
# is in the screenshot, and resizes (including 1x1) and an iconify/restore go through without a
# validation message (each viewport change rebuilds the render graph while frames are in flight), nor
# does a shader reload (what the R key and the overlay's button do) between two frames.
# Xvfb has no window manager: the iconify request is made, but only a desktop minimizes the window (a
# 0x0 framebuffer, where the viewer skips frames).
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: apt-get install -y xvfb"; exit 1; }

SIEVE_SYNC_VALIDATION=1 xvfb-run -a -s "-screen 0 1280x1024x24" "$viewer" --frames 12 --width 640 --height 480 \
    --validation --hiz-view min --hiz-mip 1 --screenshot "$out/window.png" --stats "$out/stats.json" \
    --test-actions reload@4 --test-resize-sequence 800x600,1x1,min,321x203,640x480 >"$out/log.txt" 2>&1 || {
    cat "$out/log.txt"; echo "viewer failed"; exit 1; }
grep -v 'instances: ' "$out/log.txt"
grep -q "device: .*, window" "$out/log.txt" || { echo "did not run in a window"; exit 1; }
if grep -q '^\[vulkan\]' "$out/log.txt"; then echo "validation messages"; exit 1; fi
grep -q "test-resize-sequence: 1x1" "$out/log.txt"
grep -q "test-resize-sequence: iconify" "$out/log.txt"
grep -q "test-resize-sequence: restore" "$out/log.txt"
grep -q "^shaders reloaded: " "$out/log.txt" || { echo "the shader reload (R key / button) failed"; exit 1; }
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
# Overlay: white text (no scene colour is that bright) in the main window at the top left.
white = (img[20:200, 15:400] >= 235).all(axis=2).sum()
assert white > 100, f"no overlay text at the top left ({white} white pixels)"
# Hi-Z view window at the top right: grey levels (r == g == b) over a good part of it.
hiz = img[40:150, 440:630].reshape(-1, 3)
grey = ((np.abs(hiz[:, 0] - hiz[:, 1]) <= 1) & (np.abs(hiz[:, 1] - hiz[:, 2]) <= 1)).mean()
assert grey > 0.5, f"no Hi-Z view at the top right ({grey:.0%} grey)"
# The city: flat-shaded geometry in several colours below the Hi-Z window.
scene = img[200:, 420:].reshape(-1, 3)
colours = len(np.unique(scene[:, 0] * 65536 + scene[:, 1] * 256 + scene[:, 2]))
assert colours > 10, f"the scene has only {colours} colours"
stats = json.load(open(f"{out}/stats.json"))
assert stats["frames"] >= 12 and stats["width"] == 640 and stats["height"] == 480, stats
assert stats["drawn"] > 0 and "overlay.hiz" in stats["passes"], stats
print("window viewer OK")
PY
