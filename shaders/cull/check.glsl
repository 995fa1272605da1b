// False-culling check (debug): every instance the main view culled by occlusion this frame
// (state == SIEVE_STATE_OCCLUSION_CULLED) is re-tested against the frame's final depth at full
// resolution: it was culled falsely when some pixel of its screen rectangle (shared/cull.h
// sieveScreenRect, the true radius) is not strictly nearer than the sphere's nearest depth, i.e. when
// the pixel alone would not occlude it (sieveOccludedByTexel on that pixel; on a multisampled depth,
// on each sample). The count goes to `result`. Included by check.comp (single-sample depth) and
// check_ms.comp (multisampled).
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/dispatch.h"
#include "shared/scene.h"
#include "shared/cull.h"
#include "shared/cull_bindings.h"
#include "shared/cull_state.h"
#include "hiz/depth_sample.glsl"

layout(local_size_x = 64) in;
layout(set = 0, binding = SIEVE_CHECK_VIEWS, std430) readonly buffer Views { CullParams views[]; };  // view 0 is read
layout(set = 0, binding = SIEVE_CHECK_BOUNDS, std430) readonly buffer Bounds { InstanceBounds bounds[]; };
layout(set = 0, binding = SIEVE_CHECK_STATE, std430) readonly buffer State { uint state[]; };
layout(set = 0, binding = SIEVE_CHECK_DEPTH) uniform SIEVE_DEPTH_SAMPLER depth;  // the host's depth, final
layout(set = 0, binding = SIEVE_CHECK_RESULT, std430) buffer Result { uint falselyCulled; };

layout(push_constant) uniform Push { CullCheckPush pc; };

bool showsAPixel(vec4 sphere) {
    CullScreenRect rect;
    // Visible without any depth (off screen or crossing the near plane): the occlusion test never culls it.
    if (!sieveScreenRect(sphere, views[0], rect)) return false;
    uint x0, x1, y0, y1;
    sieveTexelRange(rect.u0, rect.u1, pc.depthWidth, x0, x1);
    sieveTexelRange(rect.v0, rect.v1, pc.depthHeight, y0, y1);
    CullOcclusionQuery q;
    q.mip = 0u;
    q.x0 = x0;
    q.y0 = y0;
    q.x1 = x1;
    q.y1 = y1;
    q.depth = rect.depth;
    const int samples = depthSampleCount(depth);
    for (uint y = y0; y <= y1; ++y)
        for (uint x = x0; x <= x1; ++x) {
            for (int s = 0; s < samples; ++s) {
                const float d = depthSample(depth, ivec2(x, y), s);
                if (!sieveOccludedByTexel(q, vec2(d, d), views[0])) return true;
            }
        }
    return false;
}

void main() {
    const uint i = sieve_group_index() * 64u + gl_LocalInvocationID.x;
    bool falsely = false;
    if (i < pc.instanceCount && (state[i] & SIEVE_STATE_KIND_MASK) == SIEVE_STATE_OCCLUSION_CULLED)
        falsely = showsAPixel(bounds[i].sphere);
    const uint n = subgroupBallotBitCount(subgroupBallot(falsely));
    if (subgroupElect() && n > 0u) atomicAdd(falselyCulled, n);
}
