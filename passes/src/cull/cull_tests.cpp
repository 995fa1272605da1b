// The table of sieve/cull_tests.h.
#include "sieve/cull_tests.h"

#include "sieve/culling.h"

namespace sieve {

const std::array<CullTest, gpu::SIEVE_CULL_TEST_COUNT> kCullTests{{
    {gpu::SIEVE_TEST_FRUSTUM,
     "frustum",
     gpu::SIEVE_CULL_FRUSTUM,
     &CullingToggles::frustum,
     gpu::SIEVE_STATE_FRUSTUM_CULLED,
     "outside the frustum",
     {1.0f, 0.0f, 0.0f}},
    {gpu::SIEVE_TEST_DISTANCE,
     "distance",
     gpu::SIEVE_CULL_DISTANCE,
     &CullingToggles::distance,
     gpu::SIEVE_STATE_DISTANCE_CULLED,
     "beyond the draw distance",
     {0.0f, 1.0f, 1.0f}},
    {gpu::SIEVE_TEST_OCCLUSION,
     "occlusion",
     gpu::SIEVE_CULL_OCCLUSION,
     &CullingToggles::occlusion,
     gpu::SIEVE_STATE_OCCLUSION_CULLED,
     "behind the depth pyramid",
     {1.0f, 0.0f, 1.0f}},
}};

const CullTest* findCullTest(std::string_view name) {
    for (const CullTest& t : kCullTests)
        if (t.name == name) return &t;
    return nullptr;
}

static_assert(gpu::SIEVE_TEST_FRUSTUM == 0 && gpu::SIEVE_TEST_DISTANCE == 1 && gpu::SIEVE_TEST_OCCLUSION == 2,
              "kCullTests lists the tests in index order");

}  // namespace sieve
