#pragma once
// Reading a Hi-Z pyramid back to the host (tests and bench compare it with the CPU reference).
#include <vector>

#include "engine/vk/resources.h"

namespace engine {

// Every mip of `pyramid` (RG32F: min, max per texel; in GENERAL after compute storage writes), as floats
// in texel order, two per texel. The pyramid is left in GENERAL, visible to compute storage and sampled
// reads.
sieve::Result<std::vector<std::vector<float>>> readPyramid(Context& ctx, const Image& pyramid);

}  // namespace engine
