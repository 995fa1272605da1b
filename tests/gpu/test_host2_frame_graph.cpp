// host2's frame graph on its own: culling of unused passes, ordering by versions (an old version is read
// before the write that superseded it), the errors it reports instead of guessing, the barrier state
// machine, and the translation of the plugin's sync2 uses into host2's usages.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frame_graph.h"
#include "gpu/gpu_fixture.h"
#include "sieve_adapter.h"

using namespace host2;

namespace {

struct Empty {};
auto noop = [](const Empty&, Context&) {};

class Host2GraphTest : public testing_gpu::GpuTest {
protected:
    ResourceCache cache_{ctx()};
    PhysicalResource a_, b_, c_;  // imported: writing them makes a pass a root
};

}  // namespace

TEST_F(Host2GraphTest, CullsPassesWhoseResultsNothingReads) {
    FrameGraph fg(cache_);
    BufferHandle out = fg.importBuffer("out", a_);
    BufferHandle unused = fg.createBuffer("unused", {64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT});
    BufferHandle tmp = fg.createBuffer("tmp", {64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT});
    fg.addPass<Empty>(
        "writes unused", [&](Builder& b, Empty&) { b.write(unused, Usage::StorageWriteCompute); }, noop);
    fg.addPass<Empty>(
        "writes tmp", [&](Builder& b, Empty&) { tmp = b.write(tmp, Usage::StorageWriteCompute); }, noop);
    fg.addPass<Empty>(
        "tmp to out",
        [&](Builder& b, Empty&) {
            b.read(tmp, Usage::StorageReadCompute);
            b.write(out, Usage::StorageWriteCompute);
        },
        noop);
    fg.addPass<Empty>(
        "side effect", [&](Builder& b, Empty&) { b.sideEffect(); }, noop);
    ASSERT_TRUE(fg.compile());
    EXPECT_EQ(fg.order(), (std::vector<std::string>{"writes tmp", "tmp to out", "side effect"}));
    EXPECT_EQ(fg.physical(unused), nullptr) << "a resource only culled passes use is not allocated";
    EXPECT_NE(fg.physical(tmp), nullptr);
}

TEST_F(Host2GraphTest, ReaderOfAnOldVersionRunsBeforeTheWriteThatSupersededIt) {
    FrameGraph fg(cache_);
    BufferHandle x = fg.createBuffer("x", {64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT});
    BufferHandle outA = fg.importBuffer("a", a_), outB = fg.importBuffer("b", b_);
    BufferHandle v1, v2;
    fg.addPass<Empty>(
        "write v1", [&](Builder& b, Empty&) { v1 = b.write(x, Usage::StorageWriteCompute); }, noop);
    fg.addPass<Empty>(
        "write v2",
        [&](Builder& b, Empty&) {
            b.read(v1, Usage::StorageReadCompute);
            v2 = b.write(v1, Usage::StorageWriteCompute);
            b.write(outA, Usage::StorageWriteCompute);
        },
        noop);
    fg.addPass<Empty>(
        "read v1 late",
        [&](Builder& b, Empty&) {
            b.read(v1, Usage::StorageReadCompute);
            b.write(outB, Usage::StorageWriteCompute);
        },
        noop);
    ASSERT_TRUE(fg.compile());
    EXPECT_NE(v1, v2);
    EXPECT_EQ(fg.order(), (std::vector<std::string>{"write v1", "read v1 late", "write v2"}));
}

TEST_F(Host2GraphTest, ReportsMisuseInsteadOfGuessing) {
    {
        FrameGraph fg(cache_);
        BufferHandle x = fg.importBuffer("x", a_), v1;
        fg.addPass<Empty>(
            "w1", [&](Builder& b, Empty&) { v1 = b.write(x, Usage::StorageWriteCompute); }, noop);
        fg.addPass<Empty>(
            "w0 again", [&](Builder& b, Empty&) { b.write(x, Usage::StorageWriteCompute); }, noop);
        auto r = fg.compile();
        ASSERT_FALSE(r);
        EXPECT_NE(r.error().message.find("old version of 'x'"), std::string::npos) << r.error().message;
    }
    {
        FrameGraph fg(cache_);
        BufferHandle x = fg.importBuffer("x", a_);
        fg.addPass<Empty>(
            "p", [&](Builder& b, Empty&) { b.read(x, Usage::StorageWriteCompute); }, noop);
        auto r = fg.compile();
        ASSERT_FALSE(r);
        EXPECT_NE(r.error().message.find("as StorageWriteCompute"), std::string::npos) << r.error().message;
    }
    {
        FrameGraph fg(cache_);
        ImageHandle img = fg.importImage("img", a_);
        fg.addPass<Empty>(
            "p",
            [&](Builder& b, Empty&) {
                b.read(img, Usage::SampledCompute);
                b.write(img, Usage::StorageImageCompute);
            },
            noop);
        auto r = fg.compile();
        ASSERT_FALSE(r);
        EXPECT_NE(r.error().message.find("two layouts"), std::string::npos) << r.error().message;
    }
    {
        // p3 reads A's first version (so runs before p1 writes the second) and B after p2 wrote it, and p2
        // reads what p1 wrote: a cycle.
        FrameGraph fg(cache_);
        BufferHandle x = fg.createBuffer("x", {64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT});
        BufferHandle y = fg.createBuffer("y", {64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT});
        BufferHandle out = fg.importBuffer("out", c_);
        BufferHandle x0 = x, x1, y1;
        fg.addPass<Empty>(
            "p0",
            [&](Builder& b, Empty&) {
                x = b.write(x, Usage::StorageWriteCompute);
                x0 = x;
            },
            noop);
        fg.addPass<Empty>(
            "p1", [&](Builder& b, Empty&) { x1 = b.write(x0, Usage::StorageWriteCompute); }, noop);
        fg.addPass<Empty>(
            "p2",
            [&](Builder& b, Empty&) {
                b.read(x1, Usage::StorageReadCompute);
                y1 = b.write(y, Usage::StorageWriteCompute);
            },
            noop);
        fg.addPass<Empty>(
            "p3",
            [&](Builder& b, Empty&) {
                b.read(x0, Usage::StorageReadCompute);
                b.read(y1, Usage::StorageReadCompute);
                b.write(out, Usage::StorageWriteCompute);
            },
            noop);
        auto r = fg.compile();
        ASSERT_FALSE(r);
        EXPECT_NE(r.error().message.find("cycle"), std::string::npos) << r.error().message;
    }
}

TEST_F(Host2GraphTest, BarrierStateMachine) {
    TrackedState s;
    Transition t;
    const Access write = lower(Usage::StorageWriteCompute), read = lower(Usage::StorageReadCompute);
    const Access indirect = lower(Usage::IndirectArgs);
    EXPECT_FALSE(transition(s, write, t)) << "nothing to wait for on first use";
    ASSERT_TRUE(transition(s, read, t));
    EXPECT_EQ(t.srcStage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(t.srcAccess, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(t.dstAccess, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    EXPECT_FALSE(transition(s, read, t)) << "already visible to compute reads";
    ASSERT_TRUE(transition(s, indirect, t)) << "not yet visible to indirect reads";
    EXPECT_EQ(t.dstStage, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    ASSERT_TRUE(transition(s, lower(Usage::TransferDst), t)) << "write after reads";
    EXPECT_EQ(t.srcStage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    EXPECT_EQ(t.srcAccess, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);

    TrackedState img;
    ASSERT_TRUE(transition(img, lower(Usage::DepthAttachment), t)) << "UNDEFINED -> attachment";
    EXPECT_EQ(t.oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(t.newLayout, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
    ASSERT_TRUE(transition(img, lower(Usage::SampledCompute), t)) << "a read that changes the layout";
    EXPECT_EQ(t.srcAccess, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    EXPECT_EQ(t.newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    EXPECT_FALSE(transition(img, lower(Usage::SampledCompute), t));
}

TEST_F(Host2GraphTest, TranslatesEverySyncUseThePluginDeclares) {
    using namespace sieve::use;
    auto usages = [](const sieve::ResourceUse& u, bool image) {
        auto r = translateUse(u, image);
        EXPECT_TRUE(r) << r.error().message;
        return r ? r.value() : std::vector<Usage>{};
    };
    EXPECT_EQ(usages(storageReadWrite(0), false),
              (std::vector<Usage>{Usage::StorageReadCompute, Usage::StorageWriteCompute}));
    EXPECT_EQ(usages(uniformRead(0), false), (std::vector<Usage>{Usage::UniformCompute}));
    EXPECT_EQ(usages(transferWrite(0), false), (std::vector<Usage>{Usage::TransferDst}));
    EXPECT_EQ(usages(transferRead(0), false), (std::vector<Usage>{Usage::TransferSrc}));
    EXPECT_EQ(usages(indirectRead(0), false), (std::vector<Usage>{Usage::IndirectArgs}));
    EXPECT_EQ(usages(storageRead(0, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT), false),
              (std::vector<Usage>{Usage::StorageReadVertex}));
    EXPECT_EQ(usages(depthSampled(0), true), (std::vector<Usage>{Usage::SampledCompute}));
    EXPECT_EQ(usages(sampledImage(0), true), (std::vector<Usage>{Usage::SampledCompute}));
    EXPECT_EQ(usages(storageImageWrite(0), true), (std::vector<Usage>{Usage::StorageImageCompute}));
    EXPECT_EQ(usages(depthAttachmentWrite(0), true), (std::vector<Usage>{Usage::DepthAttachment}));
    // host2 has no usage for storage reads in fragment shaders: refused, not weakened.
    EXPECT_FALSE(translateUse(storageRead(0, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT), false));
    // Nor for a storage image in a vertex shader (only part of the stages would be covered).
    sieve::ResourceUse mixed = storageImageWrite(0);
    mixed.stage |= VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
    EXPECT_FALSE(translateUse(mixed, true));
}
