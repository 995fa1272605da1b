#include "engine/capture/renderdoc.h"

#include <dlfcn.h>
#include <renderdoc_app.h>

namespace engine {

std::unique_ptr<RenderDoc> RenderDoc::create(Load mode) {
    std::unique_ptr<RenderDoc> rd(new RenderDoc());
    void* lib = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
    rd->injected_ = lib != nullptr;
    if (!lib && mode == Load::InjectedOrLoad) lib = dlopen("librenderdoc.so", RTLD_NOW);
    if (!lib) {
        rd->message_ = mode == Load::IfInjected ? "RenderDoc is not injected into this process"
                                                : "RenderDoc is not installed (librenderdoc.so not found: "
                                                  "apt-get install -y librenderdoc); captures are disabled";
        return rd;
    }
    auto getApi = reinterpret_cast<pRENDERDOC_GetAPI>(dlsym(lib, "RENDERDOC_GetAPI"));
    void* api = nullptr;
    if (!getApi || !getApi(eRENDERDOC_API_Version_1_6_0, &api) || !api) {
        rd->message_ = "librenderdoc.so does not offer the in-app API 1.6.0; captures are disabled";
        return rd;
    }
    rd->api_ = static_cast<RENDERDOC_API_1_6_0*>(api);
    int major = 0, minor = 0, patch = 0;
    rd->api_->GetAPIVersion(&major, &minor, &patch);
    // The in-app overlay would be drawn into our screenshots; we have our own.
    rd->api_->MaskOverlayBits(eRENDERDOC_Overlay_None, eRENDERDOC_Overlay_None);
    rd->message_ = std::string("RenderDoc API ") + std::to_string(major) + "." + std::to_string(minor) + "." +
                   std::to_string(patch) + (rd->injected_ ? " (injected)" : " (loaded)");
    return rd;
}

void RenderDoc::setCaptureFilePathTemplate(const std::string& pathTemplate) {
    if (api_) api_->SetCaptureFilePathTemplate(pathTemplate.c_str());
}

void RenderDoc::startCapture(VkInstance instance) {
    if (api_) api_->StartFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), nullptr);
}

bool RenderDoc::endCapture(VkInstance instance) {
    return api_ && api_->EndFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), nullptr) == 1;
}

bool RenderDoc::isCapturing() const {
    return api_ && api_->IsFrameCapturing() == 1;
}

void RenderDoc::triggerCapture() {
    if (api_) api_->TriggerCapture();
}

uint32_t RenderDoc::captureCount() const {
    return api_ ? api_->GetNumCaptures() : 0;
}

std::string RenderDoc::capturePath(uint32_t index) const {
    if (!api_) return {};
    uint32_t length = 0;
    if (!api_->GetCapture(index, nullptr, &length, nullptr) || length == 0) return {};
    std::string path(length, '\0');
    if (!api_->GetCapture(index, path.data(), &length, nullptr)) return {};
    while (!path.empty() && path.back() == '\0') path.pop_back();
    return path;
}

}  // namespace engine
