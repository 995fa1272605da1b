// The log line that names what the user switched in the overlay (engine/ui/toggle_log.h).
#include <gtest/gtest.h>

#include "engine/ui/toggle_log.h"

TEST(ToggleLog, NamesEachChangeAndNothingElse) {
    sieve::CullingToggles a;
    EXPECT_EQ(engine::ui::describeToggleChanges(a, a), "");
    sieve::CullingToggles b = a;
    b.frustum = false;
    EXPECT_EQ(engine::ui::describeToggleChanges(a, b), "frustum off");
    b.lodBias = -3;
    b.stable = false;
    b.freeze = true;
    EXPECT_EQ(engine::ui::describeToggleChanges(a, b), "frustum off, freeze on, atomic append, LOD bias -3");
    EXPECT_EQ(engine::ui::describeToggleChanges(b, a), "frustum on, freeze off, stable compaction, LOD bias 0");
    EXPECT_EQ(engine::ui::describeDebugViewChange(engine::ui::DebugView::Off, engine::ui::DebugView::Off), "");
    EXPECT_EQ(engine::ui::describeDebugViewChange(engine::ui::DebugView::Off, engine::ui::DebugView::Culling),
              "debug view culling");
}
