#pragma once
// The viewer's use of the default geometry pass in material mode: creating it for an uploaded scene
// (texture array written), and the order of its (list, bin) draws in the two draw passes. Until the
// culling emits per-(view, bin) streams, each list holds every bin (GeometryInputs::mixedBins).
#include <span>
#include <vector>

#include "engine/scene/gpu_scene.h"
#include "engine/target/target.h"
#include "engine/vk/context.h"
#include "sieve/geometry_pass.h"

namespace engine {

// The sampler's anisotropy: 16, or SIEVE_MAX_ANISOTROPY (1..16; 1 turns it off). Lavapipe's (Mesa 22)
// anisotropic filtering blurs magnified textures, so the image test that compares texels with a bilinear
// CPU reference turns it off.
float maxAnisotropy();

// The default pass's options for `scene`: material mode, anisotropic (maxAnisotropy) where the context
// enabled it, one texture slot per scene texture; or plain mode (materials = false: one pipeline, colours
// by material index). The cluster mesh pass takes the same.
sieve::GeometryOptions sceneGeometryOptions(Context& ctx, const GpuScene& scene, bool materials);

// The pass of sceneGeometryOptions, with the textures of `scene` bound in material mode.
sieve::Result<sieve::GeometryPass> createSceneGeometry(Context& ctx, VkFormat colorFormat, const GpuScene& scene,
                                                       bool materials = true, VkFormat depthFormat = kDepthFormat);

// Per-bin streams (no mixed list): draw.early the opaque and masked streams of the early list, draw.late
// those of the late list, then the blend streams of both. `streams[phase * S + k]` holds the draws of
// bin streamBins[k] (GpuScene::streamBins), drawn with that bin's pipeline.
std::vector<sieve::GeometryBinDraw> streamOrder(const sieve::GeometryPass& pass, bool late,
                                                std::span<const uint32_t> streamBins,
                                                std::span<const sieve::GeometryInputs> streams);

// One (list, bin) draw of a phase: list 0 the early list, 1 the late list.
struct ListBin {
    uint32_t list = 0;
    uint32_t bin = 0;
};
// draw.early: the opaque and masked bins of `binMask` of the early list; draw.late: those of the late
// list, then the blend bins of the early and of the late list. `binCount`: the pass's pipelines (1: plain,
// each list drawn once).
std::vector<ListBin> phaseOrder(uint32_t binCount, bool late, uint32_t binMask);

// draw.early: the opaque and masked bins of the early list. draw.late: those of the late list, then the
// blend bins of the early and of the late list, so that blending comes after every opaque draw. Only the
// bins in `binMask` (GpuScene::binMask) are drawn: each mixed-list draw runs the list's vertex work once
// more. The inputs' mixedBins is set here: a scene of one bin needs no filtering.
std::vector<sieve::GeometryBinDraw> drawOrder(const sieve::GeometryPass& pass, bool late, uint32_t binMask,
                                              sieve::GeometryInputs& early, sieve::GeometryInputs& lateIn);

// One list's bins of `binMask`, in bin order (blend last), for a host that draws each list once (right for
// scenes without blend bins; with them, blending is only ordered within the list). Sets in.mixedBins.
std::vector<sieve::GeometryBinDraw> listOrder(const sieve::GeometryPass& pass, uint32_t binMask,
                                              sieve::GeometryInputs& in);

}  // namespace engine
