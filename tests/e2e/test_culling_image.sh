#!/usr/bin/env bash
# Culling does not change the picture: the default city rendered with LOD off and every culling stage on
# (frustum, occlusion, two-phase) equals, pixel for pixel, the render with culling off, at several
# cameras and odd resolutions; and there the culling stages remove at least half of the instances.
# Also: the atomic-append order draws the same picture, and the false-culling check (every instance
# culled by occlusion re-tested against the final depth) finds nothing. $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"

cameras=(
  "40,1.7,40,90,0"      # street level, looking along a street (the default view)
  "-35,1.7,118,20,3"    # another street corner, other direction
  "120,14,150,35,-12"   # above the roofs, looking down into the blocks
)
sizes=("333x187" "1919x1079")
i=0
for size in "${sizes[@]}"; do
  w=${size%x*}; h=${size#*x}
  for cam in "${cameras[@]}"; do
    # The big size only at the first camera: lavapipe renders on the CPU.
    if [[ $size == 1919x1079 && $i -gt 0 && $cam != "${cameras[0]}" ]]; then continue; fi
    common=(--headless --frames 5 --width "$w" --height "$h" --overlay off --lod off --camera "$cam" --validation)
    "$viewer" "${common[@]}" --check-culling on --screenshot "$out/on_$i.png" --stats "$out/on_$i.json" \
        > "$out/on_$i.log" 2>&1
    "$viewer" "${common[@]}" --frustum off --occlusion off --two-phase off \
        --screenshot "$out/off_$i.png" --stats "$out/off_$i.json" > "$out/off_$i.log" 2>&1
    "$viewer" "${common[@]}" --compaction atomic --screenshot "$out/atomic_$i.png" > "$out/atomic_$i.log" 2>&1
    if grep -q '^\[vulkan\]' "$out"/*_$i.log; then echo "validation messages:"; grep '^\[vulkan\]' "$out"/*_$i.log | head; exit 1; fi
    echo "$i $size $cam" >> "$out/cases.txt"
    i=$((i + 1))
  done
done

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
failed = False
for line in open(f"{out}/cases.txt"):
    i, size, cam = line.split()
    on = np.asarray(Image.open(f"{out}/on_{i}.png").convert("RGB"))
    off = np.asarray(Image.open(f"{out}/off_{i}.png").convert("RGB"))
    atomic = np.asarray(Image.open(f"{out}/atomic_{i}.png").convert("RGB"))
    w, h = map(int, size.split("x"))
    assert on.shape == (h, w, 3), on.shape
    diff = int((on != off).any(axis=2).sum())
    diff_atomic = int((on != atomic).any(axis=2).sum())
    s_on = json.load(open(f"{out}/on_{i}.json"))
    s_off = json.load(open(f"{out}/off_{i}.json"))
    n = s_on["instances"]
    drawn = s_on["occlusion_visible"]  # instances drawn (early + late phase)
    culled = 1.0 - drawn / n
    # The picture must not be trivial (sky only): several colours.
    colours = len(np.unique(on.reshape(-1, 3), axis=0))
    print(f"case {i} {size} camera {cam}: differing pixels {diff} (atomic {diff_atomic}), "
          f"instances {n}, frustum-visible {s_on['frustum_visible']}, drawn {drawn} "
          f"(culled {culled:.1%}), culling off drew {s_off['occlusion_visible']}, colours {colours}")
    if diff or diff_atomic:
        failed = True
        print("  FAIL: culling changed the picture")
    if culled < 0.5:
        failed = True
        print("  FAIL: culling removed less than half of the instances")
    if drawn >= s_on["frustum_visible"]:
        failed = True
        print("  FAIL: occlusion culled nothing of the frustum-visible set")
    if s_on.get("falsely_culled") != 0:
        failed = True
        print(f"  FAIL: the false-culling check found {s_on.get('falsely_culled')} instances culled with a visible pixel")
    if s_off["occlusion_visible"] != n:
        failed = True
        print("  FAIL: with culling off every instance must be drawn")
    if colours < 20:
        failed = True
        print("  FAIL: the image shows almost nothing")
sys.exit(1 if failed else 0)
PY
