#include "kitten_clusters.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "scene_harness.h"
#include "sieve/cull_flags.h"
#include "sieve/culling_tuning.h"
#include "sieve/hiz.h"

namespace bench {
namespace {

// What the camera can see of the field (see the header): the instances, their draws, and the clusters
// of those draws at one LOD finer than the CPU's choice.
struct InView {
    std::vector<bool> mask;
    uint64_t instances = 0, draws = 0, clusters = 0;
};

sieve::Result<InView> inViewOf(const sieve::assets::SceneData& field, const sieve::assets::ClusterData& clusters,
                               const KittenClusterRun& r) {
    sieve::CullSettings settings;
    settings.drawDistance = r.cameraView.drawDistance;
    settings.distanceAlongAxis = r.cameraView.distanceAlongAxis;
    const sieve::ViewDesc desc{r.view, r.proj, {0, 0, float(r.extent.width), float(r.extent.height), 0, 1}};
    auto params = sieve::makeCullParams(desc, sieve::HiZBuilder::pyramidExtent(r.extent), 1,
                                        uint32_t(field.instances.size()), settings);
    if (!params) return params.error();
    const sieve::CullScene scene{field.instances, field.bounds, field.meshes, field.primitives};
    InView v;
    v.mask.assign(field.instances.size(), false);
    for (size_t i = 0; i < field.instances.size(); ++i) {
        const sieve::gpu::Instance& inst = field.instances[i];
        sieve::gpu::vec4 grown = field.bounds[i].sphere;
        grown.w = grown.w * (1.0f + kInViewMargin) + kInViewMargin;
        if (!sieve::gpu::sieveInFrustum(grown, *params) || !sieve::gpu::sieveWithinDrawDistance(grown, 0.0f, *params))
            continue;
        v.mask[i] = true;
        ++v.instances;
        const uint32_t lod = sieve::lodReference(inst, field.bounds[i].sphere, *params, scene);
        const uint32_t finer = lod ? lod - 1 : 0;
        const sieve::gpu::Mesh& mesh = field.meshes[inst.mesh];
        for (uint32_t k = 0; k < mesh.primitiveCount; ++k) {
            const uint32_t p = mesh.firstPrimitive + k;
            const uint32_t l = std::min(finer, std::max(field.primitives[p].lodCount, 1u) - 1);
            v.clusters += clusters.ranges[size_t(p) * sieve::gpu::SIEVE_MAX_LODS + l].clusterCount;
            ++v.draws;
        }
    }
    return v;
}

// Per frame, the instance culling passes (cull.*, hiz.build) and the cluster passes (cluster.*) of
// kCullPasses, each summed.
void splitCull(const SceneRun& run, std::vector<double>& instances, std::vector<double>& clusters) {
    instances.assign(run.cullUs.size(), 0.0);
    clusters.assign(run.cullUs.size(), 0.0);
    for (const char* pass : kCullPasses) {
        const auto it = run.passUs.find(pass);
        if (it == run.passUs.end()) continue;
        std::vector<double>& to = std::string_view(pass).starts_with("cluster.") ? clusters : instances;
        for (size_t f = 0; f < std::min(to.size(), it->second.size()); ++f) to[f] += it->second[f];
    }
}

// Empty when the run passes --verify's checks; `first` is the first path's stats (null for the first).
std::string verifyRun(const SceneRun& run, const KittenClusterRun& r, const sieve::ClusterStats* first) {
    const sieve::CullingStats& s = run.stats;
    const sieve::ClusterStats& c = run.clusters;
    if (!s.valid) return "no instance counts read back";
    if (s.frustumVisible != r.lines.cpuFrustum)
        return "GPU frustum count " + std::to_string(s.frustumVisible) + " != CPU reference " +
               std::to_string(r.lines.cpuFrustum);
    if (s.overflow()) return "instance draw list overflow";
    if (!c.valid) return "no cluster counts read back";
    if (c.counters.dropped) return std::to_string(c.counters.dropped) + " cluster candidates dropped";
    if (c.early.overflow + c.late.overflow) return "cluster list overflow";
    if (c.drawn() == 0) return "no cluster drawn";
    if (c.counters.lateVisible >= c.counters.lateTested) return "no cluster culled";
    if (first && (c.drawn() != first->drawn() || c.counters.triangles != first->counters.triangles))
        return "drew " + std::to_string(c.drawn()) + " clusters, " + std::to_string(c.counters.triangles) +
               " triangles; the first path " + std::to_string(first->drawn()) + ", " +
               std::to_string(first->counters.triangles);
    return {};
}

}  // namespace

sieve::Result<bool> writeKittenClusterLines(engine::Context& ctx, const sieve::assets::SceneData& field,
                                            sieve::assets::ClusterData clusters, const KittenClusterRun& r,
                                            const JsonSink& sink) {
    auto inViewR = inViewOf(field, clusters, r);
    if (!inViewR) return inViewR.error();
    const InView& inView = inViewR.value();
    auto slots = sieve::assets::assignInstanceSlots(clusters, field, [&](size_t i) { return bool(inView.mask[i]); });
    if (!slots) return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, slots.error());
    const uint32_t drawCapacity = uint32_t(std::clamp<uint64_t>(inView.draws, 1, UINT32_MAX));
    const uint32_t candidates = uint32_t(std::clamp<uint64_t>(inView.clusters, 1, UINT32_MAX));
    std::fprintf(stderr,
                 "sieve-bench kitten: n=%llu, clusters: %llu instances can be in view (draw distance %g): %llu "
                 "visibility slots (%.1f MiB), instance draw lists of %u draws, %u cluster candidates per phase\n",
                 (unsigned long long)r.lines.n, (unsigned long long)inView.instances, double(r.cameraView.drawDistance),
                 (unsigned long long)slots.value(), double(slots.value()) * 4 / (1 << 20), drawCapacity, candidates);
    bool allOk = true;
    std::optional<sieve::ClusterStats> first;
    for (const engine::ClusterPath path : r.paths) {
        const char* name = engine::clusterPathName(path);
        if (path == engine::ClusterPath::Mesh && !ctx.info().meshShader) {
            std::fprintf(stderr,
                         "sieve-bench kitten: n=%llu: the mesh path is skipped: the device has no "
                         "VK_EXT_mesh_shader\n",
                         (unsigned long long)r.lines.n);
            continue;
        }
        const bool triangleCull = r.triangleCull && path == engine::ClusterPath::Mesh;
        const engine::ClusterSetup setup{&clusters, path, candidates, candidates, triangleCull};
        auto hR = SceneHarness::create(ctx, field, r.extent, {.clusters = &setup, .drawCapacity = drawCapacity});
        if (!hR) return sieve::makeError(hR.error().code, std::string(name) + ": " + hR.error().message);
        SceneHarness& h = *hR.value();
        h.setCamera(r.view, r.proj);
        h.renderer().setCameraView(r.cameraView);
        sieve::tuning(h.renderer().plugin()).stable = true;
        auto run = h.runWarm(r.lines.warmupMs, r.lines.warmup, r.lines.frames);
        if (!run) return sieve::makeError(run.error().code, std::string(name) + ": " + run.error().message);
        const sieve::ClusterStats& c = run->clusters;
        Json line;
        line.str("scenario", r.lines.scenario).integer("n", r.lines.n);
        if (r.lines.fields) r.lines.fields(line);
        line.integer("width", r.extent.width)
            .integer("height", r.extent.height)
            .str("order", "stable")
            .str("cluster_path", name)
            .boolean("triangle_cull", triangleCull);
        addRun(line, *run);
        addClipping(line, *run);
        std::vector<double> instanceUs, clusterUs;
        splitCull(*run, instanceUs, clusterUs);
        addStat(line, "instance_cull", stat(instanceUs));
        addStat(line, "cluster_cull", stat(clusterUs));
        line.obj("clusters", clusterCounts(c)).integer("triangles", c.counters.triangles);
        const sieve::ClusterPlugin& plugin = *h.renderer().clusterPlugin();
        Json caps;
        caps.integer("in_view_instances", inView.instances)
            .integer("draw_capacity", h.renderer().plugin().drawCapacity())
            .integer("candidate_capacity", plugin.candidateCapacity())
            .integer("output_capacity", plugin.outputCapacity())
            .integer("visibility_slots", slots.value())
            .integer("max_clusters_per_draw", clusters.maxClustersPerDraw);
        line.obj("capacities", caps);
        if (r.lines.verify) {
            const std::string why = verifyRun(*run, r, first ? &*first : nullptr);
            line.boolean("verified", why.empty()).integer("cpu_frustum_visible", r.lines.cpuFrustum);
            if (!why.empty()) {
                std::fprintf(stderr, "sieve-bench %s: n=%llu %s: %s\n", r.lines.scenario, (unsigned long long)r.lines.n,
                             name, why.c_str());
                allOk = false;
            }
        }
        if (!first) first = c;
        describe(ctx, line);
        if (!sink.write(line)) return sieve::makeError(VK_ERROR_UNKNOWN, "cannot write the output file");
    }
    return allOk;
}

}  // namespace bench
