// CPU references of the flag shaders: the shared math of shared/cull.h, driven the way
// shaders/cull/flag.glsl drives it.
#include <algorithm>

#include "shared/cull_state.h"
#include "shared/draw_push.h"
#include "sieve/cull_flags.h"

namespace sieve {

bool occludedReference(const gpu::vec4& sphere, const gpu::CullParams& params, const HiZPyramidCpu& pyramid) {
    gpu::CullOcclusionQuery q;
    if (!gpu::sieveOcclusionQuery(sphere, params, q)) return false;
    if (q.mip >= pyramid.mipCount()) return false;  // a mismatched pyramid: visible, never a wrong cull
    const HiZLevel& level = pyramid.levels[q.mip];
    bool behind = true;
    for (uint32_t y = q.y0; y <= std::min(q.y1, level.extent.height - 1); ++y)
        for (uint32_t x = q.x0; x <= std::min(q.x1, level.extent.width - 1); ++x) {
            const size_t t = size_t(y) * level.extent.width + x;
            behind = behind && gpu::sieveOccludedByTexel(q, gpu::vec2(level.min[t], level.max[t]), params);
        }
    return behind;
}

uint32_t lodReference(const gpu::Instance& inst, const gpu::vec4& sphere, const gpu::CullParams& params,
                      const CullScene& scene) {
    if (!(params.toggles & gpu::SIEVE_CULL_LOD) || inst.mesh >= scene.meshes.size()) return 0;
    if (!gpu::sieveSphereFinite(sphere)) return 0;
    const gpu::Mesh& mesh = scene.meshes[inst.mesh];
    const float dist = gpu::sieveLodDistance(sphere, params);
    uint32_t lod = gpu::SIEVE_MAX_LODS - 1;
    bool any = false;
    for (uint32_t k = 0; k < mesh.primitiveCount; ++k) {
        const uint64_t pi = uint64_t(mesh.firstPrimitive) + k;
        if (pi >= scene.primitives.size()) break;
        lod = std::min(lod, gpu::sievePrimitiveLod(scene.primitives[pi], inst.scale, dist, params));
        any = true;
    }
    return any ? gpu::sieveApplyLodBias(lod, params) : 0;
}

namespace {

// Sizes as the GPU's: V * N flags and LODs, V * B * N draw counts.
CullPhaseOutput sized(size_t views, uint32_t bins, uint32_t n) {
    CullPhaseOutput out;
    out.flags.assign(views * n, 0);
    out.lods.assign(views * n, 0);
    out.drawCounts.assign(views * bins * n, 0);
    return out;
}

// The instance's primitives per bin (bins >= binCount count as the last), written for a flagged instance.
void writeDrawCounts(const CullScene& scene, const gpu::Instance& inst, size_t view, uint32_t binCount, uint32_t n,
                     uint32_t i, CullPhaseOutput& out) {
    if (inst.mesh >= scene.meshes.size()) return;
    const gpu::Mesh& mesh = scene.meshes[inst.mesh];
    for (uint32_t k = 0; k < mesh.primitiveCount; ++k) {
        // A primitive index past the table draws nothing, in any bin.
        const uint64_t pi = uint64_t(mesh.firstPrimitive) + k;
        if (pi >= scene.primitives.size()) continue;
        const uint32_t bin = binCount > 1 ? std::min(scene.primitives[pi].bin, binCount - 1) : 0u;
        ++out.drawCounts[gpu::sieveKey(gpu::sieveStream(uint32_t(view), bin, binCount), i, n)];
    }
}

bool kept(const gpu::Instance& inst, const gpu::CullParams& p) {
    return (inst.flags & p.instanceMask) == p.instanceMask;
}

// The tests before occlusion, as decide.glsl inViewKept applies them: whether the instance is in view
// (kept by the mask, in the frustum and the draw distance) and which test culled it
// (SIEVE_CULL_TEST_COUNT: none, or the mask).
bool inView(const gpu::Instance& inst, const gpu::vec4& sphere, const gpu::CullParams& p, uint32_t& culledBy) {
    culledBy = gpu::SIEVE_CULL_TEST_COUNT;
    if ((p.toggles & gpu::SIEVE_CULL_FRUSTUM) && !gpu::sieveInFrustum(sphere, p)) {
        culledBy = gpu::SIEVE_TEST_FRUSTUM;
        return false;
    }
    if (!kept(inst, p)) return false;
    const float own = (p.toggles & gpu::SIEVE_CULL_INSTANCE_DISTANCE) ? inst.cullDistance : 0.0f;
    if ((p.toggles & gpu::SIEVE_CULL_DISTANCE) && !gpu::sieveWithinDrawDistance(sphere, own, p)) {
        culledBy = gpu::SIEVE_TEST_DISTANCE;
        return false;
    }
    return true;
}

void countDistanceCulled(gpu::CullCounters& c, uint32_t culledBy) {
    c.distanceCulled += culledBy == gpu::SIEVE_TEST_DISTANCE;
}

}  // namespace

CullPhaseOutput cullEarlyReference(std::span<const gpu::CullParams> views, uint32_t binCount, const CullScene& scene,
                                   std::span<const uint32_t> visibleLast, std::span<gpu::CullCounters> counters) {
    const uint32_t n = views.empty() ? 0 : views[0].instanceCount;
    CullPhaseOutput out = sized(views.size(), binCount, n);
    for (size_t v = 0; v < views.size(); ++v) {
        const gpu::CullParams& params = views[v];
        const bool twoPhase = params.toggles & gpu::SIEVE_CULL_TWO_PHASE;
        for (uint32_t i = 0; i < n; ++i) {
            const gpu::Instance& inst = scene.instances[i];
            const size_t vi = gpu::sieveKey(uint32_t(v), i, n);
            const bool earlyView = params.toggles & gpu::SIEVE_CULL_EARLY;
            uint32_t culledBy = gpu::SIEVE_CULL_TEST_COUNT;
            // Two-phase views test only what was visible last frame here.
            const bool tested = earlyView || (twoPhase && visibleLast[vi] != 0);
            const bool inFrustum = tested && inView(inst, scene.bounds[i].sphere, params, culledBy);
            const bool flag = inFrustum;
            out.flags[vi] = flag;
            if (flag) {
                out.lods[vi] = lodReference(inst, scene.bounds[i].sphere, params, scene);
                writeDrawCounts(scene, inst, v, binCount, n, i, out);
            }
            counters[v].earlyDrawn += flag;
            counters[v].frustumVisible += earlyView && inFrustum;
            counters[v].lateVisible += earlyView && inFrustum;
            if (earlyView) countDistanceCulled(counters[v], culledBy);
        }
    }
    return out;
}

CullPhaseOutput cullLateReference(std::span<const gpu::CullParams> views, uint32_t binCount, const CullScene& scene,
                                  std::span<const uint32_t> lodsEarly, const HiZPyramidCpu* pyramid,
                                  std::vector<uint32_t>& visibleLast, std::span<gpu::CullCounters> counters,
                                  const gpu::CullParams* occlusionView) {
    const uint32_t n = views.empty() ? 0 : views[0].instanceCount;
    CullPhaseOutput out = sized(views.size(), binCount, n);
    out.state.assign(n, 0);
    visibleLast.resize(std::max<size_t>(visibleLast.size(), views.size() * n), 0);
    const gpu::CullParams& occlusion = occlusionView ? *occlusionView : views.empty() ? gpu::CullParams{} : views[0];
    for (size_t v = 0; v < views.size(); ++v) {
        const gpu::CullParams& params = views[v];
        const bool occlusionOn = (params.toggles & gpu::SIEVE_CULL_OCCLUSION) && pyramid;
        const bool twoPhase = params.toggles & gpu::SIEVE_CULL_TWO_PHASE;
        for (uint32_t i = 0; i < n; ++i) {
            const gpu::Instance& inst = scene.instances[i];
            const size_t vi = gpu::sieveKey(uint32_t(v), i, n);
            const bool isKept = kept(inst, params);
            uint32_t culledBy = gpu::SIEVE_CULL_TEST_COUNT;
            const gpu::vec4& sphere = scene.bounds[i].sphere;
            const bool inFrustum = inView(inst, sphere, params, culledBy);
            const bool vis = inFrustum && !(occlusionOn && occludedReference(sphere, occlusion, *pyramid));
            const bool drawnEarly = twoPhase && inFrustum && visibleLast[vi] != 0;
            const bool flag = vis && !drawnEarly;
            visibleLast[vi] = vis;
            out.flags[vi] = flag;
            if (flag) {
                out.lods[vi] = lodReference(inst, scene.bounds[i].sphere, params, scene);
                writeDrawCounts(scene, inst, v, binCount, n, i, out);
            }
            counters[v].frustumVisible += inFrustum;
            counters[v].lateVisible += vis;
            counters[v].lateDrawn += flag;
            countDistanceCulled(counters[v], culledBy);
            if (v != 0) continue;
            uint32_t state = gpu::SIEVE_STATE_DRAWN_LATE | out.lods[vi] << gpu::SIEVE_STATE_LOD_SHIFT;
            if (drawnEarly)
                state = gpu::SIEVE_STATE_DRAWN_EARLY | lodsEarly[vi] << gpu::SIEVE_STATE_LOD_SHIFT;
            else if (!isKept)
                state = gpu::SIEVE_STATE_MASKED;
            else if (culledBy == gpu::SIEVE_TEST_FRUSTUM)
                state = gpu::SIEVE_STATE_FRUSTUM_CULLED;
            else if (culledBy == gpu::SIEVE_TEST_DISTANCE)
                state = gpu::SIEVE_STATE_DISTANCE_CULLED;
            else if (!vis)
                state = gpu::SIEVE_STATE_OCCLUSION_CULLED;
            out.state[i] = state;
        }
    }
    return out;
}

std::vector<DrawStreamReference> drawStreamsReference(const CullScene& scene, const CullPhaseOutput& phase,
                                                      uint32_t viewCount, uint32_t binCount,
                                                      std::span<const uint32_t> capacities) {
    const size_t n = viewCount ? phase.flags.size() / viewCount : 0;
    std::vector<DrawStreamReference> out(size_t(viewCount) * binCount);
    for (uint32_t v = 0; v < viewCount; ++v)
        for (uint32_t b = 0; b < binCount; ++b) {
            const uint32_t s = gpu::sieveStream(v, b, binCount);
            DrawStreamReference& ref = out[s];
            for (size_t i = 0; i < n; ++i) {
                const uint32_t wanted = phase.drawCounts[gpu::sieveKey(s, uint32_t(i), uint32_t(n))];
                if (!wanted) continue;
                ref.counts.total += wanted;
                const gpu::Mesh& mesh = scene.meshes[scene.instances[i].mesh];
                for (uint32_t p = 0; p < mesh.primitiveCount; ++p) {
                    const uint64_t primIndex = uint64_t(mesh.firstPrimitive) + p;
                    if (primIndex >= scene.primitives.size()) break;
                    const gpu::MeshPrimitive& prim = scene.primitives[primIndex];
                    if (binCount > 1 && std::min(prim.bin, binCount - 1) != b) continue;
                    if (ref.draws.size() >= capacities[s]) break;
                    ref.draws.push_back(
                        gpu::sievePrimitiveDraw(prim, uint32_t(primIndex), uint32_t(i),
                                                phase.lods[gpu::sieveKey(v, uint32_t(i), uint32_t(n))]));
                }
            }
            ref.counts.count = std::min(ref.counts.total, capacities[s]);
            ref.counts.overflow = ref.counts.total - ref.counts.count;
        }
    return out;
}

bool falselyCulledReference(const gpu::vec4& sphere, const gpu::CullParams& params, VkExtent2D extent,
                            std::span<const float> depth, uint32_t samples) {
    gpu::CullScreenRect rect;
    if (extent.width == 0 || extent.height == 0 || samples == 0 ||
        depth.size() < size_t(extent.width) * extent.height * samples || !gpu::sieveScreenRect(sphere, params, rect))
        return false;
    gpu::CullOcclusionQuery q{};
    uint32_t x0, x1, y0, y1;
    gpu::sieveTexelRange(rect.u0, rect.u1, extent.width, x0, x1);
    gpu::sieveTexelRange(rect.v0, rect.v1, extent.height, y0, y1);
    q.depth = rect.depth;
    for (uint32_t y = y0; y <= y1; ++y)
        for (uint32_t x = x0; x <= x1; ++x)
            for (uint32_t s = 0; s < samples; ++s) {
                const float d = depth[(size_t(y) * extent.width + x) * samples + s];
                if (!gpu::sieveOccludedByTexel(q, gpu::vec2(d, d), params)) return true;
            }
    return false;
}

}  // namespace sieve
