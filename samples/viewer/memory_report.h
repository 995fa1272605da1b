#pragma once
// --report-memory: one line with the process's resident set (VmRSS from /proc/self/status) and the
// device memory the engine's allocator holds, for long-run tests that check both stay flat.
#include <cstdint>

namespace engine {
class Context;
}

namespace viewer {

// Prints "memory: frame F rss_kib R device_block_bytes B device_in_use_bytes U" and flushes stdout.
void printMemoryReport(uint64_t frame, engine::Context& ctx);

}  // namespace viewer
