#include "assets/shapes.h"

#include <cmath>
#include <numbers>

namespace sieve::assets {
namespace {

constexpr float kTau = 2.0f * std::numbers::pi_v<float>;

// The angle of step i of n around a circle. Step n is step 0 again, so the closing vertices of a ring
// land on exactly the same position as its first ones: a crack of one rounding error would make the
// seam an open border that the simplifier is free to pull apart.
float ringAngle(uint32_t i, uint32_t n) {
    return kTau * float(i % n) / float(n);
}

uint32_t addVertex(Geometry& g, const glm::mat4& t, glm::vec3 p, glm::vec3 n) {
    g.positions.push_back(glm::vec3(t * glm::vec4(p, 1.0f)));
    g.normals.push_back(glm::normalize(glm::mat3(t) * n));
    return static_cast<uint32_t>(g.positions.size() - 1);
}

void addTriangle(Geometry& g, uint32_t a, uint32_t b, uint32_t c) {
    g.indices.insert(g.indices.end(), {a, b, c});
}

// Quad a-b-c-d counter-clockwise seen from the front.
void addQuad(Geometry& g, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    addTriangle(g, a, b, c);
    addTriangle(g, a, c, d);
}

// A flat polygon face from a counter-clockwise loop of points (a fan; the loops used here are convex).
void addFlatFace(Geometry& g, const glm::mat4& t, std::initializer_list<glm::vec3> loop, glm::vec3 normal) {
    uint32_t first = static_cast<uint32_t>(g.positions.size());
    for (const glm::vec3& p : loop) addVertex(g, t, p, normal);
    for (uint32_t i = 1; i + 1 < loop.size(); ++i) addTriangle(g, first, first + i, first + i + 1);
}

}  // namespace

void appendBox(Geometry& g, glm::vec3 mn, glm::vec3 mx, bool bottom, const glm::mat4& t) {
    glm::vec3 c = (mn + mx) * 0.5f, h = (mx - mn) * 0.5f;
    // Each face: normal n and in-plane axes u, v with cross(u, v) = n, so the corner order
    // (-u-v, +u-v, +u+v, -u+v) is counter-clockwise seen from outside.
    const glm::vec3 X(1, 0, 0), Y(0, 1, 0), Z(0, 0, 1);
    struct Face {
        glm::vec3 n, u, v;
    };
    const Face faces[6] = {{X, Y, Z}, {-X, Z, Y}, {Y, Z, X}, {-Y, X, Z}, {Z, X, Y}, {-Z, Y, X}};
    for (const Face& f : faces) {
        if (!bottom && f.n.y < 0.0f) continue;
        glm::vec3 o = c + f.n * h, u = f.u * h, v = f.v * h;
        addFlatFace(g, t, {o - u - v, o + u - v, o + u + v, o - u + v}, f.n);
    }
}

void appendFrustum(Geometry& g, float r0, float r1, float height, uint32_t segments, const glm::mat4& t) {
    // p(theta) = (r cos, y, -r sin): increasing theta runs counter-clockwise seen from +Y.
    auto ring = [](float r, float y, float a) { return glm::vec3(r * std::cos(a), y, -r * std::sin(a)); };
    auto sideNormal = [&](float a) {
        return glm::normalize(glm::vec3(height * std::cos(a), r0 - r1, -height * std::sin(a)));
    };
    for (uint32_t i = 0; i < segments; ++i) {
        float a0 = ringAngle(i, segments), a1 = ringAngle(i + 1, segments);
        uint32_t b0 = addVertex(g, t, ring(r0, 0, a0), sideNormal(a0));
        uint32_t b1 = addVertex(g, t, ring(r0, 0, a1), sideNormal(a1));
        if (r1 > 0.0f) {
            uint32_t t1 = addVertex(g, t, ring(r1, height, a1), sideNormal(a1));
            uint32_t t0 = addVertex(g, t, ring(r1, height, a0), sideNormal(a0));
            addQuad(g, b0, b1, t1, t0);
        } else {
            float am = 0.5f * (a0 + a1);
            addTriangle(g, b0, b1, addVertex(g, t, glm::vec3(0, height, 0), sideNormal(am)));
        }
    }
    auto cap = [&](float r, float y, glm::vec3 n) {
        uint32_t centre = addVertex(g, t, glm::vec3(0, y, 0), n);
        uint32_t first = static_cast<uint32_t>(g.positions.size());
        for (uint32_t i = 0; i < segments; ++i) addVertex(g, t, ring(r, y, ringAngle(i, segments)), n);
        for (uint32_t i = 0; i < segments; ++i) {
            uint32_t a = first + i, b = first + (i + 1) % segments;
            if (n.y > 0.0f)
                addTriangle(g, centre, a, b);
            else
                addTriangle(g, centre, b, a);
        }
    };
    if (r0 > 0.0f) cap(r0, 0.0f, glm::vec3(0, -1, 0));
    if (r1 > 0.0f) cap(r1, height, glm::vec3(0, 1, 0));
}

void appendSphere(Geometry& g, float radius, uint32_t segments, uint32_t rings, const glm::mat4& t) {
    uint32_t first = static_cast<uint32_t>(g.positions.size());
    for (uint32_t j = 0; j <= rings; ++j) {
        float phi = std::numbers::pi_v<float> * float(j) / float(rings);
        // Exact poles: sin(pi) rounds to about -9e-8, which would scatter the bottom pole's vertices.
        float sinPhi = (j == 0 || j == rings) ? 0.0f : std::sin(phi);
        float cosPhi = j == 0 ? 1.0f : (j == rings ? -1.0f : std::cos(phi));
        for (uint32_t i = 0; i <= segments; ++i) {
            float a = ringAngle(i, segments);
            glm::vec3 n(sinPhi * std::cos(a), cosPhi, -sinPhi * std::sin(a));
            addVertex(g, t, n * radius, n);
        }
    }
    uint32_t stride = segments + 1;
    for (uint32_t j = 0; j < rings; ++j)
        for (uint32_t i = 0; i < segments; ++i) {
            // Ring j is above ring j + 1; the quad reads like a cylinder side (lower edge first).
            uint32_t l0 = first + (j + 1) * stride + i, l1 = l0 + 1;
            uint32_t u0 = first + j * stride + i, u1 = u0 + 1;
            if (j + 1 < rings) addTriangle(g, l0, l1, u1);  // skip the degenerate ones at the poles
            if (j > 0) addTriangle(g, l0, u1, u0);
        }
}

void appendTorus(Geometry& g, float major, float minor, uint32_t segments, uint32_t sides, const glm::mat4& t) {
    uint32_t first = static_cast<uint32_t>(g.positions.size());
    for (uint32_t j = 0; j <= sides; ++j) {
        float psi = ringAngle(j, sides);
        for (uint32_t i = 0; i <= segments; ++i) {
            float a = ringAngle(i, segments);
            glm::vec3 n(std::cos(psi) * std::cos(a), std::sin(psi), -std::cos(psi) * std::sin(a));
            glm::vec3 centre(major * std::cos(a), 0.0f, -major * std::sin(a));
            addVertex(g, t, centre + n * minor, n);
        }
    }
    uint32_t stride = segments + 1;
    for (uint32_t j = 0; j < sides; ++j)
        for (uint32_t i = 0; i < segments; ++i) {
            uint32_t p00 = first + j * stride + i, p10 = p00 + 1, p01 = p00 + stride, p11 = p01 + 1;
            addQuad(g, p00, p10, p11, p01);
        }
}

void appendGable(Geometry& g, glm::vec3 mn, glm::vec3 mx, const glm::mat4& t) {
    float zc = 0.5f * (mn.z + mx.z);
    glm::vec3 ridge0(mn.x, mx.y, zc), ridge1(mx.x, mx.y, zc);
    // Two sloped faces and two triangular ends.
    glm::vec3 nFront = glm::normalize(glm::vec3(0, mx.z - zc, mx.y - mn.y));
    glm::vec3 nBack = glm::vec3(0, nFront.y, -nFront.z);
    addFlatFace(g, t, {glm::vec3(mn.x, mn.y, mx.z), glm::vec3(mx.x, mn.y, mx.z), ridge1, ridge0}, nFront);
    addFlatFace(g, t, {glm::vec3(mx.x, mn.y, mn.z), glm::vec3(mn.x, mn.y, mn.z), ridge0, ridge1}, nBack);
    addFlatFace(g, t, {glm::vec3(mx.x, mn.y, mx.z), glm::vec3(mx.x, mn.y, mn.z), ridge1}, glm::vec3(1, 0, 0));
    addFlatFace(g, t, {glm::vec3(mn.x, mn.y, mn.z), glm::vec3(mn.x, mn.y, mx.z), ridge0}, glm::vec3(-1, 0, 0));
}

}  // namespace sieve::assets
