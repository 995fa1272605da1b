// Render graph rules without a GPU: conflicting declarations are errors naming the pass and the slot,
// culling of passes nobody needs, dumps, and hosting a sieve::Plugin.
#include <gtest/gtest.h>

#include "engine/graph/compile.h"
#include "unit/test_graph_util.h"

using namespace graph_test;

namespace {

// Compiles a graph expected to fail and checks the message names the pass, the slot and the problem.
void expectConflict(const GraphBuilder& b, const std::string& pass, const std::string& slot,
                    const std::string& problem) {
    auto g = compile(b);
    ASSERT_FALSE(g) << "expected a conflict in pass " << pass;
    const std::string& m = g.error().message;
    EXPECT_NE(m.find("pass '" + pass + "'"), std::string::npos) << m;
    EXPECT_NE(m.find("slot '" + slot + "'"), std::string::npos) << m;
    EXPECT_NE(m.find(problem), std::string::npos) << m;
}

struct Fixture {
    GraphBuilder b;
    SlotId buf = b.addSlot(buffer("buf", Lifetime::Imported));
    SlotId img = b.addSlot(image("img", Lifetime::Transient, VK_FORMAT_R32_SFLOAT, 2));

    // A pass with the one use `u` is a conflict naming `slot` and `problem`.
    void expectUseConflict(const std::string& pass, const sieve::ResourceUse& u, bool sideEffect,
                           const std::string& slot, const std::string& problem) {
        b.addPass({pass, {u}, sideEffect}, noRecord());
        expectConflict(b, pass, slot, problem);
    }
};

}  // namespace

TEST(GraphConflicts, TwoLayoutsForOneSubresourceInOnePass) {
    Fixture f;
    f.b.addPass({"init", {use::storageImageWrite(f.img)}}, noRecord());
    f.b.addPass({"mixed",
                 {use::sampledImage(f.img, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_IMAGE_ASPECT_COLOR_BIT, 0, 2),
                  use::storageImageWrite(f.img, 1, 1)},
                 true},
                noRecord());
    expectConflict(f.b, "mixed", "img", "mip 1 is used in two layouts, SHADER_READ_ONLY_OPTIMAL and GENERAL");
}

TEST(GraphConflicts, ReadingOneMipWhileWritingTheNextIsFine) {
    Fixture f;
    f.b.addPass({"init", {use::storageImageWrite(f.img, 0, 1)}}, noRecord());
    f.b.addPass({"down",
                 {use::sampledImage(f.img, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1),
                  use::storageImageWrite(f.img, 1, 1)},
                 true},
                noRecord());
    auto g = compile(f.b);
    EXPECT_TRUE(g) << g.error().message;
}

TEST(GraphConflicts, WriteUseWithReadOnlyAccess) {
    Fixture f;
    sieve::ResourceUse u = use::storageRead(f.buf);
    u.write = true;
    f.expectUseConflict("liar", u, false, "buf", "declared as a write, but its access SHADER_STORAGE_READ only reads");
}

TEST(GraphConflicts, ReadUseWithWriteAccess) {
    Fixture f;
    sieve::ResourceUse u = use::storageWrite(f.buf);
    u.write = false;
    f.expectUseConflict("sneaky", u, true, "buf", "declared as a read, but its access SHADER_STORAGE_WRITE writes");
}

TEST(GraphConflicts, ImageUseOfABufferSlot) {
    Fixture f;
    f.expectUseConflict("confused", use::sampledImage(f.buf), true, "buf",
                        "an image use (layout SHADER_READ_ONLY_OPTIMAL) of a buffer slot");
}

TEST(GraphConflicts, BufferUseOfAnImageSlot) {
    Fixture f;
    f.expectUseConflict("confused", use::storageWrite(f.img), true, "img",
                        "a buffer use (layout UNDEFINED) of an image slot");
}

TEST(GraphConflicts, SlotOutOfRange) {
    Fixture f;
    f.b.addPass({"lost", {use::storageWrite(f.buf), use::storageRead(42)}}, noRecord());
    expectConflict(f.b, "lost", "#42", "use 1 names a slot out of range (the graph has 2 slots)");
}

TEST(GraphConflicts, AccessTheStageCannotPerform) {
    Fixture f;
    sieve::ResourceUse u = use::indirectRead(f.buf);
    u.stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    f.expectUseConflict("dispatch", u, true, "buf",
                        "access INDIRECT_COMMAND_READ cannot happen at stage COMPUTE_SHADER");
}

TEST(GraphConflicts, WriteInAReadOnlyLayout) {
    Fixture f;
    sieve::ResourceUse u = use::storageImageWrite(f.img);
    u.layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    f.expectUseConflict("scribble", u, true, "img", "a write in the read-only layout SHADER_READ_ONLY_OPTIMAL");
}

TEST(GraphConflicts, MipsOutsideTheImage) {
    Fixture f;
    f.expectUseConflict("deep", use::storageImageWrite(f.img, 1, 2), true, "img",
                        "mips [1, 3) outside the image's 2 mip(s)");
}

TEST(GraphConflicts, TransientReadBeforeAnyWrite) {
    Fixture f;
    f.b.addPass({"early", {use::sampledImage(f.img), use::storageWrite(f.buf)}}, noRecord());
    f.b.addPass({"late", {use::storageImageWrite(f.img)}, true}, noRecord());
    expectConflict(f.b, "early", "img", "reads the transient slot before any pass of the frame writes it");
}

TEST(GraphConflicts, ImportedImageReadWithDiscardedContents) {
    GraphBuilder b;
    SlotId depth = b.addSlot(image("depth", Lifetime::Imported, VK_FORMAT_D32_SFLOAT));
    b.addPass({"hiz", {use::depthSampled(depth)}, true}, noRecord());
    expectConflict(b, "hiz", "depth", "initial layout is UNDEFINED");
    // Declaring the layout the host leaves it in makes it legal.
    b.setImport(depth, {{VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                         VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL},
                        {}});
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    ASSERT_EQ(g->passes[0].before.images.size(), 1u);
    EXPECT_EQ(g->passes[0].before.images[0].dep.oldLayout, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(g->passes[0].before.images[0].dep.srcAccess, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
}

TEST(GraphConflicts, DuplicateSlotNames) {
    GraphBuilder b;
    b.addSlot(buffer("twin", Lifetime::Transient));
    b.addSlot(buffer("twin", Lifetime::Transient));
    auto g = compile(b);
    ASSERT_FALSE(g);
    EXPECT_NE(g.error().message.find("slots 0 and 1 are both named 'twin'"), std::string::npos) << g.error().message;
}

TEST(GraphCulling, PassesWhoseOutputsNobodyReadsAreCulled) {
    GraphBuilder b;
    SlotId a = b.addSlot(buffer("a", Lifetime::Transient));
    SlotId c = b.addSlot(buffer("c", Lifetime::Transient));
    SlotId out = b.addSlot(buffer("out", Lifetime::Imported));
    b.addPass({"makeA", {use::storageWrite(a)}}, noRecord());
    b.addPass({"aToC", {use::storageRead(a), use::storageWrite(c)}}, noRecord());  // c is never read
    b.addPass({"marker", {}, true}, noRecord());                                   // side effect, no uses
    b.addPass({"toHost", {use::storageWrite(out)}}, noRecord());                   // the host reads imports
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    ASSERT_EQ(g->passes.size(), 2u);
    EXPECT_EQ(g->passes[0].desc.name, "marker");
    EXPECT_EQ(g->passes[1].desc.name, "toHost");
    EXPECT_EQ(g->culled, (std::vector<std::string>{"makeA", "aToC"}));
    EXPECT_FALSE(g->slots[a].used);
    EXPECT_FALSE(g->slots[c].used);
}

TEST(GraphCulling, PersistentWritesAreKeptOnlyIfSomeFrameReadsThem) {
    GraphBuilder b;
    SlotId history = b.addSlot(buffer("history", Lifetime::Persistent));
    SlotId unread = b.addSlot(buffer("unread", Lifetime::Persistent));
    SlotId out = b.addSlot(buffer("out", Lifetime::Imported));
    b.addPass({"useHistory", {use::storageRead(history), use::storageWrite(out)}}, noRecord());
    b.addPass({"writeHistory", {use::storageWrite(history)}}, noRecord());  // read by the next frame
    b.addPass({"writeUnread", {use::storageWrite(unread)}}, noRecord());
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    ASSERT_EQ(g->passes.size(), 2u);
    EXPECT_EQ(g->passes[1].desc.name, "writeHistory");
    EXPECT_EQ(g->culled, std::vector<std::string>{"writeUnread"});
}

TEST(GraphDump, TextAndGraphvizShowPassesBarriersAndEdges) {
    GraphBuilder b;
    SlotId data = b.addSlot(buffer("data", Lifetime::Transient));
    SlotId out = b.addSlot(buffer("out", Lifetime::Imported));
    b.addPass({"fill", {use::storageWrite(data)}}, noRecord());
    b.addPass({"add", {use::storageRead(data), use::storageWrite(out)}}, noRecord());
    b.addPass({"unused", {use::storageRead(data), use::storageWrite(data)}}, noRecord());
    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;

    const std::string text = dump(*g, Format::Text);
    EXPECT_NE(text.find("pass fill\n"), std::string::npos) << text;
    EXPECT_NE(text.find("pass add\n"), std::string::npos) << text;
    EXPECT_NE(
        text.find("barrier buffer data: COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("culled unused"), std::string::npos) << text;

    const std::string dot = dump(*g, Format::Graphviz);
    EXPECT_EQ(dot.rfind("digraph render_graph {", 0), 0u) << dot;
    EXPECT_NE(dot.find("p0 [shape=box, label=\"fill\"]"), std::string::npos) << dot;
    EXPECT_NE(dot.find("p0 -> s" + std::to_string(data)), std::string::npos) << dot;       // fill writes data
    EXPECT_NE(dot.find("s" + std::to_string(data) + " -> p1"), std::string::npos) << dot;  // add reads it
    EXPECT_NE(dot.find("p1 -> s" + std::to_string(out)), std::string::npos) << dot;
    EXPECT_NE(dot.find("unused (culled)"), std::string::npos) << dot;
}

namespace {

// A plugin with an imported depth slot the host provides and a transient draw buffer it exports.
class FakePlugin : public sieve::Plugin {
public:
    FakePlugin() {
        slots_.push_back(image("depth", Lifetime::Imported, VK_FORMAT_D32_SFLOAT));
        slots_.push_back(buffer("draws", Lifetime::Transient));
        passes_.push_back({"pluginHiz", {use::depthSampled(0), use::storageWrite(1)}});
    }
    std::span<const sieve::SlotDesc> slots() const override { return slots_; }
    std::span<const sieve::PassDesc> passes() const override { return passes_; }
    sieve::Result<void> prepare(const sieve::FrameInfo&) override { return {}; }
    sieve::Result<void> record(uint32_t pass, VkCommandBuffer, const sieve::Bindings& b,
                               const sieve::FrameInfo&) override {
        recordedPass = pass;
        seenDepth = b[0].image;
        seenDraws = b[1].buffer;
        return {};
    }
    uint32_t recordedPass = UINT32_MAX;
    VkImage seenDepth = VK_NULL_HANDLE;
    VkBuffer seenDraws = VK_NULL_HANDLE;

private:
    std::vector<sieve::SlotDesc> slots_;
    std::vector<sieve::PassDesc> passes_;
};

}  // namespace

TEST(GraphPlugin, PluginSlotsAliasHostSlotsAndRecordSeesPluginIds) {
    GraphBuilder b;
    SlotId hostDepth = b.addSlot(image("sceneDepth", Lifetime::Imported, VK_FORMAT_D32_SFLOAT));
    b.addPass({"geometry", {use::depthAttachmentWrite(hostDepth)}, false, true}, noRecord());
    FakePlugin plugin;
    auto map = b.addPlugin(plugin, {{"depth", hostDepth}});
    ASSERT_TRUE(map) << map.error().message;
    ASSERT_EQ(map->size(), 2u);
    EXPECT_EQ((*map)[0], hostDepth);
    const SlotId draws = (*map)[1];
    EXPECT_EQ(b.findSlot("draws"), draws);
    b.addPass({"drawIndirect", {use::indirectRead(draws)}, true, true}, noRecord());

    auto g = compile(b);
    ASSERT_TRUE(g) << g.error().message;
    ASSERT_EQ(g->passes.size(), 3u);
    const CompiledPass& hiz = g->passes[1];
    EXPECT_EQ(hiz.desc.name, "pluginHiz");
    ASSERT_EQ(hiz.before.images.size(), 1u);
    EXPECT_EQ(hiz.before.images[0].slot, hostDepth);
    EXPECT_EQ(hiz.before.images[0].dep.oldLayout, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(hiz.before.images[0].dep.newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);

    // Graph bindings are indexed by graph slot; the plugin sees its own slot ids.
    std::vector<sieve::SlotBinding> bound(g->slots.size());
    bound[hostDepth].image = reinterpret_cast<VkImage>(uintptr_t{0x1000});
    bound[draws].buffer = reinterpret_cast<VkBuffer>(uintptr_t{0x2000});
    hiz.record(VK_NULL_HANDLE, sieve::Bindings{bound}, sieve::FrameInfo{});
    EXPECT_EQ(plugin.recordedPass, 0u);
    EXPECT_EQ(plugin.seenDepth, bound[hostDepth].image);
    EXPECT_EQ(plugin.seenDraws, bound[draws].buffer);
}

TEST(GraphPlugin, BadAliasesAreErrors) {
    GraphBuilder b;
    SlotId hostBuffer = b.addSlot(buffer("hostBuffer", Lifetime::Imported));
    FakePlugin plugin;
    auto noSuch = b.addPlugin(plugin, {{"nope", hostBuffer}});
    ASSERT_FALSE(noSuch);
    EXPECT_NE(noSuch.error().message.find("no slot named 'nope'"), std::string::npos);
    auto wrongKind = b.addPlugin(plugin, {{"depth", hostBuffer}});
    ASSERT_FALSE(wrongKind);
    EXPECT_NE(wrongKind.error().message.find("one is a buffer, the other an image"), std::string::npos);
}
