#pragma once
// GPU clocks read (never set) through nvidia-smi, logged before and after each timed submission: the
// numbers of a run are only comparable at the clocks they ran at. Absent (null in JSON) where nvidia-smi
// is not installed or answers nothing (lavapipe, other vendors).
#include <optional>
#include <string>

namespace bench {

struct Clocks {
    double smMhz = 0, memMhz = 0, temperatureC = 0, powerW = 0;
};

std::optional<Clocks> readClocks();
// {"sm_mhz": .., "mem_mhz": .., "temp_c": .., "power_w": ..} or null.
std::string clocksJson(const std::optional<Clocks>& c);

}  // namespace bench
