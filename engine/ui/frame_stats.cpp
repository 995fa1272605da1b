#include "engine/ui/frame_stats.h"

#include <algorithm>

namespace engine::ui {

const char* debugViewName(DebugView v) {
    switch (v) {
        case DebugView::Culling: return "culling";
        case DebugView::Lod: return "lod";
        case DebugView::Clusters: return "clusters";
        case DebugView::Off: break;
    }
    return "off";
}

void RollingSeries::add(float value) {
    samples_[head_] = value;
    head_ = (head_ + 1) % kCapacity;
    count_ = std::min(count_ + 1, kCapacity);
}

float RollingSeries::average() const {
    if (!count_) return 0.0f;
    double sum = 0;
    for (size_t i = 0; i < count_; ++i) sum += samples_[(head_ + kCapacity - 1 - i) % kCapacity];
    return float(sum / double(count_));
}

float RollingSeries::max() const {
    float m = 0.0f;
    for (size_t i = 0; i < count_; ++i) m = std::max(m, samples_[(head_ + kCapacity - 1 - i) % kCapacity]);
    return m;
}

std::vector<float> RollingSeries::ordered() const {
    std::vector<float> out(count_);
    const size_t start = (head_ + kCapacity - count_) % kCapacity;
    for (size_t i = 0; i < count_; ++i) out[i] = samples_[(start + i) % kCapacity];
    return out;
}

void PassTimings::add(std::string_view pass, float ms) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == pass; });
    if (it == entries_.end()) it = entries_.insert(entries_.end(), Entry{std::string(pass), {}, false, 0});
    it->ms.add(ms);
    it->current = true;
    it->order = reported_++;
}

void PassTimings::endFrame() {
    if (reported_ == 0) return;  // nothing read back this time: the last frame's order stays
    for (Entry& e : entries_)
        if (e.order >= reported_) e.current = false, e.order = reported_;
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return a.order < b.order; });
    for (Entry& e : entries_) e.order = UINT32_MAX;  // a pass added in the next frame gets its position again
    reported_ = 0;
}

std::map<std::string, float> PassTimings::averages() const {
    std::map<std::string, float> out;
    for (const Entry& e : entries_) out[e.name] = e.ms.average();
    return out;
}

float PassTimings::totalAverage() const {
    float sum = 0;
    for (const Entry& e : entries_) sum += e.ms.average();
    return sum;
}

}  // namespace engine::ui
