#!/usr/bin/env bash
# Freezing the culling keeps what a freeze at run time keeps (headless, the city from a street):
#  1. --freeze on culls by occlusion, exactly as many instances as culling the same camera unfrozen (the
#     freeze used to take hold before the first pyramid: 0 occlusion-culled);
#  2. a shader reload (R) while frozen keeps the frozen camera and pyramid: the counts after it equal those
#     of the same run without it (the recreated plugin used to cull against nothing).
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
common=(--headless --width 640 --height 360 --instances 5000 --camera 40,1.7,40,90,0 --overlay off)
run() {
    local name=$1
    shift
    "$viewer" "${common[@]}" "$@" --stats "$out/$name.json" >"$out/$name.txt" 2>&1 || {
        cat "$out/$name.txt"; echo "FAIL: viewer run $name"; exit 1; }
}
run unfrozen --frames 8
run frozen --frames 8 --freeze on
run frozen_reload --frames 12 --freeze on --test-actions reload@5
grep -q '^shaders reloaded' "$out/frozen_reload.txt" || { cat "$out/frozen_reload.txt"; echo "FAIL: no reload"; exit 1; }
/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
s = {n: json.load(open(f"{out}/{n}.json")) for n in ["unfrozen", "frozen", "frozen_reload"]}
def key(j):
    v = j["views"][0]
    return {"frustum_visible": j["frustum_visible"], "occlusion_visible": j["occlusion_visible"],
            "drawn": j["drawn"], "culled": v["culled"]}
for n, j in s.items():
    assert j["counts_available"], f"{n}: no counts"
    print(n, key(j))
occ = s["unfrozen"]["views"][0]["culled"]["occlusion"]
assert occ > 100, f"the camera culls too little by occlusion to tell ({occ})"
assert s["frozen"]["toggles"]["freeze"] and s["frozen_reload"]["toggles"]["freeze"]
assert key(s["frozen"]) == key(s["unfrozen"]), "--freeze on does not cull as the same camera unfrozen"
assert key(s["frozen_reload"]) == key(s["frozen"]), "a reload while frozen changed the culling"
print(f"--freeze on culls {occ} by occlusion, as unfrozen; a reload while frozen keeps the counts")
PY
