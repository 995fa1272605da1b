#!/usr/bin/env bash
# The viewer on the glTF pipeline twins of tests/data/gltf/multi_mesh.gltf (scripts/make_gltf_test_data.py):
# - the EXT_mesh_gpu_instancing twin and the non-instanced quantized twin render the same picture and
#   count the same instances;
# - the quantized, meshopt and Draco twins render the picture of the float original, up to a small
#   share of pixels along edges (quantization moves vertices by up to ~3 mm here, see the unit test):
#   at most 1.5% of the pixels may differ, and those must lie next to an edge of the original image
#   (a pixel differs when a channel moves by more than 3 levels: the meshopt twin's octahedral normals
#   shift the shading of whole faces by a level or two);
# - a file whose extensionsRequired names an extension the loader lacks: exit 1, message naming it.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
data="$src/tests/data/gltf"
common=(--headless --frames 3 --width 320 --height 200 --overlay off --lod off --camera "0,7,13,0,-28" --validation)

for name in multi_mesh multi_mesh_packed multi_mesh_instanced multi_mesh_meshopt multi_mesh_draco; do
    file="$data/$name.gltf"
    [ -f "$file" ] || file="$data/$name.glb"
    "$viewer" "${common[@]}" --scene "$file" --screenshot "$out/$name.png" --stats "$out/$name.json" \
        >"$out/$name.log" 2>&1 || { cat "$out/$name.log"; echo "FAIL: the viewer failed on $name"; exit 1; }
    if grep -q '^\[vulkan\]' "$out/$name.log"; then grep '^\[vulkan\]' "$out/$name.log" | head; exit 1; fi
    if grep -q '^warning:' "$out/$name.log"; then grep '^warning:' "$out/$name.log"; echo "FAIL: warnings for $name"; exit 1; fi
done

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
load = lambda n: np.asarray(Image.open(f"{out}/{n}.png").convert("RGB")).astype(np.int16)
stats = lambda n: json.load(open(f"{out}/{n}.json"))
failed = False
orig = load("multi_mesh")
# Pixels next to a colour edge of the original (3x3 neighbourhood not uniform).
pad = np.pad(orig, ((1, 1), (1, 1), (0, 0)), mode="edge")
edge = np.zeros(orig.shape[:2], bool)
for dy in (-1, 0, 1):
    for dx in (-1, 0, 1):
        shifted = pad[1 + dy:1 + dy + orig.shape[0], 1 + dx:1 + dx + orig.shape[1]]
        edge |= (shifted != orig).any(axis=2)
colours = len(np.unique(orig.reshape(-1, 3), axis=0))
print(f"original: {colours} colours, {edge.mean():.1%} edge pixels, {stats('multi_mesh')['instances']} instances")
if colours < 8:
    failed = True
    print("FAIL: the original picture shows almost nothing")

def compare(a, b, limit, what):
    global failed
    delta = np.abs(load(a) - load(b)).max(axis=2)
    diff = delta > 3
    off_edge = int((diff & ~edge).sum())
    share = diff.mean()
    print(f"{what}: {int(diff.sum())} differing pixels ({share:.2%}, limit {limit:.1%}), {off_edge} away from edges, "
          f"{int((delta > 0).sum())} not identical")
    if share > limit or off_edge > 0:
        failed = True
        print(f"  FAIL: {what} differ")

n = stats("multi_mesh")["instances"]
for name in ("multi_mesh_packed", "multi_mesh_instanced", "multi_mesh_meshopt", "multi_mesh_draco"):
    if stats(name)["instances"] != n:
        failed = True
        print(f"FAIL: {name} has {stats(name)['instances']} instances, the original {n}")
compare("multi_mesh_instanced", "multi_mesh_packed", 0.002, "instanced vs non-instanced twin")
for name in ("multi_mesh_packed", "multi_mesh_instanced", "multi_mesh_meshopt", "multi_mesh_draco"):
    compare(name, "multi_mesh", 0.015, f"{name} vs float original")
sys.exit(1 if failed else 0)
PY

# An unknown required extension: exit 1 and the extension's name in the message.
/usr/bin/python3 - "$data/textured_quad.gltf" "$out/unknown.gltf" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["extensionsUsed"] = doc["extensionsRequired"] = ["KHR_sieve_unknown_test"]
json.dump(doc, open(sys.argv[2], "w"))
PY
rc=0
"$viewer" --headless --frames 1 --width 32 --height 32 --scene "$out/unknown.gltf" >"$out/unknown.log" 2>&1 || rc=$?
if [ "$rc" -ne 1 ] || ! grep -q '^sieve-viewer: .*required extension KHR_sieve_unknown_test is not supported' "$out/unknown.log"; then
    cat "$out/unknown.log"; echo "FAIL: unknown required extension: exit $rc"; exit 1
fi
echo "unknown required extension: exit 1: $(grep '^sieve-viewer: ' "$out/unknown.log" | cut -c1-160)"
