#pragma once
// The default geometry pass's mesh-shader path (VK_EXT_mesh_shader): draws a cluster list of the cluster
// plugin (sieve/cluster.h) with one mesh workgroup per record, vkCmdDrawMeshTasksIndirectEXT on the list's
// task command. Same shading, depth test and face culling as GeometryPass, and the same picture.
// Recorded inside the host's vkCmdBeginRendering scope (or recordWithRendering).
#include <vulkan/vulkan.h>

#include <memory>

#include "sieve/device.h"
#include "sieve/geometry_pass.h"
#include "sieve/plugin.h"
#include "sieve/result.h"

namespace sieve {

struct ClusterMeshInputs {
    BufferRange vertices;                  // shared/scene.h Vertex, read as a storage buffer
    BufferRange instances;                 // shared/scene.h Instance
    BufferRange draws;                     // the cluster list: shared/draw.h DrawCommand
    BufferRange ids;                       // cluster index of each record
    BufferRange counts;                    // the list's DrawCounts
    BufferRange tasks;                     // the list's VkDrawMeshTasksIndirectCommandEXT
    BufferRange clusters;                  // shared/cluster.h Cluster
    BufferRange meshletVertices;           // u32, relative to the record's vertexOffset
    BufferRange triangles;                 // packed triangles
    const VkViewport* viewport = nullptr;  // null: (0, 0, extent), depth [0, 1]
    bool tintByCluster = false;            // debug view: a colour per cluster (GeometryInputs::tintByDraw)
};

class ClusterMeshPass {
public:
    // Refuses a device without VK_EXT_mesh_shader's meshShader (DeviceInfo::meshShader) or kGeometryNeeds.
    static Result<ClusterMeshPass> create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                          const GeometryOptions& options = {});
    ClusterMeshPass(ClusterMeshPass&&) noexcept;
    ClusterMeshPass& operator=(ClusterMeshPass&&) noexcept;
    ~ClusterMeshPass();
    void record(VkCommandBuffer cmd, const ClusterMeshInputs& in, VkExtent2D extent, const float viewProj[16],
                const float lightDir[3]) const;
    void recordWithRendering(VkCommandBuffer cmd, const ClusterMeshInputs& in, const GeometryAttachments& attachments,
                             VkExtent2D extent, const float viewProj[16]) const;

    struct Impl;

private:
    ClusterMeshPass() = default;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sieve
