// glTF extensions and pipeline outputs: the twins of tests/data/gltf/multi_mesh.gltf made by Debian's
// gltfpack (quantized, instanced, meshopt-compressed) and draco_transcoder (Draco) load to the same
// instances and world-space triangles as the float original; mirrored instances keep their outside
// out; required extensions the loader lacks are refused by name. The data files come from
// scripts/make_gltf_test_data.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "assets/gltf_loader.h"
#include "assets/normal_packing.h"
#include "gltf_test_data.h"

using namespace sieve::assets;
using sieve::test::loadGltfData;
namespace gpu = sieve::gpu;

namespace {

const std::filesystem::path& kData = sieve::test::kGltfData;

std::vector<uint8_t> readBytes(const char* file) {
    std::ifstream in(kData / file, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct WorldTriangle {
    glm::vec3 p[3];
    glm::vec3 centroid;
    glm::vec3 shadingNormal;  // the vertex normals' mean, transformed as the geometry pass does
};

// Every LOD-0 triangle of every instance, in world space and in the winding the GPU will see.
std::vector<WorldTriangle> worldTriangles(const SceneData& s) {
    std::vector<WorldTriangle> out;
    for (const gpu::Instance& inst : s.instances) {
        glm::mat4 m = instanceTransform(inst);
        const gpu::Mesh& mesh = s.meshes[inst.mesh];
        for (uint32_t p = 0; p < mesh.primitiveCount; ++p) {
            const gpu::MeshPrimitive& prim = s.primitives[mesh.firstPrimitive + p];
            const gpu::MeshLod& lod = prim.lods[0];
            for (uint32_t t = 0; t < lod.indexCount; t += 3) {
                WorldTriangle w{};
                glm::vec3 n(0.0f);
                for (int k = 0; k < 3; ++k) {
                    const gpu::Vertex& v = s.vertices[size_t(prim.vertexOffset) + s.indices[lod.firstIndex + t + k]];
                    w.p[k] = glm::vec3(m * glm::vec4(v.px, v.py, v.pz, 1.0f));
                    n += glm::mat3(m) * unpackNormal(v.normal);
                }
                w.centroid = (w.p[0] + w.p[1] + w.p[2]) / 3.0f;
                w.shadingNormal = glm::normalize(n);
                out.push_back(w);
            }
        }
    }
    return out;
}

glm::vec3 faceNormal(const WorldTriangle& t) {
    return glm::cross(t.p[1] - t.p[0], t.p[2] - t.p[0]);
}

// Each triangle of `a` has one in `b` with the same corners (any rotation of the order, same winding)
// within `tol`.
void expectEachTriangleIn(const std::vector<WorldTriangle>& a, const std::vector<WorldTriangle>& b, float tol,
                          const char* what) {
    size_t missing = 0;
    for (const WorldTriangle& t : a) {
        bool found = false;
        for (const WorldTriangle& u : b) {
            if (glm::length(t.centroid - u.centroid) > tol) continue;
            for (int r = 0; r < 3 && !found; ++r)
                found = glm::length(t.p[0] - u.p[r]) <= tol && glm::length(t.p[1] - u.p[(r + 1) % 3]) <= tol &&
                        glm::length(t.p[2] - u.p[(r + 2) % 3]) <= tol;
            if (found) break;
        }
        missing += found ? 0 : 1;
    }
    EXPECT_EQ(missing, 0u) << what << ": " << missing << " of " << a.size() << " triangles have no match";
}

void expectSameTriangles(const SceneData& twin, const SceneData& original, float tol, const char* what) {
    auto a = worldTriangles(twin), b = worldTriangles(original);
    EXPECT_EQ(a.size(), b.size()) << what;
    expectEachTriangleIn(a, b, tol, what);
    expectEachTriangleIn(b, a, tol, what);
}

// Instance transforms as a sorted list (the order of nodes may change through gltfpack).
std::vector<glm::mat4> sortedTransforms(const SceneData& s) {
    std::vector<glm::mat4> out;
    for (const gpu::Instance& inst : s.instances) out.push_back(instanceTransform(inst));
    std::sort(out.begin(), out.end(), [](const glm::mat4& a, const glm::mat4& b) {
        for (int i = 0; i < 3; ++i)
            if (std::abs(a[3][i] - b[3][i]) > 1e-3f) return a[3][i] < b[3][i];
        return false;
    });
    return out;
}

// Quantization tolerance: gltfpack stores positions on a 2^14 grid over each mesh's extent and Draco
// (draco_transcoder's default) on a 2^11 grid; the largest mesh (the 12 m ground) then moves a vertex
// by at most 12 / 2048 / 2 m ~ 3 mm. 1 cm is allowed everywhere.
constexpr float kQuantTol = 0.01f;

}  // namespace

TEST(GltfExtensions, MirroredNodeGetsAReversedTwinMesh) {
    SceneData s = loadGltfData("mirrored.gltf");
    ASSERT_EQ(s.instances.size(), 2u);
    ASSERT_EQ(s.meshes.size(), 2u);  // the wedge and its mirrored twin
    EXPECT_EQ(s.meshNames[1], "wedge (mirrored)");
    EXPECT_EQ(s.instances[0].mesh, 0u);
    EXPECT_EQ(s.instances[1].mesh, 1u);
    // The twin shares the vertices and lists each triangle with its last two corners swapped.
    const gpu::MeshPrimitive& a = s.primitives[s.meshes[0].firstPrimitive];
    const gpu::MeshPrimitive& b = s.primitives[s.meshes[1].firstPrimitive];
    ASSERT_EQ(a.lodCount, b.lodCount);
    EXPECT_EQ(a.vertexOffset, b.vertexOffset);
    for (uint32_t l = 0; l < a.lodCount; ++l) {
        ASSERT_EQ(a.lods[l].indexCount, b.lods[l].indexCount);
        EXPECT_NE(a.lods[l].firstIndex, b.lods[l].firstIndex);
        for (uint32_t t = 0; t < a.lods[l].indexCount; t += 3) {
            EXPECT_EQ(s.indices[a.lods[l].firstIndex + t], s.indices[b.lods[l].firstIndex + t]);
            EXPECT_EQ(s.indices[a.lods[l].firstIndex + t + 1], s.indices[b.lods[l].firstIndex + t + 2]);
            EXPECT_EQ(s.indices[a.lods[l].firstIndex + t + 2], s.indices[b.lods[l].firstIndex + t + 1]);
        }
    }
    // In world space every triangle of both instances faces the way its shading normals point: front
    // faces stay front faces (without the twin the mirrored wedge's would all face inwards).
    for (const WorldTriangle& t : worldTriangles(s)) EXPECT_GT(glm::dot(faceNormal(t), t.shadingNormal), 0.0f);
    // The mirror image: instance 1's triangles are instance 0's reflected about x = 0.
    auto tris = worldTriangles(s);
    std::vector<WorldTriangle> left(tris.begin(), tris.begin() + long(tris.size() / 2)), reflected;
    for (const WorldTriangle& t : left) {
        WorldTriangle r = t;
        for (int k = 0; k < 3; ++k) r.p[k].x = -t.p[k].x;
        std::swap(r.p[1], r.p[2]);  // a reflection reverses the winding
        r.centroid.x = -t.centroid.x;
        reflected.push_back(r);
    }
    std::vector<WorldTriangle> right(tris.begin() + long(tris.size() / 2), tris.end());
    expectEachTriangleIn(reflected, right, 1e-5f, "mirror image");
}

TEST(GltfExtensions, InstancedTwinHasTheSameInstances) {
    SceneData original = loadGltfData("multi_mesh.gltf");
    SceneData packed = loadGltfData("multi_mesh_packed.glb");        // quantized, one node per instance
    SceneData instanced = loadGltfData("multi_mesh_instanced.glb");  // quantized, EXT_mesh_gpu_instancing
    ASSERT_EQ(original.instances.size(), 21u);
    EXPECT_EQ(packed.instances.size(), original.instances.size());
    ASSERT_EQ(instanced.instances.size(), packed.instances.size());
    // Both gltfpack outputs fold the same dequantization into the instance transforms.
    auto a = sortedTransforms(packed), b = sortedTransforms(instanced);
    for (size_t i = 0; i < a.size(); ++i)
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 3; ++r)
                EXPECT_NEAR(a[i][c][r], b[i][c][r], 1e-4f * std::max(1.0f, std::abs(a[i][c][r])))
                    << "instance " << i << " [" << c << "][" << r << "]";
    // One mirrored node in the file: its mesh gets a twin in every variant.
    EXPECT_EQ(original.meshes.size(), 4u);
    EXPECT_EQ(instanced.meshes.size(), 4u);
    EXPECT_TRUE(instanced.warnings.empty()) << instanced.warnings[0];
}

TEST(GltfExtensions, QuantizedMeshoptAndDracoTwinsMatchTheFloatOriginal) {
    SceneData original = loadGltfData("multi_mesh.gltf");
    for (const char* file :
         {"multi_mesh_packed.glb", "multi_mesh_instanced.glb", "multi_mesh_meshopt.glb", "multi_mesh_draco.glb"}) {
        SceneData twin = loadGltfData(file);
        EXPECT_EQ(twin.validate(), "") << file;
        EXPECT_EQ(twin.instances.size(), original.instances.size()) << file;
        expectSameTriangles(twin, original, kQuantTol, file);
        // Normals survive quantization (8 bits), octahedral filters and Draco: each twin triangle's
        // shading normal is close to its face normal, as in the original.
        for (const WorldTriangle& t : worldTriangles(twin))
            EXPECT_GT(glm::dot(glm::normalize(faceNormal(t)), t.shadingNormal), 0.95f) << file;
    }
    // The meshopt codecs are lossless: unfiltered positions and indices decode to exactly those of the
    // uncompressed twin. Normals (OCTAHEDRAL), instance rotations (QUATERNION, 12 bits) and
    // translations and scales (EXPONENTIAL) go through lossy filters. gltfpack quantizes every mesh on
    // the ground's 12 m grid, so a box's vertices sit metres from the pivot its rotation turns about, and
    // a 12-bit quaternion (~1e-3 rad) moves them by up to 8 mm: the 1 cm tolerance again.
    SceneData inst = loadGltfData("multi_mesh_instanced.glb"), mo = loadGltfData("multi_mesh_meshopt.glb");
    ASSERT_EQ(mo.vertices.size(), inst.vertices.size());
    for (size_t v = 0; v < mo.vertices.size(); ++v) {
        EXPECT_EQ(mo.vertices[v].px, inst.vertices[v].px);
        EXPECT_EQ(mo.vertices[v].py, inst.vertices[v].py);
        EXPECT_EQ(mo.vertices[v].pz, inst.vertices[v].pz);
    }
    EXPECT_EQ(mo.indices, inst.indices);
    expectSameTriangles(mo, inst, kQuantTol, "meshopt vs instanced");
}

TEST(GltfExtensions, UnknownRequiredExtensionIsRefusedByName) {
    auto bytes = readBytes("textured_quad.gltf");
    std::string json(bytes.begin(), bytes.end());
    std::string patched = json;
    patched.insert(1, R"("extensionsUsed":["KHR_fake_geometry","EXT_mesh_gpu_instancing"],)"
                      R"("extensionsRequired":["KHR_fake_geometry","EXT_mesh_gpu_instancing"],)");
    auto r = loadGltfFromMemory(std::vector<uint8_t>(patched.begin(), patched.end()), "quad.gltf");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().rfind("quad.gltf: required extension KHR_fake_geometry is not supported", 0), 0u) << r.error();
    EXPECT_EQ(r.error().find("EXT_mesh_gpu_instancing is"), std::string::npos) << r.error();
    // Two unknown ones: both named.
    patched = json;
    patched.insert(1, R"("extensionsRequired":["KHR_a","KHR_b"],)");
    auto two = loadGltfFromMemory(std::vector<uint8_t>(patched.begin(), patched.end()), "quad.gltf");
    ASSERT_FALSE(two);
    EXPECT_NE(two.error().find("required extensions KHR_a, KHR_b are not supported"), std::string::npos) << two.error();
}

TEST(GltfExtensions, IgnoredContentIsListedOnceEach) {
    auto bytes = readBytes("multi_mesh.gltf");
    std::string json(bytes.begin(), bytes.end());
    // Optional extensions, lights, cameras, a skin, morph targets and strips: each kind one warning.
    json.insert(1, R"("extensionsUsed":["KHR_lights_punctual","KHR_materials_sheen","KHR_materials_sheen"],)"
                   R"("cameras":[{"type":"perspective","perspective":{"yfov":1,"znear":0.1}},)"
                   R"({"type":"perspective","perspective":{"yfov":1,"znear":0.1}}],"skins":[{"joints":[0]}],)");
    size_t prim = json.find("\"primitives\"");
    ASSERT_NE(prim, std::string::npos);
    size_t open = json.find('[', prim);
    json.insert(open + 1, R"({"attributes":{"POSITION":0},"mode":5},{"attributes":{"POSITION":0},"mode":5},)"
                          R"({"attributes":{"POSITION":0},"indices":3,"targets":[{"POSITION":0}]},)");
    auto r = loadGltfFromMemory(std::vector<uint8_t>(json.begin(), json.end()), "scene.gltf");
    ASSERT_TRUE(r) << r.error();
    const std::vector<std::string> expected = {
        "extension KHR_lights_punctual: the file's lights are ignored",
        "extension KHR_materials_sheen is not supported, ignored (2 times)",
        "skins are ignored: skinned meshes show their bind pose",
        "morph targets are ignored: primitives show their base shape",
        "primitives of mode 5 (triangle strip) are not a triangle list, skipped (2 times)",
        "cameras that no node of the scene places are ignored (2 times)",
    };
    EXPECT_EQ(r->warnings, expected);
}

TEST(GltfExtensions, DisallowedQuantizedTypesAreRefused) {
    // NORMAL as UNSIGNED_BYTE is not among the types KHR_mesh_quantization allows.
    auto bytes = readBytes("textured_quad.gltf");
    std::string json(bytes.begin(), bytes.end());
    // Accessor 1 is the quad's NORMAL (FLOAT VEC3): claim normalized unsigned bytes instead.
    size_t second = json.find("\"componentType\": 5126", json.find("\"componentType\": 5126") + 1);
    ASSERT_NE(second, std::string::npos);
    json.replace(second, std::strlen("\"componentType\": 5126"), R"("normalized": true, "componentType": 5121)");
    auto r = loadGltfFromMemory(std::vector<uint8_t>(json.begin(), json.end()), "quad.gltf");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().find("NORMAL accessor 1: component type 5121 (normalized) is not allowed for NORMAL"),
              std::string::npos)
        << r.error();
}

TEST(GltfExtensions, CorruptCompressedDataFailsCleanly) {
    // Byte flips in the BIN chunk (compressed streams) and in the JSON of the meshopt and Draco twins:
    // either a valid scene or an error naming the input, never a crash or a broken scene.
    std::mt19937 rng(99);
    for (const char* file : {"multi_mesh_meshopt.glb", "multi_mesh_draco.glb", "multi_mesh_instanced.glb"}) {
        const std::vector<uint8_t> good = readBytes(file);
        ASSERT_GT(good.size(), 100u);
        int errors = 0;
        for (int i = 0; i < 300; ++i) {
            std::vector<uint8_t> m = good;
            for (int k = 0; k < 1 + int(rng() % 3); ++k) m[20 + rng() % (m.size() - 20)] = uint8_t(rng());
            auto r = loadGltfFromMemory(m, "corrupt.glb");
            if (r)
                EXPECT_EQ(r->validate(), "") << file;
            else {
                ++errors;
                EXPECT_EQ(r.error().rfind("corrupt.glb: ", 0), 0u) << r.error();
            }
        }
        EXPECT_GT(errors, 0) << file << ": no corruption was ever noticed";
        // Truncated compressed data.
        std::vector<uint8_t> cut(good.begin(), good.end() - 64);
        EXPECT_FALSE(loadGltfFromMemory(cut, "cut.glb")) << file;
    }
}

TEST(GltfExtensions, MeshoptFieldsAreChecked) {
    auto bytes = readBytes("multi_mesh_meshopt.glb");
    // The data path is relative to the build's tests/ folder: elsewhere the file is not found.
    ASSERT_GE(bytes.size(), 20u) << "multi_mesh_meshopt.glb not found (run from the build's tests/ folder)";
    uint32_t jsonLength;
    std::memcpy(&jsonLength, &bytes[12], 4);
    std::string json(bytes.begin() + 20, bytes.begin() + 20 + jsonLength);
    auto withJson = [&](std::string j) {
        while (j.size() % 4) j += ' ';
        std::vector<uint8_t> out(bytes.begin(), bytes.begin() + 12);
        uint32_t len = uint32_t(j.size()), total = uint32_t(bytes.size() - jsonLength + j.size());
        std::memcpy(&out[8], &total, 4);
        out.insert(out.end(), {0, 0, 0, 0, 'J', 'S', 'O', 'N'});
        std::memcpy(&out[12], &len, 4);
        out.insert(out.end(), j.begin(), j.end());
        out.insert(out.end(), bytes.begin() + 20 + jsonLength, bytes.end());
        return loadGltfFromMemory(out, "mo.glb");
    };
    ASSERT_TRUE(withJson(json)) << "the re-packed file must load";
    auto replaceFirst = [&](const std::string& from, const std::string& to) {
        std::string j = json;
        size_t at = j.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) j.replace(at, from.size(), to);
        return j;
    };
    auto expectError = [&](const std::string& j, const std::string& what) {
        auto r = withJson(j);
        ASSERT_FALSE(r) << what;
        EXPECT_NE(r.error().find(what), std::string::npos) << r.error();
    };
    expectError(replaceFirst("\"mode\":\"ATTRIBUTES\"", "\"mode\":\"BLOCKS\""), "unknown mode 'BLOCKS'");
    expectError(replaceFirst("\"mode\":\"ATTRIBUTES\"", "\"mode\":\"ATTRIBUTES\",\"filter\":\"WAVELET\""),
                "unknown filter 'WAVELET'");
    expectError(replaceFirst("\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":0",
                             "\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":100000"),
                "exceeds buffer");
    expectError(replaceFirst("\"count\":", "\"count\":9000000000"), "count is missing or invalid");
    expectError(replaceFirst("\"count\":", "\"count\":1000000"), "compressed bytes");
    expectError(replaceFirst(",\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\"",
                             ",\"extensionz\":{\"EXT_meshopt_compression\":{\"buffer\""),
                "but is not compressed");
}
