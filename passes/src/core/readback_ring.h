#pragma once
// The readback rings of both plugins (Memory::Readback slots, one record per frame slot): a record is read
// framesInFlight frames after the plugin recorded it, once the host has waited for that frame's fence, and
// is trusted only when its header carries the frame this plugin remembers writing into that slot: the host's
// memory starts as anything, and a record that merely looks valid proves nothing.
#include <cstdint>
#include <vector>

namespace sieve {

// The first 16 bytes of every record, written by the GPU with the frame's other words.
struct ReadbackHeader {
    uint32_t frameLo = 0;
    uint32_t frameHi = 0;
    uint32_t payload = 0;  // one word of the plugin's (the culling plugin: the instance count)
    uint32_t valid = 0;    // 1
};
static_assert(sizeof(ReadbackHeader) == 16);

inline ReadbackHeader readbackHeader(uint64_t frame, uint32_t payload) {
    return {uint32_t(frame), uint32_t(frame >> 32), payload, 1u};
}

class ReadbackTags {
public:
    // Nothing written (new or re-created memory).
    void reset(size_t slots) { frames_.assign(slots, kNever); }
    void wrote(uint32_t slot, uint64_t frame) { frames_[slot] = frame; }
    // Whether the record in `slot` with header `h` is the one this plugin wrote there.
    bool trusted(uint32_t slot, const ReadbackHeader& h) const {
        const uint64_t tag = uint64_t(h.frameHi) << 32 | h.frameLo;
        return slot < frames_.size() && frames_[slot] != kNever && h.valid == 1 && tag == frames_[slot];
    }

private:
    static constexpr uint64_t kNever = UINT64_MAX;
    std::vector<uint64_t> frames_;
};

}  // namespace sieve
