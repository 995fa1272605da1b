// CPU reference of shaders/cluster/ (count, test, emit): the same candidate order, the same tests from
// shared/cluster.h, so the GPU lists compare exactly.
#include <algorithm>

#include "sieve/cluster.h"

namespace sieve {

namespace {

struct Phase {
    const ClusterRefParams& p;
    const ClusterSceneRef& scene;
    std::span<const gpu::DrawCommand> a, b;  // b: late phase only
    std::vector<uint32_t>& visibility;
    const std::function<bool(const gpu::vec4&)>& occluded;
    gpu::ClusterCounters& counters;

    uint32_t rangeIndex(const gpu::DrawCommand& d) const {
        return d.primitive * gpu::SIEVE_MAX_LODS + std::min(d.lod, gpu::SIEVE_MAX_LODS - 1u);
    }

    struct Candidate {
        uint32_t slot, cluster, c;
        const gpu::DrawCommand* draw;
    };

    // Every cluster of every listed draw, in the order the candidate scan numbers them (the late phase: the early
    // list's draws at slots [0, C), then the late list's at [C, 2C)).
    std::vector<Candidate> candidates(bool late) const {
        const uint32_t C = p.push.drawCapacity;
        std::vector<Candidate> out;
        for (uint32_t list = 0; list < (late ? 2u : 1u); ++list) {
            std::span<const gpu::DrawCommand> draws = list == 0 ? a : b;
            const size_t n = std::min<size_t>(draws.size(), C);
            for (size_t d = 0; d < n; ++d) {
                const uint32_t r = rangeIndex(draws[d]);
                if (r >= scene.ranges.size()) continue;
                for (uint32_t c = 0; c < scene.ranges[r].clusterCount; ++c)
                    out.push_back({uint32_t(list * C + d), scene.ranges[r].firstCluster + c, c, &draws[d]});
            }
        }
        return out;
    }

    // test.comp for one candidate: whether the phase draws it; updates the visibility and the counters.
    bool test(const Candidate& cand, bool late) {
        const gpu::DrawCommand& draw = *cand.draw;
        const gpu::ClusterRange& range = scene.ranges[rangeIndex(draw)];
        const gpu::Instance& inst = scene.instances[draw.firstInstance];
        const gpu::Cluster& cl = scene.clusters[cand.cluster];
        const gpu::vec4 ws = gpu::sieveClusterSphere(inst, cl.sphere);
        const bool inFrustum = (p.cull.toggles & gpu::SIEVE_CULL_FRUSTUM) == 0u || gpu::sieveInFrustum(ws, p.cull);
        const bool coneOn = (p.push.toggles & gpu::SIEVE_CLUSTER_CONE) != 0u &&
                            gpu::sieveConeBin(scene.primitives[draw.primitive].bin, p.push.coneBins);
        const bool front = inFrustum && !(coneOn && gpu::sieveClusterBackfacing(inst, cl.cone, ws, p.cull));
        const uint64_t vslot = uint64_t(scene.instanceSlots[draw.firstInstance]) + range.visibilitySlot + cand.c;
        const bool slotOk = vslot < p.push.visibilitySlots;
        const bool visibleLast = slotOk && visibility[vslot] != 0u;
        if (!late) {
            const bool flag = front && visibleLast;
            counters.earlyTested++;
            counters.earlyDrawn += flag;
            return flag;
        }
        const bool drawnEarly = cand.slot < p.push.drawCapacity && front && visibleLast;
        const bool vis = front && !((p.cull.toggles & gpu::SIEVE_CULL_OCCLUSION) != 0u && occluded(ws));
        const bool flag = vis && !drawnEarly;
        if (slotOk) visibility[vslot] = vis ? 1u : 0u;
        counters.lateTested++;
        counters.frustumVisible += inFrustum;
        counters.coneVisible += front;
        counters.lateVisible += vis;
        counters.lateDrawn += flag;
        return flag;
    }

    // scan_emit's record of a drawn cluster: its triangles with the draw's vertex offset, instance and material.
    static gpu::DrawCommand clusterDraw(const gpu::Cluster& cl, const gpu::DrawCommand& draw) {
        gpu::DrawCommand d = draw;
        d.indexCount = cl.triangleCount * 3u;
        d.instanceCount = 1u;
        d.firstIndex = cl.firstIndex;
        return d;
    }

    ClusterListRef run(bool late) {
        const std::vector<Candidate> all = candidates(late);
        const size_t tested = std::min<size_t>(all.size(), p.push.candidateCapacity);
        counters.dropped += uint32_t(all.size() - tested);
        ClusterListRef out;
        uint32_t total = 0;
        for (size_t k = 0; k < tested; ++k) {
            if (!test(all[k], late)) continue;
            if (total++ >= p.push.outputCapacity) continue;
            const gpu::Cluster& cl = scene.clusters[all[k].cluster];
            counters.triangles += cl.triangleCount;
            out.draws.push_back(clusterDraw(cl, *all[k].draw));
            out.ids.push_back(all[k].cluster);
        }
        out.counts.count = uint32_t(out.draws.size());
        out.counts.total = total;
        out.counts.overflow = total - out.counts.count;
        return out;
    }
};

}  // namespace

ClusterFrameRef clusterFrameReference(const ClusterRefParams& p, const ClusterSceneRef& scene,
                                      std::span<const gpu::DrawCommand> drawsEarly,
                                      std::span<const gpu::DrawCommand> drawsLate, std::vector<uint32_t>& visibility,
                                      const std::function<bool(const gpu::vec4&)>& occluded) {
    ClusterFrameRef f;
    Phase early{p, scene, drawsEarly, {}, visibility, occluded, f.counters};
    f.early = early.run(false);
    Phase late{p, scene, drawsEarly, drawsLate, visibility, occluded, f.counters};
    f.late = late.run(true);
    return f;
}

}  // namespace sieve
