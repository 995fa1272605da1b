#include "engine/ui/pick_verdict.h"

#include <algorithm>
#include <cmath>

namespace engine::ui {

namespace gpu = sieve::gpu;

namespace {

int firstOutsidePlane(const gpu::vec4& s, const gpu::CullParams& p) {
    for (int i = 0; i < 6; ++i) {
        const gpu::vec4& pl = p.planes[i];
        if (((pl.x * s.x + pl.y * s.y) + pl.z * s.z) + pl.w < -s.w) return i;
    }
    return -1;
}

// The farthest depth the query's texels hold: the min channel with reverse Z, the max with standard Z.
float farthestOver(const gpu::CullOcclusionQuery& q, const gpu::CullParams& p, const sieve::HiZPyramidCpu& pyramid) {
    const sieve::HiZLevel& level = pyramid.levels[q.mip];
    float far = p.reverseZ ? 1.0f : 0.0f;
    for (uint32_t y = q.y0; y <= q.y1; ++y)
        for (uint32_t x = q.x0; x <= q.x1; ++x) {
            const size_t t = size_t(y) * level.extent.width + x;
            far = p.reverseZ ? std::min(far, level.min[t]) : std::max(far, level.max[t]);
        }
    return far;
}

void occlusion(PickVerdict& v, const gpu::vec4& s, const gpu::CullParams& p, const sieve::HiZPyramidCpu& pyramid) {
    v.occlusionQueried = gpu::sieveOcclusionQuery(s, p, v.query) && v.query.mip < pyramid.mipCount();
    if (v.occlusionQueried) v.farthestDepth = farthestOver(v.query, p, pyramid);
    v.occluded = sieve::occludedReference(s, p, pyramid);
}

}  // namespace

PickVerdict pickVerdict(const gpu::CullParams& p, const sieve::CullScene& scene, uint32_t i,
                        const sieve::HiZPyramidCpu* pyramid) {
    PickVerdict v;
    v.instance = i;
    const gpu::Instance& inst = scene.instances[i];
    const gpu::vec4& s = scene.bounds[i].sphere;
    v.masked = p.instanceMask != 0 && (inst.flags & p.instanceMask) != p.instanceMask;
    v.frustumOn = (p.toggles & gpu::SIEVE_CULL_FRUSTUM) != 0;
    if (v.frustumOn) {
        v.inFrustum = gpu::sieveInFrustum(s, p);
        v.outsidePlane = firstOutsidePlane(s, p);
    }
    v.distanceOn = (p.toggles & gpu::SIEVE_CULL_DISTANCE) != 0;
    const gpu::vec3 c = gpu::sieveViewCentre(s, p);
    v.distance = p.distanceAlongAxis ? p.forward * c.z : std::sqrt(c.x * c.x + c.y * c.y + c.z * c.z);
    const float own = (p.toggles & gpu::SIEVE_CULL_INSTANCE_DISTANCE) ? inst.cullDistance : 0.0f;
    if (v.distanceOn) v.withinDistance = gpu::sieveWithinDrawDistance(s, own, p);
    v.occlusionOn = (p.toggles & gpu::SIEVE_CULL_OCCLUSION) != 0 && pyramid;
    if (v.occlusionOn) occlusion(v, s, p, *pyramid);
    v.lod = sieve::lodReference(inst, s, p, scene);
    using namespace gpu;
    v.decision = v.masked                            ? SIEVE_STATE_MASKED
                 : v.frustumOn && !v.inFrustum       ? SIEVE_STATE_FRUSTUM_CULLED
                 : v.distanceOn && !v.withinDistance ? SIEVE_STATE_DISTANCE_CULLED
                 : v.occlusionOn && v.occluded       ? SIEVE_STATE_OCCLUSION_CULLED
                                                     : SIEVE_STATE_DRAWN_LATE;
    return v;
}

bool drawnState(uint32_t gpuState) {
    const uint32_t kind = gpuState & gpu::SIEVE_STATE_KIND_MASK;
    return kind == gpu::SIEVE_STATE_DRAWN_EARLY || kind == gpu::SIEVE_STATE_DRAWN_LATE;
}

uint32_t stateLod(uint32_t gpuState) {
    return (gpuState >> gpu::SIEVE_STATE_LOD_SHIFT) & gpu::SIEVE_STATE_LOD_MASK;
}

bool verdictAgrees(const PickVerdict& v, uint32_t gpuState) {
    if (v.decision != gpu::SIEVE_STATE_DRAWN_LATE)
        return !drawnState(gpuState) && (gpuState & gpu::SIEVE_STATE_KIND_MASK) == v.decision;
    return drawnState(gpuState) && stateLod(gpuState) == v.lod;
}

const char* stateName(uint32_t kind) {
    using namespace gpu;
    switch (kind) {
        case SIEVE_STATE_MASKED: return "masked";
        case SIEVE_STATE_FRUSTUM_CULLED: return "frustum_culled";
        case SIEVE_STATE_OCCLUSION_CULLED: return "occlusion_culled";
        case SIEVE_STATE_DRAWN_EARLY: return "drawn_early";
        case SIEVE_STATE_DRAWN_LATE: return "drawn_late";
        case SIEVE_STATE_DISTANCE_CULLED: return "distance_culled";
        default: return "unknown";
    }
}

const char* planeName(int plane, const gpu::CullParams& p) {
    switch (plane) {
        case 0: return "left";
        case 1: return "right";
        case 2: return "top";
        case 3: return "bottom";
        case 4: return p.reverseZ ? "near" : "far";
        case 5: return p.reverseZ ? "far" : "near";
        default: return "none";
    }
}

}  // namespace engine::ui
