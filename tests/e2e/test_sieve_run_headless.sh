#!/usr/bin/env bash
# The README's run command, `scripts/sieve.sh run`, on a machine without a display: it leaves
# sieve-screenshot.png (not one colour) and sieve-stats.json (counts of a frame after occlusion culling
# started, which culled something) in the working directory and prints both paths. The packages and the
# build are taken as they are (SIEVE_SKIP_APT, SIEVE_SKIP_BUILD). The same where a display is named but
# no window can be opened (the viewer falls back to headless), and --stats naming a file replaces only
# the stats default. $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
mkdir "$out/cwd"
(cd "$out/cwd" && env -u DISPLAY -u WAYLAND_DISPLAY SIEVE_SKIP_APT=1 SIEVE_SKIP_BUILD=1 SIEVE_BUILD_DIR="$build" \
    bash "$src/scripts/sieve.sh" run) >"$out/log.txt" 2>&1 || { cat "$out/log.txt"; echo "sieve.sh run failed"; exit 1; }
grep -v 'instances: ' "$out/log.txt"
grep -qx "screenshot: $out/cwd/sieve-screenshot.png" "$out/log.txt" || { echo "the screenshot path is not printed"; exit 1; }
grep -qx "stats: $out/cwd/sieve-stats.json" "$out/log.txt" || { echo "the stats path is not printed"; exit 1; }

# A display that is not there: the window fails, the run falls back to headless and still leaves both.
mkdir "$out/cwd2"
(cd "$out/cwd2" && env -u WAYLAND_DISPLAY DISPLAY=:54321 SIEVE_SKIP_APT=1 SIEVE_SKIP_BUILD=1 SIEVE_BUILD_DIR="$build" \
    bash "$src/scripts/sieve.sh" run --width 160 --height 90 --stats "$out/named.json") >"$out/log2.txt" 2>&1 ||
  { cat "$out/log2.txt"; echo "sieve.sh run with a missing display failed"; exit 1; }
grep -q "falling back to headless" "$out/log2.txt" || { cat "$out/log2.txt"; echo "no fallback to headless"; exit 1; }
[ -s "$out/cwd2/sieve-screenshot.png" ] && [ -s "$out/named.json" ] && [ ! -e "$out/cwd2/sieve-stats.json" ] ||
  { ls -la "$out/cwd2"; echo "the fallback run did not write what it was asked to"; exit 1; }

/usr/bin/python3 - "$out/cwd" <<'PY'
import json, sys
import numpy as np
from PIL import Image
cwd = sys.argv[1]
img = np.asarray(Image.open(f"{cwd}/sieve-screenshot.png").convert("RGB")).astype(int)
assert img.shape == (720, 1280, 3), img.shape
colours = len(np.unique(img[..., 0] * 65536 + img[..., 1] * 256 + img[..., 2]))
assert colours > 50 and img.std() > 10, f"the screenshot is (nearly) uniform: {colours} colours"
s = json.load(open(f"{cwd}/sieve-stats.json"))
assert s["counts_available"] and s["toggles"]["occlusion"], s
assert s["counts_frame"] >= 2, f"counts of frame {s['counts_frame']}: before occlusion culling started"
assert s["occlusion_visible"] < s["frustum_visible"], ("occlusion culled nothing", s["occlusion_visible"], s["frustum_visible"])
print(f"sieve.sh run OK: {colours} colours; frame {s['counts_frame']}: {s['frustum_visible']} in the frustum, "
      f"{s['occlusion_visible']} after occlusion, {s['drawn']} draws, {s['triangles']} triangles")
PY
