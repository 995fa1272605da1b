// The cluster plugin's passes against the CPU reference (sieve/cluster.h clusterFrameReference), exactly:
// both lists in order, record by record, the cluster ids, the counts and overflow, the persistent
// visibility and the counters, on random cluster tables, transforms (uniform, non-uniform, mirrored),
// draw lists and depth, for every camera kind and toggle set, and at edge sizes of the candidate space.
#include <glm/gtc/matrix_transform.hpp>
#include <optional>
#include <random>

#include "assets/scene.h"
#include "gpu/test_cull_flags_util.h"
#include "gpu/test_hiz_util.h"
#include "prim/common.h"
#include "sieve/cluster.h"
#include "sieve/cluster_tuning.h"

using sieve::gpu::vec4;
using testing_gpu::GpuTest;

namespace {

struct ClusterScene {
    std::vector<sieve::gpu::Instance> instances;
    std::vector<sieve::gpu::MeshPrimitive> primitives;
    std::vector<sieve::gpu::Cluster> clusters;
    std::vector<sieve::gpu::ClusterRange> ranges;
    std::vector<uint32_t> instanceSlots;
    uint32_t visibilitySlots = 0, maxClustersPerDraw = 1;
    sieve::ClusterSceneRef ref() const { return {instances, primitives, clusters, ranges, instanceSlots}; }
};

// Instances around the view axis; primitives with 1..4 LODs of 0..maxClusters clusters each.
ClusterScene makeScene(uint32_t instances, uint32_t primitives, uint32_t maxClusters, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    ClusterScene s;
    std::vector<uint32_t> primSlots;
    s.ranges.assign(size_t(primitives) * sieve::gpu::SIEVE_MAX_LODS, {});
    for (uint32_t p = 0; p < primitives; ++p) {
        sieve::gpu::MeshPrimitive prim{};
        prim.lodCount = 1 + rng() % 4;
        prim.bin = rng() % 6;
        prim.material = rng() % 8;
        prim.vertexOffset = int32_t(rng() % 1000);
        uint32_t slots = 0;
        for (uint32_t l = 0; l < prim.lodCount; ++l) {
            prim.lods[l] = {uint32_t(rng() % 100000), 3 * (1 + uint32_t(rng() % 100)), 0.01f * float(l), 0};
            auto& r = s.ranges[size_t(p) * sieve::gpu::SIEVE_MAX_LODS + l];
            r.firstCluster = uint32_t(s.clusters.size());
            r.clusterCount = maxClusters ? uint32_t(rng() % (maxClusters + 1)) : 0;
            for (uint32_t c = 0; c < r.clusterCount; ++c) {
                sieve::gpu::Cluster cl{};
                cl.sphere = vec4(u(rng), u(rng), u(rng), 0.05f + 0.4f * (u(rng) + 1.0f));
                glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 0.001f));
                cl.cone = vec4(axis.x, axis.y, axis.z, rng() % 5 == 0 ? 1.0f : 0.2f + 0.7f * (u(rng) + 1) / 2);
                cl.firstIndex = uint32_t(rng() % 1000000);
                cl.triangleCount = 1 + rng() % sieve::gpu::SIEVE_CLUSTER_MAX_TRIANGLES;
                s.clusters.push_back(cl);
            }
            slots = std::max(slots, r.clusterCount);
            s.maxClustersPerDraw = std::max(s.maxClustersPerDraw, r.clusterCount);
        }
        for (uint32_t l = 0; l < sieve::gpu::SIEVE_MAX_LODS; ++l)
            s.ranges[size_t(p) * sieve::gpu::SIEVE_MAX_LODS + l].visibilitySlot = 0;
        primSlots.push_back(slots);
        s.primitives.push_back(prim);
    }
    for (uint32_t i = 0; i < instances; ++i) {
        glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(12 * u(rng), 6 * u(rng), -2 - 25 * (u(rng) + 1)));
        m = glm::rotate(m, 3.0f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0.01f, 0)));
        const uint32_t kind = rng() % 6;
        const float sc = 0.5f + (u(rng) + 1.0f);
        m = glm::scale(m, kind == 0   ? glm::vec3(sc, 1.3f * sc, sc)
                          : kind == 1 ? glm::vec3(-sc, sc, sc)
                                      : glm::vec3(sc));
        sieve::gpu::Instance inst{};
        for (int r = 0; r < 3; ++r) inst.rows[r] = vec4(m[0][r], m[1][r], m[2][r], m[3][r]);
        inst.scale = sieve::assets::maxAxisScale(glm::mat3(m));
        inst.mesh = 0;
        s.instances.push_back(inst);
        s.instanceSlots.push_back(s.visibilitySlots);
        // Every primitive's slots per instance (the test's draws pick any primitive).
        uint32_t all = 0;
        for (uint32_t p = 0; p < primitives; ++p) all += primSlots[p];
        s.visibilitySlots += all;
    }
    // Slots of primitive p start after those of primitives 0..p-1 (within each instance).
    uint32_t offset = 0;
    for (uint32_t p = 0; p < primitives; ++p) {
        for (uint32_t l = 0; l < sieve::gpu::SIEVE_MAX_LODS; ++l)
            s.ranges[size_t(p) * sieve::gpu::SIEVE_MAX_LODS + l].visibilitySlot = offset;
        offset += primSlots[p];
    }
    return s;
}

// The two draw lists, as the culling plugin makes them: instances in order, each in at most one list
// (an instance drawn early is never drawn late), each with a random subset of its primitives at a random LOD.
struct Lists {
    std::vector<sieve::gpu::DrawCommand> early, late;
};
Lists makeLists(const ClusterScene& s, uint32_t maxEarly, uint32_t maxLate, std::mt19937& rng) {
    Lists out;
    for (uint32_t i = 0; i < s.instances.size(); ++i) {
        const uint32_t which = rng() % 3;  // 0: early, 1: late, 2: neither
        if (which == 2) continue;
        auto& list = which == 0 ? out.early : out.late;
        const uint32_t cap = which == 0 ? maxEarly : maxLate;
        for (uint32_t p = 0; p < s.primitives.size() && list.size() < cap; ++p) {
            if (rng() % 2) continue;
            const auto& prim = s.primitives[p];
            const uint32_t lod = rng() % prim.lodCount;
            list.push_back(
                {prim.lods[lod].indexCount, 1, prim.lods[lod].firstIndex, prim.vertexOffset, i, p, prim.material, lod});
        }
    }
    return out;
}

class ClusterTest : public GpuTest {
protected:
    struct Run {
        uint32_t drawCapacity = 64;
        uint32_t candidateCapacity = 0;
        uint32_t outputCapacity = 0;
        sieve::prim::PrimOptions scan = sieve::clusterScanOptions();  // the tiles of the plugin's scans
        sieve::ClusterToggles toggles;
        testing_cull::Camera cam;
        VkExtent2D extent{97, 61};
    };

    engine::Buffer slotBuffer(const sieve::SlotDesc& d) {
        const auto mem = d.memory == sieve::Memory::Upload     ? engine::MemoryUsage::Upload
                         : d.memory == sieve::Memory::Readback ? engine::MemoryUsage::Readback
                                                               : engine::MemoryUsage::DeviceLocal;
        auto b = engine::Buffer::create(ctx(), d.size,
                                        d.bufferUsage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                        mem, d.name.c_str());
        EXPECT_TRUE(b) << b.error().message;
        return std::move(b).value();
    }

    static void fullBarrier(VkCommandBuffer cmd) {
        sieve::memoryBarrier(
            cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT);
    }

    // Two frames: the first initialises the plugin's persistent state, then the visibility is replaced by
    // random values and the second frame is compared with the reference.
    void runAndCompare(const ClusterScene& s, const std::vector<sieve::gpu::DrawCommand>& early,
                       const std::vector<sieve::gpu::DrawCommand>& late, const Run& run, std::mt19937& rng) {
        sieve::ClusterConfig config;
        config.maxInstances = uint32_t(s.instances.size());
        config.drawCapacity = run.drawCapacity;
        config.maxClustersPerDraw = s.maxClustersPerDraw;
        config.visibilitySlots = s.visibilitySlots;
        config.candidateCapacity = run.candidateCapacity;
        config.outputCapacity = run.outputCapacity;
        config.coneBins = 0x15;
        config.viewport = run.extent;
        auto created = sieve::createClusterPlugin(ctx().info(), config, {run.scan});
        ASSERT_TRUE(created) << created.error().message;
        sieve::ClusterPlugin& plugin = *created.value();
        plugin.toggles() = run.toggles;
        ASSERT_TRUE(plugin.setView(run.cam.desc(run.extent)));

        // Depth and its pyramid.
        const uint32_t w = run.extent.width, h = run.extent.height;
        auto walls = testing_cull::randomWallsInView(run.cam, w, h, 12, rng);
        const std::vector<float> depth = testing_cull::makeWallDepth(w, h, run.cam, walls);
        auto images = testing_gpu::makeDepthAndPyramid(ctx(), run.extent, depth);
        if (!hiz_) {  // one builder for the whole test: its pipelines are the same for every run
            auto created = sieve::HiZBuilder::create(ctx().info());
            ASSERT_TRUE(created) << created.error().message;
            hiz_.emplace(std::move(created).value());
        }

        // Every slot: the test's tables for the imported ones, fresh buffers for the plugin's own.
        std::vector<engine::Buffer> owned;
        std::vector<sieve::SlotBinding> bind(plugin.slots().size());
        auto table = [&](auto data) {
            owned.push_back(makeBuffer(data, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT));
            return &owned.back();
        };
        owned.reserve(plugin.slots().size() + 8);
        engine::Buffer* visibility = nullptr;
        std::vector<engine::Buffer*> bySlot(plugin.slots().size(), nullptr);
        using CP = sieve::ClusterPlugin;
        auto padded = [&](std::vector<sieve::gpu::DrawCommand> v) {
            v.resize(std::max<size_t>(v.size(), run.drawCapacity));
            return v;
        };
        auto counts = [&](size_t n) {
            const uint32_t c = uint32_t(std::min<size_t>(n, run.drawCapacity));
            return std::vector<sieve::gpu::DrawCounts>{{c, uint32_t(n - c), uint32_t(n), 0}};
        };
        for (sieve::SlotId i = 0; i < plugin.slots().size(); ++i) {
            const sieve::SlotDesc& d = plugin.slots()[i];
            engine::Buffer* b = nullptr;
            if (d.name == CP::kInstances)
                b = table(s.instances);
            else if (d.name == CP::kPrimitives)
                b = table(s.primitives);
            else if (d.name == CP::kClusters)
                b = table(s.clusters);
            else if (d.name == CP::kRanges)
                b = table(s.ranges);
            else if (d.name == CP::kInstanceSlots)
                b = table(s.instanceSlots);
            else if (d.name == CP::kDrawsEarly)
                b = table(padded(early));
            else if (d.name == CP::kCountsEarly)
                b = table(counts(early.size()));
            else if (d.name == CP::kDrawsLate)
                b = table(padded(late));
            else if (d.name == CP::kCountsLate)
                b = table(counts(late.size()));
            else if (d.kind == sieve::SlotKind::Buffer) {
                owned.push_back(slotBuffer(d));
                b = &owned.back();
            }
            if (d.name == CP::kVisibility) visibility = b;
            bySlot[i] = b;
            if (b) {
                bind[i].buffer = b->handle();
                bind[i].size = b->size();
                bind[i].mapped = b->mapped();
            } else {
                bind[i].image = images.pyramid.handle();
                bind[i].view = images.pyramid.view();
                bind[i].mipViews = images.mipViews;
            }
        }
        ASSERT_NE(visibility, nullptr);
        const sieve::Bindings bindings{bind};

        auto frame = [&](uint64_t index, bool buildPyramid) {
            const sieve::FrameInfo info{index, uint32_t(index % 2), 2};
            ASSERT_TRUE(plugin.prepare(info)) << plugin.lastError();
            auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
                if (buildPyramid) {
                    ASSERT_TRUE(hiz_->recordPerMip(cmd, images.source(), images.target()));
                    testing_gpu::imageBarrier(
                        cmd, images.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
                }
                for (uint32_t p = 0; p < CP::kPassCount; ++p) {
                    ASSERT_TRUE(plugin.record(p, cmd, bindings, info)) << plugin.lastError();
                    fullBarrier(cmd);
                }
            });
            ASSERT_TRUE(r) << r.error().message;
        };
        frame(0, true);
        std::vector<uint32_t> vis(std::max(s.visibilitySlots, 1u));
        for (auto& v : vis) v = rng() % 3 != 0;
        ASSERT_TRUE(engine::uploadBuffer(ctx(), *visibility, vis.data(), vis.size() * 4));
        frame(1, false);

        // The reference, from the same inputs.
        sieve::ClusterRefParams p;
        sieve::CullSettings settings;
        settings.toggles = (run.toggles.frustum ? sieve::gpu::SIEVE_CULL_FRUSTUM : 0u) |
                           (run.toggles.occlusion ? sieve::gpu::SIEVE_CULL_OCCLUSION : 0u);
        auto params = testing_cull::makeParams(run.cam, run.extent, config.maxInstances, settings);
        ASSERT_TRUE(params) << params.error().message;
        p.cull = params.value();
        p.push.drawCapacity = run.drawCapacity;
        p.push.candidateCapacity = plugin.candidateCapacity();
        p.push.outputCapacity = plugin.outputCapacity();
        p.push.toggles = run.toggles.cone ? sieve::gpu::SIEVE_CLUSTER_CONE : 0u;
        p.push.coneBins = config.coneBins;
        p.push.visibilitySlots = s.visibilitySlots;
        const sieve::HiZPyramidCpu pyramid = sieve::hizReference(run.extent, depth);
        auto occluded = [&](const vec4& sphere) { return sieve::occludedReference(sphere, p.cull, pyramid); };
        const std::span<const sieve::gpu::DrawCommand> e(early.data(),
                                                         std::min<size_t>(early.size(), run.drawCapacity));
        const std::span<const sieve::gpu::DrawCommand> l(late.data(), std::min<size_t>(late.size(), run.drawCapacity));
        auto ref = sieve::clusterFrameReference(p, s.ref(), e, l, vis, occluded);

        auto buffer = [&](const char* name) -> const engine::Buffer& { return *bySlot[plugin.slot(name)]; };
        auto expectList = [&](const sieve::ClusterListRef& want, const char* draws, const char* ids,
                              const char* countsName, const char* what) {
            auto c = read<sieve::gpu::DrawCounts>(buffer(countsName), 1);
            ASSERT_EQ(c.size(), 1u);
            EXPECT_EQ(c[0].count, want.counts.count) << what;
            EXPECT_EQ(c[0].overflow, want.counts.overflow) << what;
            EXPECT_EQ(c[0].total, want.counts.total) << what;
            auto got = read<sieve::gpu::DrawCommand>(buffer(draws), want.draws.size());
            auto gotIds = read<uint32_t>(buffer(ids), want.ids.size());
            for (size_t k = 0; k < want.draws.size(); ++k) {
                ASSERT_EQ(std::memcmp(&got[k], &want.draws[k], sizeof(got[k])), 0)
                    << what << " record " << k << ": instance " << got[k].firstInstance << " vs "
                    << want.draws[k].firstInstance << ", first index " << got[k].firstIndex << " vs "
                    << want.draws[k].firstIndex;
                ASSERT_EQ(gotIds[k], want.ids[k]) << what << " id " << k;
            }
        };
        expectList(ref.early, CP::kClusterDrawsEarly, CP::kClusterIdsEarly, CP::kClusterCountsEarly, "early");
        expectList(ref.late, CP::kClusterDrawsLate, CP::kClusterIdsLate, CP::kClusterCountsLate, "late");
        auto gotVis = read<uint32_t>(*visibility, s.visibilitySlots);
        for (uint32_t k = 0; k < s.visibilitySlots; ++k) ASSERT_EQ(gotVis[k], vis[k]) << "visibility slot " << k;
        auto counters = read<sieve::gpu::ClusterCounters>(buffer("clusters.counters"), 1);
        ASSERT_EQ(counters.size(), 1u);
        EXPECT_EQ(std::memcmp(&counters[0], &ref.counters, sizeof(ref.counters)), 0)
            << "counters: late tested " << counters[0].lateTested << " vs " << ref.counters.lateTested << ", drawn "
            << counters[0].lateDrawn << " vs " << ref.counters.lateDrawn << ", dropped " << counters[0].dropped
            << " vs " << ref.counters.dropped;
        lastRef = ref;
        lastWork = read<sieve::gpu::ClusterWork>(buffer("clusters.work"), 1).at(0);
    }

    // A random scene and lists of the given sizes, compared with the reference (runAndCompare) in a plugin
    // of the given capacities and scan tiles, with dispatch rows of at most rowLimit workgroups (0: the
    // device's limit).
    struct SizeCase {
        uint32_t instances, maxClusters, drawCapacity, candidates, outputs, earlyDraws, lateDraws;
        uint32_t workgroup = 256, vectors = sieve::kClusterScanVectors, rowLimit = 0;  // the plugin's tile by default
        uint32_t spins = 2048;  // look-back polls before a tile reduces its silent predecessors itself
        bool packed = true;     // one 64-bit look-back status per tile where the device has 64-bit atomics
    };
    void runSizeCase(const SizeCase& k, std::mt19937& rng) {
        ClusterScene s = makeScene(k.instances, 4, k.maxClusters, rng);
        lastLists = makeLists(s, k.earlyDraws, k.lateDraws, rng);
        Run run;
        run.cam = testing_cull::makeCamera(97.0f / 61.0f);
        run.drawCapacity = k.drawCapacity;
        run.candidateCapacity = k.candidates;
        run.outputCapacity = k.outputs;
        run.scan.workgroupSize = k.workgroup;
        run.scan.vectorsPerThread = k.vectors;
        run.scan.lookbackSpins = k.spins;
        run.scan.packedLookbackStatus = k.packed;
        sieve::overrideMaxGroupsX(k.rowLimit);
        runAndCompare(s, lastLists.early, lastLists.late, run, rng);
        sieve::overrideMaxGroupsX(0);  // never leak the lowered limit into other tests
    }

    std::optional<sieve::HiZBuilder> hiz_;
    sieve::ClusterFrameRef lastRef;
    sieve::gpu::ClusterWork lastWork{};  // the late phase's
    Lists lastLists;
};

// A dispatch of `items` in workgroups of `group` (at least `least` workgroups), folded into rows of at most
// `rowLimit` workgroups.
void expectDispatch(const sieve::gpu::ClusterDispatch& d, uint64_t items, uint32_t group, uint32_t rowLimit,
                    const char* what, uint64_t least = 0) {
    const uint64_t groups = std::max((items + group - 1) / group, least);
    EXPECT_EQ(d.x, std::min<uint64_t>(groups, rowLimit)) << what;
    EXPECT_EQ(d.z, 1u) << what;
    if (groups == 0) return;
    EXPECT_GE(uint64_t(d.x) * d.y, groups) << what;
    EXPECT_LT(uint64_t(d.x) * (d.y - 1), groups) << what;
}

}  // namespace

TEST_F(ClusterTest, RandomScenesMatchTheReferenceForEveryCameraAndToggleSet) {
    std::mt19937 rng(11);
    uint64_t culledByCone = 0, culledByOcclusion = 0, tested = 0;
    const auto cams = testing_cull::allCameras(97.0f / 61.0f, {0, 0, 0}, {0, 0, -1});
    for (size_t c = 0; c < cams.size(); ++c) {
        for (uint32_t t = 0; t < 8; ++t) {
            SCOPED_TRACE(cams[c].name + ", toggles " + std::to_string(t));
            ClusterScene s = makeScene(40, 5, 20, rng);
            const Lists lists = makeLists(s, 64, 64, rng);
            Run run;
            run.cam = cams[c];
            run.toggles = {(t & 1) != 0, (t & 2) != 0, (t & 4) != 0};
            ASSERT_NO_FATAL_FAILURE(runAndCompare(s, lists.early, lists.late, run, rng));
            tested += lastRef.counters.lateTested;
            culledByCone += lastRef.counters.frustumVisible - lastRef.counters.coneVisible;
            culledByOcclusion += lastRef.counters.coneVisible - lastRef.counters.lateVisible;
        }
    }
    // The tests must really decide something on these scenes.
    EXPECT_GT(culledByCone, tested / 50);
    EXPECT_GT(culledByOcclusion, 0u);
}

TEST_F(ClusterTest, EdgeSizesOfTheCandidateSpaceMatchTheReference) {
    std::mt19937 rng(5);
    const SizeCase cases[] = {
        {1, 0, 1, 0, 0, 1, 1},         // no clusters at all
        {1, 1, 1, 0, 0, 1, 0},         // one candidate
        {3, 1, 1, 1, 1, 1, 1},         // capacity 1 everywhere
        {30, 40, 64, 127, 0, 64, 64},  // candidates dropped past 127 (the test's workgroup - 1)
        {30, 40, 64, 129, 5, 64, 64},  // ... past 129, and the output list overflows
        {60, 30, 200, 0, 0, 0, 200},   // empty early list
        {60, 30, 255, 256, 257, 255, 255},
        {400, 60, 2000, 0, 0, 2000, 2000},  // several scan blocks
    };
    for (const SizeCase& k : cases) {
        SCOPED_TRACE("instances " + std::to_string(k.instances) + ", capacity " + std::to_string(k.drawCapacity) +
                     ", candidates " + std::to_string(k.candidates));
        ASSERT_NO_FATAL_FAILURE(runSizeCase(k, rng));
    }
}

// Cost proportional to the work (issue 23): every pass after the first is dispatched from the sizes the GPU
// wrote (shared/cluster.h ClusterWork), not from the capacities. Small frames in a plugin sized for far
// more (drawCapacity 4096, 2^20 candidates) and large ones in small tiles (32 x 1 vectors: 128 values a
// tile, so the scans span many tiles), with the rows limit lowered to 3 workgroups so that every
// dispatch folds: the lists equal the reference and every dispatch covers exactly the live items.
TEST_F(ClusterTest, DispatchesFollowTheFrameNotTheCapacities) {
    std::mt19937 rng(23);
    const SizeCase cases[] = {
        {1, 0, 4096, 1u << 20, 0, 1, 1, 256, 4, 0},  // no clusters in a large plugin
        {2, 1, 4096, 1u << 20, 0, 1, 1, 256, 4, 3},  // one or two candidates
        {40, 20, 4096, 1u << 20, 0, 64, 64, 256, 4, 3},
        {400, 120, 1024, 0, 0, 1024, 1024, 32, 1, 3},      // tens of thousands of candidates in tiles of 128
        {400, 120, 1024, 20000, 0, 1024, 1024, 32, 1, 0},  // ... and dropped past 20000
    };
    for (const SizeCase& k : cases) {
        SCOPED_TRACE("instances " + std::to_string(k.instances) + ", capacity " + std::to_string(k.drawCapacity) +
                     ", tile " + std::to_string(k.workgroup * k.vectors * 4) + ", rows " + std::to_string(k.rowLimit));
        ASSERT_NO_FATAL_FAILURE(runSizeCase(k, rng));
        const uint32_t rows = k.rowLimit ? k.rowLimit : ctx().info().limits.maxComputeWorkGroupCount[0];
        const sieve::gpu::ClusterWork& w = lastWork;
        EXPECT_EQ(w.liveA, std::min<size_t>(lastLists.early.size(), k.drawCapacity));
        EXPECT_EQ(w.slotCount, w.liveA + std::min<size_t>(lastLists.late.size(), k.drawCapacity));
        EXPECT_EQ(w.tested, lastRef.counters.lateTested);
        EXPECT_EQ(w.outTotal, lastRef.late.counts.total);
        sieve::prim::PrimOptions scan;
        scan.workgroupSize = k.workgroup;
        scan.vectorsPerThread = k.vectors;
        auto tiles = sieve::prim::detail::resolveTiles(ctx().info(), scan, true);
        ASSERT_TRUE(tiles) << tiles.error().message;
        // The scans run one workgroup even on nothing: it writes their totals.
        expectDispatch(w.slotTiles, w.slotCount, tiles->tile(), rows, "slot scan", 1);
        expectDispatch(w.tests, w.tested, 128, rows, "test");
        expectDispatch(w.candidateTiles, w.tested, tiles->tile(), rows, "flag scan and emit", 1);
        if (k.candidates == 20000) {
            EXPECT_GT(lastRef.counters.dropped, 0u);
        }
        if (k.vectors == 1) {
            EXPECT_GT(w.candidateTotal, 128u * 128u) << "the scans span more tiles than a look-back window";
        }
    }
}

// The single-pass scans' edges: tiles of 128 values (32 x 1 vectors), with the live slots and the tested
// candidates of the late phase on, just before and just after tile boundaries, none at all, and in a
// hundred tiles (the look-back walks several windows), with the output list overflowing; the lists equal
// the reference and the sizes are the intended ones. Twice: as configured by default, and with two status
// words per tile and one poll before a tile reduces its silent predecessors itself (the bounded-wait
// fallback recomputes the clusters per draw or reloads the flags; it runs where tiles run concurrently:
// on this machine's lavapipe with LP_NUM_THREADS=16, where a fallback sum off by one fails this test).
TEST_F(ClusterTest, SinglePassScansAtTileBoundariesMatchTheReference) {
    std::mt19937 rng(29);
    struct Edge {
        SizeCase size;
        uint32_t slots, tested;  // late phase; tested 0: not checked (the candidates' total varies)
    };
    const Edge edges[] = {
        {{1, 1, 1, 0, 0, 0, 0, 32, 1, 0}, 0, 0},                         // no draws: both scans empty
        {{300, 2, 64, 0, 0, 64, 64, 32, 1, 0}, 128, 0},                  // slots: exactly one tile
        {{300, 2, 64, 0, 0, 64, 63, 32, 1, 0}, 127, 0},                  // ... one short
        {{300, 2, 65, 0, 0, 64, 65, 32, 1, 3}, 129, 0},                  // ... one over (rows of 3)
        {{300, 2, 128, 0, 0, 128, 128, 32, 1, 0}, 256, 0},               // two full tiles
        {{300, 20, 128, 128, 0, 128, 128, 32, 1, 0}, 256, 128},          // tested: exactly one tile
        {{300, 20, 128, 127, 0, 128, 128, 32, 1, 0}, 256, 127},          // ... one short
        {{300, 20, 128, 129, 0, 128, 128, 32, 1, 0}, 256, 129},          // ... one over
        {{300, 20, 128, 256, 7, 128, 128, 32, 1, 0}, 256, 256},          // two tiles, output overflows
        {{3000, 60, 4096, 12800, 100, 4096, 4096, 32, 1, 0}, 0, 12800},  // a hundred tiles
    };
    for (const bool fallback : {false, true}) {
        for (Edge e : edges) {
            SizeCase& k = e.size;
            if (fallback) {
                k.spins = 1;
                k.packed = false;
            }
            SCOPED_TRACE("instances " + std::to_string(k.instances) + ", capacity " + std::to_string(k.drawCapacity) +
                         ", candidates " + std::to_string(k.candidates) + ", late draws " +
                         std::to_string(k.lateDraws) + (fallback ? ", fallback" : ""));
            ASSERT_NO_FATAL_FAILURE(runSizeCase(k, rng));
            if (e.slots || !e.tested) {
                EXPECT_EQ(lastWork.slotCount, e.slots);
            }
            if (e.tested) {
                EXPECT_EQ(lastWork.tested, e.tested);
            }
        }
        EXPECT_GT(lastRef.late.counts.overflow, 0u);
    }
}
