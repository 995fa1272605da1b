#pragma once
// The default geometry pass's mesh-shader path (VK_EXT_mesh_shader): draws a cluster list of the cluster
// plugin (sieve/cluster.h) with one mesh workgroup per record, vkCmdDrawMeshTasksIndirectEXT on the list's
// task command. Same shading, depth test and face culling as GeometryPass in the same mode, and the same
// picture:
// - plain mode: one pipeline (cluster.mesh + mesh.frag; cluster_cull.mesh with triangle culling);
// - material mode (GeometryOptions::materials): one pipeline per bin (cluster_material.mesh, or
//   cluster_material_cull.mesh with triangle culling, + material.frag: textures, alpha mask and blend,
//   double-sided), the texture array set by setTextures.
//   A mixed list (mixedBins) is recorded once per bin; each bin's workgroups skip the other bins' clusters.
//   Blend bins go after every opaque and masked draw of the frame (GeometryPass::isBlendBin).
// Recorded inside the host's vkCmdBeginRendering scope (or recordWithRendering).
#include <vulkan/vulkan.h>

#include <memory>
#include <span>

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
    // Material mode only (as GeometryInputs):
    BufferRange uvs;         // shared/material.h VertexUv per Vertex, read as a storage buffer
    BufferRange materials;   // shared/material.h Material, indexed by DrawCommand::material
    BufferRange primitives;  // shared/scene.h MeshPrimitive (the bin of each record)
    bool mixedBins = true;   // the list holds records of every bin
    float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    BufferRange shadow;  // shared/shadow.h, read by material.frag when shadowCascades > 0
    uint32_t shadowCascades = 0;
};

// Options of the mesh path beside the shading (GeometryOptions).
struct ClusterMeshOptions {
    // Per-triangle culling in the mesh shaders (shared/triangle_cull.h): triangles facing away where the
    // pipeline culls that face (never in double-sided bins), naming one vertex twice, or covering no sample
    // centre of the scissor (single-sample attachments) are culled before the rasterizer; a triangle with a
    // vertex at w <= 0 is left to the clipper. The picture is the same either way: only triangles the
    // rasterizer would draw no sample of are culled. On, the pipelines use the culling variants of the mesh
    // shaders (cluster_cull.mesh, cluster_material_cull.mesh); off (or multisampled), the plain ones, which
    // carry nothing of it.
    bool triangleCull = false;
};

// One list drawn with one bin's pipeline, for recordWithRendering's ordered form.
struct ClusterMeshBinDraw {
    const ClusterMeshInputs* inputs = nullptr;
    uint32_t bin = 0;
};

class ClusterMeshPass {
public:
    // Refuses a device without VK_EXT_mesh_shader's meshShader (DeviceInfo::meshShader) or kGeometryNeeds.
    static Result<ClusterMeshPass> create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                          const GeometryOptions& options = {},
                                          const ClusterMeshOptions& meshOptions = {});
    bool triangleCull() const;
    ClusterMeshPass(ClusterMeshPass&&) noexcept;
    ClusterMeshPass& operator=(ClusterMeshPass&&) noexcept;
    ~ClusterMeshPass();

    // Pipelines: SIEVE_MATERIAL_BIN_COUNT in material mode, 1 in plain mode.
    uint32_t binCount() const;
    // Material mode: the texture array, as GeometryPass::setTextures (nothing is drawn before it).
    Result<void> setTextures(std::span<const VkImageView> views);
    // bin: the pipeline (ignored in plain mode).
    void record(VkCommandBuffer cmd, const ClusterMeshInputs& in, VkExtent2D extent, const float viewProj[16],
                const float lightDir[3], uint32_t bin = 0) const;
    // Every bin of `in` (blend last) inside its own rendering scope, lit by kDefaultLightDir.
    void recordWithRendering(VkCommandBuffer cmd, const ClusterMeshInputs& in, const GeometryAttachments& attachments,
                             VkExtent2D extent, const float viewProj[16]) const;
    // (list, bin) pairs in the given order.
    void recordWithRendering(VkCommandBuffer cmd, std::span<const ClusterMeshBinDraw> draws,
                             const GeometryAttachments& attachments, VkExtent2D extent, const float viewProj[16]) const;

    struct Impl;

private:
    ClusterMeshPass() = default;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sieve
