#include "freeze_control.h"

namespace viewer {

FreezeControl::Frame FreezeControl::next(bool wanted, const glm::mat4& view, const glm::mat4& projection,
                                         VkExtent2D extent) {
    // The plugin re-takes its frozen views at a new depth extent, without a pyramid: culled again first.
    if (extent.width != extent_.width || extent.height != extent_.height) culledHere_ = 0;
    extent_ = extent;
    wanted_ = wanted;
    const bool sameCamera = last_ && last_->view == view && last_->projection == projection;
    if (!wanted || !last_) {
        culledHere_ = sameCamera ? culledHere_ + 1 : 1;
        last_ = Camera{view, projection};
        // The first frame of a run that wants the freeze is culled at its own camera, which is kept.
        return {view, projection, false};
    }
    if (culledHere_ >= kWarmUpFrames) return {view, projection, true};  // drawn from the user's camera
    ++culledHere_;  // culled once more at the frozen camera, unfrozen
    return {last_->view, last_->projection, false};
}

}  // namespace viewer
