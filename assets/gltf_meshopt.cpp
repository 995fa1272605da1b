#include "assets/gltf_meshopt.h"

#include <meshoptimizer.h>

#include <cstring>

#include "assets/gltf_value.h"

namespace sieve::assets::gltf {
namespace {

constexpr const char* kExt = "EXT_meshopt_compression";
bool isFallback(const tinygltf::Buffer& buffer) {
    const tinygltf::Value* ext = extension(buffer.extensions, kExt);
    return ext && ext->IsObject() && ext->Has("fallback") && ext->Get("fallback").IsBool() &&
           ext->Get("fallback").Get<bool>();
}

struct Compressed {
    uint64_t buffer, offset, length, stride, count;
    std::string mode, filter;
};

// Checks the extension's fields against the model and the format; returns an error or empty.
std::string parse(const tinygltf::Model& model, const tinygltf::Value& ext, Compressed& c) {
    if (model.buffers.empty()) return "there are no buffers";
    auto buffer = uintMember(ext, "buffer", model.buffers.size() - 1);
    auto offset = ext.Has("byteOffset") ? uintMember(ext, "byteOffset") : std::optional<uint64_t>(0);
    auto length = uintMember(ext, "byteLength");
    auto stride = uintMember(ext, "byteStride", 256);
    auto count = uintMember(ext, "count", uint64_t(1) << 32);
    auto mode = stringMember(ext, "mode");
    auto filter = ext.Has("filter") ? stringMember(ext, "filter") : std::optional<std::string>("NONE");
    if (!buffer) return "buffer is missing or does not exist";
    if (!offset || !length) return "byteOffset or byteLength is missing or invalid";
    if (!stride || *stride == 0) return "byteStride is missing or not in 1..256";
    if (!count) return "count is missing or invalid";
    if (!mode || !filter) return "mode or filter is missing or not a string";
    c = {*buffer, *offset, *length, *stride, *count, *mode, *filter};
    uint64_t size = model.buffers[c.buffer].data.size();
    if (c.offset > size || c.length > size - c.offset)
        return "compressed range [" + std::to_string(c.offset) + ", +" + std::to_string(c.length) +
               ") exceeds buffer " + std::to_string(c.buffer) + " (" + std::to_string(size) + " bytes)";
    if (c.mode == "ATTRIBUTES") {
        if (c.stride % 4 != 0) return "ATTRIBUTES byteStride " + std::to_string(c.stride) + " is not a multiple of 4";
    } else if (c.mode == "TRIANGLES" || c.mode == "INDICES") {
        if (c.stride != 2 && c.stride != 4) return c.mode + " byteStride must be 2 or 4";
        if (c.mode == "TRIANGLES" && c.count % 3 != 0) return "TRIANGLES count is not a multiple of 3";
        if (c.filter != "NONE") return "filter " + c.filter + " is only defined for ATTRIBUTES";
    } else {
        return "unknown mode '" + c.mode + "'";
    }
    if (c.filter == "OCTAHEDRAL" && c.stride != 4 && c.stride != 8) return "OCTAHEDRAL needs byteStride 4 or 8";
    if (c.filter == "QUATERNION" && c.stride != 8) return "QUATERNION needs byteStride 8";
    if (c.filter != "NONE" && c.filter != "OCTAHEDRAL" && c.filter != "QUATERNION" && c.filter != "EXPONENTIAL")
        return "unknown filter '" + c.filter + "'";
    // The codecs cannot expand data more than 64:1 (vertex codec: 2 header bits per 16 bytes), so a
    // larger claim is malformed; refusing it keeps a 100-byte file from allocating gigabytes.
    if (c.count * c.stride > 256 * c.length + 4096)
        return std::to_string(c.count) + " x " + std::to_string(c.stride) + " bytes cannot come from " +
               std::to_string(c.length) + " compressed bytes";
    return {};
}

std::string decode(const tinygltf::Model& model, const Compressed& c, std::vector<uint8_t>& out) {
    out.assign(c.count * c.stride, 0);
    const unsigned char* src = model.buffers[c.buffer].data.data() + c.offset;
    int rc = 0;
    if (c.mode == "ATTRIBUTES")
        rc = meshopt_decodeVertexBuffer(out.data(), c.count, c.stride, src, c.length);
    else if (c.mode == "TRIANGLES")
        rc = meshopt_decodeIndexBuffer(out.data(), c.count, c.stride, src, c.length);
    else
        rc = meshopt_decodeIndexSequence(out.data(), c.count, c.stride, src, c.length);
    if (rc != 0) return "meshoptimizer could not decode the " + c.mode + " data (code " + std::to_string(rc) + ")";
    if (c.filter == "OCTAHEDRAL") meshopt_decodeFilterOct(out.data(), c.count, c.stride);
    if (c.filter == "QUATERNION") meshopt_decodeFilterQuat(out.data(), c.count, c.stride);
    if (c.filter == "EXPONENTIAL") meshopt_decodeFilterExp(out.data(), c.count, c.stride);
    return {};
}

}  // namespace

std::string decodeMeshoptViews(tinygltf::Model& model) {
    for (size_t v = 0; v < model.bufferViews.size(); ++v) {
        tinygltf::BufferView& bv = model.bufferViews[v];
        const std::string where = "bufferView " + std::to_string(v) + ": ";
        const tinygltf::Value* ext = extension(bv.extensions, kExt);
        if (!ext) {
            if (bv.buffer >= 0 && size_t(bv.buffer) < model.buffers.size() &&
                isFallback(model.buffers[size_t(bv.buffer)]))
                return where + "uses fallback buffer " + std::to_string(bv.buffer) + " but is not compressed";
            continue;
        }
        Compressed c;
        if (std::string e = parse(model, *ext, c); !e.empty()) return where + kExt + ": " + e;
        if (c.count * c.stride != bv.byteLength)
            return where + kExt + ": decoded size " + std::to_string(c.count * c.stride) +
                   " differs from the bufferView's byteLength " + std::to_string(bv.byteLength);
        std::vector<uint8_t> decoded;
        if (std::string e = decode(model, c, decoded); !e.empty()) return where + kExt + ": " + e;
        tinygltf::Buffer buffer;
        buffer.data = std::move(decoded);
        model.buffers.push_back(std::move(buffer));
        bv.buffer = int(model.buffers.size() - 1);
        bv.byteOffset = 0;
    }
    return {};
}

}  // namespace sieve::assets::gltf
