#pragma once
// The cluster plugin in the consumer's frame, from the installed package: the cube split into its six faces
// (one cluster each, with the face's cone), the plugin's slots bound beside the culling plugin's (shared
// by name, the rest allocated from the plugin's description as garbage), its passes after the culling
// plugin's stream and stats passes, and the cluster lists drawn instead of the draw lists.
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "host.h"
#include "sieve/sieve.h"

namespace consumer {

class ClusterHost {
public:
    // `cullBindings`: the culling plugin's bindings, by its slots. `error` says why when it fails.
    ClusterHost(const host::Device& d, const sieve::DeviceInfo& info, const sieve::CullingPlugin& cull,
                std::span<const sieve::SlotBinding> cullBindings, std::string& error);
    // The culling plugin's view and switches (the cone test on), then prepare().
    bool prepare(const sieve::FrameInfo& frame, const sieve::CullingToggles& cull, const sieve::ViewDesc& view,
                 std::string& error);
    // The cluster pass that follows the culling plugin's pass `cullPass` (none: false).
    bool passAfter(uint32_t cullPass, uint32_t& clusterPass) const;
    // The culling plugin's image slots that cluster pass samples, with the layout it needs.
    std::vector<std::pair<sieve::SlotId, VkImageLayout>> images(uint32_t clusterPass) const;
    bool record(uint32_t clusterPass, VkCommandBuffer cmd, const sieve::FrameInfo& frame, std::string& error);
    // The cluster list of a phase, for the geometry pass.
    sieve::BufferRange draws(bool late) const;
    sieve::BufferRange counts(bool late) const;
    uint32_t capacity() const { return plugin_->outputCapacity(); }
    const sieve::ClusterStats& stats() const { return plugin_->stats(); }

private:
    const sieve::CullingPlugin& cull_;
    std::unique_ptr<sieve::ClusterPlugin> plugin_;
    std::vector<std::unique_ptr<host::Buffer>> buffers_;
    std::vector<sieve::SlotBinding> bindings_;
};

}  // namespace consumer
