// The order of the draw passes' (list, bin) draws (engine/scene/scene_geometry.h phaseOrder), which both
// cluster paths follow (the indirect path's GeometryPass and the mesh path's ClusterMeshPass): draw.early
// the early list's opaque and masked bins, draw.late the late list's, then the blend bins of the early and
// of the late list, so that blending comes after every opaque draw of the frame, as with instance draws.
#include <gtest/gtest.h>

#include <vector>

#include "engine/scene/scene_geometry.h"
#include "shared/material.h"

namespace {

std::vector<std::pair<uint32_t, uint32_t>> pairs(const std::vector<engine::ListBin>& order) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const engine::ListBin& d : order) out.emplace_back(d.list, d.bin);
    return out;
}

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

}  // namespace

TEST(SceneDrawOrder, BlendBinsOfBothListsComeLastInTheLatePass) {
    const uint32_t bins = sieve::gpu::SIEVE_MATERIAL_BIN_COUNT;  // opaque, opaque 2-sided, masked, ..., blend 2-sided
    const uint32_t all = (1u << bins) - 1u;
    EXPECT_EQ(pairs(engine::phaseOrder(bins, false, all)), (Pairs{{0, 0}, {0, 1}, {0, 2}, {0, 3}}));
    EXPECT_EQ(pairs(engine::phaseOrder(bins, true, all)),
              (Pairs{{1, 0}, {1, 1}, {1, 2}, {1, 3}, {0, 4}, {0, 5}, {1, 4}, {1, 5}}));
}

TEST(SceneDrawOrder, OnlyTheScenesBinsAreDrawn) {
    const uint32_t bins = sieve::gpu::SIEVE_MATERIAL_BIN_COUNT;
    const uint32_t opaqueAndBlend = (1u << 0) | (1u << 4);
    EXPECT_EQ(pairs(engine::phaseOrder(bins, false, opaqueAndBlend)), (Pairs{{0, 0}}));
    EXPECT_EQ(pairs(engine::phaseOrder(bins, true, opaqueAndBlend)), (Pairs{{1, 0}, {0, 4}, {1, 4}}));
    EXPECT_TRUE(engine::phaseOrder(bins, true, 0).empty());
}

TEST(SceneDrawOrder, APlainPassDrawsEachListOnce) {
    EXPECT_EQ(pairs(engine::phaseOrder(1, false, 0x3f)), (Pairs{{0, 0}}));
    EXPECT_EQ(pairs(engine::phaseOrder(1, true, 0x3f)), (Pairs{{1, 0}}));
    EXPECT_TRUE(engine::phaseOrder(1, false, 0).empty());
}
