#pragma once
// A dispatch's descriptors declared once: each entry names a binding number (shaders/shared/*_bindings.h),
// the slot bound there and how the shader uses it. A stage derives both its pass's uses (describe()) and
// the descriptors it pushes (record()) from the same entries, so that a binding and its use cannot
// disagree.
#include <span>
#include <vector>

#include "core/stage.h"
#include "sieve/pipeline.h"

namespace sieve {

enum class Access : uint8_t {
    Uniform,       // uniform buffer, read
    Read,          // storage buffer
    Write,         // storage buffer
    ReadWrite,     // storage buffer
    Sampled,       // colour image, sampled in SHADER_READ_ONLY_OPTIMAL
    DepthSampled,  // depth image, sampled in SHADER_READ_ONLY_OPTIMAL
};

struct SlotUse {
    uint32_t binding;
    SlotId slot;
    Access access;
};

// The compute-shader uses of `table`, appended to `uses`.
void appendUses(std::vector<ResourceUse>& uses, std::span<const SlotUse> table);

// The descriptor of one entry: the slot's range (range()) as a uniform or storage buffer, or its view
// sampled through `sampler`.
Binding slotDescriptor(const SlotUse& u, const Bindings& b, const SlotTable& slots, VkSampler sampler);

// Every entry's descriptor at its binding number (N: the shader's binding count). A stage that binds a
// part of a slot (one frame's parameters, one ring record) replaces that entry's descriptor afterwards.
template <size_t N>
BindingSet<N> bindSlots(std::span<const SlotUse> table, const Bindings& b, const SlotTable& slots,
                        VkSampler sampler = VK_NULL_HANDLE) {
    BindingSet<N> set{};
    for (const SlotUse& u : table)
        if (u.binding < N) set[u.binding] = slotDescriptor(u, b, slots, sampler);
    return set;
}

}  // namespace sieve
