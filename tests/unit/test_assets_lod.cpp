// LOD chains stay whole: every LOD of every procedural mesh (the city's, the shapes') and of a glTF test
// mesh has no more boundary edges than LOD 0, and its stored error bounds its measured distance to
// LOD 0. Boundary edges and distances are computed here independently of the builder (its own
// counter, brute-force distances over random samples).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "assets/city_meshes.h"
#include "assets/gltf_loader.h"
#include "assets/shapes.h"
#include "assets/surface_distance.h"

using namespace sieve::assets;
using sieve::gpu::MeshPrimitive;

namespace {

const std::filesystem::path kData = std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "gltf";

// Edges used by exactly one triangle, vertices identified by equal position (== on each coordinate,
// so +0 and -0 are one position).
size_t boundaryEdges(const std::vector<glm::vec3>& positions, std::span<const uint32_t> indices) {
    std::map<std::tuple<float, float, float>, uint32_t> ids;
    auto id = [&](uint32_t v) {
        glm::vec3 p = positions[v] + glm::vec3(0.0f);
        return ids.try_emplace({p.x, p.y, p.z}, uint32_t(ids.size())).first->second;
    };
    std::map<std::pair<uint32_t, uint32_t>, int> uses;
    for (size_t t = 0; t + 2 < indices.size(); t += 3)
        for (int k = 0; k < 3; ++k) {
            uint32_t a = id(indices[t + k]), b = id(indices[t + (k + 1) % 3]);
            if (a != b) ++uses[{std::min(a, b), std::max(a, b)}];
        }
    return size_t(std::count_if(uses.begin(), uses.end(), [](const auto& e) { return e.second == 1; }));
}

struct Lod {
    std::vector<glm::vec3> positions;  // the primitive's vertices (shared by its LODs)
    std::span<const uint32_t> indices;
};

Lod lodOf(const SceneData& s, const MeshPrimitive& prim, uint32_t l) {
    Lod lod;
    uint32_t maxIndex = 0;
    for (uint32_t k = 0; k < prim.lodCount; ++k)
        for (uint32_t i = 0; i < prim.lods[k].indexCount; ++i)
            maxIndex = std::max(maxIndex, s.indices[prim.lods[k].firstIndex + i]);
    for (uint32_t v = 0; v <= maxIndex; ++v) {
        const sieve::gpu::Vertex& x = s.vertices[size_t(prim.vertexOffset) + v];
        lod.positions.push_back({x.px, x.py, x.pz});
    }
    lod.indices = {s.indices.data() + prim.lods[l].firstIndex, prim.lods[l].indexCount};
    return lod;
}

// Distance from p to the nearest triangle of `to`, by brute force.
float distanceTo(glm::vec3 p, const Lod& to) {
    float best = INFINITY;
    for (size_t t = 0; t < to.indices.size(); t += 3)
        best = std::min(best, pointTriangleDistance(p, to.positions[to.indices[t]], to.positions[to.indices[t + 1]],
                                                    to.positions[to.indices[t + 2]]));
    return best;
}

// The largest distance to `to` over the corners, edge midpoints and random points of `from`'s
// triangles (a lower bound of the one-sided Hausdorff distance). The distances come from a SurfaceGrid,
// which GridQueriesAndBoundMatchBruteForce checks against brute force.
float sampledDistance(const Lod& from, const Lod& to, std::mt19937& rng) {
    glm::vec3 mn(INFINITY), mx(-INFINITY);
    for (const glm::vec3& p : to.positions) mn = glm::min(mn, p), mx = glm::max(mx, p);
    SurfaceGrid grid({to.positions, to.indices}, mn, mx);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    float worst = 0.0f;
    for (size_t t = 0; t < from.indices.size(); t += 3) {
        glm::vec3 a = from.positions[from.indices[t]], b = from.positions[from.indices[t + 1]],
                  c = from.positions[from.indices[t + 2]];
        std::vector<glm::vec3> points = {a, b, c, (a + b) * 0.5f, (b + c) * 0.5f, (c + a) * 0.5f, (a + b + c) / 3.0f};
        for (int k = 0; k < 6; ++k) {
            float x = u(rng), y = u(rng);
            if (x + y > 1.0f) x = 1.0f - x, y = 1.0f - y;
            points.push_back(a + (b - a) * x + (c - a) * y);
        }
        for (glm::vec3 p : points) worst = std::max(worst, grid.distance(p));
    }
    return worst;
}

float extentOf(const std::vector<glm::vec3>& positions) {
    glm::vec3 mn(INFINITY), mx(-INFINITY);
    for (const glm::vec3& p : positions) mn = glm::min(mn, p), mx = glm::max(mx, p);
    glm::vec3 e = mx - mn;
    return std::max({e.x, e.y, e.z});
}

// Checks every LOD of every primitive of `s`; returns the longest chain.
uint32_t expectWholeChains(const SceneData& s, const std::string& what) {
    std::mt19937 rng(17);
    uint32_t longest = 0;
    for (size_t m = 0; m < s.meshes.size(); ++m)
        for (uint32_t p = 0; p < s.meshes[m].primitiveCount; ++p) {
            const MeshPrimitive& prim = s.primitives[s.meshes[m].firstPrimitive + p];
            longest = std::max(longest, prim.lodCount);
            Lod lod0 = lodOf(s, prim, 0);
            size_t open0 = boundaryEdges(lod0.positions, lod0.indices);
            // Rounding of the distance computations, relative to the mesh size.
            float eps = 1e-5f * extentOf(lod0.positions);
            for (uint32_t l = 1; l < prim.lodCount; ++l) {
                Lod lod = lodOf(s, prim, l);
                std::string where =
                    what + " mesh " + s.meshNames[m] + " primitive " + std::to_string(p) + " LOD " + std::to_string(l);
                EXPECT_LE(boundaryEdges(lod.positions, lod.indices), open0) << where << " opens the mesh";
                float error = prim.lods[l].error;
                EXPECT_LE(sampledDistance(lod, lod0, rng), error + eps) << where << ": strays from LOD 0";
                EXPECT_LE(sampledDistance(lod0, lod, rng), error + eps) << where << ": LOD 0 strays from it";
            }
        }
    return longest;
}

}  // namespace

TEST(SurfaceDistance, PointTriangleDistanceMatchesDenseSampling) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    for (int trial = 0; trial < 200; ++trial) {
        glm::vec3 a(d(rng), d(rng), d(rng)), b(d(rng), d(rng), d(rng)), c(d(rng), d(rng), d(rng));
        if (trial % 10 == 0) c = a + (b - a) * 0.3f;  // degenerate: a segment
        glm::vec3 p(d(rng), d(rng), d(rng));
        float exact = pointTriangleDistance(p, a, b, c);
        const int n = 200;
        float sampled = INFINITY;
        for (int i = 0; i <= n; ++i)
            for (int j = 0; i + j <= n; ++j)
                sampled = std::min(sampled, glm::distance(p, a + (b - a) * (float(i) / n) + (c - a) * (float(j) / n)));
        float longest = std::max({glm::distance(a, b), glm::distance(b, c), glm::distance(c, a)});
        EXPECT_LE(exact, sampled + 1e-5f) << trial;
        EXPECT_GE(exact, sampled - longest / n - 1e-5f) << trial;
    }
}

TEST(SurfaceDistance, GridQueriesAndBoundMatchBruteForce) {
    Geometry g;
    appendTorus(g, 2.0f, 0.5f, 24, 12);
    Geometry coarse;
    appendTorus(coarse, 2.0f, 0.5f, 7, 4);
    Lod fine{g.positions, g.indices}, rough{coarse.positions, coarse.indices};
    SurfaceGrid grid({g.positions, g.indices}, glm::vec3(-2.5f, -0.5f, -2.5f), glm::vec3(2.5f, 0.5f, 2.5f));
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> d(-4.0f, 4.0f);  // also outside the grid's bounds
    for (int i = 0; i < 300; ++i) {
        glm::vec3 p(d(rng), d(rng) * 0.5f, d(rng));
        EXPECT_EQ(grid.distance(p), distanceTo(p, fine)) << i;
    }
    // The bound is above every sampled distance and at most the covering slack above the largest.
    float spacing = 0.05f;
    float bound = surfaceDistanceBound({coarse.positions, coarse.indices}, grid, spacing);
    float sampled = sampledDistance(rough, fine, rng);
    EXPECT_GE(bound, sampled);
    EXPECT_LE(bound, sampled + spacing + 1e-4f);
    EXPECT_GT(sampled, 0.1f);  // the coarse torus is far from the fine one somewhere
}

TEST(SurfaceDistance, HintsAndSharedVerticesChangeSpeedNotResults) {
    // A hint (right, wrong or out of range) never changes a query's distance.
    Geometry g;
    appendTorus(g, 2.0f, 0.5f, 24, 12);
    Lod fine{g.positions, g.indices};
    SurfaceGrid grid({g.positions, g.indices}, glm::vec3(-2.5f, -0.5f, -2.5f), glm::vec3(2.5f, 0.5f, 2.5f));
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> d(-4.0f, 4.0f);
    const uint32_t triangles = uint32_t(g.indices.size() / 3);
    for (int i = 0; i < 300; ++i) {
        glm::vec3 p(d(rng), d(rng) * 0.5f, d(rng));
        const uint32_t hints[] = {uint32_t(i) % triangles, grid.nearest(p).triangle, triangles, UINT32_MAX};
        for (uint32_t hint : hints) {
            SurfaceGrid::Nearest n = grid.nearest(p, hint);
            EXPECT_EQ(n.distance, distanceTo(p, fine)) << i << " hint " << hint;
            ASSERT_LT(n.triangle, triangles);
            EXPECT_EQ(grid.triangleDistance(p, n.triangle), n.distance) << i;
        }
    }
    // A coarser surface on a subset of the same vertex array (what a LOD is): the vertices it uses
    // are taken as distance 0 without a query; the bound still covers every sampled distance, both ways.
    std::vector<uint32_t> coarse;
    for (size_t t = 0; t + 5 < g.indices.size(); t += 6)  // every other triangle: a surface with holes
        coarse.insert(coarse.end(), {g.indices[t], g.indices[t + 1], g.indices[t + 2]});
    Lod rough{g.positions, coarse};
    SurfaceGrid roughGrid({g.positions, coarse}, glm::vec3(-2.5f, -0.5f, -2.5f), glm::vec3(2.5f, 0.5f, 2.5f));
    for (float slack : {0.0f, 0.25f}) {
        const float spacing = 0.05f;
        float fineToRough = surfaceDistanceBound({g.positions, g.indices}, roughGrid, spacing, slack);
        float roughToFine = surfaceDistanceBound({g.positions, coarse}, grid, spacing, slack);
        float sampledFR = sampledDistance(fine, rough, rng), sampledRF = sampledDistance(rough, fine, rng);
        EXPECT_GE(fineToRough, sampledFR);
        EXPECT_LE(fineToRough, std::max(sampledFR * (1.0f + slack), sampledFR + spacing) + 1e-4f);
        EXPECT_GE(roughToFine + 1e-6f, sampledRF);  // both ~0: float rounding
        EXPECT_LE(roughToFine, 1e-6f);              // every rough triangle is a fine one
        // The same bound from a copy of the vertex array (no sharing, every vertex queried).
        std::vector<glm::vec3> copy = g.positions;
        EXPECT_GE(surfaceDistanceBound({copy, g.indices}, roughGrid, spacing, slack), sampledFR);
    }
    EXPECT_GT(sampledDistance(fine, rough, rng), 0.05f);  // the gaps are far from the rough surface
}

TEST(SurfaceDistance, CoplanarSurfacesAreCloseWithoutSamplingSlack) {
    // A 4x4 grid of quads and the two triangles of its outline cover the same square: distance 0.
    Geometry grid, square;
    for (int j = 0; j <= 4; ++j)
        for (int i = 0; i <= 4; ++i) grid.positions.push_back({float(i), 0.0f, float(j)});
    for (uint32_t j = 0; j < 4; ++j)
        for (uint32_t i = 0; i < 4; ++i) {
            uint32_t a = j * 5 + i, b = a + 1, c = a + 5, d = c + 1;
            grid.indices.insert(grid.indices.end(), {a, c, d, a, d, b});
        }
    square.positions = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}};
    square.indices = {0, 2, 1, 0, 3, 2};
    glm::vec3 mn(0.0f), mx(4.0f, 0.0f, 4.0f);
    SurfaceGrid toGrid({grid.positions, grid.indices}, mn, mx), toSquare({square.positions, square.indices}, mn, mx);
    // Each grid triangle lies inside one square triangle: exact. The square's triangles cross grid
    // edges, so they are split as far as allowed (6 halvings of the 4 sqrt 2 diagonal, coarser than
    // the spacing of 0.01): the slack is at most that piece's covering radius.
    const float slack = 4.0f * std::sqrt(2.0f) / 64.0f / std::sqrt(3.0f);
    EXPECT_LE(surfaceDistanceBound({grid.positions, grid.indices}, toSquare, 0.01f), 1e-6f);
    EXPECT_LE(surfaceDistanceBound({square.positions, square.indices}, toGrid, 0.01f), slack);
    // Lifted by 0.25, the square is 0.25 away everywhere.
    for (glm::vec3& p : square.positions) p.y = 0.25f;
    float lifted = surfaceDistanceBound({square.positions, square.indices}, toGrid, 0.01f);
    EXPECT_GE(lifted, 0.25f);
    EXPECT_LE(lifted, 0.25f + slack);
}

TEST(LodChain, ShapesAreClosedWhereTheyShouldBe) {
    auto open = [](const Geometry& g) { return boundaryEdges(g.positions, g.indices); };
    Geometry sphere, cylinder, cone, torus, box, openBox, gable;
    appendSphere(sphere, 1.5f, 16, 12);
    appendFrustum(cylinder, 1.0f, 0.5f, 2.0f, 12);
    appendFrustum(cone, 1.0f, 0.0f, 2.0f, 7);
    appendTorus(torus, 3.0f, 0.5f, 16, 8);
    appendBox(box, glm::vec3(-1, 0, -2), glm::vec3(1, 3, 2));
    appendBox(openBox, glm::vec3(-1, 0, -2), glm::vec3(1, 3, 2), false);
    appendGable(gable, glm::vec3(-1, 0, -1), glm::vec3(1, 1, 1));
    EXPECT_EQ(open(sphere), 0u);
    EXPECT_EQ(open(cylinder), 0u);
    EXPECT_EQ(open(cone), 0u);
    EXPECT_EQ(open(torus), 0u);
    EXPECT_EQ(open(box), 0u);
    EXPECT_EQ(open(openBox), 4u);  // the missing bottom face
    EXPECT_EQ(open(gable), 4u);
}

TEST(LodChain, EveryCityMeshStaysWhole) {
    SceneData s;
    ASSERT_TRUE(appendCityMeshes(s));
    EXPECT_EQ(s.validate(), "");
    EXPECT_GE(expectWholeChains(s, "city"), 4u) << "some city meshes must simplify";
    // The round meshes are closed at LOD 0 (no rounding cracks along their seams), so "no more boundary
    // edges than LOD 0" means no hole at all.
    const std::set<std::string> closed = {"tower", "lamp_post", "tree",    "conifer", "car",
                                          "van",   "barrel",    "hydrant", "bollard", "fountain"};
    size_t checked = 0;
    for (size_t m = 0; m < s.meshes.size(); ++m) {
        if (!closed.count(s.meshNames[m])) continue;
        for (uint32_t p = 0; p < s.meshes[m].primitiveCount; ++p, ++checked) {
            Lod lod0 = lodOf(s, s.primitives[s.meshes[m].firstPrimitive + p], 0);
            EXPECT_EQ(boundaryEdges(lod0.positions, lod0.indices), 0u) << s.meshNames[m] << " primitive " << p;
        }
    }
    EXPECT_EQ(checked, 19u);  // every primitive of those ten meshes
}

TEST(LodChain, EveryShapeStaysWhole) {
    SceneData s;
    auto add = [&](const char* name, const Geometry& g) {
        MeshBuilder builder;
        ASSERT_TRUE(builder.addPrimitive(g.input(0)));
        ASSERT_TRUE(builder.finish(s, name));
    };
    Geometry sphere, cylinder, cone, torus, gable;
    appendSphere(sphere, 1.5f, 24, 16);
    appendFrustum(cylinder, 1.0f, 0.8f, 2.0f, 32);
    appendFrustum(cone, 1.0f, 0.0f, 2.0f, 32);
    appendTorus(torus, 3.0f, 0.5f, 32, 12);
    appendGable(gable, glm::vec3(-1, 0, -1), glm::vec3(1, 1, 1));
    add("sphere", sphere), add("cylinder", cylinder), add("cone", cone), add("torus", torus), add("gable", gable);
    EXPECT_EQ(s.validate(), "");
    EXPECT_GE(expectWholeChains(s, "shapes"), 3u);
}

// Meshes of 20,000+ triangles measure their LODs on worker threads while the next LOD is simplified:
// the chain must be as whole and its errors as certified as on one thread.
TEST(LodChain, LargeMeshMeasuredOnThreadsStaysWhole) {
    Geometry hills;  // 110 x 110 vertices: 23,762 triangles, open along its border
    const uint32_t n = 110;
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) {
            const float x = float(i) * 0.1f, z = float(j) * 0.1f;
            hills.positions.push_back(
                {x, 0.8f * std::sin(x * 0.7f) * std::cos(z * 0.5f) + 0.1f * std::sin(x * 3.1f), z});
        }
    for (uint32_t j = 0; j + 1 < n; ++j)
        for (uint32_t i = 0; i + 1 < n; ++i) {
            const uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
            hills.indices.insert(hills.indices.end(), {a, c, b, b, c, d});
        }
    SceneData s;
    MeshBuilder builder;
    ASSERT_TRUE(builder.addPrimitive(hills.input(0)));
    ASSERT_TRUE(builder.finish(s, "hills"));
    EXPECT_EQ(s.validate(), "");
    EXPECT_GE(expectWholeChains(s, "hills"), 4u);
}

TEST(LodChain, GltfMeshWithNearlyEqualSeamsStaysWhole) {
    auto r = loadGltf((kData / "lod_seams.gltf").string());
    ASSERT_TRUE(r) << r.error();
    const SceneData& s = *r;
    ASSERT_EQ(s.primitives.size(), 2u);
    // Welding closed the float-rounding cracks of the exported seams: both parts are closed.
    for (const MeshPrimitive& prim : s.primitives) {
        Lod lod0 = lodOf(s, prim, 0);
        EXPECT_EQ(boundaryEdges(lod0.positions, lod0.indices), 0u);
    }
    EXPECT_GE(expectWholeChains(s, "lod_seams.gltf"), 3u);
}

// A mesh whose extent is so small that its smallest grid cell underflows to 0 (the fuzzer found one in a
// glTF file): the grid keeps one cell and answers exactly. The conversion of inf to int it used to do is
// caught by the fuzz job's clang UBSan, which replays tests/fuzz/gltf_cases.py's subnormal_triangle.
TEST(SurfaceDistance, GridOfAMeshSmallerThanTheCellUnderflowIsOneCell) {
    const float tiny = 1e-45f;  // the smallest subnormal: tiny / kMaxGridDim is 0
    const std::vector<glm::vec3> positions = {{0, 0, 0}, {tiny, 0, 0}, {0, tiny, 0}};
    const std::vector<uint32_t> indices = {0, 1, 2};
    SurfaceGrid grid({positions, indices}, glm::vec3(0.0f), glm::vec3(tiny, tiny, 0.0f));
    EXPECT_EQ(grid.distance(glm::vec3(0.0f)), 0.0f);
    EXPECT_EQ(grid.distance(glm::vec3(0, 0, 2)), 2.0f);
}
