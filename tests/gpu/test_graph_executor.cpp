// The render graph on a device, with synchronization validation on: the derived barriers must be enough
// (no validation message, right data), and a barrier left out on purpose must be reported.
#include <cstring>

#include "engine/graph/compile.h"
#include "engine/graph/executor.h"
#include "gpu/gpu_fixture.h"
#include "shared/test_push.h"
#include "sieve/graphics_pipeline.h"
#include "sieve/pipeline.h"
#include "unit/test_graph_util.h"

using namespace engine::graph;
using sieve::Lifetime;
using testing_gpu::GpuTest;
namespace use = sieve::use;

namespace {

constexpr uint32_t kCount = 1000;
constexpr VkDeviceSize kBytes = kCount * sizeof(uint32_t);

sieve::SlotDesc bufferSlot(const char* name, Lifetime life, VkBufferUsageFlags usage) {
    return graph_test::buffer(name, life, kBytes, usage);
}

sieve::SlotBinding bindBuffer(const engine::Buffer& b) {
    sieve::SlotBinding s;
    s.buffer = b.handle();
    s.size = b.size();
    return s;
}

sieve::BufferRange range(const sieve::SlotBinding& b) {
    return {b.buffer, b.offset, b.size ? b.size : VK_WHOLE_SIZE};
}

void copyWhole(VkCommandBuffer cmd, const sieve::SlotBinding& src, const sieve::SlotBinding& dst) {
    VkBufferCopy copy{src.offset, dst.offset, kBytes};
    vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, 1, &copy);
}

ImportDesc readByHost() {
    ImportDesc d;
    d.final = {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED};
    return d;
}

class GraphGpuTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        auto f = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", sizeof(sieve::gpu::FillPush)});
        auto a = sieve::ComputePipeline::create(ctx().info(), {"test/add.comp", sizeof(sieve::gpu::AddPush)});
        ASSERT_TRUE(f) << f.error().message;
        ASSERT_TRUE(a) << a.error().message;
        fill = std::move(f).value();
        add = std::move(a).value();
        auto h = engine::Buffer::create(ctx(), kBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback,
                                        "graph test readback");
        ASSERT_TRUE(h) << h.error().message;
        host = std::move(h).value();
    }

    // fill: a[i] = base + i; add: b[i] = a[i] + 1; readback: host = b. `base` is read when recording.
    CompiledGraph fillAddReadback(const uint32_t& base) {
        GraphBuilder g;
        SlotId a = g.addSlot(bufferSlot("a", Lifetime::Transient, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
        SlotId b = g.addSlot(bufferSlot("b", Lifetime::Transient,
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT));
        SlotId out = g.addSlot(bufferSlot("host", Lifetime::Imported, 0), readByHost());
        g.addPass({"fill", {use::storageWrite(a)}},
                  [this, a, &base](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                      fill.dispatchLinear(cmd, {sieve::Binding::storage(range(s[a]))},
                                          sieve::gpu::FillPush{kCount, base}, fill.groupsFor(kCount));
                  });
        g.addPass({"add", {use::storageRead(a), use::storageWrite(b)}},
                  [this, a, b](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                      add.dispatchLinear(cmd,
                                         {sieve::Binding::storage(range(s[a])), sieve::Binding::storage(range(s[b]))},
                                         sieve::gpu::AddPush{kCount}, add.groupsFor(kCount));
                  });
        g.addPass({"readback", {use::transferRead(b), use::transferWrite(out)}},
                  [b, out](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                      copyWhole(cmd, s[b], s[out]);
                  });
        auto compiled = compile(g);
        EXPECT_TRUE(compiled) << compiled.error().message;
        return compiled ? std::move(compiled).value() : CompiledGraph{};
    }

    std::unique_ptr<GraphExecutor> makeExecutor(CompiledGraph graph, uint32_t framesInFlight = 2) {
        auto ex = GraphExecutor::create(ctx(), std::move(graph), framesInFlight);
        EXPECT_TRUE(ex) << ex.error().message;
        if (!ex) return nullptr;
        auto r = ex.value()->bindImported("host", bindBuffer(host));
        EXPECT_TRUE(r) << r.error().message;
        return std::move(ex).value();
    }

    // Records frames [first, first + count) into one command buffer, as frames in flight would follow each
    // other on the queue, and waits.
    void runFrames(GraphExecutor& ex, uint64_t first, uint32_t count) {
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            for (uint64_t f = first; f < first + count; ++f) {
                auto e = ex.execute(cmd, {f, uint32_t(f % 2), 2});
                EXPECT_TRUE(e) << e.error().message;
            }
        });
        ASSERT_TRUE(r) << r.error().message;
    }

    std::vector<uint32_t> hostValues() const {
        std::vector<uint32_t> v(kCount);
        std::memcpy(v.data(), host.mapped(), kBytes);
        return v;
    }

    sieve::ComputePipeline fill, add;
    engine::Buffer host;
};

}  // namespace

TEST_F(GraphGpuTest, DerivedBarriersAreEnoughForTwoFramesInOneSubmission) {
    uint32_t base = 0;
    auto ex = makeExecutor(fillAddReadback(base));
    ASSERT_TRUE(ex);
    base = 10;
    runFrames(*ex, 0, 1);
    std::vector<uint32_t> got = hostValues();
    for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], 10 + i + 1) << i;
    // Two frames back to back: the second reuses the transients while the first may still run.
    base = 500;
    runFrames(*ex, 1, 2);
    got = hostValues();
    for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], 500 + i + 1) << i;
    EXPECT_EQ(ctx().validationMessageCount(), 0u);
}

TEST_F(GraphGpuTest, MissingBarrierIsReportedBySynchronizationValidation) {
    uint32_t base = 3;
    auto ex = makeExecutor(fillAddReadback(base));
    ASSERT_TRUE(ex);
    ex->skipBarriersBeforePass("add");  // add reads `a` right after fill wrote it, unsynchronised
    runFrames(*ex, 0, 1);
    const auto messages = ctx().validationMessages();
    ASSERT_GT(messages.size(), 0u) << "synchronization validation did not report the missing barrier";
    bool hazard = false;
    for (const std::string& m : messages) hazard = hazard || m.find("SYNC-HAZARD-READ") != std::string::npos;
    EXPECT_TRUE(hazard) << messages.front();
    ctx().clearValidationMessages();  // expected messages: the fixture checks for unexpected ones
}

TEST_F(GraphGpuTest, TimestampsGiveATimePerPass) {
    uint32_t base = 0;
    auto ex = makeExecutor(fillAddReadback(base));
    ASSERT_TRUE(ex);
    EXPECT_FALSE(ex->timings(0)) << "nothing recorded yet";
    runFrames(*ex, 0, 1);  // frame slot 0, waited for
    auto t = ex->timings(0);
    ASSERT_TRUE(t);
    ASSERT_EQ(t->size(), 3u);
    const char* names[] = {"fill", "add", "readback"};
    for (size_t p = 0; p < 3; ++p) {
        EXPECT_EQ((*t)[p].name, names[p]);
        EXPECT_GE((*t)[p].ms, 0.0);
        EXPECT_LT((*t)[p].ms, 10'000.0);
    }
    EXPECT_FALSE(ex->timings(1)) << "frame slot 1 was never recorded";
}

TEST_F(GraphGpuTest, UnboundImportedSlotIsAnExecuteError) {
    uint32_t base = 0;
    auto ex = GraphExecutor::create(ctx(), fillAddReadback(base), 2);
    ASSERT_TRUE(ex) << ex.error().message;
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        auto e = ex.value()->execute(cmd, {0, 0, 2});
        ASSERT_FALSE(e);
        EXPECT_NE(e.error().message.find("imported slot 'host' is not bound"), std::string::npos) << e.error().message;
    });
    ASSERT_TRUE(r) << r.error().message;
}

// counter (persistent, zeroed at creation) -> add -> next -> copied back into counter; host = counter.
TEST_F(GraphGpuTest, PersistentBufferKeepsItsContentsAcrossFrames) {
    GraphBuilder g;
    const VkBufferUsageFlags storageCopy =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    SlotId counter = g.addSlot(bufferSlot("counter", Lifetime::Persistent, storageCopy));
    SlotId next = g.addSlot(bufferSlot("next", Lifetime::Transient, storageCopy));
    SlotId out = g.addSlot(bufferSlot("host", Lifetime::Imported, 0), readByHost());
    g.addPass({"increment", {use::storageRead(counter), use::storageWrite(next)}},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                  add.dispatchLinear(
                      cmd, {sieve::Binding::storage(range(s[counter])), sieve::Binding::storage(range(s[next]))},
                      sieve::gpu::AddPush{kCount}, add.groupsFor(kCount));
              });
    g.addPass({"store", {use::transferRead(next), use::transferWrite(counter)}},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                  copyWhole(cmd, s[next], s[counter]);
              });
    g.addPass({"readback", {use::transferRead(counter), use::transferWrite(out)}},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                  copyWhole(cmd, s[counter], s[out]);
              });
    auto compiled = compile(g);
    ASSERT_TRUE(compiled) << compiled.error().message;
    auto ex = makeExecutor(std::move(compiled).value());
    ASSERT_TRUE(ex);
    runFrames(*ex, 0, 1);
    for (uint32_t v : hostValues()) ASSERT_EQ(v, 1u);  // zeroed once, incremented once
    runFrames(*ex, 1, 2);
    for (uint32_t v : hostValues()) ASSERT_EQ(v, 3u);
    EXPECT_EQ(ctx().validationMessageCount(), 0u);
}

// A persistent image: copied out (last frame's contents), then cleared to the frame number + 1; a transient
// image cleared and copied too. Exercises layout transitions within and across frames, and resize.
TEST_F(GraphGpuTest, ImageLayoutsWithinAndAcrossFrames) {
    const VkExtent2D extent{8, 4};
    const VkDeviceSize texels = extent.width * extent.height;
    auto imageSlot = [&](const char* name, Lifetime life) {
        // engine::Image always creates views, which need a view-compatible usage such as SAMPLED.
        return graph_test::image(
            name, life, VK_FORMAT_R32_UINT, 1, extent,
            VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    };
    auto transfer = [](SlotId s, bool write) {
        sieve::ResourceUse u;
        u.slot = s;
        u.stage = write ? VK_PIPELINE_STAGE_2_CLEAR_BIT : VK_PIPELINE_STAGE_2_COPY_BIT;
        u.access = write ? VK_ACCESS_2_TRANSFER_WRITE_BIT : VK_ACCESS_2_TRANSFER_READ_BIT;
        u.layout = write ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        u.range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        u.write = write;
        return u;
    };
    auto clearTo = [](VkCommandBuffer cmd, VkImage image, uint32_t value) {
        VkClearColorValue c{};
        c.uint32[0] = value;
        VkImageSubresourceRange r{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &r);
    };
    auto copyOut = [](VkCommandBuffer cmd, const sieve::SlotBinding& img, const sieve::SlotBinding& dst,
                      VkDeviceSize offset) {
        VkBufferImageCopy copy{};
        copy.bufferOffset = dst.offset + offset;
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {img.extent.width, img.extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.buffer, 1, &copy);
    };

    GraphBuilder g;
    SlotId history = g.addSlot(imageSlot("history", Lifetime::Persistent));
    SlotId scratch = g.addSlot(imageSlot("scratch", Lifetime::Transient));
    SlotId out = g.addSlot(bufferSlot("host", Lifetime::Imported, 0), readByHost());
    sieve::ResourceUse outWrite = use::transferWrite(out);
    g.addPass({"readHistory", {transfer(history, false), outWrite}},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                  copyOut(cmd, s[history], s[out], 0);
              });
    g.addPass({"writeHistory", {transfer(history, true)}},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo& f) {
                  clearTo(cmd, s[history].image, uint32_t(f.frameIndex + 1));
              });
    g.addPass({"scratch", {transfer(scratch, true)}},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                  clearTo(cmd, s[scratch].image, 77);
              });
    g.addPass({"readScratch", {transfer(scratch, false), outWrite}},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                  copyOut(cmd, s[scratch], s[out], texels * sizeof(uint32_t));
              });
    auto compiled = compile(g);
    ASSERT_TRUE(compiled) << compiled.error().message;
    auto ex = makeExecutor(std::move(compiled).value());
    ASSERT_TRUE(ex);

    runFrames(*ex, 0, 1);
    std::vector<uint32_t> got = hostValues();
    for (VkDeviceSize i = 0; i < texels; ++i) ASSERT_EQ(got[i], 0u) << "persistent image starts cleared";
    for (VkDeviceSize i = 0; i < texels; ++i) ASSERT_EQ(got[texels + i], 77u);
    runFrames(*ex, 1, 2);
    got = hostValues();
    for (VkDeviceSize i = 0; i < texels; ++i) ASSERT_EQ(got[i], 2u) << "frame 2 reads what frame 1 wrote";

    ASSERT_TRUE(ex->resize(scratch, {4, 2}));
    EXPECT_EQ(ex->binding(scratch).extent.width, 4u);
    runFrames(*ex, 3, 1);
    got = hostValues();
    for (VkDeviceSize i = 0; i < 8; ++i) ASSERT_EQ(got[texels + i], 77u);
    EXPECT_EQ(ctx().validationMessageCount(), 0u);
}

// A graphics pass (its own vkCmdBeginRendering, clears only) writes a transient depth image and an imported
// colour image; a copy reads the depth; the colour image ends in the declared final layout, which the test
// relies on right after the graph.
TEST_F(GraphGpuTest, GraphicsPassAttachmentsAndFinalLayout) {
    const VkExtent2D extent{8, 4};
    const VkDeviceSize texels = extent.width * extent.height;
    const VkDeviceSize colorOffset = 512;
    auto color = engine::Image::create(
        ctx(), {VK_FORMAT_R32_SFLOAT, extent, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                "graph test color"});
    ASSERT_TRUE(color) << color.error().message;

    GraphBuilder g;
    sieve::SlotDesc depthDesc;
    depthDesc.name = "depth";
    depthDesc.kind = sieve::SlotKind::Image;
    depthDesc.format = VK_FORMAT_D32_SFLOAT;
    depthDesc.extent = extent;
    depthDesc.imageUsage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    SlotId depth = g.addSlot(depthDesc);
    sieve::SlotDesc colorDesc = depthDesc;
    colorDesc.name = "color";
    colorDesc.lifetime = Lifetime::Imported;
    colorDesc.format = VK_FORMAT_R32_SFLOAT;
    ImportDesc colorImport;
    colorImport.initial = {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_NONE,
                           VK_IMAGE_LAYOUT_UNDEFINED};
    colorImport.final = {VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    SlotId colorSlot = g.addSlot(colorDesc, colorImport);
    SlotId out = g.addSlot(bufferSlot("host", Lifetime::Imported, 0), readByHost());

    g.addPass({"geometry", {use::depthAttachmentWrite(depth), use::colorAttachmentWrite(colorSlot)}, false, true},
              [&](VkCommandBuffer cmd, const sieve::Bindings& s, const sieve::FrameInfo&) {
                  const VkRenderingAttachmentInfo c = sieve::renderingAttachment(
                      s[colorSlot].view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                      VK_ATTACHMENT_STORE_OP_STORE, {.color = {{0.5f, 0.0f, 0.0f, 0.0f}}});
                  const VkRenderingAttachmentInfo d = sieve::renderingAttachment(
                      s[depth].view, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                      VK_ATTACHMENT_STORE_OP_STORE, {.depthStencil = {0.25f, 0}});
                  sieve::beginRendering(cmd, extent, &c, &d);
                  vkCmdEndRendering(cmd);
              });
    sieve::ResourceUse depthRead{depth,
                                 VK_PIPELINE_STAGE_2_COPY_BIT,
                                 VK_ACCESS_2_TRANSFER_READ_BIT,
                                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                 {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1},
                                 false};
    g.addPass({"copyDepth", {depthRead, use::transferWrite(out)}}, [&](VkCommandBuffer cmd, const sieve::Bindings& s,
                                                                       const sieve::FrameInfo&) {
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        copy.imageExtent = {extent.width, extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, s[depth].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, s[out].buffer, 1, &copy);
    });
    auto compiled = compile(g);
    ASSERT_TRUE(compiled) << compiled.error().message;
    auto ex = makeExecutor(std::move(compiled).value());
    ASSERT_TRUE(ex);
    sieve::SlotBinding colorBinding;
    colorBinding.image = color->handle();
    colorBinding.view = color->view();
    colorBinding.extent = extent;
    ASSERT_TRUE(ex->bindImported("color", colorBinding));

    for (uint64_t frame = 0; frame < 2; ++frame) {
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            auto e = ex->execute(cmd, {frame, uint32_t(frame % 2), 2});
            EXPECT_TRUE(e) << e.error().message;
            // The graph left the colour image in TRANSFER_SRC, visible to copies.
            VkBufferImageCopy copy{};
            copy.bufferOffset = colorOffset;
            copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            copy.imageExtent = {extent.width, extent.height, 1};
            vkCmdCopyImageToBuffer(cmd, color->handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, host.handle(), 1, &copy);
        });
        ASSERT_TRUE(r) << r.error().message;
    }
    std::vector<float> got(kCount);
    std::memcpy(got.data(), host.mapped(), kBytes);
    for (VkDeviceSize i = 0; i < texels; ++i) ASSERT_EQ(got[i], 0.25f) << i;
    for (VkDeviceSize i = 0; i < texels; ++i) ASSERT_EQ(got[colorOffset / 4 + i], 0.5f) << i;
    EXPECT_EQ(ctx().validationMessageCount(), 0u);
}
