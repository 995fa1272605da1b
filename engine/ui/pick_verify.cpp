#include "engine/ui/pick_verify.h"

namespace engine::ui {

namespace gpu = sieve::gpu;

namespace {

constexpr size_t kListed = 5;

}  // namespace

sieve::Result<FrameVerdicts> verifyFrame(const sieve::assets::SceneData& s, const CullingFrame& f,
                                         const PickReadbackPass::Frame& rb) {
    FrameVerdicts out;
    out.frameIndex = rb.frameIndex;
    out.instances = uint32_t(s.instances.size());
    auto params = frameCullParams(f, rb.pyramid, out.instances);
    if (!params) return params.error();
    const sieve::CullScene scene = cullScene(s);
    for (uint32_t i = 0; i < out.instances && i < rb.state.size(); ++i) {
        const PickVerdict v = pickVerdict(*params, scene, i, &rb.pyramid);
        ++out.compared;
        ++out.decisions[v.decision & gpu::SIEVE_STATE_KIND_MASK];
        if (verdictAgrees(v, rb.state[i])) continue;
        if (++out.mismatches <= kListed) out.first.push_back({v, rb.state[i]});
    }
    return out;
}

std::string verdictSummary(const FrameVerdicts& v) {
    using namespace gpu;
    const auto n = [&](uint32_t kind) { return std::to_string(v.decisions[kind]); };
    std::string line = "pick verify: frame " + std::to_string(v.frameIndex) + ", " + std::to_string(v.instances) +
                       " instances (cpu: " + n(SIEVE_STATE_DRAWN_LATE) + " drawn, " + n(SIEVE_STATE_FRUSTUM_CULLED) +
                       " frustum, " + n(SIEVE_STATE_DISTANCE_CULLED) + " distance, " + n(SIEVE_STATE_OCCLUSION_CULLED) +
                       " occlusion culled), " + std::to_string(v.mismatches) + " mismatches";
    if (v.compared != v.instances)
        line += "\n  only " + std::to_string(v.compared) + " instances' states were read back";
    for (const FrameVerdicts::Mismatch& m : v.first)
        line += "\n  instance " + std::to_string(m.cpu.instance) + ": cpu " + stateName(m.cpu.decision) + " lod " +
                std::to_string(m.cpu.lod) + ", gpu " + stateName(m.gpuState & SIEVE_STATE_KIND_MASK) + " lod " +
                std::to_string(stateLod(m.gpuState));
    return line;
}

}  // namespace engine::ui
