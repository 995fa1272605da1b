#pragma once
// What both plugins check of the host's bindings before recording a pass (sieve/plugin.h's contract): one
// binding per declared slot, and for each slot the pass uses, a buffer (not shorter than declared, except an
// imported table, which is as large as the host's scene; mapped where the plugin writes or reads it from the
// CPU) or an image (with a view per mip where it has mips, and of the declared extent where the host says its
// extent).
#include <span>

#include "sieve/plugin.h"

namespace sieve {

Result<void> checkPassBindings(std::span<const SlotDesc> slots, const PassDesc& pass, const Bindings& b);

// setInstanceCount's check: `n` instances within the configured `maxInstances`, else an error naming `plugin`.
Result<void> checkInstanceCount(const char* plugin, uint32_t n, uint32_t maxInstances);

}  // namespace sieve
