#!/usr/bin/env bash
# A right click on the scene picks (a window under Xvfb and openbox, xdotool): the instance under the
# cursor and every test's verdict go to the log as a 'pick: {JSON}' line (the CPU reference agreeing with
# the GPU) and to the overlay's pick window (its rectangle in the stats JSON), and its bounds are drawn
# (orange, in a screenshot: P); a right click on the sky says so; a right click over the overlay picks
# nothing.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/window_lib.sh"
start_wm
cd "$out"  # P writes its screenshot here
launch --width 800 --height 450 --instances 3000 --camera 40,30,40,90,20 --stats "$out/stats.json"
picks() { grep -c '^pick: ' "$out/log.txt" || true; }
xdotool mousemove --window "$wid" 100 60  # over the overlay: no pick
frames_pass 2
xdotool click 3
frames_pass 4
[ "$(picks)" = 0 ] || fail "a right click over the overlay picked"
xdotool mousemove --window "$wid" 600 420  # a building
frames_pass 2
xdotool click 3
wait_for '^pick: ' 100
frames_pass 2
xdotool key --window "$wid" p
wait_for '^screenshot: sieve-screenshot-' 50
frames_pass 3
xdotool mousemove --window "$wid" 600 60  # the sky
frames_pass 2
xdotool click 3
for _ in $(seq 100); do [ "$(picks)" -ge 2 ] && break; sleep 0.1; done
frames_pass 3
quit
/usr/bin/python3 - "$out/log.txt" "$out/stats.json" <<'PY'
import json, sys
picks = [json.loads(l[len("pick: "):]) for l in open(sys.argv[1]) if l.startswith("pick: ")]
assert len(picks) == 2, picks
street, sky = picks
assert street["pixel"] == [600, 420] and street["instance"] is not None and street["agree"], street
assert street["gpu_state"].startswith("drawn"), street
assert sky["pixel"] == [600, 60] and sky["instance"] is None, sky
w = [c for c in json.load(open(sys.argv[2]))["overlay"]["controls"] if c["name"] == "pick window"]
assert len(w) == 1 and w[0]["visible"], f"no pick window in the overlay: {w}"
shot = [l.split()[1] for l in open(sys.argv[1]) if l.startswith("screenshot: sieve-screenshot-")][0]
import numpy as np
from PIL import Image
img = np.asarray(Image.open(shot).convert("RGB")).astype(int)
orange = int(((img[..., 0] == 255) & (img[..., 1] == 128) & (img[..., 2] == 0)).sum())
assert orange > 50, f"the picked instance's bounds are not drawn ({orange} orange pixels)"
print(f"street: {orange} orange pixels of the picked bounds;", end=" ")
print(f"street: instance {street['instance']} ({street.get('mesh_name')}) {street['gpu_state']}; sky: none; "
      f"pick window at {w[0]['rect']}")
PY
echo "pick by right click OK"
