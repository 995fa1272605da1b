#pragma once
// The host side's bridge between GLM (which the reference host, the samples and the tests compute with)
// and the plugin's own layout types (shared/common.h). GLM -> gpu converts implicitly; gpu -> GLM here.
#include <glm/glm.hpp>

#include "shared/common.h"

namespace sieve {

inline glm::vec4 toGlm(const gpu::vec4& v) {
    return {v.x, v.y, v.z, v.w};
}
inline glm::vec3 toGlm3(const gpu::vec4& v) {
    return {v.x, v.y, v.z};
}
inline glm::mat4 toGlm(const gpu::mat4& m) {
    return {toGlm(m[0]), toGlm(m[1]), toGlm(m[2]), toGlm(m[3])};
}

}  // namespace sieve
