#!/usr/bin/python3
"""Writes a large single-mesh GLB for load-time measurements: a bumpy heightfield of (n-1)^2 * 2 triangles
(default n = 709: 1,002,528 triangles, 502,681 vertices), positions and normals as floats, uint32 indices.

Usage: scripts/make_big_mesh.py OUT.glb [n]
"""
import json
import struct
import sys

import numpy as np


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 709
    if n < 2:
        sys.exit("n must be at least 2")
    u = np.linspace(-50.0, 50.0, n, dtype=np.float64)
    x, z = np.meshgrid(u, u)
    # Hills of several sizes, so that simplification has curvature to keep and flat stretches to remove.
    y = 4.0 * np.sin(x * 0.11) * np.cos(z * 0.07) + 0.6 * np.sin(x * 0.9 + z * 0.4) + 0.05 * np.sin(x * 7.0)
    pos = np.stack([x, y, z], axis=-1).reshape(-1, 3).astype(np.float32)
    dydx = 4.0 * 0.11 * np.cos(x * 0.11) * np.cos(z * 0.07) + 0.6 * 0.9 * np.cos(x * 0.9 + z * 0.4) + 0.35 * np.cos(x * 7.0)
    dydz = -4.0 * 0.07 * np.sin(x * 0.11) * np.sin(z * 0.07) + 0.6 * 0.4 * np.cos(x * 0.9 + z * 0.4)
    nrm = np.stack([-dydx, np.ones_like(x), -dydz], axis=-1).reshape(-1, 3)
    nrm = (nrm / np.linalg.norm(nrm, axis=1, keepdims=True)).astype(np.float32)
    i = np.arange(n - 1)
    a = (i[None, :] + n * i[:, None]).reshape(-1).astype(np.uint32)  # top-left corner of each quad
    b, c, d = a + 1, a + n, a + n + 1
    # Counter-clockwise seen from +Y (y up, z towards the viewer).
    idx = np.stack([a, c, b, b, c, d], axis=-1).reshape(-1).astype(np.uint32)

    blobs = [pos.tobytes(), nrm.tobytes(), idx.tobytes()]
    views, offset = [], 0
    for blob, target in zip(blobs, (34962, 34962, 34963)):
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(blob), "target": target})
        offset += len(blob)
    binary = b"".join(blobs)
    doc = {
        "asset": {"version": "2.0", "generator": "sieve make_big_mesh.py"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0, "name": "terrain"}],
        "meshes": [{"name": "terrain", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}]}],
        "buffers": [{"byteLength": len(binary)}], "bufferViews": views,
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": len(pos), "type": "VEC3",
             "min": pos.min(axis=0).tolist(), "max": pos.max(axis=0).tolist()},
            {"bufferView": 1, "componentType": 5126, "count": len(nrm), "type": "VEC3"},
            {"bufferView": 2, "componentType": 5125, "count": len(idx), "type": "SCALAR"},
        ],
    }
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    binary += b"\0" * (-len(binary) % 4)
    total = 12 + 8 + len(js) + 8 + len(binary)
    with open(out, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, total))
        f.write(struct.pack("<II", len(js), 0x4E4F534A) + js)
        f.write(struct.pack("<II", len(binary), 0x004E4942) + binary)
    print(f"{out}: {len(idx) // 3} triangles, {len(pos)} vertices, {total} bytes")


if __name__ == "__main__":
    main()
