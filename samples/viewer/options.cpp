#include "options.h"

#include <cmath>

#include "sieve/cull_tests.h"

namespace viewer {

namespace {

constexpr const char* kDescription =
    "GPU-driven culling viewer. Opens a window when a display is present (DISPLAY or WAYLAND_DISPLAY),\n"
    "otherwise renders headless. Window keys: WASD move, Q/E down/up, shift faster, drag with the left\n"
    "mouse button to look around (any of these takes the camera from a camera path); a right click picks\n"
    "(why was this instance culled?); F freezes the culling, V cycles the debug views (off, culling, lod,\n"
    "clusters), H shows the Hi-Z view, O or F1 hides the overlay, Space pauses (no frames) and N then\n"
    "renders one frame, L switches the shadows, K the clusters; R reloads the shaders, P takes a screenshot,\n"
    "C captures a frame with RenderDoc (loaded with --capture-file), Escape quits (exit code 0).\n"
    "Exit codes: 0 success, 1 runtime failure, 2 bad command line.";

bool parseCamera(const std::string& v, ViewerOptions& o) {
    const std::vector<std::string> p = cli::split(v, ',');
    float f[5];
    if (p.size() != 5) return false;
    for (int i = 0; i < 5; ++i)
        if (!cli::parseFloat(p[i], f[i])) return false;
    if (f[4] < -90.0f || f[4] > 90.0f) return false;
    o.camera = CameraPose{f[0], f[1], f[2], f[3], f[4]};
    return true;
}

bool parseTestActions(const std::string& v, ViewerOptions& o) {
    o.testActions.clear();
    for (const std::string& item : cli::split(v, ',')) {
        const std::vector<std::string> p = cli::split(item, '@');
        long long n;
        if (p.size() != 2 || !cli::parseInt(p[1], 0, 100000000, n)) return false;
        if (p[0] != "screenshot" && p[0] != "capture" && p[0] != "reload" && p[0] != "fail") return false;
        o.testActions.push_back({p[0], int(n)});
    }
    return !o.testActions.empty();
}

bool parseResizeSequence(const std::string& v, ViewerOptions& o) {
    o.testResizeSequence.clear();
    for (const std::string& step : cli::split(v, ',')) {
        cli::Extent e;
        if (step == "min")
            o.testResizeSequence.push_back({-1, -1});
        else if (cli::parseExtent(step, 16384, e))
            o.testResizeSequence.push_back({int(e.width), int(e.height)});
        else
            return false;
    }
    return !o.testResizeSequence.empty();
}

// The window or headless frames and what the run writes.
void addOutputOptions(cli::Parser& p, ViewerOptions& o) {
    p.flag("--headless", "render offscreen even when a display is present", o.headless)
        .count("--width", "W", "framebuffer width in pixels (1..16384, default 1280)", o.width, 1, 16384)
        .count("--height", "H", "framebuffer height in pixels (1..16384, default 720)", o.height, 1, 16384)
        .count("--frames", "N",
               "render N frames then exit (headless default: frames in flight + 3 = 5, so that the counts reported are "
               "of a frame culled by occlusion; window default: until closed)",
               o.frames, 1, 100000000)
        .onOff("--overlay", "draw the ImGui overlay (default on)", o.overlay)
        .option("--screenshot", "F.png", "write the last frame to a PNG",
                [&o](const std::string& v) { return cli::endsWith(v, ".png") && (o.screenshot = v, true); })
        .text("--stats", "F.json", "write counts and per-pass GPU times of the run as JSON", o.stats)
        .text("--headless-outputs", "DIR",
              "when the run is headless (asked for, or no window could be opened), write DIR/sieve-screenshot.png "
              "and DIR/sieve-stats.json unless --screenshot / --stats name files (scripts/sieve.sh run passes the "
              "working directory)",
              o.headlessOutputs);
}

// The start camera and camera paths.
void addCameraOptions(cli::Parser& p, ViewerOptions& o) {
    p.option("--camera", "x,y,z,yaw_deg,pitch_deg", "start camera pose (yaw 0 looks down -Z, pitch > 0 looks up)",
             [&o](const std::string& v) { return parseCamera(v, o); })
        .optionalValue(
            "--camera-from-file", "N", "look through camera N (default 0) of the glTF file, at its node",
            [&o](const std::string& v) {
                long long n = 0;
                if (!v.empty() && !cli::parseInt(v, 0, 1 << 30, n)) return false;
                o.cameraFromFile = int(n);
                return true;
            },
            "a camera index")
        .text("--camera-path", "NAME",
              "fly a camera path once: orbit (any scene: one turn around its bounds), or the city's street, flyover, "
              "descend (headless: over the run's frames; a window: --camera-path-seconds, then the camera is yours)",
              o.cameraPath)
        .flag("--camera-path-loop", "in a window, fly the camera path again and again (default: once)",
              o.cameraPathLoop)
        .option("--camera-path-seconds", "S", "in a window, the seconds one pass of the camera path takes (default 30)",
                [&o](const std::string& v) {
                    return cli::parseFloat(v, o.cameraPathSeconds) && o.cameraPathSeconds > 0.0f &&
                           o.cameraPathSeconds <= 1e6f;
                });
}

// The culling toggles (one switch per test of sieve/cull_tests.h) and their settings.
void addCullingOptions(cli::Parser& p, ViewerOptions& o) {
    p.option("--draw-distance", "D",
             "cull instances whose bounds lie wholly farther than D from the camera (default 0: no limit)",
             [&o](const std::string& v) { return cli::parseFloat(v, o.drawDistance) && o.drawDistance >= 0.0f; });
    sieve::CullingToggles& t = o.culling;
    // One switch per culling test (sieve/cull_tests.h).
    for (const sieve::CullTest& test : sieve::kCullTests)
        p.onOff(("--" + std::string(test.name)).c_str(),
                "cull instances " + std::string(test.culledBy) + " (default on)", t.*test.toggle);
    p.onOff("--two-phase", "two-phase occlusion (early + late draw; default on)", t.twoPhase)
        .onOff("--lod", "level-of-detail selection (default on)", t.lod)
        .option(
            "--lod-bias", "F", "LOD bias (-8..8, default 0, rounded to levels; > 0 picks coarser levels)",
            [&t](const std::string& v) {
                float f = 0;
                if (!cli::parseFloat(v, f) || f < float(engine::ui::kLodBiasMin) || f > float(engine::ui::kLodBiasMax))
                    return false;
                t.lodBias = int(std::lround(f));
                return true;
            })
        .option("--compaction", "stable|atomic", "draw-list compaction: stable (instance order) or atomic append",
                [&o](const std::string& v) {
                    if (v != "stable" && v != "atomic") return false;
                    o.stableCompaction = v == "stable";
                    return true;
                })
        .onOff("--freeze",
               "freeze culling at the start camera, once two frames culled there have built its Hi-Z pyramid "
               "(default off)",
               t.freeze)
        .onOff("--check-culling", "false-culling check against the final depth (default off)", t.checkCulling);
}

// The scene and its clusters.
void addSceneOptions(cli::Parser& p, ViewerOptions& o) {
    p.count("--instances", "N", "number of instances in the procedural scene (default 10000)", o.instances, 0,
            1ull << 30)
        .count("--seed", "S", "seed of the procedural scene (default 1)", o.seed, 0, 1ull << 62)
        .option("--scene", "FILE.gltf|.glb|dense",
                "load a glTF scene instead of the procedural city, or 'dense': the dense procedural scene of "
                "high-polygon meshes (--instances of them)",
                [&o](const std::string& v) {
                    return (v == "dense" || cli::endsWith(v, ".gltf") || cli::endsWith(v, ".glb")) &&
                           (o.scene = v, true);
                })
        .onOff("--clusters",
               "cluster (meshlet) culling below the instances: frustum, back-facing cone, occlusion "
               "(default off)",
               o.clusters)
        .onOff("--cone",
               "back-facing cone test of the clusters (default on; frustum and occlusion follow "
               "--frustum and --occlusion)",
               o.clusterCone)
        .option("--cluster-path", "mesh|indirect|auto",
                "how cluster lists are drawn: mesh shaders, indexed indirect draws, or mesh where the device has "
                "VK_EXT_mesh_shader (default auto)",
                [&o](const std::string& v) {
                    return (v == "mesh" || v == "indirect" || v == "auto") && (o.clusterPath = v, true);
                })
        .onOff("--cluster-triangle-cull",
               "mesh path: cull back-facing, degenerate and sample-less triangles in the mesh shaders, the "
               "picture unchanged (default off)",
               o.clusterTriangleCull)
        .option("--grid", "AxB", "replicate the glTF scene on a grid, A columns by B rows", [&o](const std::string& v) {
            cli::Extent e;
            if (!cli::parseExtent(v, 1 << 20, e)) return false;
            o.gridX = e.width;
            o.gridY = e.height;
            return true;
        });
}

// RenderDoc, validation, memory reports and shader hot reload.
void addToolOptions(cli::Parser& p, ViewerOptions& o) {
    p.count("--capture-frame", "N", "capture frame N (0-based) with RenderDoc", o.captureFrame, 0, 100000000)
        .text("--capture-file", "PATH",
              "RenderDoc capture path template (the capture is written to PATH_capture.rdc; the viewer prints the name "
              "RenderDoc used)",
              o.captureFile)
        .flag("--validation", "enable the Vulkan validation layers (messages go to stderr)", o.validation)
        .count("--report-memory", "N",
               "print the resident set and the device memory held every N frames and after the last (0: off)",
               o.reportMemory, 0, 100000000)
        .text("--shader-dir", "DIR",
              "GLSL sources for shader hot reload (R key, overlay button; default: the source tree's shaders/)",
              o.shaderDir);
}

// The debug views and picking.
void addInspectOptions(cli::Parser& p, ViewerOptions& o) {
    p.option("--hiz-view", "off|min|max", "open the overlay's Hi-Z view on the min or max pyramid (default off)",
             [&o](const std::string& v) {
                 if (v != "off" && v != "min" && v != "max") return false;
                 o.hizView = v != "off";
                 o.hizMax = v == "max";
                 return true;
             })
        .option("--debug-view", "off|culling|lod|clusters",
                "colour the scene: culling = tint by the phase that drew each object (early green, late blue) and "
                "outline what was culled (frustum red, draw distance cyan, occlusion magenta, frozen frustum yellow); "
                "lod = by LOD; "
                "clusters = a colour per draw record (per cluster with --clusters on)",
                [&o](const std::string& v) {
                    if (v != "off" && v != "culling" && v != "lod" && v != "clusters") return false;
                    o.debugView = v == "culling"    ? engine::ui::DebugView::Culling
                                  : v == "lod"      ? engine::ui::DebugView::Lod
                                  : v == "clusters" ? engine::ui::DebugView::Clusters
                                                    : engine::ui::DebugView::Off;
                    return true;
                })
        .count("--hiz-mip", "N", "pyramid mip the Hi-Z view shows (default 0; clamped to the pyramid)", o.hizMip, 0, 31)
        .option("--pick", "x,y",
                "after the last frame, print as JSON (a line 'pick: {...}') the instance under pixel (x, y) and "
                "every culling test's verdict for it from the CPU reference, beside the GPU's decision (repeatable)",
                [&o](const std::string& v) {
                    const std::vector<std::string> p = cli::split(v, ',');
                    long long x = 0, y = 0;
                    if (p.size() != 2 || !cli::parseInt(p[0], 0, 16383, x) || !cli::parseInt(p[1], 0, 16383, y))
                        return false;
                    o.picks.push_back({int(x), int(y)});
                    return true;
                })
        .flag("--test-pick-verify",
              "(testing) after the last frame, compare the CPU reference's decision with the GPU's for every "
              "instance (exit code 1 on a mismatch)",
              o.testPickVerify)
        .option("--test-radius-shrink", "F",
                "(testing) the occlusion test shrinks every bounding radius by the fraction F (0..0.9): false culls "
                "planted for the false-culling check and the pick to find",
                [&o](const std::string& v) {
                    return cli::parseFloat(v, o.testRadiusShrink) && o.testRadiusShrink >= 0.0f &&
                           o.testRadiusShrink <= 0.9f;
                });
}

// Cascaded shadows.
void addShadowOptions(cli::Parser& p, ViewerOptions& o) {
    p.onOff("--shadows", "cascaded shadow maps, each cascade a culling view (default off)", o.shadows)
        .count("--cascades", "N", "shadow cascades (1..4, default 3)", o.cascades, 1, 4);
}

// Test hooks: shader reloads, overlay buttons and window resizes.
void addTestOptions(cli::Parser& p, ViewerOptions& o) {
    p.option("--test-reload-shader", "NAME=FILE",
             "(testing) repeatable; the k-th reloads the shaders after frame 2k+2, with the source of shader "
             "NAME (e.g. geometry/mesh.frag) read from FILE",
             [&o](const std::string& v) {
                 const auto eq = v.find('=');
                 if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) return false;
                 o.testReloadShaders.push_back({v.substr(0, eq), v.substr(eq + 1)});
                 return true;
             })
        .option("--test-actions", "NAME@N,...",
                "(testing) press overlay buttons in frame N: screenshot, capture (RenderDoc), reload (shaders); "
                "fail: the frame's recording fails (the viewer drops it and goes on)",
                [&o](const std::string& v) { return parseTestActions(v, o); })
        .option("--test-resize-sequence", "WxH,WxH,...",
                "(testing) window mode: resize through these sizes, one every 3 frames; 'min' iconifies and the "
                "next step restores (e.g. 640x480,1x1,min,800x600)",
                [&o](const std::string& v) { return parseResizeSequence(v, o); });
}

}  // namespace

cli::Parser optionParser(ViewerOptions& o) {
    cli::Parser p("sieve-viewer", kDescription);
    addOutputOptions(p, o);
    addCameraOptions(p, o);
    addCullingOptions(p, o);
    addSceneOptions(p, o);
    addToolOptions(p, o);
    addInspectOptions(p, o);
    addShadowOptions(p, o);
    addTestOptions(p, o);
    return p;
}

}  // namespace viewer
