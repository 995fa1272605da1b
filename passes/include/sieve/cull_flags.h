#pragma once
// Culling flags: frustum + Hi-Z occlusion visibility, instance masks, LOD selection and per-(view, bin)
// draw counts for every view of a frame in one pass per phase (shaders/cull/flag.glsl), with CPU
// references that are their exact specification.
//
// Layouts (shaders/shared/cull.h, shared/scene.h; std430 buffers; V views, B bins, N instances; a
// per-(view, instance) array holds V * N uints indexed v * N + i):
//   params       gpu::CullParams[V] (uniform buffer, std140, 240 bytes each, V <= SIEVE_MAX_CULL_VIEWS)
//   instances    gpu::Instance[N]   bounds gpu::InstanceBounds[N]
//   meshes       gpu::Mesh[]        primitives gpu::MeshPrimitive[]
//   visibleLast  u32[V * N], persistent across frames (0/1): early reads, late writes
//   flags        u32[V * N] out (0/1): this phase's "draw it" flags, only where the caller reads them
//                (CullLayout::earlyFlags, lateFlags: the compactions read the draw counts, and the late
//                shader derives the early flags from visibleLast)
//   drawCounts   u32[V * B * N] out, key (v * B + b) * N + i: the flagged instance's primitives in bin b
//                (bins >= B count as bin B - 1), 0 when not flagged
//   lods         u32[V * N] out: LOD of each flagged instance, 0 for the others
//   drawMarks    optional, u32 per SIEVE_DRAW_MARK_KEYS keys: set to CullLayout::markEpoch where a count is non-zero
//   counters     gpu::CullCounterStripe[V * SIEVE_CULL_COUNTER_STRIPES], atomically incremented: zero them once
//                per frame; sumCounterStripes gives each view's
//   late only:   lodsEarly u32[V * N] (the early phase's; read only for two-phase views' instances drawn early),
//                state u32[N] out (view 0's decision, shared/cull_state.h), and view 0's Hi-Z pyramid
//                (sieve/hiz.h) sampled with texelFetch: the min channel is the farthest depth for
//                reverse Z, the max channel for standard Z; occlusionView gpu::CullParams (uniform), the
//                camera whose depth the pyramid holds.
// Two-phase views (CullParams::toggles has SIEVE_CULL_TWO_PHASE) split their visible set between the
// phases; SIEVE_CULL_EARLY views are culled completely by the early shader (give the late one only the
// views before them); every other view completely by the late shader (the early one flags nothing).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "shared/cull.h"
#include "shared/draw.h"
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
    BufferRange bounds;
    BufferRange meshes;
    BufferRange primitives;
    BufferRange visibleLast;
    BufferRange flags;
    BufferRange drawCounts;
    BufferRange lods;
    BufferRange counters;
    // Optional draw marks (shared/draw_push.h SIEVE_DRAW_MARK_KEYS), u32[ceil(V * B * N / SIEVE_DRAW_MARK_KEYS)]:
    // with CullLayout::markEpoch, each group of keys the pass gives a non-zero draw count is set to that epoch,
    // for the draw list to read only those groups' counts (DrawListBuffers::drawMarks: the same range, the same
    // epoch). The others are not written. Empty, or smaller than that: no marks.
    BufferRange drawMarks{};
};

// Each view's counters from the striped array the flag passes add to (shared/cull.h).
inline std::vector<gpu::CullCounters> sumCounterStripes(std::span<const gpu::CullCounterStripe> striped) {
    std::vector<gpu::CullCounters> out(striped.size() / gpu::SIEVE_CULL_COUNTER_STRIPES);
    for (size_t i = 0; i < out.size() * gpu::SIEVE_CULL_COUNTER_STRIPES; ++i) {
        gpu::CullCounters& o = out[i / gpu::SIEVE_CULL_COUNTER_STRIPES];
        const gpu::CullCounters& s = striped[i].counters;
        o.frustumVisible += s.frustumVisible;
        o.earlyDrawn += s.earlyDrawn;
        o.lateVisible += s.lateVisible;
        o.lateDrawn += s.lateDrawn;
        o.distanceCulled += s.distanceCulled;
    }
    return out;
}

// The late phase's extra inputs and output.
struct CullLateBuffers {
    BufferRange lodsEarly;
    BufferRange state;
    VkImageView pyramid = VK_NULL_HANDLE;
    VkImageLayout pyramidLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    // One gpu::CullParams (uniform buffer): the camera that drew the depth the pyramid was built from, through
    // which the occlusion test projects (its view, projection, depth convention and pyramid fields; the
    // other fields are not read). Empty (no buffer): view 0 of params, for a pyramid of this frame's depth.
    BufferRange occlusionView;
    // Scratch of the split late pass, at least cullCandidateBytes(N) (storage, transfer destination and indirect
    // usage; its contents need not survive the frame): view 0's instances in view are tested against the pyramid
    // in a second dispatch of those instances only, so that the occlusion test's dependent fetches fill whole
    // subgroups however the instances are ordered. Empty, or smaller than that: one dispatch tests everything.
    BufferRange candidates;
};

// Bytes of CullLateBuffers::candidates for n instances (shared/cull.h SIEVE_CULL_CANDIDATE_*).
inline VkDeviceSize cullCandidateBytes(uint32_t n) {
    return (VkDeviceSize(gpu::SIEVE_CULL_CANDIDATE_HEADER_WORDS) +
            VkDeviceSize(gpu::SIEVE_CULL_CANDIDATE_LISTS) * gpu::sieveCandidateListCapacity(n)) *
           4;
}

// The shape of a dispatch: instanceCount must equal every view's params.instanceCount (the dispatch
// size; nothing is recorded for 0).
struct CullLayout {
    uint32_t instanceCount = 0;
    uint32_t viewCount = 1;
    uint32_t binCount = 1;
    // The late shader writes its flags. A caller that reads only the draw counts, LODs and state of the late
    // shader (CullingPlugin) passes false: 4 bytes per (view, instance) not written.
    bool lateFlags = true;
    // The late shader writes the state. false: the state buffer is bound but not written.
    bool state = true;
    // Instances per invocation of the early shader (shaders/cull/flag.glsl main): Four issues four invocations'
    // worth of visibleLast loads at once in a quarter of the workgroups; Auto picks it from kEarlyRoundsFrom
    // instances on.
    enum class EarlyRounds { Auto, One, Four } earlyRounds = EarlyRounds::Auto;
    // The early shader writes its flags (two-phase views). Nothing of the plugin reads them: the late shader
    // derives them (drawn early = in the frustum and visible last frame), so CullingPlugin passes false.
    bool earlyFlags = true;
    // The split late pass, where CullLateBuffers::candidates is given: Off, one dispatch; Adaptive, a subgroup
    // whose instances in view are at most a quarter of it lists them for the second dispatch and decides denser
    // ones in place; All, every instance in view is listed (tests); Auto, Adaptive from kSplitLateFrom instances.
    enum class LateSplit { Auto, Off, Adaptive, All } lateSplit = LateSplit::Auto;
    // The value the pass writes to the draw marks (CullPhaseBuffers::drawMarks): a different one each time the
    // same marks are written, so that groups marked before read as unmarked (a stale mark costs the list a
    // read, never a draw). 0: no marks.
    uint32_t markEpoch = 0;
};

// From this many instances the late pass splits (CullLayout::LateSplit::Auto). On the H200 (bench/RESULTS.md,
// session 13) the adaptive split took 38 us off the late pass on niagara's unordered kitten field at 10M instances
// and cost the city, whose instances in view are grouped, 29 us at 10M; listing every instance in view cost 6-16 us
// at 1M on both scenes. Hence the plugin's default is no split (CullingTuning::lateSplit).
inline constexpr uint32_t kSplitLateFrom = 1u << 22;

// From this many instances the early shader takes four per invocation (CullLayout::EarlyRounds::Auto). On the
// H200 four made the early pass 8-11 us faster at 10M instances and 4 us slower at 1M, where a quarter of the
// workgroups is about one wave of the GPU (bench/RESULTS.md, session 10); 2^22 lies between, not measured.
inline constexpr uint32_t kEarlyRoundsFrom = 1u << 22;

// Early phase: reads params, instances, bounds, meshes, primitives, visibleLast; writes flags, drawCounts, lods;
// atomics on counters. Late phase: the same plus reads CullLateBuffers (the pyramid sampled in the
// compute stage, in `pyramidLayout`) and writes visibleLast and state. Both: compute shader stage, one
// dispatch, no barriers of their own, except the split late pass (CullLateBuffers::candidates): it resets the
// candidate list (transfer write, after the barrier that orders it behind an earlier frame's reads), then two
// dispatches with a barrier between them (the second indirect: its arguments are the list's first words). The
// pyramid is bound even when occlusion is toggled off.
class CullFlagPass {
public:
    CullFlagPass() = default;
    static Result<CullFlagPass> create(const DeviceInfo& dev);

    void recordEarly(VkCommandBuffer cmd, const CullPhaseBuffers& b, const CullLayout& layout) const;
    void recordLate(VkCommandBuffer cmd, const CullPhaseBuffers& b, const CullLateBuffers& late,
                    const CullLayout& layout) const;

private:
    NearestSampler sampler_;  // for the pyramid descriptor (reads use texelFetch)
    ComputePipeline early_;
    ComputePipeline late_;
    ComputePipeline lateDefer_;       // the split late pass: every view's tests, view 0's candidates listed
    ComputePipeline lateCandidates_;  // and view 0's candidates against the pyramid
};

// ---- Parameters ----

// Infinite reverse-Z perspective (depth = znear / d), P11 negated so that the image is upright with a
// positive Vulkan viewport.
gpu::mat4 perspectiveReverseZ(float fovY, float aspect, float znear);

struct CullSettings {
    uint32_t toggles = gpu::SIEVE_CULL_ALL;
    float drawDistance = 0.0f;       // CullView::drawDistance (0: no limit)
    bool distanceAlongAxis = false;  // CullView::distanceAlongAxis
    float lodThreshold = 1.0f;       // pixels (the viewport height comes from ViewDesc::viewport)
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
    std::span<const gpu::InstanceBounds> bounds;  // the same size as instances
    std::span<const gpu::Mesh> meshes;
    std::span<const gpu::MeshPrimitive> primitives;
};

struct CullPhaseOutput {
    std::vector<uint32_t> flags, drawCounts, lods;  // sizes as the GPU's (see the layouts above)
    std::vector<uint32_t> state;                    // late only: u32[N]
};

// Occlusion test of one world-space sphere against a CPU pyramid whose extent and mip count match
// params.pyramidWidth/Height/Mips.
bool occludedReference(const gpu::vec4& sphere, const gpu::CullParams& params, const HiZPyramidCpu& pyramid);
// `sphere`: the instance's InstanceBounds::sphere.
uint32_t lodReference(const gpu::Instance& instance, const gpu::vec4& sphere, const gpu::CullParams& params,
                      const CullScene& scene);

// Phases over views[v].instanceCount instances (the same for every view) and binCount bins; counters
// (one per view) are incremented like the GPU's.
CullPhaseOutput cullEarlyReference(std::span<const gpu::CullParams> views, uint32_t binCount, const CullScene& scene,
                                   std::span<const uint32_t> visibleLast, std::span<gpu::CullCounters> counters);
// `visibleLast` (V * N, as the early phase read it) is updated in place; an instance of a two-phase view was drawn
// early when it is in view and was visible last frame (the early phase's rule). `pyramid` may be null only when
// occlusion is toggled off; `occlusionView` is the camera whose depth it holds (CullLateBuffers::occlusionView;
// null: views[0]).
CullPhaseOutput cullLateReference(std::span<const gpu::CullParams> views, uint32_t binCount, const CullScene& scene,
                                  std::span<const uint32_t> lodsEarly, const HiZPyramidCpu* pyramid,
                                  std::vector<uint32_t>& visibleLast, std::span<gpu::CullCounters> counters,
                                  const gpu::CullParams* occlusionView = nullptr);

// One view, one bin.
inline CullPhaseOutput cullEarlyReference(const gpu::CullParams& params, const CullScene& scene,
                                          std::span<const uint32_t> visibleLast, gpu::CullCounters& counters) {
    return cullEarlyReference({&params, 1}, 1, scene, visibleLast, {&counters, 1});
}
inline CullPhaseOutput cullLateReference(const gpu::CullParams& params, const CullScene& scene,
                                         std::span<const uint32_t> lodsEarly, const HiZPyramidCpu* pyramid,
                                         std::vector<uint32_t>& visibleLast, gpu::CullCounters& counters) {
    return cullLateReference({&params, 1}, 1, scene, lodsEarly, pyramid, visibleLast, {&counters, 1});
}

// The draw streams one phase's output gives (sieve/draw_list.h): stream s = view * binCount + bin holds,
// in instance order then primitive order, the flagged instances' primitives of bin b at the view's LOD
// (clamped to each primitive's chain), the first capacities[s] of them; counts as the GPU writes them.
struct DrawStreamReference {
    std::vector<gpu::DrawCommand> draws;
    gpu::DrawCounts counts{};
};
std::vector<DrawStreamReference> drawStreamsReference(const CullScene& scene, const CullPhaseOutput& phase,
                                                      uint32_t viewCount, uint32_t binCount,
                                                      std::span<const uint32_t> capacities);

// The false-culling check (shaders/cull/check.glsl) of one instance: whether a sphere the main view
// culled by occlusion has a pixel of `depth` (the frame's final depth, width x height pixels row-major,
// each pixel's `samples` samples in a row) with a sample that alone would not hide it.
bool falselyCulledReference(const gpu::vec4& sphere, const gpu::CullParams& params, VkExtent2D extent,
                            std::span<const float> depth, uint32_t samples = 1);

}  // namespace sieve
