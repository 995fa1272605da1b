// CullParams from a host's view: the projection's classification, its canonical terms (shared/cull.h
// conventions), the viewport's y orientation and depth range folded in, and frustum planes
// (Gribb-Hartmann on projection * view). What the shared math cannot cull correctly is rejected.
#include <algorithm>
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

namespace {

Error refuse(const std::string& why) {
    return makeError(VK_ERROR_INITIALIZATION_FAILED, "makeCullParams: " + why);
}

std::string at(const char* m, int c, int r) {
    return std::string(m) + "[" + std::to_string(c) + "][" + std::to_string(r) + "]";
}

// The projection before the viewport: ndc = scale * (x/d or x) + offset, z_ndc = ndcA + ndcB / d
// (perspective) or ndcA + ndcB * d (orthographic), d = forward * z_view.
struct Canonical {
    uint32_t kind = gpu::SIEVE_PROJ_PERSPECTIVE;
    float forward = -1.0f;
    float scaleX = 0, scaleY = 0, offsetX = 0, offsetY = 0;
    double ndcA = 0, ndcB = 0;
};

Result<Canonical> classify(const gpu::mat4& P, float orthographicForward) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(P[c][r])) return refuse("projection term " + at("P", c, r) + " is not finite");
    if (P[1][0] != 0.0f || P[0][1] != 0.0f)
        return refuse("the projection mixes x and y (P[1][0], P[0][1] must be 0: rotated or skewed projections)");
    if (P[0][2] != 0.0f || P[1][2] != 0.0f)
        return refuse("the projection has an oblique depth row (P[0][2], P[1][2] must be 0)");
    if (P[0][3] != 0.0f || P[1][3] != 0.0f) return refuse("the projection's w depends on x or y (P[0][3], P[1][3])");
    Canonical k;
    if (P[3][3] == 0.0f && (P[2][3] == 1.0f || P[2][3] == -1.0f)) {
        if (P[3][0] != 0.0f || P[3][1] != 0.0f)
            return refuse(
                "perspective with P[3][0] or P[3][1] non-zero (an eye shifted off the view origin); "
                "off-centre terms belong in P[2][0], P[2][1]");
        k.forward = P[2][3];  // w = P[2][3] * z = d
        k.offsetX = P[2][0] * k.forward;
        k.offsetY = P[2][1] * k.forward;
        k.ndcA = double(P[2][2]) * k.forward;
        k.ndcB = P[3][2];
        if (k.ndcB == 0.0) return refuse("perspective depth does not vary with distance (P[3][2] = 0)");
    } else if (P[2][3] == 0.0f && P[3][3] == 1.0f) {
        if (P[2][0] != 0.0f || P[2][1] != 0.0f)
            return refuse("orthographic with P[2][0] or P[2][1] non-zero (an oblique parallel projection)");
        k.kind = gpu::SIEVE_PROJ_ORTHOGRAPHIC;
        if (orthographicForward != -1.0f && orthographicForward != 1.0f)
            return refuse("ViewDesc::orthographicForward must be -1 (looking down -Z) or +1 (down +Z)");
        k.forward = orthographicForward;  // w gives no hint: the host says
        k.offsetX = P[3][0];
        k.offsetY = P[3][1];
        k.ndcA = P[3][2];
        k.ndcB = double(P[2][2]) * k.forward;
        if (k.ndcB == 0.0) return refuse("orthographic depth does not vary with distance (P[2][2] = 0)");
    } else {
        return refuse(
            "the projection is neither perspective (P[2][3] = +-1, P[3][3] = 0) nor orthographic "
            "(P[2][3] = 0, P[3][3] = 1)");
    }
    k.scaleX = P[0][0];
    k.scaleY = P[1][1];
    if (k.scaleX == 0.0f || k.scaleY == 0.0f) return refuse("the projection has a zero scale (P[0][0] or P[1][1])");
    return k;
}

// The sphere test uses the world radius in view space: the view must be affine and rigid. 1e-5 is far
// below the occlusion test's radius inflation (2^-10), so rounding in a host's lookAt passes.
Result<void> checkView(const gpu::mat4& V) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(V[c][r])) return refuse("view term " + at("V", c, r) + " is not finite");
    if (V[0][3] != 0.0f || V[1][3] != 0.0f || V[2][3] != 0.0f || V[3][3] != 1.0f)
        return refuse("the view is not affine (its last row must be 0 0 0 1)");
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) {
            const double dot = double(V[i][0]) * V[j][0] + double(V[i][1]) * V[j][1] + double(V[i][2]) * V[j][2];
            if (std::abs(dot - (i == j ? 1.0 : 0.0)) > 1e-5)
                return refuse("the view is not rigid (rotation and translation only; put scale in the projection)");
        }
    return {};
}

Result<void> checkViewport(const VkViewport& vp, VkExtent2D pyramidExtent, uint32_t pyramidMips) {
    const float f[6] = {vp.x, vp.y, vp.width, vp.height, vp.minDepth, vp.maxDepth};
    for (float v : f)
        if (!std::isfinite(v)) return refuse("the viewport has a non-finite field");
    const float h = std::abs(vp.height);
    if (vp.x != 0.0f || !(vp.width > 0.0f) || h == 0.0f || vp.y != (vp.height > 0.0f ? 0.0f : h))
        return refuse(
            "the viewport must cover the depth attachment: x = 0, width > 0, and y = 0 with a positive "
            "height or y = -height with a negative one");
    if (vp.width != std::floor(vp.width) || h != std::floor(h) || vp.width > 65536.0f || h > 65536.0f)
        return refuse("the viewport extent must be whole pixels, at most 65536");
    const VkExtent2D e{uint32_t(vp.width), uint32_t(h)};
    const VkExtent2D expect = HiZBuilder::pyramidExtent(e);
    if (expect.width != pyramidExtent.width || expect.height != pyramidExtent.height)
        return refuse("the viewport (" + std::to_string(e.width) + " x " + std::to_string(e.height) +
                      ") does not cover the depth attachment the pyramid (" + std::to_string(pyramidExtent.width) +
                      " x " + std::to_string(pyramidExtent.height) + ") is built from");
    if (pyramidMips == 0 || pyramidMips > HiZBuilder::mipCount(pyramidExtent))
        return refuse("pyramidMips " + std::to_string(pyramidMips) + " is not in 1.." +
                      std::to_string(HiZBuilder::mipCount(pyramidExtent)));
    if (!(vp.minDepth >= 0.0f && vp.minDepth <= 1.0f && vp.maxDepth >= 0.0f && vp.maxDepth <= 1.0f) ||
        vp.minDepth == vp.maxDepth)
        return refuse("viewport minDepth and maxDepth must be in [0, 1] and differ");
    return {};
}

// Frustum planes from the rows of projection * view in double: inside -w <= x <= w, -w <= y <= w,
// 0 <= z <= w. A plane with no xyz (z's constant row of an infinite projection) always passes.
Result<void> fillPlanes(const gpu::mat4& P, const gpu::mat4& V, gpu::CullParams& p) {
    double row[4][4];
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            row[r][c] = double(P[0][r]) * V[c][0] + double(P[1][r]) * V[c][1] + double(P[2][r]) * V[c][2] +
                        double(P[3][r]) * V[c][3];
    const double sign[6] = {1, -1, 1, -1, -1, 1};
    const int axis[6] = {0, 0, 1, 1, 2, 2};
    for (int i = 0; i < 6; ++i) {
        double pl[4];
        for (int c = 0; c < 4; ++c) pl[c] = (i == 5 ? 0.0 : row[3][c]) + sign[i] * row[axis[i]][c];
        const double len = std::sqrt(pl[0] * pl[0] + pl[1] * pl[1] + pl[2] * pl[2]);
        if (len == 0.0) {
            if (!(pl[3] > 0.0)) return refuse("the projection's clip volume is empty");
            p.planes[i] = gpu::vec4(0.0f, 0.0f, 0.0f, 1.0f);
            continue;
        }
        const gpu::vec4 n(float(pl[0] / len), float(pl[1] / len), float(pl[2] / len), float(pl[3] / len));
        if (!std::isfinite(n.x) || !std::isfinite(n.y) || !std::isfinite(n.z) || !std::isfinite(n.w))
            return refuse("a frustum plane is not representable in float");
        p.planes[i] = n;
    }
    return {};
}

}  // namespace

Result<gpu::CullParams> makeCullParams(const ViewDesc& view, VkExtent2D pyramidExtent, uint32_t pyramidMips,
                                       uint32_t instanceCount, const CullSettings& settings) {
    auto k = classify(view.projection, view.orthographicForward);
    if (!k) return k.error();
    if (auto v = checkView(view.view); !v) return v.error();
    const VkViewport& vp = view.viewport;
    if (auto v = checkViewport(vp, pyramidExtent, pyramidMips); !v) return v.error();

    gpu::CullParams p{};
    p.view = view.view;
    // A negative-height viewport maps ndc y = -1 to the last row: negating y's terms makes v = ndc*0.5+0.5
    // hold for both, exactly (negation does not round).
    const float ySign = vp.height < 0.0f ? -1.0f : 1.0f;
    p.scaleX = k->scaleX;
    p.scaleY = k->scaleY * ySign;
    p.offsetX = k->offsetX;
    p.offsetY = k->offsetY * ySign;
    p.forward = k->forward;
    p.kind = k->kind;

    // Attachment depth = minDepth + (maxDepth - minDepth) * z_ndc.
    const bool persp = k->kind == gpu::SIEVE_PROJ_PERSPECTIVE;
    const double minD = vp.minDepth, maxD = vp.maxDepth, range = maxD - minD;
    const double A = minD + range * k->ndcA, B = range * k->ndcB;
    const bool reverse = persp ? B > 0.0 : B < 0.0;  // depth decreases with distance
    const double nearDepth = reverse ? std::max(minD, maxD) : std::min(minD, maxD);
    const double dn = persp ? B / (nearDepth - A) : (nearDepth - A) / B;
    if (!std::isfinite(dn) || (persp && !(dn > 0.0)))
        return refuse("the projection has no near plane in front of the eye (near distance " + std::to_string(dn) +
                      ")");
    if (!persp) {
        // Near and far may lie behind the eye (a parallel view's slab can start behind it), but not both:
        // that is a view looking the other way, whose depth would read as the opposite convention.
        const double farDepth = reverse ? std::min(minD, maxD) : std::max(minD, maxD);
        const double df = (farDepth - A) / B;
        if (!(std::max(dn, df) > 0.0))
            return refuse("the orthographic view's visible depth range (" + std::to_string(dn) + " .. " +
                          std::to_string(df) + " along " + (k->forward < 0 ? "-Z" : "+Z") +
                          ") lies behind the camera: a view looking down " + (k->forward < 0 ? "+Z" : "-Z") +
                          " (left- or right-handed) must say so in ViewDesc::orthographicForward");
    }
    p.depthA = float(A);
    p.depthB = float(B);
    p.nearDist = float(dn);
    if (!std::isfinite(p.depthA) || !std::isfinite(p.depthB) || p.depthB == 0.0f || !std::isfinite(p.nearDist))
        return refuse("the depth mapping is not representable in float");
    p.reverseZ = reverse ? 1u : 0u;
    if (auto planes = fillPlanes(view.projection, view.view, p); !planes) return planes.error();

    p.lodThreshold = settings.lodThreshold;
    p.viewportHeight = std::abs(vp.height);
    p.pyramidWidth = pyramidExtent.width;
    p.pyramidHeight = pyramidExtent.height;
    p.pyramidMips = pyramidMips;
    p.instanceCount = instanceCount;
    p.toggles = settings.toggles;
    p.lodBias = settings.lodBias;
    p.drawDistance = settings.drawDistance;
    p.distanceAlongAxis = settings.distanceAlongAxis ? 1u : 0u;
    return p;
}

}  // namespace sieve
