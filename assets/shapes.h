#pragma once
// Low-poly shape generators for procedural meshes. Each appends a closed (or capped) surface to a
// Geometry with outward normals and counter-clockwise front faces seen from outside. `transform` places
// the shape (rigid transforms and uniform scale keep the normals exact).
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "assets/mesh_builder.h"

namespace sieve::assets {

struct Geometry {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
    std::vector<uint32_t> indices;

    PrimitiveInput input(uint32_t material) const { return PrimitiveInput{positions, normals, indices, material}; }
};

// Axis-aligned box [mn, mx] with flat faces; `bottom` = false leaves the -Y face out (buildings, props
// standing on the ground never show it).
void appendBox(Geometry& g, glm::vec3 mn, glm::vec3 mx, bool bottom = true,
               const glm::mat4& transform = glm::mat4(1.0f));

// Truncated cone around +Y from y = 0 (radius r0) to y = height (radius r1); r1 = 0 gives a cone,
// r0 = r1 a cylinder. Smooth sides, flat caps where the radius is not zero.
void appendFrustum(Geometry& g, float r0, float r1, float height, uint32_t segments,
                   const glm::mat4& transform = glm::mat4(1.0f));

// UV sphere centred at the origin.
void appendSphere(Geometry& g, float radius, uint32_t segments, uint32_t rings,
                  const glm::mat4& transform = glm::mat4(1.0f));

// Torus around +Y in the XZ plane: ring radius `major`, tube radius `minor`.
void appendTorus(Geometry& g, float major, float minor, uint32_t segments, uint32_t sides,
                 const glm::mat4& transform = glm::mat4(1.0f));

// Gable roof prism over [mn.x, mx.x] x [mn.z, mx.z] from y = mn.y to the ridge (along X) at mx.y.
void appendGable(Geometry& g, glm::vec3 mn, glm::vec3 mx, const glm::mat4& transform = glm::mat4(1.0f));

}  // namespace sieve::assets
