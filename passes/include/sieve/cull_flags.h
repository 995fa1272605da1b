#pragma once
// Culling flags: frustum + Hi-Z occlusion visibility, LOD selection and per-instance draw counts, in
// two phases (shaders/cull/flag.glsl), with CPU references that are their exact specification.
//
// Layouts (shaders/shared/cull.h, shared/scene.h; std430 buffers, u32 = one uint per instance):
//   params       uniform buffer, gpu::CullParams (std140, 240 bytes), from makeCullParams
//   instances    gpu::Instance[instanceCount]   meshes gpu::Mesh[]   primitives gpu::MeshPrimitive[]
//   visibleLast  u32[instanceCount], persistent across frames (0/1): early reads, late writes
//   flags        u32[instanceCount] out (0/1): this phase's "draw it" flags
//   drawCounts   u32[instanceCount] out: flags[i] ? meshes[instances[i].mesh].primitiveCount : 0
//   lods         u32[instanceCount] out: LOD of each flagged instance, 0 for the others
//   counters     gpu::CullCounters (16 bytes), atomically incremented: zero it once per frame
//   late only: flagsEarly u32[instanceCount] (the early phase's flags; ignored when two-phase is off),
//              state u32[instanceCount] out (shared/cull_state.h: the decision, for debug views)
//              and the Hi-Z pyramid (sieve/hiz.h) sampled with texelFetch: the min channel is the
//              farthest depth for reverse Z, the max channel for standard Z.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "shared/cull.h"
#include "shared/scene.h"
#include "sieve/gpu.h"
#include "sieve/hiz.h"
#include "sieve/pipeline.h"
#include "sieve/result.h"
#include "sieve/view.h"

namespace sieve {

struct CullPhaseBuffers {
    BufferRange params;
    BufferRange instances;
    BufferRange meshes;
    BufferRange primitives;
    BufferRange visibleLast;
    BufferRange flags;
    BufferRange drawCounts;
    BufferRange lods;
    BufferRange counters;
};

// Early phase: reads params, instances, meshes, primitives, visibleLast; writes flags, drawCounts, lods;
// atomics on counters. Late phase: the same plus reads flagsEarly and the pyramid (sampled, compute
// stage, in `pyramidLayout`), and writes visibleLast and state. Both: compute shader stage, one dispatch, no
// barriers of their own. The pyramid is bound even when occlusion is toggled off.
class CullFlagPass {
public:
    CullFlagPass() = default;
    static Result<CullFlagPass> create(const DeviceInfo& dev);

    // instanceCount must equal params.instanceCount (the dispatch size; nothing is recorded for 0).
    void recordEarly(VkCommandBuffer cmd, const CullPhaseBuffers& b, uint32_t instanceCount) const;
    void recordLate(VkCommandBuffer cmd, const CullPhaseBuffers& b, BufferRange flagsEarly, BufferRange state,
                    VkImageView pyramid, VkImageLayout pyramidLayout, uint32_t instanceCount) const;

private:
    NearestSampler sampler_;  // for the pyramid descriptor (reads use texelFetch)
    ComputePipeline early_;
    ComputePipeline late_;
};

// ---- Parameters ----

// Infinite reverse-Z perspective (depth = znear / d), P11 negated so that the image is upright with a
// positive Vulkan viewport.
gpu::mat4 perspectiveReverseZ(float fovY, float aspect, float znear);

struct CullSettings {
    uint32_t toggles = gpu::SIEVE_CULL_ALL;
    float lodThreshold = 1.0f;  // pixels (the viewport height comes from ViewDesc::viewport)
    int lodBias = 0;
};

// Fills CullParams from the host's view as it draws it (sieve/view.h): classifies the projection
// (perspective or orthographic; standard or reverse Z, also through the viewport depth range; finite
// or infinite far; off-centre/jittered; left-handed perspective folded by d = z), canonicalises it into
// the fields of shared/cull.h, and derives normalized world-space frustum planes from projection * view
// (an infinite far plane becomes (0,0,0,1)). pyramidExtent/pyramidMips describe the Hi-Z pyramid of the
// depth attachment the viewport covers (HiZBuilder::pyramidExtent of it, 1..mipCount mips). Anything it
// cannot cull correctly (x/y mixing, oblique depth rows, a non-rigid view, non-finite terms, zero scales,
// no near plane in front of the eye, a viewport not covering the attachment, ...) is an error naming it.
Result<gpu::CullParams> makeCullParams(const ViewDesc& view, VkExtent2D pyramidExtent, uint32_t pyramidMips,
                                       uint32_t instanceCount, const CullSettings& settings);

// ---- CPU references (the spec of the flag shaders; also usable as CPU culling) ----

struct CullScene {
    std::span<const gpu::Instance> instances;
    std::span<const gpu::Mesh> meshes;
    std::span<const gpu::MeshPrimitive> primitives;
};

struct CullPhaseOutput {
    std::vector<uint32_t> flags, drawCounts, lods;
    std::vector<uint32_t> state;  // late phase only: shared/cull_state.h, per instance
};

// Occlusion test of one world-space sphere against a CPU pyramid whose extent and mip count match
// params.pyramidWidth/Height/Mips.
bool occludedReference(const gpu::vec4& sphere, const gpu::CullParams& params, const HiZPyramidCpu& pyramid);
uint32_t lodReference(const gpu::Instance& instance, const gpu::CullParams& params, const CullScene& scene);

// Phases over params.instanceCount instances; counters are incremented like the GPU's.
CullPhaseOutput cullEarlyReference(const gpu::CullParams& params, const CullScene& scene,
                                   std::span<const uint32_t> visibleLast, gpu::CullCounters& counters);
// `visibleLast` is updated in place. `pyramid` may be null only when occlusion is toggled off.
CullPhaseOutput cullLateReference(const gpu::CullParams& params, const CullScene& scene,
                                  std::span<const uint32_t> flagsEarly, const HiZPyramidCpu* pyramid,
                                  std::vector<uint32_t>& visibleLast, gpu::CullCounters& counters);

}  // namespace sieve
