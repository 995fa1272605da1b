#include "assets/gltf_prepare.h"

#include <nlohmann/json.hpp>
#include <string_view>

namespace sieve::assets::gltf {
namespace {

constexpr const char* kMeshopt = "EXT_meshopt_compression";
constexpr const char* kDraco = "KHR_draco_mesh_compression";
// Four zero bytes: tinygltf refuses an empty data URI.
constexpr const char* kPlaceholderUri = "data:application/octet-stream;base64,AAAAAA==";

uint32_t readU32(const uint8_t* p) {
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

void writeU32(std::vector<uint8_t>& out, uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
}

// EXT_meshopt_compression fallback buffers without a uri get a placeholder one.
bool fillFallbackBuffers(nlohmann::json& doc) {
    bool changed = false;
    if (!doc.contains("buffers") || !doc["buffers"].is_array()) return false;
    for (nlohmann::json& buffer : doc["buffers"]) {
        if (!buffer.is_object() || buffer.contains("uri")) continue;
        auto ext = buffer.find("extensions");
        if (ext == buffer.end() || !ext->is_object() || !ext->contains(kMeshopt)) continue;
        const nlohmann::json& mo = (*ext)[kMeshopt];
        if (!mo.is_object() || !mo.contains("fallback") || mo["fallback"] != true) continue;
        buffer["uri"] = kPlaceholderUri;
        buffer["byteLength"] = 4;
        changed = true;
    }
    return changed;
}

// Draco primitives' index accessors have no bufferView (the indices come from the Draco data), which
// tinygltf 2.7 refuses; the loader makes new indices from the decoded faces, so the member goes.
bool dropDracoIndices(nlohmann::json& doc) {
    bool changed = false;
    if (!doc.contains("meshes") || !doc["meshes"].is_array()) return false;
    for (nlohmann::json& mesh : doc["meshes"]) {
        if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
        for (nlohmann::json& prim : mesh["primitives"]) {
            if (!prim.is_object() || !prim.contains("indices")) continue;
            auto ext = prim.find("extensions");
            if (ext == prim.end() || !ext->is_object() || !ext->contains(kDraco)) continue;
            prim.erase("indices");
            changed = true;
        }
    }
    return changed;
}

// Returns the patched JSON text, or nothing when nothing needs a change.
std::optional<std::string> patchJson(std::string_view text) {
    // Cheap test first: most files use neither extension.
    if (text.find(kMeshopt) == std::string_view::npos && text.find(kDraco) == std::string_view::npos)
        return std::nullopt;
    nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
    bool changed = fillFallbackBuffers(doc);
    changed = dropDracoIndices(doc) || changed;
    if (!changed) return std::nullopt;
    return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::optional<std::vector<uint8_t>> prepareForTinygltf(std::span<const uint8_t> file, bool glb) {
    if (!glb) {
        auto json = patchJson(std::string_view(reinterpret_cast<const char*>(file.data()), file.size()));
        if (!json) return std::nullopt;
        return std::vector<uint8_t>(json->begin(), json->end());
    }
    // GLB: header (12), JSON chunk header (8) and JSON, then the other chunks unchanged.
    const uint64_t length = readU32(&file[8]), jsonLength = readU32(&file[12]);
    auto json = patchJson(std::string_view(reinterpret_cast<const char*>(&file[20]), jsonLength));
    if (!json) return std::nullopt;
    while (json->size() % 4) *json += ' ';
    const uint64_t rest = length - 20 - jsonLength;
    if (20 + json->size() + rest > UINT32_MAX) return std::nullopt;
    std::vector<uint8_t> out;
    out.reserve(20 + json->size() + rest);
    writeU32(out, readU32(&file[0]));
    writeU32(out, readU32(&file[4]));
    writeU32(out, uint32_t(20 + json->size() + rest));
    writeU32(out, uint32_t(json->size()));
    writeU32(out, readU32(&file[16]));
    out.insert(out.end(), json->begin(), json->end());
    out.insert(out.end(), file.begin() + long(20 + jsonLength), file.begin() + long(length));
    return out;
}

}  // namespace sieve::assets::gltf
