#include "assets/gltf_extensions.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace sieve::assets::gltf {
namespace {
constexpr std::array<std::string_view, 5> kSupported = {"EXT_mesh_gpu_instancing", "KHR_mesh_quantization",
                                                        "EXT_meshopt_compression", "KHR_draco_mesh_compression",
                                                        "KHR_texture_transform"};
}  // namespace

bool isSupportedExtension(const std::string& name) {
    return std::find(kSupported.begin(), kSupported.end(), name) != kSupported.end();
}

std::string checkRequiredExtensions(const tinygltf::Model& model) {
    std::string missing;
    for (const std::string& name : model.extensionsRequired)
        if (!isSupportedExtension(name)) missing += (missing.empty() ? "" : ", ") + name;
    if (missing.empty()) return {};
    bool several = missing.find(',') != std::string::npos;
    return std::string(several ? "required extensions " : "required extension ") + missing +
           (several ? " are" : " is") +
           " not supported (supported: EXT_mesh_gpu_instancing, KHR_mesh_quantization, "
           "EXT_meshopt_compression, KHR_draco_mesh_compression, KHR_texture_transform)";
}

void noteIgnoredContent(const tinygltf::Model& model, Notes& notes) {
    for (const std::string& name : model.extensionsUsed) {
        if (isSupportedExtension(name)) continue;
        if (name == "KHR_lights_punctual")
            notes.add("extension KHR_lights_punctual: the file's lights are ignored");
        else
            notes.add("extension " + name + " is not supported, ignored");
    }
    for (size_t i = 0; i < model.skins.size(); ++i) notes.add("skins are ignored: skinned meshes show their bind pose");
    for (const tinygltf::Mesh& mesh : model.meshes)
        for (const tinygltf::Primitive& prim : mesh.primitives)
            if (!prim.targets.empty()) notes.add("morph targets are ignored: primitives show their base shape");
    for (size_t i = 0; i < model.animations.size(); ++i) notes.add("animations are ignored");
}

}  // namespace sieve::assets::gltf
