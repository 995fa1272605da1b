#pragma once
// Helpers shared by the render-graph unit tests: readable failure output for barriers, and a check that
// the layouts the barriers claim to transition from are the layouts the images are really in.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "engine/graph/compile.h"
#include "engine/graph/names.h"

namespace engine::graph {

inline void PrintTo(const BufferBarrier& b, std::ostream* os) {
    *os << "{slot " << b.slot << ", " << stageNames(b.srcStage) << "/" << accessNames(b.srcAccess) << " -> "
        << stageNames(b.dstStage) << "/" << accessNames(b.dstAccess) << "}";
}
inline void PrintTo(const ImageBarrier& b, std::ostream* os) {
    *os << "{slot " << b.slot << " mips [" << b.baseMip << "," << b.baseMip + b.mipCount << ") aspect " << b.aspect
        << ", " << stageNames(b.dep.srcStage) << "/" << accessNames(b.dep.srcAccess) << " -> "
        << stageNames(b.dep.dstStage) << "/" << accessNames(b.dep.dstAccess) << ", " << layoutName(b.dep.oldLayout)
        << " -> " << layoutName(b.dep.newLayout) << "}";
}

}  // namespace engine::graph

namespace graph_test {

// The names every graph test uses (`using namespace graph_test;`).
using namespace engine::graph;
using sieve::Lifetime;
namespace use = sieve::use;

// Replays `frames` frames of layouts: persistent images start in their entry layouts, imported ones in
// their initial layout, transients UNDEFINED. Every barrier must transition from the current layout (or
// from UNDEFINED, which discards), and every use must find its image in its declared layout.
inline void expectLayoutsConsistent(const engine::graph::CompiledGraph& g, int frames) {
    using namespace engine::graph;
    std::vector<std::vector<VkImageLayout>> layout(g.slots.size());
    for (size_t s = 0; s < g.slots.size(); ++s)
        if (g.slots[s].desc.kind == sieve::SlotKind::Image)
            layout[s] = g.slots[s].desc.lifetime == sieve::Lifetime::Persistent
                            ? g.slots[s].entryLayouts
                            : std::vector<VkImageLayout>(g.slots[s].desc.mipLevels, VK_IMAGE_LAYOUT_UNDEFINED);
    auto apply = [&](const Barriers& b, const std::string& where) {
        for (const ImageBarrier& x : b.images)
            for (uint32_t m = x.baseMip; m < x.baseMip + x.mipCount; ++m) {
                if (x.dep.oldLayout != VK_IMAGE_LAYOUT_UNDEFINED) {
                    EXPECT_EQ(x.dep.oldLayout, layout[x.slot][m]) << where << ": slot " << x.slot << " mip " << m;
                }
                layout[x.slot][m] = x.dep.newLayout;
            }
    };
    for (int f = 0; f < frames; ++f) {
        for (size_t s = 0; s < g.slots.size(); ++s)
            if (g.slots[s].desc.lifetime == sieve::Lifetime::Imported && !layout[s].empty())
                layout[s].assign(layout[s].size(), g.slots[s].import.initial.layout);
        for (const CompiledPass& p : g.passes) {
            apply(p.before, "before " + p.desc.name);
            for (const sieve::ResourceUse& u : p.desc.uses) {
                if (g.slots[u.slot].desc.kind != sieve::SlotKind::Image) continue;
                for (uint32_t m = u.range.baseMipLevel; m < u.range.baseMipLevel + u.range.levelCount; ++m) {
                    EXPECT_EQ(u.layout, layout[u.slot][m]) << "frame " << f << ", pass " << p.desc.name;
                }
            }
        }
        apply(g.final, "end of frame");
        for (size_t s = 0; s < g.slots.size(); ++s) {
            if (g.slots[s].desc.lifetime == sieve::Lifetime::Persistent && !layout[s].empty()) {
                EXPECT_EQ(layout[s], g.slots[s].entryLayouts) << "persistent slot " << s << " after frame " << f;
            }
        }
    }
}

inline engine::graph::RecordFn noRecord() {
    return [](VkCommandBuffer, const sieve::Bindings&, const sieve::FrameInfo&) {};
}

inline sieve::SlotDesc buffer(const char* name, sieve::Lifetime life, VkDeviceSize size = 256,
                              VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) {
    return sieve::bufferSlot(name, life, size, usage);
}

inline sieve::SlotDesc image(const char* name, sieve::Lifetime life, VkFormat format, uint32_t mips = 1,
                             VkExtent2D extent = {64, 32},
                             VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT) {
    return sieve::imageSlot(name, life, format, extent, mips, usage);
}

}  // namespace graph_test
