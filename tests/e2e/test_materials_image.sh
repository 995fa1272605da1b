#!/usr/bin/env bash
# The default geometry pass's materials on tests/data/gltf/materials.gltf (scripts/make_gltf_test_data.py),
# camera at (0, 0, 6) looking down -z, against a CPU reference of the shading at chosen pixels:
# - the checker texture: sRGB texels decoded to linear, filtered bilinearly at the pixel's UV (the ray
#   through the pixel centre meets the quad's plane), times the Lambert factor of the pass;
# - the alpha-masked card: sky through the transparent border, the box behind it through the hole (so
#   masked texels write no depth and the Hi-Z lets the box through), green where it is opaque;
# - a double-sided card seen from behind: drawn, lit with the flipped normal; a single-sided one: culled;
# - a blended card over the sky: src * alpha + sky * (1 - alpha); an emissive card: lit + emissive factor;
#   a normal-mapped card lit with the map's normal in the frame of its UVs;
# - the mirrored wedge's front face lit exactly like its original's;
# - gltfpack's twin (quantized UVs undone by KHR_texture_transform) draws the same picture, up to 0.2%
#   of the pixels (quantization moves edges);
# - culling on == culling off, pixel for pixel, and the occlusion culling does cull: exactly the box
#   hidden behind the opaque checker quad (the box behind the masked card's hole stays drawn).
# Anisotropic filtering is off (SIEVE_MAX_ANISOTROPY=1): lavapipe's blurs magnified textures, which the
# bilinear reference does not model. $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
# 6 frames: the stats (read back a few frames late) are of a frame whose early list already has the
# occlusion culling of the frame before.
export SIEVE_MAX_ANISOTROPY=1
export SIEVE_SYNC_VALIDATION=1  # with --validation: the texture uploads and the blend bins' cross-pass reads
common=(--headless --frames 6 --width 320 --height 240 --overlay off --lod off --camera "0,0,6,0,0" --validation
        --scene "$src/tests/data/gltf/materials.gltf")
"$viewer" "${common[@]}" --screenshot "$out/on.png" --stats "$out/on.json" > "$out/on.log" 2>&1 ||
    { cat "$out/on.log"; echo "FAIL: the viewer failed"; exit 1; }
"$viewer" "${common[@]}" --frustum off --occlusion off --two-phase off --screenshot "$out/off.png" \
    --stats "$out/off.json" > "$out/off.log" 2>&1 || { cat "$out/off.log"; echo "FAIL: the viewer failed"; exit 1; }
# gltfpack's twin: UVs quantized to integers that its KHR_texture_transform scales back.
"$viewer" "${common[@]/materials.gltf/materials_packed.glb}" --screenshot "$out/packed.png" > "$out/packed.log" 2>&1 ||
    { cat "$out/packed.log"; echo "FAIL: the viewer failed on the packed twin"; exit 1; }
if grep -q '^\[vulkan\]' "$out"/*.log; then grep '^\[vulkan\]' "$out"/*.log | head; exit 1; fi
if grep -q '^warning:' "$out"/*.log; then grep '^warning:' "$out"/*.log; echo "FAIL: warnings"; exit 1; fi

/usr/bin/python3 - "$out" <<'PY'
import json, math, sys
import numpy as np
from PIL import Image
out = sys.argv[1]
on = np.asarray(Image.open(f"{out}/on.png").convert("RGB")).astype(np.int32)
off = np.asarray(Image.open(f"{out}/off.png").convert("RGB")).astype(np.int32)
H, W = on.shape[:2]
failed = False

def check(ok, text):
    global failed
    print(("ok   " if ok else "FAIL ") + text)
    failed |= not ok

# The viewer's camera: 60 degrees vertical field of view, no rotation, at (0, 0, 6).
F = 1.0 / math.tan(math.radians(30.0))
ASPECT = W / H
CAM_Z = 6.0

def pixel_of(x, y, z):
    d = CAM_Z - z
    return (int((x / d * F / ASPECT + 1) * 0.5 * W), int((1 - y / d * F) * 0.5 * H))

def ray_at(px, py, z):
    """Where the ray through pixel (px, py)'s centre meets the plane at depth z."""
    nx, ny = (px + 0.5) / W * 2 - 1, (py + 0.5) / H * 2 - 1
    d = CAM_Z - z
    return nx * ASPECT / F * d, -ny / F * d

# The pass's shading (geometry/material.frag): albedo * (0.35 + 0.65 * max(n.l, 0)), written to UNORM.
L = np.array([0.4, 0.8, 0.45]) / np.linalg.norm([0.4, 0.8, 0.45])
def lit(albedo, normal=(0, 0, 1)):
    return np.asarray(albedo, float) * (0.35 + 0.65 * max(float(np.dot(normal, L)), 0.0))
def unorm(v):
    return np.round(np.clip(np.asarray(v, float), 0, 1) * 255).astype(int)
def srgb(c):
    c = c / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
SKY = np.array([0.53, 0.68, 0.85])

def near(px, py, want, tol, what):
    got = on[py, px]
    check(np.abs(got - want).max() <= tol, f"{what} at ({px}, {py}): {got.tolist()}, expected {list(want)} (+-{tol})")

check(on.shape == off.shape, "image sizes")
diff = int((on != off).any(axis=2).sum())
check(diff == 0, f"culling on == off: {diff} differing pixels")
s_on, s_off = json.load(open(f"{out}/on.json")), json.load(open(f"{out}/off.json"))
n = s_on["instances"]
check(s_off["occlusion_visible"] == n, f"culling off draws all {n} instances ({s_off['occlusion_visible']})")
check(s_on["occlusion_visible"] == n - 1,
      f"occlusion culls exactly the hidden box: {s_on['occlusion_visible']} of {n} drawn")
near(2, 2, unorm(SKY), 1, "sky")

# Checker quad: centre (-2.6, 0.9, 0), 1.8 wide, 8x8 texels, red (230, 40, 40) where (tx + ty) is even.
texels = np.array([[(230, 40, 40) if (x + y) % 2 == 0 else (240, 240, 240) for x in range(8)] for y in range(8)])
linear = srgb(texels.astype(float))
def bilinear(u, v):
    x, y = u * 8 - 0.5, v * 8 - 0.5
    x0, y0 = math.floor(x), math.floor(y)
    fx, fy = x - x0, y - y0
    t = lambda i, j: linear[j % 8, i % 8]  # REPEAT
    return (t(x0, y0) * (1 - fx) * (1 - fy) + t(x0 + 1, y0) * fx * (1 - fy) + t(x0, y0 + 1) * (1 - fx) * fy +
            t(x0 + 1, y0 + 1) * fx * fy)
for tx, ty in ((0, 0), (1, 0), (3, 4), (6, 2), (2.7, 5.2)):
    wx, wy = -2.6 - 0.9 + (tx + 0.5) / 8 * 1.8, 0.9 + 0.9 - (ty + 0.5) / 8 * 1.8
    px, py = pixel_of(wx, wy, 0)
    x, y = ray_at(px, py, 0)
    u, v = (x + 2.6 + 0.9) / 1.8, (0.9 + 0.9 - y) / 1.8  # uv (0, 0) at the top left corner
    near(px, py, unorm(lit(bilinear(u, v))), 2, f"checker texel ({tx}, {ty})")

# Masked card: centre (0, 0.9, 0); border texels and the 4x4 middle are transparent.
green = lit(srgb(np.array([40.0, 160.0, 40.0])))
near(*pixel_of(-0.9 + 0.06, 0.9, 0), unorm(SKY), 1, "sky through the masked border")
near(*pixel_of(-0.9 + 1.5 * 0.225, 0.9 + 0.9 - 1.5 * 0.225, 0), unorm(green), 2, "opaque masked texel")
near(*pixel_of(0.0, 0.9 * 8 / 6, -2 + 0.125), unorm(lit([0.1, 0.2, 0.9])), 2, "box seen through the hole")
near(*pixel_of(0.35, 0.9 + 0.35, 0), unorm(SKY), 1, "sky through the hole beside the box")

# Cards seen from behind: the double-sided one lit with its flipped normal (+z), the single-sided one culled.
near(*pixel_of(2.6, 0.9, 0), unorm(lit([0.9, 0.6, 0.1])), 2, "double-sided card from behind")
near(*pixel_of(2.6, -1.6, 0), unorm(SKY), 1, "single-sided card from behind (culled)")

# Blended card: (1, 0, 0) at alpha 0.5 over the sky (both in the UNORM target).
sky8 = unorm(SKY) / 255.0
near(*pixel_of(-2.6, -1.6, 0), unorm(lit([1, 0, 0]) * 0.5 + sky8 * 0.5), 2, "blended card over the sky")

# Normal-mapped card at (-1.3, 0.9, 0): tangent dP/du = +x, bitangent cross(n, t) = +y, so the map's
# (0.6, 0, 0.8) (8-bit, linear) is the world normal.
m = np.array([204, 128, 230]) / 255.0 * 2 - 1
bump = m / np.linalg.norm(m)
near(*pixel_of(-1.3, 0.9, 0), unorm(lit([0.8, 0.8, 0.8], bump)), 2, "normal-mapped card")

# Emissive card: centre (0, -1.6, 0), grey lit plus its emissive factor.
near(*pixel_of(0.0, -1.6, 0), unorm(lit([0.2, 0.2, 0.2]) + np.array([0.5, 0.3, 0.0])), 2, "emissive card")

# Wedges: the front face (z = 0.5, normal +z) of the original at x = -1 and of the mirror at x = +1; its
# centroid is at (-1/6, -1/6) in the original's frame.
a = pixel_of(-1.0 - 1 / 6, -1.6 - 1 / 6, 0.5)
b = pixel_of(1.0 + 1 / 6, -1.6 - 1 / 6, 0.5)
near(*a, unorm(lit([0.7, 0.6, 0.5])), 2, "wedge front face")
check((on[a[1], a[0]] == on[b[1], b[0]]).all(),
      f"mirrored wedge front face {on[b[1], b[0]].tolist()} == original {on[a[1], a[0]].tolist()}")
# The gltfpack twin (quantized positions and UVs): the same picture up to a few edge pixels.
packed = np.asarray(Image.open(f"{out}/packed.png").convert("RGB")).astype(np.int32)
moved = int((np.abs(packed - on).max(axis=2) > 3).sum())
check(moved <= on.shape[0] * on.shape[1] // 500,
      f"gltfpack twin: {moved} pixels differ by more than 3 levels (at most 0.2%)")
sys.exit(1 if failed else 0)
PY
