#include "options.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>

namespace viewer {

namespace {

bool parseInt(const std::string& s, long long lo, long long hi, long long& out) {
    if (s.empty()) return false;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end && out >= lo && out <= hi;
}

bool parseFloat(const std::string& s, float& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    out = std::strtof(s.c_str(), &end);
    return errno == 0 && end == s.c_str() + s.size() && std::isfinite(out);
}

bool parseOnOff(const std::string& s, bool& out) {
    if (s == "on") return out = true, true;
    if (s == "off") return out = false, true;
    return false;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep)) parts.push_back(part);
    if (!s.empty() && s.back() == sep) parts.push_back("");
    return parts;
}

bool endsWith(const std::string& s, const char* suffix) {
    const std::string suf(suffix);
    return s.size() > suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

struct Flag {
    const char* name;
    const char* value;  // nullptr: takes no value
    const char* help;
    std::function<bool(const std::string&, ViewerOptions&)> apply;  // false: bad value
};

const std::vector<Flag>& flags() {
    static const std::vector<Flag> kFlags = {
        {"--help", nullptr, "print this help and exit", [](auto&, ViewerOptions& o) { return o.help = true; }},
        {"--headless", nullptr, "render offscreen even when a display is present",
         [](auto&, ViewerOptions& o) { return o.headless = true; }},
        {"--width", "W", "framebuffer width in pixels (1..16384, default 1280)",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 1, 16384, n) && (o.width = int(n), true);
         }},
        {"--height", "H", "framebuffer height in pixels (1..16384, default 720)",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 1, 16384, n) && (o.height = int(n), true);
         }},
        {"--frames", "N", "render N frames then exit (headless default 3; window default: until closed)",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 1, 100000000, n) && (o.frames = int(n), true);
         }},
        {"--overlay", "on|off", "draw the ImGui overlay (default on)",
         [](const std::string& v, ViewerOptions& o) { return parseOnOff(v, o.overlay); }},
        {"--screenshot", "F.png", "write the last frame to a PNG",
         [](const std::string& v, ViewerOptions& o) { return endsWith(v, ".png") && (o.screenshot = v, true); }},
        {"--stats", "F.json", "write counts and per-pass GPU times of the run as JSON",
         [](const std::string& v, ViewerOptions& o) { return !v.empty() && (o.stats = v, true); }},
        {"--camera", "x,y,z,yaw_deg,pitch_deg", "start camera pose (yaw 0 looks down -Z, pitch > 0 looks up)",
         [](const std::string& v, ViewerOptions& o) {
             auto p = split(v, ',');
             float f[5];
             if (p.size() != 5) return false;
             for (int i = 0; i < 5; ++i)
                 if (!parseFloat(p[i], f[i])) return false;
             if (f[4] < -90.0f || f[4] > 90.0f) return false;
             o.camera = CameraPose{f[0], f[1], f[2], f[3], f[4]};
             return true;
         }},
        {"--camera-path", "NAME", "fly a named camera path of the scene",
         [](const std::string& v, ViewerOptions& o) { return !v.empty() && (o.cameraPath = v, true); }},
        {"--frustum", "on|off", "frustum culling (default on)",
         [](const std::string& v, ViewerOptions& o) { return parseOnOff(v, o.frustum); }},
        {"--occlusion", "on|off", "Hi-Z occlusion culling (default on)",
         [](const std::string& v, ViewerOptions& o) { return parseOnOff(v, o.occlusion); }},
        {"--two-phase", "on|off", "two-phase occlusion (early + late draw; default on)",
         [](const std::string& v, ViewerOptions& o) { return parseOnOff(v, o.twoPhase); }},
        {"--lod", "on|off", "level-of-detail selection (default on)",
         [](const std::string& v, ViewerOptions& o) { return parseOnOff(v, o.lod); }},
        {"--lod-bias", "F", "LOD bias (-8..8, default 0; > 0 picks coarser levels)",
         [](const std::string& v, ViewerOptions& o) {
             return parseFloat(v, o.lodBias) && o.lodBias >= -8.0f && o.lodBias <= 8.0f;
         }},
        {"--compaction", "stable|atomic", "draw-list compaction: stable (instance order) or atomic append",
         [](const std::string& v, ViewerOptions& o) {
             if (v != "stable" && v != "atomic") return false;
             o.stableCompaction = v == "stable";
             return true;
         }},
        {"--freeze", "on|off", "freeze culling at the start camera (default off)",
         [](const std::string& v, ViewerOptions& o) { return parseOnOff(v, o.freeze); }},
        {"--instances", "N", "number of instances in the procedural scene (default 10000)",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 0, 1ll << 30, n) && (o.instances = uint32_t(n), true);
         }},
        {"--seed", "S", "seed of the procedural scene (default 1)",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 0, (1ll << 62), n) && (o.seed = uint64_t(n), true);
         }},
        {"--scene", "FILE.gltf|.glb", "load a glTF scene instead of the procedural one",
         [](const std::string& v, ViewerOptions& o) {
             return (endsWith(v, ".gltf") || endsWith(v, ".glb")) && (o.scene = v, true);
         }},
        {"--grid", "AxB", "replicate the glTF scene on a grid, A columns by B rows",
         [](const std::string& v, ViewerOptions& o) {
             auto p = split(v, 'x');
             long long a, b;
             if (p.size() != 2 || !parseInt(p[0], 1, 1 << 20, a) || !parseInt(p[1], 1, 1 << 20, b)) return false;
             o.gridX = uint32_t(a);
             o.gridY = uint32_t(b);
             return true;
         }},
        {"--capture-frame", "N", "capture frame N (0-based) with RenderDoc",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 0, 100000000, n) && (o.captureFrame = int(n), true);
         }},
        {"--capture-file", "PATH", "RenderDoc capture path template (RenderDoc appends _frameN.rdc)",
         [](const std::string& v, ViewerOptions& o) { return !v.empty() && (o.captureFile = v, true); }},
        {"--validation", nullptr, "enable the Vulkan validation layers (messages go to stderr)",
         [](auto&, ViewerOptions& o) { return o.validation = true; }},
        {"--report-memory", "N",
         "print the resident set and the device memory held every N frames and after the last (0: off)",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 0, 100000000, n) && (o.reportMemory = int(n), true);
         }},
        {"--shader-dir", "DIR",
         "GLSL sources for shader hot reload (R key, overlay button; default: the source tree's shaders/)",
         [](const std::string& v, ViewerOptions& o) { return !v.empty() && (o.shaderDir = v, true); }},
        {"--hiz-view", "off|min|max", "open the overlay's Hi-Z view on the min or max pyramid (default off)",
         [](const std::string& v, ViewerOptions& o) {
             if (v != "off" && v != "min" && v != "max") return false;
             o.hizView = v != "off";
             o.hizMax = v == "max";
             return true;
         }},
        {"--hiz-mip", "N", "pyramid mip the Hi-Z view shows (default 0; clamped to the pyramid)",
         [](const std::string& v, ViewerOptions& o) {
             long long n;
             return parseInt(v, 0, 31, n) && (o.hizMip = int(n), true);
         }},
        {"--test-reload-shader", "NAME=FILE",
         "(testing) repeatable; the k-th reloads the shaders after frame 2k+2, with the source of shader NAME "
         "(e.g. geometry/mesh.frag) read from FILE",
         [](const std::string& v, ViewerOptions& o) {
             const auto eq = v.find('=');
             if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) return false;
             o.testReloadShaders.push_back({v.substr(0, eq), v.substr(eq + 1)});
             return true;
         }},
        {"--test-actions", "NAME@N,...",
         "(testing) press overlay buttons in frame N: screenshot, capture (RenderDoc), reload (shaders)",
         [](const std::string& v, ViewerOptions& o) {
             o.testActions.clear();
             for (const std::string& item : split(v, ',')) {
                 auto p = split(item, '@');
                 long long n;
                 if (p.size() != 2 || !parseInt(p[1], 0, 100000000, n)) return false;
                 if (p[0] != "screenshot" && p[0] != "capture" && p[0] != "reload") return false;
                 o.testActions.push_back({p[0], int(n)});
             }
             return !o.testActions.empty();
         }},
        {"--test-resize-sequence", "WxH,WxH,...",
         "(testing) window mode: resize through these sizes, one every 3 frames; 'min' iconifies and the next "
         "step restores (e.g. 640x480,1x1,min,800x600)",
         [](const std::string& v, ViewerOptions& o) {
             o.testResizeSequence.clear();
             for (const std::string& step : split(v, ',')) {
                 if (step == "min") {
                     o.testResizeSequence.push_back({-1, -1});
                     continue;
                 }
                 auto p = split(step, 'x');
                 long long w, h;
                 if (p.size() != 2 || !parseInt(p[0], 1, 16384, w) || !parseInt(p[1], 1, 16384, h)) return false;
                 o.testResizeSequence.push_back({int(w), int(h)});
             }
             return !o.testResizeSequence.empty();
         }},
    };
    return kFlags;
}

}  // namespace

ParseResult parseOptions(const std::vector<std::string>& args) {
    ParseResult result;
    ViewerOptions& o = result.options;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string name = args[i], value;
        bool inlineValue = false;
        if (auto eq = name.find('='); name.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inlineValue = true;
        }
        const Flag* flag = nullptr;
        for (const Flag& f : flags())
            if (name == f.name) flag = &f;
        if (!flag) {
            result.error = "unknown option '" + args[i] + "'";
            return result;
        }
        if (flag->value) {
            if (!inlineValue) {
                if (i + 1 >= args.size()) {
                    result.error = std::string(flag->name) + " needs a value (" + flag->value + ")";
                    return result;
                }
                value = args[++i];
            }
        } else if (inlineValue) {
            result.error = std::string(flag->name) + " takes no value";
            return result;
        }
        if (!flag->apply(value, o)) {
            result.error = "bad value '" + value + "' for " + flag->name + " (expected " + flag->value + ")";
            return result;
        }
    }
    return result;
}

ParseResult parseOptions(int argc, const char* const* argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
    return parseOptions(args);
}

std::string usage(const char* program) {
    std::ostringstream out;
    out << "usage: " << program << " [options]\n"
        << "GPU-driven culling viewer. Opens a window when a display is present (DISPLAY or WAYLAND_DISPLAY),\n"
        << "otherwise renders headless. Window keys: WASD move, Q/E down/up, shift faster, drag with the\n"
        << "left mouse button to look around; R reloads the shaders, P takes a screenshot, C captures a frame\n"
        << "with RenderDoc.\n\noptions:\n";
    for (const Flag& f : flags()) {
        std::string head = std::string("  ") + f.name + (f.value ? std::string(" ") + f.value : "");
        if (head.size() < 34)
            head.resize(34, ' ');
        else
            head += "\n" + std::string(34, ' ');
        out << head << f.help << "\n";
    }
    out << "\nExit codes: 0 success, 1 runtime failure, 2 bad command line.\n";
    return out.str();
}

}  // namespace viewer
