#include "assets/gltf_camera.h"

#include <cmath>

namespace sieve::assets::gltf {

namespace {
bool finite(double v) {
    return std::isfinite(v);
}
}  // namespace

Expected<SceneCamera> readCamera(const tinygltf::Model& model, size_t cameraIndex, size_t node,
                                 const glm::mat4& world) {
    const tinygltf::Camera& cam = model.cameras[cameraIndex];
    const std::string where = "camera " + std::to_string(cameraIndex) + (cam.name.empty() ? "" : " '" + cam.name + "'");
    SceneCamera out;
    out.index = uint32_t(cameraIndex);
    out.node = uint32_t(node);
    out.name = cam.name;
    if (cam.type == "perspective") {
        const tinygltf::PerspectiveCamera& p = cam.perspective;
        if (!finite(p.yfov) || !(p.yfov > 0.0) || !(p.yfov < 3.14159265))
            return Unexpected{where + ": yfov " + std::to_string(p.yfov) + " is not in (0, pi)"};
        if (!finite(p.znear) || !(p.znear > 0.0)) return Unexpected{where + ": znear must be > 0"};
        if (p.zfar != 0.0 && (!finite(p.zfar) || !(p.zfar > p.znear)))
            return Unexpected{where + ": zfar must be > znear"};
        if (p.aspectRatio != 0.0 && (!finite(p.aspectRatio) || !(p.aspectRatio > 0.0)))
            return Unexpected{where + ": aspectRatio must be > 0"};
        out.yfov = float(p.yfov);
        out.znear = float(p.znear);
        out.zfar = float(p.zfar);
        out.aspectRatio = float(p.aspectRatio);
    } else if (cam.type == "orthographic") {
        const tinygltf::OrthographicCamera& o = cam.orthographic;
        if (!finite(o.xmag) || !finite(o.ymag) || o.xmag == 0.0 || o.ymag == 0.0)
            return Unexpected{where + ": xmag and ymag must be finite and not 0"};
        if (!finite(o.znear) || !(o.znear >= 0.0) || !finite(o.zfar) || !(o.zfar > o.znear))
            return Unexpected{where + ": orthographic znear >= 0 and zfar > znear are required"};
        out.orthographic = true;
        out.xmag = float(std::abs(o.xmag));
        out.ymag = float(std::abs(o.ymag));
        out.znear = float(o.znear);
        out.zfar = float(o.zfar);
    } else {
        return Unexpected{where + ": type '" + cam.type + "' is neither perspective nor orthographic"};
    }
    const glm::vec3 forward = -glm::vec3(world[2]), up = glm::vec3(world[1]);
    const float fl = glm::length(forward), ul = glm::length(up);
    if (!(fl > 0.0f) || !(ul > 0.0f) || !std::isfinite(fl) || !std::isfinite(ul) ||
        glm::length(glm::cross(forward / fl, up / ul)) < 1e-3f)
        return Unexpected{where + " at node " + std::to_string(node) + ": the node's transform has no view direction"};
    out.pose = poseFromTransform(world);
    return out;
}

}  // namespace sieve::assets::gltf
