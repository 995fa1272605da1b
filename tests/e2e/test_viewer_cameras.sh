#!/usr/bin/env bash
# Cameras on a glTF scene written here: a unit cube at the origin; camera 0 perspective under a rotated
# parent node (world (10, 0, 0) looking down -X, yfov such that the cube's near face fills half the
# height), camera 1 orthographic straight down from (0, 10, 0) (ymag 1: the top face fills half the
# height), camera 2 placed by no node. At 320x160 both file cameras put the cube at rows 40..119 and
# columns 120..199 (+-2 px). Without a camera the view frames the bounds (printed at load): the cube is
# centred and fills most of the picture without touching its edges. --camera-path orbit works on it; a
# camera the file lacks and an unknown path exit 2 naming what exists. All under validation.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"

/usr/bin/python3 - "$out/cube.gltf" <<'PY'
import base64, json, math, struct, sys
# 24 vertices (4 per face, outward normals), counter-clockwise seen from outside.
pos, nrm, idx = [], [], []
for axis in range(3):
    for sign in (1.0, -1.0):
        n = [0.0, 0.0, 0.0]; n[axis] = sign
        u = [0.0, 0.0, 0.0]; u[(axis + 1) % 3] = 1.0
        v = [0.0, 0.0, 0.0]; v[(axis + 2) % 3] = 1.0
        if sign < 0: u, v = v, u
        base = len(pos)
        for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            pos.append([0.5 * n[k] + 0.5 * a * u[k] + 0.5 * b * v[k] for k in range(3)])
            nrm.append(n)
        idx += [base, base + 1, base + 2, base, base + 2, base + 3]
blob = b"".join(struct.pack("<3f", *p) for p in pos) + b"".join(struct.pack("<3f", *p) for p in nrm) + \
    b"".join(struct.pack("<H", i) for i in idx)
s45 = math.sqrt(0.5)
doc = {
    "asset": {"version": "2.0"}, "scene": 0,
    "scenes": [{"nodes": [0, 1, 3]}],
    "nodes": [
        {"mesh": 0, "name": "cube"},
        {"name": "rig", "rotation": [0, s45, 0, s45], "children": [2]},
        {"name": "side", "camera": 0, "translation": [0, 0, 10]},
        {"name": "top", "camera": 1, "translation": [0, 10, 0], "rotation": [-s45, 0, 0, s45]},
    ],
    "cameras": [
        {"name": "side", "type": "perspective",
         "perspective": {"yfov": 2 * math.atan(1 / 9.5), "znear": 0.05, "aspectRatio": 2.0}},
        {"name": "top", "type": "orthographic", "orthographic": {"xmag": 2, "ymag": 1, "znear": 0.01, "zfar": 100}},
        {"name": "spare", "type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}},
    ],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}]}],
    "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 288}, {"buffer": 0, "byteOffset": 288, "byteLength": 288},
                    {"buffer": 0, "byteOffset": 576, "byteLength": 72}],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 24, "type": "VEC3", "min": [-0.5] * 3, "max": [0.5] * 3},
        {"bufferView": 1, "componentType": 5126, "count": 24, "type": "VEC3"},
        {"bufferView": 2, "componentType": 5123, "count": 36, "type": "SCALAR"},
    ],
}
json.dump(doc, open(sys.argv[1], "w"))
PY

common=(--headless --frames 5 --width 320 --height 160 --overlay off --lod off --validation --scene "$out/cube.gltf")
run() {  # name, extra flags...
  local name=$1
  shift
  "$viewer" "${common[@]}" "$@" --screenshot "$out/$name.png" >"$out/$name.log" 2>&1 || {
    cat "$out/$name.log"; echo "viewer failed ($name)"; exit 1; }
  if grep -q '^\[vulkan\]' "$out/$name.log"; then echo "validation messages ($name)"; grep '^\[vulkan\]' "$out/$name.log" | head; exit 1; fi
}
run side --camera-from-file
run top --camera-from-file 1
run framed
run orbit --camera-path orbit
grep '^camera:' "$out"/side.log "$out"/top.log "$out"/framed.log
grep -q "^bounds: min (-0.5, -0.5, -0.5), max (0.5, 0.5, 0.5)" "$out/framed.log" || { echo "bounds not printed"; exit 1; }
grep -q "^warning: cameras that no node of the scene places are ignored" "$out/framed.log" ||
  { echo "the unplaced camera is not listed"; exit 1; }
grep -q "^warning: 2 camera(s) of the file not chosen" "$out/framed.log" || { echo "the file's cameras are not listed"; exit 1; }
grep -q "^warning: 1 other camera(s) of the file not chosen" "$out/side.log" || { echo "the cameras not chosen are not listed"; exit 1; }

set +e
"$viewer" "${common[@]}" --camera-from-file 5 >"$out/missing.log" 2>&1; missing=$?
"$viewer" "${common[@]}" --camera-path street >"$out/path.log" 2>&1; path=$?
set -e
[ $missing -eq 2 ] && grep -q "no camera 5 (cameras: 0 1)" "$out/missing.log" || {
  cat "$out/missing.log"; echo "a missing file camera: exit $missing"; exit 1; }
[ $path -eq 2 ] && grep -q "unknown --camera-path 'street' (this scene has: orbit)" "$out/path.log" || {
  cat "$out/path.log"; echo "an unknown path: exit $path"; exit 1; }

/usr/bin/python3 - "$out" <<'PY'
import sys
import numpy as np
from PIL import Image
out = sys.argv[1]
def box(name):
    img = np.asarray(Image.open(f"{out}/{name}.png").convert("RGB")).astype(int)
    assert img.shape == (160, 320, 3), img.shape
    background = img[0, 0]
    ys, xs = np.nonzero(np.abs(img - background).sum(axis=2) > 24)
    assert len(ys) > 0, f"{name}: the cube is not in the picture"
    return ys.min(), ys.max(), xs.min(), xs.max()
for name in ("side", "top"):
    y0, y1, x0, x1 = box(name)
    print(f"{name}: rows {y0}..{y1}, columns {x0}..{x1}")
    for got, want in ((y0, 40), (y1, 119), (x0, 120), (x1, 199)):
        assert abs(int(got) - want) <= 2, (name, "cube at rows", y0, y1, "columns", x0, x1)
for name in ("framed", "orbit"):
    y0, y1, x0, x1 = box(name)
    print(f"{name}: rows {y0}..{y1}, columns {x0}..{x1}")
    assert y0 > 0 and x0 > 0 and y1 < 159 and x1 < 319, (name, "the cube touches the picture's edge")
    assert (y1 - y0 + 1) / 160 >= 0.7 or (x1 - x0 + 1) / 320 >= 0.7, (name, "the cube does not fill the view")
    assert abs((y0 + y1) / 2 - 79.5) < 24 and abs((x0 + x1) / 2 - 159.5) < 48, (name, "the cube is not centred")
print("cameras OK")
PY
