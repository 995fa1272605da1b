#include "overhead_view.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace host2 {

void OverheadView::update(const glm::vec3& eye) {
    const glm::vec3 ground(eye.x, 0.0f, eye.z);
    view = glm::lookAt(ground + glm::vec3(0.0f, height, 0.0f), ground, glm::vec3(0.0f, 0.0f, -1.0f));
    // Orthographic, looking down -Z, y flipped for a positive viewport, reverse Z over [1, height + 100].
    const float n = 1.0f, f = height + 100.0f;
    proj = glm::mat4(1.0f);
    proj[0][0] = 1.0f / halfSize;
    proj[1][1] = -1.0f / halfSize;
    proj[2][2] = 1.0f / (f - n);  // z_ndc = (f - d) / (f - n), d = -z_view
    proj[3][2] = f / (f - n);
}

VkViewport OverheadView::viewport(VkExtent2D frame) const {
    const float side = std::max(1.0f, std::floor(float(frame.height) * insetFraction));
    return {float(frame.width) - side, 0.0f, side, side, 0.0f, 1.0f};
}

sieve::CullView OverheadView::cullView(VkExtent2D frame) const {
    const VkViewport vp = viewport(frame);
    sieve::CullView v;
    v.desc = {view, proj, {0.0f, 0.0f, vp.width, vp.height, 0.0f, 1.0f}};  // culling sees only its extent
    v.tests = sieve::gpu::SIEVE_CULL_FRUSTUM;
    v.name = "overhead";
    v.kind = sieve::ViewKind::Other;
    return v;
}

}  // namespace host2
