#pragma once
// The queries around the SceneRenderer's two draw passes (early, late), one pool per frame slot: pipeline
// statistics (input-assembly primitives and the clipper's counts, every path) where the device has them,
// and on the mesh path VK_EXT_mesh_shader's mesh-primitives-generated query where the device was created
// with meshShaderQueries. A count the device does not give stays absent, never 0.
#include <volk.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/vk/context.h"
#include "sieve/result.h"

namespace engine {

// Both draw passes of one frame summed; absent where not counted.
struct DrawQueryCounts {
    std::optional<uint64_t> inputPrimitives;  // input assembly (indirect draws; not counted on the mesh path)
    std::optional<uint64_t> clippingInvocations, clippingPrimitives;
    std::optional<uint64_t> meshPrimitives;  // primitives the mesh shaders emitted (mesh path)
};

class DrawQueries {
public:
    // meshPath: the draws are the mesh path's (the mesh-primitives query is made only then).
    static sieve::Result<DrawQueries> create(Context& ctx, uint32_t framesInFlight, bool meshPath);
    DrawQueries() = default;
    DrawQueries(DrawQueries&& o) noexcept { *this = std::move(o); }
    DrawQueries& operator=(DrawQueries&& o) noexcept;
    DrawQueries(const DrawQueries&) = delete;
    ~DrawQueries();

    // Before the frame's draw passes are recorded into `cmd` (outside a render pass).
    void reset(VkCommandBuffer cmd, uint32_t slot);
    // Around one draw pass (late: the second).
    void begin(VkCommandBuffer cmd, uint32_t slot, bool late) const;
    void end(VkCommandBuffer cmd, uint32_t slot, bool late) const;
    // The counts of the frame last recorded into `slot`, once its fence was waited for.
    DrawQueryCounts read(uint32_t slot) const;

private:
    void destroy();
    VkDevice device_ = VK_NULL_HANDLE;
    bool inputAssembly_ = true;       // the statistics count input-assembly primitives (not on the mesh path)
    std::vector<VkQueryPool> stats_;  // pipeline statistics, per slot; empty without them
    std::vector<VkQueryPool> mesh_;   // mesh primitives generated, per slot; empty without them
    std::vector<bool> written_;       // a frame was recorded into the slot since creation
};

}  // namespace engine
