#!/usr/bin/python3
"""Writes the small glTF test files of tests/data/gltf/ and their pipeline twins.

Originals (float, plain glTF with embedded buffers, written by this script):
  textured_quad.gltf  a quad with an 8x8 checker texture (embedded PNG)
  alpha_card.gltf     an alpha-masked (cutoff 0.5), double-sided card with a punched-out texture
  mirrored.gltf       one asymmetric wedge mesh at a plain node and at a node scaled (-1, 1, 1)
  multi_mesh.gltf     a ground plus 3 meshes at 21 nodes (shared meshes, rotations, one mirrored node)
  materials.gltf      the material test scene of tests/e2e/test_materials_image.sh: a checker-textured
                      quad with a box hidden behind it, an alpha-masked card with a box behind it seen
                      only through its hole, a double-sided and a single-sided card both seen from
                      behind, a blended, an emissive and a normal-mapped card, a wedge and its mirror
Twins of multi_mesh.gltf (Debian 12 tools: gltfpack from package gltfpack, draco_transcoder from draco):
  multi_mesh_packed.glb     gltfpack            KHR_mesh_quantization (gltfpack's default)
  multi_mesh_instanced.glb  gltfpack -mi        EXT_mesh_gpu_instancing + quantization
  multi_mesh_meshopt.glb    gltfpack -mi -cc    EXT_meshopt_compression (+ instancing, quantization)
  multi_mesh_draco.glb      draco_transcoder    KHR_draco_mesh_compression
  materials_packed.glb      gltfpack            of materials.gltf: quantized UVs, undone by KHR_texture_transform
Usage: scripts/make_gltf_test_data.py [output folder]   (default tests/data/gltf)
"""
import base64
import json
import math
import os
import struct
import subprocess
import sys
import zlib


def png(width, height, rgba):
    """A minimal RGBA8 PNG from a flat list of (r, g, b, a) rows, top row first."""
    raw = b"".join(b"\0" + bytes(c for px in rgba[y * width:(y + 1) * width] for c in px) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def checker(n, a, b):
    return [a if (x + y) % 2 == 0 else b for y in range(n) for x in range(n)]


class Gltf:
    """Accumulates one buffer and the JSON tables; meshes are triangle lists with normals and UVs."""

    def __init__(self):
        self.bin = bytearray()
        self.doc = {"asset": {"version": "2.0", "generator": "sieve make_gltf_test_data.py"}, "scene": 0,
                    "scenes": [{"nodes": []}], "nodes": [], "meshes": [], "accessors": [], "bufferViews": [],
                    "materials": []}

    def view(self, data, target):
        while len(self.bin) % 4:
            self.bin.append(0)
        self.doc["bufferViews"].append({"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data),
                                        "target": target})
        self.bin += data
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, values, kind, components):
        flat = [c for v in values for c in (v if components > 1 else (v,))]
        if kind == "index":
            data, ctype, target, type_ = struct.pack(f"<{len(flat)}I", *flat), 5125, 34963, "SCALAR"
        else:
            data, ctype, target = struct.pack(f"<{len(flat)}f", *flat), 5126, 34962
            type_ = {2: "VEC2", 3: "VEC3"}[components]
        acc = {"bufferView": self.view(data, target), "componentType": ctype, "count": len(values), "type": type_}
        if kind == "position":
            acc["min"] = [min(v[i] for v in values) for i in range(3)]
            acc["max"] = [max(v[i] for v in values) for i in range(3)]
        self.doc["accessors"].append(acc)
        return len(self.doc["accessors"]) - 1

    def texture(self, texture_png):
        uri = "data:image/png;base64," + base64.b64encode(texture_png).decode()
        self.doc.setdefault("images", []).append({"uri": uri})
        self.doc.setdefault("samplers", []).append({"magFilter": 9728, "minFilter": 9986})
        self.doc.setdefault("textures", []).append({"source": len(self.doc["images"]) - 1,
                                                    "sampler": len(self.doc["samplers"]) - 1})
        return len(self.doc["textures"]) - 1

    def material(self, name, colour, texture_png=None, normal_png=None, **extra):
        pbr = {"baseColorFactor": colour, "metallicFactor": 0.0, "roughnessFactor": 1.0}
        if texture_png is not None:
            pbr["baseColorTexture"] = {"index": self.texture(texture_png)}
        if normal_png is not None:
            extra["normalTexture"] = {"index": self.texture(normal_png)}
        self.doc["materials"].append(dict(name=name, pbrMetallicRoughness=pbr, **extra))
        return len(self.doc["materials"]) - 1

    def mesh(self, name, positions, normals, uvs, indices, material):
        attrs = {"POSITION": self.accessor(positions, "position", 3), "NORMAL": self.accessor(normals, "", 3),
                 "TEXCOORD_0": self.accessor(uvs, "", 2)}
        prim = {"attributes": attrs, "indices": self.accessor(indices, "index", 1), "material": material}
        self.doc["meshes"].append({"name": name, "primitives": [prim]})
        return len(self.doc["meshes"]) - 1

    def node(self, mesh, name, root=True, **trs):
        self.doc["nodes"].append(dict(name=name, mesh=mesh, **trs))
        if root:
            self.doc["scenes"][0]["nodes"].append(len(self.doc["nodes"]) - 1)
        return len(self.doc["nodes"]) - 1

    def write(self, path):
        self.doc["buffers"] = [{"byteLength": len(self.bin),
                                "uri": "data:application/octet-stream;base64," + base64.b64encode(self.bin).decode()}]
        doc = {k: v for k, v in self.doc.items() if v != []}
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


def quad(g, name, material, size=1.0):
    s = size / 2
    p = [(-s, -s, 0), (s, -s, 0), (s, s, 0), (-s, s, 0)]
    return g.mesh(name, p, [(0, 0, 1)] * 4, [(0, 1), (1, 1), (1, 0), (0, 0)], [0, 1, 2, 0, 2, 3], material)


def box(g, name, material):
    positions, normals, uvs, indices = [], [], [], []
    for axis in range(3):
        for sign in (-1, 1):
            n = [0, 0, 0]
            n[axis] = sign
            u = [0, 0, 0]
            u[(axis + 1) % 3] = 1
            v = [0, 0, 0]
            v[(axis + 2) % 3] = 1
            if sign < 0:
                u, v = v, u  # keep counter-clockwise seen from outside
            base = len(positions)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                positions.append(tuple(0.5 * (n[i] + a * u[i] + b * v[i]) for i in range(3)))
                normals.append(tuple(n))
                uvs.append(((a + 1) / 2, (b + 1) / 2))
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    return g.mesh(name, positions, normals, uvs, indices, material)


def wedge(g, name, material):
    """A triangular prism with a slanted face: not symmetric under x -> -x, so mirroring shows."""
    a, b, c = (-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5)  # right angle at a, slope from b to c (x, y)
    faces = [
        [(a[0], a[1], 0.5), (b[0], b[1], 0.5), (c[0], c[1], 0.5)],                                 # front
        [(a[0], a[1], -0.5), (c[0], c[1], -0.5), (b[0], b[1], -0.5)],                              # back
        [(a[0], a[1], -0.5), (b[0], b[1], -0.5), (b[0], b[1], 0.5), (a[0], a[1], 0.5)],            # bottom
        [(a[0], a[1], -0.5), (a[0], a[1], 0.5), (c[0], c[1], 0.5), (c[0], c[1], -0.5)],            # left
        [(b[0], b[1], -0.5), (c[0], c[1], -0.5), (c[0], c[1], 0.5), (b[0], b[1], 0.5)],            # slope
    ]
    positions, normals, uvs, indices = [], [], [], []
    for f in faces:
        e1 = [f[1][i] - f[0][i] for i in range(3)]
        e2 = [f[2][i] - f[0][i] for i in range(3)]
        n = (e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0])
        ln = math.sqrt(sum(x * x for x in n))
        base = len(positions)
        for k, p in enumerate(f):
            positions.append(p)
            normals.append(tuple(x / ln for x in n))
            uvs.append((k & 1, k >> 1))
        indices += [base, base + 1, base + 2] + ([base, base + 2, base + 3] if len(f) == 4 else [])
    return g.mesh(name, positions, normals, uvs, indices, material)


def rotation_y(degrees):
    h = math.radians(degrees) / 2
    return [0.0, math.sin(h), 0.0, math.cos(h)]


def write_originals(out):
    g = Gltf()
    quad(g, "quad", g.material("checker", [1, 1, 1, 1], png(8, 8, checker(8, (230, 40, 40, 255), (240, 240, 240, 255)))))
    g.node(0, "quad")
    g.write(os.path.join(out, "textured_quad.gltf"))

    g = Gltf()
    # Opaque checker with a transparent border and a transparent hole in the middle.
    texels = [(40, 160, 40, 0 if x in (0, 7) or y in (0, 7) or (3 <= x <= 4 and 3 <= y <= 4) else 255)
              for y in range(8) for x in range(8)]
    m = g.material("leaf", [1, 1, 1, 1], png(8, 8, texels), alphaMode="MASK", alphaCutoff=0.5, doubleSided=True)
    quad(g, "card", m)
    g.node(0, "card", rotation=rotation_y(30))
    g.write(os.path.join(out, "alpha_card.gltf"))

    g = Gltf()
    wedge(g, "wedge", g.material("stone", [0.7, 0.6, 0.5, 1]))
    g.node(0, "wedge", translation=[-1.0, 0, 0])
    g.node(0, "wedge mirrored", translation=[1.0, 0, 0], scale=[-1.0, 1.0, 1.0])
    g.write(os.path.join(out, "mirrored.gltf"))

    g = Gltf()
    ground = quad(g, "ground", g.material("ground", [0.4, 0.45, 0.4, 1]), size=12.0)
    b = box(g, "box", g.material("box", [0.8, 0.3, 0.2, 1]))
    w = wedge(g, "wedge", g.material("wedge", [0.2, 0.4, 0.8, 1]))
    g.node(ground, "ground", translation=[0, 0, 0], rotation=[-math.sqrt(0.5), 0, 0, math.sqrt(0.5)])
    for i in range(16):
        x, z = i % 4, i // 4
        g.node(b, f"box {i}", translation=[-3 + 2 * x, 0.5 + 0.1 * i, -3 + 2 * z], rotation=rotation_y(11 * i),
               scale=[0.6 + 0.05 * i] * 3)
    for i in range(3):
        g.node(w, f"wedge {i}", translation=[-2 + 2 * i, 1.5, 4], rotation=rotation_y(40 * i))
    g.node(w, "wedge mirrored", translation=[0, 1.5, -5], scale=[-1.0, 1.0, 1.0])
    g.write(os.path.join(out, "multi_mesh.gltf"))


def write_materials_scene(out):
    """Everything at z <= 0.5 facing +z unless said, for a camera at (0, 0, 6) looking down -z."""
    g = Gltf()
    checker_png = png(8, 8, checker(8, (230, 40, 40, 255), (240, 240, 240, 255)))
    textured = quad(g, "checker quad", g.material("checker", [1, 1, 1, 1], checker_png), size=1.8)
    g.node(textured, "checker quad", translation=[-2.6, 0.9, 0])
    hidden = box(g, "box behind the checker quad", g.material("hidden", [0.9, 0.9, 0.1, 1]))
    # On the camera ray through the quad's centre, 2 m further: hidden, small enough for the Hi-Z to cull it.
    g.node(hidden, "box behind the checker quad", translation=[-2.6 * 8 / 6, 0.9 * 8 / 6, -2], scale=[0.25] * 3)
    # Opaque green texels, a transparent border and a transparent 4x4-texel hole in the middle.
    hole = [(40, 160, 40, 0 if x in (0, 7) or y in (0, 7) or (2 <= x <= 5 and 2 <= y <= 5) else 255)
            for y in range(8) for x in range(8)]
    masked = quad(g, "masked card", g.material("masked", [1, 1, 1, 1], png(8, 8, hole), alphaMode="MASK",
                                               alphaCutoff=0.5), size=1.8)
    g.node(masked, "masked card", translation=[0, 0.9, 0])
    behind = box(g, "box behind the hole", g.material("blue", [0.1, 0.2, 0.9, 1]))
    g.node(behind, "box behind the hole", translation=[0, 0.9 * 8 / 6, -2], scale=[0.25] * 3)
    # Both cards turned away from the camera (their front faces look down -z).
    two_sided = quad(g, "double-sided card", g.material("orange", [0.9, 0.6, 0.1, 1], doubleSided=True), size=1.8)
    g.node(two_sided, "double-sided card from behind", translation=[2.6, 0.9, 0], rotation=rotation_y(180))
    one_sided = quad(g, "single-sided card", g.material("purple", [0.6, 0.1, 0.7, 1]), size=1.2)
    g.node(one_sided, "single-sided card from behind", translation=[2.6, -1.6, 0], rotation=rotation_y(180))
    blended = quad(g, "blended card", g.material("glass", [1, 0, 0, 0.5], alphaMode="BLEND"), size=1.2)
    g.node(blended, "blended card", translation=[-2.6, -1.6, 0])
    # A uniform tangent-space normal (0.6, 0, 0.8): the lit quad's normal tilts towards +x.
    bumped = quad(g, "normal-mapped card", g.material("bumped", [0.8, 0.8, 0.8, 1],
                                                     normal_png=png(4, 4, [(204, 128, 230, 255)] * 16)), size=0.6)
    g.node(bumped, "normal-mapped card", translation=[-1.3, 0.9, 0])
    glow = quad(g, "emissive card", g.material("glow", [0.2, 0.2, 0.2, 1], emissiveFactor=[0.5, 0.3, 0.0]), size=0.6)
    g.node(glow, "emissive card", translation=[0, -1.6, 0])
    w = wedge(g, "wedge", g.material("stone", [0.7, 0.6, 0.5, 1]))
    g.node(w, "wedge", translation=[-1.0, -1.6, 0])
    g.node(w, "wedge mirrored", translation=[1.0, -1.6, 0], scale=[-1.0, 1.0, 1.0])
    g.write(os.path.join(out, "materials.gltf"))


def run(*cmd):
    print("  " + " ".join(cmd))
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "gltf")
    os.makedirs(out, exist_ok=True)
    write_originals(out)
    write_materials_scene(out)
    src = os.path.join(out, "multi_mesh.gltf")
    run("gltfpack", "-i", src, "-o", os.path.join(out, "multi_mesh_packed.glb"))
    run("gltfpack", "-i", src, "-o", os.path.join(out, "multi_mesh_instanced.glb"), "-mi")
    run("gltfpack", "-i", src, "-o", os.path.join(out, "multi_mesh_meshopt.glb"), "-mi", "-cc")
    run("draco_transcoder", "-i", src, "-o", os.path.join(out, "multi_mesh_draco.glb"))
    run("gltfpack", "-i", os.path.join(out, "materials.gltf"), "-o", os.path.join(out, "materials_packed.glb"))
    print(f"wrote the glTF test files to {out}")


if __name__ == "__main__":
    main()
