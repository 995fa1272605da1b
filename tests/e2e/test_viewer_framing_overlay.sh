#!/usr/bin/env bash
# Auto-framing keeps the scene off the overlay: a glTF scene without a chosen camera is framed in the part
# of the picture the overlay's main window leaves free (headless, overlay on: the window sits in the
# top-left quarter). For a wide and a tall picture: the run's final camera is taken again with the overlay
# off, and no pixel of the scene (anything but the sky) may lie under the overlay's window as the stats
# JSON records it, while the scene still fills much of the free part. With the overlay off the framing is
# the centred one of test_viewer_cameras.sh.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
scene="$2/tests/data/gltf/multi_mesh.gltf"

for size in 640x360 360x640; do
    w=${size%x*} h=${size#*x}
    "$viewer" --headless --frames 4 --width "$w" --height "$h" --scene "$scene" --stats "$out/framed_$size.json" \
        >"$out/framed_$size.txt" 2>&1 || { cat "$out/framed_$size.txt"; echo "FAIL: viewer ($size)"; exit 1; }
    grep '^camera: framing' "$out/framed_$size.txt"
    grep -q "what the overlay leaves free" "$out/framed_$size.txt" || { echo "FAIL: not framed beside the overlay"; exit 1; }
    cam=$(grep '^camera: [-0-9]' "$out/framed_$size.txt" | tail -n1 | cut -d' ' -f2)
    "$viewer" --headless --frames 2 --width "$w" --height "$h" --scene "$scene" --overlay off --camera "$cam" \
        --screenshot "$out/scene_$size.png" >"$out/scene_$size.txt" 2>&1 || {
        cat "$out/scene_$size.txt"; echo "FAIL: viewer ($size, the framed camera)"; exit 1; }
done

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
for size in ["640x360", "360x640"]:
    w, h = map(int, size.split("x"))
    win = json.load(open(f"{out}/framed_{size}.json"))["overlay"]["window"]["rect"]
    img = np.asarray(Image.open(f"{out}/scene_{size}.png").convert("RGB")).astype(int)
    scene = np.abs(img - img[0, 0]).sum(axis=2) > 24
    ys, xs = np.nonzero(scene)
    assert len(ys) > 0, f"{size}: the scene is not in the picture"
    x0, y0, x1, y1 = (int(v) for v in win)
    under = scene[max(y0, 0):min(y1 + 1, h), max(x0, 0):min(x1 + 1, w)].sum()
    assert under == 0, f"{size}: {under} scene pixels under the overlay's window {win}"
    # The free part the scene went to: right of the window or below it; the scene fills much of it.
    right, below = (xs.min() > x1), (ys.min() > y1)
    assert right or below, f"{size}: the scene {xs.min()}..{xs.max()} x {ys.min()}..{ys.max()} overlaps {win}"
    free_w, free_h = (w - x1, h) if right else (w, h - y1)
    fill = max((xs.max() - xs.min() + 1) / free_w, (ys.max() - ys.min() + 1) / free_h)
    assert fill >= 0.6, f"{size}: the scene fills only {fill:.0%} of the free part"
    print(f"{size}: overlay window {win}; the scene at x {xs.min()}..{xs.max()}, y {ys.min()}..{ys.max()} "
          f"({'right of' if right else 'below'} it, filling {fill:.0%} of the free part)")
print("framing beside the overlay OK")
PY
