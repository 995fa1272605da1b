#!/usr/bin/env bash
# The Hi-Z view can be read (a window under Xvfb and openbox, xdotool): the image has the frame's aspect
# (the pyramid covers the frame; it used to take the pyramid's power-of-two aspect), and the texel under
# the cursor is read out: its mip and coordinates where the cursor is, and its min and max depth read back
# from the pyramid (the stats JSON's hiz_readout): the near street at the bottom of the picture has depth,
# the sky at the top none.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/window_lib.sh"
args=(--width 800 --height 450 --instances 3000 --camera 40,1.7,40,90,0 --hiz-view min --hiz-mip 2)
start_wm
"$viewer" "${args[@]}" --frames 10 --stats "$out/layout.json" >"$out/layout.txt" 2>&1 || {
    cat "$out/layout.txt"; fail "layout run failed"; }
rect=$(/usr/bin/python3 -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["overlay"]["controls"] if c["name"] == "Hi-Z image"]
assert len(c) == 1 and c[0]["visible"], c
x0, y0, x1, y1 = c[0]["rect"]
aspect = (x1 - x0) / (y1 - y0)
assert abs(aspect - 800 / 450) < 0.03, f"the Hi-Z image is {x1 - x0}x{y1 - y0}, aspect {aspect:.3f}, not the frame'"'"'s"
print(x0, y0, x1, y1)' "$out/layout.json") || fail "Hi-Z image rectangle"
read -r x0 y0 x1 y1 <<<"$rect"
echo "Hi-Z image at $rect: the frame's aspect"
for where in bottom top; do
    fy=0.92
    [ "$where" = top ] && fy=0.05
    px=$(awk -v a="$x0" -v b="$x1" 'BEGIN { printf "%d", a + (b - a) * 0.5 }')
    py=$(awk -v a="$y0" -v b="$y1" -v f="$fy" 'BEGIN { printf "%d", a + (b - a) * f }')
    launch "${args[@]}" --stats "$out/$where.json"
    xdotool mousemove --window "$wid" "$px" "$py"
    frames_pass 6
    quit
    /usr/bin/python3 - "$out/$where.json" "$where" "$fy" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])).get("hiz_readout")
where, fy = sys.argv[2], float(sys.argv[3])
assert r, "no texel read out under the cursor"
assert r["mip"] == 2, r
assert abs(r["x"] - r["mip_width"] * 0.5) <= 1.5 and abs(r["y"] - r["mip_height"] * fy) <= 1.5, f"texel {r} not under the cursor"
assert 0.0 <= r["min"] <= r["max"] <= 1.0, r
if where == "bottom":
    assert r["min"] > 0.0, f"the near street reads no depth: {r}"
else:
    assert r["max"] == 0.0, f"the sky reads depth: {r}"
print(f"{where}: {r}")
PY
done
echo "Hi-Z view OK"
