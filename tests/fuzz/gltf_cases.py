#!/usr/bin/env python3
"""Small glTF files for the reliability tests, written into a directory.

  gltf_cases.py seeds DIR   valid .gltf/.glb files (the fuzzer's seed corpus; each loads cleanly)
  gltf_cases.py bad DIR     hostile files plus DIR/cases.tsv: "file<TAB>reason words" per line, the words
                            (lower case, '|' separated alternatives) one of which the loader's message
                            must contain
Everything is generated here, so no binary test data is committed.
"""
import base64
import copy
import json
import os
import struct
import sys
import zlib

QUAD_POS = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
QUAD_IDX = [0, 1, 2, 0, 2, 3]


def pack_f32(values):
    return b"".join(struct.pack("<3f", *v) for v in values)


def pack_u32(values):
    return struct.pack("<%dI" % len(values), *values)


def pack_u16(values):
    data = struct.pack("<%dH" % len(values), *values)
    return data + b"\0" * (-len(data) % 4)


def model(pos=QUAD_POS, idx=QUAD_IDX, index_type=5125, mode=4, nodes=None, scene_nodes=None, normals=False,
          pos_count=None, idx_count=None, byte_length=None, uri=None, pos_stride=None):
    """A one-mesh glTF as (json dict, binary buffer); the arguments break one thing at a time."""
    pos_bytes = pack_f32(pos)
    idx_bytes = pack_u32(idx) if index_type == 5125 else pack_u16(idx)
    nrm_bytes = pack_f32([(0, 0, 1)] * len(pos)) if normals else b""
    binary = pos_bytes + idx_bytes + nrm_bytes
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": len(pos_bytes)},
             {"buffer": 0, "byteOffset": len(pos_bytes), "byteLength": len(idx_bytes)}]
    if pos_stride:
        views[0]["byteStride"] = pos_stride
    accessors = [{"bufferView": 0, "componentType": 5126, "type": "VEC3",
                  "count": len(pos) if pos_count is None else pos_count},
                 {"bufferView": 1, "componentType": index_type, "type": "SCALAR",
                  "count": len(idx) if idx_count is None else idx_count}]
    attributes = {"POSITION": 0}
    if normals:
        views.append({"buffer": 0, "byteOffset": len(pos_bytes) + len(idx_bytes), "byteLength": len(nrm_bytes)})
        accessors.append({"bufferView": 2, "componentType": 5126, "type": "VEC3", "count": len(pos)})
        attributes["NORMAL"] = 2
    primitive = {"attributes": attributes, "mode": mode}
    if idx:
        primitive["indices"] = 1
    buffer = {"byteLength": len(binary) if byte_length is None else byte_length}
    if uri is not None:
        buffer["uri"] = uri
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0] if scene_nodes is None else scene_nodes}],
        "nodes": [{"mesh": 0}] if nodes is None else nodes,
        "meshes": [{"primitives": [primitive]}],
        "buffers": [buffer],
        "bufferViews": views,
        "accessors": accessors,
    }
    return doc, binary


def gltf_bytes(doc, binary):
    """JSON glTF with the buffer embedded as a data URI (unless the document already names one)."""
    doc = json.loads(json.dumps(doc))
    if "uri" not in doc["buffers"][0]:
        doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(binary).decode()
    return json.dumps(doc).encode()


def glb_bytes(doc, binary):
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    binary = binary + b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
    return struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks


def png_bytes(width, height, color_type, rows, palette=None, idat_length=None):
    """A PNG of 8-bit samples: rows of raw bytes, each with its own filter byte (0..4 in turn). idat_length:
    the length the IDAT chunk claims (stb_image 2.27 grew its buffer to it before reading)."""
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    raw = b"".join(bytes([y % 5]) + row for y, row in enumerate(rows))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    if palette:
        out += chunk(b"PLTE", b"".join(bytes(c[:3]) for c in palette)) + chunk(b"tRNS", bytes(c[3] for c in palette))
    idat = chunk(b"IDAT", zlib.compress(raw))
    if idat_length is not None:
        idat = struct.pack(">I", idat_length) + idat[4:]
    return out + idat + chunk(b"IEND", b"")


def jpeg_bytes(kind="flat"):
    """A baseline JPEG with one-code Huffman tables. flat: 16x16 YCbCr 4:2:0, every block flat (DC 0, EOB).
    dc_overflow: 320x8 grey whose 40 blocks each add 2047 to the DC sum, with 16-bit quantizers of 65535:
    stb_image 2.27 multiplies the two past int's range (UBSan: signed integer overflow). huge: 16384x16384
    grey with the entropy data of one block: stb_image decodes the missing rest as zeros (1 GiB of RGBA).
    huffman_overflow: flat, with a DC table of 272 codes (16 lengths x 17): stb_image 2.27 wrote past its
    257-entry size table (UBSan: index out of bounds; memory corruption without the sanitizer)."""
    def segment(marker, data):
        return b"\xff" + bytes([marker]) + struct.pack(">H", len(data) + 2) + data

    def entropy(bits):  # padded with 1 bits, 0xFF bytes stuffed
        bits += "1" * (-len(bits) % 8)
        data = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        return data.replace(b"\xff", b"\xff\x00")

    if kind == "dc_overflow":
        dqt = segment(0xDB, b"\x10" + b"\xff\xff" * 64)
        components, size, dc_symbol, blocks = [(1, 0x11)], (8, 320), 11, ("0" + "1" * 11 + "0") * 40
    elif kind == "huge":
        dqt = segment(0xDB, b"\x00" + b"\x01" * 64)
        components, size, dc_symbol, blocks = [(1, 0x11)], (16384, 16384), 0, "00"
    else:
        dqt = segment(0xDB, b"\x00" + b"\x01" * 64)
        components, size, dc_symbol, blocks = [(1, 0x22), (2, 0x11), (3, 0x11)], (16, 16), 0, "00" * 6
    sof = segment(0xC0, struct.pack(">BHHB", 8, size[0], size[1], len(components)) +
                  b"".join(bytes([c, hv, 0]) for c, hv in components))
    one_code = bytes([1] + [0] * 15)  # one code of length 1
    dht = segment(0xC4, b"\x00" + one_code + bytes([dc_symbol]) + b"\x10" + one_code + b"\x00")  # AC: EOB
    if kind == "huffman_overflow":
        dht = segment(0xC4, b"\x00" + bytes([17] * 16) + bytes(272) + b"\x10" + one_code + b"\x00")
    sos = segment(0xDA, bytes([len(components)]) + b"".join(bytes([c, 0]) for c, _ in components) + b"\x00\x3f\x00")
    return b"\xff\xd8" + dqt + sof + dht + sos + entropy(blocks) + b"\xff\xd9"


def append_view(doc, binary, data):
    """Appends `data` (4-aligned) to the model's buffer as a new bufferView; returns (binary, view index)."""
    binary += b"\0" * (-len(binary) % 4)
    doc["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": len(data)})
    binary += data
    doc["buffers"][0]["byteLength"] = len(binary)
    return binary, len(doc["bufferViews"]) - 1


def append_accessor(doc, binary, data, **accessor):
    binary, view = append_view(doc, binary, data)
    doc["accessors"].append(dict(accessor, bufferView=view))
    return binary, len(doc["accessors"]) - 1


def rgba_png(**options):
    return png_bytes(4, 4, 6, [b"".join(bytes((x * 60, y * 60, 200, 255 - x * 20)) for x in range(4))
                               for y in range(4)], **options)


def textured_model(jpeg=None, png=None):
    """The quad with UVs and three materials' textures: a filtered RGBA PNG and a YCbCr JPEG in bufferViews,
    a palette PNG in a data URI, a texture without a source and one whose image uri names a directory (the
    file's own folder: drawn untextured with a note)."""
    doc, binary = model()
    binary, uv = append_accessor(doc, binary, struct.pack("<8f", 0, 0, 1, 0, 1, 1, 0, 1),
                                 componentType=5126, type="VEC2", count=4)
    doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = uv
    doc["meshes"][0]["primitives"][0]["material"] = 0
    binary, png_view = append_view(doc, binary, png or rgba_png())
    binary, jpg_view = append_view(doc, binary, jpeg or jpeg_bytes())
    palette = png_bytes(2, 2, 3, [b"\x00\x01", b"\x01\x00"], palette=[(255, 0, 0, 255), (0, 0, 255, 128)])
    doc["images"] = [{"bufferView": png_view, "mimeType": "image/png"},
                     {"bufferView": jpg_view, "mimeType": "image/jpeg"},
                     {"uri": "data:image/png;base64," + base64.b64encode(palette).decode()},
                     {"uri": "."}]
    doc["samplers"] = [{"magFilter": 9728, "minFilter": 9987, "wrapS": 33648, "wrapT": 33071}]
    doc["textures"] = [{"source": 0, "sampler": 0}, {"source": 1}, {"source": 2}, {"sampler": 0}, {"source": 3}]
    transform = {"KHR_texture_transform": {"offset": [0.5, 0], "rotation": 0.3, "scale": [2, 2]}}
    doc["extensionsUsed"] = ["KHR_texture_transform"]
    doc["materials"] = [
        {"pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.5, 1], "baseColorTexture":
                                  {"index": 0, "extensions": transform},
                                  "metallicRoughnessTexture": {"index": 3}},
         "normalTexture": {"index": 2, "scale": 0.5, "extensions": transform},
         "emissiveTexture": {"index": 1}, "emissiveFactor": [1, 1, 1], "occlusionTexture": {"index": 1}},
        {"alphaMode": "MASK", "alphaCutoff": 0.3, "doubleSided": True,
         "pbrMetallicRoughness": {"baseColorTexture": {"index": 4}}, "emissiveTexture": {"index": 2, "texCoord": 1}},
        {"alphaMode": "BLEND", "normalTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"texCoord": 0}}}}]
    doc["meshes"][0]["primitives"] += [dict(doc["meshes"][0]["primitives"][0], material=1),
                                       dict(doc["meshes"][0]["primitives"][0], material=2)]
    return doc, binary


def kitchen_sink_model():
    """KHR_mesh_quantization attributes (u16 positions, normalized i8 normals in a strided view, u8 UVs, u8
    indices) and what the loader ignores or only notes: a sparse accessor (a morph target), a skin, an
    animation, strip and fan primitives, lights, a second scene as the default."""
    doc, binary = model()
    prim = doc["meshes"][0]["primitives"][0]
    binary, pos = append_accessor(doc, binary, struct.pack("<12H", 0, 0, 0, 9, 0, 0, 9, 9, 0, 0, 9, 0),
                                  componentType=5123, type="VEC3", count=4)
    binary, nrm = append_accessor(doc, binary, b"\x00\x00\x7f\x00" * 4, componentType=5120, type="VEC3",
                                  count=4, normalized=True)
    doc["bufferViews"][-1]["byteStride"] = 4
    binary, uv = append_accessor(doc, binary, bytes([0, 0, 255, 0, 255, 255, 0, 255]), componentType=5121,
                                 type="VEC2", count=4, normalized=True)
    binary, idx = append_accessor(doc, binary, bytes([0, 1, 2, 0, 2, 3]), componentType=5121, type="SCALAR", count=6)
    binary, sparse_idx = append_view(doc, binary, bytes([1, 3]))
    binary, sparse_val = append_view(doc, binary, pack_f32([(0, 0, 1), (0, 0, 2)]))
    doc["accessors"].append({"componentType": 5126, "type": "VEC3", "count": 4, "sparse": {
        "count": 2, "indices": {"bufferView": sparse_idx, "componentType": 5121}, "values": {"bufferView": sparse_val}}})
    sparse = len(doc["accessors"]) - 1
    binary, times = append_accessor(doc, binary, struct.pack("<2f", 0, 1), componentType=5126, type="SCALAR",
                                    count=2, min=[0], max=[1])
    binary, moves = append_accessor(doc, binary, pack_f32([(0, 0, 0), (1, 0, 0)]), componentType=5126,
                                    type="VEC3", count=2)
    quantized = {"attributes": {"POSITION": pos, "NORMAL": nrm, "TEXCOORD_0": uv}, "indices": idx,
                 "targets": [{"POSITION": sparse}]}
    doc["meshes"][0]["primitives"] = [prim, quantized, dict(prim, mode=5), dict(prim, mode=6)]
    doc["meshes"][0]["weights"] = [0.5]
    doc["extensionsUsed"] = ["KHR_mesh_quantization", "KHR_lights_punctual"]
    doc["extensionsRequired"] = ["KHR_mesh_quantization"]
    doc["extensions"] = {"KHR_lights_punctual": {"lights": [{"type": "point"}]}}
    doc["nodes"] = [{"mesh": 0, "skin": 0}, {"mesh": 0, "translation": [3, 0, 0], "children": [2]},
                    {"extensions": {"KHR_lights_punctual": {"light": 0}}, "extras": {"note": "a light"}}]
    doc["skins"] = [{"joints": [2]}]
    doc["animations"] = [{"channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
                          "samplers": [{"input": times, "output": moves, "interpolation": "LINEAR"}]}]
    doc["scenes"] = [{"nodes": [0]}, {"nodes": [0, 1]}]
    doc["scene"] = 1
    return doc, binary


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def seeds(out):
    trs = [{"children": [1, 2], "translation": [1, 2, 3]},
           {"mesh": 0, "rotation": [0, 0.7071068, 0, 0.7071068], "scale": [2, 2, 2]},
           {"mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]}]
    cube = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    cube_idx = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3]
    cases = {
        "quad": model(),
        "quad_u16": model(index_type=5123),
        "quad_normals": model(normals=True),
        "cube_tree": model(pos=cube, idx=cube_idx, nodes=trs),
        "strided": model(pos_stride=16, pos=QUAD_POS, pos_count=3, idx=[]),
        # A triangle of subnormal size: the LOD error grid's smallest cell underflows to 0 (found by the
        # fuzzer: a float -> int conversion of inf in assets/surface_distance.cpp).
        "subnormal_triangle": model(pos=[(0, 0, 0), (1e-45, 0, 0), (0, 1e-45, 0)], idx=[0, 1, 2]),
        # A unit quad 1e20 up: the seam weld's cells (a fraction of the mesh's largest side) along y
        # overflowed int64 (found by the fuzzer: a float -> int conversion out of range in
        # assets/mesh_builder.cpp).
        "far_quad": model(pos=[(0, 1e20, 0), (1, 1e20, 0), (1, 1e20, 1), (0, 1e20, 1)]),
    }
    # Cameras placed by nodes (perspective, orthographic, one twice, one straight down, one with numbers
    # that make no projection): the loader's camera reading for the fuzzer to mutate.
    doc, binary = model(nodes=[{"mesh": 0}, {"camera": 0, "translation": [0, 0, 5]},
                               {"camera": 1, "rotation": [-0.7071068, 0, 0, 0.7071068], "translation": [0, 9, 0]},
                               {"camera": 0}, {"camera": 2}], scene_nodes=[0, 1, 2, 3, 4])
    doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1, "aspectRatio": 1.5}},
                      {"type": "orthographic", "orthographic": {"xmag": 2, "ymag": 1, "znear": 0, "zfar": 50}},
                      {"type": "perspective", "perspective": {"yfov": 0, "znear": 0.1}}]
    cases["cameras"] = (doc, binary)
    cases["textured"] = textured_model()
    cases["jpeg_dc_overflow"] = textured_model(jpeg_bytes("dc_overflow"))
    cases["jpeg_huge"] = textured_model(jpeg_bytes("huge"))
    cases["jpeg_huffman_overflow"] = textured_model(jpeg_bytes("huffman_overflow"))
    cases["png_idat_huge"] = textured_model(png=rgba_png(idat_length=(1 << 31) - 1))
    cases["kitchen_sink"] = kitchen_sink_model()
    # The strided case: a 16-byte stride over 4 packed vec3s holds 3 elements (48 bytes).
    for name, (doc, binary) in cases.items():
        write(os.path.join(out, name + ".gltf"), gltf_bytes(doc, binary))
        write(os.path.join(out, name + ".glb"), glb_bytes(doc, binary))
    # The extension test files (scripts/make_gltf_test_data.py): instancing, quantization, meshopt and
    # Draco streams for the fuzzer to mutate.
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "gltf")
    for name in sorted(os.listdir(data)):
        if name.startswith("multi_mesh") or name == "mirrored.gltf":
            with open(os.path.join(data, name), "rb") as f:
                write(os.path.join(out, name), f.read())


def bad(out):
    cases = []  # (file name, bytes or None when the file is not written, reason words)

    def add(name, data, reason):
        cases.append((name, data, reason))

    nan = float("nan")
    good_doc, good_bin = model()
    add("empty.gltf", b"", "json|empty|parse|parser")
    add("not_json.gltf", b"hello, I am not glTF", "json|parse|parser")
    add("truncated.gltf", gltf_bytes(good_doc, good_bin)[:150], "json|parse|parser")
    add("array.gltf", b"[1, 2, 3]", "json|parse|parser|asset|object")
    add("no_meshes.gltf", json.dumps({"asset": {"version": "2.0"}}).encode(), "no renderable triangles")
    doc, b = model()
    del doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
    doc["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = 0
    add("no_position.gltf", gltf_bytes(doc, b), "position")
    add("accessor_count.gltf", gltf_bytes(*model(pos_count=1000)), "exceed")
    add("accessor_huge.gltf", gltf_bytes(*model(pos_count=4294967295)), "exceed")
    doc, b = model()
    doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 7
    add("accessor_missing.gltf", gltf_bytes(doc, b), "does not exist|accessor")
    doc, b = model()
    doc["accessors"][0]["bufferView"] = 9
    add("bufferview_missing.gltf", gltf_bytes(doc, b), "bufferview")
    add("short_buffer.gltf", gltf_bytes(*model(byte_length=4096)), "buffer|size|length|exceed")
    add("missing_bin.gltf", gltf_bytes(*model(uri="does_not_exist.bin")), "does_not_exist.bin|file|buffer")
    add("dev_zero_bin.gltf", gltf_bytes(*model(uri="/dev/zero")), "buffer|file|empty|size|length|load")
    add("index_range.gltf", gltf_bytes(*model(idx=[0, 1, 2, 0, 2, 99])), "index|range")
    add("index_count.gltf", gltf_bytes(*model(idx_count=1 << 20)), "exceed")
    add("nan_position.gltf", gltf_bytes(*model(pos=[(0, 0, 0), (nan, 0, 0), (1, 1, 0), (0, 1, 0)])),
        "nan|finite")
    add("inf_transform.gltf", gltf_bytes(*model(nodes=[{"mesh": 0, "translation": [1e39, 0, 0]}])), "finite")
    add("bad_quaternion.gltf", gltf_bytes(*model(nodes=[{"mesh": 0, "rotation": [0, 0, 0, 0]}])), "quaternion")
    add("cycle.gltf", gltf_bytes(*model(nodes=[{"mesh": 0, "children": [1]}, {"children": [0]}],
                                        scene_nodes=[0])), "recursive|root|parent")
    add("self_child.gltf", gltf_bytes(*model(nodes=[{"mesh": 0, "children": [0]}])), "recursive")
    add("bad_child.gltf", gltf_bytes(*model(nodes=[{"mesh": 0, "children": [5]}])), "does not exist")
    add("bad_mesh.gltf", gltf_bytes(*model(nodes=[{"mesh": 3}])), "mesh")
    deep = [{"children": [i + 1]} for i in range(2000)] + [{"mesh": 0}]
    add("deep.gltf", gltf_bytes(*model(nodes=deep)), "deeper")
    doc, b = model()
    doc["extensionsUsed"] = doc["extensionsRequired"] = ["KHR_unknown_geometry"]
    add("unknown_required.gltf", gltf_bytes(doc, b), "khr_unknown_geometry")
    doc, b = model()
    doc["extensionsUsed"] = ["EXT_mesh_gpu_instancing"]
    doc["nodes"] = [{"mesh": 0, "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": 1}}}}]
    add("instancing_bad_type.gltf", gltf_bytes(doc, b), "translation")
    doc, b = model()
    doc["extensionsUsed"] = ["EXT_meshopt_compression"]
    doc["bufferViews"][0]["extensions"] = {"EXT_meshopt_compression": {
        "buffer": 0, "byteLength": 8, "byteStride": 10, "count": 4, "mode": "ATTRIBUTES"}}
    add("meshopt_stride.gltf", gltf_bytes(doc, b), "multiple of 4")
    doc, b = model()
    doc["extensionsUsed"] = ["KHR_draco_mesh_compression"]
    doc["meshes"][0]["primitives"][0]["extensions"] = {"KHR_draco_mesh_compression": {
        "bufferView": 0, "attributes": {"POSITION": 0}}}
    add("draco_garbage.gltf", gltf_bytes(doc, b), "draco")
    add("points_only.gltf", gltf_bytes(*model(mode=0)), "no renderable triangles")
    add("lines_only.gltf", gltf_bytes(*model(mode=1)), "no renderable triangles")
    good_glb = glb_bytes(good_doc, good_bin)
    add("truncated.glb", good_glb[: len(good_glb) // 2], "truncated")
    add("header_only.glb", good_glb[:12], "truncated")
    add("bad_version.glb", good_glb[:4] + struct.pack("<I", 7) + good_glb[8:], "version")
    add("json_chunk_too_long.glb", good_glb[:12] + struct.pack("<I", 1 << 30) + good_glb[16:], "exceed|truncated")
    # The BIN chunk's length 4 bytes beyond the file: tinygltf counted it from before the chunk header.
    at = 20 + struct.unpack_from("<I", good_glb, 12)[0]
    over = struct.unpack_from("<I", good_glb, at)[0] + 4
    add("bin_chunk_too_long.glb", good_glb[:at] + struct.pack("<I", over) + good_glb[at + 4:], "bin chunk|exceed")
    # A buffer uri naming a directory (the file's own folder): tinygltf sized it by tellg, -1.
    doc = copy.deepcopy(good_doc)
    doc["buffers"][0]["uri"] = "."
    add("buffer_is_directory.gltf", json.dumps(doc).encode(), "regular file")
    # An image's bufferView past the end of its buffer, and one at an offset near 2^64: tinygltf 2.7 hands
    # &data[byteOffset] and byteLength to the image callback unchecked (a heap-buffer-overflow read and a
    # pointer overflow).
    doc, b = textured_model()
    view = doc["bufferViews"][doc["images"][0]["bufferView"]]
    view["byteLength"] = len(b) - view["byteOffset"] + 4
    add("image_view_too_long.gltf", gltf_bytes(doc, b), "exceeds buffer")
    doc, b = textured_model()
    doc["bufferViews"][doc["images"][1]["bufferView"]]["byteOffset"] = (1 << 64) - 64
    add("image_view_offset_huge.glb", glb_bytes(doc, b), "exceeds buffer")
    # 5000 nested arrays in extras (10 KB): tinygltf 2.7 converts them to tinygltf::Value recursively and
    # overflowed the fuzzer's stack.
    doc, b = model()
    doc["asset"]["extras"] = "@"
    add("deep_extras.gltf", gltf_bytes(doc, b).replace(b'"@"', b"[" * 5000 + b"]" * 5000), "nested deeper")
    # A vertex next to -FLT_MAX: the seam weld's p - tolerance overflowed to -inf and its cell range ran over
    # 4e18 cells (a hang in weldPositions).
    cube = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    cube[7] = (1, -4, -3.4028106884672383e+38)
    add("far_vertex.glb", glb_bytes(*model(pos=cube, idx=[0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5])),
        "bounding sphere|invalid|finite")
    add("random.glb", good_glb[:20] + bytes((i * 7919 + 13) % 256 for i in range(400)), "glb|json|parse|chunk|exceed")
    add("not_there.gltf", None, "cannot open")
    os.makedirs(os.path.join(out, "a_directory.gltf"), exist_ok=True)
    cases.append(("a_directory.gltf", None, "not a regular file"))
    fifo = os.path.join(out, "a_fifo.glb")  # opening it for reading would block until a writer appears
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    cases.append(("a_fifo.glb", None, "not a regular file"))
    with open(os.path.join(out, "cases.tsv"), "w") as manifest:
        for name, data, reason in cases:
            if data is not None:
                write(os.path.join(out, name), data)
            manifest.write(f"{name}\t{reason}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("seeds", "bad"):
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    (seeds if sys.argv[1] == "seeds" else bad)(sys.argv[2])
