// CullParams from a camera: frustum planes (Gribb-Hartmann on proj * view) and projection terms.
#include <cmath>
#include <string>

#include "sieve/cull_flags.h"

namespace sieve {

gpu::mat4 perspectiveReverseZ(float fovY, float aspect, float znear) {
    const float f = 1.0f / std::tan(fovY * 0.5f);
    gpu::mat4 p(0.0f);
    p[0][0] = f / aspect;
    p[1][1] = -f;     // Vulkan's y points down: upright image with a positive viewport
    p[2][3] = -1.0f;  // w = -z_view = d
    p[3][2] = znear;  // z = znear, so depth = znear / d
    return p;
}

Result<gpu::CullParams> makeCullParams(const gpu::mat4& view, const gpu::mat4& proj, VkExtent2D pyramidExtent,
                                       uint32_t pyramidMips, uint32_t instanceCount, const CullSettings& settings) {
    // The occlusion math assumes clip = (P00 x, P11 y, znear, -z): check every other term is zero.
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            const bool expected = (c == 0 && r == 0) || (c == 1 && r == 1) || (c == 2 && r == 3) || (c == 3 && r == 2);
            if (!expected && proj[c][r] != 0.0f)
                return makeError(
                    VK_ERROR_INITIALIZATION_FAILED,
                    "makeCullParams: projection is not a symmetric infinite reverse-Z perspective (term [" +
                        std::to_string(c) + "][" + std::to_string(r) + "] is not zero)");
        }
    if (proj[2][3] != -1.0f || !(proj[3][2] > 0.0f) || proj[0][0] == 0.0f || proj[1][1] == 0.0f)
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         "makeCullParams: projection needs [2][3] = -1, [3][2] = znear > 0 and non-zero scales");

    gpu::CullParams p{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            p.viewProj[c][r] = ((proj[0][r] * view[c][0] + proj[1][r] * view[c][1]) + proj[2][r] * view[c][2]) +
                               proj[3][r] * view[c][3];
    p.view = view;
    // Rows of viewProj in double: clip_i = dot(row_i, (x, y, z, 1)).
    double row[4][4];
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            row[r][c] = double(proj[0][r]) * view[c][0] + double(proj[1][r]) * view[c][1] +
                        double(proj[2][r]) * view[c][2] + double(proj[3][r]) * view[c][3];
    // Inside: -w <= x <= w, -w <= y <= w, 0 <= z <= w.
    const double sign[6] = {1, -1, 1, -1, -1, 1};
    const int axis[6] = {0, 0, 1, 1, 2, 2};
    for (int i = 0; i < 6; ++i) {
        double pl[4];
        for (int c = 0; c < 4; ++c) pl[c] = (i == 5 ? 0.0 : row[3][c]) + sign[i] * row[axis[i]][c];
        const double len = std::sqrt(pl[0] * pl[0] + pl[1] * pl[1] + pl[2] * pl[2]);
        // z >= 0 holds everywhere for an infinite projection (z = znear): no plane at all.
        if (len < 1e-12)
            p.planes[i] = gpu::vec4(0.0f, 0.0f, 0.0f, 1.0f);
        else
            p.planes[i] = gpu::vec4(float(pl[0] / len), float(pl[1] / len), float(pl[2] / len), float(pl[3] / len));
    }
    p.P00 = proj[0][0];
    p.P11 = proj[1][1];
    p.znear = proj[3][2];
    p.lodThreshold = settings.lodThreshold;
    p.pyramidWidth = pyramidExtent.width;
    p.pyramidHeight = pyramidExtent.height;
    p.pyramidMips = pyramidMips;
    p.instanceCount = instanceCount;
    p.toggles = settings.toggles;
    p.viewportHeight = settings.viewportHeight;
    p.lodBias = settings.lodBias;
    return p;
}

Result<gpu::CullParams> makeCullParams(const ViewDesc& view, VkExtent2D pyramidExtent, uint32_t pyramidMips,
                                       uint32_t instanceCount, const CullSettings& settings) {
    const VkViewport& v = view.viewport;
    if (!(v.x == 0.0f && v.y == 0.0f && v.height > 0.0f && v.minDepth == 0.0f && v.maxDepth == 1.0f))
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         "makeCullParams: only a positive viewport at (0, 0) with depth range [0, 1] is supported");
    return makeCullParams(view.view, view.projection, pyramidExtent, pyramidMips, instanceCount, settings);
}

}  // namespace sieve
