// The up-front scene memory check (engine/scene/scene_budget.h): footprint arithmetic and the message.
#include <gtest/gtest.h>

#include "assets/procedural_city.h"
#include "engine/scene/scene_budget.h"

TEST(SceneBudget, MessageSaysWhatIsNeededWhatIsThereAndHowManyFit) {
    engine::SceneFootprint f;
    f.instances = 1000000;
    f.fixedBytes = 10u << 20;
    f.perInstanceBytes = 256;
    // 10 MiB + 1e6 * 256 B = 254.14 MiB, rounded up.
    EXPECT_EQ(engine::checkSceneFits(f, 100u << 20),
              "1000000 instances need 255 MiB, the device has 100 MiB: at most 368640 fit");
    EXPECT_EQ(engine::checkSceneFits(f, f.totalBytes()), "") << "exactly enough fits";
    EXPECT_NE(engine::checkSceneFits(f, f.totalBytes() - 1), "");
    // Not even the geometry fits.
    EXPECT_EQ(engine::checkSceneFits(f, 1u << 20),
              "1000000 instances need 255 MiB, the device has 1 MiB: at most 0 fit");
}

TEST(SceneBudget, FootprintCountsTablesAndPerInstanceCullingBuffers) {
    auto city = sieve::assets::makeCity(500, 3);
    ASSERT_TRUE(city) << city.error();
    const auto& s = city.value();
    const engine::SceneFootprint f = engine::sceneFootprint(s);
    EXPECT_EQ(f.instances, 500u);
    EXPECT_EQ(f.fixedBytes,
              s.vertices.size() * sizeof(sieve::gpu::Vertex) + s.indices.size() * 4 +
                  s.primitives.size() * sizeof(sieve::gpu::MeshPrimitive) + s.meshes.size() * sizeof(sieve::gpu::Mesh) +
                  s.vertices.size() * sizeof(sieve::gpu::VertexUv) + s.materials.size() * sizeof(sieve::gpu::Material));
    uint32_t maxDraws = 1;
    for (const auto& m : s.meshes) maxDraws = std::max(maxDraws, m.primitiveCount);
    // Instance record + 9 u32 culling buffers + two draw lists of maxDraws 32-byte records.
    EXPECT_EQ(f.perInstanceBytes,
              sizeof(sieve::gpu::Instance) + sizeof(sieve::gpu::InstanceBounds) + 36 + 2 * maxDraws * 32);
    // Zero instances: only the tables.
    sieve::assets::SceneData empty = s;
    empty.instances.clear();
    empty.bounds.clear();
    EXPECT_EQ(engine::sceneFootprint(empty).totalBytes(), f.fixedBytes);
}
