// Barrier derivation of the render graph on a small frame of compute and graphics passes, checked barrier
// by barrier. No GPU.
#include <gtest/gtest.h>

#include "engine/graph/compile.h"
#include "unit/test_graph_util.h"

using namespace graph_test;

namespace {

constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkPipelineStageFlags2 kCopyClear = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT;
constexpr VkPipelineStageFlags2 kCopy = VK_PIPELINE_STAGE_2_COPY_BIT;
constexpr VkPipelineStageFlags2 kIndirect = VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;
constexpr VkPipelineStageFlags2 kDepthTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
constexpr VkPipelineStageFlags2 kColorOut = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
constexpr VkAccessFlags2 kNone = VK_ACCESS_2_NONE;
constexpr VkAccessFlags2 kStorageRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr VkAccessFlags2 kStorageWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
constexpr VkAccessFlags2 kSampled = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
constexpr VkAccessFlags2 kDepthRW =
    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
constexpr VkAccessFlags2 kColorRW = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
constexpr VkImageAspectFlags kColor = VK_IMAGE_ASPECT_COLOR_BIT;
constexpr VkImageAspectFlags kDepth = VK_IMAGE_ASPECT_DEPTH_BIT;

// upload -> flag -> scan -> indirect draw (graphics) -> Hi-Z mip 0 from depth -> Hi-Z mips 1.. from mip 0 ->
// late flag -> readback, plus a debug pass nobody reads.
struct SampleFrame {
    SlotId params, instances, flags, draws, depth, backbuffer, hiz, visibility, readback, debugOut;
    GraphBuilder g;

    SampleFrame() {
        params = g.addSlot(buffer("params", Lifetime::Transient));
        instances = g.addSlot(buffer("instances", Lifetime::Imported));
        flags = g.addSlot(buffer("flags", Lifetime::Transient));
        draws = g.addSlot(buffer("draws", Lifetime::Transient));
        depth = g.addSlot(image("depth", Lifetime::Imported, VK_FORMAT_D32_SFLOAT));
        ImportDesc swapchain;
        swapchain.initial = {kColorOut, kNone, VK_IMAGE_LAYOUT_UNDEFINED};  // the acquire semaphore's stage
        swapchain.final = {VK_PIPELINE_STAGE_2_NONE, kNone, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
        backbuffer = g.addSlot(image("backbuffer", Lifetime::Imported, VK_FORMAT_B8G8R8A8_UNORM), swapchain);
        hiz = g.addSlot(image("hiz", Lifetime::Transient, VK_FORMAT_R32_SFLOAT, 3));
        visibility = g.addSlot(buffer("visibility", Lifetime::Persistent));
        ImportDesc toHost;
        toHost.final = {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED};
        readback = g.addSlot(buffer("readback", Lifetime::Imported), toHost);
        debugOut = g.addSlot(buffer("debugOut", Lifetime::Transient));

        g.addPass({"upload", {use::transferWrite(params)}}, noRecord());
        g.addPass({"flag",
                   {use::uniformRead(params), use::storageRead(instances), use::storageRead(visibility),
                    use::storageWrite(flags)}},
                  noRecord());
        g.addPass({"scan", {use::storageRead(flags), use::storageWrite(draws)}}, noRecord());
        g.addPass({"draw",
                   {use::indirectRead(draws), use::storageRead(instances, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                    use::depthAttachmentWrite(depth), use::colorAttachmentWrite(backbuffer)},
                   false,
                   true},
                  noRecord());
        g.addPass({"hiz0", {use::depthSampled(depth), use::storageImageWrite(hiz, 0, 1)}}, noRecord());
        g.addPass({"hiz1", {use::sampledImage(hiz, kCompute, kColor, 0, 1), use::storageImageWrite(hiz, 1)}},
                  noRecord());
        g.addPass({"late", {use::sampledImage(hiz), use::storageRead(instances), use::storageReadWrite(visibility)}},
                  noRecord());
        g.addPass({"readback", {use::transferRead(draws), use::transferWrite(readback)}}, noRecord());
        g.addPass({"debug", {use::storageRead(flags), use::storageWrite(debugOut)}}, noRecord());
    }
};

const CompiledPass& pass(const CompiledGraph& g, const std::string& name) {
    for (const CompiledPass& p : g.passes)
        if (p.desc.name == name) return p;
    static CompiledPass none;
    ADD_FAILURE() << "no pass " << name;
    return none;
}

using Buffers = std::vector<BufferBarrier>;
using Images = std::vector<ImageBarrier>;

}  // namespace

TEST(GraphBarriers, SampleFrameOrderAndCulling) {
    SampleFrame f;
    auto g = compile(f.g);
    ASSERT_TRUE(g) << g.error().message;
    std::vector<std::string> order;
    for (const CompiledPass& p : g->passes) order.push_back(p.desc.name);
    EXPECT_EQ(order, (std::vector<std::string>{"upload", "flag", "scan", "draw", "hiz0", "hiz1", "late", "readback"}));
    EXPECT_EQ(g->culled, std::vector<std::string>{"debug"});
    EXPECT_FALSE(g->slots[f.debugOut].used);
    EXPECT_TRUE(g->slots[f.hiz].used);
}

TEST(GraphBarriers, SampleFrameBuffers) {
    SampleFrame f;
    auto g = compile(f.g);
    ASSERT_TRUE(g) << g.error().message;
    // Transients wait for the previous frame's accesses of the same memory (frames in flight share it):
    // the upload waits for last frame's uniform read (write-after-read: execution only).
    EXPECT_EQ(pass(*g, "upload").before.buffers,
              (Buffers{{f.params, kCompute, kNone, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT}}));
    EXPECT_EQ(pass(*g, "flag").before.buffers,
              (Buffers{
                  {f.params, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT, kCompute, VK_ACCESS_2_UNIFORM_READ_BIT},
                  // persistent: last frame's late-flag write, read this frame
                  {f.visibility, kCompute, kStorageWrite, kCompute, kStorageRead},
                  {f.flags, kCompute, kNone, kCompute, kStorageWrite},
              }));
    // `instances` is never written by the graph: no barrier anywhere.
    EXPECT_EQ(pass(*g, "scan").before.buffers, (Buffers{
                                                   {f.flags, kCompute, kStorageWrite, kCompute, kStorageRead},
                                                   {f.draws, kIndirect | kCopy, kNone, kCompute, kStorageWrite},
                                               }));
    EXPECT_EQ(pass(*g, "draw").before.buffers,
              (Buffers{{f.draws, kCompute, kStorageWrite, kIndirect, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT}}));
    EXPECT_TRUE(pass(*g, "hiz0").before.buffers.empty());
    EXPECT_TRUE(pass(*g, "hiz1").before.buffers.empty());
    EXPECT_EQ(pass(*g, "late").before.buffers,
              (Buffers{{f.visibility, kCompute, kNone, kCompute, kStorageRead | kStorageWrite}}));
    // The draw's indirect read made the scan's write visible to DRAW_INDIRECT only: the copy needs its own.
    EXPECT_EQ(pass(*g, "readback").before.buffers,
              (Buffers{
                  {f.draws, kCompute, kStorageWrite, kCopy, VK_ACCESS_2_TRANSFER_READ_BIT},
                  {f.readback, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT},
              }));
    EXPECT_EQ(g->final.buffers, (Buffers{{f.readback, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                          VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT}}));
}

TEST(GraphBarriers, SampleFrameImagesAndLayouts) {
    SampleFrame f;
    auto g = compile(f.g);
    ASSERT_TRUE(g) << g.error().message;
    for (const char* name : {"upload", "flag", "scan", "readback"})
        EXPECT_TRUE(pass(*g, name).before.images.empty()) << name;
    EXPECT_EQ(pass(*g, "draw").before.images, (Images{
                                                  // discarded each frame; waits for last frame's Hi-Z read of it
                                                  {f.depth,
                                                   {kCompute, kNone, kDepthTests, kDepthRW, VK_IMAGE_LAYOUT_UNDEFINED,
                                                    VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL},
                                                   kDepth,
                                                   0,
                                                   1},
                                                  // chained to the acquire semaphore's stage
                                                  {f.backbuffer,
                                                   {kColorOut, kNone, kColorOut, kColorRW, VK_IMAGE_LAYOUT_UNDEFINED,
                                                    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                                   kColor,
                                                   0,
                                                   1},
                                              }));
    EXPECT_EQ(pass(*g, "hiz0").before.images,
              (Images{
                  {f.depth,
                   {kDepthTests, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, kCompute, kSampled,
                    VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                   kDepth,
                   0,
                   1},
                  {f.hiz,
                   {kCompute, kNone, kCompute, kStorageWrite, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL},
                   kColor,
                   0,
                   1},
              }));
    // Mip 0 is read while mips 1 and 2 are written: one barrier per mip range.
    EXPECT_EQ(pass(*g, "hiz1").before.images,
              (Images{
                  {f.hiz,
                   {kCompute, kStorageWrite, kCompute, kSampled, VK_IMAGE_LAYOUT_GENERAL,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                   kColor,
                   0,
                   1},
                  {f.hiz,
                   {kCompute, kNone, kCompute, kStorageWrite, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL},
                   kColor,
                   1,
                   2},
              }));
    // Mip 0 is already readable by compute sampling (read after read, same layout): only mips 1..2 move.
    EXPECT_EQ(pass(*g, "late").before.images,
              (Images{{f.hiz,
                       {kCompute, kStorageWrite, kCompute, kSampled, VK_IMAGE_LAYOUT_GENERAL,
                        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                       kColor,
                       1,
                       2}}));
    EXPECT_EQ(g->final.images,
              (Images{{f.backbuffer,
                       {kColorOut, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, kNone,
                        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR},
                       kColor,
                       0,
                       1}}));
    graph_test::expectLayoutsConsistent(*g, 3);
}

TEST(GraphBarriers, ReadAfterReadInOneLayoutNeedsNoBarrier) {
    GraphBuilder b;
    SlotId data = b.addSlot(buffer("data", Lifetime::Transient));
    SlotId out = b.addSlot(buffer("out", Lifetime::Imported));
    b.addPass({"write", {use::storageWrite(data)}}, noRecord());
    b.addPass({"read1", {use::storageRead(data), use::storageWrite(out)}}, noRecord());
    b.addPass({"read2", {use::storageRead(data), use::storageReadWrite(out)}}, noRecord());
    b.addPass({"rewrite", {use::storageWrite(data)}, true}, noRecord());
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    // `out` is imported and carried over: last frame's read2 wrote it.
    EXPECT_EQ(pass(*g, "read1").before.buffers, (Buffers{{data, kCompute, kStorageWrite, kCompute, kStorageRead},
                                                         {out, kCompute, kStorageWrite, kCompute, kStorageWrite}}));
    // `data`: nothing; `out`: write after write.
    EXPECT_EQ(pass(*g, "read2").before.buffers,
              (Buffers{{out, kCompute, kStorageWrite, kCompute, kStorageRead | kStorageWrite}}));
    // The second write waits for both reads (their stages merged), execution only.
    EXPECT_EQ(pass(*g, "rewrite").before.buffers, (Buffers{{data, kCompute, kNone, kCompute, kStorageWrite}}));
}

TEST(GraphBarriers, UsesOfOneSubresourceInOnePassMerge) {
    GraphBuilder b;
    SlotId data = b.addSlot(buffer("data", Lifetime::Transient));
    b.addPass({"write", {use::transferWrite(data)}}, noRecord());
    b.addPass({"both", {use::storageRead(data), use::indirectRead(data)}, true}, noRecord());
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    EXPECT_EQ(pass(*g, "both").before.buffers,
              (Buffers{{data, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT, kCompute | kIndirect,
                        kStorageRead | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT}}));
}

// A history image: read at the start of the frame (last frame's contents), rewritten at the end.
TEST(GraphBarriers, PersistentImageCarriesItsStateAcrossFrames) {
    GraphBuilder b;
    SlotId history = b.addSlot(image("history", Lifetime::Persistent, VK_FORMAT_R32_SFLOAT, 2));
    SlotId out = b.addSlot(buffer("out", Lifetime::Imported));
    b.addPass({"useHistory", {use::sampledImage(history), use::storageWrite(out)}}, noRecord());
    b.addPass({"writeMip0", {use::storageImageWrite(history, 0, 1)}}, noRecord());
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    // The end of frame N is the start of frame N+1: mip 0 ends in GENERAL, mip 1 stays sampled.
    EXPECT_EQ(g->slots[history].entryLayouts,
              (std::vector<VkImageLayout>{VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}));
    EXPECT_EQ(pass(*g, "useHistory").before.images,
              (Images{{history,
                       {kCompute, kStorageWrite, kCompute, kSampled, VK_IMAGE_LAYOUT_GENERAL,
                        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                       kColor,
                       0,
                       1}}));
    EXPECT_EQ(pass(*g, "writeMip0").before.images,
              (Images{{history,
                       {kCompute, kNone, kCompute, kStorageWrite, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                        VK_IMAGE_LAYOUT_GENERAL},
                       kColor,
                       0,
                       1}}));
    EXPECT_TRUE(g->final.empty());
    graph_test::expectLayoutsConsistent(*g, 3);
}

TEST(GraphBarriers, PersistentBufferWrittenBeforeReadNeedsOnlyTheFrameBarriers) {
    GraphBuilder b;
    SlotId counter = b.addSlot(buffer("counter", Lifetime::Persistent));
    SlotId out = b.addSlot(buffer("out", Lifetime::Imported));
    b.addPass({"accumulate", {use::storageReadWrite(counter)}}, noRecord());
    b.addPass({"copy", {use::transferRead(counter), use::transferWrite(out)}}, noRecord());
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    // Last frame's copy read it: write-after-read, execution only.
    EXPECT_EQ(pass(*g, "accumulate").before.buffers,
              (Buffers{{counter, kCopy, kNone, kCompute, kStorageRead | kStorageWrite}}));
    EXPECT_EQ(pass(*g, "copy").before.buffers,
              (Buffers{{counter, kCompute, kStorageWrite, kCopy, VK_ACCESS_2_TRANSFER_READ_BIT},
                       {out, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT, kCopyClear, VK_ACCESS_2_TRANSFER_WRITE_BIT}}));
    EXPECT_TRUE(g->final.empty());
}
