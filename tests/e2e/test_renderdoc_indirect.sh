#!/usr/bin/env bash
# An indirect-count draw captured with RenderDoc and replayed by python3-renderdoc: the GPU test
# IndirectCountDraw.OnlyTheCountedDrawsAppear, run alone with SIEVE_RENDERDOC_CAPTURE, sets its count buffer
# to 2 (from 4) before the draw and to 3 after it, and encloses the draw in a pipeline-statistics query reset
# in the same command buffer, as the viewer's draw passes do; renderdoc_inspect.py must find the draw inside
# its label and read 2, the value at the draw, from the count buffer named by the call, without replaying
# to a point inside the query (which crashes lavapipe 22.3: see read_event in renderdoc_inspect.py).
# $1: build directory, $2: source directory.
set -euo pipefail
build=$1
src=$2
tests=$(find "$build" -name sieve_gpu_tests -type f -perm -u+x | head -n1)
[ -x "$tests" ] || { echo "sieve_gpu_tests not found under $build"; exit 1; }
source "$(dirname "$0")/scratch.sh"

SIEVE_RENDERDOC_CAPTURE="$out/indirect" "$tests" --gtest_filter=IndirectCountDraw.OnlyTheCountedDrawsAppear 2>&1 |
    tee "$out/log.txt"
shopt -s nullglob
captures=("$out"/indirect*.rdc)
[ ${#captures[@]} -eq 1 ] || { echo "expected one .rdc under $out, found: ${captures[*]:-none}"; exit 1; }

/usr/bin/python3 "$src/tests/e2e/renderdoc_inspect.py" "${captures[0]}" --out "$out/report.json"
cat "$out/report.json"
cat > "$out/expected.txt" <<'EXPECT'
label frame
label frame/count
label frame/draw.indirect
indirect draw.indirect count>=2
label frame/count.after
EXPECT
/usr/bin/python3 "$src/tests/e2e/renderdoc_expect.py" "$out/report.json" "$out/expected.txt"
# One more than was drawn must not match: the checker compares counts.
echo 'indirect draw.indirect count>=3' > "$out/too_many.txt"
if /usr/bin/python3 "$src/tests/e2e/renderdoc_expect.py" "$out/report.json" "$out/too_many.txt" > /dev/null; then
    echo "renderdoc_expect.py accepted a count of 3"; exit 1
fi

/usr/bin/python3 - "$out/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
draws = report["indirect_draws"]
assert len(draws) == 1, draws
d = draws[0]
assert d["call"] == "vkCmdDrawIndexedIndirectCount", d
assert d["marker"] == "frame/draw.indirect", d
assert d["count_source"] == "countBuffer parameter", d
assert d["count_buffer"]["name"] == "indirect test draw counts", d
assert d["args_buffer"]["name"] == "indirect test draw args", d
assert d["count"] == 2 and d["max_draw_count"] == 4 and d["draws_in_capture"] == 2, d
assert d["count_read_at_event"] <= d["event_id"], d
# RenderDoc's own region around the expanded draws is not a label.
assert all(not m["name"].startswith("vkCmd") for m in report["markers"]), report["markers"]
print("RenderDoc indirect-count replay OK: count", d["count"], "of", d["max_draw_count"])
PY
