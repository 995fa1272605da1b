#include "clusters.h"

#include <cstring>

namespace consumer {

namespace {

constexpr uint32_t kFaces = 6;  // the cube's clusters: indices 6f..6f+5 are face f (main.cpp's cube)
constexpr float kNormals[kFaces][3] = {{0, 0, -1}, {0, 0, 1}, {0, -1, 0}, {0, 1, 0}, {-1, 0, 0}, {1, 0, 0}};

// The cluster tables of the one primitive (LOD 0: six clusters) and the visibility slots of each instance.
std::unique_ptr<host::Buffer> table(const host::Device& d, const std::string& name, uint32_t instances) {
    if (name == sieve::ClusterPlugin::kClusters) {
        auto b = std::make_unique<host::Buffer>(d, sizeof(sieve::gpu::Cluster) * kFaces);
        auto* c = static_cast<sieve::gpu::Cluster*>(b->mapped());
        for (uint32_t f = 0; f < kFaces; ++f) {
            const float* n = kNormals[f];
            c[f] = {};
            c[f].sphere = {0.5f * n[0], 0.5f * n[1], 0.5f * n[2], 0.7072f};  // the face's centre and half diagonal
            c[f].cone = {n[0], n[1], n[2], 0.0f};                            // flat: every normal is the axis
            c[f].firstIndex = 6 * f;
            c[f].triangleCount = 2;
        }
        return b;
    }
    if (name == sieve::ClusterPlugin::kRanges) {
        auto b = std::make_unique<host::Buffer>(d, sizeof(sieve::gpu::ClusterRange) * sieve::gpu::SIEVE_MAX_LODS);
        std::memset(b->mapped(), 0, b->size());
        static_cast<sieve::gpu::ClusterRange*>(b->mapped())[0] = {0, kFaces, 0, 0};
        return b;
    }
    if (name == sieve::ClusterPlugin::kInstanceSlots) {
        auto b = std::make_unique<host::Buffer>(d, 4 * instances);
        for (uint32_t i = 0; i < instances; ++i) b->words()[i] = i * kFaces;
        return b;
    }
    return nullptr;
}

}  // namespace

ClusterHost::ClusterHost(const host::Device& d, const sieve::DeviceInfo& info, const sieve::CullingPlugin& cull,
                         std::span<const sieve::SlotBinding> cullBindings, std::string& error)
    : cull_(cull) {
    const uint32_t instances = cull.config().maxInstances;
    sieve::ClusterConfig config;
    config.maxInstances = instances;
    config.drawCapacity = cull.drawCapacity();
    config.maxClustersPerDraw = kFaces;
    config.visibilitySlots = kFaces * instances;
    config.framesInFlight = cull.config().framesInFlight;
    config.viewport = cull.config().viewport;
    auto created = sieve::ClusterPlugin::create(info, config);
    if (!created) {
        error = created.error().message;
        return;
    }
    plugin_ = std::move(created).value();
    bindings_.resize(plugin_->slots().size());
    for (size_t s = 0; s < bindings_.size(); ++s) {
        const sieve::SlotDesc& desc = plugin_->slots()[s];
        const sieve::SlotId shared = cull.slot(desc.name);
        if (shared != sieve::kNoSlot) {
            bindings_[s] = cullBindings[shared];
            continue;
        }
        auto own = table(d, desc.name, instances);
        const bool mapped = desc.memory != sieve::Memory::Device;
        if (!own) {
            own = std::make_unique<host::Buffer>(d, desc.size, desc.bufferUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                 mapped);
            if (mapped) std::memset(own->mapped(), 0xAB, desc.size);  // the plugin must not trust this
        }
        bindings_[s].buffer = own->handle();
        bindings_[s].size = own->size();
        bindings_[s].mapped = own->mapped();
        buffers_.push_back(std::move(own));
    }
    d.submitAndWait([&](VkCommandBuffer cmd) {  // device memory is garbage too
        for (auto& buf : buffers_)
            if (!buf->mapped()) vkCmdFillBuffer(cmd, buf->handle(), 0, VK_WHOLE_SIZE, 0xABABABABu);
    });
}

bool ClusterHost::prepare(const sieve::FrameInfo& frame, const sieve::CullingToggles& cull, const sieve::ViewDesc& view,
                          std::string& error) {
    plugin_->toggles() = {cull.frustum, true, cull.occlusion};
    if (auto r = plugin_->setView(view); !r) return error = r.error().message, false;
    if (auto r = plugin_->prepare(frame); !r) return error = r.error().message, false;
    return true;
}

bool ClusterHost::passAfter(uint32_t cullPass, uint32_t& clusterPass) const {
    using Role = sieve::CullingPlugin::PassRole;
    if (cullPass == cull_.pass(Role::EarlyStreams))
        clusterPass = sieve::ClusterPlugin::kEarly;
    else if (cullPass == cull_.pass(Role::LateStreams))
        clusterPass = sieve::ClusterPlugin::kLate;
    else if (cullPass == cull_.pass(Role::Stats))
        clusterPass = sieve::ClusterPlugin::kStats;
    else
        return false;
    return true;
}

std::vector<std::pair<sieve::SlotId, VkImageLayout>> ClusterHost::images(uint32_t clusterPass) const {
    std::vector<std::pair<sieve::SlotId, VkImageLayout>> out;
    for (const sieve::ResourceUse& u : plugin_->passes()[clusterPass].uses)
        if (plugin_->slots()[u.slot].kind == sieve::SlotKind::Image)
            out.emplace_back(cull_.slot(plugin_->slots()[u.slot].name), u.layout);
    return out;
}

bool ClusterHost::record(uint32_t clusterPass, VkCommandBuffer cmd, const sieve::FrameInfo& frame, std::string& error) {
    if (auto r = plugin_->record(clusterPass, cmd, sieve::Bindings{bindings_}, frame); !r)
        return error = r.error().message, false;
    return true;
}

sieve::BufferRange ClusterHost::draws(bool late) const {
    const auto& b = bindings_[plugin_->slot(late ? sieve::ClusterPlugin::kClusterDrawsLate
                                                 : sieve::ClusterPlugin::kClusterDrawsEarly)];
    return {b.buffer, 0, VK_WHOLE_SIZE};
}

sieve::BufferRange ClusterHost::counts(bool late) const {
    const auto& b = bindings_[plugin_->slot(late ? sieve::ClusterPlugin::kClusterCountsLate
                                                 : sieve::ClusterPlugin::kClusterCountsEarly)];
    return {b.buffer, 0, VK_WHOLE_SIZE};
}

}  // namespace consumer
