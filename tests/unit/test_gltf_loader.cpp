// glTF loading: a valid file, generated variants, and malformed input that must fail cleanly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "assets/gltf_loader.h"
#include "assets/normal_packing.h"
#include "assets/replicate.h"
#include "scratch_dir.h"

using namespace sieve::assets;

namespace {

const std::filesystem::path kData = std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "gltf";

std::string base64(const std::vector<uint8_t>& in) {
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < in.size(); i += 3) {
        uint32_t v = uint32_t(in[i]) << 16 | (i + 1 < in.size() ? uint32_t(in[i + 1]) << 8 : 0) |
                     (i + 2 < in.size() ? uint32_t(in[i + 2]) : 0);
        out += t[(v >> 18) & 63];
        out += t[(v >> 12) & 63];
        out += i + 1 < in.size() ? t[(v >> 6) & 63] : '=';
        out += i + 2 < in.size() ? t[v & 63] : '=';
    }
    return out;
}

// A one-mesh glTF built from its parts; every field can be broken on purpose.
struct Spec {
    std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    std::vector<uint32_t> indices = {0, 1, 2, 0, 2, 3};
    int mode = 4;
    std::string nodes = R"([{"mesh":0}])";
    std::string sceneNodes = "[0]";
    long positionCount = -1;  // -1: positions.size()
    long indexCount = -1;
    long positionOffset = 0;
    int viewBuffer = 0;
    int positionAccessor = 0;
    std::string positionViewExtra;  // e.g. ,"byteStride":4
    std::string positionAccessorExtra;
    std::string bufferUri;       // empty: data URI
    std::string extraPrimitive;  // appended to the primitives array
    bool glb = false;

    std::vector<uint8_t> bin() const {
        std::vector<uint8_t> b(positions.size() * 12 + indices.size() * 4);
        if (!positions.empty()) std::memcpy(b.data(), positions.data(), positions.size() * 12);
        if (!indices.empty()) std::memcpy(b.data() + positions.size() * 12, indices.data(), indices.size() * 4);
        return b;
    }
    std::string json() const {
        std::vector<uint8_t> data = bin();
        size_t pb = positions.size() * 12, ib = indices.size() * 4;
        std::string uri =
            glb ? ""
                : R"(,"uri":")" +
                      (bufferUri.empty() ? "data:application/octet-stream;base64," + base64(data) : bufferUri) + "\"";
        std::string prim = R"({"attributes":{"POSITION":)" + std::to_string(positionAccessor) + "}" +
                           (indices.empty() ? "" : R"(,"indices":1)") + R"(,"mode":)" + std::to_string(mode) + "}";
        return R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":)" + sceneNodes + R"(}],"nodes":)" + nodes +
               R"(,"meshes":[{"primitives":[)" + prim + extraPrimitive + R"(]}],"buffers":[{"byteLength":)" +
               std::to_string(data.size()) + uri + R"(}],"bufferViews":[{"buffer":)" + std::to_string(viewBuffer) +
               R"(,"byteOffset":0,"byteLength":)" + std::to_string(pb) + positionViewExtra +
               R"(},{"buffer":0,"byteOffset":)" + std::to_string(pb) + R"(,"byteLength":)" + std::to_string(ib) +
               R"(}],"accessors":[{"bufferView":0,"byteOffset":)" + std::to_string(positionOffset) +
               R"(,"componentType":5126,"type":"VEC3","count":)" +
               std::to_string(positionCount < 0 ? long(positions.size()) : positionCount) + positionAccessorExtra +
               R"(},{"bufferView":1,"componentType":5125,"type":"SCALAR","count":)" +
               std::to_string(indexCount < 0 ? long(indices.size()) : indexCount) + "}]}";
    }
    std::vector<uint8_t> bytes() const {
        std::string j = json();
        if (!glb) return std::vector<uint8_t>(j.begin(), j.end());
        while (j.size() % 4) j += ' ';
        std::vector<uint8_t> b = bin();
        while (b.size() % 4) b.push_back(0);
        std::vector<uint8_t> out;
        auto u32 = [&](uint32_t v) {
            for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
        };
        u32(0x46546C67);
        u32(2);
        u32(uint32_t(12 + 8 + j.size() + 8 + b.size()));
        u32(uint32_t(j.size()));
        u32(0x4E4F534A);
        out.insert(out.end(), j.begin(), j.end());
        u32(uint32_t(b.size()));
        u32(0x004E4942);
        out.insert(out.end(), b.begin(), b.end());
        return out;
    }
};

Expected<SceneData> load(const Spec& s) {
    return loadGltfFromMemory(s.bytes(), "test.gltf", kData.string());
}

// An error that names the file and contains `what`.
void expectError(const Expected<SceneData>& r, const std::string& what) {
    ASSERT_FALSE(r) << "expected an error about '" << what << "'";
    EXPECT_EQ(r.error().rfind("test.gltf: ", 0), 0u) << r.error();
    EXPECT_NE(r.error().find(what), std::string::npos) << r.error();
}

}  // namespace

TEST(GltfLoader, LoadsTheCubeFileWithItsHierarchy) {
    auto r = loadGltf((kData / "cube.gltf").string());
    ASSERT_TRUE(r) << r.error();
    const SceneData& s = *r;
    EXPECT_EQ(s.validate(), "");
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshNames[0], "cube");
    EXPECT_EQ(s.meshTriangles(0), 12u);
    ASSERT_EQ(s.instances.size(), 2u);
    // Root: translate (10, 0, 0) * scale 2. Child: root * translate (0, 3, 0) * rotate 90 degrees about Y.
    EXPECT_NEAR(s.bounds[0].sphere.x, 10.0f, 1e-4f);
    EXPECT_NEAR(s.instances[0].scale, 2.0f, 1e-4f);
    EXPECT_GE(s.bounds[0].sphere.w, std::sqrt(3.0f) - 1e-4f);
    EXPECT_NEAR(s.bounds[1].sphere.y, 6.0f, 1e-4f);
    EXPECT_NEAR(s.instances[1].rows[0].x, 0.0f, 1e-4f);  // the rotation shows in the transform
    EXPECT_TRUE(s.warnings.empty());
    EXPECT_LE(s.boundsMin.x, 10.0f - 1.7f);
}

TEST(GltfLoader, GeneratedQuadLoadsAndGetsComputedNormals) {
    Spec spec;
    auto r = load(spec);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->meshTriangles(0), 2u);
    for (const auto& v : r->vertices) EXPECT_GT(unpackNormal(v.normal).z, 0.99f);
    spec.indices.clear();  // unindexed: consecutive triangles
    spec.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    auto u = load(spec);
    ASSERT_TRUE(u) << u.error();
    EXPECT_EQ(u->meshTriangles(0), 2u);
}

TEST(GltfLoader, GlbFromMemoryAndFromFile) {
    Spec spec;
    spec.glb = true;
    std::vector<uint8_t> bytes = spec.bytes();
    auto r = loadGltfFromMemory(bytes, "test.glb");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->meshTriangles(0), 2u);
    const sieve::test::ScratchDir scratch("sieve_gltf");
    const auto path = scratch / "test.glb";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    auto f = loadGltf(path.string());
    ASSERT_TRUE(f) << f.error();
    EXPECT_EQ(f->instances.size(), 1u);
}

TEST(GltfLoader, MissingFileAndMalformedJson) {
    auto r = loadGltf((kData / "does_not_exist.gltf").string());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().find("does_not_exist.gltf"), std::string::npos);
    std::string bad = R"({"asset":{"version":"2.0"}, "meshes": [ {"primitives": [ })";
    auto m = loadGltfFromMemory(std::vector<uint8_t>(bad.begin(), bad.end()), "test.gltf");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().rfind("test.gltf: ", 0), 0u);
}

TEST(GltfLoader, MissingBufferAndBadReferences) {
    Spec missing;
    missing.bufferUri = "no_such_file.bin";
    expectError(load(missing), "no_such_file.bin");
    Spec badBuffer;
    badBuffer.viewBuffer = 7;
    expectError(load(badBuffer), "buffer 7, which does not exist");
    Spec badAccessor;
    badAccessor.positionAccessor = 9;
    expectError(load(badAccessor), "accessor 9 does not exist");
}

TEST(GltfLoader, AccessorRangesAreChecked) {
    Spec tooMany;
    tooMany.positionCount = 5;  // one element past the bufferView
    expectError(load(tooMany), "exceed");
    Spec offset;
    offset.positionOffset = 4;  // shifts the last element past the end
    expectError(load(offset), "exceed");
    Spec huge;
    huge.positionCount = 0x7fffffffL;
    expectError(load(huge), "exceed");
    Spec stride;
    stride.positionViewExtra = R"(,"byteStride":4)";
    expectError(load(stride), "byteStride");
    Spec indices;
    indices.indexCount = 7;
    expectError(load(indices), "exceed");
    Spec sparse;
    sparse.positionAccessorExtra =
        R"(,"sparse":{"count":1,"indices":{"bufferView":1,"componentType":5125},"values":{"bufferView":0}})";
    expectError(load(sparse), "sparse");
}

TEST(GltfLoader, IndexOutOfRangeAndNonFinitePositions) {
    Spec index;
    index.indices = {0, 1, 4, 0, 2, 3};
    expectError(load(index), "out of range");
    Spec nan;
    nan.positions[2].y = NAN;
    expectError(load(nan), "NaN");
    Spec inf;
    inf.positions[0].x = INFINITY;
    expectError(load(inf), "NaN or infinite");
}

TEST(GltfLoader, RecursiveAndMalformedNodeGraphs) {
    Spec cycle;
    cycle.nodes = R"([{"children":[1]},{"children":[0],"mesh":0}])";
    expectError(load(cycle), "recursive");
    Spec self;
    self.nodes = R"([{"children":[0],"mesh":0}])";
    expectError(load(self), "recursive");
    Spec orphanCycle;  // the scene's root is fine; a separate cycle elsewhere is still an invalid file
    orphanCycle.nodes = R"([{"mesh":0},{"children":[2]},{"children":[1]}])";
    expectError(load(orphanCycle), "recursive");
    Spec shared;
    shared.nodes = R"([{"children":[2]},{"children":[2]},{"mesh":0}])";
    shared.sceneNodes = "[0,1]";
    expectError(load(shared), "more than one parent");
    Spec badChild;
    badChild.nodes = R"([{"children":[5],"mesh":0}])";
    expectError(load(badChild), "child 5, which does not exist");
    Spec badRoot;
    badRoot.sceneNodes = "[3]";
    expectError(load(badRoot), "node 3, which does not exist");
    Spec infinite;
    infinite.nodes = R"([{"mesh":0,"translation":[1e39,0,0]}])";
    expectError(load(infinite), "not finite");
}

TEST(GltfLoader, DepthLimit) {
    auto chain = [](int n) {
        std::string nodes = "[";
        for (int i = 0; i < n; ++i) {
            nodes += i ? "," : "";
            nodes += i + 1 < n ? R"({"children":[)" + std::to_string(i + 1) + R"(],"translation":[0,0.001,0]})"
                               : R"({"mesh":0})";
        }
        return nodes + "]";
    };
    Spec ok;
    ok.nodes = chain(500);
    auto r = load(ok);
    ASSERT_TRUE(r) << r.error();
    EXPECT_NEAR(r->instances[0].rows[1].w, 0.499f, 1e-3f);
    Spec deep;
    deep.nodes = chain(int(kMaxGltfNodeDepth) + 5);
    expectError(load(deep), "deeper");
}

TEST(GltfLoader, NonTrianglePrimitivesAreSkippedWithAWarning) {
    Spec lines;
    lines.mode = 1;
    expectError(load(lines), "no renderable triangles");
    Spec mixed;
    mixed.extraPrimitive = R"(,{"attributes":{"POSITION":0},"mode":0})";  // points next to the triangles
    auto r = load(mixed);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->primitives.size(), 1u);
    ASSERT_EQ(r->warnings.size(), 1u);
    EXPECT_NE(r->warnings[0].find("not a triangle list"), std::string::npos);
    Spec empty;
    empty.nodes = R"([{"name":"no mesh here"}])";
    expectError(load(empty), "no renderable triangles");
}

TEST(GltfLoader, TruncatedGlbNeverLoadsOrCrashes) {
    Spec spec;
    spec.glb = true;
    std::vector<uint8_t> bytes = spec.bytes();
    for (size_t n = 0; n < bytes.size(); ++n) {
        std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + long(n));
        auto r = loadGltfFromMemory(cut, "cut.glb");
        EXPECT_FALSE(r) << "prefix of " << n << " bytes loaded";
    }
}

TEST(GltfLoader, RandomAndMutatedBytesNeverCrash) {
    std::mt19937 rng(1234);
    for (int i = 0; i < 300; ++i) {
        std::vector<uint8_t> junk(rng() % 300);
        for (auto& b : junk) b = uint8_t(rng());
        if (i % 3 == 0 && junk.size() >= 4) std::memcpy(junk.data(), "glTF", 4);
        EXPECT_FALSE(loadGltfFromMemory(junk, "junk.bin"));
    }
    // Byte flips in valid files: either a valid scene or an error, never a crash or a broken scene.
    for (bool glb : {false, true}) {
        Spec spec;
        spec.glb = glb;
        std::vector<uint8_t> good = spec.bytes();
        for (int i = 0; i < 400; ++i) {
            std::vector<uint8_t> m = good;
            for (int k = 0; k < 1 + int(rng() % 4); ++k) m[rng() % m.size()] = uint8_t(rng());
            auto r = loadGltfFromMemory(m, "mutated");
            if (r) {
                EXPECT_EQ(r->validate(), "");
            }
        }
    }
}

TEST(ReplicateGrid, CopiesInstancesOnAGrid) {
    auto r = loadGltf((kData / "cube.gltf").string());
    ASSERT_TRUE(r) << r.error();
    auto g = replicateGrid(*r, 3, 2, 50.0f);
    ASSERT_TRUE(g) << g.error();
    EXPECT_EQ(g->instances.size(), 12u);
    EXPECT_EQ(g->meshes.size(), r->meshes.size());
    EXPECT_EQ(g->validate(), "");
    // Copy (i, j) = (2, 1) is instances [10, 12): offset (+50, 0, +25) from the original.
    EXPECT_NEAR(g->bounds[10].sphere.x - r->bounds[0].sphere.x, 50.0f, 1e-4f);
    EXPECT_NEAR(g->bounds[10].sphere.z - r->bounds[0].sphere.z, 25.0f, 1e-4f);
    EXPECT_NEAR(g->instances[10].rows[0].w - r->instances[0].rows[0].w, 50.0f, 1e-4f);
    EXPECT_FALSE(replicateGrid(*r, 0, 2));
    auto autoSpacing = replicateGrid(*r, 2, 2);
    ASSERT_TRUE(autoSpacing);
    EXPECT_GT(autoSpacing->boundsMax.x - autoSpacing->boundsMin.x, r->boundsMax.x - r->boundsMin.x);

    EXPECT_EQ(parseGridSpec("4x3"), std::make_pair(4u, 3u));
    EXPECT_EQ(parseGridSpec("10X1"), std::make_pair(10u, 1u));
    EXPECT_FALSE(parseGridSpec("4x"));
    EXPECT_FALSE(parseGridSpec("0x3"));
    EXPECT_FALSE(parseGridSpec("4x3x2"));
    EXPECT_FALSE(parseGridSpec("-4x3"));
}

TEST(GltfLoader, CamerasPlacedByNodesAreReadAndBadOnesSkipped) {
    Spec spec;
    spec.nodes = R"([{"mesh":0},{"camera":0,"translation":[0,0,5]},{"camera":1},)"
                 R"({"camera":0,"translation":[9,9,9]},{"camera":2,"scale":[0,0,0]}])";
    spec.sceneNodes = "[0,1,2,3,4]";
    std::string json = spec.json();
    json.insert(1, R"("cameras":[{"name":"eye","type":"perspective","perspective":{"yfov":0.7,"znear":0.2,"zfar":50}},)"
                   R"({"type":"orthographic","orthographic":{"xmag":1,"ymag":1,"znear":2,"zfar":1}},)"
                   R"({"type":"perspective","perspective":{"yfov":0.7,"znear":0.2}},)"
                   R"({"type":"orthographic","orthographic":{"xmag":1,"ymag":1,"znear":0,"zfar":1}}],)");
    auto r = loadGltfFromMemory(std::vector<uint8_t>(json.begin(), json.end()), "cams.gltf");
    ASSERT_TRUE(r) << r.error();
    ASSERT_EQ(r->cameras.size(), 1u);
    const SceneCamera& c = r->cameras[0];
    EXPECT_EQ(c.index, 0u);
    EXPECT_EQ(c.node, 1u);  // the first node that places it
    EXPECT_EQ(c.name, "eye");
    EXPECT_FALSE(c.orthographic);
    EXPECT_FLOAT_EQ(c.yfov, 0.7f);
    EXPECT_FLOAT_EQ(c.znear, 0.2f);
    EXPECT_FLOAT_EQ(c.zfar, 50.0f);
    EXPECT_EQ(c.pose.position, glm::vec3(0, 0, 5));
    EXPECT_NEAR(glm::distance(cameraForward(c.pose), glm::vec3(0, 0, -1)), 0.0f, 1e-6f);
    const std::vector<std::string> expected = {
        "camera 1: orthographic znear >= 0 and zfar > znear are required: the camera is skipped",
        "camera 2 at node 4: the node's transform has no view direction: the camera is skipped",
        "cameras that no node of the scene places are ignored",
    };
    EXPECT_EQ(r->warnings, expected);
    // A node naming a camera that does not exist is an error.
    Spec bad;
    bad.nodes = R"([{"mesh":0},{"camera":3}])";
    bad.sceneNodes = "[0,1]";
    expectError(load(bad), "node 1 refers to camera 3, which does not exist");
}
