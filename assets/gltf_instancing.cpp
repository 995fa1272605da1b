#include "assets/gltf_instancing.h"

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <string>

#include "assets/gltf_accessor.h"
#include "assets/gltf_value.h"

namespace sieve::assets::gltf {
namespace {

template <typename V>
bool finite(const V& v) {
    for (int i = 0; i < V::length(); ++i)
        if (!std::isfinite(v[i])) return false;
    return true;
}

// Reads one attribute; `count` is set by the first attribute present and checked for the others.
template <typename V, typename Read>
Expected<std::vector<V>> attribute(const tinygltf::Model& model, const tinygltf::Value& attrs, const char* name,
                                   Semantic semantic, Read read, std::optional<size_t>& count) {
    bool present = false;
    int acc = accessorMember(model, attrs, name, present);
    if (!present) return std::vector<V>{};
    if (acc < 0) return Unexpected{std::string(name) + " is not a valid accessor index"};
    auto values = read(model, acc, semantic);
    if (!values) return Unexpected{std::string(name) + " " + values.error()};
    if (count && *count != values->size())
        return Unexpected{std::string(name) + " has " + std::to_string(values->size()) +
                          " elements, another attribute " + std::to_string(*count)};
    count = values->size();
    for (const V& v : *values)
        if (!finite(v)) return Unexpected{std::string(name) + " holds NaN or infinite values"};
    return values;
}

}  // namespace

Expected<std::optional<std::vector<glm::mat4>>> readInstanceTransforms(const tinygltf::Model& model,
                                                                       const tinygltf::Node& node) {
    const tinygltf::Value* ext = extension(node.extensions, "EXT_mesh_gpu_instancing");
    if (!ext) return std::optional<std::vector<glm::mat4>>{};
    const std::string where = "EXT_mesh_gpu_instancing: ";
    if (!ext->IsObject() || !ext->Has("attributes") || !ext->Get("attributes").IsObject())
        return Unexpected{where + "has no attributes object"};
    const tinygltf::Value& attrs = ext->Get("attributes");
    std::optional<size_t> count;
    auto t = attribute<glm::vec3>(model, attrs, "TRANSLATION", Semantic::InstanceTranslation, readVec3, count);
    if (!t) return Unexpected{where + t.error()};
    auto r = attribute<glm::vec4>(model, attrs, "ROTATION", Semantic::InstanceRotation, readVec4, count);
    if (!r) return Unexpected{where + r.error()};
    auto s = attribute<glm::vec3>(model, attrs, "SCALE", Semantic::InstanceScale, readVec3, count);
    if (!s) return Unexpected{where + s.error()};
    if (!count) return Unexpected{where + "none of TRANSLATION, ROTATION, SCALE is given"};
    std::vector<glm::mat4> out(*count, glm::mat4(1.0f));
    for (size_t i = 0; i < *count; ++i) {
        glm::mat4 m(1.0f);
        if (!t->empty()) m[3] = glm::vec4((*t)[i], 1.0f);
        if (!r->empty()) {
            const glm::vec4& q = (*r)[i];
            float len = glm::length(q);
            if (!(len > 0.0f)) return Unexpected{where + "ROTATION " + std::to_string(i) + " is not a quaternion"};
            glm::mat4 rot = glm::mat4_cast(glm::quat(q.w / len, q.x / len, q.y / len, q.z / len));
            m = m * rot;
        }
        if (!s->empty()) {
            const glm::vec3& sc = (*s)[i];
            m[0] *= sc.x;
            m[1] *= sc.y;
            m[2] *= sc.z;
        }
        out[i] = m;
    }
    return std::optional<std::vector<glm::mat4>>{std::move(out)};
}

}  // namespace sieve::assets::gltf
