#pragma once
// host2's frame graph: a small Frostbite-style graph, built anew every frame and shaped unlike engine/graph.
//   - Passes are added with a setup lambda, which declares what the pass reads and writes through a
//     Builder, and an execute lambda, which records it. Setup fills a per-pass Data struct that execute
//     receives (execute is created before setup runs, so it cannot capture the handles setup produces).
//   - Resources are opaque typed handles (BufferHandle, ImageHandle). Writing a handle returns a new
//     version of it; a pass that reads a version depends on the pass that wrote it, and the next write
//     waits for every reader of the previous version.
//   - compile() culls the passes whose results nothing uses (a pass is a root if it has a side effect or
//     writes an imported or persistent resource), orders the rest by their dependencies (ties: the order
//     of addPass), and takes the transient and persistent resources from a ResourceCache.
//   - execute() records each pass behind one vkCmdPipelineBarrier2 of whole-resource barriers derived from
//     the graph's own Usage enum (no subresource tracking: simple and conservative).
#include <volk.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/vk/resources.h"
#include "engine/vk/timestamps.h"
#include "sieve/barriers.h"
#include "sieve/plugin.h"
#include "sieve/result.h"

namespace engine {
class Context;
}

namespace host2 {

// What a pass does with a resource. Each value lowers to one sync2 {stage, access, layout} (lower()).
enum class Usage : uint8_t {
    IndirectArgs,         // draw/dispatch indirect arguments and counts
    VertexInput,          // vertex and index buffers
    UniformCompute,       // uniform buffer in a compute shader
    StorageReadCompute,   // storage buffer read in a compute shader
    StorageWriteCompute,  // storage buffer written in a compute shader
    StorageReadVertex,    // storage buffer read in a vertex shader
    SampledCompute,       // image sampled in a compute shader (SHADER_READ_ONLY_OPTIMAL)
    StorageImageCompute,  // storage image read/written in a compute shader (GENERAL)
    ColorAttachment,      // colour attachment, loaded/cleared and stored
    DepthAttachment,      // depth attachment, tested and written
    TransferSrc,          // copy source
    TransferDst,          // copy or fill destination
    Count,
};

struct Access {
    VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  // images only
    bool write = false;
    bool image = false;  // the usage applies to images (else to buffers)
};
Access lower(Usage u);
const char* usageName(Usage u);

// Typed, versioned handles. Only a Builder makes new versions.
template <typename Tag>
struct Handle {
    uint32_t node = UINT32_MAX;
    bool valid() const { return node != UINT32_MAX; }
    bool operator==(const Handle&) const = default;
};
using BufferHandle = Handle<struct BufferTag>;
using ImageHandle = Handle<struct ImageTag>;

struct BufferDesc {
    VkDeviceSize size = 0;
    VkBufferUsageFlags usage = 0;
    engine::MemoryUsage memory = engine::MemoryUsage::DeviceLocal;  // Upload/Readback stay mapped
    bool operator==(const BufferDesc&) const = default;
};

struct ImageDesc {
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{0, 0};
    uint32_t mipLevels = 1;
    VkImageUsageFlags usage = 0;
    bool operator==(const ImageDesc& o) const {
        return format == o.format && extent.width == o.extent.width && extent.height == o.extent.height &&
               mipLevels == o.mipLevels && usage == o.usage;
    }
};

// The barrier state of one physical resource. It lives as long as the resource, so accesses of the
// previous frame (same queue) are waited for like those of earlier passes.
struct TrackedState {
    VkPipelineStageFlags2 writeStage = VK_PIPELINE_STAGE_2_NONE;  // last write (or layout transition)
    VkAccessFlags2 writeAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 readStages = VK_PIPELINE_STAGE_2_NONE;            // reads since then: the next write waits
    std::vector<std::pair<VkPipelineStageFlags2, VkAccessFlags2>> visible;  // made visible since the write
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
};

// One barrier to record before a pass (whole resource).
using Transition = sieve::Dependency;
// Advances `state` by the access `a` of one pass; returns true and fills `out` if a barrier is needed.
bool transition(TrackedState& state, const Access& a, Transition& out);

// A resource the graph binds: imported ones belong to the host (which keeps the state across frames),
// cached ones to the ResourceCache.
struct PhysicalResource {
    sieve::SlotBinding binding;
    VkImageAspectFlags aspect = 0;  // images only
    uint32_t mipLevels = 1;
    TrackedState state;
};

// Transient and persistent resources that outlive one frame's graph. Transients are matched by
// description (the same pass set gets the same objects every frame); persistent ones by name, zeroed
// once (device memory by a fill or clear at the start of the first frame, host-visible memory by memset).
// A persistent resource whose description changes is recreated: the host must have waited for the GPU.
class ResourceCache {
public:
    explicit ResourceCache(engine::Context& ctx) : ctx_(ctx) {}
    // The physical resource a cached resource was given last under this name (null if none).
    const PhysicalResource* find(std::string_view name) const;

private:
    friend class FrameGraph;
    struct Entry {
        std::string name;  // persistent: the key; transient: the last user
        bool persistent = false;
        bool image = false;
        BufferDesc bufferDesc;
        ImageDesc imageDesc;
        engine::Buffer buffer;
        engine::Image imageRes;
        PhysicalResource phys;
        bool needsClear = false;  // device-memory persistent resource not zeroed yet
        uint64_t epoch = 0;       // graph that took it last
    };
    sieve::Result<Entry*> acquire(const std::string& name, bool persistent, bool image, const BufferDesc& bd,
                                  const ImageDesc& id);
    sieve::Result<void> create(Entry& e);

    engine::Context& ctx_;
    std::vector<std::unique_ptr<Entry>> entries_;
    uint64_t epoch_ = 0;
};

// What an execute lambda sees.
class Context {
public:
    VkCommandBuffer cmd() const { return cmd_; }
    const sieve::FrameInfo& frame() const { return frame_; }
    const sieve::SlotBinding& binding(BufferHandle h) const { return bindingOf(h.node); }
    const sieve::SlotBinding& binding(ImageHandle h) const { return bindingOf(h.node); }

private:
    friend class FrameGraph;
    Context(VkCommandBuffer cmd, const sieve::FrameInfo& frame, const class FrameGraph& fg)
        : cmd_(cmd), frame_(frame), fg_(fg) {}
    const sieve::SlotBinding& bindingOf(uint32_t node) const;
    VkCommandBuffer cmd_;
    const sieve::FrameInfo& frame_;
    const FrameGraph& fg_;
};

class FrameGraph;

// What a setup lambda declares with.
class Builder {
public:
    BufferHandle read(BufferHandle h, Usage u) { return {read(h.node, u, false)}; }
    ImageHandle read(ImageHandle h, Usage u) { return {read(h.node, u, true)}; }
    // Returns the new version (a second write in the same pass keeps it).
    BufferHandle write(BufferHandle h, Usage u) { return {write(h.node, u, false)}; }
    ImageHandle write(ImageHandle h, Usage u) { return {write(h.node, u, true)}; }
    // Keep the pass even if nothing reads what it writes (e.g. it copies to a readback buffer).
    void sideEffect();

private:
    friend class FrameGraph;
    Builder(FrameGraph& fg, uint32_t pass) : fg_(fg), pass_(pass) {}
    uint32_t read(uint32_t node, Usage u, bool image);
    uint32_t write(uint32_t node, Usage u, bool image);
    FrameGraph& fg_;
    uint32_t pass_;
};

class FrameGraph {
public:
    explicit FrameGraph(ResourceCache& cache) : cache_(cache) {}

    BufferHandle createBuffer(std::string name, const BufferDesc& desc);  // transient
    ImageHandle createImage(std::string name, const ImageDesc& desc);
    BufferHandle persistentBuffer(std::string name, const BufferDesc& desc);  // kept across frames
    ImageHandle persistentImage(std::string name, const ImageDesc& desc);
    // The host's own resources; `r` (and its state) must outlive execute().
    BufferHandle importBuffer(std::string name, PhysicalResource& r);
    ImageHandle importImage(std::string name, PhysicalResource& r);

    template <typename Data, typename Setup, typename Execute>
    void addPass(std::string name, Setup&& setup, Execute&& execute) {
        auto data = std::make_shared<Data>();
        const uint32_t index = newPass(std::move(name));
        Builder b(*this, index);
        setup(b, *data);
        passes_[index].execute = [data, fn = std::forward<Execute>(execute)](Context& c) { fn(*data, c); };
    }

    // Culls, orders, takes physical resources from the cache. Errors: a handle misused in setup, writing a
    // version that was already superseded, conflicting image layouts within a pass, a dependency cycle.
    sieve::Result<void> compile();
    // Zeroes new persistent resources, then records the passes with their barriers. With a timer, each pass
    // (its barriers included) is a scope of the timer's slot frame.frameSlot.
    sieve::Result<void> execute(VkCommandBuffer cmd, const sieve::FrameInfo& frame,
                                engine::GpuTimestamps* timer = nullptr);

    // After compile(): the passes that run, in order.
    std::vector<std::string> order() const;
    // After compile(): the physical resource behind a handle (null for one that no kept pass uses).
    const PhysicalResource* physical(BufferHandle h) const { return physicalOf(h.node); }
    const PhysicalResource* physical(ImageHandle h) const { return physicalOf(h.node); }

private:
    friend class Builder;
    friend class Context;
    enum class Lifetime : uint8_t { Transient, Persistent, Imported };
    struct Resource {
        std::string name;
        Lifetime lifetime = Lifetime::Transient;
        bool image = false;
        BufferDesc bufferDesc;
        ImageDesc imageDesc;
        PhysicalResource* phys = nullptr;  // imported: the host's; else set by compile()
        uint32_t latest = 0;               // node of the newest version
    };
    struct Node {  // one version of a resource
        uint32_t resource = 0;
        uint32_t writer = UINT32_MAX;
        std::vector<uint32_t> readers;
        uint32_t next = UINT32_MAX;  // the version that superseded this one
    };
    struct Use {
        uint32_t resource;
        Usage usage;
    };
    struct Pass {
        std::string name;
        std::vector<Use> uses;
        std::vector<uint32_t> reads;  // versions read (written by other passes)
        std::vector<uint32_t> after;  // passes this one depends on
        bool sideEffect = false;
        bool writesExternal = false;  // writes an imported or persistent resource: a root
        std::function<void(Context&)> execute;
        std::vector<std::pair<uint32_t, Access>> merged;  // compile(): one access per resource
    };
    uint32_t newResource(Resource r);
    uint32_t newPass(std::string name);
    void fail(std::string message);
    const PhysicalResource* physicalOf(uint32_t node) const;
    void recordClears(VkCommandBuffer cmd);

    ResourceCache& cache_;
    std::vector<Resource> resources_;
    std::vector<Node> nodes_;
    std::vector<Pass> passes_;
    std::vector<uint32_t> order_;
    std::vector<ResourceCache::Entry*> toClear_;
    std::string error_;  // first setup error
    bool compiled_ = false;
};

}  // namespace host2
