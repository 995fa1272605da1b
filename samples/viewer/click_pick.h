#pragma once
// Picking in the window: a right click on the scene asks why the instance under the cursor was culled or
// drawn. The frame recorded next reads back the decisions and the pyramid (engine/ui/pick_readback_pass.h);
// once its slot's fence has been waited for, the pick (pick.h) goes to the overlay's pick window and, as
// a 'pick: {JSON}' line, to stdout.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "engine/ui/frame_stats.h"
#include "pick.h"

namespace viewer {

class ClickPick {
public:
    explicit ClickPick(uint32_t framesInFlight) : slots_(framesInFlight) {}
    void request(int x, int y) { pending_ = std::pair{x, y}; }
    // Whether the frame about to be recorded must read back (a click waits).
    bool wantsReadback() const { return pending_.has_value(); }
    // The frame recorded into `slot` was drawn and culled as `frame` (the pending click goes with it).
    void recorded(uint32_t slot, const CullingFrame& frame);
    // After the slot's fence: the pick of the click recorded with it, if any, into model.pick.
    void collected(uint32_t slot, const engine::ui::PickReadbackPass* pass, const sieve::assets::SceneData& scene,
                   engine::ui::OverlayModel& model);

private:
    struct Request {
        int x = 0, y = 0;
        CullingFrame frame;
    };
    std::optional<std::pair<int, int>> pending_;
    std::vector<std::optional<Request>> slots_;
};

}  // namespace viewer
