#!/usr/bin/env bash
# Culling does not change the picture with cascaded shadows either: the default city with --shadows on
# (3 cascades, each a culling view: frustum test, shadow casters, culled by the early pass), LOD off and
# every culling stage on equals, pixel for pixel, the render with culling off, at several cameras and
# odd resolutions; each shadow view culls at least half of the instances; the false-culling check finds
# nothing; and the shadows are really there (the picture differs from --shadows off).
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"

cameras=("40,1.7,40,90,0" "-35,1.7,118,20,3" "120,14,150,35,-12")
sizes=("333x187" "641x361")
i=0
for size in "${sizes[@]}"; do
  w=${size%x*}; h=${size#*x}
  for cam in "${cameras[@]}"; do
    if [[ $size == 641x361 && $cam != "${cameras[0]}" ]]; then continue; fi
    common=(--headless --frames 5 --width "$w" --height "$h" --overlay off --lod off --camera "$cam" --validation
            --shadows on --cascades 3)
    "$viewer" "${common[@]}" --check-culling on --screenshot "$out/on_$i.png" --stats "$out/on_$i.json" \
        > "$out/on_$i.log" 2>&1
    "$viewer" "${common[@]}" --frustum off --occlusion off --two-phase off \
        --screenshot "$out/off_$i.png" --stats "$out/off_$i.json" > "$out/off_$i.log" 2>&1
    if grep -q '^\[vulkan\]' "$out"/*_$i.log; then echo "validation messages:"; grep '^\[vulkan\]' "$out"/*_$i.log | head; exit 1; fi
    echo "$i $size $cam" >> "$out/cases.txt"
    i=$((i + 1))
  done
done
"$viewer" --headless --frames 5 --width 333 --height 187 --overlay off --lod off --camera "${cameras[0]}" \
    --shadows off --screenshot "$out/noshadow.png" > "$out/noshadow.log" 2>&1

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
failed = False
def fail(msg):
    global failed
    failed = True
    print("  FAIL:", msg)
for line in open(f"{out}/cases.txt"):
    i, size, cam = line.split()
    on = np.asarray(Image.open(f"{out}/on_{i}.png").convert("RGB"))
    off = np.asarray(Image.open(f"{out}/off_{i}.png").convert("RGB"))
    diff = int((on != off).any(axis=2).sum())
    s_on = json.load(open(f"{out}/on_{i}.json"))
    s_off = json.load(open(f"{out}/off_{i}.json"))
    n = s_on["instances"]
    views = s_on["views"]
    shadows = [v for v in views if v["kind"] == "shadow"]
    print(f"case {i} {size} camera {cam}: differing pixels {diff}, falsely culled {s_on.get('falsely_culled')}, "
          + ", ".join(f"{v['name']} {v['frustum_visible']}/{n}" for v in views))
    if diff:
        fail("culling changed the shadowed picture")
    if len(shadows) != 3 or [v["name"] for v in views] != ["camera", "cascade 0", "cascade 1", "cascade 2"]:
        fail(f"views {[v['name'] for v in views]}")
    for v in shadows:
        if v["frustum_visible"] > n / 2:
            fail(f"{v['name']} culled less than half of the instances")
        if v["drawn"] != sum(v["bins"].values()) or v["occlusion_visible"] != v["frustum_visible"]:
            fail(f"{v['name']} counts inconsistent: {v}")
    for v in s_off["views"]:
        if v["frustum_visible"] != n:
            fail(f"culling off: {v['name']} saw {v['frustum_visible']} of {n}")
    if s_on.get("falsely_culled") != 0:
        fail(f"the false-culling check found {s_on.get('falsely_culled')}")
case0 = np.asarray(Image.open(f"{out}/on_0.png").convert("RGB"))
plain = np.asarray(Image.open(f"{out}/noshadow.png").convert("RGB"))
shadowed = int((case0 != plain).any(axis=2).sum())
print(f"pixels the shadows change: {shadowed}")
if shadowed < case0.shape[0] * case0.shape[1] // 50:
    fail("the shadows change almost nothing")
sys.exit(1 if failed else 0)
PY
