#!/usr/bin/env bash
# The overlay's controls do what they say, clicked with xdotool in a window under Xvfb and openbox (the
# controls' rectangles come from the stats JSON of a first run with the same layout):
#  0. the stats' pass table is in execution order (the overlay's table is the same list);
#  1. a second click on "check culling" turns the check off again (ticking it used to add a line that
#     moved "two-phase" under the cursor); nothing else changes;
#  2. the debug view's "culling" and "LOD" radio buttons select their view (their labels used to clash
#     with a section header and a checkbox);
#  3. the keys: V cycles the debug views, H the Hi-Z view, F freezes, Space pauses (no frames) and N renders
#     one frame, L switches the shadows and K the clusters on and off (the renderer made again), O hides
#     the overlay; each change is logged;
#  4. --freeze on culls by occlusion, and R (shader reload) while frozen keeps the counts (it used to cull
#     nearly everything away against the recreated plugin's missing pyramid).
# $1: build directory, $2: source directory.
source "$(dirname "$0")/window_lib.sh"
args=(--width 900 --height 700 --instances 2000 --camera 40,1.7,40,90,0 --debug-view clusters)
start_wm

# The layout: a short run that writes its stats (with the controls' rectangles) and exits.
"$viewer" "${args[@]}" --frames 12 --stats "$out/layout.json" >"$out/layout.txt" 2>&1 || {
    cat "$out/layout.txt"; fail "layout run failed"; }
# The pass table in the order the passes run: the overlay last (it used to come first).
/usr/bin/python3 -c 'import json, sys; p = list(json.load(open(sys.argv[1]))["passes"]); assert p[-1] == "overlay" and p[0] == "cull.early.flag", p' \
    "$out/layout.json" || fail "passes out of order"

# 1 and 2.
launch "${args[@]}"
click "check culling"
click "check culling"
click "debug view: culling"
click "debug view: LOD"
grep '^culling: \|^debug view' "$out/log.txt" >"$out/changes.txt" || true
expected=$'culling: check culling on\nculling: check culling off\ndebug view culling\ndebug view lod'
[ "$(cat "$out/changes.txt")" = "$expected" ] || fail "changes logged: $(cat "$out/changes.txt"), expected: $expected"
echo "clicks: check culling on then off, debug views culling then lod"

# 3. Keys.
xdotool key --window "$wid" v
wait_for '^debug view clusters' 50
xdotool key --window "$wid" h
wait_for '^Hi-Z view min, mip 0' 50
xdotool key --window "$wid" f
wait_for '^culling: freeze on' 50
xdotool key --window "$wid" space
wait_for '^paused' 50
sleep 0.3
before=$(frame)
sleep 1
[ "$(frame)" -eq "$before" ] || fail "frames went on while paused ($before -> $(frame))"
xdotool key --window "$wid" n
wait_for '^step: one frame' 50
sleep 1
[ "$(frame)" -eq $((before + 1)) ] || fail "N rendered $(($(frame) - before)) frames, expected 1"
xdotool key --window "$wid" space
wait_for '^resumed' 50
frames_pass 3
xdotool key --window "$wid" l
wait_for '^shadows on: 3 cascades' 300
frames_pass 3
xdotool key --window "$wid" l
wait_for '^shadows off' 300
frames_pass 3
xdotool key --window "$wid" k
wait_for '^clusters on: the [a-z]* path' 300
frames_pass 3
xdotool key --window "$wid" k
wait_for '^clusters off' 300
frames_pass 3
xdotool key --window "$wid" o
wait_for '^overlay hidden' 50
frames_pass 2
quit
grep -q '^frame .* failed' "$out/log.txt" && fail "a frame failed"
echo "keys: V, H, F, Space, N, L, K, O each did and logged their change"

# 4. Frozen from the start, with and without R.
for run in plain reload; do
    launch "${args[@]}" --freeze on --stats "$out/frozen_$run.json"
    frames_pass 4
    if [ "$run" = reload ]; then
        xdotool key --window "$wid" r
        wait_for '^shaders reloaded' 300
        frames_pass 6
    fi
    quit
done
/usr/bin/python3 - "$out" <<'PY'
import json, sys
a, b = (json.load(open(f"{sys.argv[1]}/frozen_{r}.json")) for r in ("plain", "reload"))
key = lambda j: (j["frustum_visible"], j["occlusion_visible"], j["drawn"], j["views"][0]["culled"])
assert a["views"][0]["culled"]["occlusion"] > 50, f"--freeze on culls too little by occlusion: {key(a)}"
assert key(a) == key(b), f"R while frozen changed the counts: {key(a)} -> {key(b)}"
print(f"frozen: {key(a)}; the same after R")
PY
echo "viewer controls OK"
