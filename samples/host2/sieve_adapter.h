#pragma once
// addSievePlugin: puts a sieve::Plugin into a host2 FrameGraph.
//   - Each plugin slot becomes a graph handle: imported slots are the host's handles (looked up by slot
//     name in SieveImports), transient and persistent slots become the graph's own transient and
//     persistent resources with the declared size, usage and memory.
//   - Each plugin pass becomes a graph pass. Its declared sync2 uses are translated into the graph's
//     Usage values (translateUse), as reads and writes of the slots' handles; execute calls
//     plugin.record() with the physical resources bound by plugin slot id.
//   - after(pass, slots) runs right after plugin pass `pass` is added: the host adds its own passes there
//     (geometry passes after the culling plugin's compact passes). A host pass that writes a plugin slot
//     (the depth attachment) stores the new version back into `slots`, so that the plugin passes added
//     later (Hi-Z) read what the host wrote.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "frame_graph.h"
#include "sieve/plugin.h"

namespace host2 {

// The current handle of every plugin slot, by plugin slot id (the other vector's entry is invalid).
struct SieveSlots {
    std::vector<BufferHandle> buffers;
    std::vector<ImageHandle> images;
};

// The host's handles for the plugin's imported slots, by slot name.
struct SieveImports {
    std::map<std::string, BufferHandle, std::less<>> buffers;
    std::map<std::string, ImageHandle, std::less<>> images;
};

using AfterSievePass = std::function<void(uint32_t pass, SieveSlots& slots)>;

// The Usage values that together cover one declared use: every usage whose stage, access and layout
// overlap the use; together they must include all of its stages and accesses (never weaker barriers than
// declared). An error names the use if they do not.
sieve::Result<std::vector<Usage>> translateUse(const sieve::ResourceUse& use, bool image);

// The plugin must outlive the frame graph's execute(). Returns the final handle of every slot.
sieve::Result<SieveSlots> addSievePlugin(FrameGraph& fg, sieve::Plugin& plugin, const SieveImports& imports,
                                         const AfterSievePass& after = {});

}  // namespace host2
