#include "memory_report.h"

#include <cstdio>
#include <cstring>

#include "engine/vk/context.h"

namespace viewer {

namespace {
// VmRSS in KiB; 0 where /proc is unavailable.
long long residentKiB() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    long long kib = 0;
    while (std::fgets(line, sizeof(line), f))
        if (std::strncmp(line, "VmRSS:", 6) == 0) {
            std::sscanf(line + 6, "%lld", &kib);
            break;
        }
    std::fclose(f);
    return kib;
}
}  // namespace

void printMemoryReport(uint64_t frame, engine::Context& ctx) {
    std::printf("memory: frame %llu rss_kib %lld device_block_bytes %llu device_in_use_bytes %llu\n",
                (unsigned long long)frame, residentKiB(), (unsigned long long)ctx.allocator().blockBytes(),
                (unsigned long long)ctx.allocator().bytesInUse());
    std::fflush(stdout);
}

}  // namespace viewer
