// What a stage binds for a slot the host bound with size 0 ("the declared size", cull/stage.h range()):
// an imported table (instances, meshes, primitives: declared as their smallest valid size) is the rest
// of the host's buffer, a slot of the plugin's own is its declared size. Before (issue 22), a meshes
// table bound with size 0 was bound as one Mesh, and every instance of mesh index >= 1 disappeared.
#include <gtest/gtest.h>

#include <vector>

#include "cull/stage.h"

namespace {

using sieve::cull::SlotTable;

TEST(SlotRanges, SizeZeroIsTheWholeImportedTableButTheDeclaredSizeOfOwnSlots) {
    SlotTable slots;
    const auto meshes = slots.buffer("scene.meshes", sieve::Lifetime::Imported, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    const auto own = slots.buffer("cull.counters", sieve::Lifetime::Transient, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::vector<sieve::SlotBinding> bound(2);
    bound[meshes].buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x10));
    bound[meshes].offset = 256;
    bound[own].buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x20));
    const sieve::Bindings b{bound};
    EXPECT_EQ(sieve::cull::range(b, slots, meshes).size, VK_WHOLE_SIZE);
    EXPECT_EQ(sieve::cull::range(b, slots, meshes).offset, 256u);
    EXPECT_EQ(sieve::cull::range(b, slots, own).size, 64u);
    // A size the host gives is what is bound.
    bound[meshes].size = 4096;
    EXPECT_EQ(sieve::cull::range(b, slots, meshes).size, 4096u);
}

}  // namespace
