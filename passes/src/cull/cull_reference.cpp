// CPU references of the flag shaders: the shared math of shared/cull.h, driven the way
// shaders/cull/flag.glsl drives it.
#include <algorithm>

#include "shared/cull_state.h"
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

uint32_t lodReference(const gpu::Instance& inst, const gpu::CullParams& params, const CullScene& scene) {
    if (!(params.toggles & gpu::SIEVE_CULL_LOD) || inst.mesh >= scene.meshes.size()) return 0;
    if (!gpu::sieveSphereFinite(inst.sphere)) return 0;
    const gpu::Mesh& mesh = scene.meshes[inst.mesh];
    const float dist = gpu::sieveLodDistance(inst.sphere, params);
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
CullPhaseOutput sized(uint32_t n) {
    CullPhaseOutput out;
    out.flags.assign(n, 0);
    out.drawCounts.assign(n, 0);
    out.lods.assign(n, 0);
    return out;
}
uint32_t drawCount(const CullScene& scene, const gpu::Instance& inst) {
    return inst.mesh < scene.meshes.size() ? scene.meshes[inst.mesh].primitiveCount : 0;
}
}  // namespace

CullPhaseOutput cullEarlyReference(const gpu::CullParams& params, const CullScene& scene,
                                   std::span<const uint32_t> visibleLast, gpu::CullCounters& counters) {
    const uint32_t n = params.instanceCount;
    CullPhaseOutput out = sized(n);
    const bool frustumOn = params.toggles & gpu::SIEVE_CULL_FRUSTUM;
    const bool twoPhase = params.toggles & gpu::SIEVE_CULL_TWO_PHASE;
    for (uint32_t i = 0; i < n; ++i) {
        const gpu::Instance& inst = scene.instances[i];
        const bool flag = twoPhase && visibleLast[i] != 0 && (!frustumOn || gpu::sieveInFrustum(inst.sphere, params));
        out.flags[i] = flag;
        out.drawCounts[i] = flag ? drawCount(scene, inst) : 0;
        out.lods[i] = flag ? lodReference(inst, params, scene) : 0;
        counters.earlyDrawn += flag;
    }
    return out;
}

CullPhaseOutput cullLateReference(const gpu::CullParams& params, const CullScene& scene,
                                  std::span<const uint32_t> flagsEarly, const HiZPyramidCpu* pyramid,
                                  std::vector<uint32_t>& visibleLast, gpu::CullCounters& counters) {
    const uint32_t n = params.instanceCount;
    CullPhaseOutput out = sized(n);
    out.state.assign(n, 0);
    visibleLast.resize(std::max<size_t>(visibleLast.size(), n), 0);
    const bool frustumOn = params.toggles & gpu::SIEVE_CULL_FRUSTUM;
    const bool occlusionOn = (params.toggles & gpu::SIEVE_CULL_OCCLUSION) && pyramid;
    const bool twoPhase = params.toggles & gpu::SIEVE_CULL_TWO_PHASE;
    for (uint32_t i = 0; i < n; ++i) {
        const gpu::Instance& inst = scene.instances[i];
        const bool inFrustum = !frustumOn || gpu::sieveInFrustum(inst.sphere, params);
        const bool vis = inFrustum && !(occlusionOn && occludedReference(inst.sphere, params, *pyramid));
        const bool flag = vis && !(twoPhase && flagsEarly[i] != 0);
        visibleLast[i] = vis;
        out.flags[i] = flag;
        out.drawCounts[i] = flag ? drawCount(scene, inst) : 0;
        const uint32_t lod = vis ? lodReference(inst, params, scene) : 0;
        out.lods[i] = flag ? lod : 0;
        const uint32_t kind = !inFrustum ? gpu::SIEVE_STATE_FRUSTUM_CULLED
                              : !vis     ? gpu::SIEVE_STATE_OCCLUSION_CULLED
                              : flag     ? gpu::SIEVE_STATE_DRAWN_LATE
                                         : gpu::SIEVE_STATE_DRAWN_EARLY;
        out.state[i] = kind | (lod << gpu::SIEVE_STATE_LOD_SHIFT);
        counters.frustumVisible += inFrustum;
        counters.lateVisible += vis;
        counters.lateDrawn += flag;
    }
    return out;
}

}  // namespace sieve
