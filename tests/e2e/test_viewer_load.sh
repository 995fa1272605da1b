#!/usr/bin/env bash
# Loading real-sized files: a 1,002,528-triangle heightfield GLB (scripts/make_big_mesh.py, 24 MB) loads
# with progress on stdout (the file is over 4 MB) in well under a minute (the time is printed; on one
# contended CI core it takes seconds), and renders. What a file holds but the viewer does not show (skins,
# morph targets, lights, triangle strips and fans) is printed once each as a warning.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2

/usr/bin/python3 "$src/scripts/make_big_mesh.py" "$out/big.glb" >/dev/null
"$viewer" --headless --frames 1 --width 160 --height 90 --overlay off --scene "$out/big.glb" >"$out/big.log" 2>&1 ||
  { cat "$out/big.log"; echo "the big mesh did not load"; exit 1; }
grep -E '^(loading|scene:|bounds:)' "$out/big.log"
grep -q '^loading .*big.glb (24.1 MB)$' "$out/big.log" || { echo "no size announced"; exit 1; }
for stage in "reading: 100%" "parsing: 100%" "meshes: 0%" "meshes: 50%" "meshes: 100%"; do
  grep -q "^  $stage" "$out/big.log" || { echo "no progress line '$stage'"; exit 1; }
done
grep -q '^scene: 1 instances, 1 meshes, 1 primitives, 502681 vertices' "$out/big.log" || { echo "wrong scene"; exit 1; }
seconds=$(sed -n 's/^scene: .*(built in \([0-9.]*\) s)$/\1/p' "$out/big.log")
/usr/bin/python3 -c "import sys; t = float('$seconds'); sys.exit(0 if t < 60 else 1)" ||
  { echo "1M triangles took $seconds s to load"; exit 1; }

# Small files do not print progress.
/usr/bin/python3 "$src/scripts/make_big_mesh.py" "$out/small.glb" 20 >/dev/null
"$viewer" --headless --frames 1 --width 64 --height 64 --overlay off --scene "$out/small.glb" >"$out/small.log" 2>&1
if grep -q '^  meshes:' "$out/small.log"; then echo "progress printed for a small file"; exit 1; fi

# One warning line per kind of content the viewer does not show.
/usr/bin/python3 - "$out/ignored.gltf" <<'PY'
import base64, json, struct, sys
pos = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
blob = b"".join(struct.pack("<3f", *p) for p in pos) + struct.pack("<6H", 0, 1, 2, 0, 2, 3)
tri = {"attributes": {"POSITION": 0}, "indices": 1}
doc = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
    "extensionsUsed": ["KHR_lights_punctual"],
    "extensions": {"KHR_lights_punctual": {"lights": [{"type": "point"}]}},
    "nodes": [{"mesh": 0, "skin": 0}, {"name": "bone"}],
    "skins": [{"joints": [1]}],
    "meshes": [{"primitives": [tri, dict(tri, mode=5), dict(tri, mode=5), dict(tri, mode=6),
                               dict(tri, targets=[{"POSITION": 0}])]}],
    "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                  {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}],
}
json.dump(doc, open(sys.argv[1], "w"))
PY
"$viewer" --headless --frames 1 --width 64 --height 64 --overlay off --scene "$out/ignored.gltf" >"$out/ignored.log" 2>&1 ||
  { cat "$out/ignored.log"; echo "the file with ignored content did not load"; exit 1; }
grep '^warning:' "$out/ignored.log"
for w in "extension KHR_lights_punctual: the file's lights are ignored" \
         "skins are ignored: skinned meshes show their bind pose" \
         "morph targets are ignored: primitives show their base shape" \
         "primitives of mode 5 (triangle strip) are not a triangle list, skipped (2 times)" \
         "primitives of mode 6 (triangle fan) are not a triangle list, skipped"; do
  n=$(grep -cxF "warning: $w" "$out/ignored.log" || true)
  [ "$n" = 1 ] || { echo "warning '$w' printed $n times"; exit 1; }
done
echo "load OK: 1M triangles in $seconds s"
