#pragma once
// The viewer's shader hot reload (R key, the overlay's button, --test-reload-shader): recompiles the
// shader sources with libshaderc and rebuilds every pipeline the viewer draws with (the scene renderer's
// plugin, geometry and Hi-Z view passes, and the overlay's), after the GPU has finished the frames in
// flight. A failure of any step leaves every pipeline as it was and is reported, never fatal.
#include <filesystem>
#include <map>
#include <string>

#include "engine/scene/scene_renderer.h"
#include "engine/shader_reload/shader_reloader.h"
#include "engine/target/target.h"
#include "engine/ui/imgui_layer.h"

namespace viewer {

// The shader source tree this build was compiled from (its shaders/ folder).
std::filesystem::path defaultShaderDir();

struct ReloadOutcome {
    bool ok = false;
    std::string message;  // one line on success; the compiler's messages on failure
};

class ShaderHotReload {
public:
    explicit ShaderHotReload(std::filesystem::path root) : reloader_(std::move(root)) {}
    // Between frames (after endFrame). `substitutes`: shader name -> source text used instead of its file.
    ReloadOutcome run(engine::Target& target, engine::SceneRenderer& renderer, engine::ui::ImGuiLayer* ui,
                      const std::map<std::string, std::string>& substitutes = {});
    const std::filesystem::path& root() const { return reloader_.compiler().root(); }

private:
    engine::ShaderReloader reloader_;
};

}  // namespace viewer
