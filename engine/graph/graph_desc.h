#pragma once
// Describing a render graph: slots (buffers and images with a lifetime) and passes (resource uses as sync2
// triples plus a record callback). Host passes and sieve::Plugin passes go into the same builder and can
// share slots. Nothing here touches Vulkan; compile() turns the description into ordered passes and
// barriers.
#include <volk.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sieve/plugin.h"
#include "sieve/result.h"

namespace engine::graph {

using sieve::SlotId;

using RecordFn = std::function<void(VkCommandBuffer, const sieve::Bindings&, const sieve::FrameInfo&)>;

// A sync2 state: what touched a resource last, or what must see it next.
struct AccessState {
    VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  // images only
};

// How an imported slot enters and leaves each frame (ignored for other lifetimes).
struct ImportDesc {
    // State the host hands the resource over in. layout: what the image really is in (UNDEFINED = its
    // contents may be discarded). stage/access: the host's last access, e.g. the stage its acquire
    // semaphore waits at; NONE means the host synchronised it already, and the graph then carries its own
    // accesses of this slot over from the previous frame (same queue), as it does for transients.
    AccessState initial;
    // State the graph leaves it in at the end of the frame, e.g. {NONE, NONE, PRESENT_SRC_KHR} or
    // {HOST, HOST_READ}. layout UNDEFINED keeps the last pass's layout; stage NONE and no layout change
    // emits no barrier.
    AccessState final;
};

struct SlotInfo {
    sieve::SlotDesc desc;
    ImportDesc import;
};

struct PassInfo {
    sieve::PassDesc desc;
    RecordFn record;
};

// Shares a plugin slot with a host slot: the plugin's slot named `pluginSlot` becomes `hostSlot`.
struct SlotAlias {
    std::string pluginSlot;
    SlotId hostSlot = sieve::kNoSlot;
};

class GraphBuilder {
public:
    SlotId addSlot(sieve::SlotDesc desc, ImportDesc import = {});
    // Passes are submitted in the order they are added (unless culled).
    void addPass(sieve::PassDesc desc, RecordFn record);
    // Adds the plugin's slots (those named in `aliases` are replaced by host slots) and its passes, whose
    // record calls plugin.record(passIndex, ...) with bindings indexed by the plugin's own slot ids.
    // Returns the graph slot of each plugin slot, by plugin slot id. The plugin must outlive the graph.
    // `afterPass(p, map)` runs right after plugin pass p is added, so that the host can interleave its own
    // passes (e.g. geometry passes between the plugin's); `map` is the slot map returned at the end.
    using AfterPluginPass = std::function<void(uint32_t pass, const std::vector<SlotId>& map)>;
    sieve::Result<std::vector<SlotId>> addPlugin(sieve::Plugin& plugin, const std::vector<SlotAlias>& aliases = {},
                                                 const AfterPluginPass& afterPass = {});

    // addPlugin in two steps, for hosts that interleave the passes of two plugins: the slots (with
    // aliases) first, then each pass where the host wants it.
    sieve::Result<std::vector<SlotId>> addPluginSlots(sieve::Plugin& plugin,
                                                      const std::vector<SlotAlias>& aliases = {});
    void addPluginPass(sieve::Plugin& plugin, uint32_t pass, const std::vector<SlotId>& map);
    // Sets the import states of a slot (e.g. a plugin's imported slot that is not aliased).
    void setImport(SlotId slot, ImportDesc import) { slots_.at(slot).import = import; }
    SlotId findSlot(std::string_view name) const;  // kNoSlot if absent

    const std::vector<SlotInfo>& slots() const { return slots_; }
    const std::vector<PassInfo>& passes() const { return passes_; }

private:
    std::vector<SlotInfo> slots_;
    std::vector<PassInfo> passes_;
};

}  // namespace engine::graph
