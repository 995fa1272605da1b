#include "core/slot_uses.h"

namespace sieve {

void appendUses(std::vector<ResourceUse>& uses, std::span<const SlotUse> table) {
    for (const SlotUse& u : table) {
        switch (u.access) {
            case Access::Uniform: uses.push_back(use::uniformRead(u.slot)); break;
            case Access::Read: uses.push_back(use::storageRead(u.slot)); break;
            case Access::Write: uses.push_back(use::storageWrite(u.slot)); break;
            case Access::ReadWrite: uses.push_back(use::storageReadWrite(u.slot)); break;
            case Access::Sampled: uses.push_back(use::sampledImage(u.slot)); break;
            case Access::DepthSampled: uses.push_back(use::depthSampled(u.slot)); break;
        }
    }
}

Binding slotDescriptor(const SlotUse& u, const Bindings& b, const SlotTable& slots, VkSampler sampler) {
    switch (u.access) {
        case Access::Uniform: return Binding::uniform(range(b, slots, u.slot));
        case Access::Sampled:
        case Access::DepthSampled:
            return Binding::sampled(b[u.slot].view, sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        default: return Binding::storage(range(b, slots, u.slot));
    }
}

}  // namespace sieve
