#!/usr/bin/env bash
# Clusters keep the picture (issue 23): the viewer with --clusters on draws, pixel for pixel, what it draws
# with --clusters off, with every culling stage on, the scene's own materials, at odd sizes and cameras used
# nowhere else: the procedural city, the glTF material scene (textures, normal map, alpha mask and blend,
# double-sided cards, a mirrored wedge) on a grid, and mirrored.gltf. The cluster path is `auto` (the mesh
# path where the device has VK_EXT_mesh_shader) and `indirect`. Under validation. $1: build directory,
# $2: source directory.
set -euo pipefail
build=$1
src=$2
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export SIEVE_MAX_ANISOTROPY=1

# name, then the viewer's scene flags
run_case() {
  local name=$1
  shift
  local common=(--headless --frames 8 --overlay off --lod off --validation "$@")
  for mode in off auto indirect; do
    local flags=(--clusters on --cluster-path "$mode")
    [ "$mode" = off ] && flags=(--clusters off)
    "$viewer" "${common[@]}" "${flags[@]}" --screenshot "$out/$name.$mode.png" --stats "$out/$name.$mode.json" \
        >"$out/$name.$mode.log" 2>&1 || { cat "$out/$name.$mode.log"; echo "FAIL: $name $mode: the viewer failed"; exit 1; }
  done
}
run_case city --instances 3000 --width 713 --height 397 --camera "-23,17,31,215,-14"
run_case materials --scene "$src/tests/data/gltf/materials.gltf" --grid 2x2 --width 347 --height 211 \
    --camera "7.3,3.1,9.7,36,-13"
run_case mirrored --scene "$src/tests/data/gltf/mirrored.gltf" --width 229 --height 157 --camera "-1.6,0.8,1.9,-40,-18"
if grep -q '^\[vulkan\]' "$out"/*.log; then echo "validation messages:"; grep '^\[vulkan\]' "$out"/*.log | head; exit 1; fi

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
failed = False
for name in ("city", "materials", "mirrored"):
    off = np.asarray(Image.open(f"{out}/{name}.off.png").convert("RGBA"))
    # The scene is in view: not a picture of the sky (the top-left pixel's colour) alone.
    sky = int((off == off[0, 0]).all(axis=2).sum())
    if sky > 0.9 * off.shape[0] * off.shape[1]:
        print(f"FAIL {name}: {sky} of {off.shape[0] * off.shape[1]} pixels are sky"); failed = True
    for mode in ("auto", "indirect"):
        on = np.asarray(Image.open(f"{out}/{name}.{mode}.png").convert("RGBA"))
        stats = json.load(open(f"{out}/{name}.{mode}.json"))
        diff = int((on != off).any(axis=2).sum())
        ok = diff == 0 and stats["clusters_visible"] > 0 and stats["clusters_overflow"] == 0
        ok = ok and stats["triangles"] == stats["cluster_triangles"]
        print(("ok   " if ok else "FAIL ") + f"{name} --cluster-path {mode} ({stats['cluster_path']}): {diff} pixels "
              f"differ from --clusters off; {stats['clusters_visible']} clusters drawn, {stats['triangles']} "
              f"triangles ({stats['triangles_source']}), cluster sum {stats['cluster_triangles']}")
        failed |= not ok
sys.exit(1 if failed else 0)
PY
