// A host of the installed plugin, written against <sieve/sieve.h> with the loader's ordinary prototypes:
// its own device (host.cpp), its own minimal render graph (every slot allocated from the plugin's
// description, one full barrier and the declared image layouts before each pass), and three views the
// reference host never uses: an orthographic one, a standard-Z finite perspective and a jittered
// reverse-Z one. For each, the picture with culling on must equal culling off, and culling must cull.
// The cluster plugin (clusters.h) draws the same picture too, and culls below the instance.
// It also checks that what the host did not enable is refused by name, that a projection the culling
// cannot serve is refused while the next good frame works, and that stats never come from memory the
// host did not clear (every buffer starts as 0xAB garbage).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "clusters.h"
#include "host.h"
#include "sieve/sieve.h"

namespace {

constexpr VkExtent2D kExtent{96, 64};
constexpr uint32_t kGrid = 12;                      // kGrid x kGrid cubes behind a wall
constexpr uint32_t kInstances = kGrid * kGrid + 1;  // + the wall
constexpr int kFrames = 5;

int fails(const std::string& what) {
    std::fprintf(stderr, "sieve_consumer: FAIL: %s\n", what.c_str());
    return 1;
}

bool failed(const std::string& what) {
    fails(what);
    return false;
}

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    std::vector<VkImageView> mips;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    uint32_t mipLevels = 1;
};

Image makeImage(const host::Device& d, VkFormat format, VkExtent2D extent, uint32_t mips, VkImageUsageFlags usage) {
    Image img;
    img.mipLevels = mips;
    img.aspect = format == VK_FORMAT_D32_SFLOAT ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = mips;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.usage = usage;
    host::check(vkCreateImage(d.device(), &info, nullptr, &img.image), "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(d.device(), img.image, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = host::memoryType(d.physical(), req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    host::check(vkAllocateMemory(d.device(), &alloc, nullptr, &img.memory), "vkAllocateMemory");
    host::check(vkBindImageMemory(d.device(), img.image, img.memory, 0), "vkBindImageMemory");
    auto view = [&](uint32_t base, uint32_t count) {
        VkImageViewCreateInfo v{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        v.image = img.image;
        v.viewType = VK_IMAGE_VIEW_TYPE_2D;
        v.format = format;
        v.subresourceRange = {img.aspect, base, count, 0, 1};
        VkImageView out;
        host::check(vkCreateImageView(d.device(), &v, nullptr, &out), "vkCreateImageView");
        return out;
    };
    img.view = view(0, mips);
    for (uint32_t m = 0; m < mips; ++m) img.mips.push_back(view(m, 1));
    return img;
}

void destroy(const host::Device& d, Image& img) {
    for (VkImageView v : img.mips) vkDestroyImageView(d.device(), v, nullptr);
    vkDestroyImageView(d.device(), img.view, nullptr);
    vkDestroyImage(d.device(), img.image, nullptr);
    vkFreeMemory(d.device(), img.memory, nullptr);
}

// Everything in one barrier: the simplest correct graph (a real one derives narrower ones from the uses).
void fullBarrier(VkCommandBuffer cmd, std::vector<VkImageMemoryBarrier2> images = {}) {
    VkMemoryBarrier2 m{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    m.srcStageMask = m.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    m.srcAccessMask = m.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &m;
    dep.imageMemoryBarrierCount = uint32_t(images.size());
    dep.pImageMemoryBarriers = images.data();
    vkCmdPipelineBarrier2(cmd, &dep);
}

VkImageMemoryBarrier2 toLayout(Image& img, VkImageLayout layout) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.srcAccessMask = b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.oldLayout = img.layout;
    b.newLayout = layout;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = img.image;
    b.subresourceRange = {img.aspect, 0, img.mipLevels, 0, 1};
    img.layout = layout;
    return b;
}

// The scene: a unit cube mesh, kGrid x kGrid cubes and one wide wall in front of most of them.
struct Scene {
    std::unique_ptr<host::Buffer> vertices, indices, instances, bounds, meshes, primitives;
};

Scene makeScene(const host::Device& d) {
    Scene s;
    const float p[8][3] = {{-.5f, -.5f, -.5f}, {.5f, -.5f, -.5f}, {.5f, .5f, -.5f}, {-.5f, .5f, -.5f},
                           {-.5f, -.5f, .5f},  {.5f, -.5f, .5f},  {.5f, .5f, .5f},  {-.5f, .5f, .5f}};
    const uint32_t idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                              3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5};
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    s.vertices = std::make_unique<host::Buffer>(d, sizeof(sieve::gpu::Vertex) * 8, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    auto* v = static_cast<sieve::gpu::Vertex*>(s.vertices->mapped());
    for (int i = 0; i < 8; ++i) v[i] = {p[i][0], p[i][1], p[i][2], 0u};
    s.indices = std::make_unique<host::Buffer>(d, sizeof(idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    std::memcpy(s.indices->mapped(), idx, sizeof(idx));
    s.meshes = std::make_unique<host::Buffer>(d, sizeof(sieve::gpu::Mesh), storage);
    sieve::gpu::Mesh mesh{};
    mesh.sphere = {0, 0, 0, 0.8661f};
    mesh.primitiveCount = 1;
    std::memcpy(s.meshes->mapped(), &mesh, sizeof(mesh));
    s.primitives = std::make_unique<host::Buffer>(d, sizeof(sieve::gpu::MeshPrimitive), storage);
    sieve::gpu::MeshPrimitive prim{};
    prim.lodCount = 1;
    prim.lods[0] = {0, 36, 0.0f, 0};
    std::memcpy(s.primitives->mapped(), &prim, sizeof(prim));
    s.instances = std::make_unique<host::Buffer>(d, sizeof(sieve::gpu::Instance) * kInstances, storage);
    s.bounds = std::make_unique<host::Buffer>(d, sizeof(sieve::gpu::InstanceBounds) * kInstances, storage);
    auto* inst = static_cast<sieve::gpu::Instance*>(s.instances->mapped());
    auto* bounds = static_cast<sieve::gpu::InstanceBounds*>(s.bounds->mapped());
    auto place = [&](uint32_t k, float x, float y, float z, float sx, float sy, float sz) {
        sieve::gpu::Instance& i = inst[k];
        i = {};
        i.rows[0] = {sx, 0, 0, x};
        i.rows[1] = {0, sy, 0, y};
        i.rows[2] = {0, 0, sz, z};
        i.scale = std::fmax(sx, std::fmax(sy, sz));
        bounds[k].sphere = {x, y, z, 0.5001f * std::sqrt(sx * sx + sy * sy + sz * sz)};
    };
    for (uint32_t gy = 0; gy < kGrid; ++gy)
        for (uint32_t gx = 0; gx < kGrid; ++gx)
            place(gy * kGrid + gx, -11.0f + 2.0f * gx, -7.0f + 1.3f * gy, -30.0f - 1.5f * float((gx + gy) % 3), 1, 1,
                  1);
    place(kGrid * kGrid, 0.0f, 0.0f, -20.0f, 24.0f, 16.0f, 1.0f);  // the wall
    return s;
}

struct View {
    const char* name;
    sieve::ViewDesc desc;
    bool reverseZ;
    float drawDistance = 0.0f;  // sieve::CullView::drawDistance (0: none)
};

std::vector<View> views() {
    const float n = 0.5f, f = 80.0f, aspect = float(kExtent.width) / float(kExtent.height);
    const float t = 1.0f / std::tan(0.5f);  // 1 rad vertical field of view
    const VkViewport viewport{0, 0, float(kExtent.width), float(kExtent.height), 0, 1};
    std::vector<View> out;
    View ortho{"orthographic, standard Z", {}, false};
    ortho.desc.projection = sieve::gpu::mat4(0.0f);
    ortho.desc.projection[0][0] = 2.0f / (20.0f * aspect);
    ortho.desc.projection[1][1] = -2.0f / 20.0f;  // y up on screen with a positive viewport
    ortho.desc.projection[2][2] = -1.0f / (f - n);
    ortho.desc.projection[3][2] = -n / (f - n);
    ortho.desc.projection[3][3] = 1.0f;
    View standard{"perspective, standard Z, finite far", {}, false};
    standard.desc.projection = sieve::gpu::mat4(0.0f);
    standard.desc.projection[0][0] = t / aspect;
    standard.desc.projection[1][1] = -t;
    standard.desc.projection[2][2] = f / (n - f);
    standard.desc.projection[2][3] = -1.0f;
    standard.desc.projection[3][2] = n * f / (n - f);
    View jittered{"perspective, reverse Z, infinite far, jittered", {}, true};
    jittered.desc.projection = sieve::gpu::mat4(0.0f);
    jittered.desc.projection[0][0] = t / aspect;
    jittered.desc.projection[1][1] = -t;
    jittered.desc.projection[2][0] = 0.37f * 2.0f / float(kExtent.width);  // sub-pixel offsets (TAA)
    jittered.desc.projection[2][1] = -0.21f * 2.0f / float(kExtent.height);
    jittered.desc.projection[2][3] = -1.0f;
    jittered.desc.projection[3][2] = n;
    // The jittered camera again with a draw distance that cuts the farthest cubes (z = -33) off.
    View distant = jittered;
    distant.name = "perspective, reverse Z, draw distance 32";
    distant.drawDistance = 32.0f;
    for (View* v : {&ortho, &standard, &jittered, &distant}) {
        v->desc.view = sieve::gpu::mat4(1.0f);
        v->desc.view[3] = {0.3f, -0.2f, 0.0f, 1.0f};  // eye slightly off the grid's axis
        v->desc.viewport = viewport;
        out.push_back(*v);
    }
    return out;
}

struct Rendered {
    std::vector<uint32_t> pixels;
    sieve::CullingStats stats;
    sieve::ClusterStats clusters;
};

// Renders kFrames frames of `view` with every culling stage on or off (and with clusters: the cluster
// plugin's lists drawn) and reads back the last picture.
bool render(const host::Device& d, const sieve::DeviceInfo& info, const Scene& scene, const View& view, bool culling,
            bool clusters, Rendered& out, std::string& error) {
    sieve::CullingConfig config;
    config.maxInstances = kInstances;
    config.viewport = kExtent;
    config.framesInFlight = 2;
    auto created = sieve::CullingPlugin::create(info, config);
    if (!created) return error = created.error().message, false;
    sieve::CullingPlugin& plugin = *created.value();
    sieve::CullingToggles& t = plugin.toggles();
    t.frustum = t.occlusion = culling;
    t.lod = false;
    sieve::GeometryOptions options;
    options.reverseZ = view.reverseZ;
    auto geometry = sieve::GeometryPass::create(info, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT, options);
    if (!geometry) return error = geometry.error().message, false;

    // A projection the culling cannot serve is refused; the view set before stays.
    sieve::ViewDesc bad = view.desc;
    bad.projection[1][0] = 0.25f;
    if (plugin.setView(bad)) return error = "a projection mixing x and y was accepted", false;
    sieve::CullView cullView;
    cullView.desc = view.desc;
    cullView.drawDistance = view.drawDistance;
    if (auto r = plugin.setViews({&cullView, 1}); !r) return error = r.error().message, false;

    Image color = makeImage(d, VK_FORMAT_R8G8B8A8_UNORM, kExtent, 1,
                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    Image depth = makeImage(d, VK_FORMAT_D32_SFLOAT, kExtent, 1,
                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    // Every slot from the plugin's description; the imported ones are the host's own.
    std::vector<std::unique_ptr<host::Buffer>> buffers;
    std::vector<Image> images;
    std::vector<sieve::SlotBinding> bindings(plugin.slots().size());
    std::vector<Image*> imageOf(bindings.size(), nullptr);
    for (size_t s = 0; s < bindings.size(); ++s) {
        const sieve::SlotDesc& desc = plugin.slots()[s];
        sieve::SlotBinding& b = bindings[s];
        const host::Buffer* own = desc.name == sieve::CullingPlugin::kInstances    ? scene.instances.get()
                                  : desc.name == sieve::CullingPlugin::kBounds     ? scene.bounds.get()
                                  : desc.name == sieve::CullingPlugin::kMeshes     ? scene.meshes.get()
                                  : desc.name == sieve::CullingPlugin::kPrimitives ? scene.primitives.get()
                                                                                   : nullptr;
        if (desc.kind == sieve::SlotKind::Image) {
            images.reserve(bindings.size());
            Image* img =
                desc.name == sieve::CullingPlugin::kDepth
                    ? &depth
                    : &images.emplace_back(makeImage(d, desc.format, desc.extent, desc.mipLevels, desc.imageUsage));
            imageOf[s] = img;
            b.image = img->image;
            b.view = img->view;
            b.mipViews = img->mips;
            b.extent = desc.extent;
        } else if (own) {
            b.buffer = own->handle();
            b.size = own->size();
        } else {
            const bool mapped = desc.memory != sieve::Memory::Device;
            buffers.push_back(std::make_unique<host::Buffer>(
                d, desc.size, desc.bufferUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, mapped));
            b.buffer = buffers.back()->handle();
            b.size = desc.size;
            b.mapped = buffers.back()->mapped();
            if (mapped) std::memset(b.mapped, 0xAB, desc.size);  // the plugin must not trust this
        }
    }
    // Device memory is garbage too.
    d.submitAndWait([&](VkCommandBuffer cmd) {
        for (auto& buf : buffers)
            if (!buf->mapped()) vkCmdFillBuffer(cmd, buf->handle(), 0, VK_WHOLE_SIZE, 0xABABABABu);
        fullBarrier(cmd);
    });

    host::Buffer readback(d, size_t(kExtent.width) * kExtent.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    sieve::GeometryInputs in;
    in.vertices = {scene.vertices->handle(), 0, VK_WHOLE_SIZE};
    in.indices = {scene.indices->handle(), 0, VK_WHOLE_SIZE};
    in.instances = {scene.instances->handle(), 0, VK_WHOLE_SIZE};
    in.maxDraws = plugin.drawCapacity();
    in.viewport = &view.desc.viewport;
    float viewProj[16];
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            float sum = 0;
            for (int k = 0; k < 4; ++k) sum += view.desc.projection[k][r] * view.desc.view[c][k];
            viewProj[c * 4 + r] = sum;
        }
    const sieve::Bindings bound{bindings};
    std::unique_ptr<consumer::ClusterHost> clusterHost;
    if (clusters) clusterHost = std::make_unique<consumer::ClusterHost>(d, info, plugin, bindings, error);
    for (int frame = 0; frame < kFrames && error.empty(); ++frame) {
        const sieve::FrameInfo fi{uint64_t(frame), uint32_t(frame % 2), 2};
        if (auto r = plugin.prepare(fi); !r) error = r.error().message;
        if (clusterHost && error.empty()) clusterHost->prepare(fi, plugin.toggles(), view.desc, error);
        d.submitAndWait([&](VkCommandBuffer cmd) {
            auto draw = [&](bool late) {
                fullBarrier(cmd, {toLayout(color, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
                                  toLayout(depth, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL)});
                const char* draws = late ? sieve::CullingPlugin::kDrawsLate : sieve::CullingPlugin::kDrawsEarly;
                const char* counts = late ? sieve::CullingPlugin::kCountsLate : sieve::CullingPlugin::kCountsEarly;
                in.draws = {bindings[plugin.slot(draws)].buffer, 0, VK_WHOLE_SIZE};
                in.counts = {bindings[plugin.slot(counts)].buffer, 0, VK_WHOLE_SIZE};
                if (clusterHost) {
                    in.draws = clusterHost->draws(late);
                    in.counts = clusterHost->counts(late);
                    in.maxDraws = clusterHost->capacity();
                }
                geometry->recordWithRendering(cmd, in, {color.view, depth.view, !late}, kExtent, viewProj);
            };
            // The declared layouts of a pass's images (slots of the culling plugin), then one full barrier.
            auto enter = [&](std::vector<std::pair<sieve::SlotId, VkImageLayout>> uses) {
                std::vector<VkImageMemoryBarrier2> transitions;
                for (const auto& [slot, layout] : uses)
                    if (imageOf[slot] && imageOf[slot]->layout != layout)
                        transitions.push_back(toLayout(*imageOf[slot], layout));
                fullBarrier(cmd, transitions);
            };
            for (uint32_t p = 0; p < plugin.passes().size() && error.empty(); ++p) {
                std::vector<std::pair<sieve::SlotId, VkImageLayout>> uses;
                for (const sieve::ResourceUse& u : plugin.passes()[p].uses) uses.emplace_back(u.slot, u.layout);
                enter(uses);
                if (auto r = plugin.record(p, cmd, bound, fi); !r) error = r.error().message;
                uint32_t cp = 0;
                if (clusterHost && error.empty() && clusterHost->passAfter(p, cp)) {
                    enter(clusterHost->images(cp));
                    clusterHost->record(cp, cmd, fi, error);
                }
                if (p == plugin.pass(sieve::CullingPlugin::PassRole::EarlyStreams)) draw(false);
                if (p == plugin.pass(sieve::CullingPlugin::PassRole::LateStreams)) draw(true);
            }
            fullBarrier(cmd, {toLayout(color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)});
            VkBufferImageCopy copy{};
            copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            copy.imageExtent = {kExtent.width, kExtent.height, 1};
            vkCmdCopyImageToBuffer(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.handle(), 1, &copy);
            fullBarrier(cmd);
        });
    }
    out.pixels.assign(readback.words(), readback.words() + kExtent.width * kExtent.height);
    out.stats = plugin.stats();
    if (clusterHost) out.clusters = clusterHost->stats();
    destroy(d, color);
    destroy(d, depth);
    for (Image& img : images) destroy(d, img);
    return error.empty();
}

// The cluster plugin's picture of `view` equals `off` (culling off), with stats of a frame it recorded;
// adds the clusters the cone test removed to `coneCulled`.
bool checkClusters(const host::Device& d, const sieve::DeviceInfo& info, const Scene& scene, const View& view,
                   const Rendered& off, uint32_t& coneCulled) {
    Rendered on;
    std::string error;
    if (!render(d, info, scene, view, true, true, on, error))
        return failed(std::string(view.name) + ", clusters: " + error);
    size_t differ = 0;
    for (size_t i = 0; i < on.pixels.size(); ++i) differ += on.pixels[i] != off.pixels[i];
    const sieve::gpu::ClusterCounters& k = on.clusters.counters;
    std::printf("%s, clusters: %zu pixels differ; %u of %u clusters drawn (frustum %u, cone %u)\n", view.name, differ,
                on.clusters.drawn(), k.lateTested, k.frustumVisible, k.coneVisible);
    if (differ) return failed(std::string(view.name) + ": clusters changed the picture");
    if (!on.clusters.valid || on.clusters.frame != kFrames - 1 - 2 || on.clusters.drawn() == 0)
        return failed(std::string(view.name) + ": cluster stats are not those of a frame the plugin drew");
    coneCulled += k.frustumVisible - k.coneVisible;
    return true;
}

// Every view of views() rendered with culling on and off: the same picture, culling that culls, stats of
// a frame the plugin recorded. Prints what failed.
bool renderViews(const host::Device& d, const sieve::DeviceInfo& info, const Scene& scene) {
    uint32_t coneCulled = 0;
    for (const View& view : views()) {
        Rendered on, off;
        std::string error;
        if (!render(d, info, scene, view, true, false, on, error) ||
            !render(d, info, scene, view, false, false, off, error))
            return failed(std::string(view.name) + ": " + error);
        size_t differ = 0, sky = 0;
        for (size_t i = 0; i < on.pixels.size(); ++i) {
            differ += on.pixels[i] != off.pixels[i];
            sky += off.pixels[i] == off.pixels[0];
        }
        const sieve::CullingStats& s = on.stats;
        std::printf(
            "%s: %zu of %zu pixels differ; culling on draws %u of %u instances (frustum %u), off %u; "
            "stats of frame %llu\n",
            view.name, differ, on.pixels.size(), s.draws(), s.instances, s.frustumVisible, off.stats.draws(),
            (unsigned long long)s.frame);
        if (differ) return failed(std::string(view.name) + ": culling changed the picture");
        if (sky == on.pixels.size()) return failed(std::string(view.name) + ": nothing was drawn");
        if (!s.valid || !off.stats.valid || s.frame != kFrames - 1 - 2 || s.instances != kInstances)
            return failed(std::string(view.name) + ": stats are not those of a frame the plugin recorded");
        // Culling off leaves the draw distance on: it removes what lies beyond, and nothing else.
        const uint32_t beyond =
            off.stats.views.empty() ? 0u : off.stats.views[0].culled[sieve::gpu::SIEVE_TEST_DISTANCE];
        if ((view.drawDistance > 0.0f) != (beyond > 0))
            return failed(std::string(view.name) + ": the draw distance culled " + std::to_string(beyond));
        if (off.stats.draws() != kInstances - beyond)
            return failed(std::string(view.name) + ": culling off skipped instances");
        if (s.draws() >= kInstances / 2) return failed(std::string(view.name) + ": culling culled too little");
        if (!checkClusters(d, info, scene, view, off, coneCulled)) return false;
    }
    if (coneCulled == 0) return failed("the cluster plugin's cone test culled no back face");
    return true;
}

}  // namespace

int main() {
    host::Device device;
    // What the host did not enable is refused by name.
    sieve::DeviceSetup without = device.setup();
    without.enabledExtensionCount = 0;
    auto partial = sieve::describeDevice(without);
    if (!partial) return fails(partial.error().message);
    auto refused = sieve::CullingPlugin::create(partial.value(), {.maxInstances = 1});
    if (refused || refused.error().message.find(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == std::string::npos)
        return fails("a device without VK_KHR_push_descriptor was not refused by name");
    std::printf("refused as it should: %s\n", refused.error().message.c_str());

    auto info = sieve::describeDevice(device.setup());
    if (!info) return fails(info.error().message);
    std::printf("subgroup size %u, validation %s\n", info->subgroupSize, device.validation() ? "on" : "off");
    const Scene scene = makeScene(device);
    if (!renderViews(device, info.value(), scene)) return 1;
    // A device without drawIndirectCount: the geometry pass draws each stream over its capacity (records
    // past the count are empty); culling still keeps the picture and culls.
    host::Device noCount(false);
    auto infoNoCount = sieve::describeDevice(noCount.setup());
    if (!infoNoCount) return fails(infoNoCount.error().message);
    if (infoNoCount->drawIndirectCount()) return fails("drawIndirectCount was left off but is reported enabled");
    std::printf("without drawIndirectCount:\n");
    if (!renderViews(noCount, infoNoCount.value(), makeScene(noCount))) return 1;
    if (host::Device::validationMessages() != 0) return fails("the validation layer reported messages");
    std::printf("sieve_consumer: OK\n");
    return 0;
}
