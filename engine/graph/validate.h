#pragma once
// Checks of a graph's declarations. Conflicts are hard errors whose message names the pass and the slot:
// the graph never guesses what a conflicting declaration meant.
#include <vector>

#include "engine/graph/compile.h"

namespace engine::graph {

// Resolves VK_REMAINING_* in image ranges against the slot's mip count. Call after the slot ids are checked.
void resolveRanges(const std::vector<CompiledSlot>& slots, sieve::PassDesc& pass);

// Slot names, then each use on its own (slot range, kinds, access vs write flag vs stage vs layout), then the
// uses of one pass together (one layout per subresource), then the order (reads of contents no pass wrote).
// The passes' ranges are resolved except where a slot id is out of range.
sieve::Result<void> validate(const std::vector<CompiledSlot>& slots, const std::vector<sieve::PassDesc>& passes);

}  // namespace engine::graph
