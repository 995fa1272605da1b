// The host derives every barrier between the plugin's passes from the uses each pass declares, so a
// buffer a pass binds without declaring it gets no barrier (issue 12: in single-phase mode the early
// flag pass runs the late shader, which binds the late flags). Here each pass is recorded right after
// compute writes to every device buffer of the plugin, with barriers for exactly the pass's declared
// uses; synchronization validation then reports any buffer the pass binds beyond them. The writes are
// compute work because the plugin's own transfer -> compute barrier (the counters' clear) would cover
// transfer writes. Inside a pass, the plugin's compute -> compute barriers between its dispatches hide
// the later dispatches from this check; the flag passes are single dispatches.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "shared/prim_push.h"
#include "sieve/barriers.h"
#include "sieve/cull_flags.h"
#include "sieve/culling.h"
#include "sieve/culling_tuning.h"
#include "sieve/pipeline.h"

using testing_gpu::GpuTest;

namespace {

using sieve::gpu::ClearPush;

engine::MemoryUsage memoryOf(sieve::Memory m) {
    switch (m) {
        case sieve::Memory::Upload: return engine::MemoryUsage::Upload;
        case sieve::Memory::Readback: return engine::MemoryUsage::Readback;
        default: return engine::MemoryUsage::DeviceLocal;
    }
}

class CullingPluginUses : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        sieve::CullingConfig config;
        config.maxInstances = 100;
        config.maxDrawsPerInstance = 2;
        config.viewport = {40, 24};
        auto clear = sieve::ComputePipeline::create(ctx().info(), {"prim/clear.comp", sizeof(ClearPush)});
        ASSERT_TRUE(clear) << clear.error().message;
        clear_ = std::move(clear).value();
        ASSERT_NO_FATAL_FAILURE(adopt(sieve::CullingPlugin::create(ctx().info(), config)));
    }

    // Takes `p` as the plugin under test: its view, and one resource per slot.
    void adopt(sieve::Result<std::unique_ptr<sieve::CullingPlugin>> p) {
        ASSERT_TRUE(p) << p.error().message;
        plugin_ = std::move(p).value();
        sieve::ViewDesc view;
        view.projection = sieve::perspectiveReverseZ(1.0f, 40.0f / 24.0f, 0.1f);
        view.viewport = {0.0f, 0.0f, 40.0f, 24.0f, 0.0f, 1.0f};
        auto set = plugin_->setView(view);
        ASSERT_TRUE(set) << set.error().message;
        bindings_.clear();
        buffers_.clear();
        images_.clear();
        allocate();
    }
    void TearDown() override {
        plugin_.reset();
        GpuTest::TearDown();
    }

    // One resource per slot, as a host would make it.
    void allocate() {
        const auto slots = plugin_->slots();
        buffers_.resize(slots.size());
        images_.resize(slots.size());
        bindings_.resize(slots.size());
        for (size_t s = 0; s < slots.size(); ++s) {
            const sieve::SlotDesc& d = slots[s];
            sieve::SlotBinding& b = bindings_[s];
            if (d.kind == sieve::SlotKind::Buffer) {
                const VkDeviceSize size = std::max<VkDeviceSize>(d.size, 16);
                auto buf = engine::Buffer::create(ctx(), size, d.bufferUsage | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                  memoryOf(d.memory), d.name.c_str());
                ASSERT_TRUE(buf) << d.name << ": " << buf.error().message;
                buffers_[s] = std::move(buf).value();
                b.buffer = buffers_[s].handle();
                b.size = size;
                b.mapped = buffers_[s].mapped();
            } else {
                auto img =
                    engine::Image::create(ctx(), {d.format, d.extent, d.mipLevels, d.imageUsage, d.name.c_str()});
                ASSERT_TRUE(img) << d.name << ": " << img.error().message;
                images_[s] = std::move(img).value();
                b.image = images_[s].handle();
                b.view = images_[s].view();
                b.extent = d.extent;
                for (uint32_t m = 0; m < d.mipLevels; ++m) b.mipViews.push_back(images_[s].mipView(m));
            }
        }
    }

    // Zeroes every device buffer with a compute dispatch (zeros keep the scene tables' indices in range).
    void writeEveryDeviceBuffer(VkCommandBuffer cmd) const {
        const auto slots = plugin_->slots();
        for (size_t s = 0; s < slots.size(); ++s) {
            if (slots[s].kind != sieve::SlotKind::Buffer || slots[s].memory != sieve::Memory::Device) continue;
            const uint32_t words = uint32_t(bindings_[s].size / 4);
            clear_.dispatchLinear(cmd, {sieve::Binding::storage({bindings_[s].buffer, 0, bindings_[s].size})},
                                  ClearPush{0, words, 0}, clear_.groupsFor(words));
        }
    }

    // Barriers from those writes to exactly the declared uses of `pass`; images enter their declared
    // layout from UNDEFINED.
    void declaredBarriers(VkCommandBuffer cmd, const sieve::PassDesc& pass) const {
        const auto slots = plugin_->slots();
        std::vector<VkBufferMemoryBarrier2> buffers;
        for (const sieve::ResourceUse& u : pass.uses) {
            const sieve::SlotDesc& d = slots[u.slot];
            if (d.kind == sieve::SlotKind::Image) {
                sieve::imageBarrier(cmd, bindings_[u.slot].image, images_[u.slot].aspect(), VK_PIPELINE_STAGE_2_NONE,
                                    VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED, u.stage, u.access, u.layout,
                                    u.range.baseMipLevel, u.range.levelCount);
                continue;
            }
            if (d.memory != sieve::Memory::Device) continue;  // host-written or host-read: not written above
            VkBufferMemoryBarrier2 b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
            b.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
            b.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
            b.dstStageMask = u.stage;
            b.dstAccessMask = u.access;
            b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            b.buffer = bindings_[u.slot].buffer;
            b.size = VK_WHOLE_SIZE;
            buffers.push_back(b);
        }
        VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.bufferMemoryBarrierCount = uint32_t(buffers.size());
        dep.pBufferMemoryBarriers = buffers.data();
        vkCmdPipelineBarrier2(cmd, &dep);
    }

    // Records `pass` alone after the writes and the declared barriers, in one submission.
    void recordAlone(uint32_t pass) {
        SCOPED_TRACE(plugin_->passes()[pass].name);
        const sieve::FrameInfo frame{0, 0, plugin_->config().framesInFlight};
        auto prepared = plugin_->prepare(frame);
        ASSERT_TRUE(prepared) << prepared.error().message;
        const sieve::Bindings bindings{bindings_};
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            writeEveryDeviceBuffer(cmd);
            declaredBarriers(cmd, plugin_->passes()[pass]);
            auto recorded = plugin_->record(pass, cmd, bindings, frame);
            EXPECT_TRUE(recorded) << recorded.error().message;
        });
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_EQ(plugin_->lastError(), "");
    }

    std::unique_ptr<sieve::CullingPlugin> plugin_;
    sieve::ComputePipeline clear_;
    std::vector<engine::Buffer> buffers_;
    std::vector<engine::Image> images_;
    std::vector<sieve::SlotBinding> bindings_;
};

}  // namespace

// The early flag pass runs the late shader in single phase (the full test against last frame's
// pyramid), binding the late LODs as its "early LODs" input.
TEST_F(CullingPluginUses, SinglePhaseEarlyFlagPassDeclaresWhatItBinds) {
    plugin_->toggles().twoPhase = false;
    recordAlone(0);
}

TEST_F(CullingPluginUses, TwoPhaseFlagPassesDeclareWhatTheyBind) {
    recordAlone(0);
    recordAlone(plugin_->pass(sieve::CullingPlugin::PassRole::HiZ) + 1);
}

TEST_F(CullingPluginUses, EveryPassDeclaresWhatItBindsInEveryMode) {
    for (bool twoPhase : {true, false})
        for (bool stable : {true, false})
            for (bool singleDispatchHiZ : {true, false}) {
                SCOPED_TRACE(std::string(twoPhase ? "two-phase" : "single-phase") + (stable ? ", stable" : ", atomic") +
                             (singleDispatchHiZ ? ", single-dispatch Hi-Z" : ", per-mip Hi-Z"));
                plugin_->toggles().twoPhase = twoPhase;
                sieve::tuning(*plugin_).stable = stable;
                sieve::tuning(*plugin_).singleDispatchHiZ = singleDispatchHiZ;
                for (uint32_t pass = 0; pass < plugin_->passes().size(); ++pass) recordAlone(pass);
            }
}

// With draw marks (CullingTuning::drawMarks On: the flag passes write the marks slot, the compactions read it) every
// pass still binds only what it declares, in both phase modes.
TEST_F(CullingPluginUses, WithDrawMarksEveryPassDeclaresWhatItBinds) {
    sieve::CullingTuning tuning;
    tuning.drawMarks = sieve::CullingTuning::DrawMarks::On;
    ASSERT_NO_FATAL_FAILURE(adopt(sieve::createCullingPlugin(ctx().info(), plugin_->config(), tuning)));
    const auto slots = plugin_->slots();
    EXPECT_TRUE(std::any_of(slots.begin(), slots.end(), [](const auto& s) { return s.name == "drawmarks.early"; }));
    for (bool twoPhase : {true, false}) {
        SCOPED_TRACE(twoPhase ? "two-phase" : "single-phase");
        plugin_->toggles().twoPhase = twoPhase;
        for (uint32_t pass = 0; pass < plugin_->passes().size(); ++pass) recordAlone(pass);
    }
}

// On a device with the Vulkan minimum of 4 storage images per stage there is no single-dispatch pyramid:
// the default toggle (singleDispatchHiZ) must build per mip, not fail every frame and leave the late pass
// testing against a pyramid nobody wrote (issue 22: with standard Z everything was culled for good).
TEST_F(CullingPluginUses, MinimumStorageImagesBuildThePyramidPerMip) {
    sieve::DeviceInfo dev = ctx().info();
    dev.limits.maxPerStageDescriptorStorageImages = 4;
    dev.limits.maxComputeSharedMemorySize = std::min(dev.limits.maxComputeSharedMemorySize, 16384u);
    ASSERT_NO_FATAL_FAILURE(adopt(sieve::CullingPlugin::create(dev, plugin_->config())));
    EXPECT_FALSE(plugin_->paths().singleDispatchHiZ);
    ASSERT_TRUE(sieve::tuning(*plugin_).singleDispatchHiZ);
    recordAlone(plugin_->pass(sieve::CullingPlugin::PassRole::HiZ));
}

// The plugin's clears touch only its slot's bytes: a slot bound at an offset inside a larger buffer (a
// host's sub-allocation) keeps its neighbours. Before, the visibility clear of a plugin's first frame
// used VK_WHOLE_SIZE from the binding's offset and wiped the rest of the buffer.
TEST_F(CullingPluginUses, ClearsStayInsideTheSlotsBinding) {
    const auto slots = plugin_->slots();
    uint32_t s = 0;
    while (s < slots.size() && slots[s].name != "cull.visibility") ++s;
    ASSERT_LT(s, slots.size());
    const VkDeviceSize pad = 256, declared = slots[s].size;
    engine::Buffer big = makeEmpty(pad + declared + pad, 0, "visibility inside a larger buffer");
    bindings_[s].buffer = big.handle();
    bindings_[s].offset = pad;
    bindings_[s].size = declared;
    const sieve::FrameInfo frame{0, 0, plugin_->config().framesInFlight};
    ASSERT_TRUE(plugin_->prepare(frame));
    const sieve::Bindings bindings{bindings_};
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        writeEveryDeviceBuffer(cmd);
        sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        vkCmdFillBuffer(cmd, big.handle(), 0, VK_WHOLE_SIZE, 0xabababab);
        sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                             VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        declaredBarriers(cmd, plugin_->passes()[0]);
        auto recorded = plugin_->record(0, cmd, bindings, frame);
        EXPECT_TRUE(recorded) << recorded.error().message;
    });
    ASSERT_TRUE(r) << r.error().message;
    const auto words = read<uint32_t>(big, size_t((pad + declared + pad) / 4));
    for (size_t w = 0; w < pad / 4; ++w) ASSERT_EQ(words[w], 0xababababu) << "before the binding, word " << w;
    for (size_t w = (pad + declared) / 4; w < words.size(); ++w)
        ASSERT_EQ(words[w], 0xababababu) << "after the binding, word " << w;
}

// A depth attachment of another extent than the declared one (a host that resized its depth without
// resize()) is refused by name, not read as if it had the declared size (issue 22).
TEST_F(CullingPluginUses, DepthOfAnotherExtentIsRefused) {
    const auto slots = plugin_->slots();
    uint32_t s = 0;
    while (s < slots.size() && slots[s].name != sieve::CullingPlugin::kDepth) ++s;
    ASSERT_LT(s, slots.size());
    bindings_[s].extent = {slots[s].extent.width * 2, slots[s].extent.height};
    const sieve::FrameInfo frame{0, 0, plugin_->config().framesInFlight};
    ASSERT_TRUE(plugin_->prepare(frame));
    const sieve::Bindings bindings{bindings_};
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        auto recorded = plugin_->record(plugin_->pass(sieve::CullingPlugin::PassRole::HiZ), cmd, bindings, frame);
        ASSERT_FALSE(recorded);
        EXPECT_NE(recorded.error().message.find("call resize()"), std::string::npos) << recorded.error().message;
    });
    ASSERT_TRUE(r) << r.error().message;
}

// A frame whose passes fail (here: the instance table is not bound) must not leave the streams' counts
// as the memory held them (issue 22: a host drew 2440223760 draws): every streams pass writes its counts,
// zero, on every failure path; and so does record() without its prepare().
TEST_F(CullingPluginUses, FailedFramesLeaveEmptyCountsNotWhatTheMemoryHeld) {
    const auto slots = plugin_->slots();
    std::vector<uint32_t> countSlots;
    for (uint32_t s = 0; s < slots.size(); ++s)
        if (slots[s].name == sieve::CullingPlugin::kCountsEarly || slots[s].name == sieve::CullingPlugin::kCountsLate)
            countSlots.push_back(s);
    ASSERT_EQ(countSlots.size(), 2u);
    for (bool prepared : {true, false}) {
        SCOPED_TRACE(prepared ? "a binding missing" : "record() without prepare()");
        const sieve::FrameInfo frame{prepared ? 0u : 1u, prepared ? 0u : 1u, plugin_->config().framesInFlight};
        if (prepared) {
            ASSERT_TRUE(plugin_->prepare(frame));
        }
        std::vector<sieve::SlotBinding> broken = bindings_;
        for (uint32_t s = 0; s < slots.size(); ++s)
            if (slots[s].name == sieve::CullingPlugin::kInstances) broken[s].buffer = VK_NULL_HANDLE;
        const sieve::Bindings bindings{prepared ? broken : bindings_};
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            for (uint32_t s : countSlots) vkCmdFillBuffer(cmd, bindings_[s].buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
            sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                 VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                 VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
            // The first pass (it binds the instances), then the streams passes (the late one after a
            // failed earlier pass of the frame).
            using Role = sieve::CullingPlugin::PassRole;
            std::vector<uint32_t> passes{0u};
            for (uint32_t p : {plugin_->pass(Role::EarlyStreams), plugin_->pass(Role::LateStreams)})
                if (p != 0u) passes.push_back(p);
            for (uint32_t pass : passes)
                EXPECT_FALSE(plugin_->record(pass, cmd, bindings, frame)) << plugin_->passes()[pass].name;
        });
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_NE(plugin_->lastError(), "");
        for (uint32_t s : countSlots) {
            const auto words = read<uint32_t>(buffers_[s], size_t(slots[s].size / 4));
            for (size_t w = 0; w < words.size(); ++w) ASSERT_EQ(words[w], 0u) << slots[s].name << " word " << w;
        }
    }
}
