#!/usr/bin/env bash
# The viewer's cluster flags end to end, under validation: the dense scene with --clusters on draws the
# picture of --clusters off with culling off (pixel for pixel: both draw the scene with the clusters built,
# the second through --cluster-path indirect and every cluster), the stats JSON carries the cluster keys
# with fewer triangles than instance culling alone, --cluster-path mesh either runs (a device with
# VK_EXT_mesh_shader: the same picture, also with --cluster-triangle-cull on) or is refused with a clear
# message and exit 1 (lavapipe), and bad values are refused with exit 2. $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"

common=(--headless --frames 8 --width 257 --height 145 --overlay off --scene dense --instances 36 --lod off
        --validation)
"$viewer" "${common[@]}" --clusters on --cluster-path indirect --screenshot "$out/on.png" --stats "$out/on.json" \
    >"$out/on.log" 2>&1
"$viewer" "${common[@]}" --clusters on --cluster-path indirect --frustum off --occlusion off --cone off \
    --screenshot "$out/all.png" --stats "$out/all.json" >"$out/all.log" 2>&1
"$viewer" "${common[@]}" --clusters off --stats "$out/off.json" >"$out/off.log" 2>&1
# The cluster-colour debug view: every cluster its own colour.
"$viewer" "${common[@]}" --clusters on --cluster-path indirect --debug-view clusters --screenshot "$out/colours.png" \
    --stats "$out/colours.json" >"$out/colours.log" 2>&1
grep -q "building clusters of" "$out/on.log" || { echo "no cluster progress line"; cat "$out/on.log"; exit 1; }
mesh=refused
set +e
"$viewer" "${common[@]}" --clusters on --cluster-path mesh --screenshot "$out/mesh.png" --stats "$out/mesh.json" \
    >"$out/mesh.log" 2>&1
rc=$?
set -e
if [ $rc -eq 0 ]; then
  mesh=ran
elif [ $rc -ne 1 ] || ! grep -q "no VK_EXT_mesh_shader" "$out/mesh.log"; then
  echo "--cluster-path mesh: exit $rc without the expected message"; cat "$out/mesh.log"; exit 1
fi
# The mesh path's per-triangle culling keeps the picture (where the mesh path runs).
if [ $mesh = ran ]; then
  "$viewer" "${common[@]}" --clusters on --cluster-path mesh --cluster-triangle-cull on \
      --screenshot "$out/meshcull.png" --stats "$out/meshcull.json" >"$out/meshcull.log" 2>&1
fi
if grep -q '^\[vulkan\]' "$out"/*.log; then echo "validation messages:"; grep '^\[vulkan\]' "$out"/*.log | head; exit 1; fi
set +e
"$viewer" --headless --clusters maybe >/dev/null 2>&1; bad1=$?
"$viewer" --headless --cluster-path fast >/dev/null 2>&1; bad2=$?
"$viewer" --headless --cluster-triangle-cull maybe >/dev/null 2>&1; bad3=$?
set -e
[ $bad1 -eq 2 ] && [ $bad2 -eq 2 ] && [ $bad3 -eq 2 ] ||
  { echo "bad flag values: exit $bad1, $bad2, $bad3 (want 2)"; exit 1; }

/usr/bin/python3 - "$out" "$mesh" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out, mesh = sys.argv[1], sys.argv[2]
on = json.load(open(f"{out}/on.json"))
off = json.load(open(f"{out}/off.json"))
for k in ("clusters_tested", "clusters_visible", "cluster_path", "cluster_triangles"):
    assert k in on, f"stats JSON lacks {k}"
assert on["cluster_path"] == "indirect" and off["cluster_path"] == "off", (on["cluster_path"], off["cluster_path"])
assert 0 < on["clusters_visible"] < on["clusters_tested"], (on["clusters_visible"], on["clusters_tested"])
assert on["clusters_overflow"] == 0
assert on["cluster_triangles"] == on["triangles"], (on["cluster_triangles"], on["triangles"])
assert on["triangles"] < off["triangles"], (on["triangles"], off["triangles"])
a = np.asarray(Image.open(f"{out}/on.png").convert("RGBA"))
b = np.asarray(Image.open(f"{out}/all.png").convert("RGBA"))
diff = int((a != b).any(axis=2).sum())
assert diff == 0, f"{diff} pixels differ between cluster culling and drawing every cluster"
print(f"triangles: instance culling {off['triangles']}, clusters {on['triangles']} "
      f"({100 * (1 - on['triangles'] / off['triangles']):.1f}% fewer); clusters tested {on['clusters_tested']}, "
      f"drawn {on['clusters_visible']}; mesh path {mesh}")
# The debug view paints clusters in many colours where the plain picture has a few material colours: count
# the distinct colours of the pixels that are not sky (the sky is the top-left pixel's colour).
def colours(path):
    img = np.asarray(Image.open(path).convert("RGB")).reshape(-1, 3)
    img = img[(img != img[0]).any(axis=1)]
    return len({tuple(p) for p in (img // 16)})
plain_colours, cluster_colours = colours(f"{out}/on.png"), colours(f"{out}/colours.png")
assert json.load(open(f"{out}/colours.json"))["debug_view"] == "clusters"
assert cluster_colours > 2 * plain_colours + 20, (plain_colours, cluster_colours)
print(f"debug view clusters: {cluster_colours} colour cells vs {plain_colours} without")
if mesh == "ran":
    m = np.asarray(Image.open(f"{out}/mesh.png").convert("RGBA"))
    diff = int((a != m).any(axis=2).sum())
    assert diff == 0, f"{diff} pixels differ between the mesh and indirect paths"
    mj = json.load(open(f"{out}/mesh.json"))
    assert mj["clusters_visible"] == on["clusters_visible"], (mj["clusters_visible"], on["clusters_visible"])
    assert mj["cluster_triangle_cull"] is False
    mp = mj["cluster_mesh_primitives_generated"]  # null where the device does not count them
    assert mp is None or 0 < mp <= mj["cluster_triangles"], (mp, mj["cluster_triangles"])
    c = np.asarray(Image.open(f"{out}/meshcull.png").convert("RGBA"))
    diff = int((a != c).any(axis=2).sum())
    assert diff == 0, f"{diff} pixels differ between the mesh path with triangle culling and the indirect path"
    assert json.load(open(f"{out}/meshcull.json"))["cluster_triangle_cull"] is True
assert on["cluster_triangle_cull"] is False  # the indirect path culls no triangles
assert on["cluster_mesh_primitives_generated"] is None  # counted on the mesh path only
PY
