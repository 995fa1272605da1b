#include "engine/scene/draw_queries.h"

#include <utility>

namespace engine {

namespace {

// Early and late draw pass.
constexpr uint32_t kQueries = 2;
// The pipeline statistics counted, read back in this bit order: the clipper's counts, and input-assembly
// primitives except on the mesh path, where a pipeline-statistics query active during a mesh draw must not
// count them (VUID-vkCmdDrawMeshTasksIndirectEXT-pipelineStatistics-07076) and there is nothing to count.
constexpr VkQueryPipelineStatisticFlags kClipping =
    VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT | VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT;
constexpr VkQueryPipelineStatisticFlags kInputAssembly = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT;
constexpr uint32_t kMaxStatisticValues = 3;

sieve::Result<void> createPools(VkDevice device, VkQueryType type, VkQueryPipelineStatisticFlags statistics,
                                uint32_t count, std::vector<VkQueryPool>& pools) {
    for (uint32_t i = 0; i < count; ++i) {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = type;
        info.queryCount = kQueries;
        info.pipelineStatistics = statistics;
        VkQueryPool pool = VK_NULL_HANDLE;
        SIEVE_VK_TRY(vkCreateQueryPool(device, &info, nullptr, &pool));
        vkResetQueryPool(device, pool, 0, kQueries);
        pools.push_back(pool);
    }
    return {};
}

}  // namespace

sieve::Result<DrawQueries> DrawQueries::create(Context& ctx, uint32_t framesInFlight, bool meshPath) {
    DrawQueries q;
    q.device_ = ctx.device();
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(ctx.physical(), &features);
    // Both are optional: without them the counts stay absent.
    q.inputAssembly_ = !meshPath;
    const VkQueryPipelineStatisticFlags statistics = kClipping | (meshPath ? 0 : kInputAssembly);
    if (features.pipelineStatisticsQuery)
        if (auto r = createPools(q.device_, VK_QUERY_TYPE_PIPELINE_STATISTICS, statistics, framesInFlight, q.stats_);
            !r)
            return r.error();
    if (meshPath && ctx.meshShaderQueries())
        if (auto r = createPools(q.device_, VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT, 0, framesInFlight, q.mesh_);
            !r)
            return r.error();
    q.written_.assign(framesInFlight, false);
    return q;
}

DrawQueries& DrawQueries::operator=(DrawQueries&& o) noexcept {
    if (this == &o) return *this;
    destroy();
    device_ = std::exchange(o.device_, VK_NULL_HANDLE);
    inputAssembly_ = o.inputAssembly_;
    stats_ = std::move(o.stats_);
    mesh_ = std::move(o.mesh_);
    written_ = std::move(o.written_);
    o.stats_.clear();
    o.mesh_.clear();
    return *this;
}

DrawQueries::~DrawQueries() {
    destroy();
}

void DrawQueries::destroy() {
    for (VkQueryPool pool : stats_) vkDestroyQueryPool(device_, pool, nullptr);
    for (VkQueryPool pool : mesh_) vkDestroyQueryPool(device_, pool, nullptr);
    stats_.clear();
    mesh_.clear();
}

void DrawQueries::reset(VkCommandBuffer cmd, uint32_t slot) {
    if (slot < stats_.size()) vkCmdResetQueryPool(cmd, stats_[slot], 0, kQueries);
    if (slot < mesh_.size()) vkCmdResetQueryPool(cmd, mesh_[slot], 0, kQueries);
    if (slot < written_.size()) written_[slot] = true;
}

void DrawQueries::begin(VkCommandBuffer cmd, uint32_t slot, bool late) const {
    if (slot < stats_.size()) vkCmdBeginQuery(cmd, stats_[slot], late ? 1 : 0, 0);
    if (slot < mesh_.size()) vkCmdBeginQuery(cmd, mesh_[slot], late ? 1 : 0, 0);
}

void DrawQueries::end(VkCommandBuffer cmd, uint32_t slot, bool late) const {
    if (slot < mesh_.size()) vkCmdEndQuery(cmd, mesh_[slot], late ? 1 : 0);
    if (slot < stats_.size()) vkCmdEndQuery(cmd, stats_[slot], late ? 1 : 0);
}

DrawQueryCounts DrawQueries::read(uint32_t slot) const {
    DrawQueryCounts out;
    if (slot >= written_.size() || !written_[slot]) return out;
    if (slot < stats_.size()) {
        // Per query: [input-assembly primitives,] clipping invocations, clipping primitives.
        const uint32_t values = inputAssembly_ ? 3 : 2, first = inputAssembly_ ? 1 : 0;
        uint64_t v[kQueries * kMaxStatisticValues] = {};
        const VkResult r =
            vkGetQueryPoolResults(device_, stats_[slot], 0, kQueries, kQueries * values * sizeof(uint64_t), v,
                                  values * sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
        if (r == VK_SUCCESS) {
            if (inputAssembly_) out.inputPrimitives = v[0] + v[values];
            out.clippingInvocations = v[first] + v[values + first];
            out.clippingPrimitives = v[first + 1] + v[values + first + 1];
        }
    }
    if (slot < mesh_.size()) {
        uint64_t v[kQueries] = {};
        const VkResult r = vkGetQueryPoolResults(device_, mesh_[slot], 0, kQueries, sizeof(v), v, sizeof(uint64_t),
                                                 VK_QUERY_RESULT_64_BIT);
        if (r == VK_SUCCESS) out.meshPrimitives = v[0] + v[1];
    }
    return out;
}

}  // namespace engine
