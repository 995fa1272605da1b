#!/usr/bin/env bash
# The viewer keeps its picture and its host alive through errors (issue 22):
# - a frame whose recording fails (--test-actions fail@N) is dropped and the run goes on to the end,
#   exit 0, no validation message (the target submits the dropped frame cleared; before, a failed frame
#   left its fence unsignalled and the viewer hung on exit);
# - culling frozen, then the window resized (the frozen view's viewport no longer covers the depth
#   attachment: before, every frame failed with "makeCullParams: the viewport ... does not cover the depth
#   attachment" and the viewer quit): the run ends at the last size with no failed frame.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: apt-get install -y xvfb"; exit 1; }

timeout 120 "$viewer" --headless --frames 8 --width 96 --height 64 --instances 300 --validation --overlay off \
    --test-actions fail@2,fail@3 --stats "$out/stats.json" >"$out/headless.txt" 2>&1 || {
    cat "$out/headless.txt"; echo "viewer failed after a forced error frame"; exit 1; }
grep -q "frame 2 failed, dropped: test-actions" "$out/headless.txt" || { cat "$out/headless.txt"; echo "no dropped frame 2"; exit 1; }
grep -q "frame 3 failed, dropped: test-actions" "$out/headless.txt" || { echo "no dropped frame 3"; exit 1; }
if grep -q '^\[vulkan\]' "$out/headless.txt"; then grep '^\[vulkan\]' "$out/headless.txt" | head; echo "validation messages"; exit 1; fi
/usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['frames'] >= 6, s['frames']" "$out/stats.json"
echo "forced error frames: dropped, run completed"

timeout 300 xvfb-run -a -s "-screen 0 1280x1024x24" "$viewer" --frames 4 --width 320 --height 200 --validation \
    --instances 500 --freeze on --test-resize-sequence 640x480,200x150,400x300 --stats "$out/frozen.json" \
    >"$out/frozen.txt" 2>&1 || { cat "$out/frozen.txt"; echo "viewer failed: freeze + resize"; exit 1; }
grep -q "device: .*, window" "$out/frozen.txt" || { echo "did not run in a window"; exit 1; }
if grep -q "failed, dropped" "$out/frozen.txt"; then grep "failed, dropped" "$out/frozen.txt" | head -3; echo "frames failed after freeze + resize"; exit 1; fi
if grep -q '^\[vulkan\]' "$out/frozen.txt"; then echo "validation messages"; exit 1; fi
/usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); assert (s['width'], s['height']) == (400, 300), s" "$out/frozen.json"
echo "freeze + resize: culled at every size"
