#!/usr/bin/env bash
# The culling debug view (--debug-view culling) in headless screenshots, by pixel counts:
#  - plain run: few pure-green pixels (the city's own grass and leaves), none of the exact line colours (the checks can fail);
#  - two-phase: most of the scene is tinted green (drawn early), and the bounds of occlusion-culled
#    instances are drawn in magenta (255, 0, 255);
#  - single phase: the scene is tinted blue (late / single phase), nothing green;
#  - culling frozen at the flyover's start and seen from the other side of the city: the frozen frustum
#    in yellow (255, 255, 0) and the bounds of frustum-culled instances in red (255, 0, 0).
# Every run under validation with synchronization validation.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"

run() {  # name, options...
    local name=$1
    shift
    (cd "$out" && SIEVE_SYNC_VALIDATION=1 "$viewer" --headless --validation --width 640 --height 400 --overlay off \
        --instances 4000 "$@" >"$out/$name.txt" 2>&1) || { cat "$out/$name.txt"; echo "viewer failed ($name)"; exit 1; }
    if grep -q '^\[vulkan\]' "$out/$name.txt"; then cat "$out/$name.txt"; echo "validation messages ($name)"; exit 1; fi
}
run plain --frames 6 --screenshot "$out/plain.png" --stats "$out/plain.json"
run culling --frames 6 --debug-view culling --screenshot "$out/culling.png" --stats "$out/culling.json"
run single --frames 6 --debug-view culling --two-phase off --screenshot "$out/single.png"
run frozen --frames 9 --debug-view culling --freeze on --camera-path flyover --test-actions screenshot@4
[ -s "$out/sieve-screenshot-4.png" ] || { echo "no screenshot of frame 4"; exit 1; }

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]

def load(name):
    return np.asarray(Image.open(f"{out}/{name}").convert("RGB")).astype(int)

def share(img, channel):  # pixels where one channel dominates both others by far
    others = [c for c in range(3) if c != channel]
    dom = img[..., channel] > 1.8 * np.maximum(img[..., others[0]], img[..., others[1]])
    return dom.mean()

def exact(img, rgb):
    return int((img == np.array(rgb)).all(axis=2).sum())

magenta, red, yellow = (255, 0, 255), (255, 0, 0), (255, 255, 0)
plain, culling, single, frozen = (load("plain.png"), load("culling.png"), load("single.png"),
                                  load("sieve-screenshot-4.png"))
stats = json.load(open(f"{out}/culling.json"))
occluded = stats["frustum_visible"] - stats["occlusion_visible"]
print(f"plain: green {share(plain, 1):.1%}, magenta {exact(plain, magenta)}, yellow {exact(plain, yellow)}")
print(f"culling: green {share(culling, 1):.1%}, blue {share(culling, 2):.1%}, magenta {exact(culling, magenta)}"
      f" ({occluded} instances occlusion culled)")
print(f"single phase: green {share(single, 1):.1%}, blue {share(single, 2):.1%}")
print(f"frozen: yellow {exact(frozen, yellow)}, red {exact(frozen, red)}")
# The city has green materials of its own (grass, leaves: ~6% of the pixels in material mode).
assert share(plain, 1) < 0.15 and exact(plain, magenta) == 0 and exact(plain, yellow) == 0 and exact(plain, red) == 0
assert stats["debug_view"] == "culling", stats["debug_view"]
assert share(culling, 1) > share(plain, 1) + 0.3, "two-phase: the scene is not tinted green (drawn early)"
assert occluded > 0 and exact(culling, magenta) > 100, "no magenta bounds of occlusion-culled instances"
assert share(single, 2) > 0.3 and share(single, 1) < 0.01, "single phase: not tinted blue"
assert exact(frozen, yellow) > 200, "no frozen frustum (yellow)"
assert exact(frozen, red) > 200, "no red bounds of frustum-culled instances"
print("culling debug view OK")
PY
