#include "engine/ui/toggle_log.h"

#include <cstdio>

#include "sieve/cull_tests.h"

namespace engine::ui {

namespace {
void add(std::string& out, const std::string& item) {
    out += (out.empty() ? "" : ", ") + item;
}
void onOff(std::string& out, const char* name, bool before, bool after) {
    if (before != after) add(out, std::string(name) + (after ? " on" : " off"));
}
}  // namespace

std::string describeToggleChanges(const CullingSwitches& before, const CullingSwitches& after) {
    const sieve::CullingToggles& b = before.toggles;
    const sieve::CullingToggles& a = after.toggles;
    std::string out;
    for (const sieve::CullTest& test : sieve::kCullTests)
        onOff(out, std::string(test.name).c_str(), b.*test.toggle, a.*test.toggle);
    onOff(out, "two-phase", b.twoPhase, a.twoPhase);
    onOff(out, "LOD", b.lod, a.lod);
    onOff(out, "freeze", b.freeze, a.freeze);
    onOff(out, "check culling", b.checkCulling, a.checkCulling);
    if (before.stable != after.stable) add(out, after.stable ? "stable compaction" : "atomic append");
    if (b.lodBias != a.lodBias) add(out, "LOD bias " + std::to_string(a.lodBias));
    if (b.lodThreshold != a.lodThreshold) {
        char text[48];
        std::snprintf(text, sizeof(text), "LOD threshold %g px", double(a.lodThreshold));
        add(out, text);
    }
    if (before.drawDistance != after.drawDistance) {
        char text[48];
        std::snprintf(text, sizeof(text), "draw distance %g", double(after.drawDistance));
        add(out, after.drawDistance > 0.0f ? text : "no draw distance");
    }
    return out;
}

std::string describeDebugViewChange(DebugView before, DebugView after) {
    return before == after ? std::string() : std::string("debug view ") + debugViewName(after);
}

}  // namespace engine::ui
