#include "assets/gltf_accessor.h"

#include <cstring>
#include <string>

namespace sieve::assets::gltf {
namespace {

struct View {
    const unsigned char* first = nullptr;  // element 0
    uint64_t count = 0;
    uint64_t stride = 0;
};

Expected<View> checkedView(const tinygltf::Model& model, int index, int type, uint64_t componentSize) {
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
    uint64_t components = type == TINYGLTF_TYPE_VEC3 ? 3 : 1;
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

}  // namespace

Expected<std::vector<glm::vec3>> readVec3(const tinygltf::Model& model, int accessor) {
    if (accessor >= 0 && size_t(accessor) < model.accessors.size()) {
        const tinygltf::Accessor& acc = model.accessors[size_t(accessor)];
        if (acc.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT || acc.normalized)
            return Unexpected{"accessor " + std::to_string(accessor) +
                              " is not FLOAT (quantized attributes are not supported)"};
    }
    auto view = checkedView(model, accessor, TINYGLTF_TYPE_VEC3, sizeof(float));
    if (!view) return Unexpected{view.error()};
    std::vector<glm::vec3> out(view->count);
    for (uint64_t i = 0; i < view->count; ++i) std::memcpy(&out[i], view->first + i * view->stride, sizeof(glm::vec3));
    return out;
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
    auto view = checkedView(model, accessor, TINYGLTF_TYPE_SCALAR, componentSize);
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
