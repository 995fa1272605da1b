#pragma once
// The stage model both plugins are built from: a plugin is an ordered list of stages, one per pass, each
// in one file with its shaders. A stage declares the slots it owns (SlotTable), then its pass (name, uses)
// beside its record(), so that adding a stage touches its own file and one line of the plugin's list.
// What a stage reads besides its slots is the plugin's: a kit (device, configuration, objects several
// stages share: StageCache) and the frame state prepare() decided; each plugin names its own
// (cull/stage.h, cluster/cluster_stage.h).
#include <memory>
#include <span>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "sieve/plugin.h"

namespace sieve {

// The plugin's slots, found by name. Stages declare the slots they own and look up those of others.
class SlotTable {
public:
    SlotId buffer(std::string name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage,
                  Memory memory = Memory::Device);
    SlotId image(std::string name, Lifetime life, VkFormat format, VkExtent2D extent, uint32_t mips,
                 VkImageUsageFlags usage, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT);
    // kNoSlot when absent.
    SlotId find(std::string_view name) const;
    // A slot another stage must have declared (a programming error of the plugin otherwise: reported by
    // describeStages).
    SlotId require(std::string_view name);
    const SlotDesc& operator[](SlotId s) const { return descs_[s]; }
    std::span<const SlotDesc> descs() const { return descs_; }
    const std::string& missing() const { return missing_; }
    void clear() {
        descs_.clear();
        missing_.clear();
    }

private:
    std::vector<SlotDesc> descs_;
    std::string missing_;
};

// Objects several stages of one plugin share (pipelines, builders): one T per plugin, made by `make`
// (returning Result<T>) on the first request. A plugin's kit derives from it.
class StageCache {
public:
    template <typename T, typename Make>
    Result<T*> shared(Make make) {
        auto it = shared_.find(std::type_index(typeid(T)));
        if (it != shared_.end()) return static_cast<T*>(it->second.get());
        auto made = make();
        if (!made) return made.error();
        auto owned = std::shared_ptr<void>(new T(std::move(made).value()), [](void* p) { delete static_cast<T*>(p); });
        T* raw = static_cast<T*>(owned.get());
        shared_.emplace(std::type_index(typeid(T)), std::move(owned));
        return raw;
    }

private:
    std::unordered_map<std::type_index, std::shared_ptr<void>> shared_;
};

// One pass of a plugin. Kit: what the plugin gives every stage at creation (derived from StageCache);
// Frame: what prepare() decided for the frame, the same for every stage.
template <typename Kit, typename Frame>
class Stage {
public:
    virtual ~Stage() = default;
    // Compiles what the stage records (through kit.shared for what other stages use too).
    virtual Result<void> create(Kit& kit) = 0;
    // Declares the slots this stage owns; called for every stage, in order, before describe().
    virtual void declare(SlotTable& slots, const Kit& kit) = 0;
    // The stage's pass: its name and every use of every slot any of its recordings binds.
    virtual PassDesc describe(SlotTable& slots) = 0;
    virtual Result<void> record(VkCommandBuffer cmd, const Bindings& b, const Frame& frame) = 0;
};

template <typename Kit, typename Frame>
using StageList = std::vector<std::unique_ptr<Stage<Kit, Frame>>>;

template <typename Kit, typename Frame>
Result<void> createStages(const StageList<Kit, Frame>& stages, Kit& kit) {
    for (auto& s : stages)
        if (auto r = s->create(kit); !r) return r;
    return {};
}

// The passes of `stages` (pass i: stage i) over the slots already in `slots` (the plugin's imported
// ones) and those the stages declare; an error names the slots a stage requires and none declares.
template <typename Kit, typename Frame>
Result<void> describeStages(const StageList<Kit, Frame>& stages, const Kit& kit, SlotTable& slots,
                            std::vector<PassDesc>& passes) {
    passes.clear();
    for (auto& s : stages) s->declare(slots, kit);
    for (auto& s : stages) passes.push_back(s->describe(slots));
    if (!slots.missing().empty())
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "stages use undeclared slots: " + slots.missing());
    return {};
}

// The range a stage binds for slot s: the host's size, or where it gave 0 ("the declared size") the
// declared size; for an imported table (instances, meshes, primitives: declared as their smallest valid
// size) 0 means the rest of the buffer, which is what a host binding a whole table means.
inline BufferRange range(const Bindings& b, const SlotTable& slots, SlotId s) {
    if (b[s].size) return {b[s].buffer, b[s].offset, b[s].size};
    return {b[s].buffer, b[s].offset, slots[s].lifetime == Lifetime::Imported ? VK_WHOLE_SIZE : slots[s].size};
}

}  // namespace sieve
