#pragma once
// RenderDoc's in-app API. RenderDoc captures Vulkan through its layer, which the loader only enables for
// instances created AFTER librenderdoc.so is loaded: create this object first thing in main(), before the
// engine::Context. If the program already runs under RenderDoc (renderdoccmd capture, qrenderdoc launch),
// the injected library is used; otherwise an installed librenderdoc.so is loaded. Without RenderDoc every
// call is a no-op and message() says why; the program carries on.
#include <volk.h>

#include <cstdint>
#include <memory>
#include <string>

struct RENDERDOC_API_1_6_0;

namespace engine {

class RenderDoc {
public:
    enum class Load {
        IfInjected,      // only use a RenderDoc that is already in the process
        InjectedOrLoad,  // else dlopen an installed librenderdoc.so
    };
    static std::unique_ptr<RenderDoc> create(Load mode = Load::InjectedOrLoad);

    bool available() const { return api_ != nullptr; }
    bool injected() const { return injected_; }              // true: RenderDoc was in the process before us
    const std::string& message() const { return message_; }  // how it was found, or why not

    // RenderDoc picks the file name from the template: RenderDoc 1.24 writes a startCapture/endCapture
    // capture as "<template>_capture.rdc"; capturePath() returns the name it used.
    void setCaptureFilePathTemplate(const std::string& pathTemplate);
    // Brackets a frame's command submission. The instance selects the Vulkan device to capture.
    void startCapture(VkInstance instance);
    bool endCapture(VkInstance instance);  // true: a capture was written
    bool isCapturing() const;
    // Captures the next presented frame (window targets only: headless frames are never presented).
    void triggerCapture();
    uint32_t captureCount() const;
    std::string capturePath(uint32_t index) const;  // empty if there is no such capture

    // Never unloads the library: RenderDoc does not support being unloaded.
    ~RenderDoc() = default;

private:
    RenderDoc() = default;
    RENDERDOC_API_1_6_0* api_ = nullptr;
    bool injected_ = false;
    std::string message_;
};

}  // namespace engine
