#!/usr/bin/env bash
# --pick with the culling frozen and the camera moved, in a window (Xvfb + openbox, xdotool): culling
# frozen with F in a street, the camera turned 90 degrees to the right by a drag; at Escape the picks of a
# grid of pixels explain instances the frozen frustum culled (not drawn: the ray still meets them), with
# the CPU reference's verdict equal to the GPU's, and every instance agrees (--test-pick-verify).
# $1: build directory, $2: source directory.
source "$(dirname "$0")/window_lib.sh"
start_wm
grid=()
for y in 40 120 200 280 360; do for x in 40 160 320 480 600; do grid+=(--pick "$x,$y"); done; done
launch --width 640 --height 400 --instances 4000 --camera 40,1.7,40,90,0 --overlay off --test-pick-verify "${grid[@]}"
xdotool key --window "$wid" f
wait_for '^culling: freeze on' 50
frames_pass 4
xdotool mousemove --window "$wid" 20 200 mousedown 1
frames_pass 1
for x in 170 320 470 620; do xdotool mousemove --window "$wid" "$x" 200; frames_pass 1; done
xdotool mouseup 1
frames_pass 3
quit
grep '^pick verify' "$out/log.txt"
grep -q '^pick verify: .*, 0 mismatches$' "$out/log.txt" || fail "CPU and GPU decisions differ"
/usr/bin/python3 - "$out/log.txt" <<'PY'
import json, sys
picks = [json.loads(l[len("pick: "):]) for l in open(sys.argv[1]) if l.startswith("pick: ")]
assert len(picks) == 25, len(picks)
assert all(p["culling_camera"] == "frozen" for p in picks), [p["culling_camera"] for p in picks]
hits = [p for p in picks if p["instance"] is not None]
assert all(p["agree"] for p in hits), [p for p in hits if not p["agree"]]
culled = [p for p in hits if p["gpu_state"] == "frustum_culled"]
assert culled, f"no frustum-culled instance picked: {[p['gpu_state'] for p in hits]}"
c = culled[0]
assert c["cpu_decision"] == "frustum_culled" and c["tests"][0]["verdict"] == "culled", c
print(f"{len(culled)} of {len(hits)} picks explain frustum-culled instances, e.g. {c['instance']} "
      f"({c.get('mesh_name')}): outside the frozen frustum's {c['tests'][0]['outside_plane']} plane")
PY
echo "pick with frozen culling OK"
