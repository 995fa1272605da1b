#!/usr/bin/env bash
# sieve-viewer --headless --capture-frame 3 writes a RenderDoc capture through the in-app API (RenderDoc's
# Vulkan 1.24 layer makes the device a 1.2 one: the context's KHR path), and Debian's python3-renderdoc
# replays it: the labelled passes appear in frame order (renderdoc_inspect.py + renderdoc_expect.py).
# Validation is checked on the 1.2 path without RenderDoc (SIEVE_FORCE_VULKAN12): under RenderDoc's layer
# the application's debug messenger receives no validation messages at all, so a check there proves nothing.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
if [ ! -e /usr/lib/librenderdoc.so ] && ! ldconfig -p | grep -q librenderdoc.so; then
    echo "librenderdoc.so is not installed (apt-get install -y librenderdoc python3-renderdoc)"; exit 1
fi

SIEVE_FORCE_VULKAN12=1 "$viewer" --headless --frames 3 --width 320 --height 180 --validation 2>&1 |
    tee "$out/log12.txt"
if grep -q '^\[vulkan\]' "$out/log12.txt"; then echo "validation messages on the Vulkan 1.2 path"; exit 1; fi

"$viewer" --headless --frames 5 --width 320 --height 180 \
    --capture-frame 3 --capture-file "$out/cap" 2>&1 | tee "$out/log.txt"
grep -q '^RenderDoc: RenderDoc API' "$out/log.txt" || { echo "RenderDoc was not loaded"; exit 1; }
shopt -s nullglob
captures=("$out"/cap*.rdc)
[ ${#captures[@]} -eq 1 ] || { echo "expected one .rdc under $out, found: ${captures[*]:-none}"; ls -la "$out"; exit 1; }
grep -qF "RenderDoc capture: ${captures[0]}" "$out/log.txt" || { echo "the viewer did not report ${captures[0]}"; exit 1; }

/usr/bin/python3 "$src/tests/e2e/renderdoc_inspect.py" "${captures[0]}" --out "$out/report.json"
cat "$out/report.json"

# What the viewer labels now, one line per label in frame order (see renderdoc_expect.py for the syntax).
cat > "$out/expected.txt" <<'EOF'
label cull.early.flag
label cull.early.compact
label draw.early
label hiz.build
label cull.late.flag
label cull.late.compact
label draw.late
label cull.stats
label imgui
indirect draw.early count>=1
indirect draw.late
EOF
/usr/bin/python3 "$src/tests/e2e/renderdoc_expect.py" "$out/report.json" "$out/expected.txt"

# The checker must be able to fail: labels in the wrong order, and a label that is not there.
printf 'label draw.late\nlabel draw.early\n' > "$out/reversed.txt"
printf 'label draw.early\nlabel no.such.pass\n' > "$out/missing.txt"
for bad in reversed missing; do
    if /usr/bin/python3 "$src/tests/e2e/renderdoc_expect.py" "$out/report.json" "$out/$bad.txt" > /dev/null; then
        echo "renderdoc_expect.py accepted the $bad expectations"; exit 1
    fi
done

# Each count read from its count buffer at the draw is the number of draws RenderDoc replayed there.
/usr/bin/python3 - "$out/report.json" <<'PY'
import json, sys
for d in json.load(open(sys.argv[1]))["indirect_draws"]:
    if "max_draw_count" in d:
        assert d["count"] is not None and d["count"] <= d["max_draw_count"], d
        assert d["count"] == d["draws_in_capture"], d
        print("%s: %s draws of at most %s (%s)" % (d["marker"], d["count"], d["max_draw_count"],
                                                  d["count_buffer"]["name"]))
PY
echo "RenderDoc capture OK: ${captures[0]}"
