#include "clocks.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace bench {

std::optional<Clocks> readClocks() {
    // Read-only query; stderr is dropped so a missing nvidia-smi costs one shell start and no noise.
    FILE* p = popen(
        "nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader,nounits "
        "--id=0 2>/dev/null",
        "r");
    if (!p) return std::nullopt;
    char line[256] = {};
    const bool got = std::fgets(line, sizeof line, p) != nullptr;
    pclose(p);
    if (!got) return std::nullopt;
    Clocks c;
    double* fields[] = {&c.smMhz, &c.memMhz, &c.temperatureC, &c.powerW};
    char* at = line;
    for (double* f : fields) {
        char* end = nullptr;
        *f = std::strtod(at, &end);
        if (end == at) *f = NAN;  // "[N/A]" and the like
        while (*end && *end != ',') ++end;
        at = *end ? end + 1 : end;
    }
    if (!std::isfinite(c.smMhz)) return std::nullopt;
    return c;
}

std::string clocksJson(const std::optional<Clocks>& c) {
    if (!c) return "null";
    auto num = [](double v) {
        if (!std::isfinite(v)) return std::string("null");
        char b[32];
        std::snprintf(b, sizeof b, "%.6g", v);
        return std::string(b);
    };
    return "{\"sm_mhz\": " + num(c->smMhz) + ", \"mem_mhz\": " + num(c->memMhz) +
           ", \"temp_c\": " + num(c->temperatureC) + ", \"power_w\": " + num(c->powerW) + "}";
}

}  // namespace bench
