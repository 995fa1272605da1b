// The log line that names what the user switched in the overlay (engine/ui/toggle_log.h).
#include <gtest/gtest.h>

#include "engine/ui/toggle_log.h"

TEST(ToggleLog, NamesEachChangeAndNothingElse) {
    engine::ui::CullingSwitches a;
    EXPECT_EQ(engine::ui::describeToggleChanges(a, a), "");
    engine::ui::CullingSwitches b = a;
    b.toggles.frustum = false;
    EXPECT_EQ(engine::ui::describeToggleChanges(a, b), "frustum off");
    b.toggles.lodBias = -3;
    b.stable = false;
    b.toggles.freeze = true;
    b.toggles.distance = false;
    b.toggles.checkCulling = true;
    b.drawDistance = 200.0f;
    EXPECT_EQ(engine::ui::describeToggleChanges(a, b),
              "frustum off, distance off, freeze on, check culling on, atomic append, LOD bias -3, draw distance 200");
    EXPECT_EQ(
        engine::ui::describeToggleChanges(b, a),
        "frustum on, distance on, freeze off, check culling off, stable compaction, LOD bias 0, no draw distance");
    EXPECT_EQ(engine::ui::describeDebugViewChange(engine::ui::DebugView::Off, engine::ui::DebugView::Off), "");
    EXPECT_EQ(engine::ui::describeDebugViewChange(engine::ui::DebugView::Off, engine::ui::DebugView::Culling),
              "debug view culling");
}
