#!/usr/bin/env bash
# Emissive textures are drawn (as PalmTree's water: emissiveFactor (1, 1, 1) with a teal emissive texture,
# which used to be drawn pure white, the factor without its texture). A glTF written here (with
# scripts/make_gltf_test_data.py's writer): a dark quad with emissiveFactor (1, 1, 1) and a teal emissive
# texture, beside one with an emissive factor alone; camera at (0, 0, 6) looking down -z. Each quad's centre
# pixel is its lit base colour plus factor x texture (sRGB decoded), and the loader has nothing to say.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
/usr/bin/python3 - "$src/scripts" "$out/emissive.gltf" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from make_gltf_test_data import Gltf, png, quad
g = Gltf()
teal = png(4, 4, [(40, 160, 170, 255)] * 16)
water = g.material("water", [0.1, 0.1, 0.1, 1], emissiveFactor=[1.0, 1.0, 1.0],
                   emissiveTexture={"index": g.texture(teal)})
g.node(quad(g, "water", water, size=1.6), "water", translation=[-1.2, 0, 0])
glow = g.material("glow", [0.1, 0.1, 0.1, 1], emissiveFactor=[0.5, 0.3, 0.0])
g.node(quad(g, "glow", glow, size=1.6), "glow", translation=[1.2, 0, 0])
g.write(sys.argv[2])
PY
"$viewer" --headless --frames 4 --width 320 --height 240 --overlay off --lod off --camera "0,0,6,0,0" \
    --scene "$out/emissive.gltf" --screenshot "$out/shot.png" >"$out/log.txt" 2>&1 || { cat "$out/log.txt"; exit 1; }
if grep -q '^warning:' "$out/log.txt"; then grep '^warning:' "$out/log.txt"; echo "FAIL: warnings"; exit 1; fi
/usr/bin/python3 - "$out/shot.png" <<'PY'
import math, sys
import numpy as np
from PIL import Image
img = np.asarray(Image.open(sys.argv[1]).convert("RGB")).astype(int)
H, W = img.shape[:2]
F = 1.0 / math.tan(math.radians(30.0))
def pixel_of(x, y, d=6.0):
    return int((x / d * F / (W / H) + 1) * 0.5 * W), int((1 - y / d * F) * 0.5 * H)
L = np.array([0.4, 0.8, 0.45]) / np.linalg.norm([0.4, 0.8, 0.45])
lit = np.array([0.1] * 3) * (0.35 + 0.65 * L[2])  # geometry/material.frag, normal +z
srgb = lambda c: np.where(c / 255 <= 0.04045, c / 255 / 12.92, ((c / 255 + 0.055) / 1.055) ** 2.4)
unorm = lambda v: np.round(np.clip(v, 0, 1) * 255).astype(int)
fail = False
for name, x, want in [("water (factor 1 x teal texture)", -1.2, unorm(lit + srgb(np.array([40.0, 160, 170])))),
                      ("glow (factor alone)", 1.2, unorm(lit + np.array([0.5, 0.3, 0.0])))]:
    px, py = pixel_of(x, 0)
    got = img[py, px]
    ok = np.abs(got - want).max() <= 2
    fail |= not ok
    print(("ok   " if ok else "FAIL ") + f"{name} at ({px}, {py}): {got.tolist()}, expected {want.tolist()}")
sys.exit(1 if fail else 0)
PY
echo "emissive textures OK"
