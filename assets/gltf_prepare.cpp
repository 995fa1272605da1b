#include "assets/gltf_prepare.h"

#include <nlohmann/json.hpp>
#include <string_view>

#include "assets/gltf_loader.h"

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

// A member as tinygltf 2.7 reads an integer property (any JSON integer, cast to int).
std::optional<int> intMember(const nlohmann::json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer()) return std::nullopt;
    return static_cast<int>(it->get<int64_t>());
}

// A member as tinygltf 2.7 reads an unsigned property (a non-negative JSON integer).
std::optional<uint64_t> unsignedMember(const nlohmann::json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number_unsigned()) return std::nullopt;
    return it->get<uint64_t>();
}

// The element `index` of array member `key`, or nullptr.
const nlohmann::json* element(const nlohmann::json& doc, const char* key, int index) {
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_array() || index < 0 || size_t(index) >= it->size()) return nullptr;
    const nlohmann::json& e = (*it)[size_t(index)];
    return e.is_object() ? &e : nullptr;
}

// Images stored in a bufferView: tinygltf 2.7 hands &buffer.data[byteOffset] and byteLength to the image
// callback without checking either against the buffer (found by the fuzzer: a heap-buffer-overflow read past
// the buffer, and a pointer overflow for a byteOffset near 2^64). A buffer tinygltf accepts holds exactly
// byteLength bytes, so the ranges are checked here against the JSON; what tinygltf refuses by itself (a
// missing bufferView or buffer, a value that is not an unsigned integer) is left to it.
std::string checkImageViews(const nlohmann::json& doc) {
    auto images = doc.find("images");
    if (images == doc.end() || !images->is_array()) return {};
    for (size_t i = 0; i < images->size(); ++i) {
        const nlohmann::json& image = (*images)[i];
        if (!image.is_object()) continue;
        auto viewIndex = intMember(image, "bufferView");
        const nlohmann::json* view = viewIndex ? element(doc, "bufferViews", *viewIndex) : nullptr;
        if (!view) continue;
        auto bufferIndex = intMember(*view, "buffer");
        auto length = unsignedMember(*view, "byteLength");
        const uint64_t offset = unsignedMember(*view, "byteOffset").value_or(0);
        const nlohmann::json* buffer = bufferIndex ? element(doc, "buffers", *bufferIndex) : nullptr;
        auto size = buffer ? unsignedMember(*buffer, "byteLength") : std::nullopt;
        if (!length || !size) continue;
        if (offset > *size || *length > *size - offset)
            return "image " + std::to_string(i) + ": bufferView " + std::to_string(*viewIndex) + " [" +
                   std::to_string(offset) + ", +" + std::to_string(*length) + ") exceeds buffer " +
                   std::to_string(*bufferIndex) + " (" + std::to_string(*size) + " bytes)";
    }
    return {};
}

// tinygltf 2.7 converts extras and extensions to tinygltf::Value recursively (ParseJsonAsValue), a few stack
// frames per level, and our own dump() recurses too: 5000 nested arrays in 10 KB of extras overflowed the
// fuzzer's 8 MB stack (found by reading tinygltf for the fuzzer's reach, confirmed with the fuzz target). The
// depth is counted on the text, outside strings; for valid JSON that is its nesting.
std::string checkNesting(std::string_view text) {
    uint64_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;  // the escaped character
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxGltfJsonDepth)
                return "JSON is nested deeper than " + std::to_string(kMaxGltfJsonDepth) + " levels";
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return {};
}

// The JSON pass: the patched JSON text (nothing when nothing needs a change), or an error.
Expected<std::optional<std::string>> passJson(std::string_view text) {
    if (std::string e = checkNesting(text); !e.empty()) return Unexpected{e};
    // Cheap tests first: most files use neither extension. Image views are checked wherever "images" may be
    // a key, spelled out or with escaped characters.
    const bool compressed =
        text.find(kMeshopt) != std::string_view::npos || text.find(kDraco) != std::string_view::npos;
    const bool images = text.find("images") != std::string_view::npos || text.find("\\u") != std::string_view::npos;
    if (!compressed && !images) return std::optional<std::string>{};
    nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return std::optional<std::string>{};
    bool changed = false;
    if (compressed) {
        changed = fillFallbackBuffers(doc);
        changed = dropDracoIndices(doc) || changed;
    }
    if (std::string e = checkImageViews(doc); !e.empty()) return Unexpected{e};
    if (!changed) return std::optional<std::string>{};
    return std::optional<std::string>{doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

}  // namespace

Expected<std::optional<std::vector<uint8_t>>> prepareForTinygltf(std::span<const uint8_t> file, bool glb) {
    using Result = std::optional<std::vector<uint8_t>>;
    if (!glb) {
        auto json = passJson(std::string_view(reinterpret_cast<const char*>(file.data()), file.size()));
        if (!json) return Unexpected{json.error()};
        if (!*json) return Result{};
        return Result{std::vector<uint8_t>((*json)->begin(), (*json)->end())};
    }
    // GLB: header (12), JSON chunk header (8) and JSON, then the other chunks unchanged.
    const uint64_t length = readU32(&file[8]), jsonLength = readU32(&file[12]);
    auto passed = passJson(std::string_view(reinterpret_cast<const char*>(&file[20]), jsonLength));
    if (!passed) return Unexpected{passed.error()};
    if (!*passed) return Result{};
    std::string& json = **passed;
    while (json.size() % 4) json += ' ';
    const uint64_t rest = length - 20 - jsonLength;
    if (20 + json.size() + rest > UINT32_MAX) return Result{};
    std::vector<uint8_t> out;
    out.reserve(20 + json.size() + rest);
    writeU32(out, readU32(&file[0]));
    writeU32(out, readU32(&file[4]));
    writeU32(out, uint32_t(20 + json.size() + rest));
    writeU32(out, uint32_t(json.size()));
    writeU32(out, readU32(&file[16]));
    out.insert(out.end(), json.begin(), json.end());
    out.insert(out.end(), file.begin() + long(20 + jsonLength), file.begin() + long(length));
    return Result{std::move(out)};
}

}  // namespace sieve::assets::gltf
