// The overlay's GPU time table (engine/ui/frame_stats.h PassTimings): in the order the last frame ran its
// passes, passes it did not run kept (with their history) but not current.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/ui/frame_stats.h"

namespace {
std::vector<std::string> names(const engine::ui::PassTimings& t, bool currentOnly) {
    std::vector<std::string> out;
    for (const auto& e : t.entries())
        if (e.current || !currentOnly) out.push_back(e.name);
    return out;
}
}  // namespace

TEST(PassTimings, FollowTheLastFrameOrder) {
    engine::ui::PassTimings t;
    t.add("overlay", 1.0f);  // reported first once (the viewer used to add it before the graph's passes)
    t.add("cull", 2.0f);
    t.endFrame();
    EXPECT_EQ(names(t, true), (std::vector<std::string>{"overlay", "cull"}));
    t.add("cull", 2.0f);
    t.add("draw", 3.0f);
    t.add("overlay", 1.0f);
    t.endFrame();
    EXPECT_EQ(names(t, true), (std::vector<std::string>{"cull", "draw", "overlay"}));
    // A frame without "draw": kept after the current ones, not current, its history intact.
    t.add("cull", 2.0f);
    t.add("overlay", 1.0f);
    t.endFrame();
    EXPECT_EQ(names(t, true), (std::vector<std::string>{"cull", "overlay"}));
    EXPECT_EQ(names(t, false), (std::vector<std::string>{"cull", "overlay", "draw"}));
    EXPECT_EQ(t.entries().back().ms.size(), 1u);
    // Nothing read back (a frame without timings): the order stays.
    t.endFrame();
    EXPECT_EQ(names(t, true), (std::vector<std::string>{"cull", "overlay"}));
    // "draw" runs again: current, in its place.
    t.add("cull", 2.0f);
    t.add("draw", 3.0f);
    t.add("overlay", 1.0f);
    t.endFrame();
    EXPECT_EQ(names(t, true), (std::vector<std::string>{"cull", "draw", "overlay"}));
    EXPECT_EQ(t.entries()[1].ms.size(), 2u);
}
