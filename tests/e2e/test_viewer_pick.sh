#!/usr/bin/env bash
# --pick: why was this culled? (headless, the procedural city)
#  1. the CPU reference's decision (frustum, draw distance, occlusion against the pyramid read back, LOD)
#     equals the GPU's (cull.state) for every instance of the last frame, at three cameras (a street, above
#     the roofs with a draw distance, far out looking in) and with the LOD bias moved (--test-pick-verify);
#  2. a grid of picks from the street: a drawn building (instance, tests, drawn by a phase, agree), the sky
#     (no instance);
#  3. with the false-culling check on, whether the final depth shows the picked instance, and false culls
#     planted (--test-radius-shrink) found by a pick;
#  4. bad pixels are refused with exit code 2.
# The street run is under synchronization validation (the viewer exits 1 on any message).
# With the culling frozen and the camera turned: test_viewer_pick_frozen.sh (a window: the camera is turned
# by a drag).
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
common=(--headless --width 480 --height 270 --instances 6000 --overlay off)
run() {
    local name=$1
    shift
    "$viewer" "${common[@]}" "$@" >"$out/$name.txt" 2>&1 || { cat "$out/$name.txt"; echo "FAIL: $name"; exit 1; }
}
# Under the validation layer with synchronization validation (the readback's copies and dispatches).
SIEVE_SYNC_VALIDATION=1 run street --camera 40,1.7,40,90,0 --test-pick-verify --validation
run roofs --camera 0,90,160,0,-35 --draw-distance 180 --test-pick-verify
run far --camera -300,60,-300,225,-8 --lod-bias 2 --test-pick-verify
for name in street roofs far; do
    grep '^pick verify' "$out/$name.txt"
    grep -q '^pick verify: .*, 0 mismatches$' "$out/$name.txt" || { cat "$out/$name.txt"; echo "FAIL: $name"; exit 1; }
done
# The cameras exercise every test: something drawn, culled by the frustum, by occlusion, by distance.
/usr/bin/python3 - "$out" <<'PY'
import re, sys
counts = {}
for name in ["street", "roofs", "far"]:
    line = next(l for l in open(f"{sys.argv[1]}/{name}.txt") if l.startswith("pick verify"))
    m = re.search(r"\(cpu: (\d+) drawn, (\d+) frustum, (\d+) distance, (\d+) occlusion culled\)", line)
    counts[name] = list(map(int, m.groups()))
tot = [sum(c[k] for c in counts.values()) for k in range(4)]
assert all(t > 0 for t in tot), f"a decision never taken at the three cameras: {counts}"
print("decisions at the three cameras (drawn, frustum, distance, occlusion):", counts)
PY

grid=()
for y in 5 60 120 180 240; do for x in 20 120 240 360 460; do grid+=(--pick "$x,$y"); done; done
run picks --camera 40,1.7,40,90,0 "${grid[@]}"
/usr/bin/python3 - "$out" <<'PY'
import json, sys
def picks(name):
    return [json.loads(l[len("pick: "):]) for l in open(f"{sys.argv[1]}/{name}.txt") if l.startswith("pick: ")]
street = picks("picks")
assert len(street) == 25, len(street)
for p in street:
    if p["instance"] is None:
        continue
    assert p["agree"], f"CPU and GPU disagree: {p}"
    assert [t["test"] for t in p["tests"]] == ["frustum", "distance", "lod", "occlusion"], p["tests"]
sky = [p for p in street if p["instance"] is None]
drawn = [p for p in street if p["instance"] is not None and p["gpu_state"].startswith("drawn")]
assert sky and drawn, f"no sky pick or no drawn pick from the street: {len(sky)} sky, {len(drawn)} drawn"
b = drawn[0]
assert b["cpu_decision"] == "drawn" and b["tests"][0]["verdict"] == "inside", b
print(f"street: {len(drawn)} drawn picks, e.g. instance {b['instance']} ({b.get('mesh_name')}, "
      f"{b['gpu_state']}, LOD {b['gpu_lod']}), {len(sky)} sky")
PY
# With the false-culling check on, each pick says whether the frame's final depth shows the instance (the
# check's verdict where the GPU culled it by occlusion; drawn ones are not checked). Radii shrunk by 90%
# in the occlusion test plant false culls: a dense grid of picks from the street lands on some of them
# (instances the GPU culled by occlusion that the final depth shows), the check counts them, and the CPU
# reference still agrees with the GPU on every instance (under synchronization validation: the depth copy).
grid=()
for ((y = 4; y < 270; y += 8)); do for ((x = 4; x < 480; x += 8)); do grid+=(--pick "$x,$y"); done; done
SIEVE_SYNC_VALIDATION=1 run check --validation --camera 40,1.7,40,90,0 --check-culling on --test-radius-shrink 0.9 --test-pick-verify \
    --stats "$out/check.json" "${grid[@]}"
grep -q '^pick verify: .*, 0 mismatches$' "$out/check.txt" || { grep '^pick verify' -A5 "$out/check.txt"; echo "FAIL: check verify"; exit 1; }
/usr/bin/python3 - "$out" <<'PY'
import json, sys
def picks(name):
    return [json.loads(l[len("pick: "):]) for l in open(f"{sys.argv[1]}/{name}.txt") if l.startswith("pick: ")]
off = [p for p in picks("picks") if p["instance"] is not None]
assert all(p["final_depth"]["check"] == "off" for p in off), off[0]["final_depth"]
hit = [p for p in picks("check") if p["instance"] is not None]
assert hit and all(p["final_depth"]["check"] == "on" for p in hit), hit[:1]
checked = [p for p in hit if p["final_depth"]["checked"]]
assert all(p["gpu_state"] == "occlusion_culled" for p in checked), "a pick checked what occlusion did not cull"
assert all(p["final_depth"]["checked"] for p in hit if p["gpu_state"] == "occlusion_culled"), "an occluded pick unchecked"
false = [p for p in checked if p["final_depth"]["falsely_culled"]]
assert false, "no pick landed on a falsely culled instance with radii shrunk by 90%"
assert all(p["final_depth"]["shows_it"] for p in false), false[0]
assert any(p["gpu_state"].startswith("drawn") for p in hit), "no drawn pick"
stats = json.load(open(f"{sys.argv[1]}/check.json"))
assert stats["falsely_culled"] > 0, stats.get("falsely_culled")
print(f"check: {len(hit)} picks on instances, {len(false)} on falsely culled ones "
      f"(e.g. instance {false[0]['instance']}: {false[0]['final_depth']['verdict']}), "
      f"the check counted {stats['falsely_culled']}")
PY
# Bad input: a pixel outside the frame, a malformed pixel.
rc=0; "$viewer" "${common[@]}" --pick 480,10 >"$out/bad.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q 'lies outside the 480x270 frame' "$out/bad.txt" || { cat "$out/bad.txt"; echo "FAIL: --pick outside"; exit 1; }
rc=0; "$viewer" "${common[@]}" --pick 3 >"$out/bad2.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$out/bad2.txt"; echo "FAIL: --pick 3 accepted"; exit 1; }
echo "pick OK"
