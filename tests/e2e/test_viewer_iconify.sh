#!/usr/bin/env bash
# sieve-viewer iconified under a window manager (openbox, in Xvfb): while minimized it renders no frames
# (it sleeps in glfwWaitEvents; a WM keeps the framebuffer size, so a 0x0 check alone is not enough);
# restored, it renders again; Escape exits 0.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/window_lib.sh"
frames() { frame; }
start_wm
"$viewer" --width 480 --height 320 --instances 2000 --report-memory 1 >"$out/log.txt" 2>&1 &
pid=$!
wid=$(xdotool search --sync --onlyvisible --name '^Sieve$' | head -n1)
wait_for '^memory: frame 3 ' 100

xdotool windowminimize --sync "$wid"
wait_for '^window iconified' 50
sleep 0.3  # a frame that was in flight when the request came
n1=$(frames)
sleep 2
n2=$(frames)
[ "$n1" -eq "$n2" ] || fail "rendered $((n2 - n1)) frames in 2 s while iconified"
echo "iconified: no frames in 2 s (still at $n2)"

xdotool windowactivate --sync "$wid"
wait_for '^window restored' 50
for _ in $(seq 100); do [ "$(frames)" -ge $((n2 + 3)) ] && break; sleep 0.1; done
[ "$(frames)" -ge $((n2 + 3)) ] || fail "no frames after the restore"
xdotool windowfocus --sync "$wid" key Escape
rc=0
wait "$pid" || rc=$?
pid=
[ "$rc" -eq 0 ] || fail "exit code $rc"
grep -q '^frames: .* rendered' "$out/log.txt" || fail "no summary"
echo "iconify OK"
