#include "click_pick.h"

#include <cstdio>

namespace viewer {

void ClickPick::recorded(uint32_t slot, const CullingFrame& frame) {
    if (slot >= slots_.size()) return;
    slots_[slot].reset();
    if (!pending_) return;
    slots_[slot] = Request{pending_->first, pending_->second, frame};
    pending_.reset();
}

void ClickPick::collected(uint32_t slot, const engine::ui::PickReadbackPass* pass,
                          const sieve::assets::SceneData& scene, engine::ui::OverlayModel& model) {
    if (slot >= slots_.size() || !slots_[slot]) return;
    const Request r = *slots_[slot];
    slots_[slot].reset();
    const auto readback = pass ? pass->read(slot) : std::nullopt;
    if (!readback) return;
    auto json = pickJson(scene, r.frame, *readback, r.x, r.y);
    if (!json) {
        model.status = "pick failed: " + json.error().message;
        model.statusIsError = true;
        return;
    }
    std::printf("pick: %s\n", json->c_str());
    std::fflush(stdout);
    model.pick = pickText(*json);
}

}  // namespace viewer
