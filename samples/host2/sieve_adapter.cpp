#include "sieve_adapter.h"

#include <algorithm>
#include <cstdio>

namespace host2 {

namespace {

sieve::Error adapterError(const std::string& message) {
    return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "addSievePlugin: " + message);
}

engine::MemoryUsage memoryOf(sieve::Memory m) {
    switch (m) {
        case sieve::Memory::Upload: return engine::MemoryUsage::Upload;
        case sieve::Memory::Readback: return engine::MemoryUsage::Readback;
        case sieve::Memory::Device: break;
    }
    return engine::MemoryUsage::DeviceLocal;
}

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

struct SlotUsages {
    sieve::SlotId slot;
    std::vector<Usage> usages;
};

}  // namespace

sieve::Result<std::vector<Usage>> translateUse(const sieve::ResourceUse& use, bool image) {
    std::vector<Usage> out;
    VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    bool writes = false;
    for (uint32_t i = 0; i < uint32_t(Usage::Count); ++i) {
        const Access a = lower(Usage(i));
        if (a.image != image || !(a.stage & use.stage) || !(a.access & use.access)) continue;
        if (image && a.layout != use.layout) continue;
        if (a.write && !use.write) continue;  // a read stays a read (no new version)
        out.push_back(Usage(i));
        stages |= a.stage;
        access |= a.access;
        writes = writes || a.write;
    }
    if (out.empty() || (use.stage & ~stages) || (use.access & ~access) || writes != use.write)
        return adapterError("no combination of host2 usages covers the use of slot " + std::to_string(use.slot) +
                            " (stage " + hex(use.stage) + ", access " + hex(use.access) + ", layout " +
                            std::to_string(use.layout) + (use.write ? ", write)" : ", read)"));
    return out;
}

sieve::Result<SieveSlots> addSievePlugin(FrameGraph& fg, sieve::Plugin& plugin, const SieveImports& imports,
                                         const AfterSievePass& after) {
    const auto slots = plugin.slots();
    const auto passes = plugin.passes();
    SieveSlots s;
    s.buffers.resize(slots.size());
    s.images.resize(slots.size());
    for (size_t id = 0; id < slots.size(); ++id) {
        const sieve::SlotDesc& d = slots[id];
        const bool image = d.kind == sieve::SlotKind::Image;
        if (d.lifetime == sieve::Lifetime::Imported) {
            if (image) {
                auto it = imports.images.find(d.name);
                if (it == imports.images.end()) return adapterError("imported image slot '" + d.name + "' not given");
                s.images[id] = it->second;
            } else {
                auto it = imports.buffers.find(d.name);
                if (it == imports.buffers.end()) return adapterError("imported buffer slot '" + d.name + "' not given");
                s.buffers[id] = it->second;
            }
            continue;
        }
        const bool persistent = d.lifetime == sieve::Lifetime::Persistent;
        if (image) {
            const ImageDesc desc{d.format, d.extent, d.mipLevels, d.imageUsage};
            s.images[id] = persistent ? fg.persistentImage(d.name, desc) : fg.createImage(d.name, desc);
        } else {
            const BufferDesc desc{d.size, d.bufferUsage, memoryOf(d.memory)};
            s.buffers[id] = persistent ? fg.persistentBuffer(d.name, desc) : fg.createBuffer(d.name, desc);
        }
    }
    // Translate every pass before adding any, so that an error leaves no half-added plugin behind.
    std::vector<std::vector<SlotUsages>> uses(passes.size());
    for (size_t p = 0; p < passes.size(); ++p) {
        if (passes[p].graphics)
            return adapterError("pass '" + passes[p].name +
                                "' records inside a rendering scope; host2 opens "
                                "rendering scopes only in its own passes");
        for (const sieve::ResourceUse& use : passes[p].uses) {
            if (use.slot >= slots.size())
                return adapterError("pass '" + passes[p].name + "' uses slot " + std::to_string(use.slot));
            auto usages = translateUse(use, slots[use.slot].kind == sieve::SlotKind::Image);
            if (!usages)
                return adapterError("pass '" + passes[p].name + "', slot '" + slots[use.slot].name +
                                    "': " + usages.error().message);
            auto it = std::find_if(uses[p].begin(), uses[p].end(), [&](auto& x) { return x.slot == use.slot; });
            if (it == uses[p].end()) it = uses[p].insert(uses[p].end(), {use.slot, {}});
            for (Usage u : usages.value())
                if (std::find(it->usages.begin(), it->usages.end(), u) == it->usages.end()) it->usages.push_back(u);
        }
    }
    struct Data {
        SieveSlots slots;  // any version binds the same physical resource
    };
    for (uint32_t p = 0; p < passes.size(); ++p) {
        fg.addPass<Data>(
            passes[p].name,
            [&](Builder& b, Data& d) {
                for (const SlotUsages& su : uses[p]) {
                    // Reads first: a read-write use reads the current version and writes the next.
                    for (Usage u : su.usages) {
                        if (lower(u).write) continue;
                        if (s.images[su.slot].valid())
                            b.read(s.images[su.slot], u);
                        else
                            b.read(s.buffers[su.slot], u);
                    }
                    for (Usage u : su.usages) {
                        if (!lower(u).write) continue;
                        if (s.images[su.slot].valid())
                            s.images[su.slot] = b.write(s.images[su.slot], u);
                        else
                            s.buffers[su.slot] = b.write(s.buffers[su.slot], u);
                    }
                }
                if (passes[p].sideEffect) b.sideEffect();
                d.slots = s;
            },
            [plugin = &plugin, p](const Data& d, Context& c) {
                std::vector<sieve::SlotBinding> bindings(d.slots.buffers.size());
                for (size_t i = 0; i < bindings.size(); ++i)
                    bindings[i] =
                        d.slots.images[i].valid() ? c.binding(d.slots.images[i]) : c.binding(d.slots.buffers[i]);
                // A failing pass records nothing; the error stays in plugin->lastError(), which the
                // renderer reports after the frame.
                if (auto r = plugin->record(p, c.cmd(), sieve::Bindings{bindings}, c.frame()); !r) return;
            });
        if (after) after(p, s);
    }
    return s;
}

}  // namespace host2
