#pragma once
// Command-line options of sieve-viewer: a plain struct and the shared parser (samples/common/cli.h) bound
// to it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "engine/ui/frame_stats.h"
#include "sieve/culling.h"

namespace viewer {

struct CameraPose {
    float x = 0, y = 0, z = 0;
    float yawDeg = 0, pitchDeg = 0;
};

struct WindowSize {
    int width = 0, height = 0;
};

struct ViewerOptions {
    bool headless = false;  // force headless; otherwise a window when a display is present
    int width = 1280;
    int height = 720;
    int frames = 0;  // 0: run until the window closes (headless: run_report.h defaultHeadlessFrames)
    bool overlay = true;
    std::string screenshot;       // PNG written after the last frame
    std::string stats;            // JSON written after the last frame
    std::string headlessOutputs;  // a headless run writes sieve-screenshot.png / sieve-stats.json here
    std::optional<CameraPose> camera;
    int cameraFromFile = -1;          // glTF camera index to look through; -1: none
    std::string cameraPath;           // named camera path (camera_setup.h)
    bool cameraPathLoop = false;      // window: the path starts again at its end (default: it plays once)
    float cameraPathSeconds = 30.0f;  // window: one pass of the path
    sieve::CullingToggles
        culling;                // --<test> (sieve::kCullTests), --two-phase, --lod, --lod-bias, --compaction, --freeze
    float drawDistance = 0.0f;  // --draw-distance: the camera view's (0: no limit)
    bool stableCompaction = true;  // --compaction (sieve::CullingTuning::stable)
    uint32_t instances = 10000;
    uint64_t seed = 1;
    std::string scene;                 // .gltf/.glb, or "dense" (the dense procedural scene); empty: the city
    bool clusters = false;             // cluster culling (meshlets) below the instances
    bool clusterCone = true;           // ... with the back-facing cone test
    std::string clusterPath = "auto";  // mesh | indirect | auto (mesh where VK_EXT_mesh_shader exists)
    bool clusterTriangleCull = false;  // mesh path: per-triangle culling in the mesh shaders
    uint32_t gridX = 0, gridY = 0;     // --grid AxB; 0: scene default
    int captureFrame = -1;             // RenderDoc capture of this frame index; -1: none
    std::string captureFile;           // RenderDoc capture path template
    bool validation = false;
    int reportMemory = 0;   // print host and device memory every N frames and at the end (0: never)
    std::string shaderDir;  // shader sources for hot reload; empty: the source tree's shaders/
    bool hizView = false;   // open the overlay's Hi-Z view
    bool hizMax = false;    // ... on the max pyramid (else min)
    int hizMip = 0;
    engine::ui::DebugView debugView = engine::ui::DebugView::Off;  // --debug-view
    std::vector<std::pair<int, int>> picks;  // --pick x,y (repeatable): explain the pixels' instances at the end
    bool testPickVerify = false;             // (testing) CPU decision == GPU decision for every instance
    float testRadiusShrink = 0.0f;           // (testing) sieve::CullingTuning::debugRadiusShrink: planted false culls
    bool shadows = false;                    // cascaded shadow maps of the directional light
    uint32_t cascades = 0;                   // 1..4; 0: the default (3) when shadows are on
    uint32_t shadowCascades() const { return shadows ? (cascades ? cascades : 3) : 0; }
    // Hidden test hook: the k-th entry (0-based) reloads the shaders after frame 2k+2 with the source of
    // shader `name` read from `file`.
    struct ShaderSubstitute {
        std::string name, file;
    };
    std::vector<ShaderSubstitute> testReloadShaders;
    // Hidden test hook: overlay buttons "clicked" in a given frame (what the buttons and keys trigger).
    struct TestAction {
        std::string name;  // screenshot | capture | reload | fail (the frame's recording fails)
        int frame = 0;
    };
    std::vector<TestAction> testActions;
    // Hidden test hook: resize the window through these sizes (iconify/restore where width == -1),
    // one step every few frames.
    std::vector<WindowSize> testResizeSequence;
};

// The parser of sieve-viewer's options, writing into `o` (which must outlive it). Bad command lines are
// meant to exit with code 2.
cli::Parser optionParser(ViewerOptions& o);

}  // namespace viewer
