#!/usr/bin/env bash
# sieve-viewer in a window under Xvfb, culling a small city, through 22 window changes in a row: 1x1,
# one-pixel-wide and one-pixel-high windows, odd sizes, growing past the start size, iconify/restore
# twice. No crash, no validation message, a swapchain (and culling graph) for every size, and the run
# ends at the last size.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: apt-get install -y xvfb"; exit 1; }

sizes=1x1,2x2,1x300,300x1,min,17x9,640x480,1x1,333x777,1024x768,min,5x3,1000x2,63x65,128x128,1x1,999x333,31x31,800x600,min,257x129,320x240
resizes=$(tr ',' '\n' <<<"$sizes" | grep -vc min)
timeout 300 xvfb-run -a -s "-screen 0 1280x1024x24" "$viewer" --frames 4 --width 320 --height 200 --validation \
    --instances 500 --stats "$out/stats.json" --test-resize-sequence "$sizes" >"$out/log.txt" 2>&1 || {
    cat "$out/log.txt"; echo "viewer failed"; exit 1; }
cat "$out/log.txt"
grep -q "device: .*, window" "$out/log.txt" || { echo "did not run in a window"; exit 1; }
if grep -q '^\[vulkan\]' "$out/log.txt"; then echo "validation messages"; exit 1; fi
steps=$(grep -c '^test-resize-sequence: ' "$out/log.txt" || true)
# Every step is logged, and every iconify is followed by a restore.
[ "$steps" -ge 25 ] || { echo "only $steps resize steps logged, expected 25 (22 + 3 restores)"; exit 1; }
[ "$(grep -c 'test-resize-sequence: iconify' "$out/log.txt")" -eq 3 ]
[ "$(grep -c 'test-resize-sequence: restore' "$out/log.txt")" -eq 3 ]
created=$(sed -n 's/^swapchain: created \([0-9]*\) times/\1/p' "$out/log.txt")
# One at start, one per size change (consecutive duplicates aside, none here).
[ -n "$created" ] && [ "$created" -ge $((resizes + 1)) ] || {
    echo "swapchain created ${created:-?} times, expected >= $((resizes + 1))"; exit 1; }
/usr/bin/python3 - "$out/stats.json" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
assert stats["width"] == 320 and stats["height"] == 240, stats
assert stats["instances"] == 500, stats
print("window resizes OK:", stats["frames"], "frames")
PY
