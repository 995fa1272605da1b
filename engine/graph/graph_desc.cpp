#include "engine/graph/graph_desc.h"

#include <memory>

namespace engine::graph {

SlotId GraphBuilder::addSlot(sieve::SlotDesc desc, ImportDesc import) {
    slots_.push_back({std::move(desc), import});
    return static_cast<SlotId>(slots_.size() - 1);
}

void GraphBuilder::addPass(sieve::PassDesc desc, RecordFn record) {
    passes_.push_back({std::move(desc), std::move(record)});
}

SlotId GraphBuilder::findSlot(std::string_view name) const {
    for (size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].desc.name == name) return static_cast<SlotId>(i);
    return sieve::kNoSlot;
}

sieve::Result<std::vector<SlotId>> GraphBuilder::addPluginSlots(sieve::Plugin& plugin,
                                                                const std::vector<SlotAlias>& aliases) {
    auto pluginSlots = plugin.slots();
    std::vector<SlotId> map(pluginSlots.size(), sieve::kNoSlot);
    for (const SlotAlias& a : aliases) {
        size_t i = 0;
        while (i < pluginSlots.size() && pluginSlots[i].name != a.pluginSlot) ++i;
        if (i == pluginSlots.size())
            return sieve::makeError(VK_ERROR_VALIDATION_FAILED_EXT,
                                    "alias: the plugin has no slot named '" + a.pluginSlot + "'");
        if (a.hostSlot >= slots_.size())
            return sieve::makeError(VK_ERROR_VALIDATION_FAILED_EXT,
                                    "alias of plugin slot '" + a.pluginSlot + "': host slot out of range");
        if (slots_[a.hostSlot].desc.kind != pluginSlots[i].kind)
            return sieve::makeError(VK_ERROR_VALIDATION_FAILED_EXT,
                                    "alias of plugin slot '" + a.pluginSlot + "' to host slot '" +
                                        slots_[a.hostSlot].desc.name + "': one is a buffer, the other an image");
        map[i] = a.hostSlot;
    }
    for (size_t i = 0; i < pluginSlots.size(); ++i)
        if (map[i] == sieve::kNoSlot) map[i] = addSlot(pluginSlots[i]);
    return map;
}

void GraphBuilder::addPluginPass(sieve::Plugin& plugin, uint32_t p, const std::vector<SlotId>& map) {
    // The plugin indexes bindings by its own slot ids: each record call gathers them from the graph's.
    auto local = std::make_shared<std::vector<sieve::SlotBinding>>(map.size());
    sieve::PassDesc desc = plugin.passes()[p];
    for (sieve::ResourceUse& u : desc.uses) u.slot = u.slot < map.size() ? map[u.slot] : sieve::kNoSlot;
    addPass(std::move(desc), [&plugin, p, map, local](VkCommandBuffer cmd, const sieve::Bindings& graphBindings,
                                                      const sieve::FrameInfo& frame) {
        for (size_t i = 0; i < map.size(); ++i) (*local)[i] = graphBindings[map[i]];
        // A failing pass records nothing; its error stays in plugin.lastError() for the host to report
        // after the frame (the graph's callbacks do not return results).
        if (auto r = plugin.record(p, cmd, sieve::Bindings{*local}, frame); !r) return;
    });
}

sieve::Result<std::vector<SlotId>> GraphBuilder::addPlugin(sieve::Plugin& plugin, const std::vector<SlotAlias>& aliases,
                                                           const AfterPluginPass& afterPass) {
    auto map = addPluginSlots(plugin, aliases);
    if (!map) return map.error();
    for (uint32_t p = 0; p < plugin.passes().size(); ++p) {
        addPluginPass(plugin, p, map.value());
        if (afterPass) afterPass(p, map.value());
    }
    return map;
}

}  // namespace engine::graph
