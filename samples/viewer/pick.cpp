#include "pick.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/ui/pick_verdict.h"
#include "sieve/cull_flags.h"

namespace viewer {

namespace gpu = sieve::gpu;
using Json = nlohmann::ordered_json;

namespace {

// Möller-Trumbore: the distance along `dir` (unit) from `o` to the triangle, or none.
std::optional<float> rayTriangle(const glm::vec3& o, const glm::vec3& dir, const glm::vec3& a, const glm::vec3& b,
                                 const glm::vec3& c) {
    const glm::vec3 e1 = b - a, e2 = c - a, p = glm::cross(dir, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-12f) return std::nullopt;
    const glm::vec3 t = o - a;
    const float u = glm::dot(t, p) / det;
    if (u < 0.0f || u > 1.0f) return std::nullopt;
    const glm::vec3 q = glm::cross(t, e1);
    const float v = glm::dot(dir, q) / det;
    if (v < 0.0f || u + v > 1.0f) return std::nullopt;
    const float d = glm::dot(e2, q) / det;
    return d > 0.0f ? std::optional<float>(d) : std::nullopt;
}

// The nearest hit of the ray with instance i's triangles at `lod` (clamped to each primitive's chain).
std::optional<float> rayInstance(const sieve::assets::SceneData& s, uint32_t i, uint32_t lod, const glm::vec3& o,
                                 const glm::vec3& dir) {
    const gpu::Instance& inst = s.instances[i];
    const auto world = [&](const gpu::Vertex& v) {
        const glm::vec4 p(v.px, v.py, v.pz, 1.0f);
        const auto row = [&](int r) {
            return glm::vec4(inst.rows[r].x, inst.rows[r].y, inst.rows[r].z, inst.rows[r].w);
        };
        return glm::vec3(glm::dot(row(0), p), glm::dot(row(1), p), glm::dot(row(2), p));
    };
    std::optional<float> best;
    const gpu::Mesh& mesh = s.meshes[inst.mesh];
    for (uint32_t k = 0; k < mesh.primitiveCount; ++k) {
        const gpu::MeshPrimitive& prim = s.primitives[mesh.firstPrimitive + k];
        const gpu::MeshLod& l = prim.lods[std::min(lod, prim.lodCount - 1)];
        for (uint32_t t = 0; t + 2 < l.indexCount; t += 3) {
            const uint32_t* idx = &s.indices[l.firstIndex + t];
            const auto vtx = [&](uint32_t n) { return world(s.vertices[size_t(int64_t(idx[n]) + prim.vertexOffset)]); };
            if (auto d = rayTriangle(o, dir, vtx(0), vtx(1), vtx(2)); d && (!best || *d < *best)) best = d;
        }
    }
    return best;
}

}  // namespace

std::optional<PickHit> castPickRay(const sieve::assets::SceneData& s, const CullingFrame& f, float x, float y,
                                   const std::vector<uint32_t>& state) {
    const glm::mat4 inv = glm::inverse(f.drawProjection * f.drawView);
    const float nx = (x + 0.5f) / float(f.extent.width) * 2.0f - 1.0f;
    const float ny = (y + 0.5f) / float(f.extent.height) * 2.0f - 1.0f;
    const glm::vec4 a = inv * glm::vec4(nx, ny, 1.0f, 1.0f), b = inv * glm::vec4(nx, ny, 0.5f, 1.0f);
    const glm::vec3 o = glm::vec3(a) / a.w, dir = glm::normalize(glm::vec3(b) / b.w - o);
    std::optional<PickHit> best;
    for (uint32_t i = 0; i < s.instances.size(); ++i) {
        const gpu::vec4& sp = s.bounds[i].sphere;
        const glm::vec3 c(sp.x, sp.y, sp.z), oc = c - o;
        const float along = glm::dot(oc, dir);
        if (glm::dot(oc, oc) - along * along > sp.w * sp.w) continue;  // the ray misses the bounds
        if (best && along - sp.w > best->distance) continue;
        const uint32_t lod = i < state.size() && engine::ui::drawnState(state[i]) ? engine::ui::stateLod(state[i]) : 0u;
        if (auto d = rayInstance(s, i, lod, o, dir); d && (!best || *d < best->distance)) best = PickHit{i, *d};
    }
    return best;
}

namespace {

Json testsJson(const engine::ui::PickVerdict& v, const gpu::CullParams& p, float drawDistance) {
    Json tests = Json::array();
    tests.push_back({{"test", "frustum"},
                     {"on", v.frustumOn},
                     {"verdict", !v.frustumOn  ? "not tested"
                                 : v.inFrustum ? "inside"
                                               : "culled"},
                     {"outside_plane", engine::ui::planeName(v.outsidePlane, p)}});
    tests.push_back({{"test", "distance"},
                     {"on", v.distanceOn},
                     {"verdict", !v.distanceOn      ? "not tested"
                                 : v.withinDistance ? "within"
                                                    : "culled"},
                     {"distance", v.distance},
                     {"draw_distance", drawDistance}});
    tests.push_back({{"test", "lod"}, {"on", (p.toggles & gpu::SIEVE_CULL_LOD) != 0}, {"lod", v.lod}});
    Json occ = {{"test", "occlusion"}, {"on", v.occlusionOn}};
    if (!v.occlusionOn)
        occ["verdict"] = "not tested";
    else if (!v.occlusionQueried)
        occ["verdict"] = "visible without the pyramid (crosses the near plane or leaves the screen)";
    else
        occ.update({{"verdict", v.occluded ? "occluded" : "visible"},
                    {"mip", v.query.mip},
                    {"texels", {v.query.x0, v.query.y0, v.query.x1, v.query.y1}},
                    {"farthest_depth", v.farthestDepth},
                    {"sphere_nearest_depth", v.query.depth}});
    tests.push_back(occ);
    return tests;
}

// With the false-culling check on (not frozen), for an instance the GPU culled by occlusion (the only ones
// the check re-tests): whether the frame's final depth shows it (some pixel of its screen rectangle would
// not hide it alone, sieve::falselyCulledReference), i.e. it was culled falsely. (Drawn instances are not
// asked: their own pixels lie behind their bounding sphere's nearest point and would hide them.)
Json finalDepthJson(const CullingFrame& f, const engine::ui::PickReadbackPass::Frame& rb, const gpu::CullParams& p,
                    const gpu::vec4& sphere, uint32_t gpuState) {
    if (!f.toggles.checkCulling) return {{"check", "off"}, {"verdict", "not checked (check culling off)"}};
    if (f.toggles.freeze)
        return {{"check", "paused"}, {"verdict", "not checked (the check pauses while culling is frozen)"}};
    if (rb.depth.empty()) return {{"check", "on"}, {"verdict", "not checked (the final depth was not read back)"}};
    if ((gpuState & gpu::SIEVE_STATE_KIND_MASK) != gpu::SIEVE_STATE_OCCLUSION_CULLED)
        return {{"check", "on"},
                {"checked", false},
                {"falsely_culled", false},
                {"verdict", "not checked (the check re-tests what occlusion culled only)"}};
    const bool shows = sieve::falselyCulledReference(sphere, p, rb.depthExtent, rb.depth);
    return {
        {"check", "on"},
        {"checked", true},
        {"shows_it", shows},
        {"falsely_culled", shows},
        {"verdict", shows ? "FALSELY CULLED: the final depth shows it" : "rightly culled: the final depth hides it"}};
}

}  // namespace

sieve::Result<std::string> pickJson(const sieve::assets::SceneData& s, const CullingFrame& f,
                                    const engine::ui::PickReadbackPass::Frame& rb, int x, int y) {
    Json j;
    j["pixel"] = {x, y};
    j["frame"] = rb.frameIndex;
    j["culling_camera"] = f.toggles.freeze ? "frozen" : "current";
    const auto hit = castPickRay(s, f, float(x), float(y), rb.state);
    if (!hit) {
        j["instance"] = nullptr;
        j["what"] = "nothing: no instance's triangles under this pixel (sky)";
        return j.dump();
    }
    auto params = engine::ui::frameCullParams(f, rb.pyramid, uint32_t(s.instances.size()));
    if (!params) return params.error();
    const gpu::CullParams& p = params.value();
    const uint32_t i = hit->instance;
    const gpu::Instance& inst = s.instances[i];
    const engine::ui::PickVerdict v = engine::ui::pickVerdict(p, engine::ui::cullScene(s), i, &rb.pyramid);
    const uint32_t gpuState = rb.state[i];
    j["instance"] = i;
    j["mesh"] = inst.mesh;
    if (inst.mesh < s.meshNames.size()) j["mesh_name"] = s.meshNames[inst.mesh];
    j["primitives"] = s.meshes[inst.mesh].primitiveCount;
    j["hit_distance"] = hit->distance;
    const gpu::vec4& sphere = s.bounds[i].sphere;
    j["sphere"] = {sphere.x, sphere.y, sphere.z, sphere.w};
    j["tests"] = testsJson(v, p, f.drawDistance);
    j["cpu_decision"] = v.decision == gpu::SIEVE_STATE_DRAWN_LATE ? "drawn" : engine::ui::stateName(v.decision);
    j["gpu_state"] = engine::ui::stateName(gpuState & gpu::SIEVE_STATE_KIND_MASK);
    j["gpu_lod"] = engine::ui::stateLod(gpuState);
    j["agree"] = engine::ui::verdictAgrees(v, gpuState);
    j["final_depth"] = finalDepthJson(f, rb, p, sphere, gpuState);
    return j.dump();
}

}  // namespace viewer

namespace viewer {

namespace {

std::string testLine(const Json& t) {
    const std::string name = t["test"];
    char line[200];
    if (name == "lod") {
        std::snprintf(line, sizeof(line), "LOD: %s",
                      t["on"].get<bool>() ? ("level " + t["lod"].dump()).c_str() : "off");
    } else if (name == "frustum") {
        const std::string plane = t["outside_plane"];
        std::snprintf(line, sizeof(line), "frustum: %s%s", t["verdict"].get<std::string>().c_str(),
                      plane == "none" ? "" : (", outside the " + plane + " plane").c_str());
    } else if (name == "distance") {
        if (t["on"].get<bool>())
            std::snprintf(line, sizeof(line), "draw distance: %s (%.1f of %.1f)",
                          t["verdict"].get<std::string>().c_str(), t["distance"].get<double>(),
                          t["draw_distance"].get<double>());
        else
            std::snprintf(line, sizeof(line), "draw distance: not tested (none set, or the test is off)");
    } else if (t.contains("mip")) {
        std::snprintf(line, sizeof(line), "occlusion: %s (mip %s texels %s: farthest %.5f, sphere nearest %.5f)",
                      t["verdict"].get<std::string>().c_str(), t["mip"].dump().c_str(), t["texels"].dump().c_str(),
                      t["farthest_depth"].get<double>(), t["sphere_nearest_depth"].get<double>());
    } else {
        std::snprintf(line, sizeof(line), "occlusion: %s", t["verdict"].get<std::string>().c_str());
    }
    return line;
}

}  // namespace

engine::ui::PickPanel pickText(const std::string& json) {
    const Json j = Json::parse(json);
    engine::ui::PickPanel out;
    const std::string pixel = "pixel " + j["pixel"][0].dump() + "," + j["pixel"][1].dump();
    if (j["instance"].is_null()) {
        out.title = pixel + ": no instance (sky)";
        return out;
    }
    out.instance = j["instance"].get<uint32_t>();
    out.title = pixel + ": instance " + j["instance"].dump() + " (" + j.value("mesh_name", std::string("mesh")) + ")";
    out.lines.push_back("culling camera: " + j["culling_camera"].get<std::string>());
    for (const Json& t : j["tests"]) out.lines.push_back(testLine(t));
    const std::string gpu = j["gpu_state"];
    const bool drawn = gpu.rfind("drawn", 0) == 0;  // the LOD of the state is the drawn one's only
    out.lines.push_back("CPU reference: " + j["cpu_decision"].get<std::string>() + ", GPU: " + gpu +
                        (drawn ? " (LOD " + j["gpu_lod"].dump() + ")" : ""));
    const Json& depth = j["final_depth"];
    out.lines.push_back("final depth (check culling): " + depth["verdict"].get<std::string>());
    if (depth.value("falsely_culled", false)) out.red.push_back(out.lines.size() - 1);
    out.mismatch = !j["agree"].get<bool>();
    if (out.mismatch) {
        out.lines.push_back("MISMATCH: the CPU reference and the GPU disagree (a bug)");
        out.red.push_back(out.lines.size() - 1);
    }
    return out;
}

}  // namespace viewer
