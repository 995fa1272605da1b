#!/usr/bin/env bash
# Long steps end to end, headless on lavapipe: a procedural city of 1,000,000 instances (progress printed
# while it is generated; a tiny viewport and a few frames, lavapipe draws slowly), and the test glTF
# replicated on a 4x4 grid under validation. Both read their culling counts back.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
fail() { echo "FAIL: $*"; exit 1; }

"$viewer" --headless --instances 1000000 --frames 5 --width 160 --height 90 --overlay off \
    --screenshot "$out/million.png" --stats "$out/million.json" >"$out/million.txt" 2>&1 || {
    cat "$out/million.txt"; fail "1,000,000 instances"; }
cat "$out/million.txt"
grep -q '^  instances: 50%' "$out/million.txt" || fail "no generation progress"
grep -q '^scene: 1000000 instances' "$out/million.txt" || fail "not 1,000,000 instances"

gltf="$src/tests/data/gltf/cube.gltf"
[ -f "$gltf" ] || fail "missing $gltf"
SIEVE_SYNC_VALIDATION=1 "$viewer" --headless --scene "$gltf" --grid 4x4 --frames 6 --width 320 --height 180 \
    --validation --screenshot "$out/grid.png" --stats "$out/grid.json" >"$out/grid.txt" 2>&1 || {
    cat "$out/grid.txt"; fail "glTF grid"; }
cat "$out/grid.txt"
if grep -q '^\[vulkan\]' "$out/grid.txt"; then fail "validation messages"; fi

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
m = json.load(open(f"{out}/million.json"))
assert m["counts_available"] and m["instances"] == 1000000, m
assert 0 < m["frustum_visible"] < 1000000 and m["drawn"] > 0 and m["overflow"] == 0, m
g = json.load(open(f"{out}/grid.json"))
assert g["counts_available"] and g["instances"] > 0 and g["instances"] % 16 == 0, g   # 4x4 copies
assert g["drawn"] > 0, g
for name, shape in (("million.png", (90, 160, 3)), ("grid.png", (180, 320, 3))):
    img = np.asarray(Image.open(f"{out}/{name}").convert("RGB"))
    assert img.shape == shape, (name, img.shape)
print(f"scale OK: {m['instances']} instances, {m['drawn']} draws; glTF grid {g['instances']} instances")
PY
