#pragma once
// One line for the log when the user changed a culling toggle or the debug view: names each change
// ("frustum off, LOD bias 2"), so that a log of a session says what was switched and when.
#include <string>

#include "engine/ui/frame_stats.h"

namespace engine::ui {

// Empty when nothing differs.
std::string describeToggleChanges(const CullingSwitches& before, const CullingSwitches& after);
std::string describeDebugViewChange(DebugView before, DebugView after);

}  // namespace engine::ui
