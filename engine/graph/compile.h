#pragma once
// Compiling a graph description: validation of the declared uses, culling, and the barriers to issue
// before each pass and at the end of the frame. Pure CPU: no Vulkan call, testable without a device.
#include <string>
#include <vector>

#include "engine/graph/graph_desc.h"
#include "sieve/barriers.h"

namespace engine::graph {

using sieve::Dependency;

// Fields of a VkBufferMemoryBarrier2 (whole buffer).
struct BufferBarrier {
    SlotId slot = sieve::kNoSlot;
    VkPipelineStageFlags2 srcStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 srcAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 dstStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 dstAccess = VK_ACCESS_2_NONE;
    bool operator==(const BufferBarrier&) const = default;
};

// Fields of a VkImageMemoryBarrier2 (one aspect, a range of mips, layer 0).
struct ImageBarrier {
    SlotId slot = sieve::kNoSlot;
    Dependency dep;
    VkImageAspectFlags aspect = 0;
    uint32_t baseMip = 0;
    uint32_t mipCount = 0;
    bool operator==(const ImageBarrier&) const = default;
};

struct Barriers {
    std::vector<BufferBarrier> buffers;
    std::vector<ImageBarrier> images;
    bool empty() const { return buffers.empty() && images.empty(); }
};

struct CompiledPass {
    uint32_t declared = 0;  // index in the builder's passes
    sieve::PassDesc desc;   // uses with VK_REMAINING_* resolved
    RecordFn record;
    Barriers before;  // issued before the pass records
};

struct CompiledSlot {
    sieve::SlotDesc desc;
    ImportDesc import;
    bool used = false;  // by a pass that survived culling; unused slots are not allocated
    // Persistent images: the layout of each mip when a frame starts (= when the previous one ended). The
    // executor puts new images in these layouts, so that frame 0 starts like every other frame.
    std::vector<VkImageLayout> entryLayouts;
};

struct CompiledGraph {
    std::vector<CompiledSlot> slots;
    std::vector<CompiledPass> passes;  // submission order
    std::vector<std::string> culled;   // names of the passes removed because nothing reads their output
    Barriers final;                    // end of frame: imported slots to their declared final state
};

// Fails with a message naming the pass and slot when a declaration conflicts.
sieve::Result<CompiledGraph> compile(const GraphBuilder& graph);

enum class Format { Text, Graphviz };
std::string dump(const CompiledGraph& graph, Format format);

}  // namespace engine::graph
