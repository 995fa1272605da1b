// The subgroup operations the scans rely on, checked one by one against what the input says they must
// return (shaders/test/subgroup_probe.comp), and what the shaders assume of a subgroup: its active
// invocations are lanes 0 .. n-1, n = subgroupAdd(1) <= gl_SubgroupSize. It does not assume n ==
// gl_SubgroupSize: lavapipe at 1024/2048-bit vectors runs 16 invocations in subgroups it declares 32 or 64
// wide (docs/subgroup-matrix.md), which is what broke the look-back's fallback there.
#include <map>
#include <random>

#include "gpu_fixture.h"
#include "shared/test_push.h"
#include "sieve/pipeline.h"

namespace {

using testing_gpu::GpuTest;

TEST_F(GpuTest, SubgroupOperationsReturnWhatTheirInputsSay) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/subgroup_probe.comp", sizeof(sieve::gpu::AddPush)});
    ASSERT_TRUE(pipe) << pipe.error().message;
    const uint32_t groups = 16, n = groups * 64;
    std::mt19937 rng(7);
    std::vector<uint32_t> input(n);
    for (size_t i = 0; i < n; ++i) {
        // Runs of set and clear predicates of every length, and some all-set / all-clear groups.
        const uint32_t group = uint32_t(i / 64);
        const bool bit = group % 4 == 0 ? true : group % 4 == 1 ? false : (rng() % (group % 4 == 2 ? 2 : 7)) == 0;
        input[i] = (rng() % 1000) * 2 + (bit ? 1 : 0);
    }
    engine::Buffer in = makeBuffer(input);
    engine::Buffer out = makeEmpty(n * 8 * 4);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        pipe->dispatchLinear(cmd, {sieve::Binding::storage(in.range()), sieve::Binding::storage(out.range())},
                             sieve::gpu::AddPush{n}, groups);
    });
    ASSERT_TRUE(r) << r.error().message;
    const auto got = read<uint32_t>(out, n * 8);
    const uint32_t size = got[0];
    ASSERT_GE(size, 1u);
    // Subgroups as the shader reports them: (workgroup, subgroup id) -> lane -> invocation.
    std::map<std::pair<uint32_t, uint32_t>, std::map<uint32_t, uint32_t>> subgroups;
    for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(got[8 * i], size) << "invocation " << i;
        ASSERT_LT(got[8 * i + 2], size) << "invocation " << i;
        subgroups[{i / 64, got[8 * i + 1]}][got[8 * i + 2]] = i;
    }
    int wrong = 0;
    for (const auto& [key, lanes] : subgroups) {
        // Active lanes are 0 .. n-1.
        ASSERT_EQ(lanes.rbegin()->first + 1, lanes.size()) << "workgroup " << key.first << " subgroup " << key.second;
        uint32_t count = 0, lowest = ~0u, sum = 0, laneSum = 0;
        for (const auto& [lane, i] : lanes) {
            const bool bit = input[i] & 1;
            count += bit;
            if (bit && lowest == ~0u) lowest = lane;
            sum += input[i];
            if (bit) laneSum += lane;
        }
        uint32_t before = 0;
        for (const auto& [lane, i] : lanes) {
            const uint32_t* w = &got[8 * i];
            const char* names[] = {"", "", "", "ballot bit count", "find LSB", "add", "exclusive add", "bit extract"};
            const uint32_t expect[] = {0, 0, 0, count, lowest, sum, before, laneSum};
            for (int k = 3; k < 8; ++k)
                if (w[k] != expect[k] && ++wrong <= 10)
                    ADD_FAILURE() << "subgroup size " << size << ", workgroup " << key.first << " subgroup "
                                  << key.second << " lane " << lane << ": " << names[k] << " " << w[k] << ", expected "
                                  << expect[k];
            before += input[i];
        }
    }
    EXPECT_EQ(wrong, 0);
}

}  // namespace
