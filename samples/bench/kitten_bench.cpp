// sieve-bench kitten: niagara's benchmark scene (assets/niagara_field.h: the kitten mesh placed N times
// exactly as niagara places its draws, seen from niagara's camera) measured as sieve-bench cull measures
// the city (cull_lines.h): per-pass GPU times, bandwidth bounds and counts with stable and atomic-append
// draw lists, one JSON line per (N, order), "scenario": "kitten". For each N it also counts on the CPU the
// share of the instances in the frustum and the share that niagara's draw distance (200) would keep of
// those, printed on stderr and written in the lines. --clusters culls on down to clusters instead
// (kitten_clusters.h): one line per cluster path.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "assets/glm_interop.h"
#include "assets/gltf_loader.h"
#include "assets/meshlets.h"
#include "assets/niagara_field.h"
#include "assets/spatial_order.h"
#include "bench_util.h"
#include "cull_lines.h"
#include "kitten_clusters.h"
#include "scene_harness.h"
#include "sieve/cull_flags.h"
#include "subcommands.h"

#ifndef SIEVE_KITTEN_GLB
#error "SIEVE_KITTEN_GLB (the default kitten mesh) is defined by samples/bench/CMakeLists.txt"
#endif

namespace bench {
namespace {

constexpr const char* kName = "kitten";

constexpr const char* kDescription =
    "niagara's benchmark scene: the kitten mesh (--kitten, default assets/niagara/kitten.glb)\n"
    "placed N times (default 1e6) as niagara places its draws (PCG32 from state 0x42: position in a 600 m\n"
    "cube around the origin, scale 2..4, a rotation of up to 90 degrees), the camera at the origin looking\n"
    "down -Z, vertical field of view 70 degrees, near 0.1, infinite reverse Z, at WxH (default 1920x1080).\n"
    "Culled and drawn by SceneRenderer as sieve-bench cull draws the city: per-pass GPU times (median of F\n"
    "frames after W warm-up frames), stable and atomic-append draw lists, fewest bytes and bounds, peers.\n"
    "Each N also prints the share of the instances in the frustum and, of all instances, the share in the\n"
    "frustum and within niagara's draw distance of 200 (along the view axis, niagara's far-plane test, and\n"
    "by distance from the camera), counted on the CPU. --verify checks the counts as cull does: GPU frustum\n"
    "count = CPU reference, same number of draws in both orders, no overflow, something culled.\n"
    "--order morton sorts the instance table by the Morton code of the centres first (assets/spatial_order.h);\n"
    "niagara (the default) keeps niagara's placement order, which is random in space.\n"
    "--clusters indirect|mesh|all culls on below the instances, every cluster (meshlet) of every listed kitten\n"
    "(the ClusterPlugin, as sieve-bench clusters and the viewer's --clusters on), drawn by indexed indirect\n"
    "draws, mesh shaders (skipped without VK_EXT_mesh_shader) or both, one line per path (stable order) instead\n"
    "of the two orders: per-pass times, the instance and the cluster culling totals, the cluster counts and\n"
    "the triangles drawn. Capacities follow what the camera can see: the instances in the frustum within the\n"
    "draw distance (--draw-distance 200 is niagara's) get cluster visibility slots, the draw lists and\n"
    "candidate lists hold those instances' draws and clusters. --verify then also checks that nothing was\n"
    "dropped or overflowed, that clusters were culled, and that both paths drew the same clusters and triangles.";

struct KittenOptions {
    std::vector<uint64_t> instances{1000000};
    std::string kitten = SIEVE_KITTEN_GLB;
    std::string order = "niagara";  // of the instance table: niagara's placement order, or "morton"
    std::string clusters = "off";   // off | indirect | mesh | all (indirect then mesh)
    bool triangleCull = false;      // the mesh path's per-triangle culling
    uint32_t warmupMs = 500;
    CityOptions render;  // --width --height --frames --warmup --verify --out
};

// The camera's view settings besides its matrices (SceneRenderer::setCameraView).
sieve::CullView kittenCameraView(const KittenOptions& o) {
    sieve::CullView v;
    v.name = "camera";
    // niagara's draw distance is a far plane (view-space centre.z - radius >= zfar culls): along the axis.
    v.drawDistance = o.render.drawDistance;
    v.distanceAlongAxis = true;
    return v;
}

// niagara's view and projection at the target's aspect ratio (niagara takes its swapchain's).
glm::mat4 kittenView() {
    return glm::mat4(1.0f);  // at the origin, identity orientation: looking down -Z, +Y up
}
glm::mat4 kittenProjection(VkExtent2D extent) {
    return sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(sieve::assets::kNiagaraFovYDegrees),
                                                   float(extent.width) / float(extent.height),
                                                   sieve::assets::kNiagaraNear));
}

// Instances in the frustum (the GPU's sphere test, frustumReferenceCount), and of those the ones whose
// sphere does not lie wholly beyond `distance`: along the view axis (niagara's test: its view-space
// centre.z - radius < zfar, its draw distance being that far plane) and by distance from the camera.
struct FieldCounts {
    uint64_t frustum = 0;
    uint64_t withinDepth = 0;
    uint64_t withinDistance = 0;
};
FieldCounts countField(const sieve::assets::SceneData& scene, const glm::mat4& view, const glm::mat4& proj,
                       float distance) {
    FieldCounts c;
    c.frustum = frustumReferenceCount(scene, view, proj, 0.0f, false, [&](const sieve::gpu::vec4& s) {
        const glm::vec3 v = glm::vec3(view * glm::vec4(s.x, s.y, s.z, 1.0f));
        const float depth = -v.z;  // the camera looks down its -Z
        c.withinDepth += depth - s.w < distance;
        c.withinDistance += glm::length(v) - s.w < distance;
    });
    return c;
}

double percent(uint64_t part, uint64_t all) {
    return all ? 100.0 * double(part) / double(all) : 0.0;
}

}  // namespace

int kittenMain(int argc, char** argv) {
    KittenOptions o;
    o.render.frames = 100;
    o.render.warmup = 20;
    cli::Parser p = subcommandParser(kName, kDescription);
    addInstanceCounts(p, "--instances", "instance counts of the field, one run each (default 1e6)", o.instances);
    p.text("--kitten", "PATH", std::string("the mesh to place, glTF or GLB (default ") + SIEVE_KITTEN_GLB + ")",
           o.kitten);
    addCityOptions(p, o.render, 100000, "check the counts (see above); exit 1 on a mismatch", false);
    addInstancePassOptions(p, o.render);
    p.choice("--order", {"niagara", "morton"}, "order of the instance table (default niagara)", o.order);
    p.choice("--clusters", {"off", "indirect", "mesh", "all"},
             "cull clusters too, drawn by this path (all: both; default off: instances only)", o.clusters);
    p.onOff("--triangle-cull",
            "the mesh path culls back-facing, degenerate and sample-less triangles in its mesh shaders (default off)",
            o.triangleCull);
    p.count("--warmup-ms", "MS", "rendering right before each timed run, after which the warm-up frames (default 500)",
            o.warmupMs, 0, 60000);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    if (const std::string why = checkCityOptions(o.render); !why.empty()) return fail(kName, why);
    if ((o.render.turn != 0.0f || o.render.instanceState || o.render.lateSplit != "off") && o.clusters != "off")
        return fail(kName,
                    "--turn, --instance-state on and --late-split apply to the instance passes alone: they need "
                    "--clusters off");
    const VkExtent2D extent = o.render.extent();
    const JsonSink sink(o.render.out);

    std::error_code ec;
    if (!std::filesystem::is_regular_file(o.kitten, ec))
        return fail(kName, "the kitten mesh '" + o.kitten +
                               "' is missing (niagara's kitten.glb lies in the source tree's assets/niagara/; "
                               "--kitten PATH names another)");
    auto loaded = sieve::assets::loadGltf(o.kitten);
    if (!loaded) return fail(kName, loaded.error());
    sieve::assets::SceneData mesh = std::move(loaded).value();
    if (mesh.meshes.empty()) return fail(kName, o.kitten + ": no mesh to place");
    // The clusters of the mesh (its index ranges reordered into cluster order, which every field copies);
    // each field assigns its instances' visibility slots.
    std::vector<engine::ClusterPath> paths;
    if (o.clusters == "indirect" || o.clusters == "all") paths.push_back(engine::ClusterPath::Indirect);
    if (o.clusters == "mesh" || o.clusters == "all") paths.push_back(engine::ClusterPath::Mesh);
    if (o.triangleCull && std::find(paths.begin(), paths.end(), engine::ClusterPath::Mesh) == paths.end())
        return fail(kName,
                    "--triangle-cull on culls triangles in the mesh path's shaders: it needs --clusters mesh or all");
    sieve::assets::ClusterData meshClusters;
    if (!paths.empty()) {
        auto built = sieve::assets::buildClusters(mesh);
        if (!built) return fail(kName, o.kitten + ": " + built.error());
        meshClusters = std::move(built).value();
    }

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    // The peers of the instance-culling lines (cull_lines.h).
    sieve::Result<Peers> peers = Peers{};
    if (paths.empty()) peers = measurePeers(ctx, peakCopyBytes(ctx), 50);
    if (!peers) return fail(kName, peers.error().message);

    const glm::mat4 view = kittenView(), proj = kittenProjection(extent);
    const sieve::gpu::vec4 meshSphere = mesh.meshes[0].sphere;
    char sphereText[128];
    std::snprintf(sphereText, sizeof sphereText, "[%.9g, %.9g, %.9g, %.9g]", meshSphere.x, meshSphere.y, meshSphere.z,
                  meshSphere.w);
    bool allOk = true;
    for (uint64_t n : o.instances) {
        auto field = sieve::assets::makeNiagaraField(mesh, n);
        if (!field) return fail(kName, field.error());
        if (o.order == "morton" && !sieve::assets::sortInstancesSpatially(field->instances, field->bounds))
            return fail(kName, "the field's instance and bounds tables differ in size");
        const FieldCounts counts = countField(*field, view, proj, sieve::assets::kNiagaraDrawDistance);
        std::fprintf(stderr,
                     "sieve-bench kitten: n=%llu: %llu instances (%.2f%%) pass the frustum test; in the frustum "
                     "and within %.0f of the camera: %llu (%.2f%%) along the view axis (niagara's far plane), "
                     "%llu (%.2f%%) by distance\n",
                     (unsigned long long)n, (unsigned long long)counts.frustum, percent(counts.frustum, n),
                     double(sieve::assets::kNiagaraDrawDistance), (unsigned long long)counts.withinDepth,
                     percent(counts.withinDepth, n), (unsigned long long)counts.withinDistance,
                     percent(counts.withinDistance, n));
        // The GPU's count of instances in view: the frustum and the view's draw distance along the axis, by
        // the shared predicates (whose conservative margin may keep a sphere touching the plane that
        // countField's plain comparison drops).
        const uint64_t reference =
            o.render.verify ? frustumReferenceCount(*field, view, proj, o.render.drawDistance, true) : 0;
        CullLines lines;
        lines.scenario = kName;
        lines.n = n;
        lines.warmupMs = o.warmupMs;
        lines.warmup = o.render.warmup;
        lines.frames = o.render.frames;
        lines.verify = o.render.verify;
        lines.cpuFrustum = reference;
        lines.fields = [&](Json& j) {
            j.str("scene", "kitten")
                .str("instance_order", o.order)
                .str("kitten", o.kitten)
                .raw("mesh_sphere", sphereText)
                .num("fov_y_deg", sieve::assets::kNiagaraFovYDegrees)
                .num("near", sieve::assets::kNiagaraNear)
                .num("view_draw_distance", o.render.drawDistance)
                .num("turn_deg_per_frame", o.render.turn)
                .boolean("instance_state", o.render.instanceState)
                .str("late_split", o.render.lateSplit)
                .str("draw_marks", o.render.drawMarks)
                .integer("cpu_in_frustum", counts.frustum)
                .num("frustum_fraction", double(counts.frustum) / double(n))
                .num("draw_distance", sieve::assets::kNiagaraDrawDistance)
                .num("within_depth_fraction", double(counts.withinDepth) / double(n))
                .num("within_distance_fraction", double(counts.withinDistance) / double(n));
        };
        if (!paths.empty()) {
            const KittenClusterRun run{lines, paths, view, proj, kittenCameraView(o), extent, o.triangleCull};
            auto ok = writeKittenClusterLines(ctx, *field, meshClusters, run, sink);
            if (!ok) return fail(kName, ok.error().message);
            allOk = allOk && ok.value();
            continue;
        }
        auto harnessR = SceneHarness::create(ctx, std::move(field).value(), extent,
                                             {.instanceState = o.render.instanceState,
                                              .lateSplit = lateSplitOf(o.render),
                                              .drawMarks = drawMarksOf(o.render)});
        if (!harnessR) return fail(kName, harnessR.error().message);
        SceneHarness& h = *harnessR.value();
        h.setCamera(view, proj);
        h.setTurn(o.render.turn);
        h.renderer().setCameraView(kittenCameraView(o));
        auto ok = writeCullLines(ctx, h, *peers, lines, sink);
        if (!ok) return fail(kName, ok.error().message);
        allOk = allOk && ok.value();
    }
    return allOk ? 0 : 1;
}

}  // namespace bench
