# Sourced (with the script's arguments: build directory, source directory) by the e2e scripts that drive
# sieve-viewer's window like a person, with xdotool under Xvfb and openbox: outside Xvfb it re-runs the
# script inside one. Then: $viewer, $out (a temporary folder), start_wm, launch ARGS... (the viewer, its
# window $wid, the log $out/log.txt, frames counted from --report-memory 1 lines), frames_pass N,
# wait_for PATTERN TENTHS, click NAME (an overlay control, by its rectangle in $out/layout.json: the
# stats JSON of a run with the same layout), quit (Escape, exit code 0).
if [ "${1:-}" != --inside ]; then
    for tool in xvfb-run xdotool openbox; do
        command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install -y xvfb xdotool openbox"; exit 1; }
    done
    exec xvfb-run -a -s "-screen 0 1280x900x24" bash "$0" --inside "$@"
fi
set -euo pipefail
build=$(cd "$2" && pwd)
viewer=$(find "$build" -name sieve-viewer -type f -perm -u+x | head -n1)
[ -x "$viewer" ] || { echo "sieve-viewer not found under $build"; exit 1; }
out=$(mktemp -d)
pid= wm=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    [ -n "$wm" ] && kill "$wm" 2>/dev/null
    rm -rf "$out"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$out/log.txt" ] && cat "$out/log.txt"; exit 1; }
start_wm() {
    openbox --sm-disable >"$out/openbox.txt" 2>&1 &
    wm=$!
    sleep 1
}
frame() { grep -c '^memory: frame ' "$out/log.txt" || true; }
frames_pass() {  # waits until $1 more frames have rendered, so that every input has been polled
    local target=$(($(frame) + $1))
    for _ in $(seq 400); do [ "$(frame)" -ge "$target" ] && return 0; sleep 0.05; done
    fail "frames stopped"
}
wait_for() {  # pattern, tenths of a second
    for _ in $(seq "$2"); do grep -q "$1" "$out/log.txt" && return 0; sleep 0.1; done
    fail "no '$1' in the log"
}
launch() {  # viewer arguments; --report-memory 1 is added
    "$viewer" "$@" --report-memory 1 >"$out/log.txt" 2>&1 &
    pid=$!
    wid=
    for _ in $(seq 300); do
        wid=$(xdotool search --onlyvisible --name '^Sieve$' 2>/dev/null | head -n1 || true)
        [ -n "$wid" ] && break
        kill -0 "$pid" 2>/dev/null || fail "the viewer exited before its window showed"
        sleep 0.1
    done
    [ -n "$wid" ] || fail "no window"
    wait_for '^memory: frame 3 ' 300
    xdotool windowfocus --sync "$wid" || true
}
quit() {
    local rc=0
    xdotool key --window "$wid" Escape
    wait "$pid" || rc=$?
    pid=
    [ "$rc" -eq 0 ] || fail "Escape: exit code $rc"
}
# The centre of the overlay control NAME in $out/layout.json (a stats JSON of a run with the same layout).
control_at() {
    /usr/bin/python3 - "$out/layout.json" "$1" <<'PY'
import json, sys
controls = json.load(open(sys.argv[1]))["overlay"]["controls"]
hit = [c for c in controls if c["name"] == sys.argv[2]]
assert len(hit) == 1, f"control {sys.argv[2]!r}: {len(hit)} found among {[c['name'] for c in controls]}"
c = hit[0]
assert c["visible"], f"control {c} is not visible"
x0, y0, x1, y1 = c["rect"]
# A checkbox's or radio button's box is at the left of its rectangle: click there.
print(int(x0 + min(8, (x1 - x0) / 2)), int((y0 + y1) / 2))
PY
}
click() {
    local xy
    xy=$(control_at "$1") || fail "no control '$1'"
    # shellcheck disable=SC2086
    xdotool mousemove --window "$wid" ${xy}
    frames_pass 2
    xdotool click 1
    frames_pass 3
}
