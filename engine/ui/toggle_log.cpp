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

std::string describeToggleChanges(const sieve::CullingToggles& b, const sieve::CullingToggles& a) {
    std::string out;
    for (const sieve::CullTest& test : sieve::kCullTests)
        onOff(out, std::string(test.name).c_str(), b.*test.toggle, a.*test.toggle);
    onOff(out, "two-phase", b.twoPhase, a.twoPhase);
    onOff(out, "LOD", b.lod, a.lod);
    onOff(out, "freeze", b.freeze, a.freeze);
    onOff(out, "single-dispatch Hi-Z", b.singleDispatchHiZ, a.singleDispatchHiZ);
    if (b.stable != a.stable) add(out, a.stable ? "stable compaction" : "atomic append");
    if (b.lodBias != a.lodBias) add(out, "LOD bias " + std::to_string(a.lodBias));
    if (b.lodThreshold != a.lodThreshold) {
        char text[48];
        std::snprintf(text, sizeof(text), "LOD threshold %g px", double(a.lodThreshold));
        add(out, text);
    }
    return out;
}

std::string describeDebugViewChange(DebugView before, DebugView after) {
    return before == after ? std::string() : std::string("debug view ") + debugViewName(after);
}

}  // namespace engine::ui
