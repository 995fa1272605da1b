#!/usr/bin/python3
# Writes lod_seams.gltf: a test mesh for LOD chains, shaped like exported assets are. A UV sphere whose
# seam column and poles are separate vertices computed in float32 (cos(2*pi) and sin(pi) round, so the
# seam positions differ by a rounding error) and a capped cylinder with flat caps (normal seams along
# both rims). One mesh, two primitives. Run: /usr/bin/python3 make_lod_seams.py > lod_seams.gltf
import base64, json, math, struct
import numpy as np

def sphere(radius, segments, rings, centre):
    pos, nrm, idx = [], [], []
    for j in range(rings + 1):
        phi = np.float32(math.pi) * np.float32(j) / np.float32(rings)
        for i in range(segments + 1):
            a = np.float32(2 * math.pi) * np.float32(i) / np.float32(segments)
            n = np.array([np.sin(phi) * np.cos(a), np.cos(phi), -np.sin(phi) * np.sin(a)], dtype=np.float32)
            pos.append(n * np.float32(radius) + centre)
            nrm.append(n)
    s = segments + 1
    for j in range(rings):
        for i in range(segments):
            l0, u0 = (j + 1) * s + i, j * s + i
            if j + 1 < rings: idx += [l0, l0 + 1, u0 + 1]
            if j > 0: idx += [l0, u0 + 1, u0]
    return pos, nrm, idx

def cylinder(radius, height, segments, centre):
    pos, nrm, idx = [], [], []
    for i in range(segments + 1):  # side: a seam column at i = segments
        a = np.float32(2 * math.pi) * np.float32(i) / np.float32(segments)
        n = np.array([np.cos(a), 0, -np.sin(a)], dtype=np.float32)
        for y in (0.0, height):
            pos.append(n * np.float32(radius) + centre + np.array([0, y, 0], dtype=np.float32))
            nrm.append(n)
    for i in range(segments):
        b0, t0, b1, t1 = 2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3
        idx += [b0, b1, t1, b0, t1, t0]
    for y, up in ((0.0, -1.0), (height, 1.0)):  # flat caps: their own rim vertices
        first = len(pos)
        pos.append(centre + np.array([0, y, 0], dtype=np.float32))
        for i in range(segments):
            a = np.float32(2 * math.pi) * np.float32(i) / np.float32(segments)
            pos.append(np.array([np.cos(a) * radius, y, -np.sin(a) * radius], dtype=np.float32) + centre)
        nrm += [np.array([0, up, 0], dtype=np.float32)] * (segments + 1)
        for i in range(segments):
            a, b = first + 1 + i, first + 1 + (i + 1) % segments
            idx += [first, a, b] if up > 0 else [first, b, a]
    return pos, nrm, idx

parts = [sphere(1.0, 32, 20, np.array([0, 1.5, 0], dtype=np.float32)),
         cylinder(0.6, 1.0, 24, np.array([0, 0, 0], dtype=np.float32))]
blob, views, accessors, prims = b"", [], [], []
def add(data, target, ctype, kind, count, extra):
    global blob
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data), "target": target})
    accessors.append(dict({"bufferView": len(views) - 1, "componentType": ctype, "count": count, "type": kind}, **extra))
    blob += data
    return len(accessors) - 1
for pos, nrm, idx in parts:
    p = np.array(pos, dtype=np.float32)
    a_pos = add(p.tobytes(), 34962, 5126, "VEC3", len(p), {"min": p.min(0).tolist(), "max": p.max(0).tolist()})
    a_nrm = add(np.array(nrm, dtype=np.float32).tobytes(), 34962, 5126, "VEC3", len(nrm), {})
    a_idx = add(np.array(idx, dtype=np.uint32).tobytes(), 34963, 5125, "SCALAR", len(idx), {})
    prims.append({"attributes": {"POSITION": a_pos, "NORMAL": a_nrm}, "indices": a_idx})
gltf = {"asset": {"version": "2.0", "generator": "sieve tests/data/gltf/make_lod_seams.py"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "seams", "mesh": 0}],
        "meshes": [{"name": "seams", "primitives": prims}],
        "buffers": [{"byteLength": len(blob),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
        "bufferViews": views, "accessors": accessors}
print(json.dumps(gltf, indent=1))
