#pragma once
// Distances between triangle surfaces, for LOD error bounds: how far one mesh's surface strays from
// another's. The bound is certified (never below the true one-sided Hausdorff distance, up to float
// rounding) from two facts: the distance to a surface is 1-Lipschitz, so its maximum over a triangle is
// at most its maximum at the corners plus the largest distance of any point of the triangle to its
// nearest corner; and the distance to one triangle of the surface is convex, so over a triangle it is
// at most its largest value at the corners (and the surface is no farther than any of its triangles).
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace sieve::assets {

struct TriangleSurface {
    std::span<const glm::vec3> positions;
    std::span<const uint32_t> indices;  // triangle list into positions
};

// Euclidean distance from p to the closed triangle (a, b, c); degenerate triangles count as their edges.
float pointTriangleDistance(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c);

// Nearest-triangle queries over one surface through a uniform grid of triangle bounding boxes. Queries
// share a scratch array: one thread per grid.
class SurfaceGrid {
public:
    // `boundsMin`/`boundsMax` must contain every query point (queries outside are clamped to the grid
    // and stay exact, only slower). The surface must outlive the grid.
    SurfaceGrid(TriangleSurface surface, glm::vec3 boundsMin, glm::vec3 boundsMax);

    struct Nearest {
        float distance;     // +infinity for a surface without triangles
        uint32_t triangle;  // index of the nearest triangle (UINT32_MAX when there is none)
    };
    // `hint`: a triangle likely to be (nearly) the nearest, e.g. the previous nearby query's; it changes
    // the speed only, never the distance (UINT32_MAX: none).
    Nearest nearest(glm::vec3 p, uint32_t hint = UINT32_MAX) const;
    float distance(glm::vec3 p) const { return nearest(p).distance; }
    // Distance from p to triangle t of the surface.
    float triangleDistance(glm::vec3 p, uint32_t t) const;
    const TriangleSurface& surface() const { return surface_; }

private:
    glm::ivec3 cellOf(glm::vec3 p) const;
    TriangleSurface surface_;
    glm::vec3 origin_;
    float cell_ = 1.0f;
    glm::ivec3 dims_{1};
    std::vector<uint32_t> cellStart_;  // CSR: triangles of cell c are cellTriangles_[cellStart_[c]..[c+1])
    std::vector<uint32_t> cellTriangles_;
    std::vector<glm::vec3> boxMin_, boxMax_;  // per triangle
    mutable std::vector<uint32_t> stamp_;     // per triangle: the query that last tested it
    mutable uint32_t query_ = 0;
};

// Upper bound of max over points p of `from` of distance(p, to). The slack over the true value is at
// most the largest of: the covering radius of pieces with edges of `spacing` (spacing / sqrt 3),
// `relativeSlack` times the result, and the covering radius of 1/64 of a triangle's longest edge.
float surfaceDistanceBound(TriangleSurface from, const SurfaceGrid& to, float spacing, float relativeSlack = 0.0f);

}  // namespace sieve::assets
