#include "assets/gltf_draco.h"

#include <draco/compression/decode.h>

#include <cstring>
#include <memory>

#include "assets/expected.h"
#include "assets/gltf_value.h"

namespace sieve::assets::gltf {
namespace {

constexpr const char* kExt = "KHR_draco_mesh_compression";

// Appends a tightly packed accessor over a new buffer holding `bytes`; returns its index.
int appendAccessor(tinygltf::Model& model, std::vector<unsigned char> bytes, int componentType, int type,
                   size_t count) {
    tinygltf::Buffer buffer;
    buffer.data = std::move(bytes);
    tinygltf::BufferView view;
    view.buffer = int(model.buffers.size());
    view.byteOffset = 0;
    view.byteLength = buffer.data.size();
    model.buffers.push_back(std::move(buffer));
    tinygltf::Accessor accessor;
    accessor.bufferView = int(model.bufferViews.size());
    accessor.byteOffset = 0;
    accessor.componentType = componentType;
    accessor.type = type;
    accessor.count = count;
    model.bufferViews.push_back(std::move(view));
    model.accessors.push_back(std::move(accessor));
    return int(model.accessors.size() - 1);
}

int componentsOf(int type) {
    switch (type) {
        case TINYGLTF_TYPE_SCALAR: return 1;
        case TINYGLTF_TYPE_VEC2: return 2;
        case TINYGLTF_TYPE_VEC3: return 3;
        case TINYGLTF_TYPE_VEC4: return 4;
        default: return 0;
    }
}

Expected<std::unique_ptr<draco::Mesh>> decodeMesh(const tinygltf::Model& model, const tinygltf::Value& ext) {
    auto viewIndex = uintMember(ext, "bufferView", model.bufferViews.empty() ? 0 : model.bufferViews.size() - 1);
    if (!viewIndex || model.bufferViews.empty()) return Unexpected{"bufferView is missing or does not exist"};
    const tinygltf::BufferView& view = model.bufferViews[*viewIndex];
    if (view.buffer < 0 || size_t(view.buffer) >= model.buffers.size())
        return Unexpected{"bufferView " + std::to_string(*viewIndex) + " refers to a buffer that does not exist"};
    const std::vector<unsigned char>& data = model.buffers[size_t(view.buffer)].data;
    if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset)
        return Unexpected{"bufferView " + std::to_string(*viewIndex) + " exceeds its buffer"};
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(data.data() + view.byteOffset), view.byteLength);
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok()) return Unexpected{"Draco could not decode the data: " + decoded.status().error_msg_string()};
    std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    if (!mesh) return Unexpected{"Draco returned no mesh"};
    return mesh;
}

// One attribute's values per point as floats, `components` each.
Expected<std::vector<unsigned char>> attributeValues(const draco::Mesh& mesh, uint32_t id, int components) {
    const draco::PointAttribute* att = mesh.GetAttributeByUniqueId(id);
    if (!att) return Unexpected{"the Draco data has no attribute with id " + std::to_string(id)};
    if (att->num_components() < components)
        return Unexpected{"Draco attribute " + std::to_string(id) + " has " + std::to_string(att->num_components()) +
                          " components, the accessor needs " + std::to_string(components)};
    const size_t points = mesh.num_points();
    if (!att->is_mapping_identity() && att->indices_map_size() < points)
        return Unexpected{"Draco attribute " + std::to_string(id) + " maps fewer values than there are points"};
    std::vector<unsigned char> out(points * size_t(components) * sizeof(float));
    float value[4];
    for (size_t p = 0; p < points; ++p) {
        draco::AttributeValueIndex index = att->mapped_index(draco::PointIndex(uint32_t(p)));
        if (index.value() >= att->size() || !att->ConvertValue<float>(index, int8_t(components), value))
            return Unexpected{"Draco attribute " + std::to_string(id) + " has no value for point " + std::to_string(p)};
        std::memcpy(out.data() + p * size_t(components) * sizeof(float), value, size_t(components) * sizeof(float));
    }
    return out;
}

std::string decodePrimitive(tinygltf::Model& model, tinygltf::Primitive& prim, const tinygltf::Value& ext) {
    if (!ext.IsObject() || !ext.Has("attributes") || !ext.Get("attributes").IsObject())
        return "has no attributes object";
    auto mesh = decodeMesh(model, ext);
    if (!mesh) return mesh.error();
    const draco::Mesh& m = **mesh;
    const tinygltf::Value& attrs = ext.Get("attributes");
    for (const std::string& name : attrs.Keys()) {
        auto id = uintMember(attrs, name.c_str(), UINT32_MAX);
        if (!id) return "attribute " + name + " has no valid Draco id";
        auto listed = prim.attributes.find(name);
        if (listed == prim.attributes.end()) return "attribute " + name + " is not among the primitive's attributes";
        int type = TINYGLTF_TYPE_VEC3;
        if (listed->second >= 0 && size_t(listed->second) < model.accessors.size())
            type = model.accessors[size_t(listed->second)].type;
        int components = componentsOf(type);
        if (components == 0) return "attribute " + name + " has a matrix type";
        auto values = attributeValues(m, uint32_t(*id), components);
        if (!values) return "attribute " + name + ": " + values.error();
        listed->second =
            appendAccessor(model, std::move(values).value(), TINYGLTF_COMPONENT_TYPE_FLOAT, type, m.num_points());
    }
    std::vector<unsigned char> indices(size_t(m.num_faces()) * 3 * sizeof(uint32_t));
    for (uint32_t f = 0; f < m.num_faces(); ++f) {
        const draco::Mesh::Face& face = m.face(draco::FaceIndex(f));
        for (int k = 0; k < 3; ++k) {
            uint32_t v = face[k].value();
            if (v >= m.num_points()) return "face " + std::to_string(f) + " refers to a point that does not exist";
            std::memcpy(indices.data() + (size_t(f) * 3 + size_t(k)) * sizeof(uint32_t), &v, sizeof(v));
        }
    }
    prim.indices = appendAccessor(model, std::move(indices), TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR,
                                  size_t(m.num_faces()) * 3);
    return {};
}

}  // namespace

std::string decodeDracoPrimitives(tinygltf::Model& model) {
    for (size_t mi = 0; mi < model.meshes.size(); ++mi)
        for (size_t pi = 0; pi < model.meshes[mi].primitives.size(); ++pi) {
            tinygltf::Primitive& prim = model.meshes[mi].primitives[pi];
            const tinygltf::Value* ext = extension(prim.extensions, kExt);
            if (!ext || prim.mode != TINYGLTF_MODE_TRIANGLES) continue;
            if (std::string e = decodePrimitive(model, prim, *ext); !e.empty())
                return "mesh " + std::to_string(mi) + " primitive " + std::to_string(pi) + ": " + kExt + ": " + e;
        }
    return {};
}

}  // namespace sieve::assets::gltf
