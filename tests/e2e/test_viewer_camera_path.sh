#!/usr/bin/env bash
# --camera-path in a window (Xvfb + openbox): it plays once and ends, and the camera is then the user's
# (W moves it from the path's last pose); a movement key stops a path that plays; a label in the bottom
# bar says what plays (headless: the stats JSON has the bottom bar). The path used to loop forever and
# to override the keys and the mouse.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/window_lib.sh"
args=(--width 640 --height 400 --instances 2000)
start_wm

# The path's last pose: a headless run of two frames ends there.
"$viewer" "${args[@]}" --headless --frames 2 --camera-path orbit --stats "$out/headless.json" >"$out/headless.txt" 2>&1 ||
    { cat "$out/headless.txt"; fail "headless run"; }
end_pose=$(sed -n 's/^camera: \(-\?[0-9][-0-9.,]*\)$/\1/p' "$out/headless.txt")
/usr/bin/python3 - "$out/headless.json" <<'PY'
import json, sys
st = json.load(open(sys.argv[1]))["overlay"].get("status")
assert st and st["visible"], f"no bottom bar with the camera path's label: {st}"
PY

# 1. Once, then the camera is the user's.
launch "${args[@]}" --camera-path orbit --camera-path-seconds 2
wait_for '^camera path orbit: ended, the camera is yours' 150
frames_pass 2
xdotool keydown --window "$wid" w
frames_pass 4
xdotool keyup --window "$wid" w
frames_pass 2
quit
final=$(sed -n 's/^camera: \(-\?[0-9][-0-9.,]*\)$/\1/p' "$out/log.txt")
/usr/bin/python3 - "$end_pose" "$final" <<'PY'
import sys
end = list(map(float, sys.argv[1].split(",")))
fin = list(map(float, sys.argv[2].split(",")))
assert abs(end[3] - fin[3]) < 0.05 and abs(end[4] - fin[4]) < 0.05, f"the view turned after the path: {end} -> {fin}"
moved = sum((a - b) ** 2 for a, b in zip(end[:3], fin[:3])) ** 0.5
assert moved > 1e-3, f"W did not move the camera after the path ended: {end} -> {fin}"
print(f"path ended at {end}; W then moved the camera {moved:.3f}")
PY

# 2. A key takes the camera from a path that plays.
launch "${args[@]}" --camera-path orbit
frames_pass 2
xdotool keydown --window "$wid" d
frames_pass 2
xdotool keyup --window "$wid" d
wait_for '^camera path orbit: stopped by input' 50
quit
echo "camera path OK"
