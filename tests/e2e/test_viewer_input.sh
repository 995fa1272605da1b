#!/usr/bin/env bash
# sieve-viewer's window driven like a person would, with xdotool under Xvfb:
#  1. a mouse move followed at once by a press (both between two frames) and a release without moving:
#     no drag happened, the camera must not turn (it used to spin by the whole jump);
#     C without RenderDoc says so; then Escape: the viewer exits with code 0 within a second.
#  2. the control: a real drag turns the camera, and a tap of W shorter than a frame still moves it.
# The viewer prints its final camera as "camera: x,y,z,yaw,pitch".
# $1: build directory, $2: source directory.
set -euo pipefail
if [ "${1:-}" != --inside ]; then
    command -v xvfb-run >/dev/null || { echo "xvfb-run missing: apt-get install -y xvfb"; exit 1; }
    command -v xdotool >/dev/null || { echo "xdotool missing: apt-get install -y xdotool"; exit 1; }
    exec xvfb-run -a -s "-screen 0 1024x768x24" bash "$0" --inside "$@"
fi
build=$2
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
out=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$out"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$out/log.txt" ] && cat "$out/log.txt"; exit 1; }

start=40.000,1.700,40.000,90.00,0.00
# Starts the viewer, waits for its window and a few frames; sets pid and wid.
launch() {
    "$viewer" --width 640 --height 480 --instances 2000 --camera 40,1.7,40,90,0 --report-memory 1 \
        >"$out/log.txt" 2>&1 &
    pid=$!
    wid=$(xdotool search --sync --onlyvisible --name '^Sieve$' | head -n1)
    for _ in $(seq 100); do
        grep -q '^memory: frame 3 ' "$out/log.txt" && break
        kill -0 "$pid" 2>/dev/null || fail "the viewer exited early"
        sleep 0.1
    done
    grep -q '^memory: frame 3 ' "$out/log.txt" || fail "no frames rendered"
    xdotool windowfocus --sync "$wid"
}
frame() { grep -c '^memory: frame ' "$out/log.txt" || true; }
# Waits until n more frames have rendered, so that every input has been polled.
frames_pass() {
    local target=$(($(frame) + $1))
    for _ in $(seq 200); do [ "$(frame)" -ge "$target" ] && return 0; sleep 0.05; done
    fail "frames stopped"
}
# Escape, then the exit code and how long the exit took.
quit() {
    local t0 t1 rc=0
    t0=$(date +%s.%N)
    xdotool key Escape
    wait "$pid" || rc=$?
    t1=$(date +%s.%N)
    pid=
    [ "$rc" -eq 0 ] || fail "Escape: exit code $rc"
    awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 1.0) }' || fail "Escape took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s"
    grep -q '^Escape: quitting' "$out/log.txt" || fail "no 'Escape: quitting' line"
}
camera() { sed -n 's/^camera: \(-\?[0-9][-0-9.,]*\)$/\1/p' "$out/log.txt"; }  # the final --camera line, not the start description

# 1. Move, press at once (the overlay covers x < 420), hold still, release: no drag.
launch
xdotool mousemove --window "$wid" 440 60
frames_pass 2
xdotool mousemove --window "$wid" 620 440 mousedown 1
frames_pass 3
xdotool mouseup 1
frames_pass 2
# C without RenderDoc loaded: said on screen (the bottom bar) and in the log, nothing else happens.
xdotool key c
frames_pass 2
grep -q '^C: no RenderDoc capture, RenderDoc is not loaded' "$out/log.txt" || fail "C without RenderDoc: no feedback"
quit
[ "$(camera)" = "$start" ] || fail "a click after a move turned the camera: $(camera), expected $start"
echo "click without drag: camera unchanged ($(camera)); Escape exited 0 in under a second"

# 2. Control: a drag of 100 pixels to the right turns the camera right; a short tap of W moves it.
launch
xdotool mousemove --window "$wid" 500 300 mousedown 1
frames_pass 2
for x in 525 550 575 600; do xdotool mousemove --window "$wid" "$x" 300; frames_pass 1; done
frames_pass 1
xdotool mouseup 1
frames_pass 1
xdotool keydown w keyup w  # press and release at once: shorter than a frame
frames_pass 3
quit
/usr/bin/python3 - "$(camera)" <<'PY'
import sys
x, y, z, yaw, pitch = map(float, sys.argv[1].split(","))
# 100 px right at 0.15 degrees per pixel: yaw 90 -> 75; the drag measured from the press, so exactly.
assert abs(yaw - 75.0) < 0.01 and abs(pitch) < 0.01, f"drag: yaw {yaw}, pitch {pitch} (expected 75, 0)"
# Yaw 75 looks down -X mostly: W moves x down, by speed x one frame's time (> 0).
assert x < 40.0 - 1e-3 and abs(y - 1.7) < 1e-3, f"the W tap did not move the camera: {x} {y} {z}"
print(f"drag turned the camera to yaw {yaw}; the W tap moved it to x = {x}")
PY
echo "window input OK"
