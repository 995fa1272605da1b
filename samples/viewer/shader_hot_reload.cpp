#include "shader_hot_reload.h"

#include <cstdio>
#include <optional>

#ifndef SIEVE_SHADER_SOURCE_DIR
#error "SIEVE_SHADER_SOURCE_DIR (the source tree's shaders/ folder) is set by samples/viewer/CMakeLists.txt"
#endif

namespace viewer {

std::filesystem::path defaultShaderDir() {
    return SIEVE_SHADER_SOURCE_DIR;
}

ReloadOutcome ShaderHotReload::run(engine::Target& target, engine::SceneRenderer& renderer, engine::ui::ImGuiLayer* ui,
                                   const std::map<std::string, std::string>& substitutes) {
    auto rebuild = [&]() -> sieve::Result<void> {
        // Pipelines of frames still in flight must not be destroyed under them.
        if (auto r = target.finish(); !r) return r;
        std::optional<sieve::GraphicsPipeline> overlay;
        if (ui) {
            auto p = ui->renderer().createPipeline();
            if (!p) return p.error();
            overlay.emplace(std::move(p).value());
        }
        if (auto r = renderer.reloadPipelines(); !r) return r;  // all or nothing
        if (overlay) ui->renderer().replacePipeline(std::move(*overlay));
        return {};
    };
    ReloadOutcome out;
    auto r = reloader_.reload(rebuild, substitutes);
    if (!r) {
        out.message = "shader reload failed, previous pipelines kept:\n" + r.error().message;
        return out;
    }
    char line[160];
    std::snprintf(line, sizeof(line),
                  "shaders reloaded: %zu compiled (%zu unchanged) in %.0f ms, pipelines rebuilt in %.0f ms",
                  r->compiled, r->total - r->compiled, r->compileMs, r->rebuildMs);
    out.ok = true;
    out.message = line;
    return out;
}

}  // namespace viewer
