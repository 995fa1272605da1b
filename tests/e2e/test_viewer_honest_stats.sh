#!/usr/bin/env bash
# The stats tell the truth. Headless, with no --frames: the counts are of a frame after occlusion culling
# started (counts_frame >= 2), the frame time is GPU time from timestamps and says so, and `triangles`
# comes from the draw records, of the same frame as the counts. On lavapipe the pipeline-statistics
# query must agree with the draw records. Occlusion culling that removes draws lowers `triangles`
# (same camera, occlusion on and off, both under validation).
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"

common=(--headless --width 320 --height 180 --overlay off --validation)
for occ in on off; do
  "$viewer" "${common[@]}" --occlusion "$occ" --stats "$out/$occ.json" >"$out/$occ.log" 2>&1 || {
    cat "$out/$occ.log"; echo "viewer failed (occlusion $occ)"; exit 1; }
  if grep -q '^\[vulkan\]' "$out/$occ.log"; then echo "validation messages"; grep '^\[vulkan\]' "$out/$occ.log" | head; exit 1; fi
done
grep -E '^(frames|counts):' "$out/on.log"
grep -q 'ms GPU (timestamps' "$out/on.log" || { echo "stdout does not say the frame time is GPU time"; exit 1; }

/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
on, off = (json.load(open(f"{out}/{k}.json")) for k in ("on", "off"))
for s in (on, off):
    assert s["counts_available"] and s["counts_frame"] >= 2, ("counts before occlusion culling started", s["counts_frame"])
    assert s["frame_ms_source"] == "gpu_timestamps" and s["frame_ms"] == s["gpu_frame_ms"] > 0, s
    assert s["triangles_source"] == "draw_records", s["triangles_source"]
    assert s["triangles_pipeline_statistics"] == s["triangles"], \
        ("pipeline statistics disagree with the draw records", s["triangles_pipeline_statistics"], s["triangles"])
assert on["drawn"] < off["drawn"], ("occlusion culled no draw", on["drawn"], off["drawn"])
assert on["triangles"] < off["triangles"], ("occlusion culled draws but not triangles", on["triangles"], off["triangles"])
print(f"honest stats OK: occlusion on {on['drawn']} draws / {on['triangles']} triangles, "
      f"off {off['drawn']} / {off['triangles']}, frame {on['counts_frame']}, GPU {on['gpu_frame_ms']:.1f} ms")
PY
