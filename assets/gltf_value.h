#pragma once
// Private to the glTF loader: typed reads of extension objects (tinygltf::Value), which tinygltf
// leaves untyped. Numbers are checked before conversion: Value::GetNumberAsInt casts a double to int
// unchecked, which is undefined for 1e300.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

// An integer member in [0, max]; nothing when absent, not a number, fractional or out of range.
inline std::optional<uint64_t> uintMember(const tinygltf::Value& object, const char* key,
                                          uint64_t max = (uint64_t(1) << 53)) {
    if (!object.IsObject() || !object.Has(key)) return std::nullopt;
    const tinygltf::Value& v = object.Get(key);
    if (!v.IsNumber()) return std::nullopt;
    double d = v.GetNumberAsDouble();
    if (!(d >= 0.0) || d > double(max) || std::floor(d) != d) return std::nullopt;
    return uint64_t(d);
}

// A string member; nothing when absent or not a string.
inline std::optional<std::string> stringMember(const tinygltf::Value& object, const char* key) {
    if (!object.IsObject() || !object.Has(key) || !object.Get(key).IsString()) return std::nullopt;
    return object.Get(key).Get<std::string>();
}

// The object an extension map holds under `name`, or nullptr.
inline const tinygltf::Value* extension(const tinygltf::ExtensionMap& map, const char* name) {
    auto it = map.find(name);
    return it == map.end() ? nullptr : &it->second;
}

// An accessor index member (in range of the model), or -1 with `present` telling absent from invalid.
inline int accessorMember(const tinygltf::Model& model, const tinygltf::Value& object, const char* key, bool& present) {
    present = object.IsObject() && object.Has(key);
    auto v = uintMember(object, key, model.accessors.size() ? model.accessors.size() - 1 : 0);
    return v && !model.accessors.empty() ? int(*v) : -1;
}

}  // namespace sieve::assets::gltf
