#!/usr/bin/env bash
# The overlay fits: in a window (Xvfb) at 640x400 and 1280x720 every section's header is inside the
# window and not scrolled away (the viewer writes each header's rectangle to its stats JSON, and the
# screenshot must show header text there), the bottom bar with the last action's result and the frozen
# banner is on screen; the pass table shows no row cut at its bottom; headless screenshots keep the overlay
# within a quarter of the image.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: apt-get install -y xvfb"; exit 1; }

for size in 640x400 1280x720; do
    w=${size%x*} h=${size#*x}
    (cd "$out" && xvfb-run -a -s "-screen 0 1400x900x24" "$viewer" --frames 8 --width "$w" --height "$h" \
        --instances 3000 --freeze on --test-actions screenshot@2 --screenshot "$out/window_$size.png" \
        --stats "$out/window_$size.json" >"$out/window_$size.txt" 2>&1) || {
        cat "$out/window_$size.txt"; echo "viewer failed ($size, window)"; exit 1; }
    grep -q "device: .*, window" "$out/window_$size.txt" || { echo "did not run in a window"; exit 1; }
    (cd "$out" && "$viewer" --headless --frames 3 --width "$w" --height "$h" --instances 3000 \
        --screenshot "$out/headless_$size.png" --stats "$out/headless_$size.json" >"$out/headless_$size.txt" 2>&1) || {
        cat "$out/headless_$size.txt"; echo "viewer failed ($size, headless)"; exit 1; }
done

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
expected = ["counts", "culling", "debug view", "Hi-Z", "GPU time per pass"]

def inside(r, x0, y0, x1, y1):
    a, b, c, d = r
    return a >= x0 and b >= y0 and c <= x1 and d <= y1

for size in ["640x400", "1280x720"]:
    w, h = map(int, size.split("x"))
    for mode in ["window", "headless"]:
        stats = json.load(open(f"{out}/{mode}_{size}.json"))
        img = np.asarray(Image.open(f"{out}/{mode}_{size}.png").convert("RGB")).astype(int)
        assert img.shape == (h, w, 3), img.shape
        o = stats["overlay"]
        win = o["window"]["rect"]
        assert inside(win, 0, 0, w, h), f"{mode} {size}: overlay window {win} leaves the image"
        names = [s["name"] for s in o["sections"]]
        assert names == expected, f"{mode} {size}: sections {names}"
        for s in o["sections"]:
            r = s["rect"]
            assert s["visible"] and inside(r, win[0], win[1], win[2], win[3]), f"{mode} {size}: header {s}"
            # Header text is white: some near-white pixels inside the header's rectangle.
            x0, y0, x1, y1 = (int(round(v)) for v in r)
            white = (img[y0:y1, x0:x1] >= 200).all(axis=2).sum()
            assert white >= 5, f"{mode} {size}: no header text for '{s['name']}' in the screenshot ({white})"
        # The pass table: every row it shows lies wholly inside its scroll region (none cut at the bottom,
        # "overlau.hiz"); where they do not all fit, the rest are scrolled away, not cut.
        # (At 640x400 the section's header is the window's last line: the table is below it, out of sight.)
        if "pass_table" in o:
            t = o["pass_table"]["rect"]
            rows = o["pass_rows"]
            shown = [r for r in rows if r["visible"]]
            assert shown or size != "1280x720", f"{mode} {size}: no pass row shown"
            for r in shown:
                assert t[1] <= r["rect"][1] and r["rect"][3] <= min(t[3], win[3]) + 0.5, \
                    f"{mode} {size}: the row '{r['name']}' {r['rect']} is cut by the pass table {t} or the window"
            print(f"{mode} {size}: pass table {t}: {len(shown)} of {len(rows)} rows shown, none cut")
        elif (mode, size) == ("window", "1280x720"):
            raise AssertionError("window 1280x720: the GPU time section is closed")
        if mode == "window":
            st = o.get("status")
            assert st and inside(st["rect"], 0, 0, w, h), f"window {size}: status bar {st}"
            assert not (st["rect"][1] < win[3] and st["rect"][3] > win[1] and st["rect"][0] < win[2]), \
                f"window {size}: the status bar {st['rect']} overlaps the overlay {win}"
            # The frozen banner is yellow text in the bottom bar.
            x0, y0, x1, y1 = (int(round(v)) for v in st["rect"])
            bar = img[y0:y1, x0:x1]
            yellow = ((bar[..., 0] > 200) & (bar[..., 1] > 180) & (bar[..., 2] < 100)).sum()
            assert yellow >= 20, f"window {size}: no frozen banner in the bottom bar ({yellow} yellow pixels)"
        else:
            area = (win[2] - win[0]) * (win[3] - win[1])
            assert area <= w * h / 4, f"headless {size}: the overlay covers {area / (w * h):.0%} of the image"
        print(f"{mode} {size}: {len(names)} headers inside the window {win}, scale {o['scale']:.2f}")
print("overlay layout OK")
PY
grep -q '^screenshot: sieve-screenshot-2.png' "$out/window_640x400.txt" || { echo "P/screenshot not reported"; exit 1; }
