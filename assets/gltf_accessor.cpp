#include "assets/gltf_accessor.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace sieve::assets::gltf {
namespace {

struct View {
    const unsigned char* first = nullptr;  // element 0
    uint64_t count = 0;
    uint64_t stride = 0;
};

Expected<View> checkedView(const tinygltf::Model& model, int index, int type, uint64_t components,
                           uint64_t componentSize) {
    std::string name = "accessor " + std::to_string(index);
    if (index < 0 || size_t(index) >= model.accessors.size()) return Unexpected{name + " does not exist"};
    const tinygltf::Accessor& acc = model.accessors[size_t(index)];
    if (acc.sparse.isSparse) return Unexpected{name + " is sparse (not supported)"};
    if (acc.type != type) return Unexpected{name + " has an unexpected type"};
    if (acc.bufferView < 0 || size_t(acc.bufferView) >= model.bufferViews.size())
        return Unexpected{name + " refers to bufferView " + std::to_string(acc.bufferView) + ", which does not exist"};
    const tinygltf::BufferView& bv = model.bufferViews[size_t(acc.bufferView)];
    if (bv.buffer < 0 || size_t(bv.buffer) >= model.buffers.size())
        return Unexpected{name + ": bufferView " + std::to_string(acc.bufferView) + " refers to buffer " +
                          std::to_string(bv.buffer) + ", which does not exist"};
    const std::vector<unsigned char>& data = model.buffers[size_t(bv.buffer)].data;
    uint64_t bvOffset = bv.byteOffset, bvLength = bv.byteLength, size = data.size();
    if (bvOffset > size || bvLength > size - bvOffset)
        return Unexpected{name + ": bufferView " + std::to_string(acc.bufferView) + " [" + std::to_string(bvOffset) +
                          ", +" + std::to_string(bvLength) + ") exceeds buffer " + std::to_string(bv.buffer) + " (" +
                          std::to_string(size) + " bytes)"};
    uint64_t elementSize = components * componentSize;
    uint64_t stride = bv.byteStride == 0 ? elementSize : uint64_t(bv.byteStride);
    if (stride < elementSize) return Unexpected{name + ": byteStride is smaller than an element"};
    uint64_t count = acc.count, offset = acc.byteOffset;
    View view;
    view.count = count;
    view.stride = stride;
    if (count == 0) return view;
    // (count - 1) * stride + elementSize <= bvLength - offset, written so that nothing can overflow.
    uint64_t avail = offset <= bvLength ? bvLength - offset : 0;
    if (offset > bvLength || elementSize > avail || (count - 1) > (avail - elementSize) / stride)
        return Unexpected{name + ": " + std::to_string(count) + " elements at offset " + std::to_string(offset) +
                          " exceed bufferView " + std::to_string(acc.bufferView) + " (" + std::to_string(bvLength) +
                          " bytes)"};
    view.first = data.data() + bvOffset + offset;
    return view;
}

uint64_t componentBytes(int componentType) {
    switch (componentType) {
        case TINYGLTF_COMPONENT_TYPE_BYTE:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
        case TINYGLTF_COMPONENT_TYPE_SHORT:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
        case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
        default: return 0;
    }
}

const char* semanticName(Semantic s) {
    switch (s) {
        case Semantic::Position: return "POSITION";
        case Semantic::Normal: return "NORMAL";
        case Semantic::Texcoord: return "TEXCOORD";
        case Semantic::InstanceTranslation: return "TRANSLATION";
        case Semantic::InstanceRotation: return "ROTATION";
        case Semantic::InstanceScale: return "SCALE";
    }
    return "?";
}

// The component types a semantic accepts (see the header).
bool allowed(Semantic s, int componentType, bool normalized) {
    if (componentType == TINYGLTF_COMPONENT_TYPE_FLOAT) return !normalized;
    bool small = componentBytes(componentType) == 1 || componentBytes(componentType) == 2;
    bool isSigned = componentType == TINYGLTF_COMPONENT_TYPE_BYTE || componentType == TINYGLTF_COMPONENT_TYPE_SHORT;
    switch (s) {
        case Semantic::Position:
        case Semantic::Texcoord:
        case Semantic::InstanceTranslation:
        case Semantic::InstanceScale: return small;
        case Semantic::Normal:
        case Semantic::InstanceRotation: return small && isSigned && normalized;
    }
    return false;
}

float component(const unsigned char* p, int componentType, bool normalized) {
    switch (componentType) {
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
            int8_t v;
            std::memcpy(&v, p, 1);
            return normalized ? std::max(float(v) / 127.0f, -1.0f) : float(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? float(*p) / 255.0f : float(*p);
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? std::max(float(v) / 32767.0f, -1.0f) : float(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? float(v) / 65535.0f : float(v);
        }
        default: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
}

// N floats per element, converted from any component type `semantic` accepts.
template <int N>
Expected<std::vector<glm::vec<N, float>>> readFloats(const tinygltf::Model& model, int accessor, Semantic semantic) {
    constexpr int kTypes[5] = {0, TINYGLTF_TYPE_SCALAR, TINYGLTF_TYPE_VEC2, TINYGLTF_TYPE_VEC3, TINYGLTF_TYPE_VEC4};
    int componentType = 0;
    bool normalized = false;
    if (accessor >= 0 && size_t(accessor) < model.accessors.size()) {
        const tinygltf::Accessor& acc = model.accessors[size_t(accessor)];
        componentType = acc.componentType;
        normalized = acc.normalized;
        if (!allowed(semantic, componentType, normalized))
            return Unexpected{"accessor " + std::to_string(accessor) + ": component type " +
                              std::to_string(componentType) + (normalized ? " (normalized)" : "") +
                              " is not allowed for " + semanticName(semantic)};
    }
    uint64_t size = componentBytes(componentType);
    auto view = checkedView(model, accessor, kTypes[N], N, size);
    if (!view) return Unexpected{view.error()};
    std::vector<glm::vec<N, float>> out(view->count);
    for (uint64_t i = 0; i < view->count; ++i) {
        const unsigned char* e = view->first + i * view->stride;
        for (int c = 0; c < N; ++c) out[i][c] = component(e + uint64_t(c) * size, componentType, normalized);
    }
    return out;
}

}  // namespace

Expected<std::vector<glm::vec3>> readVec3(const tinygltf::Model& model, int accessor, Semantic semantic) {
    return readFloats<3>(model, accessor, semantic);
}

Expected<std::vector<glm::vec2>> readVec2(const tinygltf::Model& model, int accessor, Semantic semantic) {
    return readFloats<2>(model, accessor, semantic);
}

Expected<std::vector<glm::vec4>> readVec4(const tinygltf::Model& model, int accessor, Semantic semantic) {
    return readFloats<4>(model, accessor, semantic);
}

Expected<std::vector<uint32_t>> readIndices(const tinygltf::Model& model, int accessor) {
    uint64_t componentSize = 0;
    if (accessor >= 0 && size_t(accessor) < model.accessors.size()) {
        switch (model.accessors[size_t(accessor)].componentType) {
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: componentSize = 1; break;
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: componentSize = 2; break;
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: componentSize = 4; break;
            default: return Unexpected{"index accessor " + std::to_string(accessor) + " has an invalid component type"};
        }
    }
    auto view = checkedView(model, accessor, TINYGLTF_TYPE_SCALAR, 1, componentSize);
    if (!view) return Unexpected{view.error()};
    std::vector<uint32_t> out(view->count);
    for (uint64_t i = 0; i < view->count; ++i) {
        const unsigned char* p = view->first + i * view->stride;
        if (componentSize == 1)
            out[i] = *p;
        else if (componentSize == 2) {
            uint16_t v;
            std::memcpy(&v, p, 2);
            out[i] = v;
        } else
            std::memcpy(&out[i], p, 4);
    }
    return out;
}

}  // namespace sieve::assets::gltf
