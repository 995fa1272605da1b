// The single-dispatch Hi-Z builder (shaders/hiz/single_pass.comp) hands mip 6 from every workgroup to the
// last one through an atomic counter. lavapipe runs workgroups as CPU threads and cannot show a missing
// barrier, so this test reads the embedded SPIR-V and checks the hand-off the memory model needs:
//  - release: each tile's mip-6 stores are made available at device (queue family) scope between its
//    last image store and the counter increment;
//  - acquire: the invocation that increments acquires image memory at device scope before it tells
//    the other invocations of its workgroup;
//  - hand-off: after a plain barrier that shares the "last" flag, the last workgroup alone runs a control
//    barrier with image semantics (acquire-release) at device scope, and every later control barrier
//    (mips 7.. in the last workgroup) orders image memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "sieve/spirv.h"

namespace {

// SPIR-V opcodes, scopes and memory-semantics bits (SPIR-V specification, sections 3.27, 3.25, 3.26).
constexpr uint32_t kOpConstant = 43, kOpImageWrite = 99, kOpControlBarrier = 224, kOpMemoryBarrier = 225,
                   kOpAtomicIAdd = 234;
constexpr uint32_t kScopeDevice = 1, kScopeWorkgroup = 2, kScopeQueueFamily = 5;
constexpr uint32_t kAcquire = 0x2, kRelease = 0x4, kAcquireRelease = 0x8, kImageMemory = 0x800;

struct Sync {
    uint32_t op = 0;
    uint32_t scope = 0;      // memory scope
    uint32_t semantics = 0;  // memory semantics
};

struct Module {
    std::vector<uint32_t> ops;     // opcode of each instruction, in order
    std::map<size_t, Sync> syncs;  // barriers and the counter increment, by instruction index
    std::vector<size_t> atomicAdds, imageWrites;
};

Module parse(std::span<const uint32_t> words) {
    Module m;
    std::map<uint32_t, uint32_t> constants;  // id -> first value word
    struct Raw {
        size_t at;
        uint32_t op, scopeId, semanticsId;
    };
    std::vector<Raw> raw;
    for (size_t i = 5; i < words.size();) {
        const uint32_t count = words[i] >> 16, op = words[i] & 0xFFFFu;
        if (count == 0 || i + count > words.size()) {
            ADD_FAILURE() << "malformed SPIR-V at word " << i;
            break;
        }
        const size_t at = m.ops.size();
        m.ops.push_back(op);
        if (op == kOpConstant && count >= 4) constants[words[i + 2]] = words[i + 3];
        if (op == kOpImageWrite) m.imageWrites.push_back(at);
        if (op == kOpControlBarrier && count == 4) raw.push_back({at, op, words[i + 2], words[i + 3]});
        if (op == kOpMemoryBarrier && count == 3) raw.push_back({at, op, words[i + 1], words[i + 2]});
        if (op == kOpAtomicIAdd && count == 7) {
            raw.push_back({at, op, words[i + 4], words[i + 5]});
            m.atomicAdds.push_back(at);
        }
        i += count;
    }
    for (const Raw& r : raw) {
        // Scopes and semantics of these instructions are constants in shaders compiled by glslc.
        EXPECT_TRUE(constants.count(r.scopeId) && constants.count(r.semanticsId)) << "instruction " << r.at;
        m.syncs[r.at] = {r.op, constants[r.scopeId], constants[r.semanticsId]};
    }
    return m;
}

bool deviceScope(const Sync& s) {
    return s.scope == kScopeDevice || s.scope == kScopeQueueFamily;
}
bool imageRelease(const Sync& s) {
    return (s.semantics & kImageMemory) && (s.semantics & (kRelease | kAcquireRelease));
}
bool imageAcquire(const Sync& s) {
    return (s.semantics & kImageMemory) && (s.semantics & (kAcquire | kAcquireRelease));
}
std::string describe(const Sync& s) {
    std::ostringstream o;
    o << "scope " << s.scope << ", semantics 0x" << std::hex << s.semantics;
    return o.str();
}

class HiZSinglePassSync : public ::testing::Test {
protected:
    void SetUp() override {
        const auto words = sieve::embeddedSpirv("hiz/single_pass.comp");
        ASSERT_GT(words.size(), 5u);
        ASSERT_EQ(words[0], 0x07230203u);
        m = parse(words);
        ASSERT_EQ(m.atomicAdds.size(), 1u) << "the shader counts finished tiles with one atomic add";
        counter = m.atomicAdds[0];
    }
    // The first device-scope control barrier after the counter increment: where the last workgroup passes
    // what its incrementing invocation acquired on to the others.
    std::optional<size_t> handOff() const {
        for (auto it = m.syncs.upper_bound(counter); it != m.syncs.end(); ++it)
            if (it->second.op == kOpControlBarrier && deviceScope(it->second)) return it->first;
        return std::nullopt;
    }
    Module m;
    size_t counter = 0;
};

}  // namespace

TEST_F(HiZSinglePassSync, TileStoresAreReleasedAtDeviceScopeBeforeTheIncrement) {
    size_t lastStore = 0;
    for (size_t w : m.imageWrites)
        if (w < counter) lastStore = w;
    ASSERT_GT(lastStore, 0u) << "no image store before the counter increment";
    bool released = false;
    for (auto it = m.syncs.upper_bound(lastStore); it != m.syncs.end() && it->first <= counter; ++it)
        released = released || (deviceScope(it->second) && imageRelease(it->second));
    EXPECT_TRUE(released) << "no device-scope release of image memory between the last mip store and the "
                             "increment (increment: "
                          << describe(m.syncs[counter]) << ")";
}

TEST_F(HiZSinglePassSync, TheIncrementingInvocationAcquiresBeforeTellingItsWorkgroup) {
    const auto barrier = handOff();
    ASSERT_TRUE(barrier) << "no device-scope control barrier after the counter increment";
    bool acquired = false;
    for (auto it = m.syncs.find(counter); it != m.syncs.end() && it->first <= *barrier; ++it)
        acquired = acquired || (deviceScope(it->second) && imageAcquire(it->second));
    EXPECT_TRUE(acquired) << "the other tiles' mip 6 is not acquired at device scope between the increment ("
                          << describe(m.syncs[counter]) << ") and the hand-off barrier ("
                          << describe(m.syncs.at(*barrier)) << ")";
}

TEST_F(HiZSinglePassSync, TheLastWorkgroupReceivesMip6ThroughADeviceScopeImageBarrier) {
    const auto barrier = handOff();
    ASSERT_TRUE(barrier) << "no device-scope control barrier after the counter increment";
    const Sync& s = m.syncs.at(*barrier);
    EXPECT_TRUE(deviceScope(s)) << "hand-off barrier: " << describe(s);
    EXPECT_TRUE((s.semantics & kImageMemory) && (s.semantics & kAcquireRelease)) << "hand-off barrier: " << describe(s);
}

TEST_F(HiZSinglePassSync, BarriersBetweenTheLastWorkgroupsMipsOrderImageMemory) {
    const auto barrier = handOff();
    ASSERT_TRUE(barrier) << "no device-scope control barrier after the counter increment";
    size_t later = 0;
    for (auto it = m.syncs.find(*barrier); it != m.syncs.end(); ++it) {
        if (it->second.op != kOpControlBarrier) continue;
        ++later;
        const Sync& s = it->second;
        EXPECT_TRUE((s.semantics & kImageMemory) && (s.semantics & kAcquireRelease) &&
                    (deviceScope(s) || s.scope == kScopeWorkgroup))
            << "control barrier at instruction " << it->first << ": " << describe(s);
    }
    EXPECT_GE(later, 2u) << "expected the hand-off barrier and one barrier per mip from 7 on";
}
