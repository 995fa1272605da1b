#pragma once
// Bounding spheres of point sets. meshoptimizer 0.18 has no meshopt_computeSphereBounds, so the
// sphere is the smaller of Ritter's sphere and the AABB-centred sphere; both contain every point.
#include <glm/glm.hpp>
#include <span>

namespace sieve::assets {

// xyz centre, w radius. Contains every point (the radius carries a tiny relative slack for float
// rounding). An empty span gives a zero sphere at the origin.
glm::vec4 boundingSphere(std::span<const glm::vec3> points);

}  // namespace sieve::assets
